#include "grasp/planner/GraspPlanner.h"

#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "grasp/AutoGrasp.h"
#include "grasp/QualityMeasure.h"

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
  if (from.dofValues.size() != hand.dofCount())
    throw Error("the grasp has " + std::to_string(from.dofValues.size()) + " DOF values, robot " + hand.name +
                " has " + std::to_string(hand.dofCount()));
  rs.X_WP = from.X_WP;
  setDofValues(hand, rs, from.dofValues);
  updateConnections(world, state);
  if (closeFromPreGrasp) {
    AutoGraspSettings ag = autoGraspSettings;
    ag.motion.collision = analysis.collision;
    autoGrasp(world, state, robot, ag);
    grasp.grasp = {rs.X_WP, rs.dofValues};
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

PlanResult planGrasps(const World& world, const PlanRequest& request, ProgressSink& progress) {
  PlanResult out;
  out.graspable = request.graspable.value_or(0);
  if (world.graspables.empty()) throw Error("the world has no graspable body to plan for");
  for (const std::string& m : request.reportMeasures)
    if (!findQualityMeasure(m)) throw Error("unknown quality measure '" + m + "'");
  if (request.energy.kind == EnergyKind::AutoGraspQuality && !findQualityMeasure(request.energy.measure))
    throw Error("unknown quality measure '" + request.energy.measure + "'");
  out.space = makeSearchSpace(world, world.state, request.robot, out.graspable, request.space);
  const HandSearchSpace& space = out.space;

  AnnealingRequest ar;
  ar.variables = space.variables;
  ar.params = request.params;
  ar.maxSteps = request.maxSteps;
  ar.chains = request.chains;
  ar.threads = request.threads;
  ar.seed = request.seed;
  ar.timeLimit_s = request.timeLimit_s;
  const EnergySettings& energy = request.energy;
  EvaluatorFactory factory = [&] { return std::make_unique<HandEvaluator>(world, world.state, space, energy); };
  StateDistance distance = [&](const std::vector<double>& a, const std::vector<double>& b) {
    return space.distance(a, b);
  };
  SubProgress annealingProgress(progress, 0.0, 0.9);
  out.annealing = runAnnealing(ar, factory, distance, annealingProgress);

  // Each kept pre-grasp: closed with auto-grasp and measured (after cancel too: the list stays usable).
  NullProgress quiet;
  for (std::size_t i = 0; i < out.annealing.best.size(); ++i) {
    const BestEntry& e = out.annealing.best[i];
    PlannedGrasp g;
    g.energy = e.energy;
    g.variables = e.x;
    HandEvaluator placer(world, world.state, space, energy);
    placer.place(e.x);
    const RobotState& rs = placer.scratch().robots[static_cast<std::size_t>(request.robot)];
    g.preGrasp = {rs.X_WP, rs.dofValues};
    measureGrasp(world, request.robot, out.graspable, g, energy.analysis, energy.autoGrasp, request.reportMeasures,
                 /*closeFromPreGrasp=*/true, quiet);
    out.grasps.push_back(std::move(g));
    progress.report(0.9 + 0.1 * static_cast<double>(i + 1) / static_cast<double>(out.annealing.best.size()),
                    "measuring grasps");
  }
  return out;
}

}  // namespace sg::planner
