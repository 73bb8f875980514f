#pragma once
// The Comparison dock (Quality > Compare Contact Models): every registered contact model on the grasp the live
// analysis sees (src/grasp/ModelComparison.h: the analysis' contacts reused, one evaluation per model, computed
// off the GUI thread after each update while the dock is visible: a tab behind the Quality dock). Models are columns; per contact the rows
// patch shape, area, normal force, peak pressure and torsional limit; then the grasp's ε (L1, L∞, exact cone)
// and L1 volume per model. A checkbox per model chooses whose patches ComparisonOverlay draws in the viewport
// (overlayModelsChanged; all unchecked at start, so the view shows the grasp alone until asked); "Sensitivity
// Plots…" opens the sweep window on the same grasp.
// Results only: the dock reads the analysis and never edits the model or the scene.
#include <QDockWidget>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>

#include "grasp/ModelComparison.h"

class QCheckBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sg::app {

class Document;
class GraspAnalysis;
class JobRunner;

// The grasp the analysis evaluated, captured by value for background work (comparison, sweep).
struct GraspSnapshot {
  std::shared_ptr<const World> world;
  WorldState state;
  std::vector<Contact> contacts;
  int graspable = -1;
  QualitySettings settings;
};
// nullopt when the analysis has no graspable.
std::optional<GraspSnapshot> snapshotGrasp(const Document& doc, const GraspAnalysis& analysis);

class ComparisonDock : public QDockWidget {
  Q_OBJECT
 public:
  ComparisonDock(GraspAnalysis* analysis, const Document* doc, QWidget* parent = nullptr);
  ~ComparisonDock() override;

  // The last comparison (nullptr before the first one finished, or without a graspable).
  const ModelComparison* comparison() const { return comparison_.get(); }
  // Registered names of the models whose patches are overlaid (none on a fresh start: the checkboxes ask).
  QStringList overlayModels() const;
  void setOverlayModel(const QString& model, bool shown);
  QCheckBox* overlayCheckBox(const QString& model) const;
  QTableWidget* table() const { return table_; }
  QLabel* statusLabel() const { return status_; }
  QPushButton* sensitivityButton() const { return sensitivity_; }
  // The text of a cell: `row` a table row label ("1 area (mm²)" etc. as shown in the vertical header), `model` a name.
  QString cellText(int row, const QString& model) const;
  // Number of comparisons received (tests).
  int comparisonCount() const { return comparisons_; }

  // Starts a comparison of the current analysis (also on every GraspAnalysis::updated while visible).
  void recompute();

 signals:
  void comparisonChanged();
  void overlayModelsChanged();
  void sensitivityRequested();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void fill();

  GraspAnalysis* analysis_;
  const Document* doc_;
  JobRunner* jobs_;
  std::uint64_t generation_ = 0;
  bool stale_ = true;
  std::shared_ptr<const ModelComparison> comparison_;
  int comparisons_ = 0;
  QTableWidget* table_;
  QLabel* status_;
  QPushButton* sensitivity_;
  std::vector<QCheckBox*> boxes_;  // one per registered model
};

}  // namespace sg::app
