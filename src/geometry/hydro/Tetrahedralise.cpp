#include "geometry/hydro/Tetrahedralise.h"

#include "core/Error.h"

namespace sg {

// Placeholder until the Gmsh-based mesher lands (issue 12): non-convex compliant meshes are refused with a
// clear error; primitives and convex meshes do not come here.
VolumeMesh tetrahedraliseClosedMesh(const TriangleMesh&, double) {
  throw Error("tetrahedral meshing of non-convex meshes is not available in this build");
}

}  // namespace sg
