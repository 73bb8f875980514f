#pragma once
// Max's weighted term of every triangle corner of one mesh (the vertex normals of CurvatureEstimator.h),
// computed once per BVH and reused by every soft fit on that mesh (src/contact/README.md §Curvature estimators,
// OsculatingJet). The terms depend on the mesh alone; the contact's outward normal only selects which of them
// a vertex sums, so a fit reads them instead of recomputing each corner's edges, cross product and weight.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/Math.h"
#include "geometry/TriangleMesh.h"

namespace sg {

class Bvh;  // geometry/Bvh.h

// One corner of a triangle: e1, e2 the edges to the next two corners (counter-clockwise).
struct CornerNormalTerm {
  Vec3 w = Vec3::Zero();         // e1 × e2
  double wn = 0;                 // |e1 × e2|
  Vec3 weighted = Vec3::Zero();  // (e1 × e2) / (|e1|²·|e2|²), Max's term
  bool usable = false;           // |e1|²·|e2|² > 0 (else the corner adds nothing)
};

// The term of `tri`'s corner `corner` over `vertices` (indices out of range: not usable).
CornerNormalTerm cornerNormalTerm(const std::vector<Vec3>& vertices, const TriangleMesh::Triangle& tri, int corner);

// Adds `term` to `sum` unless it is not usable or (minFaceCosine > −1) its face is turned more than
// acos(minFaceCosine) away from `outward`. The one rule both the cached and the uncached normals use.
inline void addCornerNormalTerm(const CornerNormalTerm& term, const Vec3& outward, double minFaceCosine, Vec3& sum) {
  if (!term.usable) return;
  if (minFaceCosine > -1.0 && !(term.wn > 0 && term.w.dot(outward) >= minFaceCosine * term.wn)) return;
  sum += term.weighted;
}

// The terms of every corner of the mesh a BVH was built over (its own copy of the vertices and triangles).
class CornerNormalTerms {
 public:
  explicit CornerNormalTerms(const Bvh& bvh);
  // The BVH the terms were computed from: a caller checks it is the BVH it walks.
  const Bvh* source() const { return source_; }
  std::size_t triangleCount() const { return terms_.size(); }
  const std::array<CornerNormalTerm, 3>& triangle(std::uint32_t t) const { return terms_[t]; }

 private:
  const Bvh* source_;
  std::vector<std::array<CornerNormalTerm, 3>> terms_;
};

// Above this many triangles a mesh gets no terms (192 bytes per triangle: 48 MB at the limit, and a pass over
// the whole mesh on first use); its fits compute each corner's term as before, with the same result.
inline constexpr std::size_t kCornerNormalTermsMaxTriangles = 250'000;

// The terms of `bvh`, computed on first use and kept while the BVH lives. Keyed by the BVH object (address and
// a weak reference, as geometry/BvhCache.h keys meshes): another mesh, or the same mesh after clearBvhCache(),
// has another BVH and so gets fresh terms. Null BVH, or more than maxTriangles → null. Thread-safe.
std::shared_ptr<const CornerNormalTerms> cornerNormalTermsFor(const std::shared_ptr<const Bvh>& bvh,
                                                              std::size_t maxTriangles = kCornerNormalTermsMaxTriangles);
std::size_t cornerNormalTermsCacheSize();

}  // namespace sg
