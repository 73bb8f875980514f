#pragma once
// Auto-grasp and auto-open (MOTION.md §Auto-grasp; GraspIt!'s Hand::autoGrasp): every DOF moves toward its maximum when
// speedFactor·defaultVelocity ≥ 0 (else its minimum) by defaultVelocity·speedFactor·0.01 per step; DOFs
// with defaultVelocity 0 stay. Motion stops at contacts as in MotionDof.h.
#include "grasp/MotionDof.h"

namespace sg {

struct AutoGraspSettings {
  MotionSettings motion;
  double speedFactor = 1.0;   // −1 opens
  bool stopAtContact = false;
  int maxIterations = 500;
  bool screenPairs = true;    // DofMotionSettings::screenPairs (false: the plain reference loop)
};

constexpr double kAutoGraspTimeStep = 0.01;  // GraspIt!'s AUTO_GRASP_TIME_STEP

// Move robot `robot` in `state`.
DofMotionResult autoGrasp(const World& world, WorldState& state, int robot, const AutoGraspSettings& settings = {});
DofMotionResult autoOpen(const World& world, WorldState& state, int robot, AutoGraspSettings settings = {});
// The same on the world's current state (world.state).
inline DofMotionResult autoGrasp(World& world, int robot, const AutoGraspSettings& settings = {}) {
  return autoGrasp(world, world.state, robot, settings);
}
inline DofMotionResult autoOpen(World& world, int robot, AutoGraspSettings settings = {}) {
  return autoOpen(world, world.state, robot, settings);
}

}  // namespace sg
