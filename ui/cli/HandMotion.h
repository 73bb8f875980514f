#pragma once
// The hand moves `grasp` and `quality` share, in this order:
//   --approach [MM]  move the palm along the robot's approach direction until contact, at most MM
//                    (default kDefaultApproach_mm: GraspIt!'s "G" key approaches 30 mm before grasping);
//                    when already touching, back off first (findInitialContact);
//   --autograsp      close every DOF with its default velocity until its links are stopped by contact;
//   --open           (grasp only) auto-open instead;
//   --no-close       keep the DOFs as they are.
// `grasp` closes unless told not to; `quality` evaluates the world as it is unless --autograsp is given.
#include <optional>
#include <string>

#include "OptionParser.h"
#include "grasp/AutoGrasp.h"

namespace sg::cli {

constexpr double kDefaultApproach_mm = 30.0;
constexpr double kDefaultThreshold_mm = 0.2;  // GraspIt!'s contact threshold

enum class FingerMotion { Keep, Close, Open };

struct HandMotionPlan {
  std::optional<double> approach_mm;  // absent: no approach
  FingerMotion fingers = FingerMotion::Keep;
};

// Reads --approach, --autograsp, --no-close and (when the command has it) --open. UsageError on a
// non-positive distance or on contradicting flags (--autograsp with --no-close or --open).
HandMotionPlan handMotionPlan(const ParsedArgs& args, bool closeByDefault);

// The contact threshold (--threshold MM, default kDefaultThreshold_mm); UsageError unless positive.
double contactThreshold(const ParsedArgs& args);

struct HandMotionReport {
  std::string approach;  // outcome ("reached", "contact", ...); empty when not run
  std::string fingers;   // outcome of auto-grasp/auto-open; "not run" when the DOFs were kept
};

HandMotionReport runHandMotion(World& world, int robot, const HandMotionPlan& plan, const AutoGraspSettings& settings);

// The option specs, so both commands spell and document them alike.
namespace hand_options {
OptionSpec approach();
OptionSpec autograsp(bool isDefault);
OptionSpec noClose(bool isDefault);
OptionSpec threshold();
}  // namespace hand_options

}  // namespace sg::cli
