#include "geometry/Primitives.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sg {

namespace {
using Tri = TriangleMesh::Triangle;
std::uint32_t u32(std::size_t i) { return static_cast<std::uint32_t>(i); }
}  // namespace

TriangleMesh makeBox(const Vec3& size) {
  TriangleMesh m;
  const Vec3 h = 0.5 * size;
  for (int i = 0; i < 8; ++i)
    m.vertices.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  // Each face as a CCW quad seen from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({u32(q[0]), u32(q[1]), u32(q[2])});
    m.triangles.push_back({u32(q[0]), u32(q[2]), u32(q[3])});
  }
  m.finalize(0.0);
  return m;
}

TriangleMesh makeIcosphere(double r, int subdivisions) {
  TriangleMesh m;
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  const double base[12][3] = {{-1, t, 0}, {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                              {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
  for (const auto& b : base) m.vertices.push_back(Vec3(b[0], b[1], b[2]).normalized());
  std::vector<Tri> tris = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                           {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                           {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int s = 0; s < std::max(0, subdivisions); ++s) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> midpoints;
    auto mid = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      auto it = midpoints.find(key);
      if (it != midpoints.end()) return it->second;
      m.vertices.push_back((m.vertices[a] + m.vertices[b]).normalized());
      const auto idx = u32(m.vertices.size() - 1);
      midpoints.emplace(key, idx);
      return idx;
    };
    std::vector<Tri> next;
    next.reserve(tris.size() * 4);
    for (const auto& tr : tris) {
      const auto a = mid(tr[0], tr[1]), b = mid(tr[1], tr[2]), c = mid(tr[2], tr[0]);
      next.push_back({tr[0], a, c});
      next.push_back({tr[1], b, a});
      next.push_back({tr[2], c, b});
      next.push_back({a, b, c});
    }
    tris = std::move(next);
  }
  for (auto& v : m.vertices) v *= r;
  m.triangles = std::move(tris);
  m.finalize(0.0);
  return m;
}

TriangleMesh makeUvSphere(double r, int slices, int stacks) {
  slices = std::max(3, slices);
  stacks = std::max(2, stacks);
  TriangleMesh m;
  m.vertices.emplace_back(0, 0, r);  // north pole
  for (int i = 1; i < stacks; ++i) {
    const double phi = kPi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double th = 2 * kPi * j / slices;
      m.vertices.emplace_back(r * std::sin(phi) * std::cos(th), r * std::sin(phi) * std::sin(th), r * std::cos(phi));
    }
  }
  m.vertices.emplace_back(0, 0, -r);  // south pole
  const auto south = u32(m.vertices.size() - 1);
  auto ring = [&](int i, int j) { return u32(1 + (i - 1) * slices + (j % slices)); };
  for (int j = 0; j < slices; ++j) m.triangles.push_back({0, ring(1, j), ring(1, j + 1)});
  for (int i = 1; i < stacks - 1; ++i)
    for (int j = 0; j < slices; ++j) {
      m.triangles.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
      m.triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
    }
  for (int j = 0; j < slices; ++j) m.triangles.push_back({south, ring(stacks - 1, j + 1), ring(stacks - 1, j)});
  m.finalize(0.0);
  return m;
}

TriangleMesh makeCylinder(double r, double height, int slices) {
  slices = std::max(3, slices);
  TriangleMesh m;
  const double hz = 0.5 * height;
  for (int j = 0; j < slices; ++j) {
    const double th = 2 * kPi * j / slices;
    m.vertices.emplace_back(r * std::cos(th), r * std::sin(th), -hz);
    m.vertices.emplace_back(r * std::cos(th), r * std::sin(th), hz);
  }
  m.vertices.emplace_back(0, 0, -hz);
  m.vertices.emplace_back(0, 0, hz);
  const auto bottom = u32(2 * slices), top = bottom + 1;
  for (int j = 0; j < slices; ++j) {
    const auto b0 = u32(2 * j), t0 = b0 + 1, b1 = u32(2 * ((j + 1) % slices)), t1 = b1 + 1;
    m.triangles.push_back({b0, b1, t1});
    m.triangles.push_back({b0, t1, t0});
    m.triangles.push_back({bottom, b1, b0});
    m.triangles.push_back({top, t0, t1});
  }
  m.finalize(0.0);
  return m;
}

TriangleMesh makeTorus(double R, double r, int nu, int nv, double bumpAmplitude, int bumps) {
  nu = std::max(3, nu);
  nv = std::max(3, nv);
  TriangleMesh m;
  for (int i = 0; i < nu; ++i) {
    const double u = 2 * kPi * i / nu;
    for (int j = 0; j < nv; ++j) {
      const double v = 2 * kPi * j / nv;
      const double rr = r + bumpAmplitude * std::sin(bumps * u) * std::sin(bumps * v);
      m.vertices.emplace_back((R + rr * std::cos(v)) * std::cos(u), (R + rr * std::cos(v)) * std::sin(u),
                              rr * std::sin(v));
    }
  }
  auto idx = [&](int i, int j) { return u32((i % nu) * nv + (j % nv)); };
  for (int i = 0; i < nu; ++i)
    for (int j = 0; j < nv; ++j) {
      m.triangles.push_back({idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)});
      m.triangles.push_back({idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)});
    }
  m.finalize(0.0);
  return m;
}

TriangleMesh makePlane(double size, int divisions) {
  divisions = std::max(1, divisions);
  TriangleMesh m;
  for (int i = 0; i <= divisions; ++i)
    for (int j = 0; j <= divisions; ++j)
      m.vertices.emplace_back(size * (double(i) / divisions - 0.5), size * (double(j) / divisions - 0.5), 0.0);
  auto idx = [&](int i, int j) { return u32(i * (divisions + 1) + j); };
  for (int i = 0; i < divisions; ++i)
    for (int j = 0; j < divisions; ++j) {
      m.triangles.push_back({idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)});
      m.triangles.push_back({idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)});
    }
  m.finalize(0.0);
  return m;
}

}  // namespace sg
