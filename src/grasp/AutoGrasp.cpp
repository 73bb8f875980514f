#include "grasp/AutoGrasp.h"

#include <cmath>

namespace sg {

DofMotionResult autoGrasp(const World& world, WorldState& state, int robotIndex, const AutoGraspSettings& settings) {
  requireRobot(world, robotIndex);
  const Robot& robot = world.robots[robotIndex];
  DofMotionSettings dms;
  dms.motion = settings.motion;
  dms.maxIterations = settings.maxIterations;
  dms.stopAtFirstContact = settings.stopAtContact;
  dms.screenPairs = settings.screenPairs;
  std::vector<double> target;
  for (const Dof& d : robot.dofs) {
    const double v = d.defaultVelocity * settings.speedFactor;
    target.push_back(v >= 0 ? d.maxValue : d.minValue);
    dms.stepSizes.push_back(std::abs(v) * kAutoGraspTimeStep);
  }
  return moveDofsToContacts(world, state, robotIndex, target, dms);
}

DofMotionResult autoOpen(const World& world, WorldState& state, int robotIndex, AutoGraspSettings settings) {
  settings.speedFactor = -std::abs(settings.speedFactor);
  return autoGrasp(world, state, robotIndex, settings);
}

}  // namespace sg
