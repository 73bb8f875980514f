// The grasp planner (src/grasp/planner/PLANNER.md).
#include <QtTest>

#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <filesystem>
#include <fstream>
#include <thread>
#include <tuple>

#include "contact/CollisionFilter.h"
#include "contact/ContactDetection.h"
#include "geometry/BvhCache.h"
#include "geometry/Proximity.h"
#include "grasp/planner/GraspCapture.h"
#include "grasp/planner/GraspList.h"
#include "grasp/planner/GraspPlanner.h"
#include "grasp/planner/OnlinePlanner.h"
#include "io/ModelIO.h"
#include "core/Math.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::planner;

namespace {

World bundled(const char* name) { return loadWorld(std::string(sg::test::sourceDir()) + "/worlds/" + name); }

// hydro_fingertips at GraspIt!'s default run cut to 250 iterations, as bench_plan --yield runs it (point
// contacts, one thread, seed 2): its kept closings include joints in break-away.
PlanRequest hydroSeed2Request() {
  PlanRequest request;
  request.energy.analysis.contactModels = {"point"};
  request.threads = 1;
  request.seed = 2;
  request.reportMeasures = {"epsilon-l1"};
  request.maxSteps = request.params.k0 + 250;
  return request;
}

// The same joints in break-away at the same values (a state read from a list is sized to its largest indices,
// a closing's to the robot: inactive entries do not count).
bool sameBreakAway(const BreakAwayState& a, const BreakAwayState& b) {
  auto covered = [](const BreakAwayState& x, const BreakAwayState& y) {
    for (std::size_t c = 0; c < x.size(); ++c)
      for (std::size_t j = 0; j < x[c].size(); ++j)
        if (x[c][j].active && !(c < y.size() && j < y[c].size() && y[c][j] == x[c][j])) return false;
    return true;
  };
  return covered(a, b) && covered(b, a);
}

// E = (x − 1.5)² + (y + 2)² + 0.5·(1 − cos(3·(x − 1.5))) : one global minimum 0 at (1.5, −2), ripples around.
class Analytic final : public StateEvaluator {
 public:
  std::optional<double> energy(const std::vector<double>& x) override {
    const double dx = x[0] - 1.5, dy = x[1] + 2.0;
    return dx * dx + dy * dy + 0.5 * (1 - std::cos(3 * dx));
  }
};

// Legal only for x ≤ 0 (a wall at 0, as a hand against the object); E = −10⁶·x draws the search to the wall (the
// default parameters' acceptance takes uphill moves of a few units often), where most steps toward it are illegal.
class Wall final : public StateEvaluator {
 public:
  std::optional<double> energy(const std::vector<double>& x) override {
    if (x[0] > 0) return std::nullopt;
    return -1e6 * x[0];
  }
};

AnnealingRequest analyticRequest() {
  AnnealingRequest r;
  r.variables = {{"x", -5, 5, 2.5, false, false, -4, {}, 0}, {"y", -5, 5, 2.5, false, false, 4, {}, 0}};
  r.params = AnnealingParams::byName("default");
  r.maxSteps = r.params.k0 + 6000;
  r.chains = 2;
  r.seed = 42;
  return r;
}

double oneDimDistance(const std::vector<double>& a, const std::vector<double>& b) { return std::abs(a[0] - b[0]); }

PlanRequest smallPlan(EnergyKind kind, long iterations, int threads) {
  PlanRequest r;
  r.energy.kind = kind;
  r.energy.analysis.contactModels = {"point"};
  r.maxSteps = r.params.k0 + iterations;
  r.chains = 4;
  r.threads = threads;
  r.seed = 7;
  r.finalStage.enabled = false;  // the search's own list; the final stage has its own tests
  return r;
}

// The default world's default run cut short, with the final stage (PLANNER.md §Final stage).
PlanRequest stagedPlan(int threads) {
  PlanRequest r = smallPlan(EnergyKind::Contacts, 2000, threads);
  r.seed = 1;
  r.finalStage = FinalStageSettings{};
  r.reportMeasures = {"epsilon-l1"};
  return r;
}

// A bundled world's hand search for one energy (smallPlan's settings, then `adjust`): the world, the request,
// its search space and an evaluator over them (which keeps references to the other three).
struct HandSearchFixture {
  World world;
  PlanRequest request;
  HandSearchSpace space;
  HandEvaluator evaluator;
  HandSearchFixture(const char* name, EnergyKind kind, const std::function<void(PlanRequest&)>& adjust = {})
      : world(bundled(name)),
        request([&] {
          PlanRequest r = smallPlan(kind, 1, 1);
          if (adjust) adjust(r);
          return r;
        }()),
        space(makeSearchSpace(world, request)),
        evaluator(world, world.state, space, request.energy) {}
};

// Cancels the run at the first progress report (made on the calling thread while the chains run).
class CancelAtFirstReport final : public ProgressSink {
 public:
  void report(double, std::string_view) override { cancel_ = true; }
  bool cancelRequested() const override { return cancel_; }
 private:
  bool cancel_ = false;
};


// The guided planner in the approach space (around the hand's start pose), small budgets.
PlanRequest guidedPlan(long parentIterations, int threads) {
  PlanRequest r = smallPlan(EnergyKind::Contacts, parentIterations, threads);
  r.planner = PlannerKind::Guided;
  r.space = PositionSpace::Approach;
  r.guided.childSteps = 40;
  r.guided.maxSeeds = 5;
  r.guided.spawnEvery = 50;
  r.reportMeasures = {"epsilon-l1"};
  return r;
}

// Cancels at the first report made after `after_s`; records when cancel was first seen and when the guided
// planner reported that it is done.
class CancelAndTime final : public ProgressSink {
 public:
  explicit CancelAndTime(double after_s) : after_(after_s), start_(std::chrono::steady_clock::now()) {}
  void report(double, std::string_view message) override {
    const auto now = std::chrono::steady_clock::now();
    if (!cancel_ && now - start_ >= std::chrono::duration<double>(after_)) cancel_ = true;
    if (message.find("guided planner: done") != std::string_view::npos && !doneAt_) doneAt_ = now;
  }
  bool cancelRequested() const override {
    if (cancel_ && !seenAt_) seenAt_ = std::chrono::steady_clock::now();
    return cancel_;
  }
  double stopLatency_s() const {
    return seenAt_ && doneAt_ ? std::chrono::duration<double>(*doneAt_ - *seenAt_).count() : -1.0;
  }
 private:
  double after_;
  std::chrono::steady_clock::time_point start_;
  bool cancel_ = false;
  mutable std::optional<std::chrono::steady_clock::time_point> seenAt_;
  std::optional<std::chrono::steady_clock::time_point> doneAt_;
};

}  // namespace

class TestPlanner : public QObject {
  Q_OBJECT
 private slots:
  void temperatureAndGenerator() {
    const AnnealingParams p = AnnealingParams::byName("default");
    QCOMPARE(coolingTemperature(p.t0, p.yc, 0, p.ydims), 1e6);
    QVERIFY(coolingTemperature(p.t0, p.yc, 70000, p.ydims) < coolingTemperature(p.t0, p.yc, 30000, p.ydims));
    for (double u : {0.0, 0.1, 0.4999, 0.5, 0.7, 0.99999}) {
      const double y = ingberStep(u, 1e-5);
      QVERIFY(y >= -1 && y <= 1);
      QVERIFY((u < 0.5) == (y < 0) || y == 0);
    }
    QVERIFY(std::abs(ingberStep(0.999999, 1e-5)) > 0.9);  // heavy tail reaches the whole range
    QVERIFY(std::abs(ingberStep(0.5, 1e-5)) < 1e-9);
    QVERIFY_THROWS_EXCEPTION(sg::Error, AnnealingParams::byName("nope"));
    QCOMPARE(AnnealingParams::byName("strict").k0, 0L);
  }

