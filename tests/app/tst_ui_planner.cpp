// The planner dock (ui/app/PlannerDock.h) on the offscreen platform: Grasp > Planner shows it; Start runs the
// planner off the GUI thread with progress and a live plot; Pause stops the iterations and Resume goes on;
// the results table fills, sorts and browses; Apply is one undo step and Undo restores the hand; Cancel keeps
// what was found; the list saves and loads; a grasp saves as a world; Capture adds the hand-made grasp.
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QStatusBar>
#include <QMenu>
#include <QProgressBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "Document.h"
#include "GraspCommands.h"
#include "MainWindow.h"
#include "PlannerDock.h"
#include "RefusedInput.h"
#include "SceneTreeDock.h"
#include "grasp/Analysis.h"
#include "grasp/planner/GraspPlanner.h"
#include "io/ModelIO.h"
#include "render/CoinInit.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

class TstUiPlanner : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
  }
  void init() {
    window_ = std::make_unique<MainWindow>();
    QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/paralleljaw_box.xml")));
    QVERIFY(dock() && !dock()->isFloating());
    QVERIFY(window_->tabifiedDockWidgets(window_->sceneTreeDock()).contains(dock()));  // a tab, behind the scene
    QAction* action = window_->findChild<QAction*>(QStringLiteral("actionPlanner"));
    QVERIFY(action);
    QVERIFY(window_->graspMenu()->actions().contains(action));
    action->trigger();
    QVERIFY(dock() && dock()->isVisibleTo(window_.get()));
  }
  void cleanup() {
    if (window_) window_->document()->undoStack()->setClean();
    window_.reset();
  }

  void startProgressPauseResultsApplyUndo();
  void cancelKeepsWhatWasFound();
  void saveLoadCaptureAndWorld();
  void variablesTableDrivesTheRequest();
  void onlineFollowsTheHand();
  void stepsFollowTheParameterSet();
  void resultsOpenRankFirstAndStatusFollowsUndo();
  void refusedNumbersAreReported();
  void appliedGraspKeepsItsBreakAwayJoints();

 private:
  PlannerDock* dock() const { return window_->findChild<PlannerDock*>(QStringLiteral("plannerDock")); }
  template <class T>
  T* child(const char* name) const { return dock()->findChild<T*>(QString::fromLatin1(name)); }
  void setSmallRun(int iterations) {
    child<QComboBox>("plannerEnergyCombo")->setCurrentText("autograsp-quality");
    child<QSpinBox>("plannerStepsSpin")->setValue(30000 + iterations);
    child<QSpinBox>("plannerSeedSpin")->setValue(7);
    child<QSpinBox>("plannerThreadsSpin")->setValue(2);
  }
  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
};

