#pragma once
// Vertex-level data of a BVH's triangles for the warm-started distance query's slab certificate (README.md
// §Proximity): each triangle's corner indices, the triangles around each vertex, and the convex hull's
// vertices with their hull edges (support points by hill climbing). Body frame, mm. Built once per mesh
// (like its BVH) by whoever repeats distance queries on it (the planner's evaluator).
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/Math.h"
#include "geometry/Bvh.h"
#include "geometry/Proximity.h"

namespace sg {

struct MeshTopology {
  // Per triangle in leaf order (Bvh::triangles()): the indices of its corners in Bvh::vertices().
  std::vector<std::array<std::uint32_t, 3>> corners;
  // The triangles (leaf order) with a corner at vertex v: vertexTriangles[vertexTriangleStart[v] ..
  // vertexTriangleStart[v + 1]).
  std::vector<std::uint32_t> vertexTriangleStart, vertexTriangles;
  // The vertices (indices into Bvh::vertices()) of the convex hull of all vertices (Qhull), and per hull
  // vertex k its neighbours along hull edges: hullNeighbours[hullNeighbourStart[k] .. hullNeighbourStart[k + 1]),
  // as positions in hullVertices. Empty when the vertices span no volume (a flat mesh): then supports scan
  // all vertices.
  std::vector<std::uint32_t> hullVertices, hullNeighbourStart, hullNeighbours;
  std::vector<Vec3> hullPoints;  // the hull vertices' coordinates, in hullVertices' order
  std::vector<std::int32_t> hullPosition;  // per vertex: its position in hullVertices, −1 when not on the hull

  bool hasHull() const { return !hullVertices.empty(); }
  // A position in hullVertices to climb from near triangle i (leaf order): a hull corner of it, else 0.
  std::uint32_t hullStartNear(std::uint32_t triangle) const {
    for (std::uint32_t v : corners[triangle])
      if (hullPosition[v] >= 0) return static_cast<std::uint32_t>(hullPosition[v]);
    return 0;
  }
  // Position in hullVertices of a hull vertex maximising d·x, by climbing hull edges from position
  // `start` (on a convex polytope a vertex no neighbour beats is a global maximum; Qhull may leave out
  // vertices within its rounding of the hull, so it is a support up to that rounding). Requires hasHull().
  std::uint32_t climbSupport(const Vec3& d, std::uint32_t start) const;
};

// The topology of a BVH's triangles (corners matched to Bvh::vertices() by position).
MeshTopology makeMeshTopology(const Bvh& bvh);

// meshDistance warm-started from `warm` (Proximity.h), with the meshes' topologies: the slab certificate
// gathers its candidate triangles from the vertex projections and finds its direction by hull climbs
// instead of scanning every triangle and vertex. Returns exactly what the cold query returns.
MeshDistance meshDistance(const Bvh& a, const MeshTopology& topologyA, const Transform& X_WA, const Bvh& b,
                          const MeshTopology& topologyB, const Transform& X_WB, DistanceWarmStart& warm,
                          double upperBound_mm = std::numeric_limits<double>::infinity());

}  // namespace sg
