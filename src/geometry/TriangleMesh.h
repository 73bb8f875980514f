#pragma once
// Indexed triangle mesh in a body frame (mm), with per-face unit normals and an axis-aligned bounding box.
// Plain data: readers fill vertices/triangles and call finalize().
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Math.h"

namespace sg {

struct AlignedBox {
  Vec3 min = Vec3::Constant(std::numeric_limits<double>::infinity());
  Vec3 max = Vec3::Constant(-std::numeric_limits<double>::infinity());
  bool empty() const { return (min.array() > max.array()).any(); }
  void extend(const Vec3& p) { min = min.cwiseMin(p); max = max.cwiseMax(p); }
  Vec3 size() const { return empty() ? Vec3::Zero() : Vec3(max - min); }
  Vec3 center() const { return 0.5 * (min + max); }
};

struct TriangleMesh {
  using Triangle = std::array<std::uint32_t, 3>;

  std::vector<Vec3> vertices;        // mm, body frame
  std::vector<Triangle> triangles;   // counter-clockwise seen from outside
  std::vector<Vec3> faceNormals;     // unit outward normals, one per triangle (filled by finalize)
  AlignedBox bounds;                 // filled by finalize

  std::size_t triangleCount() const { return triangles.size(); }
  std::size_t vertexCount() const { return vertices.size(); }
  bool empty() const { return triangles.empty(); }

  // Drops degenerate triangles (repeated index, or area below areaEps_mm2), drops out-of-range
  // indices are an error; computes normals and bounds. Returns the number of triangles dropped.
  // Throws sg::Error (no file: the caller adds it) on out-of-range indices or non-finite vertices.
  std::size_t finalize(double areaEps_mm2 = 1e-12);

  // Appends another mesh transformed by (R, t).
  void append(const TriangleMesh& other, const Mat3& R = Mat3::Identity(), const Vec3& t = Vec3::Zero());
  // Applies p -> R·diag(scale)·p + t to every vertex and recomputes normals and bounds.
  void transform(const Mat3& R, const Vec3& t, const Vec3& scale = Vec3::Ones());

  Vec3 triangleVertex(std::size_t tri, int corner) const { return vertices[triangles[tri][corner]]; }
  double surfaceArea() const;
};

}  // namespace sg
