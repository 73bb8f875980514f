#pragma once
// Hydroelastic contact surfaces between placed bodies (src/geometry/hydro/README.md §Algorithms): the four
// pair types, each returning polygons in the world frame with normals out of N into M and the pressure of
// M's field at every vertex, then the surface's totals. Bodies are placed by world poses X_WM, X_WN (mm).
#include "geometry/Bvh.h"
#include "geometry/hydro/CompliantGeometry.h"
#include "geometry/hydro/ContactSurface.h"

namespace sg {

struct SurfaceOptions {
  bool triangulated = false;  // fan every polygon around its centroid (Drake's TriMeshBuilder)
  double mu = 0;              // friction coefficient of the pair, for the torsional limit
};

// (a) compliant tet mesh M vs rigid triangle mesh N (its BVH, N's body frame).
ContactSurface compliantRigidSurface(const SoftVolume& M, const Transform& X_WM, const Bvh& N, const Transform& X_WN,
                                     const SurfaceOptions& options);
// (b) compliant tet mesh M vs rigid half-space: the plane through p_W_mm with outward normal n_W (out of N).
ContactSurface compliantRigidHalfSpaceSurface(const SoftVolume& M, const Transform& X_WM, const Vec3& planePoint_W_mm,
                                              const Vec3& planeNormal_W, const SurfaceOptions& options);
// (c) compliant half-space M (in body M's frame) vs rigid triangle mesh N.
ContactSurface compliantHalfSpaceRigidSurface(const CompliantHalfSpace& M, const Transform& X_WM, const Bvh& N,
                                              const Transform& X_WN, const SurfaceOptions& options);
// (d) compliant vs compliant: the equal-pressure surface, pressure of M's field (= N's) at the vertices.
ContactSurface compliantCompliantSurface(const SoftVolume& M, const Transform& X_WM, const SoftVolume& N,
                                         const Transform& X_WN, const SurfaceOptions& options);

// Polygon area, centroid (fan around vertex 0, Drake's rule) and, with `triangulated`, the fan around the
// centroid; then the totals of ContactSurface. Used by the four queries; public for tests and builders.
void finishContactSurface(ContactSurface& surface, const SurfaceOptions& options);
// A finished polygon surface as triangles fanned around each polygon's centroid (no-op when already
// triangulated). The totals are kept: area, forces, centre of pressure and moment are the same to round-off.
void triangulateContactSurface(ContactSurface& surface);

}  // namespace sg
