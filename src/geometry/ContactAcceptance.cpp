#include "geometry/ContactAcceptance.h"

#include "geometry/Bvh.h"
#include "geometry/ShapePairs.h"

namespace sg {

namespace {

// |X_WB · c| + r of a BVH's root ball; 0 for an empty BVH.
double ballExtent_mm(const Bvh& bvh, const Transform& X_WB) {
  if (bvh.empty()) return 0;
  const BvhBox& root = bvh.nodes().front().box;
  return (X_WB * root.center).norm() + root.radius;
}

// The root ball's extent as for meshes; the pose's origin for a side without geometry of its own.
double sideExtent_mm(const PairSide& s) {
  return s.bvh && !s.bvh->empty() ? ballExtent_mm(*s.bvh, s.X_WB) : s.X_WB.translation().norm();
}

}  // namespace

double contactScale_mm(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB) {
  return std::max(ballExtent_mm(a, X_WA), ballExtent_mm(b, X_WB));
}

double contactScale_mm(const PairSide& a, const PairSide& b) { return std::max(sideExtent_mm(a), sideExtent_mm(b)); }

}  // namespace sg
