#pragma once
// A hand configuration as a planned grasp keeps it (PLANNER.md §Grasp list file): the palm pose, the DOF values
// and the joints that broke away while the hand closed. The break-away state is part of the hand: without it the
// links of a hand with break-away DOFs (the Barrett clutch) sit where the DOF values alone put them, not where the
// closing left them (PLANNER.md §Final stage, "List"; src/model/README.md).
#include <string>
#include <vector>

#include "core/Transform.h"
#include "model/Robot.h"
#include "model/WorldState.h"

namespace sg::planner {

struct HandConfiguration {
  Transform X_WP;                        // palm in world
  std::vector<double> dofValues;         // rad or mm, one per DOF
  BreakAwayState breakAway;              // [chain][joint] as RobotState::breakAway; empty: no joint in break-away
};

// True when some joint of `state` is in break-away.
bool anyBreakAway(const BreakAwayState& state);

// The configuration `state` holds (pose, DOF values, break-away state).
HandConfiguration handConfigurationOf(const RobotState& state);

// sg::Error starting with `what` when `hand` does not fit `robot`: a DOF count other than the robot's, or a joint
// in break-away that the robot does not have, that no break-away DOF drives, or whose value is not finite.
void requireHandFits(const Robot& robot, const HandConfiguration& hand, const std::string& what);

// Puts the hand of `state` at `hand` (requireHandFits first, "grasp" in the message): pose, DOF values (clamped to
// their ranges) and break-away state, link poses recomputed. Mounted robots are not moved (updateConnections).
void applyHandConfiguration(const Robot& robot, RobotState& state, const HandConfiguration& hand);

}  // namespace sg::planner
