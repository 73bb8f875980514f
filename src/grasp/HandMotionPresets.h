#pragma once
// The named hand motions both front ends offer, as one table (MOTION.md §Presets): the Grasp menu's four
// actions, and how the command-line switches of `softgrasp --screenshot` and `softgrasp-cli` (--approach,
// --autograsp, --open) map onto engine requests (HandMotion.h). Collision checking is on in every preset; the
// caller overrides what it must (the contact threshold, say).
//
// One default approach distance: an approach that names no distance (`--approach` without MM in either front
// end, the G key) moves at most kApproachBeforeGrasp_mm = 30 mm, GraspIt!'s G key. Only the menu's Approach to
// Contact, a search the user watches and repeats, goes farther (kApproachToContact_mm).
#include <vector>

#include "grasp/HandMotion.h"

namespace sg {

constexpr double kApproachToContact_mm = 200;  // Grasp > Approach to Contact: at most this far

enum class HandMotionPreset {
  None,               // nothing moves
  Approach,           // the palm along its approach direction, at most kApproachBeforeGrasp_mm (--approach)
  ApproachToContact,  // the same, at most kApproachToContact_mm (the menu's Approach to Contact)
  AutoGrasp,          // close every DOF until contact (Ctrl+G, --autograsp)
  ApproachAndGrasp,   // Approach, then AutoGrasp (key G, --approach --autograsp)
  AutoOpen            // auto-grasp reversed (--open)
};

struct HandMotionPresetEntry {
  HandMotionPreset preset;
  const char* name;  // "approach-and-grasp", …: the words a script or a test uses
  HandMotionRequest request;
};

// Every preset, None first, in the enum's order.
const std::vector<HandMotionPresetEntry>& handMotionPresets();
// The preset's request.
HandMotionRequest presetMotion(HandMotionPreset preset);

// The preset the command-line switches of either front end ask for: --approach alone Approach, the finger
// switch alone AutoGrasp / AutoOpen, both ApproachAndGrasp (or Approach then AutoOpen, which is no preset:
// then the request is built the same way), neither None.
HandMotionRequest switchesMotion(bool approach, FingerMotion fingers);

}  // namespace sg
