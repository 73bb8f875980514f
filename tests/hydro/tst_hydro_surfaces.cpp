// Hydroelastic contact surfaces against the analytic cases of src/geometry/hydro/README.md §Validation
// (V1–V5), the conventions (normals out of N into M, force on M), invariance under a rigid motion of both
// bodies, polygon vs triangulated output, and degenerate touches.
#include <QtTest>

#include "HydroTestBodies.h"
#include "core/Decompositions.h"

using namespace sg;
using namespace sgtest;

namespace {

constexpr double kE = 1e5;  // Pa

// V1: a sphere (R, E) pressed d into a rigid plane.
double sphereOnPlaneForce_N(double R, double d) { return kPi / 3 * kE * d * d * (3 - 2 * d / R) * 1e-6; }
// V1b: τmax/μ of the same patch (N·mm).
double sphereOnPlaneTorsion_Nmm(double R, double d) {
  const double h = R - d, a = std::sqrt(d * (2 * R - d));
  const double I = a * a * a / 3 - (2 * R * R - h * h) * a / 8 + std::pow(h, 4) / (8 * R) * std::log((R + a) / h);
  return 2 * kPi * kE * I * 1e-6;
}

const Body& rigidFloor() {
  static const Body b = primitiveBody("floor", HalfSpace{});
  return b;
}

ContactSurface sphereOnFloor(double R, double d, double hint, const SurfaceOptions& options = {}) {
  const Body ball = compliant(primitiveBody("ball", Sphere{R}), kE, hint);
  return surfaceOf(ball, Transform::fromTranslation(Vec3(0, 0, R - d)), rigidFloor(), {}, options);
}

Transform someMotion() {
  return Transform(Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized())), Vec3(13, -7, 21));
}

}  // namespace

class TstHydroSurfaces : public QObject {
  Q_OBJECT
 private slots:
  void v1SphereOnRigidPlane();
  void v1ConvergesWithTheHint();
  void v1bTorsionalLimit();
  void v2BoxFaceIsExact_data();
  void v2BoxFaceIsExact();
  void v2AgainstARigidMeshIsExactToo();
  void v3RigidBoxInCompliantHalfSpace();
  void v4EqualSpheresMeetOnTheMidPlane();
  void v5CylinderPunch();
  void normalsPointOutOfNIntoM();
  void invariantUnderRigidMotion();
  void polygonAndTriangulatedAgree();
  void degenerateTouchesGiveNoNaN();
  void unsupportedPairsAreErrors();
};

void TstHydroSurfaces::v1SphereOnRigidPlane() {
  // Drake's own check: hint R/2, 0 < (F_analytic − F)/F_analytic < 27.5 − (10/0.6)(d/R) percent (the
  // tessellated sphere is inscribed, so the force is always below the analytic one).
  const double R = 50;
  for (double ratio : {0.2, 0.4, 0.6, 0.8}) {
    const double d = ratio * R;
    const ContactSurface s = sphereOnFloor(R, d, R / 2);
    const double want = sphereOnPlaneForce_N(R, d);
    const double errPercent = 100 * (want - s.normalForce_N) / want;
    QVERIFY2(errPercent > 0 && errPercent < 27.5 - (10 / 0.6) * ratio, qPrintable(QString::number(errPercent)));
    // A flat patch in z = 0, force +z on the sphere, no moment about the centre of pressure.
    QVERIFY(std::abs(s.force_W_N.z() - s.normalForce_N) < 1e-9 * s.normalForce_N);
    QVERIFY(s.force_W_N.head<2>().norm() < 1e-9 * s.normalForce_N);
    QVERIFY(std::abs(s.centreOfPressure_W_mm.z()) < 1e-9);
    QVERIFY(s.centreOfPressure_W_mm.head<2>().norm() < 1e-6);
    QVERIFY(s.moment_W_Nmm.norm() < 1e-9 * s.normalForce_N * R);
    for (const ContactPolygon& p : s.polygons) {
      QVERIFY(p.p_WV_mm.size() >= 3 && p.p_WV_mm.size() <= 4);  // tet slices
      QVERIFY((p.n_W - Vec3::UnitZ()).norm() < 1e-12);
    }
  }
}

