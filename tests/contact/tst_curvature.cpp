// Curvature estimators (src/contact/README.md §Curvature estimators) against closed forms: the osculating jet
// within 1 % on well-tessellated spheres, cylinders and ellipsoids at the default neighbourhood; GraspIt!'s
// paraboloid keeps its known bias; rigid-motion invariance; degenerate neighbourhoods.
#include <QtTest>

#include <cmath>
#include <memory>
#include <random>

#include "SoftTestShapes.h"
#include "contact/CornerNormalTerms.h"
#include "contact/CurvatureEstimator.h"
#include "contact/QuadricFit.h"
#include "contact/SoftContactModel.h"
#include "contact/SoftNeighbourhood.h"
#include "geometry/Bvh.h"
#include "geometry/BvhCache.h"
#include "geometry/Primitives.h"
#include "model/World.h"

using namespace sg;
using namespace sgtest;

namespace {

double relErr(double got, double want) { return std::abs(got - want) / std::abs(want); }

// The default neighbourhood of a soft fingertip (E = 1.5 MPa, GraspIt!'s rule): 400·E^-0.333 = 3.51 mm.
double defaultRadius() { return neighbourhoodRadius_mm(1.5e6, std::nullopt, SoftNeighbourhoodSettings{}); }

struct Fits {
  QuadricFit graspIt, jet;
};

// Both estimators at the mesh vertex nearest `target` (body frame) with inward normal `inwardBody` (body frame),
// the body placed by `pose`.
Fits fitsAt(const TriangleMesh& mesh, const Transform& pose, const Vec3& target, const Vec3& inwardBody, double radius_mm) {
  const Vec3 p = pose * mesh.vertices[nearestVertex(mesh, target)];
  const Vec3 n = pose.applyToVector(inwardBody).normalized();
  const SoftNeighbourhood nb = gatherNeighbourhood(mesh, pose, p, n, radius_mm, SoftNeighbourhoodSettings{});
  std::vector<Vec3> normals(nb.contactPoints_mm.size(), Vec3::Zero());
  for (const Vec3& m : vertexNormals(mesh, nb.vertexIndices)) normals.push_back(pose.applyToVector(m));
  QuadricFitSettings s;
  Fits f;
  s.estimator = CurvatureEstimator::GraspItParaboloid;
  f.graspIt = fitCurvature(nb.allPoints_mm(), normals, contactFrame(p, n), s);
  s.estimator = CurvatureEstimator::OsculatingJet;
  f.jet = fitCurvature(nb.allPoints_mm(), normals, contactFrame(p, n), s);
  return f;
}

QString report(const char* what, const Fits& f, double kMax, double kMin) {
  return QString("%1: jet %2 / %3 %, GraspIt! %4 / %5 % (deg %6, %7 pts, %8 normals, rms %9 mm)")
      .arg(what)
      .arg(100 * (f.jet.curvatures.kappaMax_per_mm - kMax) / kMax, 0, 'f', 3)
      .arg(kMin == 0 ? f.jet.curvatures.kappaMin_per_mm * 1e3 : 100 * (f.jet.curvatures.kappaMin_per_mm - kMin) / kMin, 0, 'f', 3)
      .arg(100 * (f.graspIt.curvatures.kappaMax_per_mm - kMax) / kMax, 0, 'f', 3)
      .arg(kMin == 0 ? f.graspIt.curvatures.kappaMin_per_mm * 1e3 : 100 * (f.graspIt.curvatures.kappaMin_per_mm - kMin) / kMin, 0, 'f', 3)
      .arg(f.jet.degree)
      .arg(f.jet.pointCount)
      .arg(f.jet.normalCount)
      .arg(f.jet.rmsResidual_mm, 0, 'g', 3);
}

bool parallel(const Vec3& a, const Vec3& b, double tol) {
  return std::abs(std::abs(a.normalized().dot(b.normalized())) - 1) < tol;
}

const std::vector<Vec3>& sphereDirections() {
  static const std::vector<Vec3> dirs = {Vec3(1, 0, 0), Vec3(0, 0, 1),
                                         Vec3(std::cos(0.5) * std::cos(0.7), std::cos(0.5) * std::sin(0.7), std::sin(0.5)),
                                         Vec3(-0.3, 0.8, -0.5).normalized()};
  return dirs;
}

}  // namespace

