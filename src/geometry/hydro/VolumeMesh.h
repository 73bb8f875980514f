#pragma once
// A tetrahedral volume mesh with a piecewise-linear pressure field: the compliant representation of a body
// under the hydroelastic contact model (src/geometry/hydro/README.md). Plain data, body frame, mm and Pa.
#include <array>
#include <cstdint>
#include <vector>

#include "core/Transform.h"

namespace sg {

struct VolumeMesh {
  using Tet = std::array<std::uint32_t, 4>;
  std::vector<Vec3> vertices_mm;  // body frame
  // Positively oriented: (v1 − v0) · ((v2 − v0) × (v3 − v0)) > 0.
  std::vector<Tet> tets;

  std::size_t tetCount() const { return tets.size(); }
  std::size_t vertexCount() const { return vertices_mm.size(); }
};

// p(x) = E · e(x), linear inside each tet, given by its values at the mesh vertices.
struct VolumeMeshField {
  VolumeMesh mesh;
  std::vector<double> pressure_Pa;  // one per vertex: 0 on the surface, E at the deepest vertices
  double modulus_Pa = 0.0;          // E
};

}  // namespace sg
