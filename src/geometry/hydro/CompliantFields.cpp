#include "geometry/hydro/CompliantFields.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "core/Error.h"
#include "core/NumberFormat.h"
#include "geometry/Bvh.h"
#include "geometry/Proximity.h"
#include "geometry/ShapeTessellation.h"
#include "geometry/hydro/InflateField.h"
#include "geometry/hydro/Tetrahedralize.h"

namespace sg {

namespace {

std::uint32_t addVertex(VolumeMesh& m, const Vec3& v) {
  m.vertices_mm.push_back(v);
  return static_cast<std::uint32_t>(m.vertices_mm.size() - 1);
}

void checkOptions(const CompliantFieldOptions& o) {
  if (!(o.modulus_Pa > 0) || !std::isfinite(o.modulus_Pa))
    throw Error("hydroelastic modulus must be > 0, found " + formatDouble(o.modulus_Pa));
  if (!(o.resolutionHint_mm >= 0) || !std::isfinite(o.resolutionHint_mm))
    throw Error("hydroelastic resolution hint must be >= 0, found " + formatDouble(o.resolutionHint_mm));
  if (!(o.margin_mm >= 0) || !std::isfinite(o.margin_mm))
    throw Error("hydroelastic margin must be >= 0, found " + formatDouble(o.margin_mm));
}

// Sides of a circle of radius r for the hint (≥ 3; the coarsest for hint 0).
int circleSides(double r, double hint) {
  if (hint <= 0) return 3;
  return std::clamp(static_cast<int>(std::ceil(2 * kPi * r / hint)), 3, 1024);
}

// A prism (a0 a1 a2)-(b0 b1 b2) as three tets (orientation fixed later).
void addPrism(VolumeMesh& m, std::uint32_t a0, std::uint32_t a1, std::uint32_t a2, std::uint32_t b0,
              std::uint32_t b1, std::uint32_t b2) {
  m.tets.push_back({a0, a1, a2, b0});
  m.tets.push_back({a1, a2, b0, b1});
  m.tets.push_back({a2, b0, b1, b2});
}

// The unit sphere's surface: octahedron split `level` times, every new vertex projected onto the sphere.
TriangleMesh unitSphereSurface(int level) {
  TriangleMesh s;
  s.vertices = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY(), Vec3::UnitZ(), -Vec3::UnitZ()};
  s.triangles = {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> mid;
    auto midpoint = [&](std::uint32_t a, std::uint32_t b) {
      const auto key = std::minmax(a, b);
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      s.vertices.push_back((s.vertices[a] + s.vertices[b]).normalized());
      const auto id = static_cast<std::uint32_t>(s.vertices.size() - 1);
      mid.emplace(key, id);
      return id;
    };
    std::vector<TriangleMesh::Triangle> next;
    next.reserve(s.triangles.size() * 4);
    for (const auto& t : s.triangles) {
      const std::uint32_t ab = midpoint(t[0], t[1]), bc = midpoint(t[1], t[2]), ca = midpoint(t[2], t[0]);
      next.push_back({t[0], ab, ca});
      next.push_back({ab, t[1], bc});
      next.push_back({ca, bc, t[2]});
      next.push_back({ab, bc, ca});
    }
    s.triangles = std::move(next);
  }
  return s;
}

// Fan of tets from the interior vertex `centre` over the surface triangles.
VolumeMesh fanMesh(const std::vector<Vec3>& surfaceVertices, const std::vector<TriangleMesh::Triangle>& triangles,
                   const Vec3& centre) {
  VolumeMesh m;
  m.vertices_mm = surfaceVertices;
  const std::uint32_t c = addVertex(m, centre);
  for (const auto& t : triangles) m.tets.push_back({c, t[0], t[1], t[2]});
  return m;
}

double tetSignedVolume6(const VolumeMesh& m, const VolumeMesh::Tet& t) {
  const Vec3& a = m.vertices_mm[t[0]];
  return (m.vertices_mm[t[1]] - a).dot((m.vertices_mm[t[2]] - a).cross(m.vertices_mm[t[3]] - a));
}

}  // namespace

