#include "grasp/planner/GraspCapture.h"

#include <limits>

#include "core/Error.h"

namespace sg::planner {

namespace {

constexpr const char* kCapturedStopReason = "captured";  // PLANNER.md §Grasp list file

}  // namespace

PlannedGrasp captureHandGrasp(const World& world, const PlanRequest& request) {
  PlanRequest r = request;
  r.variables.clear();  // the hand's configuration now
  const HandSearchSpace space = makeSearchSpace(world, r);
  // The energy the list's header names (makeGraspList): the children's for the guided planner.
  EnergySettings energy = r.energy;
  if (r.planner == PlannerKind::Guided) energy.kind = r.guided.childEnergy;
  PlannedGrasp g;
  for (const SearchVariable& v : space.variables) g.variables.push_back(v.value);
  HandEvaluator evaluator(world, world.state, space, energy);
  g.energy = evaluator.energy(g.variables).value_or(std::numeric_limits<double>::quiet_NaN());
  const RobotState& rs = world.state.robots.at(static_cast<std::size_t>(space.robot));
  g.preGrasp = g.grasp = handConfigurationOf(rs);  // the hand as it is (its break-away joints)
  NullProgress quiet;
  measureGrasp(world, space.robot, space.graspable, g, energy.analysis, energy.autoGrasp, r.reportMeasures,
               /*closeFromPreGrasp=*/false, quiet);
  return g;
}

void addCapturedGrasp(GraspList& list, const World& world, const std::string& worldFile, const PlanRequest& request) {
  PlanRequest r = request;
  if (!list.grasps.empty()) {
    const int graspable = r.graspable.value_or(0);
    if (list.robotIndex != r.robot)
      throw Error("the list holds grasps of robot " + std::to_string(list.robotIndex) + " (robotIndex), not of robot " +
                  std::to_string(r.robot));
    if (list.graspableIndex != graspable)
      throw Error("the list holds grasps of graspable " + std::to_string(list.graspableIndex) +
                  " (graspableIndex), not of graspable " + std::to_string(graspable));
    if (!list.space.empty()) r.space = positionSpaceFromString(list.space);  // its states in the list's variables
  }
  PlannedGrasp g = captureHandGrasp(world, r);
  if (list.grasps.empty()) {
    PlanRequest atHand = r;
    atHand.variables.clear();
    PlanResult none;  // no search: the header's variable names are the capture's space's
    none.space = makeSearchSpace(world, atHand);
    none.graspable = none.space.graspable;
    list = makeGraspList(world, worldFile, r, none);
    list.stopReason = kCapturedStopReason;
  }
  list.grasps.push_back(std::move(g));
}

void validateGraspList(const GraspList& list, const World& world) {
  const int robots = static_cast<int>(world.robots.size());
  const int graspables = static_cast<int>(world.graspables.size());
  if (list.robotIndex < 0 || list.robotIndex >= robots)
    throw Error("robotIndex: " + std::to_string(list.robotIndex) + " is not a robot of this world (" +
                std::to_string(robots) + " robot" + (robots == 1 ? "" : "s") + ")");
  if (list.graspableIndex < 0 || list.graspableIndex >= graspables)
    throw Error("graspableIndex: " + std::to_string(list.graspableIndex) + " is not a graspable of this world (" +
                std::to_string(graspables) + " graspable" + (graspables == 1 ? "" : "s") + ")");
  const Robot& robot = world.robots[static_cast<std::size_t>(list.robotIndex)];
  for (std::size_t i = 0; i < list.grasps.size(); ++i) {
    const std::string what = "grasps[" + std::to_string(i) + "]";
    requireHandFits(robot, list.grasps[i].grasp, what + ".grasp");
    requireHandFits(robot, list.grasps[i].preGrasp, what + ".preGrasp");
  }
}

}  // namespace sg::planner
