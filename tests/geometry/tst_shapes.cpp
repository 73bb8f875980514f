// Analytic shapes (src/geometry/Shapes.h, ShapeQueries.h): nearest point, normal and curvatures against closed
// forms at random points, ray hits, support points, mass properties, placement by affine maps, tessellation.
#include <QtTest>

#include <random>

#include "geometry/MassProperties.h"
#include "geometry/ShapeQueries.h"
#include "geometry/ShapeTessellation.h"

using namespace sg;

namespace {

constexpr double kTol = 1e-9;

Vec3 randomPoint(std::mt19937& rng, double extent) {
  std::uniform_real_distribution<double> u(-extent, extent);
  return {u(rng), u(rng), u(rng)};
}
Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Vec3(g(rng), g(rng), g(rng)).normalized();
}

// The expectations every shape shares: the returned point is on the surface, the normal is unit, p lies on
// the normal line through the point at the signed distance, and the curvature frame is orthonormal.
void checkConsistent(const Shape& s, const Vec3& p, const SurfaceProjection& q) {
  QVERIFY(std::abs(q.normal.norm() - 1) < kTol);
  QVERIFY2(std::abs(signedDistance(s, q.point_mm)) < kTol, shapeTypeName(s));
  QVERIFY2((p - q.point_mm).norm() - std::abs(q.signedDistance_mm) < kTol, shapeTypeName(s));
  const SurfaceCurvature c = surfaceCurvature(s, p);
  QVERIFY(c.kMax_per_mm >= c.kMin_per_mm);
  QVERIFY(std::abs(c.dirMax.dot(c.normal)) < kTol && std::abs(c.dirMin.dot(c.normal)) < kTol);
  QVERIFY(std::abs(c.dirMax.dot(c.dirMin)) < kTol);
  QVERIFY((c.dirMin - c.normal.cross(c.dirMax)).norm() < kTol);
}

// Curvature of the surface along unit tangent t at a point from the principal ones (Euler).
double euler(const SurfaceCurvature& c, const Vec3& t) {
  const double x = t.dot(c.dirMax), y = t.dot(c.dirMin);
  return c.kMax_per_mm * x * x + c.kMin_per_mm * y * y;
}

const std::vector<Shape>& allShapes() {
  static const std::vector<Shape> shapes = {Sphere{7},          Ellipsoid{Vec3(12, 7, 4)}, Cylinder{5, 16},
                                            Cone{6, 14},        Box{Vec3(10, 6, 4)},      Torus{20, 5},
                                            Capsule{4, 12},     HalfSpace{}};
  return shapes;
}

}  // namespace

class TestShapes : public QObject {
  Q_OBJECT
 private slots:
  void sphereClosedForm() {
    std::mt19937 rng(1);
    const Sphere sh{7};
    for (int i = 0; i < 2000; ++i) {
      const Vec3 p = randomPoint(rng, 20);
      const auto q = nearestSurfacePoint(sh, p);
      QVERIFY((q.point_mm - 7 * p.normalized()).norm() < kTol);
      QVERIFY(std::abs(q.signedDistance_mm - (p.norm() - 7)) < kTol);
      QVERIFY((q.normal - p.normalized()).norm() < kTol);
      const auto c = surfaceCurvature(sh, p);
      QVERIFY(std::abs(c.kMax_per_mm - 1.0 / 7) < kTol && std::abs(c.kMin_per_mm - 1.0 / 7) < kTol);
      checkConsistent(sh, p, q);
    }
  }

