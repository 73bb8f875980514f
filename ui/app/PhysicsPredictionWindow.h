#pragma once
// Measures vs Physics (Grasp > Measures vs Physics…): the table of `softgrasp-cli compare --against-physics`
// (src/sim/README.md §Measures against physics), opened from its --json document or its --csv, read by
// ui/shared/PhysicsPredictionTable.h, or computed here: Run… calls the engine's sim::comparePhysics (the call the
// CLI makes) on a JobRunner (progress bar, Cancel, Esc) on copies of the current world and/or world files, with
// the live analysis' settings, or sim::comparePhysicsOnList on a grasp list's grasps on the current world; a cancel during the trials keeps the grasps tried (the table marked incomplete).
// The run's table is read back from the engine's document (sim/PhysicsComparisonJson.h), which Save… writes:
// the CLI's --json format and version. Shows the rows (model, measure, grasps, no value, successes, ROC AUC,
// Spearman ρ) and two Qt Charts grouped bar charts in tabs, ROC AUC and Spearman ρ per measure with one bar set
// per contact model (in the model's colour, as the comparison overlay); an undefined value is an empty bar and
// "undefined" in the table. Export: the shown chart as PNG or SVG (Qt SVG's generator), atomically.
#include <QWidget>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "PhysicsPredictionTable.h"
#include "PhysicsRunDialog.h"
#include "sim/PhysicsComparison.h"

class QChart;
class QChartView;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
class QTabWidget;

namespace sg::app {

class Document;
class GraspAnalysis;
class JobRunner;

// What Run… plans on besides world files: the open document with the live analysis' settings, and the hand and
// graspable (-1: none) asked when Run is pressed. Without a document only world files can be run.
struct PhysicsRunSource {
  const Document* doc = nullptr;
  const GraspAnalysis* analysis = nullptr;
  std::function<std::pair<int, int>()> target;
};

// A finished run: the engine's result and what the document names (files) and carries (warnings).
struct PhysicsRun {
  sim::PhysicsComparison comparison;
  sim::PhysicsComparisonRequest request;
  std::vector<std::string> files;     // per world: its file, or the document's path ("" for an unsaved world)
  std::vector<std::string> warnings;  // the worlds' load warnings
};

class PhysicsPredictionWindow : public QWidget {
  Q_OBJECT
 public:
  enum class Statistic { Auc, Spearman };

  explicit PhysicsPredictionWindow(QWidget* parent = nullptr);
  ~PhysicsPredictionWindow() override;

  // Loads the file (JSON or CSV); false with `error` (naming the file and the problem) when it cannot, the
  // window keeping what it showed.
  bool openFile(const QString& path, QString* error);
  // openFile with the error in a warning dialog (the Open… button, the menu).
  bool openFileReporting(const QString& path);
  // The Open… button: a file chooser, then openFileReporting.
  void chooseFile();

  void setRunSource(PhysicsRunSource source);
  // Starts the comparison with `settings` in the background; false (the reason in the status line) when a run
  // is going on or there is no world to plan. Ends with runFinished(), runCancelled() or runFailed().
  bool run(const PhysicsRunSettings& settings);
  // The Run… button: the settings dialog (the last run's settings), then run().
  void chooseRun();
  // Cancel and Esc: while planning the run ends without a table; during the trials the grasps tried make it.
  void cancel();
  bool running() const { return running_; }
  // The last run's result (null after Open…, before a run).
  const PhysicsRun* lastRun() const { return run_.get(); }
  // The last run's softgrasp.physics-prediction document (sim::physicsComparisonJson), atomically.
  bool saveRun(const QString& path, QString* error) const;

  const std::optional<shared::PredictionTable>& table() const { return table_; }
  const QString& path() const { return path_; }
  QChart* chart(Statistic which) const;
  QChartView* chartView(Statistic which) const;
  QTabWidget* tabs() const { return tabs_; }
  QTableWidget* tableWidget() const { return rowsTable_; }
  QLabel* statusLabel() const { return status_; }
  QPushButton* runButton() const { return runButton_; }
  QPushButton* cancelButton() const { return cancel_; }
  QPushButton* saveButton() const { return save_; }
  QProgressBar* progressBar() const { return progress_; }

  // The chart of `which` as PNG or SVG; exportChart picks by the suffix (".svg": SVG, else PNG) and exports the
  // chart of the current tab. False with `error` set on failure.
  bool exportPng(const QString& path, Statistic which, QString* error) const;
  bool exportSvg(const QString& path, Statistic which, QString* error) const;
  bool exportChart(const QString& path, QString* error) const;

 signals:
  void runFinished();
  void runCancelled();
  void runFailed(const QString& error);
  void runProgress(double fraction, const QString& message);

 private:
  void showRun();
  void setRunning(bool on);
  void showTable();
  void plot(Statistic which);
  Statistic currentStatistic() const;

  std::optional<shared::PredictionTable> table_;
  QString path_;
  QTabWidget* tabs_;
  QChartView* aucView_;
  QChartView* spearmanView_;
  QTableWidget* rowsTable_;
  QLabel* status_;
  QPushButton* open_;
  QPushButton* export_;
  QPushButton* runButton_;
  QPushButton* cancel_;
  QPushButton* save_;
  QProgressBar* progress_;
  JobRunner* jobs_;
  PhysicsRunSource source_;
  PhysicsRunSettings runSettings_;
  std::shared_ptr<const PhysicsRun> run_;
  std::uint64_t generation_ = 0;
  bool running_ = false;
};

}  // namespace sg::app
