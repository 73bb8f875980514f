#pragma once
// Volume, centroid and inertia of a closed triangle mesh by the divergence theorem (Mirtich-style
// volume integrals). Unlike GraspIt!, the centre of mass is the *volume* centroid, consistent with the
// inertia's reference point (src/geometry/README.md §Mass properties).
#include <optional>

#include "core/Math.h"
#include "geometry/TriangleMesh.h"

namespace sg {

struct MeshMassProperties {
  double volume_mm3 = 0;         // positive for an outward-oriented closed mesh
  Vec3 centroid_mm = Vec3::Zero();
  Mat3 inertiaPerMass_mm2 = Mat3::Zero();  // about the centroid, per unit mass (uniform density)
};

// nullopt when the mesh encloses (almost) no volume (open or flat meshes): |volume| < minVolume_mm3.
// An inward-oriented mesh (negative signed volume) is handled by flipping the sign.
std::optional<MeshMassProperties> computeMassProperties(const TriangleMesh& mesh, double minVolume_mm3 = 1e-5);

// Largest distance from `reference` to any vertex (GraspIt!'s maxRadius when reference is the CoG).
double maxRadius(const TriangleMesh& mesh, const Vec3& reference_mm);

}  // namespace sg
