#include "ShapeBuilders.h"

#include <cmath>
#include <map>
#include <utility>

namespace sg::zoo {
namespace {

using Index = std::uint32_t;

// Appends triangle (a, b, c), flipped if its normal points against `outward`.
void addOrientedTriangle(TriangleMesh& m, Index a, Index b, Index c, const Vec3& outward) {
  const Vec3 n = (m.vertices[b] - m.vertices[a]).cross(m.vertices[c] - m.vertices[a]);
  if (n.dot(outward) >= 0)
    m.triangles.push_back({a, b, c});
  else
    m.triangles.push_back({a, c, b});
}

}  // namespace

TriangleMesh lathe(const std::vector<Vec2>& profile, int segments) {
  TriangleMesh m;
  // ring[j][i]: vertex of profile point j at angle i (pole points share one vertex).
  std::vector<std::vector<Index>> ring(profile.size());
  for (std::size_t j = 0; j < profile.size(); ++j) {
    const double r = profile[j].x(), z = profile[j].y();
    if (r == 0.0) {
      const auto pole = static_cast<Index>(m.vertices.size());
      m.vertices.emplace_back(0, 0, z);
      ring[j].assign(segments, pole);
      continue;
    }
    for (int i = 0; i < segments; ++i) {
      const double phi = 2 * kPi * i / segments;
      ring[j].push_back(static_cast<Index>(m.vertices.size()));
      m.vertices.emplace_back(r * std::cos(phi), r * std::sin(phi), z);
    }
  }
  // Quad (i, j)-(i+1, j)-(i+1, j+1)-(i, j+1): normal = e_phi × (profile direction), outward for the
  // walking order documented in the header.
  for (std::size_t j = 0; j + 1 < profile.size(); ++j)
    for (int i = 0; i < segments; ++i) {
      const int i1 = (i + 1) % segments;
      const Index a = ring[j][i], b = ring[j][i1], c = ring[j + 1][i1], d = ring[j + 1][i];
      if (a != b) m.triangles.push_back({a, b, c});
      if (c != d) m.triangles.push_back({a, c, d});
    }
  m.finalize();
  return m;
}

TriangleMesh boxOnBase(double sx, double sy, double sz) {
  TriangleMesh m;
  for (int k = 0; k < 8; ++k)
    m.vertices.emplace_back((k & 1 ? 0.5 : -0.5) * sx, (k & 2 ? 0.5 : -0.5) * sy, k & 4 ? sz : 0.0);
  const Vec3 centre(0, 0, 0.5 * sz);
  // Each face as two triangles, oriented away from the centre.
  const int faces[6][4] = {{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    Vec3 faceCentre = Vec3::Zero();
    for (int k : f) faceCentre += m.vertices[k] / 4.0;
    const Vec3 outward = faceCentre - centre;
    addOrientedTriangle(m, f[0], f[1], f[2], outward);
    addOrientedTriangle(m, f[0], f[2], f[3], outward);
  }
  m.finalize();
  return m;
}

TriangleMesh torus(double R, double r, int nu, int nv) {
  TriangleMesh m;
  for (int i = 0; i < nu; ++i) {
    const double u = 2 * kPi * i / nu;
    for (int j = 0; j < nv; ++j) {
      const double v = 2 * kPi * j / nv;
      const double w = R + r * std::cos(v);
      m.vertices.emplace_back(w * std::cos(u), w * std::sin(u), r * std::sin(v));
    }
  }
  auto at = [&](int i, int j) { return static_cast<Index>((i % nu) * nv + (j % nv)); };
  // d/du × d/dv points outward for this parameterisation (u about z, v around the tube from outside up).
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      m.triangles.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      m.triangles.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  m.finalize();
  return m;
}

TriangleMesh handleArc(const Vec3& c, double R, double r, double halfAngle, int arcSegments, int tubeSegments) {
  TriangleMesh m;
  const Vec3 y = Vec3::UnitY();
  auto centreLine = [&](double t) { return Vec3(c + R * Vec3(std::cos(t), 0, std::sin(t))); };
  for (int i = 0; i <= arcSegments; ++i) {
    const double t = -halfAngle + 2 * halfAngle * i / arcSegments;
    const Vec3 n(std::cos(t), 0, std::sin(t));
    for (int j = 0; j < tubeSegments; ++j) {
      const double s = 2 * kPi * j / tubeSegments;
      m.vertices.push_back(centreLine(t) + r * (std::cos(s) * n + std::sin(s) * y));
    }
  }
  auto at = [&](int i, int j) { return static_cast<Index>(i * tubeSegments + (j % tubeSegments)); };
  for (int i = 0; i < arcSegments; ++i)
    for (int j = 0; j < tubeSegments; ++j) {
      const double t = -halfAngle + 2 * halfAngle * (i + 0.5) / arcSegments;
      const double s = 2 * kPi * (j + 0.5) / tubeSegments;
      const Vec3 outward = std::cos(s) * Vec3(std::cos(t), 0, std::sin(t)) + std::sin(s) * y;
      addOrientedTriangle(m, at(i, j), at(i, j + 1), at(i + 1, j + 1), outward);
      addOrientedTriangle(m, at(i, j), at(i + 1, j + 1), at(i + 1, j), outward);
    }
  // End caps: fans around the centre-line end points, facing along the arc's tangent (outwards).
  for (int end = 0; end < 2; ++end) {
    const double t = end == 0 ? -halfAngle : halfAngle;
    const Vec3 tangent(-std::sin(t), 0, std::cos(t));
    const Vec3 outward = end == 0 ? Vec3(-tangent) : tangent;
    const auto centre = static_cast<Index>(m.vertices.size());
    m.vertices.push_back(centreLine(t));
    const int i = end == 0 ? 0 : arcSegments;
    for (int j = 0; j < tubeSegments; ++j) addOrientedTriangle(m, centre, at(i, j), at(i, j + 1), outward);
  }
  m.finalize();
  return m;
}

TriangleMesh icosphere(int level) {
  TriangleMesh m;
  const double g = (1 + std::sqrt(5.0)) / 2;
  const double base[12][3] = {{-1, g, 0}, {1, g, 0}, {-1, -g, 0}, {1, -g, 0}, {0, -1, g}, {0, 1, g},
                              {0, -1, -g}, {0, 1, -g}, {g, 0, -1}, {g, 0, 1}, {-g, 0, -1}, {-g, 0, 1}};
  for (const auto& p : base) m.vertices.push_back(Vec3(p[0], p[1], p[2]).normalized());
  m.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<Index, Index>, Index> midpoints;
    auto mid = [&](Index a, Index b) {
      const auto key = std::minmax(a, b);
      auto it = midpoints.find(key);
      if (it != midpoints.end()) return it->second;
      const auto idx = static_cast<Index>(m.vertices.size());
      m.vertices.push_back((m.vertices[a] + m.vertices[b]).normalized());
      midpoints.emplace(key, idx);
      return idx;
    };
    std::vector<TriangleMesh::Triangle> next;
    next.reserve(m.triangles.size() * 4);
    for (const auto& t : m.triangles) {
      const Index ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({t[1], bc, ab});
      next.push_back({t[2], ca, bc});
      next.push_back({ab, bc, ca});
    }
    m.triangles = std::move(next);
  }
  m.finalize();
  return m;
}

namespace {

// Deterministic value in [-1, 1] from a vertex index (integer hash): fine "scanner noise".
double hashNoise(std::uint32_t i) {
  i ^= i >> 16;
  i *= 0x7feb352dU;
  i ^= i >> 15;
  i *= 0x846ca68bU;
  i ^= i >> 16;
  return (i & 0xffffU) / 32767.5 - 1.0;
}

}  // namespace

TriangleMesh bumpyStone(int level, const Vec3& semiAxes, double amplitude) {
  TriangleMesh m = icosphere(level);
  // Fixed lumps and dents around twelve directions, gentle waviness, and a little per-vertex noise, like a
  // scanned pebble. All deterministic so every build writes the same file.
  const Vec3 lumpDirs[] = {Vec3(0.8, 0.3, 0.5),   Vec3(-0.4, 0.9, -0.2), Vec3(-0.3, -0.5, 0.8), Vec3(0.2, -0.9, -0.4),
                           Vec3(-0.9, 0.1, -0.3), Vec3(0.5, 0.6, -0.7),  Vec3(0.1, 0.2, 1.0),   Vec3(0.9, -0.4, 0.1),
                           Vec3(-0.6, -0.7, -0.3), Vec3(0.3, 0.9, 0.4),  Vec3(-0.2, -0.1, -1.0), Vec3(-0.7, 0.5, 0.6)};
  const double lumpHeights[] = {1.0, 0.7, -0.6, 0.8, -0.5, 0.6, 0.4, -0.45, 0.55, -0.35, 0.5, -0.4};
  const double lumpSharpness[] = {8, 10, 14, 9, 12, 11, 20, 16, 13, 18, 9, 15};
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    Vec3& v = m.vertices[i];
    double bump = 0;
    for (int k = 0; k < 12; ++k)
      bump += lumpHeights[k] * std::exp(-lumpSharpness[k] * (1.0 - v.dot(lumpDirs[k].normalized())));
    bump += 0.18 * std::sin(7 * v.x() + 2) * std::sin(9 * v.y() + 1) * std::sin(8 * v.z() + 3);
    bump += 0.06 * std::sin(17 * v.x() + 3 * v.z()) * std::sin(19 * v.y() - 5 * v.x());
    bump += 0.04 * hashNoise(static_cast<std::uint32_t>(i));
    const Vec3 surface = semiAxes.cwiseProduct(v);
    v = surface + amplitude * bump * v;  // displacement along the unit-sphere direction
  }
  m.finalize();
  return m;
}

double signedVolume(const TriangleMesh& mesh) {
  double v = 0;
  for (const auto& t : mesh.triangles)
    v += mesh.vertices[t[0]].dot(mesh.vertices[t[1]].cross(mesh.vertices[t[2]])) / 6.0;
  return v;
}

}  // namespace sg::zoo