void TstUiPlanner::startProgressPauseResultsApplyUndo() {
  PlannerDock* d = dock();
  // Enough iterations for a force-closure grasp in the list.
  setSmallRun(4000);
  {
    // Unedited variables give the hand's exact configuration: the request equals the CLI's.
    const planner::PlanRequest r = d->request();
    const auto space = planner::makeSearchSpace(window_->document()->world(), window_->document()->world().state, 0, 0,
                                                planner::PositionSpace::AxisAngle);
    QCOMPARE(r.variables.size(), space.variables.size());
    for (std::size_t i = 0; i < r.variables.size(); ++i) QCOMPARE(r.variables[i].value, space.variables[i].value);
  }
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QVERIFY(d->isRunning());
  QVERIFY(!child<QComboBox>("plannerEnergyCombo")->isEnabled());  // settings locked while it runs
  // Paused at once, so the run cannot end before the pause however fast the engine has become (a pause after
  // the first progress report once came too late: the whole run had ended): no iteration while paused.
  d->pause();
  QVERIFY(d->isPaused());
  QTest::qWait(300);  // chains reach their pause point
  const long atPause = d->liveIterations();
  QTest::qWait(400);
  QCOMPARE(d->liveIterations(), atPause);
  QVERIFY(finished.isEmpty());
  QVERIFY(d->start());  // resume
  QVERIFY(!d->isPaused());
  // Progress arrives while the GUI stays responsive (this test's event loop runs).
  QTRY_VERIFY_WITH_TIMEOUT(d->liveIterations() > atPause || finished.size() == 1, 20000);
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
  QVERIFY(!d->isRunning());
  QCOMPARE(child<QProgressBar>("plannerProgress")->value(), 1000);
  QVERIFY(d->plottedSamples() > 1);

  // Results: in energy order, the best previewed, a force-closure grasp among them.
  const auto& grasps = d->list().grasps;
  QVERIFY(!grasps.empty());
  QVERIFY(std::is_sorted(grasps.begin(), grasps.end(),
                         [](const planner::PlannedGrasp& a, const planner::PlannedGrasp& b) { return a.energy < b.energy; }));
  QVERIFY(std::any_of(grasps.begin(), grasps.end(), [](const planner::PlannedGrasp& g) { return g.forceClosure; }));
  auto* table = child<QTableWidget>("plannerResultsTable");
  QCOMPARE(table->rowCount(), static_cast<int>(grasps.size()));
  QCOMPARE(d->currentGrasp(), 0);
  QVERIFY(d->previewState().has_value());
  const Document* doc = window_->document();
  QVERIFY(!(d->previewState()->robots[0].X_WP.matrix() == doc->world().state.robots[0].X_WP.matrix()) ||
          d->previewState()->robots[0].dofValues != doc->world().state.robots[0].dofValues);

  // Sorting by contacts reorders the rows; < and > follow the table's order.
  table->sortItems(5, Qt::DescendingOrder);
  d->showBest();
  QCOMPARE(d->currentGrasp(), 0);
  QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
  const int row = table->selectionModel()->selectedRows().front().row();
  QCOMPARE(table->item(row, 0)->data(Qt::UserRole).toInt(), 0);
  if (row + 1 < table->rowCount()) {
    d->showNext();
    QCOMPARE(table->selectionModel()->selectedRows().front().row(), row + 1);
    QCOMPARE(d->currentGrasp(), table->item(row + 1, 0)->data(Qt::UserRole).toInt());
    d->showPrevious();
    QCOMPARE(d->currentGrasp(), 0);
  }

  // Apply: one undo step that puts the hand in the final grasp; Undo restores it.
  const RobotState before = doc->world().state.robots[0];
  const int steps = window_->document()->undoStack()->count();
  QVERIFY(d->applyCurrent());
  QCOMPARE(window_->document()->undoStack()->count(), steps + 1);
  const RobotState& applied = doc->world().state.robots[0];
  QVERIFY(applied.X_WP.matrix().isApprox(grasps[0].grasp.X_WP.matrix(), 1e-12));
  for (std::size_t i = 0; i < applied.dofValues.size(); ++i)
    QCOMPARE(applied.dofValues[i], grasps[0].grasp.dofValues[i]);
  window_->document()->undoStack()->undo();
  QVERIFY(doc->world().state.robots[0].X_WP.matrix() == before.X_WP.matrix());
  QVERIFY(doc->world().state.robots[0].dofValues == before.dofValues);

  // The pre-grasp shows and applies too.
  d->setShowFinalGrasp(false);
  QVERIFY(d->applyCurrent());
  QVERIFY(doc->world().state.robots[0].X_WP.matrix().isApprox(grasps[0].preGrasp.X_WP.matrix(), 1e-12));
  window_->document()->undoStack()->undo();

  // Reset clears the list and the plot.
  d->reset();
  QVERIFY(d->list().grasps.empty());
  QCOMPARE(table->rowCount(), 0);
  QCOMPARE(d->plottedSamples(), 0);
}

void TstUiPlanner::cancelKeepsWhatWasFound() {
  PlannerDock* d = dock();
  child<QSpinBox>("plannerStepsSpin")->setValue(100000000);  // would run for hours
  child<QSpinBox>("plannerThreadsSpin")->setValue(2);
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QTRY_VERIFY_WITH_TIMEOUT(d->liveIterations() > 200, 20000);
  d->cancel();
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
  QVERIFY(d->statusText().contains("cancelled"));
  QVERIFY(!d->list().grasps.empty());  // the contacts energy lists accepted states from the first moves
}

