#pragma once
// Shapes and small helpers shared by the soft-contact and quality tests.
#include <cmath>
#include <memory>

#include "contact/Contact.h"
#include "core/Math.h"
#include "geometry/Primitives.h"
#include "geometry/TriangleMesh.h"
#include "model/World.h"
#include "../support/PlacedBody.h"

namespace sgtest {

using namespace sg;

// Index of the mesh vertex nearest to p.
inline std::uint32_t nearestVertex(const TriangleMesh& m, const Vec3& p) {
  std::uint32_t best = 0;
  for (std::uint32_t i = 1; i < m.vertices.size(); ++i)
    if ((m.vertices[i] - p).squaredNorm() < (m.vertices[best] - p).squaredNorm()) best = i;
  return best;
}

// Closed cylinder along z with `rings` vertex rings along the side (sg::makeCylinder has none in between,
// and a paraboloid fit needs side vertices near the contact).
inline TriangleMesh makeRingedCylinder(double r, double h, int slices, int rings) {
  TriangleMesh m;
  for (int i = 0; i <= rings; ++i)
    for (int j = 0; j < slices; ++j) {
      const double th = 2 * kPi * j / slices;
      m.vertices.emplace_back(r * std::cos(th), r * std::sin(th), -h / 2 + h * i / rings);
    }
  auto v = [&](int i, int j) { return static_cast<std::uint32_t>(i * slices + (j % slices)); };
  for (int i = 0; i < rings; ++i)
    for (int j = 0; j < slices; ++j) {
      m.triangles.push_back({v(i, j), v(i, j + 1), v(i + 1, j + 1)});
      m.triangles.push_back({v(i, j), v(i + 1, j + 1), v(i + 1, j)});
    }
  const auto bottom = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.emplace_back(0, 0, -h / 2);
  const auto top = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.emplace_back(0, 0, h / 2);
  for (int j = 0; j < slices; ++j) {
    m.triangles.push_back({bottom, v(0, j + 1), v(0, j)});
    m.triangles.push_back({top, v(rings, j), v(rings, j + 1)});
  }
  m.finalize(0.0);
  return m;
}

inline PlacedBody makeBody(const std::string& name, BodyKind kind, TriangleMesh mesh, const Transform& pose,
                           std::optional<double> youngs_Pa = std::nullopt) {
  Body b;
  b.name = name;
  b.kind = kind;
  b.youngs_Pa = youngs_Pa;
  b.cog_mm = Vec3::Zero();
  double r2 = 0;
  for (const auto& p : mesh.vertices) r2 = std::max(r2, p.squaredNorm());
  b.maxRadius_mm = std::sqrt(r2);
  b.mesh = std::make_shared<const TriangleMesh>(std::move(mesh));
  return {b, pose};
}

// A contact with side 1 on body h1 at p1 (inward normal n1) and side 2 on h2 at p2 (normal −n1).
inline Contact makeContact(const BodyHandle& h1, const Vec3& p1, const Vec3& n1, const BodyHandle& h2,
                           const Vec3& p2, double mu, double separation = 0) {
  Contact c;
  c.side1.body = h1;
  c.side1.p_WC_mm = p1;
  c.side1.n_W = n1.normalized();
  c.side1.X_WC = contactFrame(p1, c.side1.n_W);
  c.side2.body = h2;
  c.side2.p_WC_mm = p2;
  c.side2.n_W = -n1.normalized();
  c.side2.X_WC = contactFrame(p2, c.side2.n_W);
  c.muStatic = mu;
  c.muKinetic = mu;
  c.separation_mm = separation;
  return c;
}

inline BodyHandle graspableHandle(int i) { return {BodyHandle::Kind::Graspable, i, {}}; }
inline BodyHandle obstacleHandle(int i) { return {BodyHandle::Kind::Obstacle, i, {}}; }

}  // namespace sgtest
