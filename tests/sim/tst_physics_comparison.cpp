// The measures-against-physics comparison as one engine call (src/sim/README.md §Measures against physics) and
// GraspIt!'s static check as its predictor (§Static check against the trial): on the jaw-and-box fixture the static
// check and the MuJoCo trial agree on the friction threshold cases (2μF = 4mg holds, 2μF = mg/2 drops, gravity
// along the pads); the agreement counts on hand-made samples; a small comparePhysics run is self-consistent (the
// static-held value is the held fraction, the table is the engine's table of the samples, the agreement is the
// samples' count, one thread and two give the same result); the run on a grasp list of the same planned grasps
// gives the same samples and table; cancel while planning (no table) and during the trials (the grasps tried);
// bad input.
#include <QtTest/QtTest>

#include <algorithm>
#include <limits>

#include "core/Error.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "grasp/planner/GraspList.h"
#include "grasp/planner/GraspPlanner.h"
#include "grasp/planner/HandConfiguration.h"
#include "io/ModelIO.h"
#include "sim/PhysicsComparison.h"
#include "sim/PhysicsTrial.h"
#include "sim/SimUnits.h"
#include "../support/ErrorOf.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::sim;

namespace {

constexpr double kG = 9.81;

// The ParallelJaw on its box (worlds/paralleljaw_box.xml) with DOF effort `effort_N`, friction μ between jaws and
// box and the box's mass, closed; the pads soft (1 MPa) as in tst_sim.cpp's fixture. `evaluations` receives the
// closed grasp's evaluation under each of `models`.
World jawWorld(double effort_N, double mu, double mass_g, const std::vector<std::string>& models,
               std::vector<GraspEvaluation>& evaluations) {
  World w = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
  Robot& jaw = w.robots[0];
  jaw.dofs[0].maxEffort = effort_N / kNewtonsPerEffortUnitPrismatic;
  for (Chain& c : jaw.chains)
    for (Link& l : c.links) l.body.youngs_Pa = 1e6;
  Body& box = w.graspables[0];
  box.mass_g = mass_g;
  const int a = *w.materials.indexOf(jaw.chains[0].links[0].body.material);
  const int b = *w.materials.indexOf(box.material);
  w.materials.setFriction(a, b, mu, mu);
  AnalysisRequest request;
  request.motion.fingers = FingerMotion::Close;
  request.contactModels = models;
  request.measures.clear();
  NullProgress progress;
  const AnalysisResult result = runAnalysis(w, request, progress);
  evaluations = result.evaluations;
  return w;
}

TrialSettings shortSettings(const std::string& directions) {
  TrialSettings s;
  s.settle_s = 0.2;
  s.duration_s = 0.5;
  s.directions = parseDirections(directions);
  return s;
}

PhysicsSample sample(double score, std::vector<bool> held, std::vector<std::optional<std::vector<bool>>> statics) {
  PhysicsSample s;
  s.score = score;
  s.held = std::move(held);
  s.staticHeld = std::move(statics);
  return s;
}

class CancelAtOnce final : public ProgressSink {
 public:
  void report(double, std::string_view) override {}
  bool cancelRequested() const override { return true; }
};

// Asks to cancel at the first report of the grasps' part ("measures and physics trial of grasp 1 of N").
class CancelAfterPlanning final : public ProgressSink {
 public:
  void report(double, std::string_view message) override {
    trials_ = trials_ || message.starts_with("measures and physics trial");
  }
  bool cancelRequested() const override { return trials_; }

 private:
  bool trials_ = false;
};

PhysicsComparisonRequest smallRequest(int threads) {
  PhysicsComparisonRequest r;
  r.seeds = 1;
  r.iterations = 200;
  r.keep = 3;
  r.threads = threads;
  r.trial.duration_s = 0.05;
  r.compare.models = {"point", "frictionless"};
  r.compare.measures = {"epsilon-l1"};
  return r;
}

using sg::test::errorOf;

}  // namespace

class TestPhysicsComparison : public QObject {
  Q_OBJECT

