#pragma once
// The hand motions of the Grasp menu and the CLI's --approach/--autograsp/--open, as one engine call
// (src/grasp/QUALITY.md §Hand motion):
//   approach      the palm moves along the robot's approach direction until contact, at most
//                 approachDistance_mm; a hand that starts in collision first backs off along it (GraspIt!'s
//                 findInitialContact);
//   auto-grasp    every DOF moves with its default velocity until contact stops its links;
//   approach+grasp  both (GraspIt!'s G key: 30 mm, then auto-grasp);
//   auto-open     auto-grasp with the velocities reversed.
// With collision checking off nothing stops the motion: the palm moves the whole distance and every DOF
// auto-grasp moves goes straight to its limit.
#include <string>

#include "grasp/AutoGrasp.h"

namespace sg {

enum class FingerMotion { Keep, Close, Open };

constexpr double kApproachBeforeGrasp_mm = 30.0;  // GraspIt!'s G key

struct HandMotionRequest {
  bool approach = false;              // first the approach,
  double approachDistance_mm = kApproachBeforeGrasp_mm;
  FingerMotion fingers = FingerMotion::Keep;  // then auto-grasp (Close) or auto-open (Open)
  bool collisionChecking = true;
  AutoGraspSettings settings;  // collision settings (contact threshold), step sizes, iteration bound

  bool movesHand() const { return approach || fingers != FingerMotion::Keep; }
};

struct HandMotionStep {
  bool run = false;
  bool collisionChecked = true;
  MotionOutcome outcome = MotionOutcome::Reached;
  double moved_mm = 0;               // approach only: how far the palm went
  std::size_t contacts = 0;          // contacts of the hand when the step ended
  bool converged = true;             // false: an iteration bound ended the step ("did not converge")
  int iterations = 0;                // finger steps only
};

struct HandMotionReport {
  HandMotionStep approach, fingers;
  bool fingersOpened = false;        // the finger step was auto-open
  // One line for the status bar and the CLI ("approach: contact after 12.3 mm, 2 contacts; auto-grasp: ...").
  std::string summary() const;
};

// Moves robot `robot` of `world` in `state`. Throws sg::Error for an invalid robot index.
HandMotionReport moveHand(const World& world, WorldState& state, int robot, const HandMotionRequest& request);
// The same on the world's current state (world.state).
inline HandMotionReport moveHand(World& world, int robot, const HandMotionRequest& request) {
  return moveHand(world, world.state, robot, request);
}

// "reached", "contact", "blocked", "start-in-collision".
const char* toString(MotionOutcome outcome);

}  // namespace sg
