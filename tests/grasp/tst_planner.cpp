// The grasp planner (src/grasp/planner/PLANNER.md).
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "grasp/planner/GraspList.h"
#include "grasp/planner/GraspPlanner.h"
#include "io/ModelIO.h"

using namespace sg;
using namespace sg::planner;

namespace {

World bundled(const char* name) { return loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name); }

// E = (x − 1.5)² + (y + 2)² + 0.5·(1 − cos(3·(x − 1.5))) : one global minimum 0 at (1.5, −2), ripples around.
class Analytic final : public StateEvaluator {
 public:
  std::optional<double> energy(const std::vector<double>& x) override {
    const double dx = x[0] - 1.5, dy = x[1] + 2.0;
    return dx * dx + dy * dy + 0.5 * (1 - std::cos(3 * dx));
  }
};

AnnealingRequest analyticRequest() {
  AnnealingRequest r;
  r.variables = {{"x", -5, 5, 2.5, false, false, -4}, {"y", -5, 5, 2.5, false, false, 4}};
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
  return r;
}

// Cancels the run at the first progress report (made on the calling thread while the chains run).
class CancelAtFirstReport final : public ProgressSink {
 public:
  void report(double, std::string_view) override { cancel_ = true; }
  bool cancelRequested() const override { return cancel_; }
 private:
  bool cancel_ = false;
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
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