void TstHydroSurfaces::v1ConvergesWithTheHint() {
  const double R = 50, d = 10;
  const double want = sphereOnPlaneForce_N(R, d);
  double previous = 1;
  for (double hint : {R / 2, R / 4, R / 8, R / 16}) {
    const double err = (want - sphereOnFloor(R, d, hint).normalForce_N) / want;
    QVERIFY2(err > 0 && err < previous, qPrintable(QString("hint %1: %2").arg(hint).arg(err)));
    previous = err;
  }
  QVERIFY(previous < 0.01);
}

void TstHydroSurfaces::v1bTorsionalLimit() {
  // τmax = μ∫p ρ dA: below the analytic value (inscribed mesh) and converging with the hint; the torsional
  // semi-axis e_n = τmax/(μF), a ratio, is within 1% already at hint R/16.
  const double R = 50, mu = 0.8;
  SurfaceOptions o;
  o.mu = mu;
  for (double ratio : {0.05, 0.2, 0.5}) {
    const double d = ratio * R;
    const double want = mu * sphereOnPlaneTorsion_Nmm(R, d);
    double previous = 1;
    for (double hint : {R / 4, R / 8, R / 16}) {
      const ContactSurface s = sphereOnFloor(R, d, hint, o);
      const double err = (want - s.torsionalLimit_Nmm) / want;
      QVERIFY2(err > 0 && err < previous, qPrintable(QString("d/R %1, hint %2: %3").arg(ratio).arg(hint).arg(err)));
      previous = err;
      if (hint == R / 16) {
        const double en = s.torsionalLimit_Nmm / (mu * s.normalForce_N);
        QVERIFY(relErr(en, sphereOnPlaneTorsion_Nmm(R, d) / sphereOnPlaneForce_N(R, d)) < 0.01);
      }
    }
    QVERIFY(previous < 0.03);
  }
  // Small d: τ/(μ a F) → 8/15 (paraboloidal pressure); 0.5328 at d/R = 0.02.
  const double d = 0.02 * R;
  const ContactSurface s = sphereOnFloor(R, d, R / 32, o);
  const double a = std::sqrt(d * (2 * R - d));
  QVERIFY(relErr(s.torsionalLimit_Nmm / (mu * a * s.normalForce_N), 0.5328) < 0.01);
}

void TstHydroSurfaces::v2BoxFaceIsExact_data() {
  QTest::addColumn<Vec3>("half");
  QTest::addColumn<double>("d");
  QTest::newRow("general, shallow") << Vec3(50, 30, 40) << 1.0;
  QTest::newRow("general, deep") << Vec3(50, 30, 40) << 22.5;
  QTest::newRow("general, d = H") << Vec3(50, 30, 40) << 30.0;
  QTest::newRow("cube 0.1 m, 1 mm") << Vec3(50, 50, 50) << 1.0;
  QTest::newRow("flat plate") << Vec3(20, 30, 5) << 2.0;
}

void TstHydroSurfaces::v2BoxFaceIsExact() {
  QFETCH(Vec3, half);
  QFETCH(double, d);
  const Body box = compliant(primitiveBody("box", Box{2 * half}), kE);
  const ContactSurface s = surfaceOf(box, Transform::fromTranslation(Vec3(0, 0, half.z() - d)), rigidFloor(), {});
  const double H = half.minCoeff(), hx = half.x(), hy = half.y();
  const double want = 4 * kE / H * (hx * hy * d - (hx + hy) * d * d / 2 + d * d * d / 3) * 1e-6;
  QVERIFY2(relErr(s.normalForce_N, want) < 1e-9, qPrintable(QString::number(relErr(s.normalForce_N, want))));
  QVERIFY(relErr(s.area_mm2, 4 * hx * hy) < 1e-9);
  QVERIFY(s.centreOfPressure_W_mm.norm() < 1e-9 * hx);
  QVERIFY(std::abs(s.peakPressure_Pa - kE * d / H) < 1e-9 * kE);
}

void TstHydroSurfaces::v2AgainstARigidMeshIsExactToo() {
  // The same box against the top face of a rigid box mesh (compliant volume ∩ rigid triangles).
  const Vec3 half(50, 30, 40);
  const double d = 7;
  const Body box = compliant(primitiveBody("box", Box{2 * half}), kE);
  const Body slab = primitiveBody("slab", Box{Vec3(400, 400, 20)}, Transform::fromTranslation(Vec3(0, 0, -10)));
  const ContactSurface s = surfaceOf(box, Transform::fromTranslation(Vec3(0, 0, half.z() - d)), slab, {});
  const double H = 30, hx = 50, hy = 30;
  const double want = 4 * kE / H * (hx * hy * d - (hx + hy) * d * d / 2 + d * d * d / 3) * 1e-6;
  QVERIFY(relErr(s.normalForce_N, want) < 1e-9);
  QVERIFY(relErr(s.force_W_N.z(), want) < 1e-9);
  QCOMPARE(s.bodyM, 0);
  QCOMPARE(s.bodyN, 1);
}

