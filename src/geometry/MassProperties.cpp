#include "geometry/MassProperties.h"

#include <cmath>

namespace sg {

std::optional<MeshMassProperties> computeMassProperties(const TriangleMesh& mesh, double minVolume_mm3) {
  // Integrals over the solid of 1, x, y, z, x², y², z², xy, yz, zx, accumulated per tetrahedron
  // (origin, a, b, c); exact for polynomials of degree two.
  double vol = 0;
  Vec3 first = Vec3::Zero();
  Mat3 second = Mat3::Zero();  // ∫ p pᵀ dV
  for (const auto& t : mesh.triangles) {
    const Vec3& a = mesh.vertices[t[0]];
    const Vec3& b = mesh.vertices[t[1]];
    const Vec3& c = mesh.vertices[t[2]];
    double v = a.dot(b.cross(c)) / 6.0;
    vol += v;
    first += v * (a + b + c) / 4.0;
    // ∫_tet p pᵀ = v/20 · (Σ vi viᵀ + (Σ vi)(Σ vi)ᵀ) with the origin as the fourth vertex.
    Vec3 s = a + b + c;
    second += v / 20.0 * (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
  }
  if (!std::isfinite(vol) || std::abs(vol) < minVolume_mm3) return std::nullopt;
  MeshMassProperties mp;
  mp.volume_mm3 = std::abs(vol);
  mp.centroid_mm = first / vol;
  Mat3 cov = second / vol - mp.centroid_mm * mp.centroid_mm.transpose();  // per unit mass, about centroid
  mp.inertiaPerMass_mm2 = cov.trace() * Mat3::Identity() - cov;
  if (!mp.centroid_mm.allFinite() || !mp.inertiaPerMass_mm2.allFinite()) return std::nullopt;
  return mp;
}

double maxRadius(const TriangleMesh& mesh, const Vec3& reference_mm) {
  double r2 = 0;
  for (const auto& v : mesh.vertices) r2 = std::max(r2, (v - reference_mm).squaredNorm());
  return std::sqrt(r2);
}

}  // namespace sg
