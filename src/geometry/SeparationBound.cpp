#include "geometry/SeparationBound.h"

#include <algorithm>
#include <limits>

#include "geometry/ProximityTraversal.h"
#include "geometry/TriangleTriangle.h"

namespace sg {

double meshSeparationBound(const Bvh& a, const Transform& poseA, const Bvh& b, const Transform& poseB, double cap_mm) {
  double bound = std::numeric_limits<double>::infinity();
  if (a.empty() || b.empty()) return bound;
  detail::PairFrame frame(a, poseA, b, poseB);
  const auto& na = a.nodes();
  const auto& nb = b.nodes();
  auto& stack = frame.scratch().stack;
  stack.clear();
  stack.push_back(0);
  while (!stack.empty()) {
    const std::uint32_t ia = static_cast<std::uint32_t>(stack.back() >> 32), ib = static_cast<std::uint32_t>(stack.back());
    stack.pop_back();
    const BvhNode& A = na[ia];
    const BvhNode& B = nb[ib];
    // Any value above the cap that nodeGap returns is still a lower bound on the nodes' distance.
    const double gap = frame.gap(ia, ib, cap_mm, true);
    if (gap > cap_mm) {
      bound = std::min(bound, gap);
      continue;
    }
    if (A.isLeaf() && B.isLeaf()) {
      for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j)
        for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i) {
          double d = frame.triangleLowerBound(i, j);
          if (!(d > cap_mm)) d = triangleDistance(frame.triangleA(i), frame.triangleB(j)).distance;
          if (!(d > cap_mm)) return 0.0;
          bound = std::min(bound, d);
        }
    } else if (detail::splitFirstByRadius(A, B)) {
      stack.push_back(std::uint64_t(A.firstChild) << 32 | ib);
      stack.push_back(std::uint64_t(A.firstChild + 1) << 32 | ib);
    } else {
      stack.push_back(std::uint64_t(ia) << 32 | std::uint32_t(B.firstChild));
      stack.push_back(std::uint64_t(ia) << 32 | std::uint32_t(B.firstChild + 1));
    }
  }
  return bound;
}

}  // namespace sg