void TstHydroSurfaces::v3RigidBoxInCompliantHalfSpace() {
  // A 40×20×20 box turned 30° about x, its lowest edge d below the surface of a compliant half-space
  // (E, slab h): F = (E/h)·V_sub through the centroid of the submerged triangular prism.
  const double L = 40, sz = 20, theta = degToRad(30), d = 4, h = 10;
  const Body floor = compliant(primitiveBody("floor", HalfSpace{}), kE, 0, 0, h);
  const Body box = primitiveBody("box", Box{Vec3(L, sz, sz)});
  const Vec3 shift(3, 7, sz / 2 * (std::sin(theta) + std::cos(theta)) - d);
  const Transform X_WB(Quat(Eigen::AngleAxisd(theta, Vec3::UnitX())), shift);
  const ContactSurface s = surfaceOf(floor, {}, box, X_WB);
  QCOMPARE(s.bodyM, 0);  // the compliant half-space
  const double area = 0.5 * d * d * (1 / std::tan(theta) + std::tan(theta));
  const double volume = L * area;
  const double y0 = shift.y() - sz / 2 * std::cos(theta) + sz / 2 * std::sin(theta);
  const Vec3 centroid(shift.x(), y0 + d * (1 / std::tan(theta) - std::tan(theta)) / 3, -d / 3);
  const Vec3 force = -kE / h * volume * 1e-6 * Vec3::UnitZ();  // on M: down
  QVERIFY2((s.force_W_N - force).norm() < 1e-9 * force.norm(), qPrintable(QString::number((s.force_W_N - force).norm())));
  const Vec3 momentAboutOrigin = s.moment_W_Nmm + s.centreOfPressure_W_mm.cross(s.force_W_N);
  QVERIFY((momentAboutOrigin - centroid.cross(force)).norm() < 1e-9 * force.norm() * L);
}

void TstHydroSurfaces::v4EqualSpheresMeetOnTheMidPlane() {
  const double R = 20, d = 4, hint = R / 8;
  const Body a = compliant(primitiveBody("a", Sphere{R}), kE, hint);
  const Body b = compliant(primitiveBody("b", Sphere{R}), kE, hint);
  const double mid = R - d / 2;
  const ContactSurface s = surfaceOf(a, {}, b, Transform::fromTranslation(Vec3(2 * R - d, 0, 0)));
  QVERIFY(s.nCompliant && !s.empty());
  for (const ContactPolygon& p : s.polygons) {
    QVERIFY(p.p_WV_mm.size() <= 8);
    for (const Vec3& v : p.p_WV_mm) QVERIFY(std::abs(v.x() - mid) < 1e-6);
    QVERIFY((p.n_W + Vec3::UnitX()).norm() < 1e-6);  // out of N (at +x) into M
  }
  const double want = kPi / 3 * kE * (d / 2) * (d / 2) * (3 - d / R) * 1e-6;
  QVERIFY(s.normalForce_N < want && s.normalForce_N > 0.95 * want);  // inscribed meshes, hint R/8
  // Each sphere is indented d/2 by a plane: the same surface as V1 at depth d/2 with the same mesh.
  const ContactSurface half = sphereOnFloor(R, d / 2, hint);
  QVERIFY(relErr(s.normalForce_N, half.normalForce_N) < 1e-9);
  QVERIFY(relErr(s.area_mm2, half.area_mm2) < 1e-9);
}

void TstHydroSurfaces::v5CylinderPunch() {
  // Flat end of a compliant cylinder (R, L > R) pressed x into a rigid plane: F → E·A·x/R (A the end face;
  // πERx for the round cylinder), from below by the rim strip, O(x/R).
  const double R = 10, x = 0.05;
  const Body punch = compliant(primitiveBody("punch", Cylinder{R, 40}), kE, 0.5);
  const ContactSurface s = surfaceOf(punch, Transform::fromTranslation(Vec3(0, 0, 20 - x)), rigidFloor(), {});
  const double A = s.area_mm2;
  QVERIFY(relErr(A, kPi * R * R) < 0.002);
  const double linear = kE * A * x / R * 1e-6;
  QVERIFY(s.normalForce_N < linear && s.normalForce_N > (1 - 3 * x / R) * linear);
}

