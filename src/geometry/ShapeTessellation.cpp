#include "geometry/ShapeTessellation.h"

#include <algorithm>
#include <cmath>

#include "geometry/Primitives.h"

namespace sg {

namespace {

std::uint32_t vertexIndex(std::size_t i) { return static_cast<std::uint32_t>(i); }

// Surface of revolution about z of a profile (ρ, z) running from a point on the axis to another point on the
// axis (bottom to top, ρ ≥ 0): the end points become poles, the others rings of `segments` vertices.
TriangleMesh revolve(const std::vector<Vec2>& profile, int segments) {
  TriangleMesh m;
  const int rings = static_cast<int>(profile.size()) - 2;
  m.vertices.emplace_back(0, 0, profile.front().y());
  for (int i = 1; i <= rings; ++i)
    for (int j = 0; j < segments; ++j) {
      const double phi = 2 * kPi * j / segments;
      m.vertices.emplace_back(profile[i].x() * std::cos(phi), profile[i].x() * std::sin(phi), profile[i].y());
    }
  m.vertices.emplace_back(0, 0, profile.back().y());
  const auto top = vertexIndex(m.vertices.size() - 1);
  auto ring = [&](int i, int j) { return vertexIndex(1 + (i - 1) * segments + (j % segments)); };
  for (int j = 0; j < segments; ++j) {
    m.triangles.push_back({0, ring(1, j + 1), ring(1, j)});
    for (int i = 1; i < rings; ++i) {
      m.triangles.push_back({ring(i, j), ring(i, j + 1), ring(i + 1, j + 1)});
      m.triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i + 1, j)});
    }
    m.triangles.push_back({top, ring(rings, j), ring(rings, j + 1)});
  }
  return m;
}

// Icosphere level giving about `segments` vertices around a great circle (5·2^level).
int icosphereLevel(int segments) {
  int level = 0;
  while (level < 6 && 5 * (1 << level) < segments) ++level;
  return level;
}

TriangleMesh mesh(const Sphere& s, const TessellationOptions& o) { return makeIcosphere(s.radius_mm, icosphereLevel(o.segments)); }
TriangleMesh mesh(const Ellipsoid& s, const TessellationOptions& o) {
  TriangleMesh m = makeIcosphere(1.0, icosphereLevel(o.segments));
  m.transform(Mat3::Identity(), Vec3::Zero(), s.semiAxes_mm);
  return m;
}
TriangleMesh mesh(const Cylinder& s, const TessellationOptions& o) {
  const double h = 0.5 * s.height_mm;
  return revolve({{0, -h}, {s.radius_mm, -h}, {s.radius_mm, h}, {0, h}}, o.segments);
}
TriangleMesh mesh(const Cone& s, const TessellationOptions& o) {
  const double h = 0.5 * s.height_mm;
  // Intermediate rings along the slant keep the triangles from becoming needles near the apex.
  std::vector<Vec2> profile{{0, -h}};
  const int steps = std::max(1, o.segments / 8);
  for (int i = 0; i < steps; ++i) {
    const double f = static_cast<double>(i) / steps;
    profile.emplace_back(s.radius_mm * (1 - f), -h + f * s.height_mm);
  }
  profile.emplace_back(0, h);
  return revolve(profile, o.segments);
}
TriangleMesh mesh(const Box& s, const TessellationOptions&) { return makeBox(s.size_mm); }
TriangleMesh mesh(const Torus& s, const TessellationOptions& o) {
  const int minor = std::max(8, static_cast<int>(std::lround(o.segments * s.minorRadius_mm / s.majorRadius_mm)));
  return makeTorus(s.majorRadius_mm, s.minorRadius_mm, o.segments, std::min(minor, o.segments));
}
TriangleMesh mesh(const Capsule& s, const TessellationOptions& o) {
  const double h = 0.5 * s.length_mm, r = s.radius_mm;
  const int quarter = std::max(2, o.segments / 4);
  std::vector<Vec2> profile;
  for (int i = 0; i <= quarter; ++i) {  // bottom hemisphere, pole to equator
    const double a = -0.5 * kPi + 0.5 * kPi * i / quarter;
    profile.emplace_back(r * std::cos(a), -h + r * std::sin(a));
  }
  for (int i = (s.length_mm > 0 ? 0 : 1); i <= quarter; ++i) {  // top hemisphere, equator to pole
    const double a = 0.5 * kPi * i / quarter;
    profile.emplace_back(r * std::cos(a), h + r * std::sin(a));
  }
  profile.front().x() = 0;
  profile.back().x() = 0;
  return revolve(profile, o.segments);
}
TriangleMesh mesh(const HalfSpace&, const TessellationOptions& o) {
  const double e = o.halfSpaceExtent_mm;
  TriangleMesh m = makeBox(Vec3(e, e, e / 20));
  m.transform(Mat3::Identity(), Vec3(0, 0, -e / 40));
  return m;
}

}  // namespace

TriangleMesh tessellateShape(const Shape& shape, const TessellationOptions& options) {
  TriangleMesh m = std::visit([&](const auto& s) { return mesh(s, options); }, shape);
  m.finalize();
  return m;
}

TriangleMesh tessellatePrimitive(const Primitive& p, const TessellationOptions& options) {
  TriangleMesh m = tessellateShape(p.shape, options);
  m.transform(p.X_BS.rotationMatrix(), p.X_BS.translation());
  return m;
}

}  // namespace sg
