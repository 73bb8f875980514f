#pragma once
// Coin arrows for the contact forces of a physics-trial sample (src/render/README.md §Trial force arrows): one
// arrow per hand body touching the object, the force that body applies to the object, its head's tip where
// the force acts. Plain data in (the application copies it from src/sim's TrialResult), nodes out.
#include <array>
#include <vector>

#include "core/Transform.h"

class SoSeparator;

namespace sg {

struct TrialForceArrow {
  Vec3 p_W_mm = Vec3::Zero();    // where the force acts (world, mm)
  Vec3 force_W_N = Vec3::Zero(); // force on the object (world, N)
};

struct TrialForceStyle {
  double mm_per_N = 5.0;           // as the contact-force arrows (README.md §Contact forces)
  double minLength_mm = 4.0;       // shorter non-zero arrows are drawn this long (still visible)
  double minForce_N = 1e-6;        // smaller forces get no arrow
  double shaftRadius_mm = 0.8;
  std::array<float, 3> colour = {0.95f, 0.55f, 0.05f};
};

// Drawn length (mm) of the arrow of a force of this magnitude; 0 when it gets none.
double trialForceArrowLength_mm(double force_N, const TrialForceStyle& style = {});

// Separator "trialForces" holding one separator "trialForceArrow" per drawn arrow, in `arrows` order (the
// arrows too small to draw are left out). Each arrow's separator starts with an SoTranslation to its tail.
SoSeparator* makeTrialForceArrowsNode(const std::vector<TrialForceArrow>& arrows, const TrialForceStyle& style = {});

}  // namespace sg
