// Soft-finger contact model: neighbourhoods, paraboloid fits, relative curvature, patch models (elastic
// layer, Hertz) and friction edges, against analytic values.
#include <QtTest>

#include <cmath>
#include <random>

#include "SoftTestShapes.h"
#include "contact/FrictionEdges.h"
#include "contact/HertzContact.h"
#include "contact/QuadricFit.h"
#include "contact/QuadricRelativeCurvature.h"
#include "contact/SoftContactModel.h"
#include "contact/SoftNeighbourhood.h"
#include "contact/SoftPatch.h"
#include "core/Decompositions.h"
#include "geometry/Bvh.h"
#include "geometry/TriangleTriangle.h"
#include "core/Error.h"

using namespace sg;
using namespace sgtest;

namespace {

bool near(double a, double b, double relTol) { return std::abs(a - b) <= relTol * std::abs(b); }

// Fit at a mesh vertex (the vertex nearest `target`) with inward normal `inward`, fixed radius.
QuadricFit fitAt(const TriangleMesh& mesh, const Transform& pose, const Vec3& target, const Vec3& inwardBody,
                 double radius_mm) {
  const Vec3 p = pose * mesh.vertices[nearestVertex(mesh, target)];
  const Vec3 n = pose.applyToVector(inwardBody).normalized();
  SoftNeighbourhoodSettings s;
  const SoftNeighbourhood nb = gatherNeighbourhood(mesh, pose, p, n, radius_mm, s);
  return fitQuadric(nb.allPoints_mm(), contactFrame(p, n));
}

bool parallel(const Vec3& a, const Vec3& b, double tol) { return std::abs(std::abs(a.normalized().dot(b.normalized())) - 1) < tol; }

}  // namespace

