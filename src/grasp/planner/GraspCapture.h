#pragma once
// Grasps made by hand joining a grasp list, and a list checked against the world it is used in
// (PLANNER.md §Grasp list file). What the application's planner dock (Capture, Load) and the CLI (evaluate)
// share; engine only.
#include <string>

#include "grasp/planner/GraspList.h"

namespace sg::planner {

// The hand's configuration in world.state (robot request.robot, graspable request.graspable) as a grasp of
// `request`'s space: its search state, its energy under the request's energy (the children's for guided; NaN
// when the hand collides), pre-grasp = final grasp = the hand as it is, measured with request.reportMeasures
// under the request's analysis. request.variables are ignored (the hand's configuration is the state).
// sg::Error for invalid indices or settings.
PlannedGrasp captureHandGrasp(const World& world, const PlanRequest& request);

// Appends the captured hand grasp to `list`. An empty list first gets makeGraspList's header for the request
// (planner, energy, space, params, seed, maxSteps; stopReason "captured": no search ran); a list that holds
// grasps keeps its header, and the grasp is captured in the list's space. sg::Error, the list unchanged, when
// the list holds grasps of another robot or object.
void addCapturedGrasp(GraspList& list, const World& world, const std::string& worldFile, const PlanRequest& request);

// sg::Error naming the field when `list` does not fit `world`: robotIndex or graspableIndex out of range, or a
// grasp's (or pre-grasp's) DOF count not the robot's ("grasps[2].preGrasp.dofs: 3 values, robot Barrett has 4
// DOFs"), or a joint in break-away the robot cannot have (requireHandFits). Without the file name: callers add it.
void validateGraspList(const GraspList& list, const World& world);

}  // namespace sg::planner
