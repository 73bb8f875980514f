#pragma once
// Internal helpers shared by Proximity.cpp and ProximityContacts.cpp: the relative pose of mesh B in mesh
// A's frame and a lower bound on the distance between two BVH boxes (separating-axis gaps).
#include <cmath>

#include "core/Transform.h"
#include "geometry/Bvh.h"

namespace sg::detail {

// Maps B's body frame into A's body frame: p_A = R·p_B + t.
struct RelativePose {
  Mat3 R;
  Vec3 t;
  RelativePose(const Transform& poseA, const Transform& poseB) {
    const Transform rel = poseA.inverse() * poseB;
    R = rel.rotationMatrix();
    t = rel.translation();
  }
  Vec3 apply(const Vec3& p) const { return R * p + t; }
  TrianglePoints apply(const TrianglePoints& tri) const { return {apply(tri[0]), apply(tri[1]), apply(tri[2])}; }
};

// The largest gap between the boxes along the 15 separating axes: a lower bound on their distance
// (≤ 0 when they overlap). Returns as soon as a gap exceeds `stopAbove`.
inline double boxGap(const BvhBox& a, const BvhBox& b, const RelativePose& rel, double stopAbove, bool edgeAxes = true) {
  const Mat3 RB = rel.R * b.axes;
  const Mat3 R = a.axes.transpose() * RB;
  const Vec3 t = a.axes.transpose() * (rel.R * b.center + rel.t - a.center);
  const Mat3 absR = R.cwiseAbs().array() + 1e-12;
  const Vec3& ea = a.halfExtents;
  const Vec3& eb = b.halfExtents;
  // Along each box's three orthonormal face axes the gaps add in quadrature: |p − q|² ≥ Σ gap_i².
  double best = -std::numeric_limits<double>::infinity();
  double sumA = 0, sumB = 0;
  const double stop2 = stopAbove > 0 ? stopAbove * stopAbove : 0.0;
  for (int i = 0; i < 3; ++i) {
    const double gap = std::abs(t[i]) - ea[i] - eb.dot(absR.row(i));
    if (gap > 0) sumA += gap * gap;
    best = std::max(best, gap);
  }
  if (sumA > stop2 && std::sqrt(sumA) > stopAbove) return std::sqrt(sumA);
  for (int j = 0; j < 3; ++j) {
    const double gap = std::abs(t.dot(R.col(j))) - ea.dot(absR.col(j)) - eb[j];
    if (gap > 0) sumB += gap * gap;
    best = std::max(best, gap);
  }
  if (sumB > stop2 && std::sqrt(sumB) > stopAbove) return std::sqrt(sumB);
  if (sumA > 0 || sumB > 0) best = std::max(best, std::sqrt(std::max(sumA, sumB)));
  if (!edgeAxes) return best;
  for (int i = 0; i < 3; ++i) {
    const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; ++j) {
      const double len2 = 1.0 - R(i, j) * R(i, j);
      if (len2 < 1e-10) continue;  // parallel axes: the face axes already cover it
      const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      const double ra = ea[i1] * absR(i2, j) + ea[i2] * absR(i1, j);
      const double rb = eb[j1] * absR(i, j2) + eb[j2] * absR(i, j1);
      const double gap = (std::abs(t[i2] * R(i1, j) - t[i1] * R(i2, j)) - ra - rb) / std::sqrt(len2);
      if (gap > stopAbove) return gap;
      best = std::max(best, gap);
    }
  }
  return best;
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

}  // namespace sg::detail