void TstUiPlanner::saveLoadCaptureAndWorld() {
  PlannerDock* d = dock();
  setSmallRun(100);
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
  QVERIFY(!d->list().grasps.empty());
  const planner::GraspList planned = d->list();
  // The engine's list (makeGraspList), as the CLI's: how it was planned is kept.
  QCOMPARE(planned.planner, std::string("simann"));
  QCOMPARE(planned.stopReason, std::string("step-limit"));
  QCOMPARE(planned.maxSteps, d->request().maxSteps);

  QTemporaryDir dir;
  const QString listPath = dir.filePath("grasps.json");
  QVERIFY(d->saveList(listPath));
  d->reset();
  QVERIFY(d->list().grasps.empty());
  QVERIFY(d->loadList(listPath));
  QCOMPARE(d->list().grasps.size(), planned.grasps.size());
  for (std::size_t i = 0; i < planned.grasps.size(); ++i) {
    QCOMPARE(d->list().grasps[i].energy, planned.grasps[i].energy);
    QVERIFY(d->list().grasps[i].grasp.dofValues == planned.grasps[i].grasp.dofValues);
  }
  QVERIFY(!d->loadList(dir.filePath("missing.json")));
  QVERIFY2(d->statusText().contains("missing.json"), qPrintable(d->statusText()));
  QCOMPARE(d->list().grasps.size(), planned.grasps.size());  // a failed load keeps the list

  // The selected grasp as a GraspIt! world: the hand is where the grasp puts it.
  d->selectGrasp(0);
  const QString worldPath = dir.filePath("grasp0.xml");
  QVERIFY(d->saveCurrentAsWorld(worldPath));
  const World saved = loadWorld(worldPath.toStdString());
  QVERIFY(saved.state.robots[0].X_WP.matrix().isApprox(planned.grasps[0].grasp.X_WP.matrix(), 1e-6));
  for (std::size_t i = 0; i < saved.state.robots[0].dofValues.size(); ++i)
    QVERIFY(std::abs(saved.state.robots[0].dofValues[i] - planned.grasps[0].grasp.dofValues[i]) < 1e-6);

  // Capture: the hand as the document has it joins the list, measured.
  const std::size_t count = d->list().grasps.size();
  QVERIFY(d->captureCurrent());
  QCOMPARE(d->list().grasps.size(), count + 1);
  const planner::PlannedGrasp& captured = d->list().grasps.back();
  const RobotState& hand = window_->document()->world().state.robots[0];
  QVERIFY(captured.grasp.X_WP.matrix() == hand.X_WP.matrix());
  QVERIFY(captured.grasp.dofValues == hand.dofValues);
  QVERIFY(captured.measure("epsilon-l1") != nullptr);
  QCOMPARE(child<QTableWidget>("plannerResultsTable")->rowCount(), static_cast<int>(count + 1));
  QCOMPARE(d->list().stopReason, planned.stopReason);  // captured into a planned list: its header stays

  // Captured into an empty list, saved and loaded: the header says how (planner, steps, "captured").
  d->reset();
  QVERIFY(d->captureCurrent());
  QCOMPARE(d->list().stopReason, std::string("captured"));
  QCOMPARE(d->list().planner, std::string("simann"));
  QCOMPARE(d->list().maxSteps, d->request().maxSteps);
  const QString capturedPath = dir.filePath("captured.json");
  QVERIFY(d->saveList(capturedPath));
  const planner::GraspList reread = planner::loadGraspList(capturedPath.toStdString());
  QCOMPARE(reread.stopReason, std::string("captured"));
  QCOMPARE(reread.maxSteps, d->request().maxSteps);

  // A list of another world's hand: Load says which field does not fit, and keeps the list.
  planner::GraspList foreign = reread;
  foreign.grasps[0].grasp.dofValues.push_back(0);
  const QString foreignPath = dir.filePath("foreign.json");
  planner::saveGraspList(foreign, foreignPath.toStdString());
  QVERIFY(!d->loadList(foreignPath));
  QVERIFY2(d->statusText().contains("grasps[0].grasp.dofs") && d->statusText().contains("foreign.json"),
           qPrintable(d->statusText()));
  QCOMPARE(d->list().grasps.size(), std::size_t(1));
}