void orientAndCleanTets(VolumeMesh& mesh) {
  AlignedBox box;
  for (const Vec3& v : mesh.vertices_mm) box.extend(v);
  const double scale = std::max(box.size().maxCoeff(), 1e-9);
  const double tiny = 1e-12 * scale * scale * scale;
  std::vector<VolumeMesh::Tet> kept;
  kept.reserve(mesh.tets.size());
  for (VolumeMesh::Tet t : mesh.tets) {
    const double v6 = tetSignedVolume6(mesh, t);
    if (std::abs(v6) <= tiny) continue;
    if (v6 < 0) std::swap(t[2], t[3]);
    kept.push_back(t);
  }
  mesh.tets = std::move(kept);
}

int sphereRefinementLevel(double radius_mm, double hint_mm) {
  if (!(hint_mm > 0)) return 0;
  const double s = std::min(hint_mm, 2 * radius_mm) / (2 * radius_mm);
  const int level = static_cast<int>(std::ceil(std::log2(kPi / std::asin(s)))) - 2;
  return std::clamp(level, 0, 8);
}

VolumeMeshField makeSphereField(const Sphere& sphere, const CompliantFieldOptions& o) {
  checkOptions(o);
  const double R = sphere.radius_mm, Ri = R + o.margin_mm;
  const TriangleMesh unit = unitSphereSurface(sphereRefinementLevel(Ri, o.resolutionHint_mm));
  std::vector<Vec3> surface;
  for (const Vec3& v : unit.vertices) surface.push_back(Ri * v);
  VolumeMeshField f;
  f.mesh = fanMesh(surface, unit.triangles, Vec3::Zero());
  orientAndCleanTets(f.mesh);
  f.modulus_Pa = o.modulus_Pa;
  for (const Vec3& v : f.mesh.vertices_mm) f.pressure_Pa.push_back(o.modulus_Pa * (1 - v.norm() / R));
  return f;
}

VolumeMeshField makeEllipsoidField(const Ellipsoid& e, const CompliantFieldOptions& o) {
  checkOptions(o);
  const Vec3 S = e.semiAxes_mm, Si = S.array() + o.margin_mm;
  const TriangleMesh unit = unitSphereSurface(sphereRefinementLevel(Si.maxCoeff(), o.resolutionHint_mm));
  std::vector<Vec3> surface;
  for (const Vec3& v : unit.vertices) surface.push_back(Si.cwiseProduct(v));
  VolumeMeshField f;
  f.mesh = fanMesh(surface, unit.triangles, Vec3::Zero());
  orientAndCleanTets(f.mesh);
  f.modulus_Pa = o.modulus_Pa;
  for (const Vec3& v : f.mesh.vertices_mm) f.pressure_Pa.push_back(o.modulus_Pa * (1 - v.cwiseQuotient(S).norm()));
  return f;
}

