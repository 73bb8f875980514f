#pragma once
// Quality ▸ Analysis Settings…: the settings of the live analysis that a user tunes — contact threshold (mm),
// contact model (any registered one), the soft contacts' curvature estimator, nominal normal force (N), friction-edge counts, torque scaling
// (object max radius or a length in mm). (No L∞ point limit: ε L∞ comes from support functions.) Applied through GraspAnalysis::setSettings
// and kept in QSettings ("analysis/…"), restored at start by installQualityTools. The spin-box ranges make
// invalid settings impossible; values read back from QSettings are clamped to the same ranges.
#include <QDialog>

#include "GraspAnalysis.h"
#include "contact/CurvatureEstimator.h"

class QComboBox;
class QSettings;
class QDoubleSpinBox;
class QSpinBox;

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

// Soft limit-surface sampling from one number, the directions on the equator m: GraspIt!'s ring pattern
// {1, 5, 8, 5, 1} on latitudes {90, 45, 0, −45, −90}° scaled to {1, round(5m/8), m, round(5m/8), 1}.
std::vector<FrictionRing> softRingsWithEquator(int equatorDirections);
// The equator directions of a ring list (the ring at latitude 0; 8 if there is none).
int equatorDirectionsOf(const std::vector<FrictionRing>& rings);

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

 private:
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