  void annealingFindsAnalyticMinimum() {
    NullProgress progress;
    const AnnealingResult r = runAnnealing(analyticRequest(), [] { return std::make_unique<Analytic>(); },
                                           [](const auto& a, const auto& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); },
                                           progress);
    QVERIFY(!r.best.empty());
    QCOMPARE(r.stopReason, StopReason::StepLimit);
    QVERIFY2(r.best.front().energy < 1e-3, qPrintable(QString::number(r.best.front().energy)));
    QVERIFY(std::abs(r.best.front().x[0] - 1.5) < 0.03);
    QVERIFY(std::abs(r.best.front().x[1] + 2.0) < 0.03);
  }

  void analyticSameSeedSameListOnAnyThreadCount() {
    NullProgress progress;
    AnnealingRequest a = analyticRequest(), b = analyticRequest();
    a.chains = b.chains = 4;
    a.threads = 1;
    b.threads = 4;
    auto factory = [] { return std::make_unique<Analytic>(); };
    auto dist = [](const auto& x, const auto& y) { return std::hypot(x[0] - y[0], x[1] - y[1]); };
    const AnnealingResult ra = runAnnealing(a, factory, dist, progress), rb = runAnnealing(b, factory, dist, progress);
    QCOMPARE(ra.best.size(), rb.best.size());
    for (std::size_t i = 0; i < ra.best.size(); ++i) {
      QCOMPARE(ra.best[i].energy, rb.best[i].energy);
      QVERIFY(ra.best[i].x == rb.best[i].x);
    }
    AnnealingRequest c = analyticRequest();
    c.seed = 43;
    const AnnealingResult rc = runAnnealing(c, factory, dist, progress);
    QVERIFY(rc.best.front().x != ra.best.front().x);  // the seed matters
  }

  // Legality-aware neighbours (PLANNER.md §Annealing): a step scale shortens every step by exactly that factor.
  void neighbourStepScaleShortensEveryStep() {
    const SearchVariable v{"x", -100, 100, 4, false, false, 0, {}, 0};
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      Rng a(seed), b(seed);
      const double full = neighbour({v}, {0.0}, 0.5, a)[0];
      const double quarter = neighbour({v}, {0.0}, 0.5, b, 0.25)[0];
      QVERIFY(full != 0);
      QVERIFY(std::abs(quarter - 0.25 * full) < 1e-12);
    }
  }

  // Against a wall, a neighbour drawn after an illegal one with shorter steps is legal more often: the same
  // search with the shrink wastes a smaller share of its candidates than GraspIt!'s neighbours (shrink 1), gets
  // as close to the wall, and stays the same on 1 and 2 threads. A shrink outside (0, 1] is refused.
  void illegalShrinkFindsLegalNeighboursMoreOften() {
    NullProgress progress;
    AnnealingRequest r;
    r.variables = {{"x", -5, 5, 2.5, false, false, -4, {}, 0}};
    r.params = AnnealingParams::byName("default");
    r.maxSteps = r.params.k0 + 4000;
    r.chains = 2;
    r.seed = 3;
    auto factory = [] { return std::make_unique<Wall>(); };
    auto rate = [](const AnnealingResult& a) { return double(a.illegal) / double(a.illegal + a.evaluations); };
    r.illegalShrink = 1;
    const AnnealingResult plain = runAnnealing(r, factory, oneDimDistance, progress);
    r.illegalShrink = 0.5;
    const AnnealingResult shrunk = runAnnealing(r, factory, oneDimDistance, progress);
    QVERIFY(plain.illegal > 100);  // the wall is met often: the comparison is not vacuous
    QVERIFY2(rate(shrunk) < 0.8 * rate(plain), qPrintable(QString("%1 against %2").arg(rate(shrunk)).arg(rate(plain))));
    qInfo("illegal: %g with the shrink, %g without; closest to the wall: %g, %g", rate(shrunk), rate(plain),
          shrunk.best.front().x[0], plain.best.front().x[0]);
    QVERIFY(shrunk.best.front().x[0] <= 0 && shrunk.best.front().x[0] > -1e-3);
    QVERIFY(plain.best.front().x[0] <= 0 && plain.best.front().x[0] > -1e-3);
    r.threads = 2;
    const AnnealingResult two = runAnnealing(r, factory, oneDimDistance, progress);
    QCOMPARE(two.illegal, shrunk.illegal);
    QCOMPARE(two.best.size(), shrunk.best.size());
    for (std::size_t i = 0; i < two.best.size(); ++i) QVERIFY(two.best[i].x == shrunk.best[i].x);
    for (double bad : {0.0, -0.5, 1.5, std::nan("")}) {
      r.illegalShrink = bad;
      QVERIFY_THROWS_EXCEPTION(sg::Error, runAnnealing(r, factory, oneDimDistance, progress));
    }
  }

  void bestListDistanceRule() {
    BestList list(3, 0.2, oneDimDistance);
    QVERIFY(list.offer({{0.0}, 5.0, 0, 0}));
    QVERIFY(!list.offer({{0.1}, 6.0, 0, 1}));   // near a better one: rejected
    QVERIFY(list.offer({{0.15}, 4.0, 0, 2}));   // near a worse one: replaces it
    QCOMPARE(list.entries().size(), std::size_t(1));
    QCOMPARE(list.entries().front().x[0], 0.15);
    QVERIFY(list.offer({{1.0}, 3.0, 0, 3}));
    QVERIFY(list.offer({{2.0}, 7.0, 0, 4}));
    QVERIFY(!list.offer({{3.0}, 8.0, 0, 5}));   // full and worse than the worst
    QVERIFY(list.offer({{3.0}, 1.0, 0, 6}));    // full, better: the worst drops out
    QCOMPARE(list.entries().size(), std::size_t(3));
    QCOMPARE(list.entries().front().energy, 1.0);
    QCOMPARE(list.entries().back().energy, 4.0);
    for (std::size_t i = 0; i < list.entries().size(); ++i)
      for (std::size_t j = i + 1; j < list.entries().size(); ++j)
        QVERIFY(oneDimDistance(list.entries()[i].x, list.entries()[j].x) >= 0.2);
  }

  void searchSpacesStartAtTheHand() {
    const World world = bundled("threefinger_sphere.xml");
    const Robot& hand = world.robots[0];
    for (PositionSpace s : {PositionSpace::AxisAngle, PositionSpace::Complete, PositionSpace::Approach}) {
      const HandSearchSpace space = makeSearchSpace(world, world.state, 0, 0, s);
      std::vector<double> x;
      for (const SearchVariable& v : space.variables) x.push_back(v.value);
      QVERIFY2(space.palmPose(x).isApprox(world.state.robots[0].X_WP, 1e-6), toString(s));
      const std::vector<double> dofs = space.dofValues(world, x);
      QCOMPARE(dofs.size(), hand.dofCount());
      QCOMPARE(space.distance(x, x), 0.0);
    }
  }

  void sameSeedSameGraspsOnOneAndFourThreads() {
    const World world = bundled("threefinger_sphere.xml");
    NullProgress progress;
    const PlanResult one = planGrasps(world, smallPlan(EnergyKind::Contacts, 600, 1), progress);
    const PlanResult four = planGrasps(world, smallPlan(EnergyKind::Contacts, 600, 4), progress);
    QVERIFY(!one.grasps.empty());
    QCOMPARE(one.grasps.size(), four.grasps.size());
    for (std::size_t i = 0; i < one.grasps.size(); ++i) {
      QCOMPARE(one.grasps[i].energy, four.grasps[i].energy);
      QVERIFY(one.grasps[i].variables == four.grasps[i].variables);
      QVERIFY(one.grasps[i].grasp.dofValues == four.grasps[i].grasp.dofValues);
    }
    for (std::size_t i = 0; i < one.grasps.size(); ++i)
      for (std::size_t j = i + 1; j < one.grasps.size(); ++j)
        QVERIFY(one.space.distance(one.grasps[i].variables, one.grasps[j].variables) >= 0.2);
    QVERIFY(one.grasps.size() <= 20);
  }

  void forceClosureOnParallelJawBox() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    const PlanResult r = planGrasps(world, smallPlan(EnergyKind::AutoGraspQuality, 200, 2), progress);
    QVERIFY(!r.grasps.empty());
    QVERIFY(r.grasps.front().forceClosure);
    QVERIFY(r.grasps.front().energy < 0);
    const MeasureValue* eps = r.grasps.front().measure("epsilon-l1");
    QVERIFY(eps && eps->ok && eps->value > 0);
  }

  void forceClosureOnThreeFingerSphere() {
    const World world = bundled("threefinger_sphere.xml");
    NullProgress progress;
    PlanRequest request = smallPlan(EnergyKind::AutoGraspQuality, 200, 2);
    request.space = PositionSpace::Approach;
    const PlanResult r = planGrasps(world, request, progress);
    QVERIFY(std::any_of(r.grasps.begin(), r.grasps.end(), [](const PlannedGrasp& g) { return g.forceClosure; }));
  }

  void forceClosureOnThreeFingerMugWithContactsEnergy() {
    const World world = bundled("default.xml");  // ThreeFinger above the mug on a table
    NullProgress progress;
    const PlanResult r = planGrasps(world, smallPlan(EnergyKind::Contacts, 2000, 2), progress);
    QVERIFY(std::any_of(r.grasps.begin(), r.grasps.end(), [](const PlannedGrasp& g) { return g.forceClosure; }));
    for (const PlannedGrasp& g : r.grasps) QVERIFY(g.energy >= 0);  // the contacts energy is a mean of ≥ 0 terms
  }

  void everySpaceAndParameterSetRuns() {
    const World world = bundled("threefinger_sphere.xml");
    NullProgress progress;
    for (PositionSpace s : {PositionSpace::AxisAngle, PositionSpace::Approach, PositionSpace::Ellipsoid,
                            PositionSpace::Complete})
      for (const std::string& params : AnnealingParams::names()) {
        PlanRequest request = smallPlan(EnergyKind::Contacts, 100, 1);
        request.space = s;
        request.params = AnnealingParams::byName(params);
        request.maxSteps = request.params.k0 + 100;
        request.reportMeasures = {"epsilon-l1"};
        const PlanResult r = planGrasps(world, request, progress);
        QVERIFY2(r.annealing.iterations == 100, (std::string(toString(s)) + " " + params).c_str());
        QVERIFY2(r.annealing.evaluations > 0, (std::string(toString(s)) + " " + params).c_str());
      }
  }

  // The step counter runs from the parameter set's first step: a limit at or below it would run nothing, so
  // the request is refused with a message naming both numbers (for every parameter set that has a start).
  void stepLimitAtOrBelowTheStartIsRefused() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    for (const std::string& params : AnnealingParams::names()) {
      PlanRequest request = smallPlan(EnergyKind::Contacts, 0, 1);
      request.params = AnnealingParams::byName(params);
      request.maxSteps = request.params.k0;
      QString error;
      try {
        planGrasps(world, request, progress);
      } catch (const Error& e) {
        error = QString::fromStdString(e.message());
      }
      QVERIFY2(error.contains(QString::number(request.params.k0)) && error.contains(QString::fromStdString(params)),
               qPrintable(QString::fromStdString(params) + ": " + error));
      request.maxSteps = request.params.k0 + 1;
      request.chains = 1;
      QCOMPARE(planGrasps(world, request, progress).annealing.iterations, 1L);
    }
  }

  void cancelStopsTheRun() {
    const World world = bundled("threefinger_sphere.xml");
    PlanRequest request = smallPlan(EnergyKind::Contacts, 1000000000L, 2);
    CancelAtFirstReport progress;
    const PlanResult r = planGrasps(world, request, progress);
    QCOMPARE(r.annealing.stopReason, StopReason::Cancelled);
    QVERIFY(r.annealing.iterations < 1000000000L);
  }

  void timeLimitStopsTheRun() {
    const World world = bundled("threefinger_sphere.xml");
    PlanRequest request = smallPlan(EnergyKind::Contacts, 1000000000L, 2);
    request.timeLimit_s = 0.2;
    NullProgress progress;
    const PlanResult r = planGrasps(world, request, progress);
    QCOMPARE(r.annealing.stopReason, StopReason::TimeLimit);
    QVERIFY(r.annealing.iterations < 1000000000L);
  }

  void graspListRoundTrip() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    const PlanRequest request = smallPlan(EnergyKind::AutoGraspQuality, 100, 1);
    const PlanResult r = planGrasps(world, request, progress);
    QVERIFY(!r.grasps.empty());
    const GraspList list = makeGraspList(world, "worlds/paralleljaw_box.xml", request, r);
    QTemporaryDir dir;
    const std::string path = dir.filePath("grasps.json").toStdString();
    saveGraspList(list, path);
    const GraspList back = loadGraspList(path);
    QCOMPARE(back.world, list.world);
    QCOMPARE(back.robot, list.robot);
    QCOMPARE(back.object, list.object);
    QCOMPARE(back.seed, std::string("7"));
    QCOMPARE(back.variableNames, list.variableNames);
    QCOMPARE(back.grasps.size(), list.grasps.size());
    for (std::size_t i = 0; i < list.grasps.size(); ++i) {
      const PlannedGrasp &a = list.grasps[i], &b = back.grasps[i];
      QCOMPARE(b.energy, a.energy);
      QVERIFY(b.variables == a.variables);
      QVERIFY(b.grasp.dofValues == a.grasp.dofValues);
      QVERIFY(b.preGrasp.dofValues == a.preGrasp.dofValues);
      QVERIFY(b.grasp.X_WP.isApprox(a.grasp.X_WP, 1e-12));
      QVERIFY(b.preGrasp.X_WP.isApprox(a.preGrasp.X_WP, 1e-12));
      QCOMPARE(b.forceClosure, a.forceClosure);
      QCOMPARE(b.measures.size(), a.measures.size());
      for (std::size_t m = 0; m < a.measures.size(); ++m) {
        QCOMPARE(b.measures[m].measure, a.measures[m].measure);
        QCOMPARE(b.measures[m].ok, a.measures[m].ok);
        if (a.measures[m].ok) QCOMPARE(b.measures[m].value, a.measures[m].value);
      }
      QCOMPARE(b.contacts.size(), a.contacts.size());
      for (std::size_t c = 0; c < a.contacts.size(); ++c) {
        QCOMPARE(b.contacts[c].handBody, a.contacts[c].handBody);
        QVERIFY(b.contacts[c].position_mm == a.contacts[c].position_mm);
      }
    }
  }

  void graspListRecordsThePlanner() {
    const World world = bundled("paralleljaw_box.xml");
    PlanRequest request = smallPlan(EnergyKind::Contacts, 100, 1);
    request.planner = PlannerKind::Guided;
    request.guided.childEnergy = EnergyKind::StrictAutoGrasp;
    request.space = PositionSpace::Ellipsoid;
    request.params = AnnealingParams::byName("modified");
    request.seed = 18446744073709551557ULL;  // > 2^53: kept exactly as a decimal string
    PlanResult result;
    result.space = makeSearchSpace(world, request);
    const GraspList list = makeGraspList(world, "w.xml", request, result);
    QCOMPARE(list.planner, std::string("guided"));
    QCOMPARE(list.energy, std::string("strict-autograsp"));          // the grasps' (children's) energy
    QCOMPARE(list.parentEnergy, std::string("guided-potential-quality"));
    QTemporaryDir dir;
    const std::string path = dir.filePath("guided.json").toStdString();
    saveGraspList(list, path);
    const GraspList back = loadGraspList(path);
    QCOMPARE(back.planner, list.planner);
    QCOMPARE(back.energy, list.energy);
    QCOMPARE(back.parentEnergy, list.parentEnergy);
    QCOMPARE(back.space, std::string("ellipsoid"));
    QCOMPARE(back.params, std::string("modified"));
    QCOMPARE(back.seed, std::string("18446744073709551557"));
    QCOMPARE(back.maxSteps, request.maxSteps);
    // A simann list has no parent energy; a list written before the planner was recorded still loads (planner empty).
    request.planner = PlannerKind::SimAnn;
    GraspList old = makeGraspList(world, "w.xml", request, result);
    QCOMPARE(old.planner, std::string("simann"));
    QVERIFY(old.parentEnergy.empty());
    old.planner.clear();
    const std::string text = graspListToJson(old);
    QVERIFY(text.find("\"planner\"") == std::string::npos);
    QVERIFY(text.find("parentEnergy") == std::string::npos);
    const GraspList oldBack = graspListFromJson(text);
    QVERIFY(oldBack.planner.empty());
    QCOMPARE(oldBack.energy, std::string("contacts"));
  }

  // The file starts with its tag "softgrasp.grasp-list" (docs/schemas/grasp-list.schema.json); a list tagged with
  // the former name "softgrasp-grasp-list" reads to the same grasps; another kind or a newer version is refused
  // with a message naming the file, what it expected and what it found.
  void graspListTagIsCheckedWithTheFileNamed() {
    const World world = bundled("paralleljaw_box.xml");
    const PlanRequest request = smallPlan(EnergyKind::Contacts, 100, 1);
    PlanResult result;
    result.space = makeSearchSpace(world, request);
    const std::string text = graspListToJson(makeGraspList(world, "w.xml", request, result));
    QCOMPARE(text.rfind("{\n  \"format\": \"softgrasp.grasp-list\",\n  \"version\": 1,\n", 0), std::size_t(0));
    QTemporaryDir dir;
    const auto variant = [&](const std::string& from, const std::string& to) {
      std::string t = text;
      t.replace(t.find(from), from.size(), to);
      const std::string path = dir.filePath(QString::number(std::hash<std::string>{}(to))).toStdString();
      std::ofstream(path) << t;
      return path;
    };
    const std::string former = variant("\"softgrasp.grasp-list\"", "\"softgrasp-grasp-list\"");
    QCOMPARE(graspListToJson(loadGraspList(former)), text);
    const std::vector<std::pair<std::string, std::string>> refused = {
        {variant("\"softgrasp.grasp-list\"", "\"softgrasp.batch-jobs\""),
         "expected a softgrasp.grasp-list document version 1, found format \"softgrasp.batch-jobs\", version 1"},
        {variant("\"version\": 1", "\"version\": 2"),
         "found format \"softgrasp.grasp-list\", version 2 (newer than this program reads)"},
        {variant("\"version\": 1,", ""), "found format \"softgrasp.grasp-list\", no \"version\""}};
    for (const auto& [path, expected] : refused) {
      try {
        loadGraspList(path);
        QFAIL(("no error for " + expected).c_str());
      } catch (const sg::Error& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find(expected) != std::string::npos, e.what());
      }
    }
  }

  void badGraspFileNamesTheFile() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("missing.json").toStdString();
    const std::string broken = dir.filePath("broken.json").toStdString();
    const std::string wrong = dir.filePath("wrong.json").toStdString();
    const std::string badField = dir.filePath("badfield.json").toStdString();
    std::ofstream(broken) << "{\n  \"format\": \"softgrasp-grasp-list\",\n  \"version\": 1,\n  \"grasps\": [ {\n";
    std::ofstream(wrong) << "{\"format\": \"something-else\", \"grasps\": []}";
    std::ofstream(badField) << "{\"format\": \"softgrasp-grasp-list\", \"version\": 1, \"grasps\": "
                               "[{\"energy\": 1, \"grasp\": {\"palm\": {\"position_mm\": [0, 0], "
                               "\"quaternion_wxyz\": [1, 0, 0, 0]}, \"dofs\": []}}]}";
    for (const std::string& path : {missing, broken, wrong, badField}) {
      try {
        loadGraspList(path);
        QFAIL(("no error for " + path).c_str());
      } catch (const sg::Error& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
      }
    }
    try {
      loadGraspList(broken);
    } catch (const sg::Error& e) {
      QVERIFY2(std::string(e.what()).find("line 5") != std::string::npos, e.what());
    }
    try {
      loadGraspList(badField);
    } catch (const sg::Error& e) {
      QVERIFY2(std::string(e.what()).find("grasps[0].grasp.palm.position_mm") != std::string::npos, e.what());
    }
  }
  // --- energies, targets, avoid list, loop planner, live view, save as world ---

  void contactsEnergyFormula() {
    // One probe 10 mm from the object, pointing at it: 10; one 10 mm away, normal at right angles: 10 + 50.
    HandProbe aligned{Vec3::Zero(), Vec3::UnitZ(), Vec3(0, 0, 10)};
    HandProbe sideways{Vec3::Zero(), Vec3::UnitX(), Vec3(0, 0, 10)};
    QCOMPARE(contactsEnergyOf({aligned}), 10.0);
    QCOMPARE(contactsEnergyOf({sideways}), 60.0);
    QCOMPARE(contactsEnergyOf({aligned, sideways}), 35.0);
    QCOMPARE(contactsEnergyOf({}), 0.0);
  }

  // The evaluator's legality test (its pairs looked up once, mesh pairs whose BVH root spheres are apart
  // skipped) agrees with anyCollision on the hand's bodies, on random states of both bundled worlds: near the
  // start (touching and not) and anywhere in the ranges.
  void placeAgreesWithAnyCollision() {
    for (const char* name : {"default.xml", "fivefinger_cylinder.xml"}) {
      const World world = bundled(name);
      PlanRequest request = smallPlan(EnergyKind::Contacts, 1, 1);
      const HandSearchSpace space = makeSearchSpace(world, request);
      HandEvaluator evaluator(world, world.state, space, request.energy);
      const std::vector<BodyHandle> hand = robotBodies(world, space.robot);
      std::mt19937 rng(23);
      std::normal_distribution<double> step(0.0, 1.0);
      int legal = 0, illegal = 0;
      for (int s = 0; s < 300; ++s) {
        std::vector<double> x;
        for (const SearchVariable& v : space.variables)
          x.push_back(s % 2 ? std::uniform_real_distribution<double>(v.min, v.max)(rng)
                            : std::clamp(v.value + 0.15 * v.maxJump * step(rng), v.min, v.max));
        const bool placed = evaluator.place(x);
        QCOMPARE(placed, !anyCollision(world, evaluator.scratch(), request.energy.analysis.collision, hand));
        (placed ? legal : illegal) += 1;
      }
      QVERIFY2(legal >= 30 && illegal >= 30, name);
    }
  }

  // closingMissesObject (PLANNER.md §Energies, "auto-grasp quality"): wherever it says no body can reach the
  // object while the hand closes, closing the hand and analysing the grasp finds no contact on the object, and
  // the auto-grasp quality energy is 1, the value of a grasp without contacts. Random states of the bundled
  // hand worlds, near the start and anywhere in the ranges; it must apply in some and not in others.
  void closingThatCannotReachTheObjectIsSkipped() {
    int touchingAll = 0;
    for (const char* name : {"default.xml", "fivefinger_cylinder.xml", "paralleljaw_box.xml"}) {
      HandSearchFixture f(name, EnergyKind::AutoGraspQuality);
      const auto& [world, request, space, evaluator] = std::tie(f.world, f.request, f.space, f.evaluator);
      std::mt19937 rng(29);
      std::normal_distribution<double> step(0.0, 1.0);
      int skipped = 0, closed = 0, touching = 0;
      for (int s = 0; s < 160; ++s) {
        std::vector<double> x;
        for (const SearchVariable& v : space.variables)
          x.push_back(s % 2 ? std::uniform_real_distribution<double>(v.min, v.max)(rng)
                            : std::clamp(v.value + 0.3 * v.maxJump * step(rng), v.min, v.max));
        if (!evaluator.place(x)) continue;
        const bool misses = evaluator.closingMissesObject();
        evaluator.close();
        AnalysisRequest a = request.energy.analysis;
        a.motion = {};
        a.graspable = space.graspable;
        a.measures.clear();
        a.contactScope = ContactScope::Grasp;
        NullProgress quiet;
        const AnalysisResult r = analyzeGrasp(world, evaluator.scratch(), a, quiet);
        const std::size_t contacts = r.primary() ? r.primary()->contacts.size() : 0;
        if (misses) {
          ++skipped;
          QVERIFY2(contacts == 0, qPrintable(QString("%1, state %2: skipped, but closing touches the object").arg(name).arg(s)));
          QCOMPARE(evaluator.energy(x).value(), 1.0);
        } else {
          ++closed;
          touching += contacts > 0;
        }
      }
      QVERIFY2(skipped >= 10 && closed >= 10, qPrintable(QString("%1: %2 skipped, %3 closed").arg(name).arg(skipped).arg(closed)));
      touchingAll += touching;
    }
    QVERIFY(touchingAll >= 3);  // some closings that were not skipped do touch the object
    // With handContactsOnly off the grasp counts every body's contacts with the object (the default world's mug
    // stands on a table): the skip must not apply.
    HandSearchFixture all("default.xml", EnergyKind::AutoGraspQuality,
                          [](PlanRequest& r) { r.energy.analysis.quality.handContactsOnly = false; });
    std::mt19937 rng(31);
    int legal = 0;
    for (int s = 0; s < 40; ++s) {
      std::vector<double> x;
      for (const SearchVariable& v : all.space.variables) x.push_back(std::uniform_real_distribution<double>(v.min, v.max)(rng));
      if (!all.evaluator.place(x)) continue;
      ++legal;
      QVERIFY(!all.evaluator.closingMissesObject());
    }
    QVERIFY(legal >= 10);
  }

  // The live contacts energy as the evaluator computes it (per link a warm-started distance query settled by
  // the slab certificate, src/geometry/README.md §Proximity) equals the plain computation of PLANNER.md
  // §Energies (a cold branch-and-bound distance per link, the link triangle nearest its point) bit for bit, on
  // random states of both bundled worlds: small steps as the annealer makes them at low temperature, and
  // every 8th state a jump anywhere in the ranges (the warm pair is then stale).
  void liveContactsEnergyMatchesPlainComputation() {
    for (const char* name : {"default.xml", "fivefinger_cylinder.xml"}) {
      const World world = bundled(name);
      PlanRequest request = smallPlan(EnergyKind::Contacts, 1, 1);
      request.energy.presetContacts = false;  // the ThreeFinger's virtual contacts would skip the link queries
      const HandSearchSpace space = makeSearchSpace(world, request);
      HandEvaluator evaluator(world, world.state, space, request.energy);
      const Robot& hand = world.robots.front();
      const auto objectBvh = bvhFor(world.graspables.front().mesh);
      std::mt19937 rng(11);
      std::normal_distribution<double> step(0.0, 1.0);
      std::vector<double> x;
      for (const SearchVariable& v : space.variables) x.push_back(v.value);
      int legal = 0;
      for (int s = 0; s < 240; ++s) {
        for (std::size_t k = 0; k < x.size(); ++k) {
          const SearchVariable& v = space.variables[k];
          x[k] = s % 8 == 7 ? std::uniform_real_distribution<double>(v.min, v.max)(rng)
                            : std::clamp(x[k] + 0.03 * v.maxJump * step(rng), v.min, v.max);
        }
        if (!evaluator.place(x)) continue;
        ++legal;
        const double fast = evaluator.contactsEnergy();
        const RobotState& rs = evaluator.scratch().robots.front();
        const Transform& X_WG = evaluator.scratch().X_WG.front();
        std::vector<HandProbe> plain;
        for (const BodyRef& ref : hand.bodyRefs()) {
          const Body& body = hand.body(ref);
          if (!body.mesh || body.mesh->empty()) continue;
          const auto bvh = bvhFor(body.mesh);
          const Transform& X_WL = X_WB(rs, ref);
          const MeshDistance d = meshDistance(*bvh, X_WL, *objectBvh, X_WG);
          QVERIFY(d.found());
          HandProbe p;
          p.p_W_mm = d.p_WCa_mm;
          p.q_W_mm = d.p_WCb_mm;
          p.n_W = X_WL.applyToVector(body.mesh->faceNormals.at(d.triangleA));
          plain.push_back(p);
        }
        QCOMPARE(fast, contactsEnergyOf(plain));
      }
      QVERIFY2(legal >= 60, name);
    }
  }

  // AcceptanceTest (PLANNER.md §Annealing, "Stopping an energy early"): it draws the annealer's u only when the
  // bound is above the current energy (when the annealer would draw u next: the same number), and rejects
  // only when every energy at or above the bound would be rejected with that u.
  void acceptanceTestRejectsOnlyWhatTheAnnealerRejects() {
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int rejected = 0, kept = 0, undrawn = 0;
    for (int trial = 0; trial < 4000; ++trial) {
      const double current = 100.0 * unit(rng);
      const double scale = std::pow(10.0, -8.0 + 12.0 * unit(rng));  // ERR_ADJ / T_h from 1e-8 to 1e4
      const double bound = current + (trial % 5 == 0 ? -1.0 : 1.0) * std::pow(10.0, -12.0 + 14.0 * unit(rng));
      Rng annealer(static_cast<std::uint64_t>(trial)), same(static_cast<std::uint64_t>(trial));
      AcceptanceTest test(current, scale, annealer);
      const bool rejects = test.rejects(bound);
      if (!test.drawn()) {
        ++undrawn;
        QVERIFY(!rejects);
        QVERIFY(!(bound > current + 1e-6));  // a bound clearly above the current energy draws u
        continue;
      }
      QVERIFY(bound > current);
      const double u = same.uniform();
      QCOMPARE(*test.drawn(), u);  // the annealer's next number
      QCOMPARE(test.rejects(bound), rejects);  // drawn once: asking again gives the same answer
      QCOMPARE(*test.drawn(), u);
      for (double e : {bound, std::nextafter(bound, 1e300), bound * (1 + 1e-12), bound + 1e-9, bound + 1.0, 2 * bound}) {
        const bool annealerAccepts = e < current || u < std::exp((current - e) * scale);
        if (rejects) QVERIFY2(!annealerAccepts, "rejected a candidate the annealer would accept");
      }
      const bool acceptsAtBound = bound < current || u < std::exp((current - bound) * scale);
      if (rejects) ++rejected;
      else if (acceptsAtBound) ++kept;
    }
    QVERIFY(rejected > 200 && kept > 200 && undrawn > 500);
    // No current state yet (an illegal start, +∞): nothing is drawn, nothing rejected.
    Rng annealer(1);
    AcceptanceTest fromIllegal(std::numeric_limits<double>::infinity(), 1.0, annealer);
    QVERIFY(!fromIllegal.rejects(1e300));
    QVERIFY(!fromIllegal.drawn());
  }

  // The contacts energy with an acceptance test is the full energy, the same number, or +∞ only when the
  // annealer would reject the full energy with the u the test drew: the ThreeFinger's virtual contacts
  // (default world) and FiveFinger's live links, random states, current energies around the state's own.
  // The probes' sphere floors (the bound for probes not yet computed) are below their distances.
  void contactsEnergyStopsOnlyWhenRejected() {
    for (const char* name : {"default.xml", "fivefinger_cylinder.xml"}) {
      HandSearchFixture f(name, EnergyKind::Contacts);
      const auto& [space, evaluator] = std::tie(f.space, f.evaluator);
      std::mt19937 rng(3);
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      std::vector<double> x;
      for (const SearchVariable& v : space.variables) x.push_back(v.value);
      int stopped = 0, full = 0, positiveFloors = 0;
      for (int s = 0; s < 150; ++s) {
        for (std::size_t k = 0; k < x.size(); ++k) {
          const SearchVariable& v = space.variables[k];
          x[k] = std::clamp(x[k] + 0.05 * v.maxJump * (2 * unit(rng) - 1), v.min, v.max);
        }
        const std::optional<double> plain = evaluator.energy(x);
        if (plain) {  // each probe's sphere floor is a lower bound of its distance
          for (std::size_t k = 0; k < evaluator.probeCount(); ++k) {
            const double floor = evaluator.probeFloor(k);
            const std::optional<HandProbe> probe = evaluator.probeAt(k);
            QVERIFY(probe.has_value());
            QVERIFY(floor >= 0 && floor <= probe->distance());
            positiveFloors += floor > 0;
          }
        }
        if (!plain) {
          Rng annealer(1);
          AcceptanceTest test(0.0, 1.0, annealer);
          QVERIFY(!evaluator.energy(x, test));  // illegal either way, and nothing drawn
          QVERIFY(!test.drawn());
          continue;
        }
        for (double fraction : {0.3, 0.8, 0.97, 1.0, 1.2}) {
          const double current = fraction * *plain;
          const double scale = std::pow(10.0, -3.0 + 4.0 * unit(rng));
          Rng annealer(static_cast<std::uint64_t>(s * 10 + fraction * 10));
          AcceptanceTest test(current, scale, annealer);
          const std::optional<double> e = evaluator.energy(x, test);
          QVERIFY(e.has_value());
          if (std::isinf(*e)) {
            ++stopped;
            QVERIFY(test.drawn().has_value());
            QVERIFY(!(*plain < current) && !(*test.drawn() < std::exp((current - *plain) * scale)));
          } else {
            ++full;
            QCOMPARE(*e, *plain);  // the same number as the plain evaluation
          }
        }
      }
      QVERIFY2(stopped > 20 && full > 20 && positiveFloors > 20, name);
    }
  }

  // Stopping early changes nothing in a run: with an evaluator that always evaluates fully, every chain's
  // every iteration has the same current energy and move, and the list, traces and counts are equal.
  void earlyStopKeepsTheRunNumberForNumber() {
    class FullOnly final : public StateEvaluator {
     public:
      explicit FullOnly(std::unique_ptr<HandEvaluator> e) : inner_(std::move(e)) {}
      std::optional<double> energy(const std::vector<double>& x) override { return inner_->energy(x); }
     private:
      std::unique_ptr<HandEvaluator> inner_;
    };
    for (const char* name : {"default.xml", "fivefinger_cylinder.xml"}) {
      const World world = bundled(name);
      const PlanRequest plan = smallPlan(EnergyKind::Contacts, 1, 1);
      const HandSearchSpace space = makeSearchSpace(world, plan);
      AnnealingRequest request;
      request.variables = space.variables;
      request.params = plan.params;
      request.maxSteps = plan.params.k0 + 1600;
      request.chains = 2;
      request.threads = 1;
      request.seed = 9;
      struct Step {
        int chain;
        long iteration;
        double energy;
        bool accepted;
        bool operator==(const Step&) const = default;
      };
      auto run = [&](bool early, std::vector<Step>& steps) {
        request.onIteration = [&steps](int c, long i, const std::vector<double>&, double e, bool accepted) {
          steps.push_back({c, i, e, accepted});
        };
        EvaluatorFactory factory = [&]() -> std::unique_ptr<StateEvaluator> {
          auto e = std::make_unique<HandEvaluator>(world, world.state, space, plan.energy);
          if (early) return e;
          return std::make_unique<FullOnly>(std::move(e));
        };
        StateDistance distance = [&](const std::vector<double>& a, const std::vector<double>& b) { return space.distance(a, b); };
        NullProgress progress;
        return runAnnealing(request, factory, distance, progress);
      };
      std::vector<Step> earlySteps, fullSteps;
      const AnnealingResult a = run(true, earlySteps), b = run(false, fullSteps);
      QCOMPARE(earlySteps.size(), std::size_t(1600));
      QVERIFY2(earlySteps == fullSteps, name);
      QCOMPARE(a.iterations, b.iterations);
      QCOMPARE(a.evaluations, b.evaluations);
      QCOMPARE(a.illegal, b.illegal);
      QCOMPARE(a.best.size(), b.best.size());
      QVERIFY(!a.best.empty());
      for (std::size_t k = 0; k < a.best.size(); ++k) {
        QCOMPARE(a.best[k].energy, b.best[k].energy);
        QCOMPARE(a.best[k].x, b.best[k].x);
      }
      int moves = 0;
      for (const Step& st : earlySteps) moves += st.accepted;
      QVERIFY2(moves > 20 && moves < 1580, name);  // both accepted and rejected candidates
    }
  }

  void potentialQualityFormula() {
    QCOMPARE(potentialScale(0, 1), 2.0);
    QVERIFY(std::abs(potentialScale(25, 1) - 1.0) < 1e-12);
    QCOMPARE(potentialScale(51, 1), 0.0);
    QCOMPARE(potentialScale(0, 0.69), 0.0);
    // Six frictionless probes touching the faces of a cube, pushing inward: the force hull is the octahedron
    // with vertices at distance sf = 2, whose facets are 2/√3 from the origin: E = −2/√3.
    std::vector<HandProbe> six;
    for (int axis = 0; axis < 3; ++axis)
      for (double sign : {-1.0, 1.0}) {
        Vec3 n = Vec3::Zero();
        n[axis] = sign;
        six.push_back({-n, n, -n, 0.0});  // p = q on the face, normal into the cube
      }
    QVERIFY(std::abs(potentialQualityEnergyOf(six) + 2.0 / std::sqrt(3.0)) < 1e-9);
    // 25 mm away (aligned): sf = 1, ε = 1/√3.
    std::vector<HandProbe> far = six;
    for (HandProbe& p : far) p.p_W_mm = p.q_W_mm - 25.0 * p.n_W;
    QVERIFY(std::abs(potentialQualityEnergyOf(far) + 1.0 / std::sqrt(3.0)) < 1e-9);
    // Friction widens the cones: a larger ε.
    std::vector<HandProbe> rough = six;
    for (HandProbe& p : rough) p.mu = 0.5;
    QVERIFY(potentialQualityEnergyOf(rough) < potentialQualityEnergyOf(six));
    // Fewer than 3 counting probes, or all on one side: +1.
    QCOMPARE(potentialQualityEnergyOf({six[0], six[1]}), 1.0);
    std::vector<HandProbe> oneSide = {six[0], six[2], six[4]};  // −x, −y, −z faces: the forces point one way
    QCOMPARE(potentialQualityEnergyOf(oneSide), 1.0);
    std::vector<HandProbe> misaligned = six;
    for (HandProbe& p : misaligned) p.n_W = -p.n_W;  // pointing away: cos θ < 0.7, nothing counts
    for (HandProbe& p : misaligned) p.p_W_mm = p.q_W_mm + 5.0 * p.n_W;
    QCOMPARE(potentialQualityEnergyOf(misaligned), 1.0);
  }

  void guidedAndStrictEnergiesOnParallelJaw() {
    const World world = bundled("paralleljaw_box.xml");
    const HandSearchSpace space = makeSearchSpace(world, world.state, 0, 0, PositionSpace::AxisAngle);
    std::vector<double> x;
    for (const SearchVariable& v : space.variables) x.push_back(v.value);
    auto energyOf = [&](EnergyKind kind, const std::vector<double>& at) {
      EnergySettings settings;
      settings.kind = kind;
      settings.analysis.contactModels = {"point"};
      HandEvaluator evaluator(world, world.state, space, settings);
      return evaluator.energy(at);
    };
    const auto contacts = energyOf(EnergyKind::Contacts, x);
    const auto potential = energyOf(EnergyKind::PotentialQuality, x);
    const auto guided = energyOf(EnergyKind::GuidedPotentialQuality, x);
    QVERIFY(contacts && potential && guided);
    QCOMPARE(*guided, *potential <= 0 ? *potential : *contacts);
    // Strict auto-grasp: −(30·volume + 100·ε) of the grasp it closes; far from the object nothing is touched: 1e8.
    const auto strict = energyOf(EnergyKind::StrictAutoGrasp, x);
    QVERIFY(strict);
    {
      EnergySettings settings;
      settings.kind = EnergyKind::StrictAutoGrasp;
      settings.analysis.contactModels = {"point"};
      HandEvaluator evaluator(world, world.state, space, settings);
      QVERIFY(evaluator.place(x));
      evaluator.close();
      AnalysisRequest a = settings.analysis;
      a.graspable = 0;
      a.measures = {"epsilon-l1", "volume-l1"};
      NullProgress quiet;
      const AnalysisResult r = analyzeGrasp(world, evaluator.scratch(), a, quiet);
      const MeasureValue* eps = r.primary()->measure("epsilon-l1");
      const MeasureValue* vol = r.primary()->measure("volume-l1");
      const double expected = -(30 * (vol->ok ? vol->value : 0) + 100 * std::max(0.0, eps->ok ? eps->value : 0));
      QCOMPARE(*strict, expected == 0 ? kStrictNoGrasp : expected);
    }
    std::vector<double> away = x;
    away[2] = 350;  // tz at its maximum: 350 mm from the object's centre
    const auto strictAway = energyOf(EnergyKind::StrictAutoGrasp, away);
    QVERIFY(strictAway);
    QCOMPARE(*strictAway, kStrictNoGrasp);
    QCOMPARE(*energyOf(EnergyKind::PotentialQuality, away), 1.0);  // every probe > 50 mm away
    QCOMPARE(*energyOf(EnergyKind::GuidedPotentialQuality, away), *energyOf(EnergyKind::Contacts, away));
    QCOMPARE(energyFromString("strict-autograsp"), EnergyKind::StrictAutoGrasp);
    QVERIFY_THROWS_EXCEPTION(sg::Error, energyFromString("nope"));
  }

  void everyEnergyPlans() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    for (EnergyKind kind : {EnergyKind::PotentialQuality, EnergyKind::GuidedPotentialQuality, EnergyKind::StrictAutoGrasp}) {
      PlanRequest request = smallPlan(kind, 80, 2);
      if (kind == EnergyKind::StrictAutoGrasp) {
        // Strict parameters, strongly biased toward a seed (the hand's start, a grasp: confidence 0.99, the
        // Gaussian's σ = 0.1 in the generator's u), starting 20 mm off.
        request.params = AnnealingParams::byName("strict");
        request.maxSteps = 80;
        const HandSearchSpace space = makeSearchSpace(world, world.state, 0, 0, request.space);
        request.variables = space.variables;
        for (std::size_t i = 0; i < space.variables.size(); ++i) {
          request.variables[i].target = space.variables[i].value;
          request.variables[i].confidence = 0.99;
        }
        request.variables[0].value += 20;
      }
      const PlanResult r = planGrasps(world, request, progress);
      QVERIFY2(!r.grasps.empty(), toString(kind));
      QCOMPARE(r.annealing.iterations, 80L);
      if (kind != EnergyKind::GuidedPotentialQuality)
        for (const PlannedGrasp& g : r.grasps) QVERIFY2(g.energy < (kind == EnergyKind::StrictAutoGrasp ? 0 : 1 + 1e-12), toString(kind));
    }
  }

  void targetBiasedNeighbours() {
    // Confidence 1: always the target when it is within one jump, a full jump toward it otherwise.
    Rng rng(3);
    SearchVariable v{"x", -5, 5, 2.5, false, false, 0, {}, 0};
    v.target = 2.0;
    v.confidence = 1.0;
    for (int i = 0; i < 20; ++i) QVERIFY(std::abs(neighbour({v}, {0.0}, 1.0, rng)[0] - 2.0) < 1e-12);
    v.target = 4.5;
    for (int i = 0; i < 20; ++i) QVERIFY(std::abs(neighbour({v}, {0.0}, 1.0, rng)[0] - 2.5) < 1e-12);
    QCOMPARE(ingberInverse(ingberStep(0.8, 0.3), 0.3), 0.8);
    // GraspIt!'s Gaussian: u ~ N(u*, 1 − c) with u* = ingberInverse(d), d the step to the target in jumps. Mapped
    // back to u, 20 000 neighbours have mean u* and standard deviation sqrt(1 − c) (no truncation 4σ from u*).
    const double T = 1.0, jump = 2.5, target = 0.25;
    auto uStats = [&](double confidence, double& mean, double& sd) {
      SearchVariable w{"x", -5, 5, jump, false, false, 0, {}, 0};
      w.target = target;
      w.confidence = confidence;
      Rng r(11);
      const int n = 20000;
      double sum = 0, sum2 = 0;
      for (int i = 0; i < n; ++i) {
        const double u = ingberInverse(neighbour({w}, {0.0}, T, r)[0] / jump, T);
        sum += u;
        sum2 += u * u;
      }
      mean = sum / n;
      sd = std::sqrt(sum2 / n - mean * mean);
    };
    const double uStar = ingberInverse(target / jump, T);
    QVERIFY(uStar > 0.55 && uStar < 0.6);
    double mean = 0, sd = 0;
    uStats(0.99, mean, sd);
    QVERIFY2(std::abs(mean - uStar) < 0.004, qPrintable(QString("mean %1 vs %2").arg(mean).arg(uStar)));
    QVERIFY2(std::abs(sd - 0.1) < 0.004, qPrintable(QString("sd %1").arg(sd)));
    uStats(0.9975, mean, sd);
    QVERIFY2(std::abs(mean - uStar) < 0.002, qPrintable(QString("mean %1 vs %2").arg(mean).arg(uStar)));
    QVERIFY2(std::abs(sd - 0.05) < 0.002, qPrintable(QString("sd %1").arg(sd)));
    // The spread of the values shrinks with the confidence, the values centre on the target.
    auto valueStats = [&](double confidence, double& m, double& s) {
      SearchVariable w{"x", -5, 5, jump, false, false, 0, {}, 0};
      w.target = 1.0;
      w.confidence = confidence;
      Rng r(12);
      double sum = 0, sum2 = 0;
      for (int i = 0; i < 5000; ++i) {
        const double x = neighbour({w}, {0.0}, 0.2, r)[0];
        sum += x;
        sum2 += x * x;
      }
      m = sum / 5000;
      s = std::sqrt(sum2 / 5000 - m * m);
    };
    double m0, s0, m5, s5, m9, s9, m99, s99;
    valueStats(0.0, m0, s0);
    valueStats(0.5, m5, s5);
    valueStats(0.9, m9, s9);
    valueStats(0.99, m99, s99);
    QVERIFY(std::abs(m0) < 0.05);              // unbiased: symmetric about the current value
    QVERIFY(s0 > s5 && s5 > s9 && s9 > s99);
    QVERIFY2(m0 < m5 && m5 < m9 && std::abs(m99 - 1.0) < 0.1, qPrintable(QString("%1 %2 %3 %4 / %5 %6 %7 %8").arg(m0).arg(m5).arg(m9).arg(m99).arg(s0).arg(s5).arg(s9).arg(s99)));
    // Circular: the short way round (from near −π toward a target near +π crosses the seam).
    SearchVariable phi{"phi", -M_PI, M_PI, 0.5, true, false, 0, {}, 0};
    phi.target = M_PI - 0.1;
    phi.confidence = 1.0;
    QVERIFY(std::abs(neighbour({phi}, {-M_PI + 0.1}, 1e-3, rng)[0] - (M_PI - 0.1)) < 1e-9);
    phi.confidence = 0.99;
    for (int i = 0; i < 50; ++i) {
      const double x = neighbour({phi}, {-M_PI + 0.1}, 1e-3, rng)[0];
      QVERIFY2(std::abs(std::abs(x) - M_PI) < 0.6, qPrintable(QString::number(x)));  // near the seam, not 0
    }
  }

  // --- the guided planner (GuidedPlanner.h) ---

  void guidedFindsForceClosureOnThreeFingerSphere() {
    // (On the ParallelJaw + box the live-probe potential quality leads the parent to poses whose jaws close on two
    // points only; the ThreeFinger's probes are a better guide within a small budget.)
    const World world = bundled("threefinger_sphere.xml");
    NullProgress progress;
    const PlanResult r = planGrasps(world, guidedPlan(1000, 2), progress);
    QVERIFY(!r.seeds.empty());
    QVERIFY(r.seeds.size() <= 5);
    for (std::size_t i = 0; i < r.seeds.size(); ++i)
      for (std::size_t j = i + 1; j < r.seeds.size(); ++j) QVERIFY(r.space.distance(r.seeds[i], r.seeds[j]) >= 0.3);
    QVERIFY(!r.grasps.empty());
    QVERIFY(r.grasps.size() <= r.seeds.size());
    QVERIFY(std::any_of(r.grasps.begin(), r.grasps.end(), [](const PlannedGrasp& g) { return g.forceClosure; }));
    // The grasps are the children's best states under the auto-grasp quality energy: a force-closure one ≤ 0.
    QVERIFY(r.grasps.front().energy < 0);
    // Parent iterations plus at most childSteps per child.
    QVERIFY(r.annealing.iterations > 1000);
    QVERIFY(r.annealing.iterations <= 1000 + 40 * static_cast<long>(r.seeds.size()));
    // Each child's result is in the avoid list with its child index; the grasps are among them.
    QCOMPARE(r.avoided.size(), r.avoidedRun.size());
    for (const PlannedGrasp& g : r.grasps)
      QVERIFY(std::find(r.avoided.begin(), r.avoided.end(), g.variables) != r.avoided.end());
  }

  void guidedSameListOnOneAndFourThreads() {
    const World world = bundled("threefinger_sphere.xml");
    NullProgress progress;
    PlanRequest request = guidedPlan(400, 1);
    request.guided.childSlots = 2;  // children 2 apart know each other's results: the avoid rule is exercised
    const PlanResult one = planGrasps(world, request, progress);
    request.threads = 4;
    const PlanResult four = planGrasps(world, request, progress);
    QVERIFY(!one.grasps.empty());
    QVERIFY(one.seeds == four.seeds);
    QVERIFY(one.avoided == four.avoided);
    QVERIFY(one.avoidedRun == four.avoidedRun);
    QCOMPARE(one.annealing.iterations, four.annealing.iterations);
    QCOMPARE(one.grasps.size(), four.grasps.size());
    for (std::size_t i = 0; i < one.grasps.size(); ++i) {
      QCOMPARE(one.grasps[i].energy, four.grasps[i].energy);
      QVERIFY(one.grasps[i].variables == four.grasps[i].variables);
      QVERIFY(one.grasps[i].grasp.dofValues == four.grasps[i].grasp.dofValues);
    }
  }

  void guidedCancelStopsWithin100ms() {
    const World world = bundled("paralleljaw_box.xml");
    PlanRequest request = guidedPlan(1000000000L, 2);
    request.guided.childSteps = 1000000;  // children run until cancelled
    request.guided.spawnEvery = 20;
    CancelAndTime progress(0.5);
    const PlanResult r = planGrasps(world, request, progress);
    QCOMPARE(r.annealing.stopReason, StopReason::Cancelled);
    const double latency = progress.stopLatency_s();
    QVERIFY(latency >= 0);
    QVERIFY2(latency < 0.1, qPrintable(QString("stopped %1 s after cancel").arg(latency)));
    QCOMPARE(plannerFromString("guided"), PlannerKind::Guided);
  }

  // --- the online planner (OnlinePlanner.h) ---

  void onlinePlannerFollowsTheTarget() {
    const World world = bundled("threefinger_sphere.xml");
    PlanRequest request = smallPlan(EnergyKind::Contacts, 0, 1);
    OnlinePlanner online(world, request);
    QCOMPARE(online.space().variables.size(), online.target().size());
    const HandSearchSpace start = makeSearchSpace(world, request);
    for (std::size_t i = 0; i < start.variables.size(); ++i)
      QVERIFY(std::abs(online.target()[i] - start.variables[i].value) < 1e-12);
    online.step(300);
    QCOMPARE(online.iterations(), 300L);
    QVERIFY(!online.best().empty());
    const std::vector<double> a = online.target();
    for (const BestEntry& e : online.best()) QVERIFY(online.space().distance(e.x, a) <= 0.5);
    // The user moves the hand 200 mm sideways: the target follows, the old states go, the new ones are near it.
    const RobotState& rs = world.state.robots[0];
    const Transform moved = Transform::fromTranslation(Vec3(200, 0, 0)) * rs.X_WP;
    online.setTarget(moved, rs.dofValues);
    const std::vector<double> b = online.target();
    QVERIFY(online.space().distance(a, b) > 1.0);
    WorldState there = world.state;
    there.robots[0].X_WP = moved;
    const HandSearchSpace expected = makeSearchSpace(world, there, 0, 0, PositionSpace::AxisAngle);
    for (std::size_t i = 0; i < 3; ++i) QVERIFY(std::abs(b[i] - expected.variables[i].value) < 1e-9);
    QVERIFY(online.best().empty());  // every state kept near the old target is > 0.5 from the new one
    online.step(300);
    QVERIFY(!online.best().empty());
    for (const BestEntry& e : online.best()) {
      QVERIFY(online.space().distance(e.x, b) <= 0.5);
      QVERIFY(online.space().distance(e.x, a) > 0.5);
    }
    // Same seed, same targets, same steps: the same list.
    OnlinePlanner again(world, request);
    again.step(300);
    again.setTarget(moved, rs.dofValues);
    again.step(300);
    QCOMPARE(again.best().size(), online.best().size());
    for (std::size_t i = 0; i < again.best().size(); ++i) QVERIFY(again.best()[i].x == online.best()[i].x);
  }

  void avoidListKeepsAwayFromAvoidedStates() {
    NullProgress progress;
    auto factory = [] { return std::make_unique<Analytic>(); };
    auto dist = [](const auto& a, const auto& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); };
    AnnealingRequest request = analyticRequest();
    request.avoid = {{1.5, -2.0}};
    request.avoidDistance = 1.0;
    const AnnealingResult r = runAnnealing(request, factory, dist, progress);
    QVERIFY(!r.best.empty());
    QVERIFY(r.illegal > 0);
    for (const BestEntry& e : r.best) QVERIFY(dist(e.x, request.avoid[0]) >= 1.0);
  }

  void loopPlannerAvoidsEarlierRuns() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    PlanRequest request = smallPlan(EnergyKind::Contacts, 300, 2);
    request.planner = PlannerKind::Loop;
    request.params = AnnealingParams::byName("loop");
    request.maxSteps = request.params.k0 + 300;
    request.loops = 3;
    request.avoidThreshold = 1e5;  // every kept state joins the avoid list (the contacts energy is in mm)
    request.reportMeasures = {"epsilon-l1"};
    const PlanResult r = planGrasps(world, request, progress);
    QCOMPARE(r.annealing.iterations, 900L);
    QVERIFY(!r.avoided.empty());
    QCOMPARE(r.avoided.size(), r.avoidedRun.size());
    QVERIFY(std::find(r.avoidedRun.begin(), r.avoidedRun.end(), 2) != r.avoidedRun.end());
    for (std::size_t i = 0; i < r.avoided.size(); ++i)
      for (std::size_t j = 0; j < r.avoided.size(); ++j)
        if (r.avoidedRun[j] > r.avoidedRun[i]) QVERIFY(r.space.distance(r.avoided[i], r.avoided[j]) >= 0.1);
    // Reproducible: the same seed gives the same list on another thread count.
    request.threads = 1;
    const PlanResult again = planGrasps(world, request, progress);
    QCOMPARE(again.grasps.size(), r.grasps.size());
    for (std::size_t i = 0; i < r.grasps.size(); ++i) QVERIFY(again.grasps[i].variables == r.grasps[i].variables);
  }

  void monitorSeesTheRunWithoutChangingIt() {
    NullProgress progress;
    auto factory = [] { return std::make_unique<Analytic>(); };
    auto dist = [](const auto& a, const auto& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); };
    const AnnealingResult plain = runAnnealing(analyticRequest(), factory, dist, progress);
    AnnealingMonitor monitor;
    AnnealingRequest watched = analyticRequest();
    watched.monitor = &monitor;
    const AnnealingResult seen = runAnnealing(watched, factory, dist, progress);
    QCOMPARE(seen.best.size(), plain.best.size());
    for (std::size_t i = 0; i < seen.best.size(); ++i) QVERIFY(seen.best[i].x == plain.best[i].x);
    const AnnealingMonitor::Snapshot snap = monitor.take();
    QVERIFY(snap.samples.size() > 10);
    QCOMPARE(snap.bestEnergy, plain.best.front().energy);
    QVERIFY(snap.bestState == plain.best.front().x);
    QCOMPARE(snap.iterations, seen.iterations);
    for (const auto& s : snap.samples) QVERIFY(s.best <= s.current);
    QVERIFY(monitor.take().samples.empty());  // taken once
  }

  void pauseHoldsTheChains() {
    auto factory = [] { return std::make_unique<Analytic>(); };
    auto dist = [](const auto& a, const auto& b) { return std::hypot(a[0] - b[0], a[1] - b[1]); };
    AnnealingMonitor monitor;
    monitor.setPaused(true);
    AnnealingRequest request = analyticRequest();
    request.monitor = &monitor;
    request.timeLimit_s = 0.2;  // paused time does not count
    CancellableProgress progress;
    AnnealingResult result;
    std::thread run([&] { result = runAnnealing(request, factory, dist, progress); });
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    QCOMPARE(progress.snapshot().fraction, 0.0);  // nothing moved, and the time limit has not struck
    monitor.setPaused(false);
    run.join();
    QVERIFY(result.iterations > 0);
    // Cancel reaches paused chains.
    monitor.setPaused(true);
    CancellableProgress cancelled;
    std::thread run2([&] { result = runAnnealing(request, factory, dist, cancelled); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancelled.cancel();
    run2.join();
    QCOMPARE(result.stopReason, StopReason::Cancelled);
    QCOMPARE(result.iterations, 0L);
  }

  void plannerPostsTheBestGraspsEpsilon() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    AnnealingMonitor monitor;
    PlanRequest request = smallPlan(EnergyKind::AutoGraspQuality, 200, 2);
    request.monitor = &monitor;
    request.qualityInterval_s = 0;
    const PlanResult r = planGrasps(world, request, progress);
    const AnnealingMonitor::Snapshot snap = monitor.take();
    QVERIFY(!snap.quality.empty());
    for (std::size_t i = 0; i < snap.quality.size(); ++i) {
      QVERIFY(snap.quality[i].value >= 0);
      if (i) QVERIFY(snap.quality[i].iteration >= snap.quality[i - 1].iteration);
    }
    QVERIFY(!r.grasps.empty());
  }

  void graspSavedAsWorldRoundTrip() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    const PlanResult r = planGrasps(world, smallPlan(EnergyKind::AutoGraspQuality, 100, 1), progress);
    QVERIFY(!r.grasps.empty());
    QTemporaryDir dir;
    const std::string path = dir.filePath("grasp.xml").toStdString();
    const HandConfiguration& c = r.grasps.front().grasp;
    saveGraspAsWorld(world, 0, c, path);
    const World back = loadWorld(path);
    QCOMPARE(back.robots.size(), world.robots.size());
    QCOMPARE(back.graspables.size(), world.graspables.size());
    QVERIFY(back.state.robots[0].X_WP.matrix().isApprox(c.X_WP.matrix(), 1e-6));
    for (std::size_t i = 0; i < c.dofValues.size(); ++i) QVERIFY(std::abs(back.state.robots[0].dofValues[i] - c.dofValues[i]) < 1e-6);
    QVERIFY(back.state.X_WG[0].matrix().isApprox(world.state.X_WG[0].matrix(), 1e-6));
    // The same grasp measured in the saved world: the same ε.
    PlannedGrasp again = r.grasps.front();
    AnalysisRequest point;
    point.contactModels = {"point"};
    measureGrasp(back, 0, 0, again, point, {}, {"epsilon-l1"}, false, progress);
    QVERIFY(std::abs(again.measure("epsilon-l1")->value - r.grasps.front().measure("epsilon-l1")->value) < 1e-5);
    // Bad target: an error naming the file; nothing written.
    const std::string bad = dir.filePath("no/such/dir/grasp.xml").toStdString();
    try {
      saveGraspAsWorld(world, 0, c, bad);
      QFAIL("no error");
    } catch (const sg::Error& e) {
      QVERIFY2(std::string(e.what()).find("grasp.xml") != std::string::npos, e.what());
    }
    // A grasp that does not fit the hand: applyHandConfiguration's one check (requireHandFits), naming the field,
    // and the file for a world being saved.
    HandConfiguration wrong = c;
    wrong.dofValues.push_back(0);
    auto errorOf = [](const std::function<void()>& f) {
      try {
        f();
      } catch (const sg::Error& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    const std::string saved = errorOf([&] { saveGraspAsWorld(world, 0, wrong, path); });
    QVERIFY2(saved.find("grasp.dofs: 2 values, robot ") != std::string::npos && saved.find("grasp.xml") != std::string::npos,
             saved.c_str());
    PlannedGrasp misfit = r.grasps.front();
    misfit.grasp = wrong;
    const std::string measured =
        errorOf([&] { measureGrasp(world, 0, 0, misfit, point, {}, {"epsilon-l1"}, false, progress); });
    QVERIFY2(measured.find("grasp.dofs: 2 values, robot ") != std::string::npos, measured.c_str());
  }

  // The final stage's list: force closure first (the first grasp is force closure when any is), ascending stage
  // energy, the list's size and distance rule, and the energy agrees with the measured grasp's force closure.
  void finalStageListIsForceClosureAtTheTop() {
    const World world = bundled("default.xml");
    NullProgress progress;
    const PlanResult r = planGrasps(world, stagedPlan(1), progress);
    QVERIFY(r.finalStage.ran);
    QVERIFY(!r.grasps.empty() && r.grasps.size() <= 20);
    QVERIFY2(std::any_of(r.grasps.begin(), r.grasps.end(), [](const PlannedGrasp& g) { return g.forceClosure; }),
             "the default world's run finds force closure");
    QVERIFY(r.grasps.front().forceClosure);
    bool seenOpen = false;
    for (std::size_t i = 0; i < r.grasps.size(); ++i) {
      const PlannedGrasp& g = r.grasps[i];
      // Within each part (force closure, then the rest) ascending stage energy.
      if (i > 0 && r.grasps[i - 1].forceClosure == g.forceClosure) QVERIFY(r.grasps[i - 1].energy <= g.energy);
      QVERIFY2(!(seenOpen && g.forceClosure), "a force-closure grasp below one that is not");
      seenOpen = seenOpen || !g.forceClosure;
      if (g.energy > 0) QVERIFY(!g.forceClosure);  // the stage's energy: > 0 only without force closure
      if (g.forceClosure) {
        const MeasureValue* eps = g.measure("epsilon-l1");
        QVERIFY(eps && eps->ok && eps->value > 0);
      }
      for (std::size_t j = i + 1; j < r.grasps.size(); ++j)
        QVERIFY(r.space.distance(g.variables, r.grasps[j].variables) >= 0.2);
    }
    // The stage keeps the best of more candidates than the list holds.
    QVERIFY(r.annealing.best.size() > r.grasps.size());
  }

  // Restarts (PLANNER.md §Final stage, "Restarts"): of two candidates, the ParallelJaw centred on the box (its
  // closed jaws clamp the 50 mm faces: force closure) and the same hand 200 mm above the box (its jaws close on
  // nothing), the second is replaced by the first slid along the faces it clamps (normal to the pads' normal
  // axis) beyond the list's distance rule: two distinct force-closure grasps. Without
  // restarts the second stays as it was (its one random move cannot reach the box).
  void finalStageRestartsFromAForceClosureGrasp() {
    World world = bundled("paralleljaw_box.xml");
    const HandSearchSpace space = makeSearchSpace(world, world.state, 0, 0, PositionSpace::AxisAngle);
    BestEntry centred, above;
    for (const SearchVariable& v : space.variables) centred.x.push_back(v.value);
    above.x = centred.x;
    above.x[2] += 200;  // the approach frame's origin, in the object's reference frame: the box's z
    QVERIFY(std::abs((space.palmPose(above.x).translation() - space.palmPose(centred.x).translation()).norm() - 200) < 1e-9);
    EnergySettings stageEnergy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    stageEnergy.analysis.contactModels = {"point"};
    NullProgress progress;
    FinalStageSettings settings;
    settings.refineSteps = 1;
    settings.refineBest = 0;
    settings.restarts = 0;
    const FinalStageOutcome without = runFinalStage(world, space, stageEnergy, {centred, above}, settings, 1, 2, 0.2, {}, progress);
    QCOMPARE(without.states.size(), std::size_t(2));
    QVERIFY(without.states[0].state.energy < 0);  // the centred jaws: force closure
    QVERIFY(without.states[1].state.energy > 0);
    QCOMPARE(without.restartMoves, 0L);
    settings.restarts = 8;
    const FinalStageOutcome with = runFinalStage(world, space, stageEnergy, {centred, above}, settings, 1, 2, 0.2, {}, progress);
    QCOMPARE(with.restarted, 1L);
    QCOMPARE(with.states.size(), std::size_t(2));
    for (const StagedState& s : with.states) QVERIFY2(s.state.energy < 0, qPrintable(QString::number(s.state.energy)));
    QVERIFY(with.states[0].state.x == centred.x || with.states[1].state.x == centred.x);
    QVERIFY(space.distance(with.states[0].state.x, with.states[1].state.x) >= 0.2);
    // The restarted state is the centred one slid along the faces its pads clamp (normal to the box's x, the
    // pads' normal axis) by 1.1–2 times the distance rule, its orientation and jaws unchanged.
    const StagedState& moved = with.states[0].state.x == centred.x ? with.states[1] : with.states[0];
    QCOMPARE(moved.source, std::size_t(1));
    const Vec3 shift_W = space.palmPose(moved.state.x).translation() - space.palmPose(centred.x).translation();
    QVERIFY2(std::abs(shift_W.x()) < 1e-9, qPrintable(QString::number(shift_W.x())));
    for (std::size_t i = 3; i < centred.x.size(); ++i) QVERIFY(std::abs(moved.state.x[i] - centred.x[i]) < 1e-12);
    // The same with restarts refused as a bad setting.
    settings.restarts = -1;
    QVERIFY_THROWS_EXCEPTION(sg::Error, runFinalStage(world, space, stageEnergy, {centred, above}, settings, 1, 2, 0.2, {}, progress));
  }

  void finalStageSameOnOneAndFourThreads() {
    const World world = bundled("default.xml");
    NullProgress progress;
    const PlanResult one = planGrasps(world, stagedPlan(1), progress);
    const PlanResult four = planGrasps(world, stagedPlan(4), progress);
    QVERIFY(!one.grasps.empty());
    QCOMPARE(one.grasps.size(), four.grasps.size());
    QCOMPARE(one.finalStage.improved, four.finalStage.improved);
    for (std::size_t i = 0; i < one.grasps.size(); ++i) {
      QCOMPARE(one.grasps[i].energy, four.grasps[i].energy);
      QVERIFY(one.grasps[i].variables == four.grasps[i].variables);
      QVERIFY(one.grasps[i].grasp.dofValues == four.grasps[i].grasp.dofValues);
      QCOMPARE(one.grasps[i].forceClosure, four.grasps[i].forceClosure);
    }
  }

  // No state leaves the stage worse than it entered: its (energy, tie break) never grows, the start score is the
  // auto-grasp quality energy of the search's state (recomputed here), and the refined state scores what the
  // stage says it does.
  void finalStageNeverMakesAGraspWorse() {
    const World world = bundled("default.xml");
    NullProgress progress;
    const PlanRequest request = stagedPlan(1);
    const PlanResult r = planGrasps(world, request, progress);
    QVERIFY(r.finalStage.improved > 0);  // the property below is not vacuous
    EnergySettings stageEnergy = request.energy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    HandEvaluator evaluator(world, world.state, r.space, stageEnergy);
    for (const StagedState& s : r.finalStage.states) {
      QVERIFY(s.state.energy <= s.startEnergy);
      if (s.state.energy == s.startEnergy) QVERIFY(s.tieBreak <= s.startTieBreak);
      QVERIFY(s.source < r.annealing.best.size());
      QCOMPARE(evaluator.energy(r.annealing.best[s.source].x).value(), s.startEnergy);
      QCOMPARE(evaluator.energy(s.state.x).value(), s.state.energy);
    }
    // With the stage off the list is the search's own, closed as its energy closes.
    PlanRequest off = request;
    off.finalStage.enabled = false;
    const PlanResult plain = planGrasps(world, off, progress);
    QVERIFY(!plain.finalStage.ran);
    QCOMPARE(plain.grasps.size(), std::min<std::size_t>(20, plain.annealing.best.size()));
    for (std::size_t i = 0; i < plain.grasps.size(); ++i) QCOMPARE(plain.grasps[i].energy, plain.annealing.best[i].energy);
  }

  // Centring (PLANNER.md §Final stage): the ParallelJaw's one DOF moves both jaws, so auto-grasp stops when
  // the first pad touches. With the palm 0.3 mm off the box's middle along the jaws' axis the other pad stops
  // 0.6 mm short (beyond the 0.2 mm threshold): one face touched, not force closure. The centring move
  // translates the palm by half the difference of the gaps, and the re-closed jaws clamp both 50 mm faces.
  void finalStageCentresAParallelJawOffTheMiddle() {
    World world = bundled("paralleljaw_box.xml");
    RobotState& rs = world.state.robots[0];
    // Box faces at x = ±25; pads at x = 0.3 ± (51 − d).
    rs.X_WP = Transform(rs.X_WP.rotation(), rs.X_WP.translation() + Vec3(0.3, 0, 0));
    setDofValues(world.robots[0], rs, {24.0});
    const HandSearchSpace space = makeSearchSpace(world, world.state, 0, 0, PositionSpace::AxisAngle);
    BestEntry start;
    for (const SearchVariable& v : space.variables) start.x.push_back(v.value);
    EnergySettings stageEnergy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    stageEnergy.analysis.contactModels = {"point"};
    NullProgress progress;
    FinalStageSettings settings;
    settings.refineSteps = 0;  // score only: no move at all
    const FinalStageOutcome scored = runFinalStage(world, space, stageEnergy, {start}, settings, 1, 1, 0.2, {}, progress);
    QCOMPARE(scored.states.size(), std::size_t(1));
    QVERIFY(scored.states[0].startEnergy > 0);  // not force closure
    QCOMPARE(scored.centringMoves, 0L);
    QVERIFY(scored.states[0].state.x == start.x);
    settings.refineSteps = 1;
    const FinalStageOutcome refined = runFinalStage(world, space, stageEnergy, {start}, settings, 1, 1, 0.2, {}, progress);
    QVERIFY(refined.centred >= 1);
    const StagedState& s = refined.states[0];
    QVERIFY2(s.state.energy < 0, qPrintable(QString::number(s.state.energy)));  // force closure
    // Only the palm's position moved, and it is now centred on the box to within the contact threshold.
    for (std::size_t i = space.positionCount; i < start.x.size(); ++i) QCOMPARE(s.state.x[i], start.x[i]);
    const Vec3 p_WP_mm = space.palmPose(s.state.x).translation();
    QVERIFY2(std::abs(p_WP_mm.x()) < 0.1, qPrintable(QString::number(p_WP_mm.x())));
    QVERIFY(std::abs(p_WP_mm.y() - rs.X_WP.translation().y()) < 1e-9);
    QVERIFY(std::abs(p_WP_mm.z() - rs.X_WP.translation().z()) < 1e-9);
  }

  // Alignment (PLANNER.md §Final stage, "Alignment"): the ParallelJaw's pads lie flat on the box's 50 mm faces
  // only when the closing axis (the palm's x) is parallel to the box's x. Turned 4° about an oblique axis
  // through the box's centre, the closing jaws meet the box at one pad corner: one point contact, not force
  // closure. The alignment move turns the palm's x back onto the box's x (about the contacts' centroid); the
  // re-closed jaws lie flat on one face and stop short of the other, and centring then clamps both.
  void finalStageAlignsATiltedParallelJaw() {
    World world = bundled("paralleljaw_box.xml");
    RobotState& rs = world.state.robots[0];
    const Vec3 c_W(0, 0, 45);  // the box's centre (its base is centred on the origin, 90 mm tall)
    const Transform tilt = Transform::fromTranslation(c_W) *
                           Transform::fromAxisAngle(Vec3(0, 1, 1).normalized(), 4 * kPi / 180) *
                           Transform::fromTranslation(-c_W);
    rs.X_WP = tilt * rs.X_WP;
    setDofValues(world.robots[0], rs, {10.0});  // pads 16 mm off the faces: legal, closed by auto-grasp
    updateConnections(world, world.state);
    const HandSearchSpace space = makeSearchSpace(world, world.state, 0, 0, PositionSpace::AxisAngle);
    BestEntry start;
    for (const SearchVariable& v : space.variables) start.x.push_back(v.value);
    EnergySettings stageEnergy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    stageEnergy.analysis.contactModels = {"point"};
    NullProgress progress;
    FinalStageSettings settings;
    settings.refineSteps = 0;  // score only
    const FinalStageOutcome scored = runFinalStage(world, space, stageEnergy, {start}, settings, 1, 1, 0.2, {}, progress);
    QVERIFY2(scored.states[0].startEnergy > 0, "the tilted jaw is not force closure");
    QCOMPARE(scored.alignmentMoves, 0L);
    settings.refineSteps = 1;
    settings.movesPerIteration = 0;  // no search ran: no budget (alignment, then centring the re-closed jaws)
    const FinalStageOutcome refined = runFinalStage(world, space, stageEnergy, {start}, settings, 1, 1, 0.2, {}, progress);
    QVERIFY(refined.aligned >= 1);
    const StagedState& s = refined.states[0];
    QVERIFY2(s.state.energy < 0, qPrintable(QString::number(s.state.energy)));  // force closure
    // The closing axis is the box's x again; the posture did not change.
    const Vec3 x_W = space.palmPose(s.state.x).rotation() * Vec3::UnitX();
    QVERIFY2(std::abs(std::abs(x_W.x()) - 1) < 1e-9, qPrintable(QString::number(x_W.x(), 'g', 17)));
    for (std::size_t i = space.positionCount; i < start.x.size(); ++i) QCOMPARE(s.state.x[i], start.x[i]);
    // The list closes the stage's grasp once: the stage remembered the closed hand of its accepted scoring.
    QVERIFY(s.closed);
    HandEvaluator evaluator(world, world.state, space, stageEnergy);
    QVERIFY(evaluator.place(s.state.x));
    evaluator.close();
    QVERIFY(evaluator.scratch().robots[0].dofValues == s.closedDofs);
    QVERIFY(evaluator.scratch().robots[0].X_WP.matrix() == s.X_WP_closed.matrix());
  }

  // The list's grasps are the stage's closed hands measured as they are: the same grasp, number for number, as
  // closing each listed state again (closeAndMeasure).
  void finalStageListIsTheClosingOfEachState() {
    const World world = bundled("default.xml");
    NullProgress progress;
    const PlanRequest request = stagedPlan(1);
    const PlanResult r = planGrasps(world, request, progress);
    EnergySettings stageEnergy = request.energy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    QVERIFY(!r.grasps.empty());
    int reused = 0;
    for (std::size_t i = 0; i < r.grasps.size(); ++i) {
      const PlannedGrasp& g = r.grasps[i];
      reused += r.finalStage.states[i].closed ? 1 : 0;
      const PlannedGrasp again = closeAndMeasure(world, r.space, stageEnergy, r.finalStage.states[i].state,
                                                 request.reportMeasures);
      QVERIFY(g.variables == again.variables);
      QVERIFY(g.grasp.dofValues == again.grasp.dofValues);
      QVERIFY(g.grasp.X_WP.matrix() == again.grasp.X_WP.matrix());
      QVERIFY(g.preGrasp.dofValues == again.preGrasp.dofValues);
      QCOMPARE(g.forceClosure, again.forceClosure);
      QCOMPARE(g.contacts.size(), again.contacts.size());
      QCOMPARE(g.measure("epsilon-l1")->value, again.measure("epsilon-l1")->value);
    }
    QVERIFY(reused > 0);  // not vacuous: some grasps came from the stage's closings
  }

  // The list's measurement of a kept grasp is the stage's score of it (PLANNER.md §Final stage, "List"): with
  // point contacts the stage energy of a force-closure grasp is −100 · ε L1 of its closed hand, and the
  // analysis must find the same ε on the hand the list keeps. The ThreeFingerHydro's joints break away while
  // it closes on the mug; a list that kept the palm and DOF values only measured other link poses (other
  // contacts, and grasps the stage called force closure that were not).
  void finalStageScoreIsTheListsMeasurement() {
    const World world = bundled("hydro_fingertips.xml");
    NullProgress progress;
    const PlanRequest request = hydroSeed2Request();
    const PlanResult r = planGrasps(world, request, progress);
    QCOMPARE(r.grasps.size(), r.finalStage.states.size());
    int brokeAway = 0, forceClosure = 0;
    for (std::size_t i = 0; i < r.grasps.size(); ++i) {
      const PlannedGrasp& g = r.grasps[i];
      const StagedState& s = r.finalStage.states[i];
      QCOMPARE(g.energy, s.state.energy);
      bool broke = false;
      for (const auto& chain : s.closedBreakAway)
        for (const JointBreakAway& joint : chain) broke = broke || joint.active;
      brokeAway += broke ? 1 : 0;
      const QString where = QString("grasp %1: stage energy %2").arg(i).arg(g.energy);
      QVERIFY2(g.forceClosure == (g.energy <= 0), qPrintable(where));
      if (g.energy > 0) continue;
      ++forceClosure;
      const MeasureValue* eps = g.measure("epsilon-l1");
      QVERIFY2(eps && eps->ok, qPrintable(where));
      QVERIFY2(std::abs(eps->value + g.energy / 100) <= 1e-6, qPrintable(where + QString(", eps %1").arg(eps->value)));
    }
    // Not vacuous: some kept closings have joints in break-away, and some grasps are force closure.
    QVERIFY(brokeAway > 0);
    QVERIFY(forceClosure > 0);
  }

  // A kept grasp is what the user gets (PLANNER.md §Grasp list file, "breakAway"): the list's grasps, saved, read
  // back and measured again as evaluate --grasps measures them, have the list's force closure and ε L1 (1e-9),
  // their joints in break-away included; without them some grasp measures differently.
  void breakAwayGraspsMeasureTheSameAfterTheListFile() {
    const World world = bundled("hydro_fingertips.xml");
    NullProgress progress;
    const PlanRequest request = hydroSeed2Request();  // kept closings with joints in break-away
    const PlanResult r = planGrasps(world, request, progress);
    QTemporaryDir dir;
    const std::string path = dir.filePath("list.json").toStdString();
    saveGraspList(makeGraspList(world, "hydro_fingertips.xml", request, r), path);
    const GraspList back = loadGraspList(path);
    validateGraspList(back, world);
    QCOMPARE(back.grasps.size(), r.grasps.size());
    int withBreakAway = 0, differWithout = 0;
    for (std::size_t i = 0; i < back.grasps.size(); ++i) {
      const PlannedGrasp& kept = r.grasps[i];
      QVERIFY(!anyBreakAway(back.grasps[i].preGrasp.breakAway));
      QCOMPARE(anyBreakAway(back.grasps[i].grasp.breakAway), anyBreakAway(kept.grasp.breakAway));
      if (anyBreakAway(kept.grasp.breakAway)) {
        ++withBreakAway;
        QVERIFY(sameBreakAway(back.grasps[i].grasp.breakAway, kept.grasp.breakAway));  // shortest round trip: exact
      }
      PlannedGrasp again = back.grasps[i];
      measureGrasp(world, back.robotIndex, back.graspableIndex, again, request.energy.analysis, {}, {"epsilon-l1"},
                   /*closeFromPreGrasp=*/false, progress);
      const QString where = QString("grasp %1").arg(i);
      QVERIFY2(again.forceClosure == kept.forceClosure, qPrintable(where));
      const MeasureValue* a = again.measure("epsilon-l1");
      const MeasureValue* k = kept.measure("epsilon-l1");
      QVERIFY2(a && k && a->ok == k->ok, qPrintable(where));
      if (k->ok) QVERIFY2(std::abs(a->value - k->value) <= 1e-9, qPrintable(where + QString(": %1 vs %2").arg(a->value).arg(k->value)));
      if (!anyBreakAway(kept.grasp.breakAway)) continue;
      PlannedGrasp stripped = back.grasps[i];
      stripped.grasp.breakAway.clear();
      measureGrasp(world, back.robotIndex, back.graspableIndex, stripped, request.energy.analysis, {}, {"epsilon-l1"},
                   false, progress);
      const MeasureValue* s = stripped.measure("epsilon-l1");
      if (stripped.forceClosure != kept.forceClosure || s->ok != k->ok || (k->ok && std::abs(s->value - k->value) > 1e-9))
        ++differWithout;
    }
    // Not vacuous: grasps with joints in break-away, and the break-away state changes some measurement.
    QVERIFY(withBreakAway > 0);
    QVERIFY(differWithout > 0);

    // Saved as a GraspIt! world (--save-world, the dock's Save as World): <dofValues> carries the joints in
    // break-away (src/io/DEVIATIONS.md "<dofValues>"), so the world's hand is the grasp's.
    const auto broke = std::find_if(back.grasps.begin(), back.grasps.end(),
                                    [](const PlannedGrasp& g) { return anyBreakAway(g.grasp.breakAway); });
    const std::string worldPath = dir.filePath("grasp.xml").toStdString();
    saveGraspAsWorld(world, back.robotIndex, broke->grasp, worldPath);
    const World savedWorld = loadWorld(worldPath);
    const RobotState& saved = savedWorld.state.robots[static_cast<std::size_t>(back.robotIndex)];
    const BreakAwayState& expected = broke->grasp.breakAway;
    for (std::size_t c = 0; c < saved.breakAway.size(); ++c)
      for (std::size_t j = 0; j < saved.breakAway[c].size(); ++j) {
        const bool active = c < expected.size() && j < expected[c].size() && expected[c][j].active;
        QCOMPARE(saved.breakAway[c][j].active, active);
        if (active) QVERIFY(std::abs(saved.breakAway[c][j].dofValue - expected[c][j].dofValue) <= 1e-6);
      }
  }

  // The list's "breakAway" field (PLANNER.md §Grasp list file): written only when a joint is in break-away, read
  // back exactly, refused with the file named when malformed; a list without it (older files) has none.
  void breakAwayFieldRoundTripAndBadInput() {
    GraspList list;
    list.robot = "Barrett";
    PlannedGrasp g;
    g.grasp.X_WP = Transform(Quat(Eigen::AngleAxisd(0.3, Vec3::UnitY())), Vec3(1, 2, 3));
    g.grasp.dofValues = {0.1, 0.2, 0.3, 0.4};
    g.grasp.breakAway = {{}, {{false, 0}, {true, 0.7071067811865476}}, {{true, -1.0 / 3}}};
    g.preGrasp.X_WP = g.grasp.X_WP;
    g.preGrasp.dofValues = {0, 0, 0, 0};
    list.grasps = {g};
    const std::string text = graspListToJson(list);
    const GraspList back = graspListFromJson(text);
    QCOMPARE(back.grasps.size(), std::size_t{1});
    const BreakAwayState& b = back.grasps[0].grasp.breakAway;
    QCOMPARE(b.size(), std::size_t{3});
    QVERIFY(!anyBreakAway({b[0]}));
    QCOMPARE(b[1].size(), std::size_t{2});
    QVERIFY(!b[1][0].active);
    QVERIFY(b[1][1].active && b[1][1].dofValue == 0.7071067811865476);
    QVERIFY(b[2][0].active && b[2][0].dofValue == -1.0 / 3);
    QVERIFY(back.grasps[0].preGrasp.breakAway.empty());
    QVERIFY(text.find("\"breakAway\"") != std::string::npos);
    // None in break-away: no field (the file reads as before).
    GraspList none = list;
    none.grasps[0].grasp.breakAway = {{{false, 0.5}}};
    QVERIFY(graspListToJson(none).find("breakAway") == std::string::npos);

    // An older list without the field: read, no joint in break-away.
    const World world = bundled("hydro_fingertips.xml");
    QTemporaryDir dir;
    auto write = [&](const std::string& name, const std::string& content) {
      const std::string p = dir.filePath(QString::fromStdString(name)).toStdString();
      std::ofstream(p, std::ios::binary) << content;
      return p;
    };
    const std::string oldList = write("old.json", graspListToJson(none));
    QVERIFY(!anyBreakAway(loadGraspList(oldList).grasps[0].grasp.breakAway));

    // Malformed entries: an error naming the file and the field.
    const std::string good = "{\"chain\": 1, \"joint\": 1, \"dofValue\": 0.5}";
    auto withEntries = [&](const std::string& entries) {
      std::string t = graspListToJson(none);
      const std::string dofs = "\"dofs\":";
      const std::size_t at = t.find(dofs, t.find("\"grasp\":"));  // the final grasp's configuration
      t.insert(at, "\"breakAway\": " + entries + ", ");
      return t;
    };
    QCOMPARE(graspListFromJson(withEntries("[" + good + "]")).grasps[0].grasp.breakAway[1][1].dofValue, 0.5);
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"{}", "breakAway"},
        {"[{\"chain\": 1, \"joint\": 1}]", "dofValue"},
        {"[{\"chain\": -1, \"joint\": 1, \"dofValue\": 0.5}]", "chain"},
        {"[{\"chain\": 1.5, \"joint\": 1, \"dofValue\": 0.5}]", "chain"},
        {"[{\"chain\": 1, \"joint\": \"1\", \"dofValue\": 0.5}]", "joint"},
        {"[{\"chain\": 1, \"joint\": 1, \"dofValue\": null}]", "dofValue"},
        {"[{\"chain\": 1, \"joint\": 1, \"dofValue\": 0.5, \"active\": true}]", "active"},
        {"[" + good + ", " + good + "]", "twice"},
    };
    for (std::size_t k = 0; k < bad.size(); ++k) {
      const std::string p = write("bad" + std::to_string(k) + ".json", withEntries(bad[k].first));
      try {
        loadGraspList(p);
        QFAIL(qPrintable("no error for " + QString::fromStdString(bad[k].first)));
      } catch (const sg::Error& e) {
        const std::string m = e.what();
        QVERIFY2(m.find(p) != std::string::npos || m.find("bad" + std::to_string(k) + ".json") != std::string::npos, e.what());
        QVERIFY2(m.find("grasps[0].grasp.breakAway") != std::string::npos, e.what());
        QVERIFY2(m.find(bad[k].second) != std::string::npos, e.what());
      }
    }

    // Joints the world's hand cannot have in break-away: validateGraspList names the grasp and the joint.
    const Robot& hand = world.robots[0];
    std::optional<std::pair<std::size_t, std::size_t>> rigid, clutch;
    for (std::size_t c = 0; c < hand.chains.size(); ++c)
      for (std::size_t j = 0; j < hand.chains[c].joints.size(); ++j) {
        const int dof = hand.chains[c].joints[j].expr.dof;
        const bool isBreakAway = dof >= 0 && hand.dofs[static_cast<std::size_t>(dof)].type == DofType::BreakAway;
        if (isBreakAway && !clutch) clutch = std::pair{c, j};
        if (!isBreakAway && !rigid) rigid = std::pair{c, j};
      }
    QVERIFY(clutch.has_value());
    GraspList onHand;
    onHand.grasps.resize(1);
    onHand.grasps[0].grasp.dofValues.assign(hand.dofCount(), 0.0);
    onHand.grasps[0].preGrasp = onHand.grasps[0].grasp;
    auto refused = [&](std::size_t c, std::size_t j, double value, const char* why) {
      GraspList l = onHand;
      l.grasps[0].grasp.breakAway.assign(c + 1, {});
      l.grasps[0].grasp.breakAway[c].resize(j + 1);
      l.grasps[0].grasp.breakAway[c][j] = {true, value};
      try {
        validateGraspList(l, world);
      } catch (const sg::Error& e) {
        const std::string m = e.what();
        return m.find("grasps[0].grasp.breakAway") != std::string::npos && m.find(why) != std::string::npos;
      }
      return false;
    };
    QVERIFY(!refused(clutch->first, clutch->second, 0.2, ""));  // a break-away joint: accepted
    QVERIFY(refused(hand.chains.size(), 0, 0.2, "no such joint"));
    QVERIFY(refused(clutch->first, hand.chains[clutch->first].joints.size(), 0.2, "no such joint"));
    if (rigid) QVERIFY(refused(rigid->first, rigid->second, 0.2, "not driven by a break-away DOF"));
  }

  // Budget (PLANNER.md §Final stage, "Budget"): the stage scores at most max(20, 0.1 × iterations) moves, and
  // with no budget it is not cut short.
  void finalStageMovesStayWithinTheBudget() {
    const World world = bundled("default.xml");
    NullProgress progress;
    PlanRequest request = stagedPlan(1);
    request.maxSteps = request.params.k0 + 400;
    const PlanResult r = planGrasps(world, request, progress);
    QCOMPARE(r.finalStage.moveBudget, std::max(20L, static_cast<long>(0.1 * static_cast<double>(r.annealing.iterations))));
    const long candidatesScored = static_cast<long>(r.annealing.best.size()) - r.finalStage.unscored;
    const long moves = r.finalStage.evaluations - candidatesScored;
    QVERIFY2(moves <= r.finalStage.moveBudget, qPrintable(QString::number(moves)));
    // Candidates are left unscored only once the list is full of force-closure grasps and the scorings have
    // reached the budget.
    if (r.finalStage.unscored > 0) {
      QVERIFY(std::all_of(r.grasps.begin(), r.grasps.end(), [](const PlannedGrasp& g) { return g.forceClosure; }));
      QVERIFY(candidatesScored >= r.finalStage.moveBudget);
    }
    request.finalStage.movesPerIteration = 0;
    const PlanResult unlimited = planGrasps(world, request, progress);
    QCOMPARE(unlimited.finalStage.moveBudget, -1L);
    QVERIFY(!unlimited.finalStage.budgetSpent);
    QVERIFY(unlimited.finalStage.evaluations >= r.finalStage.evaluations);
  }

  // Score (PLANNER.md §Final stage, "Score"): within the budget every candidate is scored, so the list holds the
  // best of them, not the first 20 force-closure ones in the search's order. The default world's seed 1 at
  // 8,000 iterations: the contacts energy's best candidates are force closure with small ε (the first 20
  // force-closure candidates' best ε L1 is 0.188), a candidate further down scores ε 0.211; scoring stopped at
  // the 20th force-closure candidate lost it. Each candidate's score is computed here independently.
  void finalStageListHoldsTheBestScoredCandidate() {
    const World world = bundled("default.xml");
    NullProgress progress;
    PlanRequest request = stagedPlan(1);
    request.maxSteps = request.params.k0 + 8000;
    const PlanResult r = planGrasps(world, request, progress);
    QVERIFY(r.finalStage.moveBudget >= static_cast<long>(r.annealing.best.size()));
    QCOMPARE(r.finalStage.unscored, 0L);
    EnergySettings stageEnergy = request.energy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    HandEvaluator evaluator(world, world.state, r.space, stageEnergy);
    double bestCandidate = std::numeric_limits<double>::infinity();
    std::size_t forceClosure = 0, firstForceClosureBeyond = 0;  // the search-order index past the 20th
    for (std::size_t i = 0; i < r.annealing.best.size(); ++i) {
      const std::optional<double> e = evaluator.energy(r.annealing.best[i].x);
      if (!e) continue;
      if (*e <= 0 && ++forceClosure == 20) firstForceClosureBeyond = i + 1;
      bestCandidate = std::min(bestCandidate, *e);
    }
    QVERIFY(bestCandidate < 0);
    QVERIFY(!r.finalStage.states.empty());
    double bestListed = std::numeric_limits<double>::infinity();
    for (const StagedState& s : r.finalStage.states) bestListed = std::min(bestListed, s.state.energy);
    QVERIFY2(bestListed <= bestCandidate, qPrintable(QString("%1 > %2").arg(bestListed).arg(bestCandidate)));
    // Not vacuous: the best candidate lies beyond the 20th force-closure one in the search's order.
    double bestOfFirst = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < firstForceClosureBeyond; ++i)
      if (const std::optional<double> e = evaluator.energy(r.annealing.best[i].x)) bestOfFirst = std::min(bestOfFirst, *e);
    QVERIFY(firstForceClosureBeyond > 0 && firstForceClosureBeyond < r.annealing.best.size());
    QVERIFY2(bestCandidate < bestOfFirst, qPrintable(QString("%1 %2").arg(bestCandidate).arg(bestOfFirst)));
  }

  void badFinalStageSettingsAreRejected() {
    const World world = bundled("paralleljaw_box.xml");
    NullProgress progress;
    auto refused = [&](const std::function<void(FinalStageSettings&)>& set) {
      PlanRequest request = smallPlan(EnergyKind::Contacts, 10, 1);
      request.finalStage.enabled = true;
      set(request.finalStage);
      try {
        planGrasps(world, request, progress);
      } catch (const Error& e) {
        return std::string(e.what()).find("final stage") != std::string::npos;
      }
      return false;
    };
    QVERIFY(refused([](FinalStageSettings& s) { s.refineSteps = -1; }));
    QVERIFY(refused([](FinalStageSettings& s) { s.stepScale = 0; }));
    QVERIFY(refused([](FinalStageSettings& s) { s.stepScale = 1.5; }));
    QVERIFY(refused([](FinalStageSettings& s) { s.stepScale = std::numeric_limits<double>::quiet_NaN(); }));
    QVERIFY(refused([](FinalStageSettings& s) { s.candidates = 0; }));
    QVERIFY(refused([](FinalStageSettings& s) { s.refineBest = -1; }));
    QVERIFY(refused([](FinalStageSettings& s) { s.movesPerIteration = -0.5; }));
    QVERIFY(refused([](FinalStageSettings& s) { s.movesPerIteration = std::numeric_limits<double>::quiet_NaN(); }));
    QVERIFY(!refused([](FinalStageSettings& s) { s.refineSteps = 0; }));  // close and score only: fine
  }
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
