#pragma once
// Exact point queries on an analytic shape (Shapes.h), all in the shape frame S, mm (README.md §Analytic
// shapes). Closed forms except the ellipsoid's nearest point (a 1-D root by bisection to machine precision)
// and the torus's ray (a quartic, polished by Newton steps).
#include <optional>

#include "geometry/Shapes.h"

namespace sg {

// The surface point nearest to p, its unit outward normal and the signed distance of p (negative inside).
// Where the nearest point is not unique (the centre of a sphere, the axis of a cylinder, …) one of them is
// returned, deterministically. On an edge or apex the normal is the direction from the point to p when p is
// outside, else the normal of the face the point was projected to.
struct SurfaceProjection {
  Vec3 point_mm = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
  double signedDistance_mm = 0;
};
SurfaceProjection nearestSurfacePoint(const Shape& s, const Vec3& p_S);
double signedDistance(const Shape& s, const Vec3& p_S);
// Outward unit normal at (the surface point nearest to) p.
Vec3 outwardNormal(const Shape& s, const Vec3& p_S);
bool containsPoint(const Shape& s, const Vec3& p_S);  // signed distance ≤ 0

// First crossing of the surface along origin + t·direction with t ≥ 0 (direction need not be unit; t is in
// its units), with the outward normal there. A ray starting inside hits the surface on its way out.
struct RayHit {
  double t = 0;
  Vec3 point_mm = Vec3::Zero();
  Vec3 normal = Vec3::UnitZ();
};
std::optional<RayHit> intersectRay(const Shape& s, const Vec3& origin_S, const Vec3& direction_S);

// A point of the shape farthest along `direction` (support mapping). For the torus, the support point of
// its convex hull (on the torus). nullopt for the half-space (unbounded) and a zero direction.
std::optional<Vec3> supportPoint(const Shape& s, const Vec3& direction_S);

// Principal curvatures (1/mm, positive where the surface bends away from its outward normal, i.e. convex)
// and unit principal directions at the surface point nearest to p. kMax ≥ kMin; dirMin = normal × dirMax.
// On a face of a box, cone or cylinder cap both are 0; on an edge or apex the face the nearest point was
// projected to decides (an edge has no finite curvature).
struct SurfaceCurvature {
  double kMax_per_mm = 0, kMin_per_mm = 0;
  Vec3 dirMax = Vec3::UnitX(), dirMin = Vec3::UnitY();
  Vec3 point_mm = Vec3::Zero(), normal = Vec3::UnitZ();
};
SurfaceCurvature surfaceCurvature(const Shape& s, const Vec3& p_S);

// A sphere bounding the shape (centre, radius); radius +∞ for the half-space.
struct BoundingSphere {
  Vec3 center_mm = Vec3::Zero();
  double radius_mm = 0;
};
BoundingSphere boundingSphere(const Shape& s);

}  // namespace sg
