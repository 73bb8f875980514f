#pragma once
// Internal helpers shared by Proximity.cpp and ProximityContacts.cpp: the relative pose of mesh B in mesh
// A's frame, lower bounds on the distance between two BVH boxes (separating-axis gaps), and PairFrame, which
// maps the smaller mesh into the larger one's frame node by node as a traversal first touches it.
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "core/Transform.h"
#include "geometry/Bvh.h"

namespace sg::detail {

// Maps B's body frame into A's body frame: p_A = R·p_B + t.
struct RelativePose {
  Mat3 R;
  Vec3 t;
  RelativePose(const Transform& X_WA, const Transform& X_WB) {
    const Transform rel = X_WA.inverse() * X_WB;
    R = rel.rotationMatrix();
    t = rel.translation();
  }
  Vec3 apply(const Vec3& p) const { return R * p + t; }
  TrianglePoints apply(const TrianglePoints& tri) const { return {apply(tri[0]), apply(tri[1]), apply(tri[2])}; }
};

// The largest gap between the boxes along the 15 separating axes: a lower bound on their distance
// (≤ 0 when they overlap). Box b is given by its axes RB and centre cB in a's frame and its half extents.
// Any value above `stopAbove` may be returned as soon as one is found (callers only compare it with
// `stopAbove`); values at or below it are the bound. Written out in scalars: it is the inner loop of every
// traversal (README.md §Proximity), and Eigen's 3×3 expressions here compiled to twice the instructions.
inline double boxGapMapped(const BvhBox& a, const Mat3& RB, const Vec3& cB, const Vec3& eb, double stopAbove,
                           bool edgeAxes = true) {
  const Mat3& A = a.axes;
  const double dx = cB.x() - a.center.x(), dy = cB.y() - a.center.y(), dz = cB.z() - a.center.z();
  double R[3][3], absR[3][3], t[3];
  for (int i = 0; i < 3; ++i) {
    const double ax = A(0, i), ay = A(1, i), az = A(2, i);
    t[i] = ax * dx + ay * dy + az * dz;
    for (int j = 0; j < 3; ++j) {
      R[i][j] = ax * RB(0, j) + ay * RB(1, j) + az * RB(2, j);
      absR[i][j] = std::abs(R[i][j]) + 1e-12;
    }
  }
  const double ea[3] = {a.halfExtents.x(), a.halfExtents.y(), a.halfExtents.z()};
  const double e_b[3] = {eb.x(), eb.y(), eb.z()};
  // Along each box's three orthonormal face axes the gaps add in quadrature: |p − q|² ≥ Σ gap_i².
  double best = -std::numeric_limits<double>::infinity();
  double sumA = 0, sumB = 0;
  for (int i = 0; i < 3; ++i) {
    const double gap = std::abs(t[i]) - ea[i] - (e_b[0] * absR[i][0] + e_b[1] * absR[i][1] + e_b[2] * absR[i][2]);
    sumA += gap > 0 ? gap * gap : 0.0;
    best = std::max(best, gap);
  }
  for (int j = 0; j < 3; ++j) {
    const double gap = std::abs(t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j]) -
                       (ea[0] * absR[0][j] + ea[1] * absR[1][j] + ea[2] * absR[2][j]) - e_b[j];
    sumB += gap > 0 ? gap * gap : 0.0;
    best = std::max(best, gap);
  }
  const double sum = std::max(sumA, sumB);
  if (sum > 0) best = std::max(best, std::sqrt(sum));
  if (!edgeAxes || best > stopAbove) return best;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const double len2 = 1.0 - R[i][j] * R[i][j];
      if (len2 < 1e-10) continue;  // parallel axes: the face axes already cover it
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double ra = ea[i1] * absR[i2][j] + ea[i2] * absR[i1][j];
      const double rb = e_b[j1] * absR[i][j2] + e_b[j2] * absR[i][j1];
      const double num = std::abs(t[i2] * R[i1][j] - t[i1] * R[i2][j]) - ra - rb;
      if (num <= 0 && best >= 0) continue;  // cannot raise the bound: skip the division
      const double gap = num / std::sqrt(len2);
      if (gap > stopAbove) return gap;
      best = std::max(best, gap);
    }
  }
  return best;
}

// boxGap for two boxes in their own body frames, `rel` mapping b's frame into a's.
inline double boxGap(const BvhBox& a, const BvhBox& b, const RelativePose& rel, double stopAbove, bool edgeAxes = true) {
  return boxGapMapped(a, rel.R * b.axes, rel.R * b.center + rel.t, b.halfExtents, stopAbove, edgeAxes);
}