void TstUiPlanner::variablesTableDrivesTheRequest() {
  PlannerDock* d = dock();
  auto* vars = child<QTableWidget>("plannerVariablesTable");
  const Robot& hand = window_->document()->world().robots[0];
  const int posture = static_cast<int>(hand.eigengrasps.empty() ? hand.dofCount() : hand.eigengrasps.grasps.size());
  QCOMPARE(vars->rowCount(), 6 + posture);
  vars->item(0, 1)->setCheckState(Qt::Unchecked);        // tx fixed
  vars->item(0, 2)->setText("12.5");
  vars->item(1, 3)->setText("-40");                       // ty target
  vars->item(1, 4)->setText("0.75");
  planner::PlanRequest r = d->request();
  QVERIFY(r.variables[0].fixed);
  QCOMPARE(r.variables[0].value, 12.5);
  QCOMPARE(*r.variables[1].target, -40.0);
  QCOMPARE(r.variables[1].confidence, 0.75);
  QVERIFY(!r.variables[2].target);
  vars->item(2, 2)->setText("abc");
  QVERIFY_THROWS_EXCEPTION(sg::Error, d->request());
  QVERIFY(!d->start());
  QVERIFY(d->statusText().contains("not a number"));
  // Another space: other variables.
  child<QComboBox>("plannerSpaceCombo")->setCurrentText("approach");
  QCOMPARE(vars->rowCount(), 3 + posture);
}


// Type "Online": searches around the hand until Cancel, follows the hand when the Document moves it, and lists
// states near where the hand is.
void TstUiPlanner::onlineFollowsTheHand() {
  PlannerDock* d = dock();
  auto* type = child<QComboBox>("plannerTypeCombo");
  type->setCurrentIndex(type->findData(QStringLiteral("online")));
  QVERIFY(type->currentIndex() >= 0);
  QVERIFY(type->findData(QStringLiteral("guided")) >= 0);
  child<QComboBox>("plannerEnergyCombo")->setCurrentText("contacts");
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QTRY_VERIFY_WITH_TIMEOUT(d->liveIterations() > 50, 20000);
  Document* doc = window_->document();
  const Transform start = doc->world().state.robots[0].X_WP;
  WorldState moved = doc->world().state;
  moved.robots[0].X_WP = Transform::fromTranslation(Vec3(0, 0, 120)) * start;  // 120 mm up
  doc->push(new SetRobotStatesCommand(doc, moved, "move the hand"));
  const long before = d->liveIterations();
  QTRY_VERIFY_WITH_TIMEOUT(d->liveIterations() > before + 200, 30000);
  d->cancel();
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
  QCOMPARE(d->list().planner, std::string("online"));
  QCOMPARE(d->list().params, std::string("online"));
  QVERIFY(!d->list().grasps.empty());
  const Vec3 up = moved.robots[0].X_WP.translation(), down = start.translation();
  for (const planner::PlannedGrasp& g : d->list().grasps) {
    const Vec3 p = g.preGrasp.X_WP.translation();
    QVERIFY((p - up).norm() < (p - down).norm());  // near the moved hand, not where it was
  }
}

// The steps spin box starts above the chosen parameter set's first step (the counter runs from there), so a
// run of no iteration cannot be asked for; a value below the new start is raised to it.
void TstUiPlanner::stepsFollowTheParameterSet() {
  auto* params = child<QComboBox>("plannerParamsCombo");
  auto* steps = child<QSpinBox>("plannerStepsSpin");
  for (const std::string& name : planner::AnnealingParams::names()) {
    params->setCurrentText(QString::fromStdString(name));
    QCOMPARE(static_cast<long>(steps->minimum()), planner::AnnealingParams::byName(name).k0 + 1);
  }
  params->setCurrentText("modified");
  steps->setValue(500);
  params->setCurrentText("default");
  QCOMPARE(steps->value(), 30001);
  QCOMPARE(dock()->request().maxSteps, 30001L);
}

