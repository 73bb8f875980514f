#pragma once
// The contact forces of the grasp force optimisation (src/grasp/forces/FORCES.md) for one load, as arrows over the
// bodies (src/render/README.md §Holding forces): per contact whose force is not zero, an arrow along the force
// on the object (world frame) whose head's tip is at the contact point, pushing on the object, arrow_mm_per_N
// long per newton (at least minLength_mm, so a small force stays visible). Drawn without depth test, like the
// grasp overlay's contact forces. A view of the result only.
#include <array>

#include "grasp/forces/GraspForceOptimization.h"
#include "render/GraspOverlay.h"

class SoSeparator;

namespace sg {

struct HoldForceStyle {
  double arrow_mm_per_N = 10.0;  // a 1 N share of a 200 g object's weight reads 10 mm
  double minLength_mm = 3.0;
  double shaftRadius_mm = kForceArrowShaftRadius_mm;
  std::array<float, 3> colour = {1.0f, 0.55f, 0.05f};  // orange: apart from the model's green nominal forces
};

// Drawn length (mm) of the arrow of a force of this size; 0 for none.
double holdForceArrowLength_mm(double force_N, const HoldForceStyle& style = {});

// A new separator (ref count 0) "holdForces" with one child "holdForce" per drawn arrow (a translation to its
// tail, then makeArrowNode's "holdForceArrow"), in the order of direction.forces; empty when the load is not
// balanced. `drawn` (optional) receives the number of arrows.
SoSeparator* makeHoldForcesNode(const HoldDirection& direction, const HoldForceStyle& style = {}, int* drawn = nullptr);

}  // namespace sg
