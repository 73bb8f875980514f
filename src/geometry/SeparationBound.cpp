#include "geometry/SeparationBound.h"

#include <algorithm>
#include <limits>

#include "geometry/ProximityTraversal.h"
#include "geometry/TriangleTriangle.h"

namespace sg {

double meshSeparationBound(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB, double cap_mm) {
  double bound = std::numeric_limits<double>::infinity();
  if (a.empty() || b.empty()) return bound;
  detail::PairFrame frame(a, X_WA, b, X_WB);
  bool within = false;  // a triangle pair within the cap: no bound above it
  detail::traverseNodePairs(
      frame, a, b,
      [&](std::uint32_t ia, std::uint32_t ib) {
        // Any value above the cap that nodeGap returns is still a lower bound on the nodes' distance.
        const double gap = frame.compactGap(ia, ib);
        if (!(gap > cap_mm)) return false;
        bound = std::min(bound, gap);
        return true;
      },
      [&](const BvhNode& A, const BvhNode& B) {
        for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j)
          for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i) {
            double d = frame.triangleLowerBound(i, j);
            if (!(d > cap_mm)) d = triangleDistance(frame.triangleA(i), frame.triangleB(j)).distance;
            if (!(d > cap_mm)) return within = true;
            bound = std::min(bound, d);
          }
        return false;
      });
  if (within) return 0.0;
  return bound;
}

}  // namespace sg