class TestSoft : public QObject {
  Q_OBJECT
 private slots:
  // --- paraboloid fits on tessellated shapes (within 2 %) -----------------------------------------------
  void sphereFitRecoversCurvature() {
    const double R = 25;
    const TriangleMesh mesh = makeUvSphere(R, 240, 120);
    for (const Vec3& dir : {Vec3(1, 0, 0), Vec3(std::cos(0.5) * std::cos(0.7), std::cos(0.5) * std::sin(0.7), std::sin(0.5))}) {
      const Vec3 v = mesh.vertices[nearestVertex(mesh, R * dir)];
      const QuadricFit fit = fitAt(mesh, Transform::identity(), v, -v.normalized(), 3.0);
      QCOMPARE(fit.status, QuadricFitStatus::Ok);
      QVERIFY2(near(fit.curvatures.kappaMax_per_mm, 1 / R, 0.02), qPrintable(QString::number(fit.curvatures.kappaMax_per_mm)));
      QVERIFY(near(fit.curvatures.kappaMin_per_mm, 1 / R, 0.02));
      QVERIFY(fit.rmsResidual_mm < 0.01);
      QVERIFY(fit.pointCount > 10);
    }
  }
  void fitUsesTheContactPointAsOrigin() {
    // src/contact/README.md §Differences from GraspIt!: a sphere far from the world origin must give the same curvature.
    const double R = 25;
    const TriangleMesh mesh = makeUvSphere(R, 240, 120);
    const Transform pose(Quat(Eigen::AngleAxisd(0.8, Vec3(1, 2, 3).normalized())), Vec3(100, -200, 300));
    const QuadricFit fit = fitAt(mesh, pose, Vec3(R, 0, 0), Vec3(-1, 0, 0), 3.0);
    QVERIFY(near(fit.curvatures.kappaMax_per_mm, 1 / R, 0.02));
    QVERIFY(near(fit.curvatures.kappaMin_per_mm, 1 / R, 0.02));
  }
  void cylinderFitRecoversCurvatureAndDirections() {
    const double R = 15;
    const TriangleMesh mesh = makeRingedCylinder(R, 60, 360, 120);
    const QuadricFit fit = fitAt(mesh, Transform::identity(), Vec3(R, 0, 0), Vec3(-1, 0, 0), 2.5);
    QCOMPARE(fit.status, QuadricFitStatus::Ok);
    QVERIFY2(near(fit.curvatures.kappaMax_per_mm, 1 / R, 0.02), qPrintable(QString::number(fit.curvatures.kappaMax_per_mm)));
    QVERIFY(std::abs(fit.curvatures.kappaMin_per_mm) < 0.02 / R);
    QVERIFY(parallel(fit.curvatures.directionMax, Vec3::UnitY(), 1e-3));  // around the circumference
    QVERIFY(parallel(fit.curvatures.directionMin, Vec3::UnitZ(), 1e-3));  // along the axis
  }
  void ellipsoidFitRecoversBothCurvatures() {
    // x²/a² + y²/b² + z²/c² = 1 at (a, 0, 0): κ_y = a/b², κ_z = a/c².
    const double a = 60, b = 40, c = 30;
    TriangleMesh mesh = makeUvSphere(1.0, 360, 180);
    mesh.transform(Mat3::Identity(), Vec3::Zero(), Vec3(a, b, c));
    const QuadricFit fit = fitAt(mesh, Transform::identity(), Vec3(a, 0, 0), Vec3(-1, 0, 0), 2.5);
    QVERIFY2(near(fit.curvatures.kappaMax_per_mm, a / (c * c), 0.02), qPrintable(QString::number(fit.curvatures.kappaMax_per_mm)));
    QVERIFY2(near(fit.curvatures.kappaMin_per_mm, a / (b * b), 0.02), qPrintable(QString::number(fit.curvatures.kappaMin_per_mm)));
    QVERIFY(parallel(fit.curvatures.directionMax, Vec3::UnitZ(), 1e-3));
    QVERIFY(parallel(fit.curvatures.directionMin, Vec3::UnitY(), 1e-3));
  }
  void principalCurvaturesOfRotatedParaboloid() {
    // κ = (0.2, 0.05) rotated by 30°, and the a = b case GraspIt! got wrong (θ = π/2 instead of π/4).
    const double t = degToRad(30), k1 = 0.2, k2 = 0.05;
    const double ct = std::cos(t), st = std::sin(t);
    const double a = 0.5 * (k1 * ct * ct + k2 * st * st), b = 0.5 * (k1 * st * st + k2 * ct * ct), c = (k1 - k2) * ct * st;
    const PrincipalCurvatures pc = principalCurvatures(a, b, c, Transform::identity());
    QVERIFY(std::abs(pc.kappaMax_per_mm - k1) < 1e-12);
    QVERIFY(std::abs(pc.kappaMin_per_mm - k2) < 1e-12);
    QVERIFY(parallel(pc.directionMax, Vec3(ct, st, 0), 1e-12));
    const PrincipalCurvatures eq = principalCurvatures(0.1, 0.1, 0.05, Transform::identity());
    QVERIFY(std::abs(eq.kappaMax_per_mm - 0.25) < 1e-12 && std::abs(eq.kappaMin_per_mm - 0.15) < 1e-12);
    QVERIFY(parallel(eq.directionMax, Vec3(1, 1, 0), 1e-12));
    QVERIFY(std::abs(eq.radiusMax_mm() - 4.0) < 1e-9);
  }
  void flatConcaveAndDegenerateFits() {
    // Points of a plane: exactly flat, infinite radii.
    std::vector<Vec3> plane;
    for (int i = -3; i <= 3; ++i)
      for (int j = -3; j <= 3; ++j) plane.emplace_back(i, j, 0);
    const QuadricFit flat = fitQuadric(plane, Transform::identity());
    QCOMPARE(flat.status, QuadricFitStatus::Ok);
    QVERIFY(flat.curvatures.flatMax() && flat.curvatures.flatMin());
    QVERIFY(std::isinf(flat.curvatures.radiusMax_mm()));
    // Concave bowl z = −0.05(x² + y²): both curvatures negative, flagged concave.
    std::vector<Vec3> bowl;
    for (const auto& p : plane) bowl.emplace_back(p.x(), p.y(), -0.05 * (p.x() * p.x() + p.y() * p.y()));
    const QuadricFit concave = fitQuadric(bowl, Transform::identity());
    QVERIFY(concave.curvatures.concave());
    QVERIFY(std::abs(concave.curvatures.kappaMin_per_mm + 0.1) < 1e-9);
    // Two points, or points on a line: no fit, flat, reported.
    QCOMPARE(fitQuadric({Vec3(1, 0, 0.1), Vec3(0, 1, 0.1)}, Transform::identity()).status, QuadricFitStatus::TooFewPoints);
    const QuadricFit line = fitQuadric({Vec3(1, 0, 0.1), Vec3(2, 0, 0.4), Vec3(3, 0, 0.9), Vec3(4, 0, 1.6)}, Transform::identity());
    QCOMPARE(line.status, QuadricFitStatus::Degenerate);
    QVERIFY(line.curvatures.flatMax());
  }

