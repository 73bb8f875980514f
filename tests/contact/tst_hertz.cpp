// Hertz contact from curvatures through combineParaboloids (src/contact/README.md §Hertz): semi-axes, approach,
// peak pressure and the force–approach curve against the closed forms, first from exact curvatures, then end
// to end on meshes (detection, touching point, osculating jet, relative curvature, Hertz) within 0.5 %.
//
// Closed forms (Johnson, Contact Mechanics, 1985, §4.2; Hertz 1882), E* = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2):
//  * circular (sphere of radius R on a plane, or two equal crossed cylinders of radius R), load P:
//      a = (3PR / 4E*)^(1/3),  δ = a²/R,  p0 = 3P / (2πa²),  P = (4/3)·E*·√R·δ^(3/2);
//  * elliptical, gap h = A x² + B y² (A < B), pressure p0·√(1 − x²/a² − y²/b²), e² = 1 − b²/a², K(e) and E(e)
//    the complete elliptic integrals of modulus e:
//      A = (p0/E*)·(b/(e²a²))·[K(e) − E(e)],   B = (p0/E*)·(b/(e²a²))·[(a²/b²)·E(e) − K(e)],
//      δ = (p0/E*)·b·K(e),   P = (2/3)·π·a·b·p0.
//    Choosing b/a fixes B/A; with P = (2/3)πabp0 the first equation gives a³ = 3P·[K(e) − E(e)] / (2π·E*·e²·A).
//    Crossed cylinders of radii R_x (axis along y: curves in x) and R_y (axis along x) have A = 1/(2R_x),
//    B = 1/(2R_y) (Simbody's combineParaboloids at 90°). K and E come from std::comp_ellint_1/2 here, independent
//    of the library's AGM.
#include <QtTest>

#include <cmath>

#include "ModelRun.h"
#include "SoftTestShapes.h"
#include "contact/HertzContact.h"
#include "contact/QuadricRelativeCurvature.h"
#include "contact/SoftPatch.h"
#include "core/Decompositions.h"
#include "core/Error.h"

using namespace sg;
using namespace sgtest;

namespace {

constexpr double kE_Pa = 1.5e6, kNu = 0.5, kLoad_N = 5.0;
// E* of an elastic body on a rigid one (N/mm² = MPa in the formulas, Pa in the API).
constexpr double kEStar_Pa = kE_Pa / (1 - kNu * kNu);

struct Expected {
  double a = 0, b = 0, delta = 0, p0_Pa = 0;
};

Expected circular(double R, double P) {
  const double eStar = kEStar_Pa * 1e-6;
  Expected x;
  x.a = x.b = std::cbrt(3 * P * R / (4 * eStar));
  x.delta = x.a * x.a / R;
  x.p0_Pa = 3 * P / (2 * kPi * x.a * x.a) * 1e6;
  return x;
}

// The ellipse with b/a = ratio under load P; `A` and `B` (1/mm) receive the gap it belongs to, for A = 1/(2·Rx).
Expected elliptical(double ratio, double Rx, double P, double& A, double& B) {
  const double eStar = kEStar_Pa * 1e-6;
  const double e2 = 1 - ratio * ratio, e = std::sqrt(e2);
  const double K = std::comp_ellint_1(e), E = std::comp_ellint_2(e);
  A = 1 / (2 * Rx);
  B = A * (E / (ratio * ratio) - K) / (K - E);  // B/A = [(a²/b²)E − K] / (K − E)
  Expected x;
  x.a = std::cbrt(3 * P * (K - E) / (2 * kPi * eStar * e2 * A));
  x.b = ratio * x.a;
  const double p0 = 3 * P / (2 * kPi * x.a * x.b);
  x.delta = p0 * x.b * K / eStar;
  x.p0_Pa = p0 * 1e6;
  return x;
}

QString report(const char* what, const SoftPatch& p, const Expected& x) {
  return QString("%1: a %2 (%3 %), b %4 (%5 %), δ %6 (%7 %), p0 %8 Pa (%9 %)")
      .arg(what)
      .arg(p.semiAxisLong_mm, 0, 'f', 4).arg(100 * (p.semiAxisLong_mm - x.a) / x.a, 0, 'f', 3)
      .arg(p.semiAxisShort_mm, 0, 'f', 4).arg(100 * (p.semiAxisShort_mm - x.b) / x.b, 0, 'f', 3)
      .arg(p.penetration_mm, 0, 'f', 4).arg(100 * (p.penetration_mm - x.delta) / x.delta, 0, 'f', 3)
      .arg(p.maxPressure_Pa, 0, 'f', 1).arg(100 * (p.maxPressure_Pa - x.p0_Pa) / x.p0_Pa, 0, 'f', 3);
}

bool within(const SoftPatch& p, const Expected& x, double tol) {
  return relErr(p.semiAxisLong_mm, x.a) < tol && relErr(p.semiAxisShort_mm, x.b) < tol &&
         relErr(p.penetration_mm, x.delta) < tol && relErr(p.maxPressure_Pa, x.p0_Pa) < tol;
}

// The soft patch of the single soft contact of a "hertz" run.
const SoftPatch* onlyPatch(const ModelRun& run) {
  if (run.result->contacts.size() != 1) return nullptr;
  const SoftContactResult* soft = softContactResult(run.result.get(), 0);
  return soft ? &soft->patch : nullptr;
}

}  // namespace

