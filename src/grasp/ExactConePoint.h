#pragma once
// A point of one contact's exact set by its coordinates on the cone (QUALITY.md §Warm start, step 2): the warm
// start of the exact cones' ε keeps, for each vertex, the point (x, y, z) of its contact's cone, so that the vertex
// stays the same point of the moved cone. Internal to the support-function solver (SupportEpsilon.cpp) and
// WrenchSupport.cpp; kept out of WrenchSupport.h, which most of the engine includes.

#include "grasp/WrenchSupport.h"

namespace sg {

// supportExactCone's point with its (x, y, z) on the cone (x² + y² + z² = 1, or 0 where u meets the cone's axis).
struct ExactConeSupport {
  SupportPoint point;
  Vec3 xyz = Vec3::Zero();
};
ExactConeSupport supportExactConeAt(const ExactContactCone& cone, double torqueScale_mm, const Vec6& u);

// The wrench of the cone's point (x, y, z) (x² + y² + z² ≤ 1): the same point of a moved cone.
Vec6 exactConePoint(const ExactContactCone& cone, double torqueScale_mm, const Vec3& xyz);

}  // namespace sg