  // --- relative curvature (Johnson / Simbody combineParaboloids) -------------------------------------------
  void crossedCylinders() {
    const double R1 = 10, R2 = 20;
    const Vec3 n = Vec3::UnitZ();
    const RelativeCurvature rc = combineParaboloids(1 / R1, 0, Vec3::UnitX(), 1 / R2, 0, Vec3::UnitY(), n);
    QVERIFY(std::abs(rc.kappaMax_per_mm - 1 / R1) < 1e-12);
    QVERIFY(std::abs(rc.kappaMin_per_mm - 1 / R2) < 1e-12);
    QVERIFY(parallel(rc.directionMax, Vec3::UnitX(), 1e-12));
    // Equal crossed cylinders = sphere of that radius on a plane.
    const RelativeCurvature eq = combineParaboloids(0.1, 0, Vec3::UnitX(), 0.1, 0, Vec3::UnitY(), n);
    QVERIFY(std::abs(eq.kappaMax_per_mm - 0.1) < 1e-12 && std::abs(eq.kappaMin_per_mm - 0.1) < 1e-12);
    // Parallel cylinders: line contact (κmin = 0).
    const RelativeCurvature par = combineParaboloids(0.1, 0, Vec3::UnitX(), 0.05, 0, -Vec3::UnitX(), n);
    QVERIFY(std::abs(par.kappaMax_per_mm - 0.15) < 1e-12 && std::abs(par.kappaMin_per_mm) < 1e-12);
    QVERIFY(par.conforming());
  }
  void spheresAndPlane() {
    const Vec3 n = Vec3::UnitZ();
    const RelativeCurvature two = combineParaboloids(0.05, 0.05, Vec3::UnitX(), 0.05, 0.05, Vec3::UnitY(), n);
    QVERIFY(std::abs(two.radiusMin_mm() - 10) < 1e-9 && std::abs(two.radiusMax_mm() - 10) < 1e-9);  // R/2
    const RelativeCurvature plane = combineParaboloids(0.05, 0.05, Vec3::UnitX(), 0, 0, Vec3::UnitY(), n);
    QVERIFY(std::abs(plane.radiusMin_mm() - 20) < 1e-9 && std::abs(plane.radiusMax_mm() - 20) < 1e-9);
  }
  void generalAngleMatchesSummedHessians() {
    const Vec3 n = Vec3(1, 1, 1).normalized();
    const Vec3 x1 = n.cross(Vec3::UnitX()).normalized(), y1 = n.cross(x1);
    const double w = 0.6;
    const Vec3 x2 = std::cos(w) * x1 + std::sin(w) * y1;
    const double k1a = 0.3, k1b = 0.1, k2a = 0.25, k2b = -0.05;
    const RelativeCurvature rc = combineParaboloids(k1a, k1b, x1, k2a, k2b, x2, n);
    Eigen::Matrix2d H1 = Eigen::Vector2d(k1a, k1b).asDiagonal();
    Eigen::Matrix2d Rw;
    Rw << std::cos(w), -std::sin(w), std::sin(w), std::cos(w);
    const Eigen::Matrix2d H = H1 + Rw * Eigen::Vector2d(k2a, k2b).asDiagonal() * Rw.transpose();
    const SymmetricEigen2 eig = symmetricEigen(H);  // Eigen's SelfAdjointEigenSolver
    QVERIFY(std::abs(rc.kappaMax_per_mm - eig.values(1)) < 1e-12);
    QVERIFY(std::abs(rc.kappaMin_per_mm - eig.values(0)) < 1e-12);
    const Vec3 dir = eig.vectors(0, 1) * x1 + eig.vectors(1, 1) * y1;
    QVERIFY(parallel(rc.directionMax, dir, 1e-9));
    // Concave rule: treating the concave direction as flat changes the result, signed keeps it.
    PrincipalCurvatures a, b;
    a.kappaMax_per_mm = 0.1; a.kappaMin_per_mm = 0.1; a.directionMax = Vec3::UnitX(); a.directionMin = Vec3::UnitY();
    b.kappaMax_per_mm = -0.02; b.kappaMin_per_mm = -0.05; b.directionMax = Vec3::UnitX(); b.directionMin = Vec3::UnitY();
    QVERIFY(std::abs(relativeCurvature(a, b, Vec3::UnitZ(), ConcaveRule::Signed).kappaMin_per_mm - 0.05) < 1e-12);
    QVERIFY(std::abs(relativeCurvature(a, b, Vec3::UnitZ(), ConcaveRule::TreatAsFlat).kappaMin_per_mm - 0.1) < 1e-12);
  }