class TestHertz : public QObject {
  Q_OBJECT
 private slots:
  void sphereOnPlaneFromCurvatures() {
    const double R = 10;
    // A sphere (κ = 1/R both ways) on a plane (κ = 0): combineParaboloids gives R' = R'' = R.
    const RelativeCurvature gap = combineParaboloids(1 / R, 1 / R, Vec3::UnitX(), 0, 0, Vec3::UnitY(), Vec3::UnitZ());
    const HertzEllipse h = hertzEllipse(gap, kLoad_N, kEStar_Pa);
    const Expected x = circular(R, kLoad_N);
    QVERIFY(relErr(h.semiAxisLong_mm, x.a) < 1e-9 && relErr(h.semiAxisShort_mm, x.b) < 1e-9);
    QVERIFY(relErr(h.approach_mm, x.delta) < 1e-9);
    QVERIFY(relErr(h.maxPressure_Pa, x.p0_Pa) < 1e-9);
    // Two equal crossed cylinders act as a sphere of that radius on a plane.
    const RelativeCurvature crossed = combineParaboloids(1 / R, 0, Vec3::UnitX(), 1 / R, 0, Vec3::UnitY(), Vec3::UnitZ());
    const HertzEllipse c = hertzEllipse(crossed, kLoad_N, kEStar_Pa);
    QVERIFY(relErr(c.semiAxisLong_mm, x.a) < 1e-9 && relErr(c.approach_mm, x.delta) < 1e-9);
  }

  void crossedCylindersFromCurvatures_data() {
    QTest::addColumn<double>("ratio");  // b/a
    QTest::newRow("b/a = 0.9") << 0.9;
    QTest::newRow("b/a = 0.5") << 0.5;
    QTest::newRow("b/a = 0.2") << 0.2;
  }
  void crossedCylindersFromCurvatures() {
    QFETCH(double, ratio);
    double A = 0, B = 0;
    const Expected x = elliptical(ratio, 20, kLoad_N, A, B);
    const double Rx = 1 / (2 * A), Ry = 1 / (2 * B);
    // Cylinder 1 along y (curves in x, κmax direction x), cylinder 2 along x (curves in y), at 90°; the normal
    // and the directions turned arbitrarily: only the angle between the cylinders matters.
    const Transform turn = Transform::fromAxisAngle(Vec3(0.3, -0.5, 0.8).normalized(), 1.1);
    const RelativeCurvature gap = combineParaboloids(1 / Rx, 0, turn.applyToVector(Vec3::UnitX()), 1 / Ry, 0,
                                                     turn.applyToVector(Vec3::UnitY()), turn.applyToVector(Vec3::UnitZ()));
    QVERIFY(relErr(gap.radiusMin_mm(), Ry) < 1e-12 && relErr(gap.radiusMax_mm(), Rx) < 1e-12);
    const HertzEllipse h = hertzEllipse(gap, kLoad_N, kEStar_Pa);
    QVERIFY2(relErr(h.semiAxisLong_mm, x.a) < 1e-6, qPrintable(QString::number(h.semiAxisLong_mm / x.a - 1)));
    QVERIFY(relErr(h.semiAxisShort_mm, x.b) < 1e-6);
    QVERIFY(relErr(h.approach_mm, x.delta) < 1e-6);
    QVERIFY(relErr(h.maxPressure_Pa, x.p0_Pa) < 1e-6);
    // The long axis lies along the smaller gap curvature 1/Rx: along x, cylinder 2's axis.
    QVERIFY(std::abs(gap.directionMin.dot(turn.applyToVector(Vec3::UnitX()))) > 1 - 1e-12);
  }

