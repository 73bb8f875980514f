#pragma once
// Quality ▸ Analysis Settings…: the settings of the live analysis that a user tunes — contact threshold (mm),
// contact model (any registered one), the soft contacts' curvature estimator, nominal normal force (N), friction-edge counts, torque scaling
// (object max radius or a length in mm), and on a page per registered model its own settings, built from the
// model's declarations (ContactModel::parameters()). (No L∞ point limit: ε L∞ comes from support functions.) Applied through GraspAnalysis::setSettings
// and kept in QSettings ("analysis/…"), restored at start by installQualityTools. The spin-box ranges make
// invalid settings impossible; values read back from QSettings are clamped to the same ranges.
#include <QDialog>
#include <string>
#include <vector>

#include "GraspAnalysis.h"
#include "contact/CurvatureEstimator.h"

class QComboBox;
class QSettings;
class QDoubleSpinBox;
class QSpinBox;
class QStackedWidget;

namespace sg::app {

// `base` with the persisted fields replaced by what QSettings holds (missing keys keep base's values).
// The keys and file format: ui/shared/AnalysisSettingsIni.h (also read by `softgrasp-cli --settings FILE`).
AnalysisSettings readAnalysisSettings(const AnalysisSettings& base);
AnalysisSettings readAnalysisSettings(QSettings& settings, const AnalysisSettings& base);
void writeAnalysisSettings(const AnalysisSettings& settings);
void writeAnalysisSettings(QSettings& to, const AnalysisSettings& settings);
// Writes the settings to an INI file `path` (group "analysis"), the file `softgrasp-cli --settings` reads.
bool exportAnalysisSettings(const AnalysisSettings& settings, const QString& path);
// The persisted fields equal AnalysisSettings{}'s.
bool sameAsDefaults(const AnalysisSettings& settings);

// The dialog's name of a curvature estimator ("Osculating jet (accurate)", "GraspIt! paraboloid (parity)").
QString curvatureEstimatorLabel(CurvatureEstimator e);

// The soft ring pattern from the equator count: softRingsWithEquator / equatorDirectionsOf (contact/FrictionEdges.h).

class AnalysisSettingsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit AnalysisSettingsDialog(GraspAnalysis* analysis, QWidget* parent = nullptr);

  // Fills the fields from settings.
  void showSettings(const AnalysisSettings& settings);
  // The analysis' current settings with the dialog's fields applied.
  AnalysisSettings editedSettings() const;
  // Applies to the analysis and persists. OK applies too; Cancel leaves everything as it was.
  void apply();

  QDoubleSpinBox* thresholdSpin() const { return threshold_; }
  QComboBox* contactModelCombo() const { return contactModel_; }
  QComboBox* curvatureEstimatorCombo() const { return curvatureEstimator_; }
  QDoubleSpinBox* normalForceSpin() const { return normalForce_; }
  QSpinBox* pointEdgesSpin() const { return pointEdges_; }
  QSpinBox* softEquatorSpin() const { return softEquator_; }
  QComboBox* torqueScaleCombo() const { return torqueScale_; }
  QDoubleSpinBox* torqueLengthSpin() const { return torqueLength_; }
  // The field of `model`'s parameter `key` (object name "param.MODEL.KEY"): a QDoubleSpinBox, QSpinBox,
  // QComboBox or QCheckBox by its kind; nullptr if the model declares no such parameter.
  QWidget* parameterWidget(const std::string& model, const std::string& key) const;
  // The page of the model chosen in the contact-model combo.
  QStackedWidget* modelPages() const { return modelPages_; }

 private:
  struct ParameterField {
    std::string model;
    ModelParameter parameter;
    QWidget* widget = nullptr;
    double source = 0;  // the value showSettings was given
    double shown = 0;   // the same as the widget holds it (rounded to its decimals, clamped to its range)
  };
  QWidget* buildModelPage(const ContactModel& model);
  std::vector<ParameterField> parameterFields_;
  QStackedWidget* modelPages_ = nullptr;
  GraspAnalysis* analysis_;
  QDoubleSpinBox* threshold_;
  QComboBox* contactModel_;
  QComboBox* curvatureEstimator_;
  QDoubleSpinBox* normalForce_;
  QSpinBox* pointEdges_;
  QSpinBox* softEquator_;
  QComboBox* torqueScale_;
  QDoubleSpinBox* torqueLength_;
};

}  // namespace sg::app