  // --- patch models -------------------------------------------------------------------------------------
  void ellipticIntegrals() {
    QVERIFY(std::abs(ellipticK(0) - kPi / 2) < 1e-15);
    QVERIFY(std::abs(ellipticE(0) - kPi / 2) < 1e-15);
    QVERIFY(std::abs(ellipticK(0.5) - 1.854074677301372) < 1e-13);
    QVERIFY(std::abs(ellipticE(0.5) - 1.350643881047675) < 1e-13);
    QVERIFY(std::abs(ellipticE(0.99) - 1.015993545025224) < 1e-12);
  }
  void hertzSphereOnPlaneClosedForm() {
    // src/contact/README.md §Reference values: R = 50 mm, E' = 1e7 Pa, x = 0.1 mm → F = 2.981 N, a = 2.236 mm, p0 = 2.85e5 Pa.
    const double eStar = hertzEffectiveModulus_Pa(1e7, 0.0, std::nullopt, 0.3);
    QCOMPARE(eStar, 1e7);
    const double F = hertzCircularForce_N(50, 0.1, eStar);
    QVERIFY(std::abs(F - 4.0 / 3.0 * 10 * std::sqrt(50) * std::pow(0.1, 1.5)) < 1e-12);
    QVERIFY(std::abs(F - 2.981) < 1e-3);
    const HertzEllipse h = hertzEllipse(50, 50, F, eStar);
    QVERIFY(std::abs(h.semiAxisLong_mm - std::sqrt(5.0)) < 1e-9);
    QVERIFY(std::abs(h.semiAxisShort_mm - std::sqrt(5.0)) < 1e-9);
    QVERIFY(std::abs(h.approach_mm - 0.1) < 1e-9);
    QVERIFY(std::abs(h.maxPressure_Pa - 2.85e5) < 0.01e5);
    // Two equal elastic bodies: E* = E / (2(1 − ν²)).
    QVERIFY(std::abs(hertzEffectiveModulus_Pa(2e6, 0.5, 2e6, 0.5) - 2e6 / 1.5) < 1e-6);
    QVERIFY_THROWS_EXCEPTION(Error, hertzEffectiveModulus_Pa(std::nullopt, 0.5, -1.0, 0.5));
  }
  void hertzEllipseIsConsistent() {
    // Slightly elliptical → continuous with the circle; strongly elliptical → satisfies Johnson's relations.
    const double N = 5, eStar = 2e6;
    const HertzEllipse circle = hertzEllipse(20, 20, N, eStar);
    const HertzEllipse almost = hertzEllipse(20, 20.0001, N, eStar);
    QVERIFY(near(almost.semiAxisLong_mm, circle.semiAxisLong_mm, 1e-4));
    QVERIFY(near(almost.approach_mm, circle.approach_mm, 1e-4));
    const HertzEllipse e = hertzEllipse(5, 50, N, eStar);  // B/A = 10
    QVERIFY(e.semiAxisLong_mm > e.semiAxisShort_mm);
    const double m = e.eccentricitySquared, K = ellipticK(m), E = ellipticE(m);
    const double a = e.semiAxisLong_mm, b = e.semiAxisShort_mm, p0 = 1.5 * N / (kPi * a * b), es = eStar * 1e-6;
    // A = p0 b (K − E)/(E* e² a²) = 1/(2R''), B = p0 b ((a/b)² E − K)/(E* e² a²) = 1/(2R'), δ = p0 b K / E*.
    QVERIFY(near(p0 * b * (K - E) / (es * m * a * a), 0.5 / 50, 1e-9));
    QVERIFY(near(p0 * b * ((a * a) / (b * b) * E - K) / (es * m * a * a), 0.5 / 5, 1e-9));
    QVERIFY(near(e.approach_mm, p0 * b * K / es, 1e-12));
    // Johnson's approximation a/b ≈ (B/A)^(2/3) holds to a few percent.
    QVERIFY(near(a / b, std::pow(10.0, 2.0 / 3.0), 0.1));
  }
  void elasticLayerWorkedExample() {
    // src/contact/README.md §Reference values: E = 1.5 MPa, R' = R'' = 20 mm, N = 5 N ⇒ δ ≈ 0.40 mm, a = b ≈ 4.0 mm, e_n ≈ 2.1 mm.
    const SoftPatch p = elasticLayerPatch(20, 20, 5, 1.5e6, 3);
    const double delta = std::sqrt(5 * 3 / (1.5 * kPi * 20));
    QVERIFY(std::abs(p.penetration_mm - delta) < 1e-12);
    QVERIFY(std::abs(p.penetration_mm - 0.3989) < 1e-3);
    QVERIFY(std::abs(p.semiAxisLong_mm - std::sqrt(40 * delta)) < 1e-12);
    QVERIFY(std::abs(p.semiAxisLong_mm - 3.995) < 2e-3);
    QVERIFY(std::abs(p.torsionPerFriction_mm - 8.0 / 15.0 * p.semiAxisLong_mm) < 1e-12);
    QVERIFY(std::abs(p.maxTorsionalFriction_Nmm(0.5) - 0.5 * 5 * p.torsionPerFriction_mm) < 1e-12);
    // The layer model through computeSoftPatch, with a flat relative curvature → the 20 mm replacement.
    RelativeCurvature flat;
    const SoftPatch q = computeSoftPatch(flat, 1.5e6, std::nullopt);
    QVERIFY(q.flatReplaced);
    QVERIFY(std::abs(q.semiAxisLong_mm - p.semiAxisLong_mm) < 1e-12);
    // Hertz option: circular, torsion 3π/16 · a.
    RelativeCurvature sphere;
    sphere.kappaMax_per_mm = sphere.kappaMin_per_mm = 1.0 / 20;
    SoftPatchSettings hs;
    hs.model = PatchModel::Hertz;
    hs.poissonRatio = 0.0;
    const SoftPatch hz = computeSoftPatch(sphere, 1.5e6, std::nullopt, hs);
    const double aH = std::cbrt(3 * 5 * 20 / (4 * 1.5));
    QVERIFY(std::abs(hz.semiAxisLong_mm - aH) < 1e-9);
    QVERIFY(std::abs(hz.torsionPerFriction_mm - 3 * kPi / 16 * aH) < 1e-9);
    QVERIFY_THROWS_EXCEPTION(Error, computeSoftPatch(sphere, std::nullopt, std::nullopt));
  }

