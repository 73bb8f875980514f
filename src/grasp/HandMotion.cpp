#include "grasp/HandMotion.h"

#include <cmath>

#include "core/Error.h"
#include "core/NumberFormat.h"
#include "grasp/Motion.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

std::string motionNumber(double v) { return formatGeneral(v, 3); }  // not the global C++ locale's "1,5"

HandMotionStep approachStep(const World& world, WorldState& state, int robot, const HandMotionRequest& r) {
  HandMotionStep step;
  step.run = true;
  step.collisionChecked = r.collisionChecking;
  if (!r.collisionChecking) {
    const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
    RobotState& hs = state.robots.at(static_cast<std::size_t>(robot));
    setRobotPose(hand, hs, Transform::fromTranslation(approachDirection(hand, hs) * r.approachDistance_mm) * hs.X_WP);
    updateConnections(world, state);
    step.moved_mm = r.approachDistance_mm;
    return step;
  }
  const MotionResult m = findInitialContact(world, state, robot, r.approachDistance_mm, r.settings.motion);
  step.outcome = m.outcome;
  step.moved_mm = m.fraction * r.approachDistance_mm;
  step.contacts = m.contacts.size();
  step.converged = m.converged;
  return step;
}

HandMotionStep fingerStep(const World& world, WorldState& state, int robot, const HandMotionRequest& r, bool open) {
  HandMotionStep step;
  step.run = true;
  step.collisionChecked = r.collisionChecking;
  if (!r.collisionChecking) {
    const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
    RobotState& hs = state.robots.at(static_cast<std::size_t>(robot));
    std::vector<double> values = hs.dofValues;
    for (std::size_t k = 0; k < hand.dofs.size(); ++k) {
      const double v = hand.dofs[k].defaultVelocity * (open ? -1.0 : 1.0);
      if (v != 0) values[k] = v > 0 ? hand.dofs[k].maxValue : hand.dofs[k].minValue;
    }
    setDofValues(hand, hs, values);
    updateConnections(world, state);
    return step;
  }
  const DofMotionResult m =
      open ? autoOpen(world, state, robot, r.settings) : autoGrasp(world, state, robot, r.settings);
  step.outcome = m.outcome;
  step.contacts = m.contacts.size();
  step.converged = m.converged;
  step.iterations = m.iterations;
  return step;
}

std::string describeOutcome(const HandMotionStep& s, const std::string& what, bool approach) {
  if (!s.collisionChecked)
    return what + (approach ? ": moved " + motionNumber(s.moved_mm) + " mm" : ": DOFs at their limits") +
           " (collision checking off)";
  const std::string contacts = std::to_string(s.contacts) + " contact(s)";
  switch (s.outcome) {
    case MotionOutcome::Contact:
      return what + (approach ? ": contact after " + motionNumber(s.moved_mm) + " mm, " : ": stopped at contact, ") +
             contacts;
    case MotionOutcome::Reached:
      return what + (approach ? ": moved " + motionNumber(s.moved_mm) + " mm without touching anything"
                              : ": reached the DOF limits, " + contacts);
    case MotionOutcome::Blocked: return what + " blocked: contacts oppose the motion";
    case MotionOutcome::StartInCollision: return what + " refused: the hand is already in collision";
  }
  return what;
}

std::string describe(const HandMotionStep& s, const std::string& what, bool approach) {
  std::string out = describeOutcome(s, what, approach);
  if (!s.converged) out += " (did not converge after " + std::to_string(s.iterations) + " iterations)";
  return out;
}

}  // namespace

const char* toString(MotionOutcome o) {
  switch (o) {
    case MotionOutcome::Reached: return "reached";
    case MotionOutcome::Contact: return "contact";
    case MotionOutcome::Blocked: return "blocked";
    case MotionOutcome::StartInCollision: return "start-in-collision";
  }
  return "unknown";
}

std::string HandMotionReport::summary() const {
  std::string out;
  if (approach.run) out = describe(approach, "Approach", true);
  if (fingers.run) out += (out.empty() ? "" : "; ") + describe(fingers, fingersOpened ? "Auto-open" : "Auto-grasp", false);
  return out;
}

HandMotionReport moveHand(const World& world, WorldState& state, int robot, const HandMotionRequest& r) {
  if (!r.movesHand()) return {};
  requireRobot(world, robot);
  requireFits(world, state);
  if (r.approach && !(r.approachDistance_mm > 0 && std::isfinite(r.approachDistance_mm)))
    throw Error("hand motion: the approach distance must be a positive number of mm");
  HandMotionReport report;
  if (r.approach) report.approach = approachStep(world, state, robot, r);
  if (r.fingers != FingerMotion::Keep) {
    report.fingersOpened = r.fingers == FingerMotion::Open;
    report.fingers = fingerStep(world, state, robot, r, report.fingersOpened);
  }
  return report;
}

}  // namespace sg
