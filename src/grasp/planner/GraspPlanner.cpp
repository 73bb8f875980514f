#include "grasp/planner/GraspPlanner.h"

#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "grasp/AutoGrasp.h"
#include "grasp/Motion.h"
#include "grasp/QualityMeasure.h"
#include "io/ModelIO.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sg::planner {

const MeasureValue* PlannedGrasp::measure(const std::string& name) const {
  for (const MeasureValue& m : measures)
    if (m.measure == name) return &m;
  return nullptr;
}

void measureGrasp(const World& world, int robot, int graspable, PlannedGrasp& grasp, const AnalysisRequest& analysis,
                  const AutoGraspSettings& autoGraspSettings, const std::vector<std::string>& measures,
                  bool closeFromPreGrasp, ProgressSink& progress) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()))
    throw Error("the world has no robot with index " + std::to_string(robot));
  WorldState state = world.state;
  const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
  RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
  const HandConfiguration& from = closeFromPreGrasp ? grasp.preGrasp : grasp.grasp;
  // Checks that it fits the hand (DOF count, break-away joints); the world's own break-away state is replaced by
  // the grasp's.
  applyHandConfiguration(hand, rs, from);
  updateConnections(world, state);
  if (closeFromPreGrasp) {
    AutoGraspSettings ag = autoGraspSettings;
    ag.motion.collision = analysis.collision;
    autoGrasp(world, state, robot, ag);
    grasp.grasp = handConfigurationOf(rs);
  }
  AnalysisRequest request = analysis;
  request.motion = {};
  request.graspable = graspable;
  request.measures = measures;
  AnalysisResult result = analyzeGrasp(world, state, request, progress);
  grasp.measures.clear();
  grasp.forceClosure = false;
  if (const GraspEvaluation* e = result.primary()) {
    grasp.measures = e->measures;
    grasp.forceClosure = e->forceClosure();
  }
  grasp.contacts.clear();
  for (const Contact& c : result.contacts) {
    if (!isHandContact(c)) continue;
    const bool firstIsHand = c.side1.body.kind == BodyHandle::Kind::Robot;
    const ContactSide& h = firstIsHand ? c.side1 : c.side2;
    const ContactSide& o = firstIsHand ? c.side2 : c.side1;
    grasp.contacts.push_back({world.bodyLabel(h.body), world.bodyLabel(o.body), h.p_WC_mm, h.n_W});
  }
}

const char* toString(PlannerKind kind) {
  switch (kind) {
    case PlannerKind::SimAnn: return "simann";
    case PlannerKind::Loop: return "loop";
    case PlannerKind::Guided: return "guided";
  }
  return "?";
}

std::vector<std::string> plannerNames() { return {"simann", "loop", "guided"}; }

PlannerKind plannerFromString(const std::string& name) {
  for (PlannerKind k : {PlannerKind::SimAnn, PlannerKind::Loop, PlannerKind::Guided})
    if (name == toString(k)) return k;
  throw Error("unknown planner '" + name + "' (simann, loop, guided)");
}

HandSearchSpace makeSearchSpace(const World& world, const PlanRequest& request) {
  HandSearchSpace space = makeSearchSpace(world, world.state, request.robot, request.graspable.value_or(0), request.space);
  if (!request.variables.empty()) {
    if (request.variables.size() != space.variables.size())
      throw Error("the plan request has " + std::to_string(request.variables.size()) + " search variables, the " +
                  toString(request.space) + " space of this hand has " + std::to_string(space.variables.size()));
    for (std::size_t i = 0; i < space.variables.size(); ++i) {
      SearchVariable& v = space.variables[i];
      const SearchVariable& given = request.variables[i];
      v.value = std::clamp(given.value, v.min, v.max);
      v.fixed = given.fixed;
      v.target = given.target;
      v.confidence = std::clamp(given.confidence, 0.0, 1.0);
    }
  }
  return space;
}

void saveGraspAsWorld(const World& world, int robot, const HandConfiguration& hand, const std::string& path) {
  requireRobot(world, robot);
  const Robot& r = world.robots[static_cast<std::size_t>(robot)];
  World copy = world;
  RobotState& rs = copy.state.robots[static_cast<std::size_t>(robot)];
  try {
    applyHandConfiguration(r, rs, hand);
  } catch (const Error& e) {
    throw Error(e.message(), path);
  }
  updateConnections(copy, copy.state);
  saveWorld(copy, path);
}