class TestCurvature : public QObject {
  Q_OBJECT
 private slots:
  void defaultRadiusIsTheFingertipRule() { QVERIFY(std::abs(defaultRadius() - 3.5109) < 1e-3); }

  void spheres_data() {
    QTest::addColumn<double>("R");
    QTest::addColumn<int>("kind");  // 0 icosphere, 1 UV sphere
    QTest::addColumn<int>("n");     // subdivisions, or slices (stacks = slices/2 + 2)
    QTest::addColumn<double>("radius");
    QTest::newRow("R10 ico 1280 tri") << 10.0 << 0 << 3 << defaultRadius();
    QTest::newRow("R10 uv 1680 tri (Coin's count)") << 10.0 << 1 << 40 << defaultRadius();
    QTest::newRow("R10 ico 5120 tri") << 10.0 << 0 << 4 << defaultRadius();
    QTest::newRow("R20 ico 5120 tri") << 20.0 << 0 << 4 << defaultRadius();
    QTest::newRow("R60 ico 20480 tri") << 60.0 << 0 << 5 << defaultRadius();
    QTest::newRow("R60 ico 81920 tri") << 60.0 << 0 << 6 << defaultRadius();
    QTest::newRow("R10 ico 1280 tri, r = 5 (fixed rule)") << 10.0 << 0 << 3 << 5.0;
    QTest::newRow("R20 ico 5120 tri, r = 10 (clamp max)") << 20.0 << 0 << 4 << 10.0;
  }
  void spheres() {
    QFETCH(double, R);
    QFETCH(int, kind);
    QFETCH(int, n);
    QFETCH(double, radius);
    const TriangleMesh mesh = kind == 0 ? makeIcosphere(R, n) : makeUvSphere(R, n, n / 2 + 2);
    QVERIFY(mesh.triangleCount() >= 1000);
    for (const Vec3& dir : sphereDirections()) {
      const Fits f = fitsAt(mesh, Transform::identity(), R * dir, -dir, radius);
      qInfo().noquote() << report("sphere", f, 1 / R, 1 / R);
      QCOMPARE(f.jet.status, QuadricFitStatus::Ok);
      QCOMPARE(f.jet.estimator, CurvatureEstimator::OsculatingJet);
      QCOMPARE(f.graspIt.estimator, CurvatureEstimator::GraspItParaboloid);
      QVERIFY(relErr(f.jet.curvatures.kappaMax_per_mm, 1 / R) <= 0.01);
      QVERIFY(relErr(f.jet.curvatures.kappaMin_per_mm, 1 / R) <= 0.01);
      QVERIFY(f.jet.normalCount > 5);
    }
  }
  void graspItFitKeepsItsBias() {
    // On the R = 10 mm sphere at the default neighbourhood GraspIt!'s paraboloid is more than 2 % high, the jet
    // within 1 %: the test tells them apart.
    for (const TriangleMesh& mesh : {makeIcosphere(10, 3), makeUvSphere(10, 40, 22)}) {
      const Fits f = fitsAt(mesh, Transform::identity(), Vec3(10, 0, 0), Vec3(-1, 0, 0), defaultRadius());
      QVERIFY(f.graspIt.curvatures.kappaMax_per_mm > 1.02 * 0.1);
      QVERIFY(f.graspIt.curvatures.kappaMin_per_mm > 1.02 * 0.1);
      QVERIFY(relErr(f.jet.curvatures.kappaMin_per_mm, 0.1) <= 0.01);
    }
  }
  void cylinder() {
    // κ = 1/R around the circumference, 0 along the axis.
    for (const double R : {10.0, 15.0, 40.0}) {
      const TriangleMesh mesh = makeRingedCylinder(R, 80, 180, 80);
      for (const double th : {0.0, 0.3}) {
        const Vec3 radial(std::cos(th), std::sin(th), 0);
        const Fits f = fitsAt(mesh, Transform::identity(), R * radial + Vec3(0, 0, 3), -radial, defaultRadius());
        qInfo().noquote() << report("cylinder", f, 1 / R, 0);
        QCOMPARE(f.jet.status, QuadricFitStatus::Ok);
        QVERIFY(relErr(f.jet.curvatures.kappaMax_per_mm, 1 / R) <= 0.01);
        QVERIFY(std::abs(f.jet.curvatures.kappaMin_per_mm) <= 0.01 / R);
        QVERIFY(parallel(f.jet.curvatures.directionMax, Vec3::UnitZ().cross(radial), 1e-3));
        QVERIFY(parallel(f.jet.curvatures.directionMin, Vec3::UnitZ(), 1e-3));
      }
    }
  }
  void ellipsoid() {
    // x²/a² + y²/b² + z²/c² = 1 at (a, 0, 0): κ_y = a/b², κ_z = a/c²; at (0, 0, c): κ_x = c/a², κ_y = c/b².
    const double a = 30, b = 20, c = 15;
    TriangleMesh mesh = makeIcosphere(1.0, 6);
    mesh.transform(Mat3::Identity(), Vec3::Zero(), Vec3(a, b, c));
    {
      const Fits f = fitsAt(mesh, Transform::identity(), Vec3(a, 0, 0), Vec3(-1, 0, 0), defaultRadius());
      qInfo().noquote() << report("ellipsoid at a", f, a / (c * c), a / (b * b));
      QVERIFY(relErr(f.jet.curvatures.kappaMax_per_mm, a / (c * c)) <= 0.01);
      QVERIFY(relErr(f.jet.curvatures.kappaMin_per_mm, a / (b * b)) <= 0.01);
      QVERIFY(parallel(f.jet.curvatures.directionMax, Vec3::UnitZ(), 1e-3));
    }
    {
      const Fits f = fitsAt(mesh, Transform::identity(), Vec3(0, 0, c), Vec3(0, 0, -1), defaultRadius());
      qInfo().noquote() << report("ellipsoid at c", f, c / (b * b), c / (a * a));
      QVERIFY(relErr(f.jet.curvatures.kappaMax_per_mm, c / (b * b)) <= 0.01);
      QVERIFY(relErr(f.jet.curvatures.kappaMin_per_mm, c / (a * a)) <= 0.01);
      QVERIFY(parallel(f.jet.curvatures.directionMax, Vec3::UnitY(), 1e-3));
    }
  }
  void rigidMotionInvariance() {
    // The same contact on a body moved far from the origin and rotated: same curvatures, directions carried.
    const double a = 30, b = 20, c = 15;
    TriangleMesh mesh = makeIcosphere(1.0, 5);
    mesh.transform(Mat3::Identity(), Vec3::Zero(), Vec3(a, b, c));
    const Vec3 target = Vec3(1, 1, 1).normalized() * 18;
    const std::uint32_t vi = nearestVertex(mesh, target);
    const Vec3 v = mesh.vertices[vi];
    const Vec3 inward = -Vec3(v.x() / (a * a), v.y() / (b * b), v.z() / (c * c)).normalized();
    const Fits here = fitsAt(mesh, Transform::identity(), v, inward, defaultRadius());
    const Transform pose(Quat(Eigen::AngleAxisd(2.1, Vec3(1, -2, 3).normalized())), Vec3(400, -250, 900));
    const Fits moved = fitsAt(mesh, pose, v, inward, defaultRadius());
    QCOMPARE(here.jet.status, QuadricFitStatus::Ok);
    QVERIFY(std::abs(here.jet.curvatures.kappaMax_per_mm - moved.jet.curvatures.kappaMax_per_mm) < 1e-9);
    QVERIFY(std::abs(here.jet.curvatures.kappaMin_per_mm - moved.jet.curvatures.kappaMin_per_mm) < 1e-9);
    QVERIFY(here.jet.curvatures.kappaMax_per_mm > here.jet.curvatures.kappaMin_per_mm * 1.1);
    QVERIFY(parallel(pose.applyToVector(here.jet.curvatures.directionMax), moved.jet.curvatures.directionMax, 1e-9));
    QVERIFY(std::abs(here.jet.rmsResidual_mm - moved.jet.rmsResidual_mm) < 1e-9);
    // Gaussian curvature of the ellipsoid at a general point: K = 1 / (a²b²c² (x²/a⁴ + y²/b⁴ + z²/c⁴)²).
    const double s = v.x() * v.x() / std::pow(a, 4) + v.y() * v.y() / std::pow(b, 4) + v.z() * v.z() / std::pow(c, 4);
    const double K = 1 / (a * a * b * b * c * c * s * s);
    QVERIFY2(relErr(here.jet.curvatures.kappaMax_per_mm * here.jet.curvatures.kappaMin_per_mm, K) <= 0.01,
             qPrintable(QString::number(here.jet.curvatures.kappaMax_per_mm * here.jet.curvatures.kappaMin_per_mm / K)));
  }
  void tiltedContactNormal() {
    // A contact normal 5° off the surface normal: the jet evaluates the shape operator with the slopes, so the
    // sphere still comes out within 1 %.
    const double R = 10;
    const TriangleMesh mesh = makeIcosphere(R, 4);
    const Vec3 p = mesh.vertices[nearestVertex(mesh, Vec3(R, 0, 0))];
    const Vec3 n = (Eigen::AngleAxisd(degToRad(5), Vec3::UnitZ()) * (-p.normalized())).normalized();
    const Fits f = fitsAt(mesh, Transform::identity(), p, n, defaultRadius());
    QVERIFY(relErr(f.jet.curvatures.kappaMax_per_mm, 1 / R) <= 0.01);
    QVERIFY(relErr(f.jet.curvatures.kappaMin_per_mm, 1 / R) <= 0.01);
  }
  void degenerateNeighbourhoods() {
    const auto flatAndFinite = [](const QuadricFit& f) {
      return f.curvatures.flatMax() && f.curvatures.flatMin() && std::isfinite(f.rmsResidual_mm) &&
             f.curvatures.directionMax.allFinite() && f.curvatures.directionMin.allFinite() &&
             f.estimator == CurvatureEstimator::OsculatingJet;
    };
    // Nothing, one point, two points without normals: too few.
    QCOMPARE(fitOsculatingJet({}, {}, Transform::identity()).status, QuadricFitStatus::TooFewPoints);
    QVERIFY(flatAndFinite(fitOsculatingJet({}, {}, Transform::identity())));
    QCOMPARE(fitOsculatingJet({Vec3::Zero()}, {Vec3(0, 0, -1)}, Transform::identity()).status, QuadricFitStatus::TooFewPoints);
    const QuadricFit two = fitOsculatingJet({Vec3(1, 0, 0.1), Vec3(0, 1, 0.1)}, {}, Transform::identity());
    QCOMPARE(two.status, QuadricFitStatus::TooFewPoints);
    QVERIFY(flatAndFinite(two));
    // Collinear points, with and without normals: the y² term is undetermined.
    std::vector<Vec3> line, lineNormals;
    for (int i = -4; i <= 4; ++i) {
      line.emplace_back(i, 0, 0.05 * i * i);
      lineNormals.push_back(Vec3(0.1 * i, 0, -1).normalized());
    }
    QCOMPARE(fitOsculatingJet(line, {}, Transform::identity()).status, QuadricFitStatus::Degenerate);
    const QuadricFit lineFit = fitOsculatingJet(line, lineNormals, Transform::identity());
    QCOMPARE(lineFit.status, QuadricFitStatus::Degenerate);
    QVERIFY(flatAndFinite(lineFit));
    // A flat grid: Ok and exactly flat; NaN and infinite samples are skipped.
    std::vector<Vec3> plane, planeNormals;
    for (int i = -3; i <= 3; ++i)
      for (int j = -3; j <= 3; ++j) {
        plane.emplace_back(i, j, 0);
        planeNormals.emplace_back(0, 0, -1);
      }
    plane.emplace_back(std::nan(""), 0, 0);
    planeNormals.emplace_back(0, 0, -1);
    plane.emplace_back(1, 1, 0);
    planeNormals.emplace_back(std::numeric_limits<double>::infinity(), 0, 0);
    const QuadricFit flat = fitOsculatingJet(plane, planeNormals, Transform::identity());
    QCOMPARE(flat.status, QuadricFitStatus::Ok);
    QVERIFY(flat.curvatures.flatMax() && flat.curvatures.flatMin());
    QCOMPARE(flat.pointCount, 50);
    QCOMPARE(flat.normalCount, 49);
    // A concave bowl z = −0.05(x² + y²) with exact normals: κ = −0.1 both ways (at the pole of the bowl).
    std::vector<Vec3> bowl, bowlNormals;
    for (const auto& p : std::vector<Vec3>(plane.begin(), plane.begin() + 49)) {
      bowl.emplace_back(p.x(), p.y(), -0.05 * (p.x() * p.x() + p.y() * p.y()));
      bowlNormals.push_back(Vec3(-0.1 * p.x(), -0.1 * p.y(), -1).normalized());  // (f_x, f_y, −1)
    }
    const QuadricFit concave = fitOsculatingJet(bowl, bowlNormals, Transform::identity());
    QVERIFY(concave.curvatures.concave());
    QVERIFY(std::abs(concave.curvatures.kappaMin_per_mm + 0.1) < 1e-9);
    QVERIFY(std::abs(concave.curvatures.kappaMax_per_mm + 0.1) < 1e-9);
  }
  // An exact quadric z = a x² + b y² + c xy with exact normals on grids of aspect 1 … 10⁻³: the least-squares
  // solve (semi-normal equations, or pivoted QR when the system is ill-conditioned and the degree drops)
  // reproduces it whatever the conditioning.
  void exactQuadricAtAnyConditioning() {
    const double a = 0.05, b = 0.03, c = 0.02;
    for (const double aspect : {1.0, 0.1, 0.01, 0.001}) {
      std::vector<Vec3> points, normals;
      for (int i = -4; i <= 4; ++i)
        for (int j = -4; j <= 4; ++j) {
          const double x = 0.5 * i, y = 0.5 * aspect * j;
          points.emplace_back(x, y, a * x * x + b * y * y + c * x * y);
          normals.push_back(Vec3(2 * a * x + c * y, 2 * b * y + c * x, -1).normalized());  // (f_x, f_y, −1)
        }
      const QuadricFit fit = fitOsculatingJet(points, normals, Transform::identity());
      QCOMPARE(fit.status, QuadricFitStatus::Ok);
      QVERIFY2(std::abs(fit.a - a) < 1e-9 && std::abs(fit.b - b) < 1e-9 && std::abs(fit.c - c) < 1e-9,
               qPrintable(QString("aspect %1: a %2 b %3 c %4 (degree %5)").arg(aspect).arg(fit.a, 0, 'g', 15)
                              .arg(fit.b, 0, 'g', 15).arg(fit.c, 0, 'g', 15).arg(fit.degree)));
      QVERIFY(fit.rmsResidual_mm < 1e-12 && fit.rmsSlopeResidual < 1e-10);
    }
  }
  void softContactChoosesTheEstimator() {
    // A soft fingertip sphere (R = 10, E = 1.5 MPa, 1,680 triangles) on a rigid ball (R = 40): relative radius
    // 1/(1/10 + 1/40) = 8 mm. The jet (the default) gets it within 1 %, GraspIt!'s fit is biased high in κ.
    World w;
    sgtest::addGraspable(w, makeBody("ball", BodyKind::Graspable, makeIcosphere(40, 5), Transform::identity()));
    const Transform tipPose(Quat(Eigen::AngleAxisd(0.4, Vec3(0, 1, 1).normalized())), Vec3(50, 0, 0));
    TriangleMesh tip = makeUvSphere(10, 40, 22);
    sgtest::addObstacle(w, makeBody("tip", BodyKind::Obstacle, tip, tipPose, 1.5e6));
    const Vec3 onTip = tipPose * tip.vertices[nearestVertex(tip, tipPose.inverse() * Vec3(40, 0, 0))];
    const Vec3 onBall = Vec3(40, 0, 0);
    const Contact c = makeContact(graspableHandle(0), onBall, Vec3(-1, 0, 0), obstacleHandle(0), onTip, 0.5);
    SoftContactSettings s;
    QCOMPARE(s.fit.estimator, CurvatureEstimator::OsculatingJet);
    s.fit.estimator = CurvatureEstimator::GraspItParaboloid;  // for GraspIt!'s numbers, chosen explicitly
    const SoftContactResult parity = analyzeSoftContact(w, c, gatherSoftNeighbourhoods(w, {c}, s)[0], s);
    QCOMPARE(parity.fit2.estimator, CurvatureEstimator::GraspItParaboloid);
    QVERIFY(parity.fit2.curvatures.kappaMin_per_mm > 1.02 * 0.1);
    s.fit.estimator = CurvatureEstimator::OsculatingJet;
    const SoftContactResult r = analyzeSoftContact(w, w.state, c, gatherSoftNeighbourhoods(w, {c}, s)[0], s);
    QCOMPARE(r.fit1.estimator, CurvatureEstimator::OsculatingJet);
    QCOMPARE(r.fit2.estimator, CurvatureEstimator::OsculatingJet);
    QCOMPARE(r.fit2.status, QuadricFitStatus::Ok);
    QVERIFY(r.fit2.normalCount > 10);
    QVERIFY(r.fit2.rmsResidual_mm < 1e-3);
    QVERIFY2(relErr(r.fit1.curvatures.kappaMin_per_mm, 1.0 / 40) <= 0.01, qPrintable(QString::number(r.fit1.curvatures.kappaMin_per_mm)));
    QVERIFY2(relErr(r.fit2.curvatures.kappaMax_per_mm, 1.0 / 10) <= 0.01, qPrintable(QString::number(r.fit2.curvatures.kappaMax_per_mm)));
    QVERIFY2(relErr(r.fit2.curvatures.kappaMin_per_mm, 1.0 / 10) <= 0.01, qPrintable(QString::number(r.fit2.curvatures.kappaMin_per_mm)));
    QVERIFY(relErr(r.relative.radiusMin_mm(), 8.0) <= 0.01);
    QVERIFY(relErr(r.relative.radiusMax_mm(), 8.0) <= 0.01);
  }
  // The BVH-restricted vertex normals visit only the triangles near the asked vertices, in mesh order: the
  // same normals bit for bit as the full pass, for neighbourhoods of a sphere, a ringed cylinder and a box
  // (creases: the face filter matters), for scattered and repeated indices, and without a BVH.
  void vertexNormalsWithTheBvhAreIdentical() {
    std::mt19937 rng(3);
    const std::vector<TriangleMesh> meshes = {makeIcosphere(20, 4), makeRingedCylinder(8, 30, 48, 12), makeBox(Vec3(30, 20, 10))};
    int compared = 0;
    for (const TriangleMesh& mesh : meshes) {
      const Bvh bvh(mesh);
      std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(mesh.vertexCount() - 1));
      for (int trial = 0; trial < 20; ++trial) {
        const Vec3 outward = Vec3(std::normal_distribution<double>()(rng), std::normal_distribution<double>()(rng),
                                  std::normal_distribution<double>()(rng)).normalized();
        std::vector<std::uint32_t> indices;
        if (trial % 2 == 0) {  // a neighbourhood: the vertices within 4 mm of one
          const Vec3 centre = mesh.vertices[pick(rng)];
          for (std::uint32_t v = 0; v < mesh.vertexCount(); ++v)
            if ((mesh.vertices[v] - centre).norm() < 4) indices.push_back(v);
        } else {  // scattered, with repeats
          for (int k = 0; k < 12; ++k) indices.push_back(pick(rng));
          indices.push_back(indices.front());
        }
        for (const double minCosine : {-2.0, 0.7}) {
          const auto full = vertexNormals(mesh, indices, outward, minCosine);
          const auto near = vertexNormals(mesh, &bvh, indices, outward, minCosine);
          QCOMPARE(near.size(), full.size());
          for (std::size_t k = 0; k < full.size(); ++k) QVERIFY(near[k] == full[k]);
          QVERIFY(vertexNormals(mesh, nullptr, indices, outward, minCosine) == full);
          ++compared;
        }
      }
    }
    QCOMPARE(compared, 120);
  }
  // Each corner's term read from the per-BVH cache (CornerNormalTerms.h) gives the normals of the full pass bit
  // for bit, on the same meshes, indices and face filters as above; terms of another BVH are not used.
  void vertexNormalsFromCornerTermsAreIdentical() {
    std::mt19937 rng(5);
    const std::vector<TriangleMesh> meshes = {makeIcosphere(20, 4), makeRingedCylinder(8, 30, 48, 12), makeBox(Vec3(30, 20, 10))};
    const Bvh otherBvh(makeIcosphere(20, 4));
    const CornerNormalTerms otherTerms(otherBvh);
    int compared = 0;
    for (const TriangleMesh& mesh : meshes) {
      const Bvh bvh(mesh);
      const CornerNormalTerms terms(bvh);
      QCOMPARE(terms.triangleCount(), mesh.triangleCount());
      std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(mesh.vertexCount() - 1));
      for (int trial = 0; trial < 20; ++trial) {
        const Vec3 outward = Vec3(std::normal_distribution<double>()(rng), std::normal_distribution<double>()(rng),
                                  std::normal_distribution<double>()(rng)).normalized();
        std::vector<std::uint32_t> indices;
        if (trial % 2 == 0) {
          const Vec3 centre = mesh.vertices[pick(rng)];
          for (std::uint32_t v = 0; v < mesh.vertexCount(); ++v)
            if ((mesh.vertices[v] - centre).norm() < 4) indices.push_back(v);
        } else {
          for (int k = 0; k < 12; ++k) indices.push_back(pick(rng));
          indices.push_back(indices.front());
        }
        for (const double minCosine : {-2.0, 0.7}) {
          const auto full = vertexNormals(mesh, indices, outward, minCosine);
          const auto cached = vertexNormals(mesh, &bvh, &terms, indices, outward, minCosine);
          QCOMPARE(cached.size(), full.size());
          for (std::size_t k = 0; k < full.size(); ++k) QVERIFY(cached[k] == full[k]);
          QVERIFY(vertexNormals(mesh, &bvh, &otherTerms, indices, outward, minCosine) == full);
          QVERIFY(vertexNormals(mesh, &bvh, nullptr, indices, outward, minCosine) == full);
          ++compared;
        }
      }
    }
    QCOMPARE(compared, 120);
  }
  // The cache serves one BVH's terms again, and a changed mesh (a new mesh object, possibly at the freed one's
  // address) or the same mesh after clearBvhCache() gets terms of its own BVH: never the old mesh's normals.
  void cornerTermsCacheIsNotStale() {
    QVERIFY(cornerNormalTermsFor(nullptr) == nullptr);
    const TriangleMesh base = makeIcosphere(20, 3);
    std::vector<std::uint32_t> all(base.vertexCount());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    auto mesh = std::make_shared<const TriangleMesh>(base);
    auto bvh = bvhFor(mesh);
    auto terms = cornerNormalTermsFor(bvh);
    QVERIFY(terms && terms->source() == bvh.get());
    QVERIFY(cornerNormalTermsFor(bvh) == terms);  // reused
    // A mesh above the size limit gets none, and its normals are computed per corner as before.
    QVERIFY(cornerNormalTermsFor(bvh, mesh->triangleCount() - 1) == nullptr);
    QVERIFY(cornerNormalTermsFor(bvh, mesh->triangleCount()) == terms);
    const auto before = vertexNormals(*mesh, bvh.get(), terms.get(), all, Vec3::UnitZ(), -2.0);
    QVERIFY(before == vertexNormals(*mesh, all, Vec3::UnitZ(), -2.0));
    const std::weak_ptr<const CornerNormalTerms> oldTerms = terms;
    // Vertex 0 pushed outward by 2 mm: its normal and its neighbours' change.
    TriangleMesh moved = base;
    moved.vertices[0] *= 1.1;
    moved.finalize();
    // Free the old mesh and BVH first so the new ones may take their addresses.
    terms.reset();
    bvh.reset();
    mesh.reset();
    for (int round = 0; round < 2; ++round) {
      auto movedMesh = std::make_shared<const TriangleMesh>(moved);
      auto movedBvh = bvhFor(movedMesh);
      const auto movedTerms = cornerNormalTermsFor(movedBvh);
      QVERIFY(movedTerms && movedTerms->source() == movedBvh.get());
      QVERIFY(oldTerms.expired());  // the freed BVH's entry was swept: the cache keeps no dead mesh's terms
      const auto got = vertexNormals(*movedMesh, movedBvh.get(), movedTerms.get(), all, Vec3::UnitZ(), -2.0);
      const auto want = vertexNormals(*movedMesh, all, Vec3::UnitZ(), -2.0);
      QVERIFY(got == want);
      int differ = 0;
      for (std::size_t k = 0; k < all.size(); ++k) differ += got[k] != before[k] ? 1 : 0;
      QVERIFY(differ >= 2);  // vertex 0 and its ring
      // The same mesh after clearBvhCache() (the call for meshes edited in place) gets a new BVH and new terms.
      clearBvhCache();
      const auto rebuiltBvh = bvhFor(movedMesh);
      QVERIFY(rebuiltBvh != movedBvh);
      const auto rebuiltTerms = cornerNormalTermsFor(rebuiltBvh);
      QVERIFY(rebuiltTerms != movedTerms && rebuiltTerms->source() == rebuiltBvh.get());
      QVERIFY(vertexNormals(*movedMesh, rebuiltBvh.get(), rebuiltTerms.get(), all, Vec3::UnitZ(), -2.0) == want);
    }
  }
  void vertexNormalsOfASphereAreRadial() {
    // Max's weights are exact for vertices on a sphere.
    const TriangleMesh mesh = makeIcosphere(7, 2);
    std::vector<std::uint32_t> all(mesh.vertexCount());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    const auto normals = vertexNormals(mesh, all);
    for (std::size_t i = 0; i < all.size(); ++i) QVERIFY((normals[i] - mesh.vertices[i].normalized()).norm() < 1e-12);
    // A vertex without faces gets no normal.
    TriangleMesh lone = mesh;
    lone.vertices.emplace_back(100, 0, 0);
    QVERIFY(vertexNormals(lone, {static_cast<std::uint32_t>(lone.vertexCount() - 1)})[0].isZero());
  }
  void vertexNormalsSeenFromOneFace() {
    // A box corner averages three faces meeting at 90°; seen from one face (the contact's outward normal) it
    // carries that face's normal, and a face turned away gives no normal at all.
    const TriangleMesh box = makeBox(Vec3(20, 20, 20));
    std::vector<std::uint32_t> all(box.vertexCount());
    for (std::uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    const auto averaged = vertexNormals(box, all);
    const auto fromTop = vertexNormals(box, all, Vec3::UnitZ(), 0.7);
    for (std::size_t i = 0; i < all.size(); ++i) {
      const bool onTop = box.vertices[i].z() > 0;
      QVERIFY(std::abs(std::abs(averaged[i].z()) - 1 / std::sqrt(3.0)) < 1e-9);  // the corner's mean direction
      if (onTop) QVERIFY((fromTop[i] - Vec3::UnitZ()).norm() < 1e-12);
      else QVERIFY(fromTop[i].isZero());
    }
    // A threshold every face passes gives the plain average back.
    const auto loose = vertexNormals(box, all, Vec3::UnitZ(), -1.5);
    for (std::size_t i = 0; i < all.size(); ++i) QVERIFY((loose[i] - averaged[i]).norm() < 1e-15);
  }
};

QTEST_GUILESS_MAIN(TestCurvature)
#include "tst_curvature.moc"
