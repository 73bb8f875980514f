#pragma once
// Contact points between two meshes closer than a threshold (README.md §Contact points): vertex–face and
// edge–edge pairs per close triangle pair, inward normals, duplicate removal and compaction of each normal
// group to the convex hull of its points, then the normal sanity flip. World frame, mm.
#include <vector>

#include "core/Transform.h"
#include "geometry/Bvh.h"
#include "geometry/Proximity.h"

namespace sg {

struct ContactQueryOptions {
  double threshold_mm = 0.2;           // GraspIt!'s Contact::THRESHOLD
  double duplicateRadius_mm = 3.0;     // CONTACT_DUPLICATE_THRESHOLD
  bool compact = true;                 // reduce each normal group to its convex hull
  double normalGroupCosine = 1 - 1e-3;  // normals closer than this belong to one group
  double minPointSpacing_mm = 0.316227766016838;  // √0.1: closer points in a group are merged
  double collinearTolerance_mm = 0.1;
  bool keepRawPoints = false;          // also return every point before duplicate removal (MeshContacts::rawPoints)
  // Report points of intersecting triangle pairs too, instead of ending the query as colliding (the touching
  // point of a pair that only touches, PenetrationContact.h).
  bool acceptIntersecting = false;
};

struct ContactPoint {
  Vec3 p_WCa_mm = Vec3::Zero(), p_WCb_mm = Vec3::Zero();  // world, on each surface
  Vec3 nA_W = Vec3::UnitZ(), nB_W = -Vec3::UnitZ();    // world, unit, into A / into B
  double distance_mm = 0;
  bool edgeEdge = false;  // false: a vertex–face pair
};

struct MeshContacts {
  bool colliding = false;  // a triangle pair intersects: no points are reported (an illegal state)
  std::vector<ContactPoint> points;
  // With keepRawPoints: every vertex–face and edge–edge point closer than the threshold, normals fixed, in
  // generation order — exactly what the query with a smaller threshold t, duplicate radius 0 and no
  // compaction generates, once the points at distance ≥ t are dropped (the culls only skip features provably
  // beyond the threshold; src/geometry/README.md §Contact points).
  std::vector<ContactPoint> rawPoints;
};

// With `witness`: when it is valid and its triangle pair still intersects at these poses, the query ends as
// colliding at once (what the full traversal returns then); otherwise it runs in full and the witness becomes
// the intersecting pair it stopped at, or invalid. The result is the same with or without a witness.
MeshContacts meshContacts(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                          const ContactQueryOptions& options = {}, IntersectionWitness* witness = nullptr);

// The steps after point generation, exposed for tests and other generators.
std::vector<ContactPoint> removeDuplicateContacts(std::vector<ContactPoint> points, double radius_mm);
std::vector<ContactPoint> compactContacts(const std::vector<ContactPoint>& points, const ContactQueryOptions& options);
void fixContactNormals(std::vector<ContactPoint>& points);

// Indices of the convex hull of 2-D points, counter-clockwise, collinear points dropped (monotone chain).
std::vector<std::size_t> convexHull2d(const std::vector<Vec2>& points, double tolerance = 1e-9);

}  // namespace sg
