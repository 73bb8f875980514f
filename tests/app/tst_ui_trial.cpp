// Grasp > Physics Trial in the application (ui/app/PhysicsTrialDock.h) on the offscreen platform: the trial the menu
// runs in the background equals the engine's runTrial of the same state; the time slider poses the scene graph's
// object and links as the recorded sample has them and draws its contact forces; Live puts the live state back;
// Cancel and Esc stop a running trial; playback leaves the document (state, undo stack) as it was; a world change
// drops the result. Trials are kept short through the dock's settle and pull durations.
#include <QAction>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

#include <Inventor/SoPath.h>
#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTransform.h>

#include "../support/AppTestSetup.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "GraspedDefaultWorld.h"
#include "MainWindow.h"
#include "PhysicsTrialDock.h"
#include "TrialPlayback.h"
#include "render/CoinInit.h"
#include "render/SceneBuilder.h"
#include "render/TrialForceNodes.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {

constexpr double kShortSettle_s = 0.1;
constexpr double kShortPull_s = 0.1;

int countNamed(SoNode* root, const char* name) {
  SoSearchAction search;
  search.setName(name);
  search.setInterest(SoSearchAction::ALL);
  search.apply(root);
  return search.getPaths().getLength();
}

// The scene's transform of a body against a pose (mm; rotation compared by the angle between them).
void verifyTransform(const SoTransform* t, const Transform& expected) {
  QVERIFY(t);
  const SbVec3f p = t->translation.getValue();
  const Vec3 expectedP = expected.translation();
  for (int i = 0; i < 3; ++i) QVERIFY2(std::abs(p[i] - expectedP[i]) < 1e-3, qPrintable(QString::number(i)));
  float q[4];
  t->rotation.getValue().getValue(q[0], q[1], q[2], q[3]);  // x y z w
  const Quat drawn(q[3], q[0], q[1], q[2]);
  QVERIFY(drawn.angularDistance(expected.rotation()) < 1e-5);
}

// Waits for one of the spies to fire (60 s, a loaded machine): a trial of the mug starts with its convex
// decomposition (src/sim/README.md §Geometry).
bool waitForOutcome(QSignalSpy& finished, QSignalSpy& other) {
  return QTest::qWaitFor([&] { return finished.count() + other.count() > 0; }, 60000);
}

}  // namespace

class TstUiTrial : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
  }
  void init() { QSettings("SoftGrasp", "softgrasp").clear(); }

  void menuTrialMatchesEngine();
  void sliderPosesTheRecordedSample();
  void cancelAndEscStopATrial();
  void worldChangeDropsTheResult();
  void noGraspableNoTrial();

 private:
  QTemporaryDir settingsDir_;
};

void TstUiTrial::menuTrialMatchesEngine() {
  MainWindow window;
  QVERIFY(test::openAndGraspDefaultWorld(window));
  Document* doc = window.document();
  auto* dock = window.findChild<PhysicsTrialDock*>(QStringLiteral("physicsTrialDock"));
  QVERIFY(dock);
  dock->settleBox()->setValue(kShortSettle_s);
  dock->durationBox()->setValue(kShortPull_s);
  const int undoCount = doc->undoStack()->count(), undoIndex = doc->undoStack()->index();
  const WorldState before = doc->world().state;

  QSignalSpy finished(dock, &PhysicsTrialDock::trialFinished), failed(dock, &PhysicsTrialDock::trialFailed);
  auto* action = window.findChild<QAction*>(QStringLiteral("actionPhysicsTrial"));
  QVERIFY(action);
  action->trigger();
  QVERIFY(dock->running());
  QVERIFY(waitForOutcome(finished, failed));
  QCOMPARE(failed.count(), 0);
  const sim::TrialResult* shown = dock->result();
  QVERIFY(shown);

  // The engine on the same state with the same settings: bit for bit the same trial (src/sim is deterministic).
  sim::TrialRequest request;
  request.robot = 0;
  request.graspable = window.analysis()->graspableIndex();
  request.settings.settle_s = kShortSettle_s;
  request.settings.duration_s = kShortPull_s;
  NullProgress quiet;
  const sim::TrialResult engine = sim::runTrial(doc->world(), before, request, quiet);
  QCOMPARE(shown->graspable, engine.graspable);
  QCOMPARE(shown->directions.size(), std::size_t{6});
  QCOMPARE(shown->directions.size(), engine.directions.size());
  QCOMPARE(shown->settle.size(), engine.settle.size());
  for (std::size_t i = 0; i < engine.directions.size(); ++i) {
    const sim::DirectionTrial &a = shown->directions[i], &b = engine.directions[i];
    QCOMPARE(a.direction, b.direction);
    QCOMPARE(a.held, b.held);
    QCOMPARE(a.displacement_mm, b.displacement_mm);
    QCOMPARE(a.rotation_deg, b.rotation_deg);
    QCOMPARE(a.samples.size(), b.samples.size());
    QVERIFY(a.samples.back().X_PO.isApprox(b.samples.back().X_PO, 0.0));
    // The table lists the direction's outcome.
    QCOMPARE(dock->table()->item(static_cast<int>(i), 0)->text(), QString::fromStdString(b.direction.name()));
    QCOMPARE(dock->table()->item(static_cast<int>(i), 1)->text().startsWith(QStringLiteral("yes")), b.held);
  }
  QCOMPARE(dock->table()->rowCount(), 6);
  // Running and showing the trial left the document as it was.
  QCOMPARE(doc->undoStack()->count(), undoCount);
  QCOMPARE(doc->undoStack()->index(), undoIndex);
  QCOMPARE(doc->world().state.robots[0].dofValues, before.robots[0].dofValues);
  QVERIFY(doc->world().state.X_WG[0].isApprox(before.X_WG[0], 0.0));
  doc->undoStack()->setClean();
}

