#pragma once
// The edges of a 3-D point set's convex hull (Qhull, triangulated facets), for MeshTopology.h. Kept apart
// from the rest: libqhullcpp 8.0.2's headers compile as C++17 only (src/geometry/CMakeLists.txt).
#include <cstdint>
#include <utility>
#include <vector>

namespace sg {

// `coords`: x, y, z per point. Fills `edges` with both directions of every hull edge (point indices) and
// returns true; false (edges empty) when the points span no volume or Qhull fails.
bool convexHullEdges(const std::vector<double>& coords, std::vector<std::pair<std::uint32_t, std::uint32_t>>& edges);

}  // namespace sg