  void forceApproachCurve() {
    // Circular: P(δ) = 4/3 E* √R δ^(3/2), the same as hertzCircularForce_N.
    for (double delta : {0.01, 0.1, 0.7})
      QVERIFY(relErr(hertzForceAtApproach_N(10, 10, delta, kEStar_Pa),
                     4.0 / 3.0 * kEStar_Pa * 1e-6 * std::sqrt(10.0) * std::pow(delta, 1.5)) < 1e-9);
    // Elliptical: the curve passes through every (δ(P), P) of the closed form, and P ∝ δ^(3/2).
    double A = 0, B = 0;
    for (double P : {0.5, 5.0, 50.0}) {
      const Expected x = elliptical(0.4, 20, P, A, B);
      QVERIFY(relErr(hertzForceAtApproach_N(1 / (2 * B), 1 / (2 * A), x.delta, kEStar_Pa), P) < 1e-6);
    }
    QCOMPARE(hertzForceAtApproach_N(5, 20, 0.0, kEStar_Pa), 0.0);
    // A patch's own curve: through its operating point; exponent 3/2 (Hertz), 2 (elastic layer:
    // N = π E δ² √(R'R'')/h).
    SoftPatchSettings hz;
    hz.model = PatchModel::Hertz;
    const RelativeCurvature gap = combineParaboloids(0.2, 0.05, Vec3::UnitX(), 0, 0, Vec3::UnitX(), Vec3::UnitZ());
    const SoftPatch ph = computeSoftPatch(gap, kE_Pa, std::nullopt, hz);
    QVERIFY(relErr(ph.forceAtApproach_N(ph.penetration_mm), kLoad_N) < 1e-12);
    QVERIFY(relErr(ph.forceAtApproach_N(2 * ph.penetration_mm), kLoad_N * std::pow(2.0, 1.5)) < 1e-12);
    QVERIFY(relErr(ph.forceAtApproach_N(0.3), hertzForceAtApproach_N(5, 20, 0.3, kEStar_Pa)) < 1e-6);
    const SoftPatch pl = computeSoftPatch(gap, kE_Pa, std::nullopt, {});
    const double delta = 0.3, h = 3;
    QVERIFY(relErr(pl.forceAtApproach_N(delta), kPi * kE_Pa * 1e-6 * delta * delta * std::sqrt(5.0 * 20.0) / h) < 1e-12);
    QVERIFY(relErr(pl.maxPressure_Pa, kE_Pa * pl.penetration_mm / h) < 1e-12);  // E δ / h at the centre
  }

  void conformingGapIsRefused() {
    const RelativeCurvature par = combineParaboloids(0.1, 0, Vec3::UnitX(), 0.05, 0, Vec3::UnitX(), Vec3::UnitZ());
    QVERIFY(par.conforming());
    QVERIFY_THROWS_EXCEPTION(Error, hertzEllipse(par, kLoad_N, kEStar_Pa));
  }