// A cheaper, looser lower bound than boxGap: the gap between the nodes' bounding spheres.
inline double sphereGap(const BvhBox& a, const BvhBox& b, const RelativePose& rel) {
  return (rel.apply(b.center) - a.center).norm() - a.radius - b.radius;
}

// Lower bound on the distance of two nodes for branch and bound: the sphere test first (it settles most
// far pairs for a tenth of the work), the 15-axis box test only when the spheres come within `stopAbove`.
inline double nodeGap(const BvhBox& a, const BvhBox& b, const RelativePose& rel, double stopAbove, bool edgeAxes = true) {
  const double sphere = sphereGap(a, b, rel);
  if (sphere > stopAbove) return sphere;
  return std::max(sphere, boxGap(a, b, rel, stopAbove, edgeAxes));
}

inline double boxVolume(const BvhBox& b) { return b.halfExtents.prod(); }

// Which node of a pair to split: the non-leaf one with the larger box.
inline bool splitFirst(const BvhNode& a, const BvhNode& b) {
  if (a.isLeaf()) return false;
  if (b.isLeaf()) return true;
  return boxVolume(a.box) >= boxVolume(b.box);
}

// Which node of a pair to split: the non-leaf one with the larger bounding sphere. (splitFirst's volume
// rule never splits a flat node — a plate's box has almost no volume — however wide it is.)
inline bool splitFirstByRadius(const BvhNode& a, const BvhNode& b) {
  if (a.isLeaf()) return false;
  if (b.isLeaf()) return true;
  return a.box.radius >= b.box.radius;
}

// A node box of the mapped mesh, in the frame mesh's body frame.
struct MappedBox {
  Mat3 axes;
  Vec3 center;
};

// Node gap (sphere test first, then the box axes) of a frame-mesh box `a` and a mapped box.
inline double nodeGapMapped(const BvhBox& a, const MappedBox& m, const BvhBox& b, double stopAbove, bool edgeAxes) {
  const double sphere = (m.center - a.center).norm() - a.radius - b.radius;
  if (sphere > stopAbove) return sphere;
  return std::max(sphere, boxGapMapped(a, m.axes, m.center, b.halfExtents, stopAbove, edgeAxes));
}

// A rigid motion p ↦ R·p + t in single precision, for mapping compact boxes: each element of R as a
// 4-lane splat, R's columns and t as vectors (lane 3 zero).
struct CompactMotion {
  simd::F4 splat[3][3];  // splat[k][m] = R(k, m) in every lane
  simd::F4 cols[3];
  simd::F4 t;
  CompactMotion() = default;
  CompactMotion(const Mat3& R, const Vec3& translation) {
    for (int k = 0; k < 3; ++k) {
      for (int m = 0; m < 3; ++m) {
        const float r = static_cast<float>(R(k, m));
        splat[k][m] = simd::F4{r, r, r, r};
      }
      cols[k] = simd::F4{static_cast<float>(R(0, k)), static_cast<float>(R(1, k)), static_cast<float>(R(2, k)), 0.0f};
    }
    t = simd::F4{static_cast<float>(translation.x()), static_cast<float>(translation.y()),
                 static_cast<float>(translation.z()), 0.0f};
  }
};

// Box b moved by m, in floats: its axis matrix R·B row by row and its centre R·c + t (~30 vector
// operations; the extra rounding is within compactGapMargin, README.md §Proximity).
inline CompactBox mapCompactBox(const CompactBox& b, const CompactMotion& m) {
  CompactBox r;
  for (int k = 0; k < 3; ++k) r.rows[k] = m.splat[k][0] * b.rows[0] + m.splat[k][1] * b.rows[1] + m.splat[k][2] * b.rows[2];
  r.center = m.cols[0] * SG_SPLAT(b.center, 0) + m.cols[1] * SG_SPLAT(b.center, 1) + m.cols[2] * SG_SPLAT(b.center, 2) + m.t;
  r.halfExtents = b.halfExtents;
  return r;
}