  // --- friction edges -----------------------------------------------------------------------------------
  void graspItTwentyEdges() {
    // src/contact/README.md §Reference values: the shipped Barrett virtual contacts, e_n = 1.640803 mm.
    const double en = 1.640803;
    const auto edges = softContactEdges(en);
    QCOMPARE(edges.size(), std::size_t(20));
    Vec6 pole, first;
    pole << 0, 0, 0, 0, 0, 1.640803;
    first << 0.853909, 0, 0, 0, 0, 0.853909;
    QVERIFY((edges[0] - pole).cwiseAbs().maxCoeff() < 1e-6);
    QVERIFY((edges[1] - first).cwiseAbs().maxCoeff() < 1e-6);
    QVERIFY(std::abs(edges[2](0) - 0.853909 * std::cos(2 * kPi / 5)) < 1e-6);
    for (int i = 6; i < 14; ++i) {  // the equator: unit tangents at 45° steps, no torsion
      QVERIFY(std::abs(Vec2(edges[i](0), edges[i](1)).norm() - 1) < 1e-12);
      QCOMPARE(edges[i](5), 0.0);
    }
    QVERIFY((edges[19] + pole).cwiseAbs().maxCoeff() < 1e-6);
    for (const auto& e : edges) {  // all on the ellipsoid, no other components
      QVERIFY(std::abs(e(0) * e(0) + e(1) * e(1) + (e(5) / en) * (e(5) / en) - 1) < 1e-12);
      QCOMPARE(e(2), 0.0);
      QCOMPARE(e(3), 0.0);
      QCOMPARE(e(4), 0.0);
    }
  }
  void pointAndFrictionlessEdges() {
    const auto cone = pointContactEdges(8);
    QCOMPARE(cone.size(), std::size_t(8));
    QVERIFY(std::abs(cone[1](0) - std::sqrt(0.5)) < 1e-12 && std::abs(cone[1](1) - std::sqrt(0.5)) < 1e-12);
    QCOMPARE(frictionEdgesFor(ContactKind::Frictionless, 0).size(), std::size_t(1));
    QVERIFY(frictionEdgesFor(ContactKind::Frictionless, 0)[0].isZero());
    FrictionEdgeSettings s;
    s.pointContactEdges = 6;
    QCOMPARE(frictionEdgesFor(ContactKind::PointWithFriction, 0, s).size(), std::size_t(6));
    s.softRings = {{60, 4}, {0, 12}, {-60, 4}};
    QCOMPARE(frictionEdgesFor(ContactKind::SoftFinger, 2.0, s).size(), std::size_t(20));
    QVERIFY_THROWS_EXCEPTION(Error, pointContactEdges(0));
  }

