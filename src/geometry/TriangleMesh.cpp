#include "geometry/TriangleMesh.h"

#include "core/Error.h"

namespace sg {

std::size_t TriangleMesh::finalize(double areaEps_mm2) {
  for (const auto& v : vertices)
    if (!v.allFinite()) throw Error("mesh has a non-finite vertex coordinate");
  std::vector<Triangle> kept;
  kept.reserve(triangles.size());
  faceNormals.clear();
  faceNormals.reserve(triangles.size());
  const auto n = vertices.size();
  for (const auto& t : triangles) {
    if (t[0] >= n || t[1] >= n || t[2] >= n)
      throw Error("mesh triangle refers to vertex " + std::to_string(std::max({t[0], t[1], t[2]})) +
                  " but there are only " + std::to_string(n) + " vertices");
    if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
    Vec3 c = (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]);
    double twiceArea = c.norm();
    if (!(0.5 * twiceArea > areaEps_mm2)) continue;
    kept.push_back(t);
    faceNormals.push_back(c / twiceArea);
  }
  std::size_t dropped = triangles.size() - kept.size();
  triangles = std::move(kept);
  bounds = AlignedBox{};
  for (const auto& t : triangles)
    for (int k = 0; k < 3; ++k) bounds.extend(vertices[t[k]]);
  return dropped;
}

void TriangleMesh::append(const TriangleMesh& other, const Mat3& R, const Vec3& t) {
  const auto base = static_cast<std::uint32_t>(vertices.size());
  for (const auto& v : other.vertices) vertices.push_back(R * v + t);
  for (const auto& tri : other.triangles) triangles.push_back({tri[0] + base, tri[1] + base, tri[2] + base});
  finalize(0.0);
}

void TriangleMesh::transform(const Mat3& R, const Vec3& t, const Vec3& scale) {
  for (auto& v : vertices) v = R * scale.cwiseProduct(v) + t;
  // A mirroring scale flips the winding; restore outward orientation.
  if (scale.prod() < 0)
    for (auto& tri : triangles) std::swap(tri[1], tri[2]);
  finalize(0.0);
}

double TriangleMesh::surfaceArea() const {
  double a = 0;
  for (const auto& t : triangles)
    a += 0.5 * (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]).norm();
  return a;
}

}  // namespace sg