  void ellipsoidClosedForm() {
    std::mt19937 rng(2);
    const Vec3 a(12, 7, 4);
    const Ellipsoid sh{a};
    for (int i = 0; i < 3000; ++i) {
      Vec3 p = randomPoint(rng, i % 2 ? 6.0 : 25.0);  // half inside, half mostly outside
      if (i % 50 == 0) p.z() = 0;                    // the interior special case on the smallest axis' plane
      if (i % 70 == 0) p.y() = 0;
      const auto q = nearestSurfacePoint(sh, p);
      // On the surface, and p − q along the normal ∝ (x/a², y/b², z/c²).
      QVERIFY(std::abs(q.point_mm.cwiseQuotient(a).squaredNorm() - 1) < kTol);
      const Vec3 grad = q.point_mm.cwiseQuotient(a.cwiseProduct(a)).normalized();
      QVERIFY((q.normal - grad).norm() < kTol);
      QVERIFY2(((p - q.point_mm) - q.signedDistance_mm * q.normal).norm() < 1e-8, qPrintable(QString::number(i)));
      QCOMPARE(q.signedDistance_mm < 0, p.cwiseQuotient(a).squaredNorm() < 1);
      // Gaussian and mean curvature of an ellipsoid (closed forms): K = 1/(abc)²/s², H = (|q|² − Σa²)/(2(abc)²s^1.5)
      // with s = Σ q_i²/a_i⁴; convex positive: k1 + k2 = −2H.
      const Vec3 q2 = q.point_mm.cwiseProduct(q.point_mm);
      const double s = q2.cwiseQuotient(a.cwiseProduct(a).cwiseProduct(a).cwiseProduct(a)).sum();
      const double abc2 = std::pow(a.prod(), 2);
      const double K = 1.0 / (abc2 * s * s);
      const double H = (q.point_mm.squaredNorm() - a.squaredNorm()) / (2 * abc2 * std::pow(s, 1.5));
      const auto c = surfaceCurvature(sh, p);
      QVERIFY(std::abs(c.kMax_per_mm * c.kMin_per_mm - K) < kTol);
      QVERIFY(std::abs(c.kMax_per_mm + c.kMin_per_mm + 2 * H) < kTol);
      checkConsistent(sh, p, q);
    }
    // The nearest point is the nearest: no denser surface sample is closer.
    for (int i = 0; i < 20; ++i) {
      const Vec3 p = randomPoint(rng, 20);
      const double d = std::abs(signedDistance(sh, p));
      double best = 1e9;
      for (int u = 0; u <= 400; ++u)
        for (int v = 0; v < 400; ++v) {
          const double th = kPi * u / 400, ph = 2 * kPi * v / 400;
          best = std::min(best, (p - Vec3(a.x() * std::sin(th) * std::cos(ph), a.y() * std::sin(th) * std::sin(ph),
                                          a.z() * std::cos(th)))
                                    .norm());
        }
      QVERIFY(d <= best + kTol);
      QVERIFY(best - d < 0.1);
    }
    // Hand values: on the axes.
    QVERIFY(std::abs(signedDistance(sh, Vec3(20, 0, 0)) - 8) < kTol);
    QVERIFY(std::abs(signedDistance(sh, Vec3(0, 0, 1)) + 3) < kTol);
    const auto pole = surfaceCurvature(sh, Vec3(0, 0, 10));  // at (0,0,c): curvatures c/a², c/b²
    QVERIFY(std::abs(pole.kMax_per_mm - 4.0 / 49) < kTol && std::abs(pole.kMin_per_mm - 4.0 / 144) < kTol);
    QVERIFY(std::abs(std::abs(pole.dirMax.y()) - 1) < kTol);
  }

