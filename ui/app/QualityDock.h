#pragma once
// The Quality dock: the grasp's measures the user chose from the engine's registry (src/grasp/QualityMeasure.h:
// ε and volume of the L1 and L∞ wrench spaces, σmin of the grasp matrix, whatever is registered; added and
// removed with the buttons, remembered by name in QSettings "quality/measures"), their live values after
// every GraspAnalysis update ("computing…" for expensive ones — the L∞ hull's volume — while the analysis
// computes them in the background; the L1 volume keeps its last value, greyed, until its hull arrives; every ε is computed at once from support functions, its tooltip giving
// the certified lower and upper bounds, the gap and the support queries), a force-closure indicator, the
// graspable evaluated and the analysis' notes (errors, soft contacts that fell back to point contacts, an L∞
// hull over its point limit).
#include <QDockWidget>
#include <QStringList>

class QLabel;
class QTableWidget;
class QToolButton;

namespace sg::app {

class Document;
class GraspAnalysis;

// A registered measure's label ("ε L1"), or the name itself when unknown.
QString measureLabel(const QString& name);

class QualityDock : public QDockWidget {
  Q_OBJECT
 public:
  QualityDock(GraspAnalysis* analysis, const Document* doc, QWidget* parent = nullptr);

  // Registered names ("epsilon-l1", ...), in registry order.
  const QStringList& measures() const { return measures_; }
  // No-ops for a measure already shown / not shown, or not registered. Persisted at once.
  void addMeasure(const QString& name);
  void removeMeasure(const QString& name);
  // A shown measure is expensive (computed in the background).
  bool needsLInfinity() const;

  // What the dock shows (tests, status): a measure's value text (empty if not shown), the indicator.
  QString valueText(const QString& name) const;
  // The value is being computed in the background (a volume while its hull is built): the last value is shown
  // greyed until the new one arrives.
  bool valuePending(const QString& name) const;
  QLabel* forceClosureLabel() const { return forceClosure_; }
  QLabel* graspableLabel() const { return graspable_; }
  QLabel* notesLabel() const { return notes_; }
  // The active contact model, patch model and normal force, and whether the settings are not the defaults.
  QLabel* settingsLabel() const { return settings_; }
  // Height that shows the graspable, force closure, every measure's value and the settings in force (the notes
  // scroll).
  int valuesHeight() const;
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
  QStringList measures_;
  QLabel* graspable_;
  QLabel* forceClosure_;
  QTableWidget* table_;
  QToolButton* add_;
  QToolButton* remove_;
  QLabel* notes_;
  QLabel* settings_ = nullptr;
};

}  // namespace sg::app