 private slots:
  // Gravity along the pads (z-, y+; the pads press along x): the static check holds the box exactly when
  // μF ≥ mg (FORCES.md, t = mg/(μF)) and the trial when the pads' friction carries it; at 2μF = 4mg both hold,
  // at 2μF = mg/2 both drop, for point, patch and hydroelastic contacts.
  void staticAndTrialAgreeOnThresholds() {
    const double F = 20, mu = 0.5;
    // The models that keep several contacts per pad face (README.md §Static check against the trial: the ones
    // that merge a pad into one contact cannot balance the weight's moment about an axis across the pads).
    const std::vector<std::string> models{"point", "patch", "hydroelastic"};
    for (const bool holds : {true, false}) {
      const double m_g = (holds ? 2 * mu * F / (4 * kG) : 4 * mu * F / kG) * 1000;
      std::vector<GraspEvaluation> evaluations;
      const World w = jawWorld(F, mu, m_g, models, evaluations);
      QCOMPARE(evaluations.size(), models.size());
      const TrialSettings settings = shortSettings("z-,y+");
      NullProgress progress;
      const TrialResult trial = runTrial(w, w.state, {0, 0, settings}, progress);
      QCOMPARE(trial.directions.size(), std::size_t{2});
      for (std::size_t m = 0; m < models.size(); ++m) {
        const std::optional<std::vector<bool>> statics = staticHeld(w, w.state, evaluations[m], w.graspables[0], settings);
        QVERIFY2(statics.has_value(), models[m].c_str());
        QCOMPARE(statics->size(), std::size_t{2});
        for (std::size_t d = 0; d < 2; ++d) {
          const QString what = QString::fromStdString(models[m] + " " + trial.directions[d].direction.name());
          QVERIFY2((*statics)[d] == holds, qPrintable(what + " static"));
          QVERIFY2(trial.directions[d].held == holds, qPrintable(what + " trial"));
        }
      }
    }
  }

  // The static check does not apply without effort: a DOF a contact loads with maxEffort 0 (FORCES.md).
  void staticCheckNotApplicableWithoutEffort() {
    std::vector<GraspEvaluation> evaluations;
    World w = jawWorld(20, 0.5, 180, {"point"}, evaluations);
    w.robots[0].dofs[0].maxEffort = 0;
    QVERIFY(!staticHeld(w, w.state, evaluations[0], w.graspables[0], shortSettings("all")).has_value());
  }

  // Two models, two directions, three grasps tried and one not: every cell counted by hand.
  void agreementCounts() {
    const std::vector<std::string> models{"a", "b"};
    const std::vector<PullDirection> directions = parseDirections("x+,z-");
    std::vector<PhysicsSample> samples{
        sample(1.0, {true, true}, {std::vector<bool>{true, false}, std::nullopt}),
        sample(0.5, {false, true}, {std::vector<bool>{true, true}, std::vector<bool>{false, false}}),
        sample(0.0, {false, false}, {std::vector<bool>{false, false}, std::vector<bool>{true, false}}),
    };
    PhysicsSample untried;  // cancelled before its trial: not counted
    untried.staticHeld = {std::vector<bool>{true, true}, std::vector<bool>{true, true}};
    samples.push_back(untried);
    const std::vector<HoldAgreement> a = holdAgreement(models, directions, samples);
    QCOMPARE(a.size(), std::size_t{4});
    // a x+: (T,T) both, (T,F) static only, (F,F) neither.
    QCOMPARE(a[0].model, std::string("a"));
    QCOMPARE(a[0].direction.name(), std::string("x+"));
    QCOMPARE(a[0].bothHeld, 1);
    QCOMPARE(a[0].staticOnly, 1);
    QCOMPARE(a[0].physicsOnly, 0);
    QCOMPARE(a[0].neither, 1);
    QCOMPARE(a[0].notApplicable, 0);
    // a z-: static F / trial T, static T / trial T, F / F.
    QCOMPARE(a[1].direction.name(), std::string("z-"));
    QCOMPARE(a[1].bothHeld, 1);
    QCOMPARE(a[1].staticOnly, 0);
    QCOMPARE(a[1].physicsOnly, 1);
    QCOMPARE(a[1].neither, 1);
    // b x+: n/a, F/F, T/F.
    QCOMPARE(a[2].model, std::string("b"));
    QCOMPARE(a[2].notApplicable, 1);
    QCOMPARE(a[2].neither, 1);
    QCOMPARE(a[2].staticOnly, 1);
    QCOMPARE(a[2].grasps(), 2);
    // b z-: n/a, F/T, F/F.
    QCOMPARE(a[3].physicsOnly, 1);
    QCOMPARE(a[3].neither, 1);
    QCOMPARE(a[3].bothHeld + a[3].staticOnly, 0);
    // A sample whose verdicts do not match the directions is an error, not a silent count.
    samples[0].held = {true};
    QVERIFY(errorOf([&] { holdAgreement(models, directions, samples); }).contains("trial verdicts"));
  }

