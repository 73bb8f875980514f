#pragma once
// Bounding-volume hierarchy over one mesh's triangles, in the mesh's body frame (mm). Built once per mesh
// (see BvhCache.h) and queried by Proximity.h under arbitrary world poses. Every node stores an oriented
// box; with BoxFit::Aligned the axes are the body axes (an AABB tree), with BoxFit::Oriented they are the
// principal axes of the node's triangles (area-weighted covariance, an OBB tree). The query code is the
// same for both (a box in one body's frame is an oriented box in the other's).
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "geometry/CompactBox.h"
#include "geometry/TriangleMesh.h"
#include "geometry/TriangleTriangle.h"

namespace sg {

enum class BoxFit { Aligned, Oriented };

// Default chosen by tests/bench/bench_contacts: one-triangle OBB leaves gave the fastest collision and
// contact queries (1.5–2× AABB trees) at ~1.6× the AABB build time.
struct BvhOptions {
  BoxFit fit = BoxFit::Oriented;
  int maxLeafTriangles = 1;  // a node with at most this many triangles is a leaf
};

struct BvhBox {
  Vec3 center = Vec3::Zero();
  Mat3 axes = Mat3::Identity();    // columns: unit box axes (body frame)
  Vec3 halfExtents = Vec3::Zero();  // mm, along the axes
  double radius = 0;                // mm: a sphere about `center` holding the node's triangles (cheap pre-test)
};

// The gap (mm) between two balls (a BvhBox's centre and radius, placed in one frame), less a margin for the
// rounding of the centres, the radii and this test: when it exceeds x ≥ 0, the balls are farther apart than x.
inline double ballGapLowerBound(const Vec3& cA, double rA, const Vec3& cB, double rB) {
  return (cA - cB).norm() - rA - rB - 1e-9 * (cA.norm() + cB.norm() + rA + rB + 1.0);
}

struct BvhNode {
  BvhBox box;
  std::int32_t firstChild = -1;  // children at firstChild and firstChild + 1; −1 for a leaf
  std::uint32_t firstTriangle = 0, triangleCount = 0;  // leaf range in Bvh::triangles()
  bool isLeaf() const { return firstChild < 0; }
};

class Bvh {
 public:
  Bvh() = default;
  explicit Bvh(const TriangleMesh& mesh, const BvhOptions& options = {});

  bool empty() const { return nodes_.empty(); }
  const std::vector<BvhNode>& nodes() const { return nodes_; }
  // The same nodes in single precision (CompactBox.h), for the distance traversal.
  const std::vector<CompactNode>& compactNodes() const { return compactNodes_; }
  // mm: no node centre is farther from the body origin than this less the node's radius (which bounds its
  // half extents); the float gap's rounding margin scales with it (compactGapMargin).
  double coordinateScale() const { return coordinateScale_; }
  // Triangles in leaf order (body frame), with their index in the source mesh and outward unit normal.
  const std::vector<TrianglePoints>& triangles() const { return triangles_; }
  const std::vector<std::uint32_t>& sourceIndex() const { return sourceIndex_; }
  const std::vector<Vec3>& normals() const { return normals_; }
  // Outward in-plane edge normals per triangle (triangleEdgeNormals), for the distance bounds.
  const std::vector<std::array<Vec3, 3>>& edgeNormals() const { return edgeNormals_; }
  // Distinct mesh vertices (body frame), for inside tests and penetration estimates.
  const std::vector<Vec3>& vertices() const { return vertices_; }
  // The source mesh's triangles incident to vertex v (mesh indices, ascending): vertex normals and other
  // per-vertex work over a neighbourhood without a pass over the whole mesh. Empty for an unknown vertex.
  std::pair<const std::uint32_t*, const std::uint32_t*> trianglesAtVertex(std::uint32_t v) const {
    if (static_cast<std::size_t>(v) + 1 >= vertexTriangleStart_.size()) return {nullptr, nullptr};
    return {vertexTriangles_.data() + vertexTriangleStart_[v], vertexTriangles_.data() + vertexTriangleStart_[v + 1]};
  }
  // The source mesh's triangles as corner indices into vertices() (mesh order, as sourceIndex() and
  // trianglesAtVertex number them): which vertices an edge joins (the penetration estimate's components).
  const std::vector<TriangleMesh::Triangle>& sourceTriangles() const { return sourceTriangles_; }
  const AlignedBox& bounds() const { return bounds_; }
  const BvhOptions& options() const { return options_; }

 private:
  void build(std::uint32_t nodeIndex, std::uint32_t first, std::uint32_t count, std::vector<Vec3>& centroids);
  BvhBox fitBox(std::uint32_t first, std::uint32_t count) const;

  BvhOptions options_;
  std::vector<BvhNode> nodes_;
  std::vector<CompactNode> compactNodes_;
  double coordinateScale_ = 0;
  std::vector<TrianglePoints> triangles_;
  std::vector<std::uint32_t> sourceIndex_;
  std::vector<Vec3> normals_;
  std::vector<std::array<Vec3, 3>> edgeNormals_;
  std::vector<Vec3> vertices_;
  std::vector<std::uint32_t> vertexTriangleStart_, vertexTriangles_;  // CSR: triangles per mesh vertex
  std::vector<TriangleMesh::Triangle> sourceTriangles_;
  AlignedBox bounds_;
};

}  // namespace sg