// Per-thread scratch of one query: a mesh's boxes, triangles and normals mapped by a rigid motion, each on
// first use (a stamp per entry says whether this query mapped it), and the traversal stacks. Reused by the
// thread's next query, so a warmed-up thread allocates nothing per query.
struct MappingScratch {
  std::uint32_t generation = 0;
  bool inUse = false;
  std::vector<std::uint32_t> nodeStamp, triangleStamp;
  std::vector<MappedBox> boxes;
  std::vector<CompactNode> compact;  // single precision, for the distance search (own stamps)
  std::vector<TrianglePoints> triangles;
  std::vector<Vec3> normals;
  std::vector<std::array<Vec3, 3>> edgeNormals;
  std::vector<std::uint64_t> stack;  // node pairs (a << 32 | b)
  struct DistanceItem {
    std::uint32_t a, b;
    double lowerBound;
  };
  std::vector<DistanceItem> distanceStack;
  // The slab certificate of a warm-started distance query (Proximity.cpp): candidate triangles, their
  // extreme corner projections and their rectangles across the direction.
  std::vector<double> extremeA, extremeB;
  std::vector<std::array<double, 4>> rectanglesA, rectanglesB;
  std::vector<std::uint32_t> candidatesA, candidatesB;
  // The certificate's vertex projections along its direction (body frames) and per-triangle stamps that
  // gather each candidate once (a stamp equal to candidateGeneration: already gathered by this collect).
  std::vector<double> projectionsA, projectionsB;
  std::vector<std::uint32_t> candidateStampA, candidateStampB;
  std::uint32_t candidateGeneration = 0;
};

// The two meshes of a pair query in one working frame: the mesh with more nodes stays in its body frame,
// the other is mapped into it lazily (a query touches a small part of a large mesh, and the small mesh's
// nodes are met again and again). Roles A and B are kept: triangleA/normalA are A's whichever is mapped.
class PairFrame {
 public:
  PairFrame(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB);
  ~PairFrame();
  PairFrame(const PairFrame&) = delete;
  PairFrame& operator=(const PairFrame&) = delete;

  // Lower bound on the distance of node ia of A and node ib of B (see nodeGap).
  double gap(std::uint32_t ia, std::uint32_t ib, double stopAbove, bool edgeAxes) {
    if (mapA_) return nodeGapMapped(b_.nodes()[ib].box, mappedBox(ia), a_.nodes()[ia].box, stopAbove, edgeAxes);
    return nodeGapMapped(a_.nodes()[ia].box, mappedBox(ib), b_.nodes()[ib].box, stopAbove, edgeAxes);
  }
  const TrianglePoints& triangleA(std::uint32_t i) { return mapA_ ? mappedTriangle(i) : a_.triangles()[i]; }
  const TrianglePoints& triangleB(std::uint32_t j) { return mapA_ ? b_.triangles()[j] : mappedTriangle(j); }
  const Vec3& normalA(std::uint32_t i) { return mapA_ ? mappedNormal(i) : a_.normals()[i]; }
  const Vec3& normalB(std::uint32_t j) { return mapA_ ? b_.normals()[j] : mappedNormal(j); }
  const std::array<Vec3, 3>& edgeNormalsA(std::uint32_t i) { return mapA_ ? mappedEdgeNormals(i) : a_.edgeNormals()[i]; }
  const std::array<Vec3, 3>& edgeNormalsB(std::uint32_t j) { return mapA_ ? b_.edgeNormals()[j] : mappedEdgeNormals(j); }
  // triangleDistanceLowerBound of triangle i of A and triangle j of B, with the edge normals.
  double triangleLowerBound(std::uint32_t i, std::uint32_t j) {
    return triangleDistanceLowerBound(triangleA(i), normalA(i), edgeNormalsA(i), triangleB(j), normalB(j), edgeNormalsB(j));
  }
  // Exactly triangleLowerBound(i, j) > threshold (triangleDistanceExceeds: often without the edge gaps).
  bool triangleBeyond(std::uint32_t i, std::uint32_t j, double threshold) {
    return triangleDistanceExceeds(triangleA(i), normalA(i), edgeNormalsA(i), triangleB(j), normalB(j), edgeNormalsB(j),
                                   threshold);
  }
  // The distance search's nodes (CompactBox.h): the frame mesh's own, the mapped mesh's mapped on first use.
  const CompactNode& compactA(std::uint32_t i) { return mapA_ ? mappedCompact(i) : a_.compactNodes()[i]; }
  const CompactNode& compactB(std::uint32_t j) { return mapA_ ? b_.compactNodes()[j] : mappedCompact(j); }
  // Lower bound on the distance of node ia of A and node ib of B: the compact boxes' face-axis gap less
  // its rounding margin.
  double compactGap(std::uint32_t ia, std::uint32_t ib) {
    const float g = mapA_ ? compactBoxGap(b_.compactNodes()[ib].box, mappedCompact(ia).box)
                          : compactBoxGap(a_.compactNodes()[ia].box, mappedCompact(ib).box);
    return static_cast<double>(g) - compactMargin_;
  }
  // Exactly compactGap(ia, ib) > limit, often without the second box's axes (compactBoxGapExceeds).
  bool compactGapExceeds(std::uint32_t ia, std::uint32_t ib, double limit) {
    return mapA_ ? compactBoxGapExceeds(b_.compactNodes()[ib].box, mappedCompact(ia).box, compactMargin_, limit)
                 : compactBoxGapExceeds(a_.compactNodes()[ia].box, mappedCompact(ib).box, compactMargin_, limit);
  }
  // The working frame in the world.
  const Transform& frameToWorld() const { return frameToWorld_; }
  MappingScratch& scratch() { return *s_; }
  // True when A is the mapped mesh (B's body frame is the working frame); `relative()` maps the mapped
  // mesh's body frame into the working frame.
  bool mapsA() const { return mapA_; }
  const RelativePose& relative() const { return rel_; }