void TstHydroSurfaces::normalsPointOutOfNIntoM() {
  // Unequal compliant spheres: force on M pushes it away from N; the surface sits nearer the stiffer one.
  const Body soft = compliant(primitiveBody("soft", Sphere{10}), 1e5, 1);
  const Body stiff = compliant(primitiveBody("stiff", Sphere{10}), 1e6, 1);
  const ContactSurface s = surfaceOf(soft, {}, stiff, Transform::fromTranslation(Vec3(18, 0, 0)));
  QCOMPARE(s.bodyM, 0);
  QVERIFY(s.force_W_N.x() < 0 && std::abs(s.force_W_N.x()) > 0.99 * s.force_W_N.norm());
  QVERIFY(s.centreOfPressure_W_mm.x() < 9);  // short of the mid-plane x = 9: toward the stiff sphere's surface (x = 8)
  // Rigid N: the swap keeps M the compliant one, whichever is given first.
  const Body rigid = primitiveBody("rigid", Sphere{10}, {}, 128);
  const ContactSurface r = surfaceOf(rigid, Transform::fromTranslation(Vec3(18, 0, 0)), soft, {});
  QCOMPARE(r.bodyM, 1);
  QCOMPARE(r.bodyN, 0);
  QVERIFY(r.force_W_N.x() < 0);
  for (const ContactPolygon& p : r.polygons) QVERIFY(p.n_W.x() < 0);
}

void TstHydroSurfaces::invariantUnderRigidMotion() {
  const Transform X = someMotion();
  const Body ball = compliant(primitiveBody("ball", Sphere{15}), kE, 3);
  const Body block = primitiveBody("block", Box{Vec3(30, 30, 30)});
  const Body other = compliant(primitiveBody("other", Capsule{6, 10}), 3 * kE, 2);
  SurfaceOptions o;
  o.mu = 0.5;
  const Transform X_WA = Transform::fromTranslation(Vec3(0, 0, 29)) * Transform::fromAxisAngle(Vec3(1, 1, 0).normalized(), 0.3);
  const Transform X_WC(Quat(Eigen::AngleAxisd(1.1, Vec3::UnitY())), Vec3(8, 3, 26));
  for (const Body* n : {&block, &other}) {
    const Transform X_WN = n == &block ? Transform{} : X_WC;
    const ContactSurface s0 = surfaceOf(ball, X_WA, *n, X_WN, o);
    const ContactSurface s1 = surfaceOf(ball, X * X_WA, *n, X * X_WN, o);
    QVERIFY(!s0.empty());
    QCOMPARE(s1.polygons.size(), s0.polygons.size());
    QVERIFY(relErr(s1.area_mm2, s0.area_mm2) < 1e-9);
    QVERIFY(relErr(s1.normalForce_N, s0.normalForce_N) < 1e-9);
    QVERIFY(relErr(s1.peakPressure_Pa, s0.peakPressure_Pa) < 1e-9);
    QVERIFY(relErr(s1.torsionalLimit_Nmm, s0.torsionalLimit_Nmm) < 1e-9);
    QVERIFY((s1.force_W_N - X.applyToVector(s0.force_W_N)).norm() < 1e-9 * s0.force_W_N.norm());
    QVERIFY((s1.centreOfPressure_W_mm - X * s0.centreOfPressure_W_mm).norm() < 1e-8);
    QVERIFY((s1.moment_W_Nmm - X.applyToVector(s0.moment_W_Nmm)).norm() < 1e-8 * (1 + s0.moment_W_Nmm.norm()));
  }
}

