// A planner run on its worker thread (src/grasp/planner/PlannerRun.h), grasps captured by hand and grasp lists
// checked against a world (GraspCapture.h), without a GUI: PLANNER.md §Planner runs, §Grasp list file.
#include <QtTest>

#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "grasp/planner/GraspCapture.h"
#include "grasp/planner/GraspList.h"
#include "grasp/planner/OnlinePlanner.h"
#include "grasp/planner/PlannerRun.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::planner;
using Clock = std::chrono::steady_clock;

namespace {

std::shared_ptr<const World> bundled(const char* name) {
  return std::make_shared<const World>(loadWorld(std::string(sg::test::sourceDir()) + "/worlds/" + name));
}

PlanRequest smallPlan(long iterations, int threads) {
  PlanRequest r;
  r.energy.kind = EnergyKind::Contacts;
  r.energy.analysis.contactModels = {"point"};
  r.maxSteps = r.params.k0 + iterations;
  r.chains = 4;
  r.threads = threads;
  r.seed = 11;
  return r;
}

// Polls until `done` or the timeout; false on timeout.
template <class Pred>
bool waitFor(Pred done, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  const auto end = Clock::now() + timeout;
  while (!done()) {
    if (Clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

QString errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return QString::fromStdString(e.message());
  }
  return {};
}

}  // namespace

class TestPlannerRun : public QObject {
  Q_OBJECT
 private slots:
  // The run on its thread gives what planGrasps gives on the caller's with the same request (the seed fixes the
  // list), and what a poll sees only moves forward.
  void runEqualsASynchronousRunAndProgressMovesForward() {
    const auto world = bundled("threefinger_sphere.xml");
    const PlanRequest request = smallPlan(1500, 2);
    auto run = PlannerRun::startAnnealing(world, request);
    QCOMPARE(run->kind(), PlannerRun::Kind::Annealing);
    double lastFraction = 0;
    long lastIterations = 0;
    int polls = 0;
    while (!run->done()) {
      const PlannerRun::Status s = run->status();
      QVERIFY2(s.fraction >= lastFraction, qPrintable(QString("%1 after %2").arg(s.fraction).arg(lastFraction)));
      QVERIFY2(s.iterations >= lastIterations, qPrintable(QString("%1 after %2").arg(s.iterations).arg(lastIterations)));
      QVERIFY(s.fraction >= 0 && s.fraction <= 1);
      lastFraction = s.fraction;
      lastIterations = s.iterations;
      ++polls;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    QVERIFY(polls > 0);
    const PlannerRun::Status end = run->status();
    QCOMPARE(end.state, PlannerRun::State::Finished);
    QCOMPARE(end.fraction, 1.0);
    QVERIFY(end.iterations >= lastIterations);

    NullProgress quiet;
    const PlanResult sync = planGrasps(*world, request, quiet);
    const std::shared_ptr<const PlanResult> async = run->result();
    QVERIFY(async);
    QVERIFY(!sync.grasps.empty());
    QCOMPARE(end.iterations, sync.annealing.iterations);
    QCOMPARE(async->annealing.iterations, sync.annealing.iterations);
    QCOMPARE(async->grasps.size(), sync.grasps.size());
    for (std::size_t i = 0; i < sync.grasps.size(); ++i) {
      QCOMPARE(async->grasps[i].energy, sync.grasps[i].energy);
      QVERIFY(async->grasps[i].variables == sync.grasps[i].variables);
      QVERIFY(async->grasps[i].grasp.dofValues == sync.grasps[i].grasp.dofValues);
    }
    // The list a front end saves is makeGraspList's, header included.
    const GraspList list = run->graspList("w.xml");
    QCOMPARE(list.planner, std::string("simann"));
    QCOMPARE(list.stopReason, std::string("step-limit"));
    QCOMPARE(list.maxSteps, request.maxSteps);
    QCOMPARE(list.world, std::string("w.xml"));
    QCOMPARE(list.grasps.size(), sync.grasps.size());
  }

  // Cancel stops a run that would take hours within a bounded number of iterations and keeps what was found;
  // a paused run (its chains waiting) is cancelled too.
  void cancelStopsWithinBoundedSteps() {
    const auto world = bundled("threefinger_sphere.xml");
    auto run = PlannerRun::startAnnealing(world, smallPlan(100000000, 2));
    QVERIFY(waitFor([&] { return run->status().iterations > 200; }));
    const long atCancel = run->status().iterations;
    const auto t0 = Clock::now();
    run->cancel();
    QVERIFY(run->cancelRequested());
    QVERIFY(waitFor([&] { return run->done(); }, std::chrono::seconds(30)));
    const double stopping_s = std::chrono::duration<double>(Clock::now() - t0).count();
    QVERIFY2(stopping_s < 30, qPrintable(QString::number(stopping_s)));
    const auto result = run->result();
    QVERIFY(result);
    QCOMPARE(result->annealing.stopReason, StopReason::Cancelled);
    // The chains see the cancel at their next iteration after the caller's 10 ms poll: a few hundred
    // iterations at most on this machine, far below the 4·10⁸ asked for (generous bound: 50 000).
    QVERIFY2(result->annealing.iterations - atCancel < 50000,
             qPrintable(QString("%1 → %2").arg(atCancel).arg(result->annealing.iterations)));
    QVERIFY(!result->grasps.empty());
    QCOMPARE(run->graspList("").stopReason, std::string("cancelled"));

    auto paused = PlannerRun::startAnnealing(world, smallPlan(100000000, 1));
    QVERIFY(waitFor([&] { return paused->status().iterations > 50; }));
    paused->setPaused(true);
    QVERIFY(paused->paused());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the chains reach their wait
    const long held = paused->status().iterations;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    QVERIFY(paused->status().iterations - held <= AnnealingMonitor::kPostEvery * 4);  // one post per chain at most
    paused->cancel();
    QVERIFY(!paused->paused());
    QVERIFY(waitFor([&] { return paused->done(); }, std::chrono::seconds(30)));
    QCOMPARE(paused->result()->annealing.stopReason, StopReason::Cancelled);
  }

  // A bad request fails on the worker and says why; the run is done, with no result and no list.
  void aBadRequestFails() {
    const auto world = bundled("threefinger_sphere.xml");
    PlanRequest r = smallPlan(10, 1);
    r.robot = 7;
    auto run = PlannerRun::startAnnealing(world, r);
    run->wait();
    QVERIFY(run->done());
    const PlannerRun::Status s = run->status();
    QCOMPARE(s.state, PlannerRun::State::Failed);
    QVERIFY(!s.error.empty());
    QVERIFY(!run->result());
    QVERIFY(!errorOf([&] { run->graspList(""); }).isEmpty());
  }

  // The online planner on the worker: with no target change its rounds make the same search as stepping an
  // OnlinePlanner on this thread; a new target moves the kept states to it; the list says "online".
  void onlineRunFollowsItsTargetAndIsReproducible() {
    const auto world = bundled("threefinger_sphere.xml");
    PlanRequest r = smallPlan(0, 1);
    {
      PlanRequest approach = r;
      approach.space = PositionSpace::Approach;
      QVERIFY(errorOf([&] { PlannerRun::startOnline(world, approach); }).contains("approach"));
    }
    auto run = PlannerRun::startOnline(world, r, 8);
    QCOMPARE(run->kind(), PlannerRun::Kind::Online);
    QVERIFY(waitFor([&] { return run->status().iterations > 100; }));
    run->cancel();
    run->wait();
    const auto result = run->result();
    QVERIFY(result);
    QCOMPARE(result->annealing.iterations % 8, 0L);
    OnlinePlanner same(*world, r);
    same.step(result->annealing.iterations);
    QCOMPARE(result->annealing.best.size(), same.best().size());
    for (std::size_t i = 0; i < same.best().size(); ++i) {
      QVERIFY(result->annealing.best[i].x == same.best()[i].x);
      QCOMPARE(result->annealing.best[i].energy, same.best()[i].energy);
    }
    QCOMPARE(result->grasps.size(), same.best().size());
    const GraspList list = run->graspList("w.xml");
    QCOMPARE(list.planner, std::string("online"));
    QCOMPARE(list.params, std::string("online"));
    QCOMPARE(list.stopReason, std::string("cancelled"));

    // 120 mm up: the states kept after the move are near the moved hand.
    auto moving = PlannerRun::startOnline(world, r, 8);
    QVERIFY(waitFor([&] { return moving->status().iterations > 50; }));
    const Transform start = world->state.robots[0].X_WP;
    const Transform up = Transform::fromTranslation(Vec3(0, 0, 120)) * start;
    moving->setTarget(up, world->state.robots[0].dofValues);
    const long before = moving->status().iterations;
    QVERIFY(waitFor([&] { return moving->status().iterations > before + 400; }));
    moving->cancel();
    moving->wait();
    QVERIFY(moving->result());
    QVERIFY(!moving->result()->grasps.empty());
    for (const PlannedGrasp& g : moving->result()->grasps) {
      const Vec3 p = g.preGrasp.X_WP.translation();
      QVERIFY((p - up.translation()).norm() < (p - start.translation()).norm());
    }
  }

  // Capture: the hand as it is joins the list; an empty list gets makeGraspList's header (planner, maxSteps,
  // stopReason "captured") and it all round-trips through the grasp list file.
  void captureKeepsTheHeaderAndRoundTrips() {
    const auto world = bundled("threefinger_sphere.xml");
    PlanRequest r = smallPlan(500, 1);
    r.planner = PlannerKind::Loop;
    GraspList list;
    addCapturedGrasp(list, *world, "sphere.xml", r);
    QCOMPARE(list.grasps.size(), std::size_t(1));
    QCOMPARE(list.planner, std::string("loop"));
    QCOMPARE(list.maxSteps, r.maxSteps);
    QCOMPARE(list.stopReason, std::string("captured"));
    QCOMPARE(list.world, std::string("sphere.xml"));
    QCOMPARE(list.robotIndex, 0);
    QCOMPARE(list.seed, std::string("11"));
    const RobotState& hand = world->state.robots[0];
    const PlannedGrasp& g = list.grasps[0];
    QVERIFY(g.grasp.X_WP.matrix() == hand.X_WP.matrix());
    QVERIFY(g.grasp.dofValues == hand.dofValues);
    QVERIFY(g.preGrasp.dofValues == hand.dofValues);
    QVERIFY(g.measure("epsilon-l1"));
    // The captured state is the hand's: the space maps it back to the palm pose.
    const HandSearchSpace space = makeSearchSpace(*world, r);
    QCOMPARE(list.variableNames.size(), space.variables.size());
    QCOMPARE(g.variables.size(), space.variables.size());
    QVERIFY(space.palmPose(g.variables).matrix().isApprox(hand.X_WP.matrix(), 1e-9));

    QTemporaryDir dir;
    const std::string path = dir.filePath("captured.json").toStdString();
    saveGraspList(list, path);
    const GraspList back = loadGraspList(path);
    QCOMPARE(back.planner, list.planner);
    QCOMPARE(back.stopReason, list.stopReason);
    QCOMPARE(back.maxSteps, list.maxSteps);
    QCOMPARE(back.variableNames, list.variableNames);
    QCOMPARE(back.grasps.size(), std::size_t(1));
    QVERIFY(back.grasps[0].grasp.dofValues == g.grasp.dofValues);
    QVERIFY(back.grasps[0].variables == g.variables);

    // Into a planned list: its header stays (a run's stop reason, its space), the grasp is appended.
    NullProgress quiet;
    PlanRequest planned = smallPlan(300, 1);
    planned.space = PositionSpace::Ellipsoid;
    GraspList fromRun = makeGraspList(*world, "sphere.xml", planned, planGrasps(*world, planned, quiet));
    const std::size_t count = fromRun.grasps.size();
    addCapturedGrasp(fromRun, *world, "other.xml", r);  // r asks for axis-angle: the list's space wins
    QCOMPARE(fromRun.grasps.size(), count + 1);
    QCOMPARE(fromRun.stopReason, std::string("step-limit"));
    QCOMPARE(fromRun.planner, std::string("simann"));
    QCOMPARE(fromRun.world, std::string("sphere.xml"));
    QCOMPARE(fromRun.grasps.back().variables.size(), fromRun.variableNames.size());
    QVERIFY(fromRun.grasps.back().variables != g.variables);  // ellipsoid, not axis-angle coordinates

    // Another hand's list: refused, naming the field, the list unchanged.
    GraspList other = list;
    other.robotIndex = 1;
    QVERIFY(errorOf([&] { addCapturedGrasp(other, *world, "", r); }).contains("robotIndex"));
    QCOMPARE(other.grasps.size(), std::size_t(1));
  }

  // A list that does not fit the world: the error names the field.
  void validationNamesTheField() {
    const auto world = bundled("threefinger_sphere.xml");
    GraspList list;
    addCapturedGrasp(list, *world, "", smallPlan(500, 1));
    list.grasps.push_back(list.grasps[0]);
    validateGraspList(list, *world);  // fits

    GraspList bad = list;
    bad.robotIndex = 3;
    QVERIFY(errorOf([&] { validateGraspList(bad, *world); }).startsWith("robotIndex: 3"));
    bad = list;
    bad.graspableIndex = -1;
    QVERIFY(errorOf([&] { validateGraspList(bad, *world); }).startsWith("graspableIndex: -1"));
    bad = list;
    bad.grasps[1].preGrasp.dofValues.push_back(0);
    const QString dofs = errorOf([&] { validateGraspList(bad, *world); });
    QVERIFY2(dofs.startsWith("grasps[1].preGrasp.dofs: "), qPrintable(dofs));
    bad = list;
    bad.grasps[0].grasp.dofValues.clear();
    QVERIFY(errorOf([&] { validateGraspList(bad, *world); }).startsWith("grasps[0].grasp.dofs: 0 values"));
  }
};

QTEST_GUILESS_MAIN(TestPlannerRun)
#include "tst_planner_run.moc"