  // A small run on the jaw world: the rows, samples and agreement hold together, and threads do not matter.
  void smallRunIsConsistent() {
    const World world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    PhysicsWorld w{&world, "paralleljaw_box.xml", {}};
    w.analysis.contactModels = {"point"};
    NullProgress progress;
    const PhysicsComparison c = comparePhysics({w}, smallRequest(2), progress);
    QVERIFY(c.complete);
    QVERIFY(!c.samples.empty());
    QCOMPARE(c.tried(), c.samples.size());
    QCOMPARE(c.predictors.size(), std::size_t{4});  // per model: epsilon-l1, static-held
    QCOMPARE(c.predictors[1].measure, std::string(kStaticHeldMeasure));
    QCOMPARE(c.predictors[3].model, std::string("frictionless"));
    std::vector<PredictionSample> tried;
    for (const PhysicsSample& s : c.samples) {
      QVERIFY(s.score.has_value());
      QCOMPARE(s.held.size(), std::size_t{6});
      QCOMPARE(*s.score, static_cast<double>(std::count(s.held.begin(), s.held.end(), true)) / 6);
      QCOMPARE(s.staticHeld.size(), std::size_t{2});
      QCOMPARE(s.predictors.size(), c.predictors.size());
      for (std::size_t m = 0; m < 2; ++m) {
        const std::optional<double>& value = s.predictors[2 * m + 1];
        QCOMPARE(value.has_value(), s.staticHeld[m].has_value());
        if (value)
          QCOMPARE(*value,
                   static_cast<double>(std::count(s.staticHeld[m]->begin(), s.staticHeld[m]->end(), true)) / 6);
      }
      tried.push_back({*s.score, s.predictors});
    }
    const PredictionTable table = predictionTable(c.predictors, tried, 0.5);
    QCOMPARE(c.table.rows.size(), table.rows.size());
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
      QCOMPARE(c.table.rows[i].auc, table.rows[i].auc);
      QCOMPARE(c.table.rows[i].spearman, table.rows[i].spearman);
      QCOMPARE(c.table.rows[i].missing, table.rows[i].missing);
    }
    QCOMPARE(c.agreement.size(), std::size_t{12});
    for (const HoldAgreement& a : c.agreement)
      QCOMPARE(a.grasps() + a.notApplicable, static_cast<int>(c.samples.size()));
    const std::vector<HoldAgreement> recount = holdAgreement(c.models, allDirections(), c.samples);
    for (std::size_t i = 0; i < recount.size(); ++i) {
      QCOMPARE(c.agreement[i].bothHeld, recount[i].bothHeld);
      QCOMPARE(c.agreement[i].physicsOnly, recount[i].physicsOnly);
    }

    // One thread: the same samples (each grasp is measured and tried on its own state).
    const PhysicsComparison one = comparePhysics({w}, smallRequest(1), progress);
    QCOMPARE(one.samples.size(), c.samples.size());
    for (std::size_t i = 0; i < c.samples.size(); ++i) {
      QCOMPARE(one.samples[i].score, c.samples[i].score);
      QCOMPARE(one.samples[i].held, c.samples[i].held);
      QCOMPARE(one.samples[i].predictors, c.samples[i].predictors);
    }

