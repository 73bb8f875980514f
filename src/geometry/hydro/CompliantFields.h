#pragma once
// Compliant volumes with their pressure fields (src/geometry/hydro/README.md §Fields): tetrahedral meshes of
// the analytic shapes and of closed triangle meshes, each carrying p = E·e(x) at its vertices (e = 0 on the
// original surface, 1 at the deepest point). Shape frame for the shape builders, body frame for the rest;
// mm and Pa.
#include "geometry/Shapes.h"
#include "geometry/TriangleMesh.h"
#include "geometry/hydro/VolumeMesh.h"

namespace sg {

struct CompliantFieldOptions {
  double modulus_Pa = 1e7;         // E: the pressure at the deepest point
  double resolutionHint_mm = 0;    // target edge length on the shape's representative circle; 0: coarsest
  double margin_mm = 0;            // δ: the mesh is inflated by δ, the zero level stays on the original surface
};

// Octahedron refinement with one interior vertex (the centre): level L from the hint (README.md §Sphere),
// 8·4ᴸ tets; e = 1 − r/R.
int sphereRefinementLevel(double radius_mm, double hint_mm);
VolumeMeshField makeSphereField(const Sphere& sphere, const CompliantFieldOptions& options);
// The sphere mesh scaled to the semi-axes; e = 1 − ‖S⁻¹x‖ (stiffer along short axes, as Drake's).
VolumeMeshField makeEllipsoidField(const Ellipsoid& ellipsoid, const CompliantFieldOptions& options);
// Medial-axis conforming: every tet lies in the region nearest one face, so e = distance to the nearest face / H
// (H = smallest half size) is exactly linear in every tet. The hint is ignored.
VolumeMeshField makeBoxField(const Box& box, const CompliantFieldOptions& options);
// Medial-axis conforming prism mesh with N = max(3, ⌈2πR/hint⌉) sides; e = distance to the boundary / min(R, L/2).
VolumeMeshField makeCylinderField(const Cylinder& cylinder, const CompliantFieldOptions& options);
// Interior vertices only on the medial segment; e = 1 − r/R, r = distance to the segment.
VolumeMeshField makeCapsuleField(const Capsule& capsule, const CompliantFieldOptions& options);
// Convex closed mesh: tets fanned from the centroid (the only interior vertex, p = E), surface p = 0; a margin
// inflates the surface vertices (InflateField.h).
VolumeMeshField makeConvexMeshField(const TriangleMesh& surface, const CompliantFieldOptions& options);
// Any closed mesh: tetrahedralizeClosedMesh (Tetrahedralize.h), then p = E·d/d_max with d the distance of
// each vertex to the surface (0 on it); a margin inflates the surface vertices (InflateField.h). Throws
// sg::Error when the mesher fails.
VolumeMeshField makeGeneralMeshField(const TriangleMesh& surface, const CompliantFieldOptions& options);
// The field of a tet mesh of the volume `surface` encloses: p = E·d/d_max, d = distance of each vertex to
// `surface` (vertices on it: 0). Throws sg::Error when no vertex is interior.
VolumeMeshField surfaceDistanceField(VolumeMesh mesh, const TriangleMesh& surface, double modulus_Pa);
// True when every vertex lies on the inner side of every face plane (within a relative tolerance).
bool isConvexMesh(const TriangleMesh& surface);

// Dispatch on the shape (cone: convex fan of its tessellation; torus: general mesh). The half-space has no
// mesh: sg::Error.
VolumeMeshField makeShapeField(const Shape& shape, const CompliantFieldOptions& options);

// Tets with (near) zero volume dropped, every tet positively oriented. Used by the builders.
void orientAndCleanTets(VolumeMesh& mesh);

}  // namespace sg