void TstUiTrial::sliderPosesTheRecordedSample() {
  Document doc;
  doc.openWorld(sg::test::qInSourceTree("worlds/paralleljaw_box.xml"));  // convex: no decomposition to wait for
  {
    World copy = doc.world();
    autoGrasp(copy, 0);
    doc.push(new SetDofValuesCommand(&doc, 0, copy.state.robots[0].dofValues));
  }
  WorldScene scene(doc.world());
  PhysicsTrialDock dock(&doc, &scene, [] { return std::pair<int, int>{0, 0}; });
  dock.settleBox()->setValue(kShortSettle_s);
  dock.durationBox()->setValue(kShortPull_s);
  const WorldState live = doc.world().state;
  const int undoCount = doc.undoStack()->count(), undoIndex = doc.undoStack()->index();
  QSignalSpy finished(&dock, &PhysicsTrialDock::trialFinished), failed(&dock, &PhysicsTrialDock::trialFailed);
  QVERIFY(dock.run());
  QVERIFY(waitForOutcome(finished, failed));
  QCOMPARE(failed.count(), 0);
  const sim::TrialResult& result = *dock.result();

  const BodyHandle mug{BodyHandle::Kind::Graspable, 0, {}};  // the box
  const Robot& jaw = doc.world().robots[0];
  QVERIFY(!jaw.chains.empty() && !jaw.chains.back().links.empty());
  const int chain = static_cast<int>(jaw.chains.size()) - 1;
  const int link = static_cast<int>(jaw.chains.back().links.size()) - 1;
  const BodyHandle lastLink{BodyHandle::Kind::Robot, 0, BodyRef{chain, link}};
  // Every direction, its last sample and one in the middle: the slider poses the object as recorded (palm frame
  // times the recorded X_PO) and the hand with the recorded DOF values.
  double farthestFromLive_mm = 0;  // the samples checked must differ from the live pose, or the check proves nothing
  for (int phase = -1; phase < static_cast<int>(result.directions.size()); ++phase) {
    const auto& samples = phase < 0 ? result.settle : result.directions[static_cast<std::size_t>(phase)].samples;
    for (const int index : {static_cast<int>(samples.size()) / 2, static_cast<int>(samples.size()) - 1}) {
      dock.phaseBox()->setCurrentIndex(phase + 1);
      dock.slider()->setValue(index);
      const sim::TrialSample& sample = samples[static_cast<std::size_t>(index)];
      QCOMPARE(dock.currentSample(), &sample);
      verifyTransform(scene.bodyTransform(mug), result.X_WP * sample.X_PO);
      farthestFromLive_mm =
          std::max(farthestFromLive_mm, ((result.X_WP * sample.X_PO).translation() - live.X_WG[0].translation()).norm());
      RobotState hand = live.robots[0];
      setDofValues(doc.world().robots[0], hand, sample.dofValues);
      verifyTransform(scene.bodyTransform(lastLink), hand.X_WL[static_cast<std::size_t>(chain)][static_cast<std::size_t>(link)]);
      // One arrow per hand body pushing on the object.
      int pushing = 0;
      for (const sim::LinkContactSample& body : sample.links)
        pushing += body.contacts > 0 && trialForceArrowLength_mm(body.force_W_N.norm()) > 0;
      QCOMPARE(countNamed(scene.overlayRoot(), "trialForceArrow"), pushing);
    }
  }
  QVERIFY2(farthestFromLive_mm > 0.01, qPrintable(QString::number(farthestFromLive_mm)));
  // The closed jaw touches the box once settled: some arrow is drawn at the end of the settle phase.
  dock.showSample(-1, static_cast<int>(result.settle.size()) - 1);
  QVERIFY(countNamed(scene.overlayRoot(), "trialForceArrow") > 0);

  // Play runs the slider on to the end of the phase and stops there.
  dock.showSample(0, 0);
  dock.playButton()->click();
  QVERIFY(dock.playing());
  QVERIFY(QTest::qWaitFor([&] { return !dock.playing(); }, 20000));
  QCOMPARE(dock.slider()->value(), dock.slider()->maximum());

  // Live: the document's own poses again, no arrows, and the document never changed.
  dock.liveButton()->click();
  QVERIFY(!dock.playback().active());
  verifyTransform(scene.bodyTransform(mug), live.X_WG[0]);
  verifyTransform(scene.bodyTransform(lastLink),
                  live.robots[0].X_WL[static_cast<std::size_t>(chain)][static_cast<std::size_t>(link)]);
  QCOMPARE(countNamed(scene.overlayRoot(), "trialForceArrow"), 0);
  QCOMPARE(countNamed(scene.overlayRoot(), "trialPlayback"), 0);
  QCOMPARE(doc.undoStack()->count(), undoCount);
  QCOMPARE(doc.undoStack()->index(), undoIndex);
  QCOMPARE(doc.world().state.robots[0].dofValues, live.robots[0].dofValues);
  QVERIFY(doc.world().state.X_WG[0].isApprox(live.X_WG[0], 0.0));
  doc.undoStack()->setClean();
}

