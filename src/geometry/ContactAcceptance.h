#pragma once
// The contact threshold as every contact query applies it (src/contact/README.md §Acceptance margin): a distance
// is accepted up to the threshold plus a margin of round-off scaled with the magnitude of the pair's world
// coordinates. A distance that is nominally the threshold (a motion stepped onto it) is then accepted whatever
// the rounding of a rigid motion of the whole world, so a contact set does not change under such a motion.
// Detection's culls and tests (ProximityContacts.cpp, ShapePairs.cpp), the soft model's touching filter
// (contact/TouchingPoint.cpp) and the sensing outputs all compare against acceptedContactThreshold_mm with the
// pair's contactScale_mm.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/Transform.h"

namespace sg {

class Bvh;
struct PairSide;

// The margin in units of ε × the coordinate magnitude. A distance computed from world coordinates of magnitude S
// carries a few such units of round-off (pose composition, the transform into the working frame, closest-point
// arithmetic): the parallel jaw's pads, 0.2 mm from the box by construction, measure 0.2 mm − 8 units at
// S ≈ 100 mm. 256 leaves a 30-fold headroom over that, and stays far below any physical length (6e-11 mm at
// S = 1 m).
inline constexpr double kContactMarginRoundoffs = 256;

// The scale is clamped to [1 mm, ∞) (a non-finite scale counts as 1 mm: no margin is better than an infinite one).
inline double contactAcceptanceMargin_mm(double scale_mm) {
  const double s = std::isfinite(scale_mm) ? std::max(scale_mm, 1.0) : 1.0;
  return kContactMarginRoundoffs * std::numeric_limits<double>::epsilon() * s;
}

inline double acceptedContactThreshold_mm(double threshold_mm, double scale_mm) {
  return threshold_mm + contactAcceptanceMargin_mm(scale_mm);
}

// The largest world-coordinate magnitude two placed balls reach: max(|c_A| + r_A, |c_B| + r_B).
inline double ballPairScale_mm(const Vec3& cA_W, double rA, const Vec3& cB_W, double rB) {
  return std::max(cA_W.norm() + rA, cB_W.norm() + rB);
}

// The scale of a mesh pair: its root balls (a BVH's root box centre and radius) placed in the world.
double contactScale_mm(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB);
// The scale of a pair of ShapePairs.h sides: each side's root ball as above (a primitive's tessellation), its
// pose's origin when it has no BVH.
double contactScale_mm(const PairSide& a, const PairSide& b);

}  // namespace sg
