// Grasp wrench spaces and quality: Qhull wrapper, analytic ε oracles (src/grasp/QUALITY.md §Oracles), invariants,
// degenerate input, GWS projection, and the one-call pipeline on meshes.
#include <QtTest>

#include "../support/BallContacts.h"

#include <cmath>
#include <thread>

#include "../contact/SoftTestShapes.h"
#include "contact/FrictionEdges.h"
#include "core/Error.h"
#include "grasp/ContactWrenches.h"
#include "contact/ContactDetection.h"
#include "grasp/AutoGrasp.h"
#include "contact/models/SoftFingerContactModel.h"
#include "grasp/GraspEvaluation.h"
#include "grasp/QualityMeasure.h"
#include "io/ModelIO.h"
#include "grasp/GraspQuality.h"
#include "grasp/GraspWrenchSpace.h"
#include "grasp/GwsProjection.h"
#include "grasp/WrenchHull.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sgtest;

namespace {

MatX crossPolytope(int d) {
  MatX m = MatX::Zero(d, 2 * d);
  for (int i = 0; i < d; ++i) { m(i, 2 * i) = 1; m(i, 2 * i + 1) = -1; }
  return m;
}

GwsSettings planar() {
  GwsSettings s;
  s.dimensions = {true, true, false, false, false, true};  // fx fy τz
  return s;
}

std::vector<Vec3> disk(int n) {
  std::vector<Vec3> d;
  for (int i = 0; i < n; ++i) d.emplace_back(std::cos(2 * kPi * i / n), std::sin(2 * kPi * i / n), 0);
  return d;
}

double l1Eps(const std::vector<std::vector<Vec6>>& w, const GwsSettings& s = {}) {
  return evaluateQuality(buildL1Gws(w, s)).epsilon;
}

// A world with one graspable sphere (radius R) and four rigid or soft fingertip spheres touching it at `dirs`.
World sphereWorld(double R, const std::vector<Vec3>& dirs, std::optional<double> tipYoungs, double tipR = 8) {
  World w;
  sgtest::addGraspable(w, makeBody("ball", BodyKind::Graspable, makeUvSphere(R, 120, 60), Transform::identity()));
  for (const auto& d : dirs)
    sgtest::addObstacle(w, makeBody("tip", BodyKind::Obstacle, makeUvSphere(tipR, 60, 30),
                                   Transform::fromTranslation((R + tipR) * d.normalized()), tipYoungs));
  return w;
}

std::vector<Contact> sphereContacts(double R, const std::vector<Vec3>& dirs, double mu) {
  std::vector<Contact> cs;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3 u = dirs[i].normalized();
    cs.push_back(makeContact(graspableHandle(0), R * u, -u, obstacleHandle(static_cast<int>(i)), R * u, mu));
  }
  return cs;
}

const std::vector<Vec3> kTetra = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};

}  // namespace

// The test grasps press obstacles ("fingers") on the object, as a fixture would: let them count.
// One model's evaluation with every registered measure (as the analysis computes them).
GraspEvaluation evaluate(const World& world, const std::vector<Contact>& contacts, int graspable,
                         const QualitySettings& settings = {}, const char* model = "soft-finger") {
  GraspEvaluation e = evaluateGrasp(world, contacts, graspable, *findContactModel(model), settings);
  NullProgress progress;
  computeMeasures(e, qualityMeasureNames(), progress);
  return e;
}

QualitySettings fixtures() {
  QualitySettings s;
  s.handContactsOnly = false;
  return s;
}