    // Without the static check: the measure rows only, no agreement.
    PhysicsComparisonRequest plain = smallRequest(2);
    plain.staticCheck = false;
    const PhysicsComparison p = comparePhysics({w}, plain, progress);
    QCOMPARE(p.predictors.size(), std::size_t{2});
    QVERIFY(p.agreement.empty());
    QCOMPARE(p.table.rows[0].auc, c.table.rows[0].auc);
  }

  // The planner's list of the plan comparePhysics makes (seed 1, the final stage on), tried through
  // comparePhysicsOnList: the same samples (seed 0, the same ranks) and table.
  void graspListRunEqualsPlannedRun() {
    const World world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    const PhysicsWorld w{&world, "paralleljaw_box.xml", {}};
    const PhysicsComparisonRequest request = smallRequest(2);
    NullProgress progress;
    const PhysicsComparison planned = comparePhysics({w}, request, progress);
    planner::PlanRequest plan;
    plan.energy.analysis = w.analysis;
    plan.maxSteps = plan.params.k0 + request.iterations;
    plan.seed = 1;
    plan.threads = request.threads;
    plan.finalStage.enabled = true;
    planner::GraspList list =
        planner::makeGraspList(world, "paralleljaw_box.xml", plan, planner::planGrasps(world, plan, progress));
    QVERIFY(list.grasps.size() >= planned.samples.size());
    list.grasps.resize(planned.samples.size());
    const PhysicsComparison listed = comparePhysicsOnList(w, list, request, progress);
    QVERIFY(listed.complete);
    QCOMPARE(listed.samples.size(), planned.samples.size());
    for (std::size_t i = 0; i < listed.samples.size(); ++i) {
      QCOMPARE(listed.samples[i].seed, 0);
      QCOMPARE(listed.samples[i].rank, static_cast<int>(i + 1));
      QCOMPARE(listed.samples[i].score, planned.samples[i].score);
      QCOMPARE(listed.samples[i].held, planned.samples[i].held);
      QCOMPARE(listed.samples[i].predictors, planned.samples[i].predictors);
    }
    QCOMPARE(listed.table.rows.size(), planned.table.rows.size());
    for (std::size_t i = 0; i < listed.table.rows.size(); ++i) {
      QCOMPARE(listed.table.rows[i].auc, planned.table.rows[i].auc);
      QCOMPARE(listed.table.rows[i].spearman, planned.table.rows[i].spearman);
    }
    // Bad lists: empty, or grasps with another DOF count than the hand's.
    planner::GraspList empty = list;
    empty.grasps.clear();
    QVERIFY(errorOf([&] { comparePhysicsOnList(w, empty, request, progress); }).contains("no grasp"));
    planner::GraspList wrong = list;
    wrong.grasps[0].grasp.dofValues.push_back(0);
    QVERIFY(errorOf([&] { comparePhysicsOnList(w, wrong, request, progress); }).contains("does not fit"));
  }

  // A listed grasp with a joint in break-away is tried as the list holds it (PLANNER.md §Grasp list file,
  // "breakAway"): the trial's state is the one applyHandConfiguration gives, not pose and DOF values alone.
  void listedBreakAwayJointsReachTheTrial() {
    const World world = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    const PhysicsWorld w{&world, "threefinger_sphere.xml", {}};
    const Robot& hand = world.robots[0];
    planner::GraspList list;
    list.robot = hand.name;
    planner::PlannedGrasp g;
    g.grasp = planner::handConfigurationOf(world.state.robots[0]);
    g.preGrasp = g.grasp;
    // The first joint a break-away DOF drives, held 0.3 rad short of its DOF's value.
    bool found = false;
    for (std::size_t c = 0; c < hand.chains.size() && !found; ++c)
      for (std::size_t j = 0; j < hand.chains[c].joints.size() && !found; ++j) {
        const int dof = hand.chains[c].joints[j].expr.dof;
        if (dof < 0 || hand.dofs[static_cast<std::size_t>(dof)].type != DofType::BreakAway) continue;
        g.grasp.dofValues[static_cast<std::size_t>(dof)] += 0.3;
        g.grasp.breakAway.assign(hand.chains.size(), {});
        g.grasp.breakAway[c].assign(hand.chains[c].joints.size(), JointBreakAway{});
        g.grasp.breakAway[c][j] = JointBreakAway{true, g.grasp.dofValues[static_cast<std::size_t>(dof)] - 0.3};
        found = true;
      }
    QVERIFY2(found, "the ThreeFinger hand has a break-away DOF");
    list.grasps = {g};
    NullProgress progress;
    const PhysicsComparison c = comparePhysicsOnList(w, list, smallRequest(1), progress);
    QCOMPARE(c.samples.size(), std::size_t{1});
    const RobotState& tried = c.samples[0].state.robots[0];
    RobotState expected = world.state.robots[0];
    planner::applyHandConfiguration(hand, expected, g.grasp);
    QVERIFY(planner::anyBreakAway(expected.breakAway));
    QCOMPARE(tried.breakAway, expected.breakAway);
    QCOMPARE(tried.X_WL.size(), expected.X_WL.size());
    for (std::size_t ch = 0; ch < expected.X_WL.size(); ++ch)
      for (std::size_t l = 0; l < expected.X_WL[ch].size(); ++l)
        QVERIFY(tried.X_WL[ch][l].isApprox(expected.X_WL[ch][l], 1e-12));
    // Pose and DOF values alone put some link elsewhere (what the trial got before).
    RobotState without = world.state.robots[0];
    setRobotPose(hand, without, g.grasp.X_WP);
    setDofValues(hand, without, g.grasp.dofValues);
    bool moved = false;
    for (std::size_t ch = 0; ch < expected.X_WL.size(); ++ch)
      for (std::size_t l = 0; l < expected.X_WL[ch].size(); ++l)
        moved = moved || !without.X_WL[ch][l].isApprox(expected.X_WL[ch][l], 1e-9);
    QVERIFY(moved);
  }

  void cancelWhilePlanning() {
    const World world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    CancelAtOnce cancel;
    bool cancelled = false;
    try {
      comparePhysics({{&world, "jaw", {}}}, smallRequest(1), cancel);
    } catch (const Cancelled&) {
      cancelled = true;
    }
    QVERIFY(cancelled);
  }

  // Cancelled during the trials: the table of the grasps tried, complete false (at most one grasp per thread
  // finishes once the cancel is seen; the run has three).
  void cancelDuringTrials() {
    const World world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    CancelAfterPlanning cancel;
    const PhysicsComparison c = comparePhysics({{&world, "jaw", {}}}, smallRequest(2), cancel);
    QCOMPARE(c.samples.size(), std::size_t{3});
    QVERIFY(!c.complete);
    QVERIFY(c.tried() < c.samples.size());
    QCOMPARE(static_cast<std::size_t>(c.table.grasps), c.tried());
    for (const HoldAgreement& a : c.agreement) QCOMPARE(static_cast<std::size_t>(a.grasps() + a.notApplicable), c.tried());
  }

  void badInput() {
    const World world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    NullProgress progress;
    QVERIFY(errorOf([&] { comparePhysics({}, smallRequest(1), progress); }).contains("no world"));
    PhysicsComparisonRequest r = smallRequest(1);
    r.compare.measures = {"epsilon-l9"};
    QVERIFY(errorOf([&] { comparePhysics({{&world, "jaw", {}}}, r, progress); }).contains("epsilon-l9"));
    r = smallRequest(1);
    r.compare.models = {"no-such-model"};
    QVERIFY(errorOf([&] { comparePhysics({{&world, "jaw", {}}}, r, progress); }).contains("no-such-model"));
    r = smallRequest(1);
    r.keep = 0;
    QVERIFY(errorOf([&] { comparePhysics({{&world, "jaw", {}}}, r, progress); }).contains("keep"));
    r = smallRequest(1);
    r.successScore = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(errorOf([&] { comparePhysics({{&world, "jaw", {}}}, r, progress); }).contains("success score"));
    r = smallRequest(1);
    r.trial.duration_s = -1;
    QVERIFY(!errorOf([&] { comparePhysics({{&world, "jaw", {}}}, r, progress); }).isEmpty());
    World noObject = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    noObject.graspables.clear();
    QVERIFY(errorOf([&] { comparePhysics({{&noObject, "empty.xml", {}}}, smallRequest(1), progress); })
                .contains("no graspable"));
  }
};

QTEST_GUILESS_MAIN(TestPhysicsComparison)
#include "tst_physics_comparison.moc"