VolumeMeshField makeBoxField(const Box& box, const CompliantFieldOptions& o) {
  checkOptions(o);
  const Vec3 h = box.halfExtents_mm();
  const Vec3 hi = h.array() + o.margin_mm;  // inflated half sizes
  const double H = h.minCoeff(), Hi = hi.minCoeff();
  VolumeMeshField f;
  VolumeMesh& m = f.mesh;
  // Each face's nearest-face region is the hull of the face and of the medial "core" points at depth Hi
  // below its corners (x_u → sign·(hi_u − Hi)); it is convex, so a fan from an interior point over its
  // boundary triangles covers it, and the field (distance to that face) is linear in all those tets.
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {1, -1}) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      // Corners counter-clockwise seen from outside the face (normal sign·e_axis).
      const double su[4] = {1, -1, -1, 1}, sv[4] = {1, 1, -1, -1};
      std::uint32_t q[4], k[4];
      Vec3 faceCentre = Vec3::Zero(), coreCentre = Vec3::Zero();
      faceCentre[axis] = sign * hi[axis];
      coreCentre[axis] = sign * (hi[axis] - Hi);
      for (int i = 0; i < 4; ++i) {
        const int j = sign > 0 ? i : 3 - i;
        Vec3 p = faceCentre, c = coreCentre;
        p[u] = su[j] * hi[u];
        p[v] = sv[j] * hi[v];
        c[u] = su[j] * (hi[u] - Hi);
        c[v] = sv[j] * (hi[v] - Hi);
        q[i] = addVertex(m, p);
        k[i] = addVertex(m, c);
      }
      const std::uint32_t fc = addVertex(m, faceCentre);
      const std::uint32_t mid = addVertex(m, 0.5 * (faceCentre + coreCentre));
      for (int i = 0; i < 4; ++i) {
        const int n = (i + 1) % 4;
        m.tets.push_back({mid, fc, q[i], q[n]});
        m.tets.push_back({mid, q[i], q[n], k[n]});
        m.tets.push_back({mid, q[i], k[n], k[i]});
      }
      m.tets.push_back({mid, k[0], k[1], k[2]});
      m.tets.push_back({mid, k[0], k[2], k[3]});
    }
  }
  orientAndCleanTets(m);
  f.modulus_Pa = o.modulus_Pa;
  for (const Vec3& p : m.vertices_mm) {
    const double depth = (hi - p.cwiseAbs()).minCoeff();  // distance to the nearest inflated face
    f.pressure_Pa.push_back(o.modulus_Pa * (depth - o.margin_mm) / H);
  }
  return f;
}

VolumeMeshField makeCylinderField(const Cylinder& c, const CompliantFieldOptions& o) {
  checkOptions(o);
  const double R = c.radius_mm, l = 0.5 * c.height_mm, H = std::min(R, l);
  const double Ri = R + o.margin_mm, li = l + o.margin_mm, Hi = std::min(Ri, li);
  const int N = circleSides(Ri, o.resolutionHint_mm);
  VolumeMeshField f;
  VolumeMesh& m = f.mesh;
  std::vector<std::uint32_t> top(N), bot(N), coreRing;
  for (int i = 0; i < N; ++i) {
    const double a = 2 * kPi * i / N;
    top[i] = addVertex(m, {Ri * std::cos(a), Ri * std::sin(a), li});
    bot[i] = addVertex(m, {Ri * std::cos(a), Ri * std::sin(a), -li});
  }
  const std::uint32_t capTop = addVertex(m, {0, 0, li}), capBot = addVertex(m, {0, 0, -li});
  if (li >= Ri) {
    // Long: the medial axis is the segment |z| ≤ li − Ri on the axis, with cones to the caps.
    const std::uint32_t aTop = addVertex(m, {0, 0, li - Ri}), aBot = addVertex(m, {0, 0, -(li - Ri)});
    for (int i = 0; i < N; ++i) {
      const int n = (i + 1) % N;
      m.tets.push_back({aTop, capTop, top[i], top[n]});
      m.tets.push_back({aBot, capBot, bot[n], bot[i]});
      addPrism(m, aTop, top[i], top[n], aBot, bot[i], bot[n]);
    }
  } else {
    // Short: the medial axis is the disc of radius Ri − li at z = 0.
    const std::uint32_t centre = addVertex(m, Vec3::Zero());
    for (int i = 0; i < N; ++i) {
      const double a = 2 * kPi * i / N;
      coreRing.push_back(addVertex(m, {(Ri - li) * std::cos(a), (Ri - li) * std::sin(a), 0}));
    }
    for (int i = 0; i < N; ++i) {
      const int n = (i + 1) % N;
      addPrism(m, capTop, top[i], top[n], centre, coreRing[i], coreRing[n]);
      addPrism(m, capBot, bot[i], bot[n], centre, coreRing[i], coreRing[n]);
      addPrism(m, coreRing[i], top[i], bot[i], coreRing[n], top[n], bot[n]);
    }
  }
  (void)Hi;
  orientAndCleanTets(m);
  f.modulus_Pa = o.modulus_Pa;
  for (const Vec3& p : m.vertices_mm) {
    const double depth = std::min(Ri - std::hypot(p.x(), p.y()), li - std::abs(p.z()));
    f.pressure_Pa.push_back(o.modulus_Pa * (depth - o.margin_mm) / H);
  }
  return f;
}

