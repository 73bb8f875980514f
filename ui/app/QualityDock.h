#pragma once
// The Quality dock: the grasp's measures the user chose (ε and volume of the L1 and L∞ wrench spaces,
// added and removed with the buttons, remembered in QSettings "quality/measures"), their live values after
// every GraspAnalysis update ("computing…" for L∞ ones while the analysis builds that space in the
// background), a force-closure indicator, the graspable evaluated and the analysis' notes
// (errors, soft contacts that fell back to point contacts, an L∞ space over its point limit).
#include <QDockWidget>
#include <QList>

class QLabel;
class QTableWidget;
class QToolButton;

namespace sg::app {

class Document;
class GraspAnalysis;

enum class QualityMeasure { EpsilonL1, EpsilonLInfinity, VolumeL1, VolumeLInfinity };

QString measureName(QualityMeasure m);  // shown ("ε L1", ...)
QString measureKey(QualityMeasure m);   // stored ("epsilonL1", ...)
const QList<QualityMeasure>& allQualityMeasures();

class QualityDock : public QDockWidget {
  Q_OBJECT
 public:
  QualityDock(GraspAnalysis* analysis, const Document* doc, QWidget* parent = nullptr);

  const QList<QualityMeasure>& measures() const { return measures_; }
  // No-ops for a measure already shown / not shown. Persisted at once.
  void addMeasure(QualityMeasure m);
  void removeMeasure(QualityMeasure m);
  // A shown measure needs the L∞ space.
  bool needsLInfinity() const;

  // What the dock shows (tests, status): a measure's value text (empty if not shown), the indicator.
  QString valueText(QualityMeasure m) const;
  QLabel* forceClosureLabel() const { return forceClosure_; }
  QLabel* graspableLabel() const { return graspable_; }
  QLabel* notesLabel() const { return notes_; }
  QTableWidget* table() const { return table_; }
  QToolButton* addButton() const { return add_; }
  QToolButton* removeButton() const { return remove_; }

  // Formats every shown value from the analysis (called on GraspAnalysis::updated and lInfinityUpdated).
  void refresh();

 signals:
  void measuresChanged();

 private:
  void rebuildRows();
  void rebuildAddMenu();
  void storeMeasures() const;

  GraspAnalysis* analysis_;
  const Document* doc_;
  QList<QualityMeasure> measures_;
  QLabel* graspable_;
  QLabel* forceClosure_;
  QTableWidget* table_;
  QToolButton* add_;
  QToolButton* remove_;
  QLabel* notes_;
};

}  // namespace sg::app
