#pragma once
// The primitive a convex piece is the tessellation of (README.md §Geometry: tessellated primitives): a cuboid,
// a sphere or a closed cylinder. MuJoCo collides primitives with their exact support functions (boxes with
// several contacts per face), where a mesh piece is scanned vertex by vertex in every MPR iteration.
#include <array>
#include <optional>
#include <vector>

#include "core/Transform.h"
#include "geometry/Shapes.h"

namespace sg::sim {

struct FittedPrimitive {
  Primitive primitive;      // in the piece's frame (mm)
  double deviation_mm = 0;  // largest distance between the piece's surface and the primitive's (an upper bound)
};

// The box, sphere or cylinder whose tessellation the convex piece (`vertices`, outward `triangles`) is, tried in
// that order:
// - a box: 8 vertices spanning a cuboid within `exact_mm` (deviation 0);
// - a sphere or cylinder: every vertex on its surface within `exact_mm` (a cylinder's caps may hold their centre
//   vertex), every face a cap or a chord of the side, and the primitive's surface at most
//   `relativeTolerance` × radius outside the faces (the sagitta of the tessellation).
// The primitive passes through the vertices, so it holds the piece (it is the shape the tessellation was made from).
std::optional<FittedPrimitive> fitPrimitive(const std::vector<Vec3>& vertices,
                                            const std::vector<std::array<int, 3>>& triangles, double exact_mm,
                                            double relativeTolerance);

}  // namespace sg::sim