  // End to end on meshes, default settings but the "hertz" model: a soft sphere (R = 10 mm, 5,120 triangles)
  // on a rigid flat face.
  void meshSphereOnPlaneWithinHalfAPercent() {
    const double R = 10;
    const TriangleMesh ball = makeIcosphere(R, 4);
    const Quat down = rotationBetween(ball.vertices[0].normalized(), -Vec3::UnitZ());
    World w;
    addGraspable(w, makeBody("table", BodyKind::Graspable, makeBox(Vec3(60, 60, 10)),
                             Transform::fromTranslation(Vec3(0, 0, -5))));
    addObstacle(w, makeBody("tip", BodyKind::Obstacle, ball, Transform(down, Vec3(0, 0, R + 0.05)), kE_Pa));
    const ModelRun run = runModel(w, "hertz");
    const SoftPatch* p = onlyPatch(run);
    QVERIFY(p);
    QCOMPARE(p->model, PatchModel::Hertz);
    const Expected x = circular(R, kLoad_N);
    qInfo("%s", qPrintable(report("sphere on plane", *p, x)));
    QVERIFY2(within(*p, x, 0.005), qPrintable(report("sphere on plane", *p, x)));
    QVERIFY(relErr(p->forceAtApproach_N(x.delta), kLoad_N) < 0.005);
    // The result's description carries the same patch: a = (3FR/4E*)^(1/3), p0, δ, the patch formula used.
    const Json d = run.result->describeContact(0);
    QCOMPARE(d.at("patch", "").string(""), std::string("hertz"));
    QVERIFY(relErr(d.at("semiAxisLong_mm", "").number(""), x.a) < 0.005);
    QVERIFY(relErr(d.at("semiAxisShort_mm", "").number(""), x.b) < 0.005);
    QVERIFY(relErr(d.at("maxPressure_Pa", "").number(""), x.p0_Pa) < 0.005);
    QVERIFY(relErr(d.at("penetration_mm", "").number(""), x.delta) < 0.005);
    QCOMPARE(d.at("normalForce_N", "").number(""), kLoad_N);
    QCOMPARE(d.at("modulus_Pa", "").number(""), p->modulus_Pa);
    QCOMPARE(d.at("patchFallback", "").string(""), std::string(patchFallbackKey(p->fallback)));
    // Both fits are described, the sphere's curvature ≈ 1/R on one side.
    const double k1 = d.at("fit1", "").at("kappaMax_per_mm", "").number("");
    const double k2 = d.at("fit2", "").at("kappaMax_per_mm", "").number("");
    QVERIFY(relErr(std::max(k1, k2), 1 / R) < 0.01);
    QVERIFY(run.result->describe().members("").empty());  // nothing model-wide
  }

  // Crossed cylinders, the soft one (radius Ry, along x) on a rigid one (radius Rx = 20 mm, along y), b/a = 0.5.
  void meshCrossedCylindersWithinHalfAPercent() {
    double A = 0, B = 0;
    const Expected x = elliptical(0.5, 20, kLoad_N, A, B);
    const double Rx = 1 / (2 * A), Ry = 1 / (2 * B);
    World w;
    // makeRingedCylinder runs along z with a vertex column at angle 0 (+x) and at 90° (+y), a ring at z = 0.
    // The rigid one: axis along y, its +y column turned to the top. The soft one: axis along x, its +x column
    // turned to the bottom.
    const Transform rigidPose(Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitX())), Vec3(0, 0, -Rx));
    const Transform softPose(Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitY())), Vec3(0, 0, Ry + 0.05));
    addGraspable(w, makeBody("rod", BodyKind::Graspable, makeRingedCylinder(Rx, 80, 180, 80), rigidPose));
    addObstacle(w, makeBody("finger", BodyKind::Obstacle, makeRingedCylinder(Ry, 80, 180, 80), softPose, kE_Pa));
    QVERIFY((rigidPose * Vec3(0, Rx, 0)).norm() < 1e-9);
    QVERIFY((softPose * Vec3(Ry, 0, 0) - Vec3(0, 0, 0.05)).norm() < 1e-9);

    const ModelRun run = runModel(w, "hertz");
    const SoftPatch* p = onlyPatch(run);
    QVERIFY(p);
    qInfo("Rx %.3f mm, Ry %.3f mm: %s", Rx, Ry, qPrintable(report("crossed cylinders", *p, x)));
    QVERIFY2(within(*p, x, 0.005), qPrintable(report("crossed cylinders", *p, x)));
    QVERIFY(std::abs(p->axisLong.x()) > 0.999);  // the long axis along the soft cylinder's axis (smaller A)
  }
};

QTEST_GUILESS_MAIN(TestHertz)
#include "tst_hertz.moc"