// The results table opens in planner order, rank 1 on top (QHeaderView's default descending indicator once put
// the last rank first); the dock's status line and the main status bar follow Undo and Redo of an Apply.
void TstUiPlanner::resultsOpenRankFirstAndStatusFollowsUndo() {
  PlannerDock* d = dock();
  setSmallRun(100);
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
  auto* table = child<QTableWidget>("plannerResultsTable");
  QVERIFY2(table->rowCount() >= 2, "a list of one grasp cannot show the order");
  QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), 0);
  QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
  for (int row = 0; row < table->rowCount(); ++row) {
    QCOMPARE(table->item(row, 0)->text(), QString::number(row + 1));
    QCOMPARE(table->item(row, 0)->data(Qt::UserRole).toInt(), row);  // rank r is grasp r − 1 of the list
  }
  QCOMPARE(d->currentGrasp(), 0);  // the best, which is the top row
  QCOMPARE(table->selectionModel()->selectedRows().front().row(), 0);

  // Apply, then Edit > Undo and Redo: the status line no longer claims the grasp is applied.
  QVERIFY(d->applyCurrent());
  QCOMPARE(d->statusText(), QStringLiteral("Applied grasp 1"));
  QAction* undo = window_->findChild<QAction*>("actionUndo");
  QAction* redo = window_->findChild<QAction*>("actionRedo");
  QVERIFY(undo && redo && undo->isEnabled());
  undo->trigger();
  QVERIFY2(!d->statusText().contains("Applied"), qPrintable(d->statusText()));
  QCOMPARE(d->statusText(), QStringLiteral("Undone: Apply Planned Grasp 1"));
  QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Undone: Apply Planned Grasp 1"));
  redo->trigger();
  QCOMPARE(d->statusText(), QStringLiteral("Redone: Apply Planned Grasp 1"));
  QCOMPARE(window_->statusBar()->currentMessage(), QStringLiteral("Redone: Apply Planned Grasp 1"));
  // An undo after the line moved on (a save, say) leaves the newer message alone.
  QTemporaryDir dir;
  QVERIFY(d->saveList(dir.filePath("grasps.json")));
  const QString saved = d->statusText();
  window_->document()->undoStack()->undo();
  QCOMPARE(d->statusText(), saved);

  // Reset after sorting by another column: the next list opens in rank order again.
  table->sortItems(1, Qt::DescendingOrder);
  d->reset();
  QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), 0);
  QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
}

// A number a spin box refuses (below the parameter set's start, out of range) is reported with the valid range
// and the value kept, instead of the box silently going back; Start then says so once instead of running with
// the old value unseen. A confidence outside 0 … 1 is refused, not clamped.
void TstUiPlanner::refusedNumbersAreReported() {
  PlannerDock* d = dock();
  auto* steps = child<QSpinBox>("plannerStepsSpin");
  QCOMPARE(steps->value(), 70000);
  steps->selectAll();
  QTest::keyClicks(steps, "10");
  QCOMPARE(steps->text(), QStringLiteral("10"));  // typed, not yet committed
  QTest::keyClick(steps, Qt::Key_Return);
  QCOMPARE(steps->value(), 70000);  // the box keeps its value...
  QCOMPARE(d->statusText(),         // ...and says why
           QStringLiteral("Max steps: '10' is not accepted (valid: 30001 to 100000000); kept 70000"));
  QVERIFY(!d->start());
  QVERIFY2(d->statusText().startsWith("Not started: Max steps: '10'"), qPrintable(d->statusText()));
  QVERIFY(!d->isRunning());

  // Another box, committed by focus leaving it: the same report.
  auto* threads = child<QSpinBox>("plannerThreadsSpin");
  threads->setValue(2);
  window_->show();
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  threads->setFocus();
  threads->selectAll();
  QTest::keyClicks(threads, "0");
  child<QSpinBox>("plannerSeedSpin")->setFocus();
  QCOMPARE(threads->value(), 2);
  QCOMPARE(d->statusText(), QStringLiteral("Threads: '0' is not accepted (valid: 1 to 256); kept 2"));
  // A time limit with its special text at the minimum, emptied.
  auto* limit = child<QDoubleSpinBox>("plannerTimeLimitSpin");
  limit->setFocus();
  limit->selectAll();
  QTest::keyClick(limit, Qt::Key_Backspace);
  QTest::keyClick(limit, Qt::Key_Enter);
  QCOMPARE(d->statusText(), QStringLiteral("Time limit: '' is not accepted (valid: 'none' or 0.0 to 86400.0); kept none"));
  QCOMPARE(limit->value(), 0.0);
  QVERIFY(!spinBoxRefuses(limit, QStringLiteral("none")));  // its special text is its minimum, not a refusal
  QVERIFY(!spinBoxRefuses(limit, QStringLiteral("12.5 s")));
  QVERIFY(spinBoxRefuses(limit, QStringLiteral("abc")));

  // An accepted value is no report at all.
  const QString before = d->statusText();
  steps->selectAll();
  QTest::keyClicks(steps, "40000");
  QTest::keyClick(steps, Qt::Key_Return);
  QCOMPARE(steps->value(), 40000);
  QCOMPARE(d->statusText(), before);
  // A new value after the refusals: Start is not held back.
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  d->cancel();
  QTRY_VERIFY2_WITH_TIMEOUT(finished.size() == 1, qPrintable(d->statusText()), 30000);

  // Confidence outside 0 … 1: Start refuses with the variable named.
  auto* vars = child<QTableWidget>("plannerVariablesTable");
  vars->item(0, 4)->setText("1.5");
  QVERIFY_THROWS_EXCEPTION(sg::Error, d->request());
  QVERIFY(!d->start());
  QVERIFY2(d->statusText().contains("Confidence of tx: 1.5 is not in 0 to 1"), qPrintable(d->statusText()));
  vars->item(0, 4)->setText("1");
  QCOMPARE(d->request().variables[0].confidence, 1.0);
}

