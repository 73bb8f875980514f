#include "contact/patch/SupportSet.h"

#include <array>
#include <cmath>
#include <numbers>
#include <unordered_map>
#include <utility>

#include "geometry/ShapeQueries.h"
#include "geometry/TriangleTriangle.h"

namespace sg {

namespace {

// Two unit vectors spanning the plane normal to d.
std::pair<Vec3, Vec3> planeBasis(const Vec3& d) {
  const Vec3 helper = std::abs(d.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 e1 = d.cross(helper).normalized();
  return {e1, d.cross(e1)};
}

// The box cap: vertices at height ≥ c and the crossings of the edges with the plane at height c (shape frame).
std::vector<Vec3> boxCap(const Box& box, const Vec3& d, double c) {
  const Vec3 e = box.halfExtents_mm();
  std::array<Vec3, 8> v;
  for (int i = 0; i < 8; ++i) v[i] = Vec3((i & 1) ? e.x() : -e.x(), (i & 2) ? e.y() : -e.y(), (i & 4) ? e.z() : -e.z());
  std::vector<Vec3> out;
  for (const Vec3& p : v)
    if (p.dot(d) >= c) out.push_back(p);
  for (int i = 0; i < 8; ++i)
    for (int bit : {1, 2, 4}) {
      const int j = i | bit;
      if (j == i) continue;
      const double hi = v[i].dot(d) - c, hj = v[j].dot(d) - c;
      if ((hi < 0 && hj > 0) || (hi > 0 && hj < 0)) out.push_back(v[i] + (hi / (hi - hj)) * (v[j] - v[i]));
    }
  return out;
}

// The point of the convex shape's section {x·d = c} farthest along u (u ⟂ d), by Lagrangian duality: the
// support point in direction cos θ·u + sin θ·d has a height non-decreasing in θ; bisect θ for height c and
// interpolate between the two bracketing support points (both maximise the same tilted direction).
Vec3 sectionSupport(const Shape& shape, const Vec3& u, const Vec3& d, double c) {
  auto supportAt = [&](double theta) { return *supportPoint(shape, std::cos(theta) * u + std::sin(theta) * d); };
  double lo = -0.5 * std::numbers::pi, hi = 0.5 * std::numbers::pi;
  Vec3 pLo = supportAt(lo), pHi = supportAt(hi);
  if (pHi.dot(d) <= c) return pHi;  // the section is at (or above) the top: the top itself
  if (pLo.dot(d) >= c) return pLo;
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    const Vec3 p = supportAt(mid);
    if (p.dot(d) >= c) hi = mid, pHi = p; else lo = mid, pLo = p;
  }
  const double hLo = pLo.dot(d), hHi = pHi.dot(d);
  if (hHi - hLo <= 1e-15) return pHi;
  return pLo + ((c - hLo) / (hHi - hLo)) * (pHi - pLo);
}

std::vector<Vec3> curvedCap(const Shape& shape, const Vec3& d, double h, const ContactPatchSettings& s) {
  const auto [e1, e2] = planeBasis(d);
  std::vector<Vec3> out;
  const double heights[2] = {h - s.tolerance_mm, h - 1e-6 * s.tolerance_mm};
  for (double c : heights)
    for (int k = 0; k < s.curvedSamples; ++k) {
      const double a = 2 * std::numbers::pi * k / s.curvedSamples;
      out.push_back(sectionSupport(shape, std::cos(a) * e1 + std::sin(a) * e2, d, c));
    }
  return out;
}

// Grid cell of a point for the single-linkage search (cells of the link distance).
struct CellKey {
  long long x, y, z;
  bool operator==(const CellKey&) const = default;
};
struct CellKeyHash {
  std::size_t operator()(const CellKey& k) const {
    return std::hash<long long>()(k.x * 73856093LL ^ k.y * 19349663LL ^ k.z * 83492791LL);
  }
};
CellKey cellOf(const Vec3& p, double size) {
  return {static_cast<long long>(std::floor(p.x() / size)), static_cast<long long>(std::floor(p.y() / size)),
          static_cast<long long>(std::floor(p.z() / size))};
}

std::size_t findRoot(std::vector<std::size_t>& parent, std::size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

// The triangle (body frame) clipped to the slab lo ≤ x·d ≤ hi.
std::vector<Vec3> clipToSlab(const std::array<Vec3, 3>& tri, const Vec3& d, double lo, double hi) {
  std::vector<Vec3> poly(tri.begin(), tri.end());
  auto clip = [&](double sign, double bound) {  // keep sign·(x·d) ≤ sign·bound
    std::vector<Vec3> out;
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const Vec3& a = poly[i];
      const Vec3& b = poly[(i + 1) % poly.size()];
      const double fa = sign * (a.dot(d) - bound), fb = sign * (b.dot(d) - bound);
      if (fa <= 0) out.push_back(a);
      if ((fa < 0 && fb > 0) || (fa > 0 && fb < 0)) out.push_back(a + (fa / (fa - fb)) * (b - a));
    }
    poly = std::move(out);
  };
  clip(+1, hi);
  if (!poly.empty()) clip(-1, lo);
  return poly;
}

std::vector<Vec3> meshSlab(const TriangleMesh& mesh, const Vec3& d_B, const Vec3& witness_B, double tolerance,
                          double link) {
  const double h = witness_B.dot(d_B);
  const double lo = h - tolerance, hi = h + tolerance;
  std::vector<std::size_t> slab;
  std::vector<std::vector<Vec3>> pieces;
  std::size_t seed = 0;
  double seedDistance = std::numeric_limits<double>::infinity();
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const std::array<Vec3, 3> tri{mesh.triangleVertex(t, 0), mesh.triangleVertex(t, 1), mesh.triangleVertex(t, 2)};
    const double h0 = tri[0].dot(d_B), h1 = tri[1].dot(d_B), h2 = tri[2].dot(d_B);
    if (std::max({h0, h1, h2}) < lo || std::min({h0, h1, h2}) > hi) continue;
    std::vector<Vec3> piece = clipToSlab(tri, d_B, lo, hi);
    if (piece.empty()) continue;
    const double dist = closestPointOnTriangle(witness_B, tri[0], tri[1], tri[2]).distanceSquared;
    if (dist < seedDistance) seedDistance = dist, seed = slab.size();
    slab.push_back(t);
    pieces.push_back(std::move(piece));
  }
  if (slab.empty()) return {};
  // Single linkage of the clipped pieces: pieces with points closer than the link distance are one region
  // (shared vertices, cut edges, T-junctions of a tessellation); the region of the seed is the support set.
  std::vector<std::size_t> parent(pieces.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = i;
  std::unordered_map<CellKey, std::vector<std::pair<std::size_t, Vec3>>, CellKeyHash> grid;
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (const Vec3& p : pieces[i]) grid[cellOf(p, link)].emplace_back(i, p);
  for (const auto& [cell, entries] : grid)
    for (const auto& [i, p] : entries)
      for (long long dx = -1; dx <= 1; ++dx)
        for (long long dy = -1; dy <= 1; ++dy)
          for (long long dz = -1; dz <= 1; ++dz) {
            const auto near = grid.find({cell.x + dx, cell.y + dy, cell.z + dz});
            if (near == grid.end()) continue;
            for (const auto& [j, q] : near->second)
              if (j != i && (p - q).norm() <= link) parent[findRoot(parent, i)] = findRoot(parent, j);
          }
  std::vector<Vec3> out;
  const std::size_t root = findRoot(parent, seed);
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (findRoot(parent, i) == root) out.insert(out.end(), pieces[i].begin(), pieces[i].end());
  return out;
}

}  // namespace

const char* toString(SupportSetSource source) {
  switch (source) {
    case SupportSetSource::Primitive: return "primitive";
    case SupportSetSource::Mesh: return "mesh";
    case SupportSetSource::HalfSpace: return "half-space";
    case SupportSetSource::None: return "none";
  }
  return "none";
}

SupportSet bodySupportSet(const Body& body, const Transform& X_WB, const Vec3& d_W, const Vec3& witness_W_mm,
                          const ContactPatchSettings& settings) {
  SupportSet out;
  if (body.primitive && !std::holds_alternative<Torus>(body.primitive->shape)) {
    const Transform X_WS = X_WB * body.primitive->X_BS;
    const Shape& shape = body.primitive->shape;
    if (std::holds_alternative<HalfSpace>(shape)) {
      out.source = SupportSetSource::HalfSpace;
      out.unbounded = true;
      return out;
    }
    const Vec3 d_S = X_WS.rotation().inverse() * d_W;
    const double h = supportPoint(shape, d_S)->dot(d_S);
    const std::vector<Vec3> cap = std::holds_alternative<Box>(shape)
                                      ? boxCap(std::get<Box>(shape), d_S, h - settings.tolerance_mm)
                                      : curvedCap(shape, d_S, h, settings);
    for (const Vec3& p : cap) out.points_W_mm.push_back(X_WS * p);
    out.source = SupportSetSource::Primitive;
    return out;
  }
  if (!body.mesh || body.mesh->empty()) return out;
  const Transform X_BW = X_WB.inverse();
  const Vec3 d_B = X_BW.applyToVector(d_W);
  for (const Vec3& p : meshSlab(*body.mesh, d_B, X_BW * witness_W_mm, settings.tolerance_mm,
                                      settings.regionLinkDistance_mm))
    out.points_W_mm.push_back(X_WB * p);
  out.source = SupportSetSource::Mesh;
  return out;
}

}  // namespace sg