 private:
  const MappedBox& mappedBox(std::uint32_t node) {
    if (s_->nodeStamp[node] != s_->generation) {
      const BvhBox& box = mapped_->nodes()[node].box;
      s_->boxes[node] = {rel_.R * box.axes, rel_.apply(box.center)};
      s_->nodeStamp[node] = s_->generation;
    }
    return s_->boxes[node];
  }
  const CompactNode& mappedCompact(std::uint32_t node) {
    CompactNode& c = s_->compact[node];
    if (c.stamp != s_->generation) {
      const CompactNode& n = mapped_->compactNodes()[node];
      c = n;
      c.box = mapCompactBox(n.box, compactRel_);
      c.stamp = s_->generation;
    }
    return c;
  }
  void mapTriangle(std::uint32_t t) {
    s_->triangles[t] = rel_.apply(mapped_->triangles()[t]);
    s_->normals[t] = rel_.R * mapped_->normals()[t];
    const auto& m = mapped_->edgeNormals()[t];
    s_->edgeNormals[t] = {rel_.R * m[0], rel_.R * m[1], rel_.R * m[2]};
    s_->triangleStamp[t] = s_->generation;
  }
  const TrianglePoints& mappedTriangle(std::uint32_t t) {
    if (s_->triangleStamp[t] != s_->generation) mapTriangle(t);
    return s_->triangles[t];
  }
  const Vec3& mappedNormal(std::uint32_t t) {
    if (s_->triangleStamp[t] != s_->generation) mapTriangle(t);
    return s_->normals[t];
  }
  const std::array<Vec3, 3>& mappedEdgeNormals(std::uint32_t t) {
    if (s_->triangleStamp[t] != s_->generation) mapTriangle(t);
    return s_->edgeNormals[t];
  }

  const Bvh& a_;
  const Bvh& b_;
  bool mapA_;
  const Bvh* mapped_;
  RelativePose rel_;  // the mapped mesh's body frame → the working frame
  Transform frameToWorld_;
  CompactMotion compactRel_;  // rel_ in floats
  double compactMargin_;      // compactGapMargin of the two meshes in the working frame
  MappingScratch* s_ = nullptr;
  std::unique_ptr<MappingScratch> own_;  // when this thread's scratch is already taken (nested queries)
};

// Depth-first over node pairs of the frame's two trees from the roots, on the frame's scratch stack: a pair
// for which `pruned(ia, ib)` is true is dropped; a pair of leaves goes to `leaves(A, B)`, which returns true to
// end the traversal; otherwise the node with the larger sphere is split (splitFirstByRadius). The collision,
// contact and separation-bound queries share it (their own tests are the two callbacks).
template <class Pruned, class Leaves>
void traverseNodePairs(PairFrame& frame, const Bvh& a, const Bvh& b, Pruned&& pruned, Leaves&& leaves) {
  const auto& na = a.nodes();
  const auto& nb = b.nodes();
  auto& stack = frame.scratch().stack;
  stack.clear();
  // Depth first, the second child pair next: taken at once rather than pushed and popped (the same order).
  std::uint64_t pair = 0;
  for (;;) {
    const std::uint32_t ia = static_cast<std::uint32_t>(pair >> 32), ib = static_cast<std::uint32_t>(pair);
    const BvhNode& A = na[ia];
    const BvhNode& B = nb[ib];
    if (!pruned(ia, ib)) {
      if (A.isLeaf() && B.isLeaf()) {
        if (leaves(A, B)) return;
      } else if (splitFirstByRadius(A, B)) {
        stack.push_back(std::uint64_t(A.firstChild) << 32 | ib);
        pair = std::uint64_t(A.firstChild + 1) << 32 | ib;
        continue;
      } else {
        stack.push_back(std::uint64_t(ia) << 32 | std::uint32_t(B.firstChild));
        pair = std::uint64_t(ia) << 32 | std::uint32_t(B.firstChild + 1);
        continue;
      }
    }
    if (stack.empty()) return;
    pair = stack.back();
    stack.pop_back();
  }
}

}  // namespace sg::detail