void TstUiTrial::cancelAndEscStopATrial() {
  MainWindow window;
  window.resize(1200, 800);
  window.show();
  window.activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(&window));
  QVERIFY(window.openWorldFile(sg::test::qInSourceTree("worlds/paralleljaw_box.xml")));
  auto* dock = window.findChild<PhysicsTrialDock*>(QStringLiteral("physicsTrialDock"));
  QVERIFY(dock);
  dock->durationBox()->setValue(dock->durationBox()->maximum());  // six long pulls: cancelled well before the end
  QSignalSpy finished(dock, &PhysicsTrialDock::trialFinished), cancelled(dock, &PhysicsTrialDock::trialCancelled);

  // The Cancel button.
  QVERIFY(dock->run());
  QVERIFY(dock->cancelButton()->isEnabled());
  dock->cancelButton()->click();
  QVERIFY(waitForOutcome(cancelled, finished));
  QCOMPARE(finished.count(), 0);
  QCOMPARE(cancelled.count(), 1);
  QVERIFY(!dock->running());
  QVERIFY(!dock->result());
  QVERIFY(dock->runButton()->isEnabled());

  // Esc in the main window (Edit > Select None asks cancelRunningWork first).
  QVERIFY(dock->run());
  QTest::keyClick(&window, Qt::Key_Escape);
  QVERIFY(QTest::qWaitFor([&] { return cancelled.count() + finished.count() > 1; }, 60000));
  QCOMPARE(finished.count(), 0);
  QCOMPARE(cancelled.count(), 2);
  QVERIFY(!dock->running());
  window.document()->undoStack()->setClean();
}

void TstUiTrial::worldChangeDropsTheResult() {
  Document doc;
  doc.openWorld(sg::test::qInSourceTree("worlds/paralleljaw_box.xml"));
  WorldScene scene(doc.world());
  PhysicsTrialDock dock(&doc, &scene, [] { return std::pair<int, int>{0, 0}; });
  dock.settleBox()->setValue(kShortSettle_s);
  dock.durationBox()->setValue(kShortPull_s);
  QSignalSpy finished(&dock, &PhysicsTrialDock::trialFinished), failed(&dock, &PhysicsTrialDock::trialFailed);
  QVERIFY(dock.run());
  QVERIFY(waitForOutcome(finished, failed));
  QCOMPARE(failed.count(), 0);
  QVERIFY(dock.playback().active());
  // A DOF edit: the trial was of another state.
  std::vector<double> dofs = doc.world().state.robots[0].dofValues;
  dofs[0] += 1.0;
  doc.push(new SetDofValuesCommand(&doc, 0, dofs));
  QVERIFY(!dock.result());
  QVERIFY(!dock.playback().active());
  QCOMPARE(dock.table()->rowCount(), 0);
  verifyTransform(scene.bodyTransform({BodyHandle::Kind::Graspable, 0, {}}), doc.world().state.X_WG[0]);
  doc.undoStack()->setClean();
}

void TstUiTrial::noGraspableNoTrial() {
  Document doc;
  doc.openWorld(test::defaultWorldPath());
  PhysicsTrialDock dock(&doc, nullptr, [] { return std::pair<int, int>{0, -1}; });
  QVERIFY(!dock.run());
  QVERIFY(!dock.running());
  QVERIFY(dock.statusLabel()->text().contains(QStringLiteral("graspable")));
  PhysicsTrialDock handless(&doc, nullptr, [] { return std::pair<int, int>{-1, 0}; });
  QVERIFY(!handless.run());
  QVERIFY(handless.statusLabel()->text().contains(QStringLiteral("hand")));
}

QTEST_MAIN(TstUiTrial)
#include "tst_ui_trial.moc"