class TestQuality : public QObject {
  Q_OBJECT
 private slots:
  // --- hull wrapper -------------------------------------------------------------------------------------
  void crossPolytopeEpsilon() {
    const WrenchHull h = convexHull(crossPolytope(6));
    QVERIFY(h.ok());
    QCOMPARE(static_cast<int>(h.facets.size()), 64);
    QVERIFY(std::abs(epsilonOf(h) - 1 / std::sqrt(6.0)) < 1e-12);
    QVERIFY(std::abs(h.volume - 64.0 / 720.0) < 1e-12);  // 2^d / d!
    // Through the GWS layer too: one "contact" holding the 12 wrenches.
    std::vector<Vec6> ws;
    for (int i = 0; i < 12; ++i) ws.push_back(crossPolytope(6).col(i));
    const GraspQuality q = evaluateQuality(buildL1Gws({ws}));
    QVERIFY(q.forceClosure);
    QVERIFY(std::abs(q.epsilon - 1 / std::sqrt(6.0)) < 1e-12);
    QVERIFY(std::abs(q.worstCaseWrench.norm() - q.epsilon) < 1e-12);
    QVERIFY(std::abs(q.weakestDirection.norm() - 1) < 1e-12);
    QVERIFY(std::abs(q.weakestDirection.cwiseAbs().minCoeff() - 1 / std::sqrt(6.0)) < 1e-12);
  }
  void shiftedCloudHasNegativeEpsilon() {
    MatX pts = crossPolytope(6);
    pts.row(0).array() += 10;
    const WrenchHull h = convexHull(pts);
    QVERIFY(h.ok());
    QVERIFY(std::abs(epsilonOf(h) + 9 / std::sqrt(6.0)) < 1e-12);  // the facet facing the origin
    std::vector<Vec6> ws;
    for (int i = 0; i < 12; ++i) ws.push_back(pts.col(i));
    const GraspQuality q = evaluateQuality(buildL1Gws({ws}));
    QVERIFY(!q.forceClosure);
    QCOMPARE(q.epsilonGraspIt, -1.0);
  }
  void degenerateInputIsNotAnError() {
    QCOMPARE(convexHull(MatX(6, 0)).status, HullStatus::Empty);
    QCOMPARE(convexHull(MatX::Random(6, 5)).status, HullStatus::TooFewPoints);
    MatX flat = MatX::Random(6, 40);
    flat.row(5).setZero();  // a 5-D set in 6-D
    HullOptions noJoggle;
    noJoggle.joggleFallback = false;
    const WrenchHull h = convexHull(flat, noJoggle);
    QCOMPARE(h.status, HullStatus::Flat);
    QVERIFY(!h.message.empty());
    QCOMPARE(epsilonOf(h), 0.0);
    const WrenchHull withFallback = convexHull(flat);
    QCOMPARE(withFallback.status, HullStatus::Flat);
    // No contacts at all.
    const GraspQuality none = evaluateQuality(buildL1Gws({}));
    QVERIFY(!none.forceClosure);
    QCOMPARE(none.epsilon, 0.0);
    QCOMPARE(none.volume, 0.0);
  }
  void reentrantHulls() {
    // One Qhull object per call: concurrent hulls give identical results.
    std::vector<double> eps(4, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&eps, t] {
        double e = 0;
        for (int k = 0; k < 20; ++k) e = epsilonOf(convexHull(crossPolytope(6)));
        eps[static_cast<std::size_t>(t)] = e;
      });
    for (auto& th : threads) th.join();
    for (double e : eps) QVERIFY(std::abs(e - 1 / std::sqrt(6.0)) < 1e-12);
  }

  // --- analytic oracles (src/grasp/QUALITY.md §Oracles) ---------------------------------------------------
  void g1PlanarAntipodal() {
    for (double mu : {0.5, 1.0}) {
      const auto w = wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, 10, mu, pointContactEdges(4));
      const GraspQuality l1 = evaluateQuality(buildL1Gws(w, planar()));
      QVERIFY(std::abs(l1.epsilon - mu / std::sqrt(2 + mu * mu)) < 1e-6);
      QVERIFY(std::abs(l1.volume - 8 * mu * mu / 3) < 1e-6);
      const GraspQuality linf = evaluateQuality(buildLInfinityGws(w, planar()));
      QVERIFY(std::abs(linf.epsilon - std::sqrt(2.0) * mu / std::sqrt(1 + 2 * mu * mu)) < 1e-6);
    }
  }
  void g2PlanarThreeFingers() {
    for (double mu : {0.3, 0.5, 0.9})
      QVERIFY(std::abs(l1Eps(wrenchesAt(disk(3), 10, mu, pointContactEdges(4)), planar()) - mu) < 1e-6);
    QVERIFY(std::abs(l1Eps(wrenchesAt(disk(3), 10, 1.0, pointContactEdges(4)), planar()) - 0.935113) < 1e-6);
    QVERIFY(std::abs(l1Eps(wrenchesAt(disk(3), 10, 2.0, pointContactEdges(4)), planar()) - 1.22792) < 1e-5);
  }
  void g4SphereFourHardContacts() {
    const std::vector<Vec3> dirs = {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)};
    for (double mu : {0.3, 0.5, 1.0})
      QVERIFY(std::abs(l1Eps(wrenchesAt(dirs, 25, mu, pointContactEdges(4))) - mu / std::sqrt(3.0)) < 1e-6);
    QVERIFY(std::abs(l1Eps(wrenchesAt(dirs, 25, 0.5, pointContactEdges(8))) - 0.320426) < 1e-6);
  }
  void g5TwoAntipodalHardContactsAreNotForceClosure() {
    const auto w = wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, 10, 0.5, pointContactEdges(8));
    const GraspQuality q = evaluateQuality(buildL1Gws(w));
    QVERIFY(!q.forceClosure);
    QCOMPARE(q.epsilon, 0.0);
    QCOMPARE(q.hullStatus, HullStatus::Flat);
  }
  void g6SoftAntipodalPyramid() {
    // MuJoCo condim-4 pyramid: ±t1, ±t2 plus two torsion generators [n; ±γ n]; with torque scale ρ = r the
    // torsion edge e5 = γ r / μ gives exactly γ.
    const double r = 10;
    for (double mu : {0.3, 0.5, 1.0})
      for (double gamma : {0.05, 0.1, 0.3, 1.0}) {
        Vec6 e = Vec6::Zero();
        std::vector<Vec6> edges;
        for (int k : {0, 1}) for (double sgn : {1.0, -1.0}) { e.setZero(); e(k) = sgn; edges.push_back(e); }
        for (double sgn : {1.0, -1.0}) { e.setZero(); e(5) = sgn * gamma * r / mu; edges.push_back(e); }
        const double eps = l1Eps(wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, r, mu, edges));
        const double expect = std::min(mu * gamma / std::sqrt(mu * mu + 2 * gamma * gamma), mu / std::sqrt(4 + mu * mu));
        QVERIFY2(std::abs(eps - expect) < 1e-6, qPrintable(QString("mu %1 gamma %2: %3 vs %4").arg(mu).arg(gamma).arg(eps).arg(expect)));
      }
  }
  void softEdgesGiveForceClosureWhereHardDoNot() {
    // Two antipodal soft contacts resist spin about their axis (GraspIt!'s 20 edges), hard ones cannot.
    const auto w = wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, 10, 0.5, softContactEdges(2.0));
    const GraspQuality q = evaluateQuality(buildL1Gws(w));
    QVERIFY(q.forceClosure);
    QVERIFY(q.epsilon > 0);
  }

  // --- invariants ---------------------------------------------------------------------------------------------
  void epsilonIsScaleInvariant() {
    QualitySettings s = fixtures();
    const auto dirs = kTetra;
    const GraspEvaluation small = evaluate(sphereWorld(20, dirs, std::nullopt), sphereContacts(20, dirs, 0.4), 0, s, "point");
    const GraspEvaluation big = evaluate(sphereWorld(60, dirs, std::nullopt), sphereContacts(60, dirs, 0.4), 0, s, "point");
    QVERIFY(small.l1Quality.forceClosure);
    QVERIFY(std::abs(small.l1Quality.epsilon - big.l1Quality.epsilon) < 1e-9);
    QVERIFY(std::abs(small.lInfinityQuality.epsilon - big.lInfinityQuality.epsilon) < 1e-9);
    QVERIFY(std::abs(small.l1Quality.volume - big.l1Quality.volume) < 1e-9);
  }
  void addingAContactNeverLowersL1Epsilon() {
    const auto edges = pointContactEdges(8);
    std::vector<Vec3> dirs = {Vec3(1, 0, 0), Vec3(-1, 0.2, 0), Vec3(0, 1, 0.3), Vec3(0.1, -1, -0.5), Vec3(0.3, 0.2, 1), Vec3(0, 0, -1)};
    double prev = -1e300;
    for (std::size_t n = 1; n <= dirs.size(); ++n) {
      const double eps = l1Eps(wrenchesAt({dirs.begin(), dirs.begin() + static_cast<std::ptrdiff_t>(n)}, 15, 0.5, edges));
      QVERIFY2(eps >= prev - 1e-12, qPrintable(QString("%1 contacts: %2 < %3").arg(n).arg(eps).arg(prev)));
      prev = eps;
    }
    QVERIFY(prev > 0);
  }
  void lInfinityAtLeastL1() {
    // Three point contacts (9³ = 729 points) and two soft ones (21² = 441) stay under the default limit.
    const std::vector<Vec3> three = {kTetra[0], kTetra[1], kTetra[2]};
    const std::vector<Vec3> two = {Vec3(1, 0, 0), Vec3(-1, 0.3, 0)};
    for (const auto& [dirs, edges] : {std::pair{three, pointContactEdges(8)}, std::pair{two, softContactEdges(1.5)}}) {
      const auto w = wrenchesAt(dirs, 15, 0.5, edges);
      const GraspQuality l1 = evaluateQuality(buildL1Gws(w));
      const GraspQuality linf = evaluateQuality(buildLInfinityGws(w));
      QVERIFY(linf.hullStatus == HullStatus::Ok);
      QVERIFY(linf.epsilon >= l1.epsilon - 1e-12);
      QVERIFY(linf.epsilon >= 0);  // the L∞ space always contains the origin
      QVERIFY(linf.volume >= l1.volume);
    }
  }
  void lInfinityPointLimitIsReported() {
    GwsSettings s;
    s.maxLInfinityPoints = 100;
    const GraspWrenchSpace g = buildLInfinityGws(wrenchesAt(kTetra, 15, 0.5, softContactEdges(1.5)), s);
    QVERIFY(g.limitExceeded);
    QVERIFY(!evaluateQuality(g).forceClosure);
    // Pruning to hull vertices between contacts is exact: same ε as the plain sum (planar case, cheap hulls).
    // An extra zero edge (the normal, the centre of the cone's section) is never a vertex, so pruning removes
    // sums. (Two point contacts span only 5 of the 6 wrench dimensions, so in 6-D pruning starts later.)
    auto edges = pointContactEdges(4);
    edges.push_back(Vec6::Zero());
    const auto w = wrenchesAt(disk(3), 10, 0.5, edges);
    const double plain = evaluateQuality(buildLInfinityGws(w, planar())).epsilon;
    QVERIFY(plain > 0);
    GwsSettings pruned = planar();
    pruned.maxLInfinityPoints = 60;
    QVERIFY(buildLInfinityGws(w, pruned).limitExceeded);
    pruned.pruneLInfinity = true;
    const GraspWrenchSpace gp = buildLInfinityGws(w, pruned);
    QVERIFY(!gp.limitExceeded);
    QVERIFY(gp.inputPointCount <= 60);
    QVERIFY(std::abs(evaluateQuality(gp).epsilon - plain) < 1e-9);
  }
  void frictionlessSphereIsNotForceClosure() {
    const auto w = wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1), Vec3(1, 1, 1)},
                              15, 0.5, frictionlessEdges());
    const GraspQuality q = evaluateQuality(buildL1Gws(w));
    QVERIFY(!q.forceClosure);
    QVERIFY(q.epsilon <= 0);
  }
  void gravityOffsetGoesToForceCoordinates() {
    // fz dropped: the offset along z must not leak into τz (GraspIt! wrote it into the last coordinate).
    const auto w = wrenchesAt(disk(3), 10, 0.5, pointContactEdges(4));
    GwsSettings s = planar();
    s.l1ForceOffset = Vec3(0, 0, 0.5);
    QVERIFY(std::abs(l1Eps(w, s) - 0.5) < 1e-6);
    s.l1ForceOffset = Vec3(2, 0, 0);  // larger than any contact force: the origin falls outside
    QVERIFY(l1Eps(w, s) < 0);
  }

  // --- projection -------------------------------------------------------------------------------------------
  void projectionOfCrossPolytopeIsOctahedron() {
    std::vector<Vec6> ws;
    for (int i = 0; i < 12; ++i) ws.push_back(crossPolytope(6).col(i));
    const GraspWrenchSpace g = buildL1Gws({ws});
    GwsProjection p = projectGws(g.hyperplanes6);
    QVERIFY2(p.valid, p.message.c_str());
    QCOMPARE(p.vertices.size(), std::size_t(6));
    QCOMPARE(p.triangles.size(), std::size_t(8));
    for (const auto& v : p.vertices) QVERIFY(std::abs(v.cwiseAbs().sum() - 1) < 1e-9 && std::abs(v.cwiseAbs().maxCoeff() - 1) < 1e-9);
    for (const auto& t : p.triangles) {  // outward orientation
      const Vec3 n = (p.vertices[t[1]] - p.vertices[t[0]]).cross(p.vertices[t[2]] - p.vertices[t[0]]);
      QVERIFY(n.dot(p.vertices[t[0]]) > 0);
    }
    // Slice away from the origin: |x|+|y|+|z| <= 0.5, scaled for display by 2 → back to unit size.
    GwsProjectionSettings s;
    s.fixedCoordinates = {0, 4, 5};
    s.fixedValues = Vec3(0.5, 0, 0);
    s.scale = 2.0;
    p = projectGws(g.hyperplanes6, s);
    QVERIFY2(p.valid, p.message.c_str());
    QCOMPARE(p.freeCoordinates, (std::array<int, 3>{1, 2, 3}));
    for (const auto& v : p.vertices) QVERIFY(std::abs(v.cwiseAbs().sum() - 1) < 1e-9);
    // Outside the space: nothing to draw, no error.
    s.fixedValues = Vec3(2, 0, 0);
    QVERIFY(!projectGws(g.hyperplanes6, s).valid);
    s.fixedCoordinates = {0, 0, 5};
    QVERIFY_THROWS_EXCEPTION(Error, projectGws(g.hyperplanes6, s));
  }

  // --- the pipeline on meshes ----------------------------------------------------------------------------
  void evaluateSoftGraspOnSphere() {
    const World w = sphereWorld(30, kTetra, 1.5e6);
    const auto contacts = sphereContacts(30, kTetra, 0.5);
    const GraspEvaluation e = evaluate(w, contacts, 0, fixtures());
    QCOMPARE(e.contacts.size(), std::size_t(4));
    QVERIFY(std::abs(e.reference.torqueScale_mm - 30) < 1e-6);
    for (const auto& c : e.contacts) {
      QCOMPARE(c.kind, ContactKind::SoftFinger);  // elastic fingertip ⇒ soft finger
      const SoftContactResult* soft = softContactResult(e.modelResult.get(), static_cast<std::size_t>(&c - e.contacts.data()));
      QVERIFY2(soft, c.note.c_str());
      QCOMPARE(c.frictionEdges.size(), std::size_t(20));
      QCOMPARE(c.wrenches.size(), std::size_t(20));
      QVERIFY(soft->neighbourhoods.side1.size() > 10 && soft->neighbourhoods.side2.size() > 10);
      QVERIFY(std::abs(soft->fit1.curvatures.kappaMin_per_mm - 1.0 / 30) < 0.05 / 30);
      // Relative radius 1/(1/30 + 1/8) ≈ 6.3 mm; the fingertip fit is a few percent soft.
      QVERIFY(std::abs(soft->relative.radiusMin_mm() - 1 / (1 / 30.0 + 1 / 8.0)) < 0.5);
      QVERIFY(soft->patch.semiAxisLong_mm > 0 && c.torsion_mm > 0);
      QVERIFY(std::abs(c.maxTorsionalFriction_Nmm - 0.5 * 5 * c.torsion_mm) < 1e-12);
      QVERIFY(std::abs(c.frictionEdges[0](5) - c.torsion_mm) < 1e-12);
      for (const auto& wr : c.wrenches) QVERIFY(std::abs(wr.head<3>().dot(-c.contact.side2.n_W) - 1) < 1e-9);
    }
    QVERIFY(e.l1Quality.forceClosure);
    QVERIFY(e.lInfinity.limitExceeded);  // 21⁴ sums: over the default L∞ limit, reported, not built
    // Soft contacts are at least as good as hard ones on the same grasp.
    QualitySettings hard = fixtures();
    const GraspEvaluation h = evaluate(w, contacts, 0, hard, "point");
    QCOMPARE(h.contacts[0].kind, ContactKind::PointWithFriction);
    QCOMPARE(h.contacts[0].wrenches.size(), std::size_t(8));
    QVERIFY(e.l1Quality.epsilon >= h.l1Quality.epsilon - 1e-9);
  }
  void evaluateOptionsMergeAndProjection() {
    const World w = sphereWorld(30, kTetra, 1.5e6);
    auto contacts = sphereContacts(30, kTetra, 0.5);
    // A second report 0.5 mm from the first, on the same pair: GraspIt!'s merge folds it into one contact.
    Contact dup = contacts[0];
    dup.side1.p_WC_mm += 0.5 * dup.side1.X_WC.rotationMatrix().col(0);
    dup.side2.p_WC_mm = dup.side1.p_WC_mm;
    dup.separation_mm = 0.1;
    contacts.push_back(dup);
    QualitySettings s = fixtures();
    const GraspEvaluation merged = evaluate(w, contacts, 0, s);
    QCOMPARE(merged.contacts.size(), std::size_t(4));
    bool found = false;
    for (const auto& c : merged.contacts) found = found || c.sourceContacts == std::vector<int>{0, 4};
    QVERIFY(found);
    s.soft.neighbourhood.mergeOverlapping = false;
    // Without the merge the two reports still lie in one connected region: one contact at its touching point.
    QCOMPARE(evaluate(w, contacts, 0, s).contacts.size(), std::size_t(4));
    // GraspIt!'s survivors without GraspIt!'s merge: both reports stay.
    s.soft.touching.rule = TouchingPointRule::GraspItSurvivor;
    QCOMPARE(evaluate(w, contacts, 0, s).contacts.size(), std::size_t(5));
    // Hertz patch: torsion 3π/16·√(ab) instead of 8/15·√(ab).
    const GraspEvaluation hz = evaluate(w, sphereContacts(30, kTetra, 0.5), 0, s, "hertz");
    QCOMPARE(hz.contactModel, std::string("hertz"));
    for (std::size_t i = 0; i < hz.contacts.size(); ++i) {
      const SoftPatch& patch = softContactResult(hz.modelResult.get(), i)->patch;
      QCOMPARE(patch.model, PatchModel::Hertz);
      QVERIFY(std::abs(hz.contacts[i].torsion_mm - 3 * kPi / 16 * std::sqrt(patch.semiAxisLong_mm * patch.semiAxisShort_mm)) < 1e-12);
    }
    QVERIFY(hz.l1Quality.forceClosure);
    // A SoftFinger record without any elastic body falls back to a point contact.
    const World rigid = sphereWorld(30, kTetra, std::nullopt);
    const GraspEvaluation pt = evaluate(rigid, sphereContacts(30, kTetra, 0.5), 0, s);
    QCOMPARE(pt.contacts[0].kind, ContactKind::PointWithFriction);
    QCOMPARE(pt.contacts[0].wrenches.size(), std::size_t(8));
    // The force slice (torques 0) of a real GWS: every vertex satisfies every half-space of the 6-D hull.
    const GwsProjection p = projectGws(hz.l1.hyperplanes6);
    QVERIFY2(p.valid, p.message.c_str());
    QVERIFY(p.vertices.size() >= 4 && p.triangles.size() >= 4);
    for (const auto& v : p.vertices) {
      Vec6 x = Vec6::Zero();
      x.head<3>() = v;
      for (const auto& h : hz.l1.hyperplanes6) QVERIFY(h.normal.dot(x) + h.offset < 1e-9);
    }
  }
  // The default world after auto-grasp: the mug also rests on the table, but only the three fingertips
  // make the grasp, and it is force closure.
  void defaultWorldGraspCountsOnlyTheHand() {
    World w = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    autoGrasp(w, 0);
    const std::vector<Contact> all = findAllContacts(w);
    int onTable = 0;
    for (const Contact& c : all) onTable += c.side1.body.kind == BodyHandle::Kind::Obstacle;
    QVERIFY(onTable > 0);
    const GraspEvaluation e = evaluate(w, all, 0);
    QCOMPARE(static_cast<int>(e.ignoredContacts.size()), onTable);
    QCOMPARE(e.contacts.size(), std::size_t(3));
    for (const ContactEvaluation& c : e.contacts) QCOMPARE(c.kind, ContactKind::SoftFinger);
    QVERIFY(e.l1Quality.forceClosure && e.l1Quality.epsilon > 0);
    // Letting the table count changes the grasp.
    const GraspEvaluation withTable = evaluate(w, all, 0, fixtures());
    QCOMPARE(withTable.contacts.size(), std::size_t(3 + onTable));
  }

  void evaluateHandlesEdgeCases() {
    const World w = sphereWorld(30, kTetra, std::nullopt);
    QVERIFY_THROWS_EXCEPTION(Error, evaluate(w, {}, 3));
    const GraspEvaluation none = evaluate(w, {}, 0, fixtures());
    QVERIFY(!none.l1Quality.forceClosure);
    QCOMPARE(none.l1Quality.epsilon, 0.0);
    // Contacts not touching the graspable are ignored and listed.
    auto cs = sphereContacts(30, kTetra, 0.5);
    Contact other = cs[0];
    other.side1.body = obstacleHandle(1);
    cs.push_back(other);
    const GraspEvaluation e = evaluate(w, cs, 0, fixtures());
    QCOMPARE(e.ignoredContacts, (std::vector<int>{4}));
    QCOMPARE(e.contacts.size(), std::size_t(4));
    for (int i = 0; i < 4; ++i) QCOMPARE(e.contacts[static_cast<std::size_t>(i)].sourceContacts, std::vector<int>{i});
    // By default only a hand's contacts make the grasp: the obstacle "fingers" are all ignored.
    const GraspEvaluation handOnly = evaluate(w, cs, 0);
    QVERIFY(handOnly.contacts.empty());
    QCOMPARE(handOnly.ignoredContacts, (std::vector<int>{0, 1, 2, 3, 4}));
    QVERIFY(!handOnly.l1Quality.forceClosure);
    // Object on side 2: same wrenches as on side 1.
    auto swapped = sphereContacts(30, kTetra, 0.5);
    for (auto& c : swapped) std::swap(c.side1, c.side2);
    const GraspEvaluation s = evaluate(w, swapped, 0, fixtures());
    QVERIFY(!s.contacts[0].objectIsSide1);
    QVERIFY(std::abs(s.l1Quality.epsilon - e.l1Quality.epsilon) < 1e-9);
    // Frictionless contacts: normals only.
    const GraspEvaluation fl = evaluate(w, sphereContacts(30, kTetra, 0.5), 0, fixtures(), "frictionless");
    QCOMPARE(fl.contacts[0].wrenches.size(), std::size_t(1));
    QVERIFY(!fl.l1Quality.forceClosure);
  }
};

QTEST_GUILESS_MAIN(TestQuality)
#include "tst_quality.moc"
