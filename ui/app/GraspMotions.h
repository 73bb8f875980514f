#pragma once
// The Grasp menu's hand motions as engine requests (src/grasp/HandMotion.h), shared by the menu's actions
// (GraspActions) and the headless screenshot (`softgrasp WORLD --screenshot out.png --approach --autograsp`),
// so both move the hand the same way. Collision checking is on; the caller replaces what it overrides.
#include "grasp/HandMotion.h"

namespace sg::app {

constexpr double kApproachToContact_mm = 200;  // Approach to Contact: at most this far

HandMotionRequest approachMotion();          // Approach to Contact
HandMotionRequest autoGraspMotion();         // Auto-Grasp (Ctrl+G)
HandMotionRequest approachAndGraspMotion();  // Approach & Grasp (key G: 30 mm, then auto-grasp, as GraspIt!)
HandMotionRequest autoOpenMotion();          // Auto-Open

// The menu motion for the command line's switches: --approach alone is Approach to Contact, --autograsp
// alone Auto-Grasp, both Approach & Grasp (G); neither moves nothing.
HandMotionRequest menuMotion(bool approach, bool autoGrasp);

}  // namespace sg::app
