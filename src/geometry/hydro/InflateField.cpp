#include "geometry/hydro/InflateField.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include <Eigen/LU>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg {

namespace {
constexpr double kMaxInflation = 10;  // |u| / δ beyond which the mean normal is used instead
}  // namespace

Vec3 minimumInflation(const std::vector<Vec3>& normals, double margin_mm) {
  if (normals.empty() || margin_mm == 0) return Vec3::Zero();
  // Dual of min ½|u|² s.t. n_a·u ≥ δ: u = Σ λ_a n_a with λ ≥ 0. Coordinate descent on λ converges to the
  // unique primal optimum even when faces repeat (coplanar neighbours).
  std::vector<double> lambda(normals.size(), 0.0);
  Vec3 u = Vec3::Zero();
  for (int sweep = 0; sweep < 500; ++sweep) {
    double change = 0;
    for (std::size_t a = 0; a < normals.size(); ++a) {
      const double next = std::max(0.0, lambda[a] + (margin_mm - normals[a].dot(u)) / normals[a].squaredNorm());
      u += (next - lambda[a]) * normals[a];
      change = std::max(change, std::abs(next - lambda[a]));
      lambda[a] = next;
    }
    if (change <= 1e-14 * margin_mm) break;
  }
  double worst = std::numeric_limits<double>::infinity();
  for (const Vec3& n : normals) worst = std::min(worst, n.dot(u));
  if (worst > 0 && worst < margin_mm) u *= margin_mm / worst;  // what the iterations left unmet
  // No displacement meets every face when the normals surround the origin (a saddle of a coarse mesh), and
  // a needle-sharp apex would need a huge one: then δ along the mean normal, as far as there is one.
  if (!(worst > 0) || !(u.norm() <= kMaxInflation * margin_mm)) {
    Vec3 mean = Vec3::Zero();
    for (const Vec3& n : normals) mean += n;
    const double length = mean.norm();
    return length > 1e-9 * static_cast<double>(normals.size()) ? Vec3(margin_mm / length * mean) : Vec3::Zero();
  }
  return u;
}

void inflateField(VolumeMeshField& f, double margin_mm) {
  if (!(margin_mm >= 0) || !std::isfinite(margin_mm))
    throw Error("hydroelastic margin must be >= 0, found " + formatDouble(margin_mm));
  if (margin_mm == 0) return;
  VolumeMesh& m = f.mesh;
  // Boundary faces: those one tet owns. Key: the sorted vertex triple.
  struct FaceUse {
    int count = 0;
    std::size_t tet = 0;
    int opposite = 0;  // the tet's vertex not on the face
  };
  std::map<std::array<std::uint32_t, 3>, FaceUse> faces;
  for (std::size_t t = 0; t < m.tets.size(); ++t)
    for (int k = 0; k < 4; ++k) {
      std::array<std::uint32_t, 3> key = {m.tets[t][(k + 1) % 4], m.tets[t][(k + 2) % 4], m.tets[t][(k + 3) % 4]};
      std::sort(key.begin(), key.end());
      FaceUse& use = faces[key];
      ++use.count;
      use.tet = t;
      use.opposite = k;
    }
  std::vector<std::vector<Vec3>> normals(m.vertexCount());
  for (const auto& [key, use] : faces) {
    // A face of one tet on the original surface (p = 0 at its corners); a face left open by a dropped sliver
    // has an interior corner and stays.
    if (use.count != 1 || f.pressure_Pa[key[0]] != 0 || f.pressure_Pa[key[1]] != 0 || f.pressure_Pa[key[2]] != 0)
      continue;
    const Vec3 &a = m.vertices_mm[key[0]], &b = m.vertices_mm[key[1]], &c = m.vertices_mm[key[2]];
    Vec3 n = (b - a).cross(c - a);
    const double len = n.norm();
    if (!(len > 0)) continue;  // a sliver face: no direction to push
    n /= len;
    if (n.dot(m.vertices_mm[m.tets[use.tet][use.opposite]] - a) > 0) n = -n;  // outwards
    for (std::uint32_t v : key) normals[v].push_back(n);
  }
  // The field's gradient in every tet, before anything moves.
  std::vector<Vec3> gradient(m.tetCount(), Vec3::Zero());
  double meanSlope = 0;
  int slopes = 0;
  for (std::size_t t = 0; t < m.tetCount(); ++t) {
    const auto& tet = m.tets[t];
    Mat3 A;
    for (int k = 0; k < 3; ++k) A.row(k) = m.vertices_mm[tet[k + 1]] - m.vertices_mm[tet[0]];
    const Vec3 dp(f.pressure_Pa[tet[1]] - f.pressure_Pa[tet[0]], f.pressure_Pa[tet[2]] - f.pressure_Pa[tet[0]],
                  f.pressure_Pa[tet[3]] - f.pressure_Pa[tet[0]]);
    gradient[t] = A.partialPivLu().solve(dp);
    if (!gradient[t].allFinite()) gradient[t].setZero();
    if (gradient[t].squaredNorm() > 0) {
      meanSlope += gradient[t].norm();
      ++slopes;
    }
  }
  if (slopes > 0) meanSlope /= slopes;
  std::vector<std::vector<std::size_t>> tetsAt(m.vertexCount());
  for (std::size_t t = 0; t < m.tetCount(); ++t)
    for (std::uint32_t v : m.tets[t]) tetsAt[v].push_back(t);
  std::vector<Vec3> moved = m.vertices_mm;
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    if (normals[v].empty()) continue;
    const Vec3 u = minimumInflation(normals[v], margin_mm);
    moved[v] += u;
    double sum = 0;
    int n = 0;
    for (std::size_t t : tetsAt[v])
      if (gradient[t].squaredNorm() > 0) {
        sum += gradient[t].dot(u);
        ++n;
      }
    f.pressure_Pa[v] += n > 0 ? sum / n : -meanSlope * u.norm();
  }
  m.vertices_mm = std::move(moved);
}

}  // namespace sg
