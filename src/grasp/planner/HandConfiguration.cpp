#include "grasp/planner/HandConfiguration.h"

#include <cmath>

#include "core/Error.h"

namespace sg::planner {

bool anyBreakAway(const BreakAwayState& state) {
  for (const auto& chain : state)
    for (const JointBreakAway& joint : chain)
      if (joint.active) return true;
  return false;
}

HandConfiguration handConfigurationOf(const RobotState& state) {
  HandConfiguration c{state.X_WP, state.dofValues, {}};
  if (anyBreakAway(state.breakAway)) c.breakAway = state.breakAway;  // none is kept as the empty state
  return c;
}

void requireHandFits(const Robot& robot, const HandConfiguration& hand, const std::string& what) {
  if (hand.dofValues.size() != robot.dofCount())
    throw Error(what + ".dofs: " + std::to_string(hand.dofValues.size()) + " values, robot " + robot.name + " has " +
                std::to_string(robot.dofCount()) + " DOFs");
  for (std::size_t c = 0; c < hand.breakAway.size(); ++c)
    for (std::size_t j = 0; j < hand.breakAway[c].size(); ++j) {
      const JointBreakAway& b = hand.breakAway[c][j];
      if (!b.active) continue;
      const std::string joint = what + ".breakAway: chain " + std::to_string(c) + " joint " + std::to_string(j);
      if (c >= robot.chains.size() || j >= robot.chains[c].joints.size())
        throw Error(joint + ": robot " + robot.name + " has no such joint");
      const int dof = robot.chains[c].joints[j].expr.dof;
      if (dof < 0 || static_cast<std::size_t>(dof) >= robot.dofs.size() ||
          robot.dofs[static_cast<std::size_t>(dof)].type != DofType::BreakAway)
        throw Error(joint + ": not driven by a break-away DOF of robot " + robot.name);
      if (!std::isfinite(b.dofValue)) throw Error(joint + ": the DOF value is not a finite number");
    }
}

void applyHandConfiguration(const Robot& robot, RobotState& state, const HandConfiguration& hand) {
  requireHandFits(robot, hand, "grasp");
  state.X_WP = hand.X_WP;
  // Every joint gets an entry (as a closing leaves it), so that equal hands compare equal (sameMotionState).
  state.breakAway.assign(robot.chains.size(), {});
  for (std::size_t c = 0; c < robot.chains.size(); ++c) {
    state.breakAway[c].resize(robot.chains[c].joints.size());
    for (std::size_t j = 0; j < state.breakAway[c].size(); ++j)
      if (c < hand.breakAway.size() && j < hand.breakAway[c].size() && hand.breakAway[c][j].active)
        state.breakAway[c][j] = hand.breakAway[c][j];
  }
  setDofValues(robot, state, hand.dofValues);  // the link poses from the pose, DOF values and break-away state
}

}  // namespace sg::planner
