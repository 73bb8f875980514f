#pragma once
// Grasp wrench spaces (src/grasp/QUALITY.md §Wrench spaces) built from per-contact wrenches.
//  * L1 ("sum of normal forces <= 1"): hull of the union of all contact wrenches.
//  * L∞ ("each normal force <= 1"): hull of the Minkowski sum over contacts of ({0} ∪ that contact's
//    wrenches). GraspIt! hulls all Π(kᵢ + 1) sums at once (21⁴ ≈ 194 k points for four soft contacts).
//    Here the sum is built one contact at a time. If the next product would exceed maxLInfinityPoints the L∞
//    space is not built (limitExceeded, ε = 0, not force closure) — unless pruneLInfinity is set: then the sum
//    so far is first cut back to its hull vertices (exact, since hull(A ⊕ B) = hull(vert A ⊕ vert B)), at
//    the price of an extra 6-D hull. 6-D hulls of Minkowski sums are slow (hundreds of points take a
//    second, thousands tens of seconds: most sums are vertices and the sets are highly degenerate), hence
//    the default limit of 2000 points, which covers two soft or three point contacts; raise it (and set
//    pruneLInfinity) for offline analysis.
// Any subset of the six coordinates can be used (at least 2); hyperplanes are re-expanded to 6-D with
// zeros in the unused coordinates.
#include <array>
#include <vector>

#include "grasp/WrenchHull.h"

namespace sg {

enum class GwsType { L1, LInfinity };
const char* toString(GwsType type);

struct GwsSettings {
  std::array<bool, 6> dimensions = {true, true, true, true, true, true};  // fx fy fz τx τy τz
  std::size_t maxLInfinityPoints = 2000;
  bool pruneLInfinity = false;
  HullOptions hull;
  // Added to the force part of every L1 wrench (GraspIt!'s "gravity" test term, 0.5·ẑ_world in the object
  // frame). Unlike GraspIt! (QUALITY.md §Wrench spaces) it goes to the force coordinates whatever dimensions are used.
  Vec3 l1ForceOffset = Vec3::Zero();
};

struct GraspWrenchSpace {
  GwsType type = GwsType::L1;
  std::array<bool, 6> dimensions = {true, true, true, true, true, true};
  WrenchHull hull;                          // in the packed (used) coordinates
  std::vector<Hyperplane> hyperplanes6;     // the same facets, expanded to 6-D
  std::size_t inputPointCount = 0;          // points given to the final hull
  bool limitExceeded = false;               // L∞ only: too many points, not built
  int usedDimensionCount() const;
};

GraspWrenchSpace buildL1Gws(const std::vector<std::vector<Vec6>>& perContactWrenches, const GwsSettings& settings = {});
GraspWrenchSpace buildLInfinityGws(const std::vector<std::vector<Vec6>>& perContactWrenches,
                                   const GwsSettings& settings = {});
GraspWrenchSpace buildGws(GwsType type, const std::vector<std::vector<Vec6>>& perContactWrenches,
                          const GwsSettings& settings = {});

}  // namespace sg