void TstHydroSurfaces::polygonAndTriangulatedAgree() {
  const Body ball = compliant(primitiveBody("ball", Sphere{15}), kE, 3);
  const Body block = primitiveBody("block", Box{Vec3(30, 30, 30)});
  const Body other = compliant(primitiveBody("other", Ellipsoid{Vec3(8, 6, 5)}), 2 * kE, 2);
  const Transform X_WA = Transform::fromTranslation(Vec3(0, 0, 28)) * Transform::fromAxisAngle(Vec3(1, 1, 0).normalized(), 0.3);
  for (const Body* n : {&block, &other}) {
    const Transform X_WN = n == &block ? Transform{} : Transform::fromTranslation(Vec3(5, 0, 10));
    SurfaceOptions tri;
    tri.triangulated = true;
    const ContactSurface p = surfaceOf(ball, X_WA, *n, X_WN);
    const ContactSurface t = surfaceOf(ball, X_WA, *n, X_WN, tri);
    QVERIFY(t.triangulated && !p.triangulated);
    QVERIFY(t.polygons.size() > p.polygons.size());
    for (const ContactPolygon& q : t.polygons) QCOMPARE(q.p_WV_mm.size(), std::size_t(3));
    QVERIFY(relErr(t.area_mm2, p.area_mm2) < 1e-9);
    QVERIFY(relErr(t.normalForce_N, p.normalForce_N) < 1e-9);
    QVERIFY((t.force_W_N - p.force_W_N).norm() < 1e-9 * p.force_W_N.norm());
    QVERIFY((t.centreOfPressure_W_mm - p.centreOfPressure_W_mm).norm() < 1e-8);
  }
}

void TstHydroSurfaces::degenerateTouchesGiveNoNaN() {
  const Body box = compliant(primitiveBody("box", Box{Vec3(20, 20, 20)}), kE);
  const Body rigidBox = primitiveBody("rigid", Box{Vec3(20, 20, 20)});
  const Body ball = compliant(primitiveBody("ball", Sphere{10}), kE, 5);
  // Coplanar faces, exactly touching: a zero-pressure surface at most, no force.
  for (const Body* other : {&rigidBox, &box}) {
    const ContactSurface s = surfaceOf(box, {}, *other, Transform::fromTranslation(Vec3(0, 0, 20)));
    QVERIFY(allFinite(s));
    QVERIFY(std::abs(s.normalForce_N) < 1e-12);
  }
  // Coplanar with the plane of a half-space, and the rigid box's face against the compliant half-space.
  const ContactSurface onFloor = surfaceOf(box, Transform::fromTranslation(Vec3(0, 0, 10)), rigidFloor(), {});
  QVERIFY(allFinite(onFloor) && std::abs(onFloor.normalForce_N) < 1e-12);
  const Body softFloor = compliant(primitiveBody("floor", HalfSpace{}), kE, 0, 0, 10);
  const ContactSurface boxOnSoft = surfaceOf(softFloor, {}, rigidBox, Transform::fromTranslation(Vec3(0, 0, 10)));
  QVERIFY(allFinite(boxOnSoft) && std::abs(boxOnSoft.normalForce_N) < 1e-12);
  // A rigid box corner (a vertex) exactly on the sphere's top vertex, and on its surface between vertices.
  const Transform cornerDown(rotationBetween(Vec3(1, 1, 1).normalized(), -Vec3::UnitZ()), Vec3::Zero());
  for (const Vec3& at : {Vec3(0, 0, 10), Vec3(0, 0, 9.5)}) {
    Transform X = cornerDown;
    X.setTranslation(at + Vec3(0, 0, 10 * std::sqrt(3.0)));
    const ContactSurface s = surfaceOf(ball, {}, rigidBox, X);
    QVERIFY(allFinite(s));
    QVERIFY(s.normalForce_N >= 0);
  }
  // Two compliant boxes, face on face, slightly overlapping: a flat surface, no NaN.
  const ContactSurface boxes = surfaceOf(box, {}, box, Transform::fromTranslation(Vec3(0, 0, 19.5)));
  QVERIFY(allFinite(boxes) && boxes.normalForce_N > 0);
}

void TstHydroSurfaces::unsupportedPairsAreErrors() {
  const Body softFloor = compliant(primitiveBody("floor", HalfSpace{}), kE, 0, 0, 10);
  const Body ball = compliant(primitiveBody("ball", Sphere{10}), kE, 5);
  QVERIFY_THROWS_EXCEPTION(Error, surfaceOf(softFloor, {}, ball, {}));
  QVERIFY_THROWS_EXCEPTION(Error, surfaceOf(softFloor, {}, rigidFloor(), {}));
  const Body rigidBall = primitiveBody("rigid", Sphere{10});
  QVERIFY(!hydroelasticContactSurface(rigidBall, {}, 0, rigidFloor(), {}, 1, {}));
}

QTEST_GUILESS_MAIN(TstHydroSurfaces)
#include "tst_hydro_surfaces.moc"