namespace {

// The best state's ε for the live view, at most every request.qualityInterval_s, on the annealing's calling thread.
class QualitySampler {
 public:
  QualitySampler(const World& world, const HandSearchSpace& space, const PlanRequest& request)
      : world_(world), space_(space), request_(request) {}
  void operator()(long iterations) {
    AnnealingMonitor* monitor = request_.monitor;
    if (!monitor) return;
    const auto now = std::chrono::steady_clock::now();
    if (measured_ && now - last_ < std::chrono::duration<double>(request_.qualityInterval_s)) return;
    auto [x, revision] = monitor->best();
    if (x.empty() || (measured_ && revision == revision_)) return;
    last_ = now;
    measured_ = true;
    revision_ = revision;
    if (!evaluator_) evaluator_ = std::make_unique<HandEvaluator>(world_, world_.state, space_, request_.energy);
    double epsilon = 0;
    if (evaluator_->place(x)) {
      evaluator_->close();
      AnalysisRequest a = request_.energy.analysis;
      a.motion = {};
      a.graspable = space_.graspable;
      a.measures = {"epsilon-l1"};
      a.contactModels.resize(1);
      a.contactScope = ContactScope::Grasp;
      NullProgress quiet;
      const AnalysisResult r = analyzeGrasp(world_, evaluator_->scratch(), a, quiet);
      if (const GraspEvaluation* e = r.primary())
        if (const MeasureValue* m = e->measure("epsilon-l1"); m && m->ok) epsilon = std::max(0.0, m->value);
    }
    monitor->postQuality(iterations, epsilon);
  }

 private:
  const World& world_;
  const HandSearchSpace& space_;
  const PlanRequest& request_;
  std::unique_ptr<HandEvaluator> evaluator_;
  std::chrono::steady_clock::time_point last_;
  bool measured_ = false;
  std::uint64_t revision_ = 0;
};

}  // namespace

PlannedGrasp closeAndMeasure(const World& world, const HandSearchSpace& space, const EnergySettings& energy,
                             const BestEntry& state, const std::vector<std::string>& measures) {
  PlannedGrasp g;
  g.energy = state.energy;
  g.variables = state.x;
  HandEvaluator placer(world, world.state, space, energy);
  placer.place(state.x);
  const RobotState& rs = placer.scratch().robots[static_cast<std::size_t>(space.robot)];
  g.preGrasp = {rs.X_WP, rs.dofValues, {}};  // open: no joint in break-away
  placer.close();
  // The closed hand as it is: its joints in break-away too (PLANNER.md §Final stage, "List").
  g.grasp = handConfigurationOf(rs);
  NullProgress quiet;
  measureGrasp(world, space.robot, space.graspable, g, energy.analysis, energy.autoGrasp, measures,
               /*closeFromPreGrasp=*/false, quiet);
  return g;
}