  void cylinderClosedForm() {
    std::mt19937 rng(3);
    const double r = 5, h = 8;
    const Cylinder sh{r, 2 * h};
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p = randomPoint(rng, 15);
      const double rho = std::hypot(p.x(), p.y());
      const double dr = rho - r, dz = std::abs(p.z()) - h;
      const double expected =
          std::min(std::max(dr, dz), 0.0) + std::hypot(std::max(dr, 0.0), std::max(dz, 0.0));  // 2-D box SDF
      const auto q = nearestSurfacePoint(sh, p);
      QVERIFY(std::abs(q.signedDistance_mm - expected) < kTol);
      checkConsistent(sh, p, q);
      const auto c = surfaceCurvature(sh, p);
      const bool side = std::abs(q.normal.z()) < std::sqrt(0.5);
      QVERIFY(std::abs(c.kMax_per_mm - (side ? 1 / r : 0)) < kTol && std::abs(c.kMin_per_mm) < kTol);
      if (side) QVERIFY(std::abs(c.dirMin.z()) > 1 - kTol);  // straight along the axis
    }
  }

  void coneClosedForm() {
    std::mt19937 rng(4);
    const double R = 6, H = 14, h = 7;
    const Cone sh{R, H};
    const double slantLen = std::hypot(R, H);
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p = randomPoint(rng, 15);
      const auto q = nearestSurfacePoint(sh, p);
      checkConsistent(sh, p, q);
      // On the base (z = −h, ρ ≤ R) or on the slant ρ = R(h − z)/H.
      const double rho = std::hypot(q.point_mm.x(), q.point_mm.y());
      const bool onBase = std::abs(q.point_mm.z() + h) < kTol && rho <= R + kTol;
      const bool onSlant = std::abs(rho - R * (h - q.point_mm.z()) / H) < kTol;
      QVERIFY(onBase || onSlant);
      // Not beaten by a dense sample of the meridian profile.
      const double pr = std::hypot(p.x(), p.y());
      double best = 1e9;
      for (int k = 0; k <= 20000; ++k) {
        const double f = k / 20000.0;
        best = std::min(best, std::hypot(pr - R * f, p.z() + h));             // base
        best = std::min(best, std::hypot(pr - R * (1 - f), p.z() - (-h + f * H)));  // slant
      }
      QVERIFY(std::abs(q.signedDistance_mm) <= best + kTol);
      QVERIFY(best - std::abs(q.signedDistance_mm) < 1e-3);
      const auto c = surfaceCurvature(sh, p);
      if (onSlant && !onBase && rho > 0.1) {
        // Meusnier: the parallel circle bends with cos(half-angle)/ρ = (H/√(R²+H²))/ρ, the generator is straight.
        QVERIFY(std::abs(c.kMax_per_mm - H / slantLen / rho) < kTol);
        QVERIFY(std::abs(c.kMin_per_mm) < kTol);
      }
    }
  }

  void boxClosedForm() {
    std::mt19937 rng(5);
    const Vec3 e(5, 3, 2);
    const Box sh{2 * e};
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p = randomPoint(rng, 10);
      const Vec3 d = p.cwiseAbs() - e;
      const double expected = std::min(d.maxCoeff(), 0.0) + d.cwiseMax(0.0).norm();
      const auto q = nearestSurfacePoint(sh, p);
      QVERIFY(std::abs(q.signedDistance_mm - expected) < kTol);
      checkConsistent(sh, p, q);
      const auto c = surfaceCurvature(sh, p);
      QVERIFY(c.kMax_per_mm == 0 && c.kMin_per_mm == 0);
    }
  }

  void torusClosedForm() {
    std::mt19937 rng(6);
    const double R = 20, r = 5;
    const Torus sh{R, r};
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p = randomPoint(rng, 30);
      const double rho = std::hypot(p.x(), p.y());
      const auto q = nearestSurfacePoint(sh, p);
      QVERIFY(std::abs(q.signedDistance_mm - (std::hypot(rho - R, p.z()) - r)) < kTol);
      checkConsistent(sh, p, q);
      // Tube: 1/r; parallel: cos φ/(R + r cos φ), φ the angle on the tube from the outer equator.
      const double cosPhi = (rho - R) / std::hypot(rho - R, p.z());
      const double kPar = cosPhi / (R + r * cosPhi);
      const auto c = surfaceCurvature(sh, p);
      QVERIFY(std::abs(c.kMax_per_mm - 1 / r) < kTol);
      QVERIFY(std::abs(c.kMin_per_mm - kPar) < kTol);
      const Vec3 azimuth = Vec3(-p.y(), p.x(), 0).normalized();
      QVERIFY(std::abs(euler(c, azimuth) - kPar) < kTol);
    }
    // Inner equator: a saddle.
    const auto inner = surfaceCurvature(sh, Vec3(R - r - 1, 0, 0));
    QVERIFY(std::abs(inner.kMin_per_mm + 1 / (R - r)) < kTol);
  }

  void capsuleClosedForm() {
    std::mt19937 rng(7);
    const double r = 4, h = 6;
    const Capsule sh{r, 2 * h};
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p = randomPoint(rng, 15);
      const Vec3 axis(0, 0, std::clamp(p.z(), -h, h));
      const auto q = nearestSurfacePoint(sh, p);
      QVERIFY(std::abs(q.signedDistance_mm - ((p - axis).norm() - r)) < kTol);
      checkConsistent(sh, p, q);
      const auto c = surfaceCurvature(sh, p);
      QVERIFY(std::abs(c.kMax_per_mm - 1 / r) < kTol);
      QVERIFY(std::abs(c.kMin_per_mm - (std::abs(p.z()) < h ? 0 : 1 / r)) < kTol);
    }
  }

  void halfSpaceClosedForm() {
    std::mt19937 rng(8);
    for (int i = 0; i < 200; ++i) {
      const Vec3 p = randomPoint(rng, 50);
      const auto q = nearestSurfacePoint(HalfSpace{}, p);
      QVERIFY(std::abs(q.signedDistance_mm - p.z()) < kTol);
      QVERIFY((q.point_mm - Vec3(p.x(), p.y(), 0)).norm() < kTol);
      QCOMPARE(q.normal, Vec3(Vec3::UnitZ()));
    }
    QVERIFY(!supportPoint(HalfSpace{}, Vec3::UnitX()));
    QVERIFY(!isFinite(HalfSpace{}) && !isConvex(HalfSpace{}) && isSmooth(HalfSpace{}));
  }

  void rayHits() {
    // Hand values.
    auto hit = intersectRay(Sphere{10}, Vec3(-100, 0, 0), Vec3(2, 0, 0));
    QVERIFY(hit && std::abs(hit->t - 45) < kTol && (hit->normal + Vec3::UnitX()).norm() < kTol);
    hit = intersectRay(Box{Vec3(10, 10, 10)}, Vec3(0, 0, 0), Vec3(0, 0, 1));  // from inside: the exit
    QVERIFY(hit && std::abs(hit->t - 5) < kTol && (hit->normal - Vec3::UnitZ()).norm() < kTol);
    hit = intersectRay(Torus{20, 5}, Vec3(0, 0, 0), Vec3(1, 0, 0));  // through the hole to the inner equator
    QVERIFY(hit && std::abs(hit->t - 15) < kTol && (hit->normal + Vec3::UnitX()).norm() < kTol);
    hit = intersectRay(Cone{6, 14}, Vec3(0, 0, 100), Vec3(0, 0, -1));  // onto the apex
    QVERIFY(hit && std::abs(hit->t - 93) < kTol);
    QVERIFY(!intersectRay(Cylinder{5, 10}, Vec3(0, 10, 0), Vec3(1, 0, 0)));
    QVERIFY(!intersectRay(HalfSpace{}, Vec3(0, 0, 1), Vec3(1, 0, 0)));
    // Random rays: the hit is on the surface with the surface's normal, and the surface is not crossed before.
    std::mt19937 rng(9);
    for (const Shape& s : allShapes()) {
      int hits = 0;
      for (int i = 0; i < 600; ++i) {
        const Vec3 o = randomPoint(rng, 40), target = randomPoint(rng, 10);
        const Vec3 d = target - o;
        const auto h = intersectRay(s, o, d);
        const double sd0 = signedDistance(s, o);
        const int samples = 400;
        if (!h) {
          if (sd0 > 0)  // a miss from outside: no sample along the ray is inside
            for (int k = 1; k <= samples; ++k) QVERIFY2(signedDistance(s, o + (3.0 * k / samples) * d) > -1e-9, shapeTypeName(s));
          continue;
        }
        ++hits;
        QVERIFY2(std::abs(signedDistance(s, h->point_mm)) < kTol, shapeTypeName(s));
        QVERIFY((h->point_mm - (o + h->t * d)).norm() < 1e-8);
        const auto surface = nearestSurfacePoint(s, h->point_mm);
        if (isSmooth(s)) QVERIFY2((h->normal - surface.normal).norm() < 1e-6, shapeTypeName(s));
        for (int k = 0; k < samples; ++k) {  // no sign change before t
          const double sd = signedDistance(s, o + (h->t * k / samples) * d);
          if (std::abs(sd0) > 1e-6) QVERIFY2(sd * sd0 > -1e-9, shapeTypeName(s));
        }
      }
      QVERIFY2(hits > 50, shapeTypeName(s));
    }
  }

  void supportPoints() {
    QVERIFY((*supportPoint(Box{Vec3(2, 4, 6)}, Vec3(-1, 1, -1)) - Vec3(-1, 2, -3)).norm() < kTol);
    QVERIFY((*supportPoint(Capsule{2, 10}, Vec3(0, 0, -1)) - Vec3(0, 0, -7)).norm() < kTol);
    QVERIFY((*supportPoint(Cone{6, 14}, Vec3(0, 0, 1)) - Vec3(0, 0, 7)).norm() < kTol);
    std::mt19937 rng(10);
    TessellationOptions fine;
    fine.segments = 128;
    for (const Shape& s : allShapes()) {
      if (!isFinite(s)) continue;
      const TriangleMesh m = tessellateShape(s, fine);
      for (int i = 0; i < 200; ++i) {
        const Vec3 d = randomUnit(rng);
        const auto sp = supportPoint(s, d);
        QVERIFY(sp);
        if (isConvex(s)) QVERIFY2(std::abs(signedDistance(s, *sp)) < kTol, shapeTypeName(s));
        double best = -1e9;
        for (const Vec3& v : m.vertices) best = std::max(best, v.dot(d));
        QVERIFY2(sp->dot(d) >= best - kTol, shapeTypeName(s));
        QVERIFY2(sp->dot(d) - best < 0.05, shapeTypeName(s));  // the tessellation comes close
      }
    }
  }

  void tessellationOnSurfaceAndOutward() {
    for (const Shape& s : allShapes()) {
      const TriangleMesh m = tessellateShape(s);
      QVERIFY(!m.empty());
      if (isFinite(s))
        for (const Vec3& v : m.vertices) QVERIFY2(std::abs(signedDistance(s, v)) < 1e-9, shapeTypeName(s));
      const auto mp = computeMassProperties(m);
      QVERIFY(mp && mp->volume_mm3 > 0);
      for (std::size_t i = 0; i < m.triangleCount(); ++i) {  // outward: each face normal points away from the centre
        const Vec3 c = (m.triangleVertex(i, 0) + m.triangleVertex(i, 1) + m.triangleVertex(i, 2)) / 3;
        if (isConvex(s)) QVERIFY2(m.faceNormals[i].dot(c - mp->centroid_mm) > 0, shapeTypeName(s));
      }
    }
  }

  void massPropertiesMatchFineTessellation() {
    TessellationOptions fine;
    fine.segments = 256;
    for (const Shape& s : allShapes()) {
      const auto exact = shapeMassProperties(s);
      if (!isFinite(s)) {
        QVERIFY(!exact);
        continue;
      }
      QVERIFY(exact);
      const auto mesh = computeMassProperties(tessellateShape(s, fine));
      QVERIFY(mesh);
      QVERIFY2(std::abs(mesh->volume_mm3 / exact->volume_mm3 - 1) < 2e-3, shapeTypeName(s));
      QVERIFY2((mesh->centroid_mm - exact->centroid_mm).norm() < 1e-2, shapeTypeName(s));
      QVERIFY2((mesh->inertiaPerMass_mm2 - exact->inertiaPerMass_mm2).norm() < 3e-3 * exact->inertiaPerMass_mm2.norm(),
               shapeTypeName(s));
    }
  }

  void affineMaps() {
    const Transform rot = Transform::fromAxisAngle(Vec3(1, 2, 3).normalized(), 0.7);
    const Mat3 R = rot.rotationMatrix();
    // Uniform scale and rotation keep the type; the pose carries the rotation.
    auto p = transformedPrimitive({Cylinder{2, 10}, Transform::identity()}, 3 * R, Vec3(1, 2, 3));
    QVERIFY(p && std::holds_alternative<Cylinder>(p->shape));
    QCOMPARE(std::get<Cylinder>(p->shape).radius_mm, 6.0);
    QVERIFY(std::abs(std::get<Cylinder>(p->shape).height_mm - 30) < kTol);
    QVERIFY((p->X_BS.rotationMatrix().col(2) - R.col(2)).norm() < kTol);
    QVERIFY((p->X_BS.translation() - Vec3(1, 2, 3)).norm() < kTol);
    // A sphere under an axis scale is an ellipsoid.
    p = transformedPrimitive({Sphere{2}, Transform::identity()}, Vec3(1, 2, 3).asDiagonal(), Vec3::Zero());
    QVERIFY(p && std::holds_alternative<Ellipsoid>(p->shape));
    QVERIFY((std::get<Ellipsoid>(p->shape).semiAxes_mm - Vec3(2, 4, 6)).norm() < kTol);
    // A cylinder with unequal radial scales, or any shape under a shear, is no primitive.
    QVERIFY(!transformedPrimitive({Cylinder{2, 10}, Transform::identity()}, Vec3(1, 2, 1).asDiagonal(), Vec3::Zero()));
    Mat3 shear = Mat3::Identity();
    shear(0, 1) = 0.5;
    QVERIFY(!transformedPrimitive({Box{Vec3::Ones()}, Transform::identity()}, shear, Vec3::Zero()));
    // A mirror keeps a cone a cone, apex where the map sends it.
    p = transformedPrimitive({Cone{3, 4}, Transform::identity()}, Vec3(1, 1, -1).asDiagonal(), Vec3::Zero());
    QVERIFY(p && (p->X_BS * Vec3(0, 0, 2) - Vec3(0, 0, -2)).norm() < kTol);
    // A half-space under any invertible map: the plane through the mapped origin, normal by A⁻ᵀ.
    p = transformedPrimitive({HalfSpace{}, Transform::identity()}, shear * R, Vec3(0, 0, 5));
    QVERIFY(p);
    const Vec3 n = ((shear * R).inverse().transpose() * Vec3::UnitZ()).normalized();
    QVERIFY((p->X_BS.rotationMatrix().col(2) - n).norm() < kTol);
  }

  void invalidDimensions() {
    QVERIFY(shapeProblem(Sphere{5}).empty());
    QVERIFY(!shapeProblem(Sphere{-1}).empty());
    QVERIFY(!shapeProblem(Sphere{std::nan("")}).empty());
    QVERIFY(!shapeProblem(Torus{5, 5}).empty());
    QVERIFY(!shapeProblem(Box{Vec3(1, 0, 1)}).empty());
    QVERIFY(shapeProblem(Capsule{1, 0}).empty());
  }
};

QTEST_GUILESS_MAIN(TestShapes)
#include "tst_shapes.moc"
