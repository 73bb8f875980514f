#pragma once
// The hand-motion options `grasp` and `quality` share, read into the engine's HandMotionRequest
// (src/grasp/HandMotion.h, the same call the application's Grasp menu makes):
//   --approach [MM]  move the palm along the robot's approach direction until contact, at most MM
//                    (default kApproachBeforeGrasp_mm, GraspIt!'s G key); a hand starting in collision backs
//                    off first;
//   --autograsp      close every DOF with its default velocity until its links are stopped by contact;
//   --open           (grasp only) auto-open instead;
//   --no-close       keep the DOFs as they are.
// `grasp` closes unless told not to; `quality` evaluates the world as it is unless --autograsp is given.
#include <string>

#include "OptionParser.h"
#include "grasp/HandMotionPresets.h"

namespace sg::cli {

constexpr double kDefaultThreshold_mm = 0.2;  // GraspIt!'s contact threshold

// Reads --approach, --autograsp, --no-close and (when the command has it) --open. UsageError on a
// non-positive distance or on contradicting flags (--autograsp with --no-close or --open).
HandMotionRequest handMotionRequest(const ParsedArgs& args, bool closeByDefault);

// The contact threshold (--threshold MM, default kDefaultThreshold_mm); UsageError unless positive.
double contactThreshold(const ParsedArgs& args);

// The option specs, so both commands spell and document them alike.
namespace hand_options {
OptionSpec approach();
OptionSpec autograsp(bool isDefault);
OptionSpec noClose(bool isDefault);
OptionSpec threshold();
}  // namespace hand_options

}  // namespace sg::cli