VolumeMeshField makeCapsuleField(const Capsule& c, const CompliantFieldOptions& o) {
  checkOptions(o);
  const double R = c.radius_mm, Ri = R + o.margin_mm, l = 0.5 * c.length_mm;
  const int N = circleSides(Ri, o.resolutionHint_mm);
  const int rings = std::max(1, (N + 3) / 4);  // latitude steps on each hemisphere
  VolumeMeshField f;
  VolumeMesh& m = f.mesh;
  const std::uint32_t eTop = addVertex(m, {0, 0, l}), eBot = addVertex(m, {0, 0, -l});
  // ringTop[k]: the ring at polar angle (k+1)·(π/2)/rings from the top pole; the last is the equator.
  auto hemisphere = [&](double sign, std::uint32_t end) {
    const std::uint32_t pole = addVertex(m, {0, 0, sign * (l + Ri)});
    std::vector<std::uint32_t> prev;
    for (int k = 1; k <= rings; ++k) {
      const double theta = 0.5 * kPi * k / rings;
      std::vector<std::uint32_t> ring(N);
      for (int i = 0; i < N; ++i) {
        const double a = 2 * kPi * i / N;
        ring[i] = addVertex(m, {Ri * std::sin(theta) * std::cos(a), Ri * std::sin(theta) * std::sin(a),
                                sign * (l + Ri * std::cos(theta))});
      }
      for (int i = 0; i < N; ++i) {
        const int n = (i + 1) % N;
        if (prev.empty()) {
          m.tets.push_back({end, pole, ring[i], ring[n]});
        } else {
          m.tets.push_back({end, prev[i], ring[i], ring[n]});
          m.tets.push_back({end, prev[i], ring[n], prev[n]});
        }
      }
      prev = std::move(ring);
    }
    return prev;  // the equator
  };
  const std::vector<std::uint32_t> top = hemisphere(1, eTop), bot = hemisphere(-1, eBot);
  if (l > 0)
    for (int i = 0; i < N; ++i) {
      const int n = (i + 1) % N;
      addPrism(m, eTop, top[i], top[n], eBot, bot[i], bot[n]);
    }
  orientAndCleanTets(m);
  f.modulus_Pa = o.modulus_Pa;
  for (const Vec3& p : m.vertices_mm) {
    const double z = std::clamp(p.z(), -l, l);
    f.pressure_Pa.push_back(o.modulus_Pa * (1 - (p - Vec3(0, 0, z)).norm() / R));
  }
  return f;
}

bool isConvexMesh(const TriangleMesh& s) {
  if (s.empty()) return false;
  const double tol = 1e-6 * std::max(s.bounds.size().maxCoeff(), 1e-9);
  for (std::size_t t = 0; t < s.triangles.size(); ++t) {
    const Vec3& a = s.vertices[s.triangles[t][0]];
    const Vec3& n = s.faceNormals[t];
    for (const Vec3& v : s.vertices)
      if ((v - a).dot(n) > tol) return false;
  }
  return true;
}

