#pragma once
// Proximity queries between two meshes (through their BVHs) placed by world poses: boolean collision,
// minimum distance with witness points, point queries, and a penetration-depth estimate. Lengths mm.
// Contact-point generation is in ProximityContacts.h.
#include <cstdint>
#include <limits>

#include "core/Transform.h"
#include "geometry/Bvh.h"

namespace sg {

// True when any triangle of `a` intersects (or touches) any triangle of `b`.
bool meshesCollide(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB);

struct MeshDistance {
  double distance_mm = std::numeric_limits<double>::infinity();  // 0 when colliding; ∞ if a mesh is empty
  Vec3 p_WCa_mm = Vec3::Zero(), p_WCb_mm = Vec3::Zero();        // world frame witness points
  bool colliding = false;
  // The closest (or a colliding) triangle pair, as indices in each source mesh (Bvh::sourceIndex); 0 when
  // not found.
  std::uint32_t triangleA = 0, triangleB = 0;
  bool found() const { return distance_mm < std::numeric_limits<double>::infinity(); }
};
// Minimum distance by branch and bound. Pairs farther than `upperBound_mm` are pruned: if the true
// distance exceeds it the result is "not found" (distance ∞).
// The answer is canonical (the smallest distance, ties to the smaller triangle indices), whatever the
// traversal order or starting bound.
MeshDistance meshDistance(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                          double upperBound_mm = std::numeric_limits<double>::infinity());

// Temporal coherence for repeated distance queries of one mesh pair (README.md §Proximity): the closest
// triangle pair of the last query (leaf order, Bvh::triangles()). The next query evaluates that pair at the
// new poses first and uses its distance as the starting upper bound. One per mesh pair and per thread.
struct DistanceWarmStart {
  const Bvh* a = nullptr;
  const Bvh* b = nullptr;
  std::uint32_t triangleA = 0, triangleB = 0;
  bool valid = false;
};
// meshDistance warm-started from `warm`, which it then updates. Returns exactly what the cold query returns.
MeshDistance meshDistance(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                          DistanceWarmStart& warm, double upperBound_mm = std::numeric_limits<double>::infinity());

struct MeshClosestPoint {
  double distance_mm = std::numeric_limits<double>::infinity();
  Vec3 point_mm = Vec3::Zero();  // in the frame of the query point
  std::uint32_t triangle = 0;    // index in the source mesh
};
// Closest point of a mesh (placed by `X_WM`) to a world point.
MeshClosestPoint closestPointOnMesh(const Bvh& mesh, const Transform& X_WM, const Vec3& p_WQ_mm);
// Ray-parity inside test (three rays, majority vote); meaningful for closed meshes.
bool pointInsideMesh(const Bvh& mesh, const Transform& X_WM, const Vec3& p_WQ_mm);

struct PenetrationEstimate {
  double depth_mm = 0;                                 // 0 when no vertex of either mesh is inside the other
  Vec3 p_WCa_mm = Vec3::Zero(), p_WCb_mm = Vec3::Zero();  // world: deepest point and its surface witness
  Vec3 nA_W = Vec3::UnitZ();                        // direction that pushes A out of B (into A)
};
// For colliding closed meshes: the deepest vertex of either mesh inside the other, measured to the
// other's surface. An estimate (exact for a convex vertex region against a flat face), not the true
// translational penetration depth.
PenetrationEstimate estimatePenetration(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB);

// A triangle pair (BVH triangle indices of A and of B) that intersected in the last colliding query of the same
// two BVHs (README.md §Contact points, "Intersection witnesses"); held by the caller between queries of one pair.
struct IntersectionWitness {
  bool valid = false;
  std::uint32_t triangleA = 0, triangleB = 0;
};

struct SeparationResult {
  double separation_mm = std::numeric_limits<double>::infinity();  // negative = penetration estimate
  bool colliding = false;
  Vec3 p_WCa_mm = Vec3::Zero(), p_WCb_mm = Vec3::Zero();  // world
  Vec3 nA_W = Vec3::UnitZ(), nB_W = -Vec3::UnitZ();    // unit, into A / into B
};
// Signed separation (src/geometry/README.md §Proximity): the distance when apart, minus the
// penetration estimate when colliding, with witness points and inward normals on both sides.
// With `witness`: when it is valid, its triangle pair still intersects (the distance query's own test) and the
// penetration estimate is positive, the distance query is not run (its colliding answer is then certain and the
// estimate replaces its points); it becomes the intersecting pair the distance query stops at, or invalid. The
// result is the same with or without a witness.
SeparationResult signedSeparation(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                                  IntersectionWitness* witness = nullptr);

}  // namespace sg
