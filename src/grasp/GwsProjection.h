#pragma once
// A 3-D slice of a 6-D grasp wrench space for display (QUALITY.md §GWS projection): fix 3 of the 6 coordinates
// (fx fy fz τx τy τz = 0..5) at chosen values, intersect the GWS half-spaces with that slice and build the
// 3-D hull of the result (vertices + outward triangles) in the 3 free coordinates.
// The half-space intersection is done by duality around an interior point of the slice (found by
// maximising the smallest slack), so the slice need not contain the origin.
#include <array>
#include <string>
#include <vector>

#include "grasp/WrenchHull.h"

namespace sg {

struct GwsProjectionSettings {
  std::array<int, 3> fixedCoordinates = {3, 4, 5};  // default: torques fixed → a force-space slice
  Vec3 fixedValues = Vec3::Zero();
  // Multiplies the output (GraspIt! scales by the object's max radius so torque axes read N·mm per N).
  double scale = 1.0;
};

struct GwsProjection {
  bool valid = false;
  std::string message;                       // why not, when !valid
  std::array<int, 3> freeCoordinates = {0, 1, 2};
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles; // counter-clockwise seen from outside
};

// hyperplanes6: the GWS facets in 6-D (GraspWrenchSpace::hyperplanes6). Throws sg::Error on invalid
// coordinates (not 3 distinct indices in 0..5); an empty slice or a hull failure gives valid = false.
GwsProjection projectGws(const std::vector<Hyperplane>& hyperplanes6, const GwsProjectionSettings& settings = {});

// How deep the origin of the free coordinates lies in the slice: the smallest n·v over its outward unit facet
// normals n (v a vertex of the facet), i.e. the distance to the nearest facet plane when the origin is inside
// (> 0), ≤ 0 when it is on or outside the boundary. Outward is decided against the vertices' centroid, so the
// triangles' winding does not matter. −∞ for an invalid or empty projection.
double originDepth(const GwsProjection& projection);

}  // namespace sg