QTEST_MAIN(TstUiPlanner)
// A loaded list's grasp applied with the dock (PLANNER.md §Grasp list file, "breakAway"): the document's hand gets
// the grasp's joints in break-away, and the hand measures as the list says (force closure, ε L1 to 1e-9); undo
// restores the hand without them.
void TstUiPlanner::appliedGraspKeepsItsBreakAwayJoints() {
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/hydro_fingertips.xml")));
  const World& world = window_->document()->world();
  NullProgress progress;
  planner::PlanRequest request;  // tst_planner finalStageScoreIsTheListsMeasurement's run: break-away closings
  request.energy.analysis.contactModels = {"point"};
  request.threads = 1;
  request.seed = 2;
  request.reportMeasures = {"epsilon-l1"};
  request.maxSteps = request.params.k0 + 250;
  const planner::PlanResult planned = planner::planGrasps(world, request, progress);
  QTemporaryDir dir;
  const QString path = dir.filePath("grasps.json");
  planner::saveGraspList(planner::makeGraspList(world, "hydro_fingertips.xml", request, planned), path.toStdString());
  PlannerDock* d = dock();
  QVERIFY(d->loadList(path));
  QCOMPARE(d->list().grasps.size(), planned.grasps.size());
  const WorldState before = world.state;
  int applied = 0;
  for (std::size_t i = 0; i < planned.grasps.size(); ++i) {
    const planner::PlannedGrasp& kept = planned.grasps[i];
    if (!planner::anyBreakAway(kept.grasp.breakAway)) continue;
    const int commands = window_->document()->undoStack()->count();
    d->selectGrasp(static_cast<int>(i));
    // The preview is the hand applyHandConfiguration gives (break-away joints too), drawn only: no Document edit.
    WorldState expected = window_->document()->world().state;
    planner::applyHandConfiguration(world.robots[0], expected.robots[0], kept.grasp);
    QVERIFY(d->previewState().has_value());
    QVERIFY(d->previewState()->robots[0].sameMotionState(expected.robots[0]));
    QCOMPARE(window_->document()->undoStack()->count(), commands);
    QVERIFY(d->applyCurrent());
    ++applied;
    const RobotState& hand = window_->document()->world().state.robots[0];
    for (std::size_t c = 0; c < kept.grasp.breakAway.size(); ++c)
      for (std::size_t j = 0; j < kept.grasp.breakAway[c].size(); ++j)
        QVERIFY(breakAwayOf(hand, c, j) == kept.grasp.breakAway[c][j] || !kept.grasp.breakAway[c][j].active);
    AnalysisRequest analysis = request.energy.analysis;
    analysis.motion = {};
    analysis.graspable = 0;
    analysis.measures = {"epsilon-l1"};
    const AnalysisResult r = analyzeGrasp(world, window_->document()->world().state, analysis, progress);
    const GraspEvaluation* e = r.primary();
    QVERIFY(e);
    const QString where = QString("grasp %1").arg(i);
    QVERIFY2(e->forceClosure() == kept.forceClosure, qPrintable(where));
    const MeasureValue* eps = e->measure("epsilon-l1");
    const MeasureValue* listed = kept.measure("epsilon-l1");
    QVERIFY2(eps && listed && eps->ok == listed->ok, qPrintable(where));
    if (listed->ok)
      QVERIFY2(std::abs(eps->value - listed->value) <= 1e-9, qPrintable(where + QString(": %1 vs %2").arg(eps->value).arg(listed->value)));
  }
  QVERIFY(applied > 0);  // not vacuous: the run keeps grasps with joints in break-away
  for (int k = 0; k < applied; ++k) window_->document()->undoStack()->undo();
  QVERIFY(window_->document()->world().state.robots[0].sameMotionState(before.robots[0]));
}

#include "tst_ui_planner.moc"