  // --- neighbourhoods -----------------------------------------------------------------------------------
  void neighbourhoodRadius() {
    SoftNeighbourhoodSettings s;
    QVERIFY(std::abs(neighbourhoodRadius_mm(1.5e6, std::nullopt, s) - 400 * std::pow(1 / 1.5e6, 0.333)) < 1e-12);
    QVERIFY(std::abs(neighbourhoodRadius_mm(1.5e6, std::nullopt, s) - 3.5109) < 1e-3);
    QCOMPARE(neighbourhoodRadius_mm(1500, std::nullopt, s), 10.0);  // clamped (GraspIt!: 35 mm)
    s.maxRadius_mm = std::numeric_limits<double>::infinity();
    QVERIFY(std::abs(neighbourhoodRadius_mm(1500, std::nullopt, s) - 35.0) < 0.2);
    // Two elastic bodies: the softer decides by default; GraspIt!'s rule takes the stiffer.
    s = {};
    s.minRadius_mm = 0;
    s.maxRadius_mm = 1e9;
    QCOMPARE(neighbourhoodRadius_mm(1e5, 1e7, s), neighbourhoodRadius_mm(1e5, std::nullopt, s));
    s.modulusRule = ModulusRule::Stiffer;
    QCOMPARE(neighbourhoodRadius_mm(1e5, 1e7, s), neighbourhoodRadius_mm(1e7, std::nullopt, s));
    QCOMPARE(neighbourhoodRadius_mm(std::nullopt, -1.0, s), s.fixedRadius_mm);  // no elastic body
  }
  void neighbourhoodKeepsOpposingFacesOnly() {
    const double R = 20;
    const TriangleMesh mesh = makeUvSphere(R, 64, 32);
    const Vec3 p = mesh.vertices[nearestVertex(mesh, Vec3(R, 0, 0))];
    SoftNeighbourhoodSettings s;
    // A radius larger than the sphere: only the hemisphere facing the contact survives the normal test.
    const SoftNeighbourhood all = gatherNeighbourhood(mesh, Transform::identity(), p, -p.normalized(), 100, s);
    QVERIFY(all.vertexIndices.size() > 100);
    for (const auto& q : all.vertexPoints_mm) QVERIFY(q.x() > -1.0);
    QCOMPARE(all.contactPoints_mm.size(), std::size_t(1));
    // GraspIt!'s whole-triangle rule reaches beyond the radius; the vertex rule does not.
    const SoftNeighbourhood tri = gatherNeighbourhood(mesh, Transform::identity(), p, -p.normalized(), 3, s);
    s.vertexRule = NeighbourhoodVertexRule::VerticesInside;
    const SoftNeighbourhood vin = gatherNeighbourhood(mesh, Transform::identity(), p, -p.normalized(), 3, s);
    QVERIFY(vin.vertexIndices.size() < tri.vertexIndices.size());
    for (const auto& q : vin.vertexPoints_mm) QVERIFY((q - p).norm() <= 3 + 1e-9);
    // Moving the body moves the neighbourhood with it.
    const Transform pose = Transform::fromTranslation(Vec3(0, 50, 0));
    const SoftNeighbourhood moved = gatherNeighbourhood(mesh, pose, pose * p, -p.normalized(), 3, {});
    QCOMPARE(moved.vertexIndices, tri.vertexIndices);
  }
  // The whole-triangle rule equals a brute-force selection (every triangle passing the normal test whose
  // closest point is within the radius), whatever the radius and the contact point: the cheap bounding-box
  // rejection in gatherNeighbourhood never drops a triangle the exact test keeps.
  void neighbourhoodMatchesBruteForce() {
    const TriangleMesh mesh = makeUvSphere(20, 48, 24);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(-1, 1), radius(0.5, 25);
    SoftNeighbourhoodSettings s;
    for (int k = 0; k < 60; ++k) {
      const Vec3 dir = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
      const Vec3 p = (20 + unit(rng)) * dir;  // near the surface, inside or outside
      const double r = radius(rng);
      const SoftNeighbourhood got = gatherNeighbourhood(mesh, Transform::identity(), p, -dir, r, s);
      std::vector<std::uint32_t> want;
      for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
        const auto& tri = mesh.triangles[t];
        const Vec3 &a = mesh.vertices[tri[0]], &b = mesh.vertices[tri[1]], &c = mesh.vertices[tri[2]];
        const Vec3 faceNormal = mesh.faceNormals.size() == mesh.triangles.size()
                                    ? mesh.faceNormals[t]
                                    : Vec3((b - a).cross(c - a).normalized());
        if (faceNormal.dot(-dir) > s.maxFaceNormalDot + 1e-9) continue;
        if (closestPointOnTriangle(p, a, b, c).distanceSquared > r * r * (1 + 1e-12)) continue;
        want.insert(want.end(), tri.begin(), tri.end());
      }
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      QCOMPARE(got.vertexIndices, want);
    }
  }
  // With the mesh's BVH (only triangles in nodes that reach the query ball are tested) the neighbourhood is
  // the full scan's, for both vertex rules, placed bodies, radii from a fraction of a triangle to the whole
  // mesh, and query points inside, on and off the surface; a radius of NaN falls back to the full scan.
  void neighbourhoodWithBvhEqualsFullScan() {
    const auto mesh = std::make_shared<const TriangleMesh>(makeUvSphere(20, 48, 24));
    const Bvh bvh(*mesh);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(-1, 1), radius(0.05, 45);
    int nonEmpty = 0;
    for (int k = 0; k < 120; ++k) {
      const Vec3 dir = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
      const Vec3 axis = Vec3(unit(rng), unit(rng), unit(rng)).normalized();
      const Transform pose(Quat(Eigen::AngleAxisd(3 * unit(rng), axis)), Vec3(100 * unit(rng), 100 * unit(rng), 0));
      const Vec3 p_W_mm = pose * ((20 + 2 * unit(rng)) * dir);
      const Vec3 n_W = pose.applyToVector(-dir);
      SoftNeighbourhoodSettings s;
      if (k % 2 == 1) s.vertexRule = NeighbourhoodVertexRule::VerticesInside;
      const double r = radius(rng);
      const SoftNeighbourhood full = gatherNeighbourhood(*mesh, pose, p_W_mm, n_W, r, s);
      const SoftNeighbourhood pruned = gatherNeighbourhood(*mesh, &bvh, pose, p_W_mm, n_W, r, s);
      QCOMPARE(pruned.vertexIndices, full.vertexIndices);
      QCOMPARE(pruned.vertexPoints_mm.size(), full.vertexPoints_mm.size());
      for (std::size_t i = 0; i < full.vertexPoints_mm.size(); ++i)
        QCOMPARE(pruned.vertexPoints_mm[i], full.vertexPoints_mm[i]);
      nonEmpty += full.vertexIndices.empty() ? 0 : 1;
    }
    QVERIFY(nonEmpty > 60);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const Vec3 p = mesh->vertices[nearestVertex(*mesh, Vec3(20, 0, 0))];
    QCOMPARE(gatherNeighbourhood(*mesh, &bvh, Transform::identity(), p, Vec3(-1, 0, 0), nan, {}).vertexIndices,
             gatherNeighbourhood(*mesh, Transform::identity(), p, Vec3(-1, 0, 0), nan, {}).vertexIndices);
  }
  void overlappingContactsMerge() {
    World w;
    sgtest::addGraspable(w, makeBody("ball", BodyKind::Graspable, makeUvSphere(20, 64, 32), Transform::identity()));
    sgtest::addObstacle(w, makeBody("pad", BodyKind::Obstacle, makeUvSphere(10, 32, 16),
                                   Transform::fromTranslation(Vec3(30, 0, 0)), 1e6));
    const Vec3 n(-1, 0, 0);
    std::vector<Contact> cs = {
        makeContact(graspableHandle(0), Vec3(20, 0, 0), n, obstacleHandle(0), Vec3(20, 0, 0), 0.5, 0.05),
        makeContact(graspableHandle(0), Vec3(20, 0.8, 0), n, obstacleHandle(0), Vec3(20, 0.8, 0), 0.5, 0.01),
        makeContact(graspableHandle(0), Vec3(-20, 0, 0), -n, obstacleHandle(0), Vec3(-20, 0, 0), 0.5, 0.0)};
    SoftContactSettings s;
    auto pairs = gatherSoftNeighbourhoods(w, cs, s);
    QCOMPARE(pairs.size(), std::size_t(3));
    const std::size_t before = pairs[0].side1.vertexIndices.size();
    mergeOverlappingContacts(cs, pairs);
    QCOMPARE(cs.size(), std::size_t(2));
    QCOMPARE(cs[0].separation_mm, 0.01);  // the closer one survives
    QCOMPARE(pairs[0].sourceContacts, (std::vector<int>{0, 1}));
    QVERIFY(pairs[0].side1.vertexIndices.size() >= before);
    QCOMPARE(pairs[0].side1.contactPoints_mm.size(), std::size_t(2));
    QCOMPARE(pairs[1].sourceContacts, (std::vector<int>{2}));
  }
  void softContactEndToEnd() {
    // A soft fingertip sphere (R = 10, E = 1.5 MPa) touching a rigid ball (R = 40):
    // relative radius 1/(1/10 + 1/40) = 8 mm, and the layer patch for it.
    World w;
    sgtest::addGraspable(w, makeBody("ball", BodyKind::Graspable, makeUvSphere(40, 360, 180), Transform::identity()));
    sgtest::addObstacle(w, makeBody("tip", BodyKind::Obstacle, makeUvSphere(10, 180, 90),
                                   Transform::fromTranslation(Vec3(50, 0, 0)), 1.5e6));
    const Contact c = makeContact(graspableHandle(0), Vec3(40, 0, 0), Vec3(-1, 0, 0), obstacleHandle(0), Vec3(40, 0, 0),
                                  0.5);
    SoftContactSettings s;
    auto pairs = gatherSoftNeighbourhoods(w, {c}, s);
    const SoftContactResult r = analyzeSoftContact(w, c, pairs[0], s);
    QVERIFY(std::abs(r.neighbourhoodRadius_mm - 3.5109) < 1e-3);
    QVERIFY(near(r.fit1.curvatures.kappaMin_per_mm, 1.0 / 40, 0.02));
    // The fingertip's 3.5 mm neighbourhood is large against its 10 mm radius (GraspIt!'s rule): the quartic
    // term of the sphere biases the paraboloid by a few percent.
    QVERIFY2(near(r.fit2.curvatures.kappaMin_per_mm, 1.0 / 10, 0.05), qPrintable(QString::number(r.fit2.curvatures.kappaMin_per_mm)));
    QVERIFY(near(r.relative.radiusMin_mm(), 8.0, 0.05));
    QVERIFY(near(r.relative.radiusMax_mm(), 8.0, 0.05));
    const SoftPatch expect = elasticLayerPatch(r.patch.relativeRadiusMin_mm, r.patch.relativeRadiusMax_mm, 5, 1.5e6, 3);
    QVERIFY(std::abs(r.patch.semiAxisLong_mm - expect.semiAxisLong_mm) < 1e-12);
    QVERIFY(near(r.patch.torsionPerFriction_mm, 8.0 / 15.0 * std::sqrt(2 * std::sqrt(5 * 3 / (1.5 * kPi * 8)) * 8), 0.05));
    QVERIFY(!r.patch.flatReplaced);
  }
};

QTEST_GUILESS_MAIN(TestSoft)
#include "tst_soft.moc"
