// Esc and the background work of the application on the offscreen platform: with nothing running Esc
// deselects as it always did (Edit > Select None); while the planner dock plans, Esc cancels the plan (what was
// found is listed) and keeps the selection; while a sensitivity sweep runs, Esc cancels it, pressed in the main
// window or in the sweep window itself.
#include <QAction>
#include <QComboBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "ComparisonDock.h"
#include "Document.h"
#include "GraspedDefaultWorld.h"
#include "MainWindow.h"
#include "PlannerDock.h"
#include "SensitivityWindow.h"
#include "render/CoinInit.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

class TstUiEscape : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
  }
  void init() {
    QSettings("SoftGrasp", "softgrasp").clear();
    window_ = std::make_unique<MainWindow>();
    window_->resize(1200, 800);
    window_->show();
    window_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  }
  void cleanup() {
    if (window_) window_->document()->undoStack()->setClean();
    window_.reset();
  }

  void escDeselectsWhenNothingRuns();
  void escCancelsARunningPlan();
  void escCancelsARunningSweep();

 private:
  void pressEscInMainWindow() { QTest::keyClick(window_.get(), Qt::Key_Escape); }
  PlannerDock* planner() const { return window_->findChild<PlannerDock*>(QStringLiteral("plannerDock")); }
  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
};

void TstUiEscape::escDeselectsWhenNothingRuns() {
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/paralleljaw_box.xml")));
  Document* doc = window_->document();
  doc->setSelection(BodyHandle{BodyHandle::Kind::Graspable, 0, {}});
  QVERIFY(doc->selection());
  QVERIFY(!planner()->isRunning());
  pressEscInMainWindow();
  QVERIFY(!doc->selection());
}

void TstUiEscape::escCancelsARunningPlan() {
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/paralleljaw_box.xml")));
  Document* doc = window_->document();
  PlannerDock* d = planner();
  window_->findChild<QAction*>("actionPlanner")->trigger();
  d->findChild<QSpinBox*>("plannerStepsSpin")->setValue(100000000);  // would run for hours
  d->findChild<QSpinBox*>("plannerThreadsSpin")->setValue(2);
  doc->setSelection(BodyHandle{BodyHandle::Kind::Graspable, 0, {}});
  QSignalSpy finished(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QTRY_VERIFY_WITH_TIMEOUT(d->liveIterations() > 200, 20000);
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  pressEscInMainWindow();
  QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 20000);
  QVERIFY(!d->isRunning());
  QVERIFY2(d->statusText().contains("cancelled"), qPrintable(d->statusText()));
  QVERIFY(!d->list().grasps.empty());  // what was found is kept, as with Cancel
  QVERIFY(doc->selection());           // Esc went to the plan, not to the selection
  pressEscInMainWindow();              // nothing runs now: Esc deselects again
  QVERIFY(!doc->selection());

  // Paused runs are cancelled too (Cancel resumes the chains so they can stop).
  QSignalSpy again(d, &PlannerDock::runFinished);
  QVERIFY(d->start());
  QTRY_VERIFY_WITH_TIMEOUT(d->liveIterations() > 50, 20000);
  d->pause();
  QVERIFY(d->isPaused());
  pressEscInMainWindow();
  QTRY_COMPARE_WITH_TIMEOUT(again.size(), 1, 20000);
  QVERIFY(!d->isRunning());
}

void TstUiEscape::escCancelsARunningSweep() {
  QVERIFY(test::openAndGraspDefaultWorld(*window_));
  Document* doc = window_->document();
  window_->findChild<QAction*>("actionSensitivityPlots")->trigger();
  auto* plots = window_->findChild<SensitivityWindow*>();
  QVERIFY(plots && plots->isVisible());
  QSignalSpy cancelled(plots, &SensitivityWindow::sweepCancelled);
  QSignalSpy finished(plots, &SensitivityWindow::sweepFinished);

  // Esc in the sweep window.
  plots->setSweep(SweepParameter::NormalForce, 1, 20, 200);  // minutes of work
  QVERIFY(plots->run());
  QTRY_VERIFY_WITH_TIMEOUT(plots->progressBar()->value() > 0, 30000);
  plots->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(plots));
  QTest::keyClick(plots, Qt::Key_Escape);
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 1, 30000);
  QVERIFY(!plots->running());
  QVERIFY(plots->runButton()->isEnabled());
  QTest::keyClick(plots, Qt::Key_Escape);  // nothing runs: nothing happens
  QCOMPARE(cancelled.count(), 1);

  // Esc in the main window while the sweep runs: cancelled, the selection kept.
  doc->setSelection(BodyHandle{BodyHandle::Kind::Graspable, 0, {}});
  QVERIFY(plots->run());
  QTRY_VERIFY_WITH_TIMEOUT(plots->progressBar()->value() > 0, 30000);
  window_->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(window_.get()));
  pressEscInMainWindow();
  QTRY_COMPARE_WITH_TIMEOUT(cancelled.count(), 2, 30000);
  QCOMPARE(finished.count(), 0);
  QVERIFY(doc->selection());
}

QTEST_MAIN(TstUiEscape)
#include "tst_ui_escape.moc"
