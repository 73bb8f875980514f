#pragma once
// Grasp > Planner: the grasp planner dock (src/grasp/planner/PLANNER.md §The application's dock). Settings
// (PlannerSettingsPanel.h), Start / Pause / Reset / Cancel, a progress bar, a live plot (PlannerChart.h), the
// current search state shown in the viewport at most 5 times a second (switchable), and the results
// (PlannerResultsTable.h): < Best > browsing, pre-grasp / final grasp preview, Apply (one undo step), Save / Load
// of the grasp list (JSON), To Database (a grasp database, src/store), Save as a GraspIt! world, and Capture of
// the current hand-made grasp.
//
// The search itself is the engine's: Start starts a planner::PlannerRun (its own thread, a copy of the world
// taken at Start, so the GUI never blocks and later edits do not disturb the run), a GUI timer polls it and
// draws (PlannerRunControl.cpp). Type "Online" runs GraspIt!'s on-line planner until Cancel: it searches around
// the hand's current pose, follows the hand whenever the Document's hand moves, shows its best state and, when
// cancelled, lists its best states near the hand. Capture and Load use planner/GraspCapture.h. A preview moves
// only the drawing (WorldScene::updatePoses with a scratch state), never the Document.
#include <QDockWidget>
#include <QElapsedTimer>
#include <QTimer>
#include <memory>
#include <optional>
#include <vector>

#include "grasp/planner/GraspList.h"
#include "grasp/planner/PlannerRun.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTabWidget;
class QRadioButton;
class QVBoxLayout;
class QWidget;

namespace sg::app {

class Document;
class MainWindow;
class PlannerChart;
class PlannerResultsTable;
class PlannerSettingsPanel;

class PlannerDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit PlannerDock(MainWindow* window);
  ~PlannerDock() override;

  // The request the widgets describe, for the hand and object of the toolbar (or robot 0, graspable 0).
  // sg::Error when the world has no hand or object or a variable cell is not a number.
  planner::PlanRequest request() const;

  // Start (or resume when paused), Pause, Reset (cancel, clear results and plot, variables from the hand),
  // Cancel (stop; what was found so far is measured and listed). Start returns false with the reason in the
  // status label when it cannot start.
  bool start();
  void pause();
  void reset();
  void cancel();
  bool isRunning() const { return running_; }
  bool isPaused() const;
  // Iterations of the running (or last) search as the live view last saw them.
  long liveIterations() const { return liveIterations_; }
  int plottedSamples() const;  // points of the current-energy series

  // The list: grasps in planner order (ascending energy; captured ones appended).
  const planner::GraspList& list() const { return list_; }
  int currentGrasp() const { return current_; }  // -1: none
  void selectGrasp(int index);                   // also previews it
  void showBest();
  void showPrevious();                           // the row above in the table's current order
  void showNext();
  void setShowFinalGrasp(bool final);            // the preview and Apply use the final grasp (else the pre-grasp)
  // Applies the selected grasp to the Document as one undo step; false without a selected grasp.
  bool applyCurrent();
  // Adds the hand's current configuration (a hand-made grasp) to the list, measured.
  bool captureCurrent();
  bool saveList(const QString& path);
  bool loadList(const QString& path);
  // The list as a new run (kind "plan") of the grasp database `url` (src/store/README.md §URLs; a SQLite file
  // is created if missing): one transaction, poses in the object's frame, measures under the primary contact
  // model. False with the reason in the status line.
  bool saveToDatabase(const QString& url);
  bool saveCurrentAsWorld(const QString& path);
  // The state the viewport shows instead of the Document's (a search state or a grasp); empty: none.
  const std::optional<WorldState>& previewState() const { return preview_; }
  QString statusText() const;
  // Docked and shown (Grasp > Planner, its tab): takes the height its controls ask for from the docks sharing its
  // column, so Start, Cancel and the results show without resizing by hand.
  void makeRoom();

 signals:
  void runFinished();

 private:
  // Layout (PlannerDock.cpp).
  void buildUi();
  QWidget* buildRunControls(QVBoxLayout* layout);  // Start / Pause / Reset / Cancel, progress, status
  QWidget* buildResultsPanel();                     // the table and its tool bar
  // The results pane gets the header, five rows and its tool bar when the splitter has that beyond the settings'
  // or plot's minimum; the tabs keep the rest.
  void balanceSplitter();
  // The status line follows undo/redo of the dock's own Apply: "Undone: Apply Planned Grasp 1", "Redone: …".
  void followUndoStack(int index);
  void rebuildVariables();
  void refreshTable();
  void updateButtons();
  void setStatus(const QString& text);
  // Draws `hand` (pose, DOF values, joints in break-away: applyHandConfiguration) on a copy of the world state, never
  // the Document; false (and the reason in the status line) when it does not fit the robot.
  bool showPreview(int robot, const sg::planner::HandConfiguration& hand);
  void showSearchState(const std::vector<double>& x);  // the running search's state, at most every 200 ms
  void clearPreview();
  int robotIndex() const;
  int graspableIndex() const;

  // Run control (PlannerRunControl.cpp): poll the run, draw what it found, take its list when done.
  void onTick();
  void finishRun();
  void onWorldReplaced();
  void onlineFollowHand();

  MainWindow* window_;
  Document* doc_;
  std::unique_ptr<planner::PlannerRun> run_;                  // the running (or just finished) search
  std::vector<std::unique_ptr<planner::PlannerRun>> retired_;  // reset while running: cancelled, joined when done
  std::optional<planner::HandSearchSpace> runSpace_;          // of the running search (preview mapping)
  bool running_ = false;
  long liveIterations_ = 0;
  QTimer tick_;
  QElapsedTimer lastPreview_;

  planner::GraspList list_;
  int current_ = -1;
  bool showFinal_ = true;
  std::optional<WorldState> preview_;
  // The last Apply: the undo stack's index after it, its text, whether it is undone now, and the status it left
  // (the status follows undo/redo only while it still shows that).
  int appliedIndex_ = -1;
  QString appliedText_;
  bool appliedUndone_ = false;
  QString applyStatus_;
  // A typed number a spin box refused since the last Start: Start says so once instead of running without it.
  QString refusedInput_;

  // Widgets.
  PlannerSettingsPanel* settings_ = nullptr;
  QPushButton* startButton_ = nullptr;
  QPushButton* pauseButton_ = nullptr;
  QPushButton* resetButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  PlannerChart* chart_ = nullptr;
  PlannerResultsTable* results_ = nullptr;
  QTabWidget* tabs_ = nullptr;       // Settings | Plot
  QSplitter* splitter_ = nullptr;    // tabs above the results
  QRadioButton* showPre_ = nullptr;
  QRadioButton* showFinalButton_ = nullptr;
  QPushButton* applyButton_ = nullptr;
};

}  // namespace sg::app
