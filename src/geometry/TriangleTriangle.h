#pragma once
// Exact-predicate-free but carefully toleranced triangle primitives (mm): closest points between a point and
// a triangle, between two segments, and between two triangles; and a triangle–triangle intersection test
// (Möller's interval method with a 2-D fallback for coplanar triangles). All inputs share one frame.
#include <array>

#include "core/Math.h"

namespace sg {

using TrianglePoints = std::array<Vec3, 3>;

// Which part of a triangle a closest point lies on.
enum class TriangleFeature { Vertex0, Vertex1, Vertex2, Edge01, Edge12, Edge20, Face };
inline bool isVertexFeature(TriangleFeature f) {
  return f == TriangleFeature::Vertex0 || f == TriangleFeature::Vertex1 || f == TriangleFeature::Vertex2;
}

struct PointTriangleResult {
  Vec3 point = Vec3::Zero();  // closest point on the triangle
  TriangleFeature feature = TriangleFeature::Face;
  double distanceSquared = 0;
};
// Closest point on triangle (a, b, c) to p (Ericson, Real-Time Collision Detection §5.1.5). Degenerate
// triangles (zero area) are handled: the result is then the closest point on their edges.
PointTriangleResult closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

struct SegmentSegmentResult {
  Vec3 pointOnFirst = Vec3::Zero(), pointOnSecond = Vec3::Zero();
  double s = 0, t = 0;  // parameters in [0, 1] along p1→q1 and p2→q2
  double distanceSquared = 0;
};
// Closest points between segments p1q1 and p2q2 (Ericson §5.1.9), robust to degenerate and parallel segments.
SegmentSegmentResult closestSegmentSegment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

// True when the closed triangles share at least one point (touching counts). Degenerate triangles are
// treated as the segments/points they collapse to only approximately: they never crash, and a
// zero-area triangle intersects another only if it pierces or touches it.
bool trianglesIntersect(const TrianglePoints& t1, const TrianglePoints& t2);

struct TriangleDistanceResult {
  double distance = 0;       // 0 when the triangles intersect
  Vec3 pointOnFirst = Vec3::Zero(), pointOnSecond = Vec3::Zero();
  bool intersecting = false;
};
// A cheap lower bound on the distance between two triangles from the plane of each: unit normals n1, n2
// (any unit vector is valid; the triangle's own normal gives the tight bound). Used to skip
// triangleDistance for pairs that cannot beat the best distance so far.
double triangleDistanceLowerBound(const TrianglePoints& t1, const Vec3& n1, const TrianglePoints& t2, const Vec3& n2);

// Outward unit in-plane normals of a triangle's edges (edge k runs from vertex k to vertex k + 1), for the
// tighter lower bound below; all zero for a degenerate or needle-thin triangle (its normal is unreliable).
std::array<Vec3, 3> triangleEdgeNormals(const TrianglePoints& t);
// The plane bound above, each side tightened by the edge normals m of its triangle: when the other triangle
// lies wholly outside an edge (gap g_e along the edge normal) as well as off the plane (gap g_n), the two
// orthogonal gaps add in quadrature, √(g_n² + g_e²). n: the triangle's unit normal (orthogonal to m).
double triangleDistanceLowerBound(const TrianglePoints& t1, const Vec3& n1, const std::array<Vec3, 3>& m1,
                                  const TrianglePoints& t2, const Vec3& n2, const std::array<Vec3, 3>& m2);
// Exactly `triangleDistanceLowerBound(t1, n1, m1, t2, n2, m2) > threshold`, cheaper when it is true: both
// plane gaps are tested before the edge gaps (each side's bound is at least its plane gap, in floating point
// too, so a plane gap above the threshold decides alone).
bool triangleDistanceExceeds(const TrianglePoints& t1, const Vec3& n1, const std::array<Vec3, 3>& m1,
                             const TrianglePoints& t2, const Vec3& n2, const std::array<Vec3, 3>& m2, double threshold);

// Minimum distance between two triangles with witness points: 6 vertex–face + 9 edge–edge candidates
// (exact for non-intersecting triangles); 0 with a common point when they intersect.
TriangleDistanceResult triangleDistance(const TrianglePoints& t1, const TrianglePoints& t2);

}  // namespace sg