VolumeMeshField makeConvexMeshField(const TriangleMesh& s, const CompliantFieldOptions& o) {
  checkOptions(o);
  if (s.empty()) throw Error("a compliant mesh needs triangles");
  // The area-weighted surface centroid: inside a convex mesh.
  Vec3 centre = Vec3::Zero();
  double area = 0;
  for (std::size_t t = 0; t < s.triangles.size(); ++t) {
    const Vec3 a = s.triangleVertex(t, 0), b = s.triangleVertex(t, 1), c = s.triangleVertex(t, 2);
    const double A = 0.5 * (b - a).cross(c - a).norm();
    centre += A * (a + b + c) / 3;
    area += A;
  }
  if (!(area > 0)) throw Error("a compliant mesh needs a non-zero surface area");
  centre /= area;
  VolumeMeshField f;
  f.mesh = fanMesh(s.vertices, s.triangles, centre);
  orientAndCleanTets(f.mesh);
  if (f.mesh.tets.empty()) throw Error("a compliant convex mesh encloses no volume");
  f.modulus_Pa = o.modulus_Pa;
  f.pressure_Pa.assign(f.mesh.vertices_mm.size(), 0.0);
  f.pressure_Pa.back() = o.modulus_Pa;
  inflateField(f, o.margin_mm);
  return f;
}

VolumeMeshField makeGeneralMeshField(const TriangleMesh& s, const CompliantFieldOptions& o) {
  checkOptions(o);
  VolumeMeshField f = surfaceDistanceField(tetrahedralizeClosedMesh(s, o.resolutionHint_mm), s, o.modulus_Pa);
  inflateField(f, o.margin_mm);
  return f;
}

VolumeMeshField surfaceDistanceField(VolumeMesh mesh, const TriangleMesh& s, double modulus_Pa) {
  VolumeMeshField f;
  f.mesh = std::move(mesh);
  orientAndCleanTets(f.mesh);
  if (f.mesh.tets.empty()) throw Error("the tetrahedral mesh of a compliant body has no tets");
  const Bvh bvh(s);
  const double onSurface = 1e-6 * std::max(s.bounds.size().maxCoeff(), 1e-9);
  std::vector<double> d(f.mesh.vertices_mm.size());
  double dMax = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double di = closestPointOnMesh(bvh, Transform{}, f.mesh.vertices_mm[i]).distance_mm;
    d[i] = di <= onSurface ? 0.0 : di;
    dMax = std::max(dMax, d[i]);
  }
  if (!(dMax > 0)) throw Error("the tetrahedral mesh of a compliant body has no interior vertex");
  f.modulus_Pa = modulus_Pa;
  for (double di : d) f.pressure_Pa.push_back(modulus_Pa * di / dMax);
  return f;
}

VolumeMeshField makeShapeField(const Shape& shape, const CompliantFieldOptions& o) {
  if (const std::string problem = shapeProblem(shape); !problem.empty()) throw Error("compliant " + std::string(shapeTypeName(shape)) + ": " + problem);
  if (const auto* s = std::get_if<Sphere>(&shape)) return makeSphereField(*s, o);
  if (const auto* s = std::get_if<Ellipsoid>(&shape)) return makeEllipsoidField(*s, o);
  if (const auto* s = std::get_if<Box>(&shape)) return makeBoxField(*s, o);
  if (const auto* s = std::get_if<Cylinder>(&shape)) return makeCylinderField(*s, o);
  if (const auto* s = std::get_if<Capsule>(&shape)) return makeCapsuleField(*s, o);
  if (std::holds_alternative<HalfSpace>(shape)) throw Error("a compliant half-space has an analytic field, no mesh");
  TessellationOptions t;
  if (o.resolutionHint_mm > 0) {
    double r = 1;
    if (const auto* c = std::get_if<Cone>(&shape)) r = c->radius_mm;
    if (const auto* c = std::get_if<Torus>(&shape)) r = c->majorRadius_mm + c->minorRadius_mm;
    t.segments = std::clamp(static_cast<int>(std::ceil(2 * kPi * r / o.resolutionHint_mm)), 8, 256);
  }
  const TriangleMesh surface = tessellateShape(shape, t);
  if (std::holds_alternative<Cone>(shape)) return makeConvexMeshField(surface, o);
  return makeGeneralMeshField(surface, o);
}

}  // namespace sg
