#pragma once
// Tetrahedral meshes of arbitrary closed triangle meshes (src/geometry/hydro/README.md §Meshing), for
// compliant bodies whose geometry is neither a primitive nor convex.
#include "geometry/TriangleMesh.h"
#include "geometry/hydro/VolumeMesh.h"

namespace sg {

// The volume enclosed by `surface` (closed, consistently oriented, body frame, mm) as tetrahedra whose
// edges are about `hint_mm` long (0: as coarse as the surface allows). Throws sg::Error naming the problem
// (open or self-intersecting surface, mesher failure).
VolumeMesh tetrahedralizeClosedMesh(const TriangleMesh& surface, double hint_mm);

}  // namespace sg