PlanResult planGrasps(const World& world, const PlanRequest& request, ProgressSink& progress) {
  const auto started = std::chrono::steady_clock::now();
  PlanResult out;
  out.graspable = request.graspable.value_or(0);
  if (world.graspables.empty()) throw Error("the world has no graspable body to plan for");
  requireStepsBeyondStart(request.maxSteps, request.params);
  requireValidFinalStage(request.finalStage);
  requireValidIllegalShrink(request.illegalShrink);
  for (const std::string& m : request.reportMeasures)
    if (!findQualityMeasure(m)) throw Error("unknown quality measure '" + m + "'");
  if (request.energy.kind == EnergyKind::AutoGraspQuality && !findQualityMeasure(request.energy.measure))
    throw Error("unknown quality measure '" + request.energy.measure + "'");
  out.space = makeSearchSpace(world, request);
  const HandSearchSpace& space = out.space;

  AnnealingRequest ar;
  ar.variables = space.variables;
  ar.params = request.params;
  ar.maxSteps = request.maxSteps;
  ar.chains = request.chains;
  ar.threads = request.threads;
  ar.seed = request.seed;
  ar.timeLimit_s = request.timeLimit_s;
  ar.monitor = request.monitor;
  ar.illegalShrink = request.illegalShrink;
  const std::size_t listSize = ar.bestListSize;
  if (request.finalStage.enabled)  // the search keeps more states: the stage keeps the best of them
    ar.bestListSize = std::max(listSize, static_cast<std::size_t>(request.finalStage.candidates));
  QualitySampler sampler(world, space, request);
  if (request.monitor) ar.poll = [&sampler](long iterations) { sampler(iterations); };
  // The guided planner's grasps come from its children: they are closed and measured as the child energy does.
  EnergySettings childEnergy = request.energy;
  childEnergy.kind = request.guided.childEnergy;
  const EnergySettings& energy = request.planner == PlannerKind::Guided ? childEnergy : request.energy;
  EvaluatorFactory factory = [&] { return std::make_unique<HandEvaluator>(world, world.state, space, energy); };
  StateDistance distance = [&](const std::vector<double>& a, const std::vector<double>& b) {
    return space.distance(a, b);
  };
  if (request.planner == PlannerKind::SimAnn) {
    SubProgress annealingProgress(progress, 0.0, 0.9);
    out.annealing = runAnnealing(ar, factory, distance, annealingProgress);
  } else if (request.planner == PlannerKind::Guided) {
    if (request.guided.childEnergy == EnergyKind::AutoGraspQuality && !findQualityMeasure(request.energy.measure))
      throw Error("unknown quality measure '" + request.energy.measure + "'");
    EnergySettings parentEnergy = request.energy;
    parentEnergy.kind = EnergyKind::GuidedPotentialQuality;
    EvaluatorFactory parentFactory = [&] {
      return std::make_unique<HandEvaluator>(world, world.state, space, parentEnergy);
    };
    GuidedRequest gr;
    gr.variables = space.variables;
    gr.positionCount = space.positionCount;
    gr.params = request.params;
    gr.maxSteps = request.maxSteps;
    gr.threads = request.threads;
    gr.seed = request.seed;
    gr.timeLimit_s = request.timeLimit_s;
    gr.avoidDistance = request.avoidDistance;
    gr.guided = request.guided;
    gr.monitor = request.monitor;
    gr.illegalShrink = request.illegalShrink;
    SubProgress guidedProgress(progress, 0.0, 0.9);
    GuidedOutcome g = runGuided(gr, parentFactory, factory, distance, guidedProgress);
    out.annealing = std::move(g.annealing);
    out.avoided = std::move(g.avoided);
    out.avoidedRun = std::move(g.avoidedChild);
    out.seeds = std::move(g.seeds);
  } else {
    // The loop planner (PLANNER.md §Planners): `loops` runs, run r seeded with chainSeed(seed, 1000 + r) (run 0
    // with the seed itself); each run's kept states with energy ≤ avoidThreshold join the avoid list, which
    // makes states within avoidDistance of them illegal in the later runs. All runs' states are merged into one
    // best list ordered by (energy, run, chain, step).
    const int loops = std::max(1, request.loops);
    ar.avoidDistance = request.avoidDistance;
    const auto start = std::chrono::steady_clock::now();
    std::vector<BestEntry> all;
    for (int run = 0; run < loops; ++run) {
      ar.seed = run == 0 ? request.seed : chainSeed(request.seed, 1000 + run);
      ar.avoid = out.avoided;
      if (request.timeLimit_s > 0) {
        const double left = request.timeLimit_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (left <= 0) {
          out.annealing.stopReason = StopReason::TimeLimit;
          break;
        }
        ar.timeLimit_s = left;
      }
      SubProgress runProgress(progress, 0.9 * run / loops, 0.9 * (run + 1) / loops);
      AnnealingResult r = runAnnealing(ar, factory, distance, runProgress);
      for (BestEntry e : r.best) {
        if (e.energy <= request.avoidThreshold) {
          out.avoided.push_back(e.x);
          out.avoidedRun.push_back(run);
        }
        e.chain += run * std::max(1, request.chains);
        all.push_back(std::move(e));
      }
      out.annealing.iterations += r.iterations;
      out.annealing.evaluations += r.evaluations;
      out.annealing.fullEvaluations += r.fullEvaluations;
      out.annealing.illegal += r.illegal;
      for (auto& t : r.traces) out.annealing.traces.push_back(std::move(t));
      out.annealing.stopReason = r.stopReason;
      if (r.stopReason != StopReason::StepLimit) break;
    }
    std::sort(all.begin(), all.end(), [](const BestEntry& a, const BestEntry& b) {
      if (a.energy != b.energy) return a.energy < b.energy;
      if (a.chain != b.chain) return a.chain < b.chain;
      return a.step < b.step;
    });
    BestList merged(ar.bestListSize, ar.minDistance, distance);
    for (const BestEntry& e : all) merged.offer(e);
    out.annealing.best = merged.entries();
    out.annealing.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  if (request.finalStage.enabled) {
    // The final stage (PLANNER.md §Final stage): every kept state closed, scored with the auto-grasp quality
    // energy and refined; the list is theirs, closed as that energy closes (auto-grasp) and measured. The time
    // limit covers it too (a state not refined by then is scored only), and so does cancel.
    EnergySettings stageEnergy = energy;
    stageEnergy.kind = EnergyKind::AutoGraspQuality;
    stageEnergy.measure = "epsilon-l1";
    const auto stopAt = started + std::chrono::duration<double>(request.timeLimit_s);
    auto stop = [&] {
      return progress.cancelRequested() ||
             (request.timeLimit_s > 0 && std::chrono::steady_clock::now() >= stopAt);
    };
    SubProgress stageProgress(progress, 0.9, 0.97);
    FinalStageSettings stage = request.finalStage;
    stage.searchIterations = out.annealing.iterations;
    out.finalStage = runFinalStage(world, space, stageEnergy, out.annealing.best, stage, request.seed,
                                   listSize, ar.minDistance, stop, stageProgress);
    // The stage remembers the hand each state's scoring closed: it is measured as it is (the same closing
    // closeAndMeasure would repeat), and closed here only when the scoring did not close it.
    HandEvaluator placer(world, world.state, space, stageEnergy);
    for (std::size_t i = 0; i < out.finalStage.states.size(); ++i) {
      const StagedState& s = out.finalStage.states[i];
      if (!s.closed) {
        out.grasps.push_back(closeAndMeasure(world, space, stageEnergy, s.state, request.reportMeasures));
      } else {
        PlannedGrasp g;
        g.energy = s.state.energy;
        g.variables = s.state.x;
        placer.place(s.state.x);
        const RobotState& rs = placer.scratch().robots[static_cast<std::size_t>(space.robot)];
        g.preGrasp = {rs.X_WP, rs.dofValues, {}};
        g.grasp = {s.X_WP_closed, s.closedDofs, anyBreakAway(s.closedBreakAway) ? s.closedBreakAway : BreakAwayState{}};
        NullProgress quiet;
        measureGrasp(world, space.robot, space.graspable, g, stageEnergy.analysis, stageEnergy.autoGrasp,
                     request.reportMeasures, /*closeFromPreGrasp=*/false, quiet);
        out.grasps.push_back(std::move(g));
      }
      progress.report(0.97 + 0.03 * static_cast<double>(i + 1) / static_cast<double>(out.finalStage.states.size()),
                      "measuring grasps");
    }
    // Force closure as the analysis measures it first: the stage's fast ε (support functions, its own tolerance)
    // can call a grasp at the force-closure threshold differently; otherwise the stage's order.
    std::vector<std::size_t> order(out.grasps.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return out.grasps[i].forceClosure; });
    std::vector<PlannedGrasp> grasps;
    std::vector<StagedState> states;
    for (std::size_t i : order) {
      grasps.push_back(std::move(out.grasps[i]));
      states.push_back(out.finalStage.states[i]);
    }
    out.grasps = std::move(grasps);
    out.finalStage.states = std::move(states);
    return out;
  }
  // Each kept pre-grasp: closed as the energy closes it (auto-grasp; strict: approach first) and measured
  // (after cancel too: the list stays usable).
  for (std::size_t i = 0; i < out.annealing.best.size(); ++i) {
    out.grasps.push_back(closeAndMeasure(world, space, energy, out.annealing.best[i], request.reportMeasures));
    progress.report(0.9 + 0.1 * static_cast<double>(i + 1) / static_cast<double>(out.annealing.best.size()),
                    "measuring grasps");
  }
  return out;
}

}  // namespace sg::planner
