#pragma once
// DOF motion with collision stopping and per-joint stops (MOTION.md §DOF motion; GraspIt!'s moveDOFToContacts /
// jumpDOFToContact): DOFs advance in steps toward their targets; a step that collides is bisected back to
// contact; links in contact stop the joints of their chain up to that link. Rigid DOFs stop as a whole
// when any of their joints stops; break-away DOFs (Barrett clutch) moving in the positive direction let a
// stopped joint enter break-away (RobotState::breakAway, WorldState.h) while the others keep moving;
// compliant DOFs move each joint independently.
#include <vector>

#include "grasp/Motion.h"

namespace sg {

struct DofMotionSettings {
  MotionSettings motion;
  // Per-DOF step (rad or mm) per iteration; empty: 5° for revolute, 10 mm for prismatic DOFs.
  std::vector<double> stepSizes;
  int maxIterations = 500;
  bool stopAtFirstContact = false;
  // Run the per-step collision tests and contact searches through a PairScreen (contact/PairScreen.h): pairs
  // that provably stay beyond the contact threshold are skipped, unchanged pairs reuse their answers. The
  // motion is the same either way (MOTION.md §DOF motion); false runs every pair test (the reference).
  bool screenPairs = true;
};

struct DofMotionResult {
  MotionOutcome outcome = MotionOutcome::Reached;  // Reached: all targets met; Contact: something stopped
  int iterations = 0;
  std::vector<Contact> contacts;      // contacts of the robot's bodies at the end
  std::vector<bool> dofStopped;       // per DOF: halted short of its target
  bool converged = true;              // false: maxIterations ran out before the motion settled
};

// Moves robot `robot`'s DOFs in `state` toward `target` (clamped to the ranges), stopping at contacts.
DofMotionResult moveDofsToContacts(const World& world, WorldState& state, int robot, const std::vector<double>& target,
                                   const DofMotionSettings& settings = {});
// The same on the world's current state (world.state).
inline DofMotionResult moveDofsToContacts(World& world, int robot, const std::vector<double>& target,
                                          const DofMotionSettings& settings = {}) {
  return moveDofsToContacts(world, world.state, robot, target, settings);
}

}  // namespace sg
