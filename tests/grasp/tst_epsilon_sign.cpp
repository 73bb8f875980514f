// One sign rule for every ε (src/grasp/QUALITY.md "One sign rule"): ε > 0 inside, −dist(0, W) when the
// origin is outside the wrench set W, 0 on its boundary, for L1, L∞ and the exact cones alike. Each value is
// checked against the Qhull hull of the same wrenches, built here: the nearest point the solver reports lies in
// the hull (every facet) and nothing in W is nearer the origin (every wrench), which makes −|x| the distance.
#include <QtTest>

#include <cmath>

#include "../support/BallContacts.h"
#include "contact/FrictionEdges.h"
#include "grasp/GraspWrenchSpace.h"
#include "grasp/SupportEpsilon.h"
#include "grasp/WrenchSupport.h"

using namespace sg;
using namespace sgtest;

namespace {

using Wrenches = std::vector<std::vector<Vec6>>;

constexpr double kR = 20;    // ball radius = torque scale (mm)
constexpr double kMu = 0.4;

// Three point contacts on the ball's upper cap: every normal force points down, so no force closure and the
// origin is outside the L1 set.
const std::vector<Vec3> kCap = {Vec3(0.3, 0, 1), Vec3(-0.2, 0.3, 1), Vec3(-0.2, -0.3, 1)};

std::vector<ExactContactCone> conesAt(const std::vector<Vec3>& dirs) {
  std::vector<ExactContactCone> out;
  for (const auto& u : dirs) out.push_back(exactConeFor(sideAt(u.normalized(), kR), kMu, 0, centred(kR)));
  return out;
}

// The largest facet offset of the hull: > 0 when the origin is outside (how far beyond the farthest facet
// plane it violates), ≤ 0 inside, 0 on the boundary.
double largestOffset(const GraspWrenchSpace& gws) {
  double b = -1e300;
  for (const auto& h : gws.hyperplanes6) b = std::max(b, h.offset);
  return b;
}

// Certifies x as the point of the L1 hull nearest the origin: x inside every Qhull facet, and no wrench on the
// origin's side of the plane through x orthogonal to x. Returns "" or what failed.
QString certifyNearest(const Wrenches& w, const Vec6& x) {
  const GraspWrenchSpace gws = buildL1Gws(w);
  if (gws.hull.status != HullStatus::Ok) return "the L1 hull is not built";
  for (const auto& h : gws.hyperplanes6)
    if (h.normal.head<6>().dot(x) + h.offset > 1e-9) return "x is outside a facet";
  const double xx = x.squaredNorm();
  for (const auto& ws : w)
    for (const auto& v : ws)
      if (v.dot(x) < xx - 1e-9) return "a wrench is nearer the origin than x";
  return {};
}

}  // namespace

class TestEpsilonSign : public QObject {
  Q_OBJECT
 private slots:
  void notForceClosureIsMinusTheDistanceInEveryNorm() {
    const Wrenches w = wrenchesAt(kCap, kR, kMu, pointContactEdges(8));

    // L1: the origin is outside; ε = −|x|, x the nearest point, certified against the Qhull facets.
    const SupportEpsilon l1 = l1EpsilonFromSupport(w);
    QCOMPARE(l1.status, SupportEpsilonStatus::Converged);
    QVERIFY(!l1.forceClosure);
    QVERIFY2(l1.epsilon < -1e-3, qPrintable(QString::number(l1.epsilon)));
    const Vec6 x = l1.worstCaseWrench;
    QVERIFY(std::abs(x.norm() + l1.epsilon) < 1e-12);
    const QString why = certifyNearest(w, x);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    // The hull's own min(−offset) (GraspIt!'s rule, no longer reported) is the farthest violated facet plane:
    // never farther than the true distance.
    QVERIFY(-largestOffset(buildL1Gws(w)) >= l1.epsilon - 1e-9);

    // L∞: every contact may push with 0, so the set holds the origin; without force closure it lies on the
    // boundary: ε = −dist = 0, and the Qhull hull has a facet through the origin and none beyond it.
    const SupportEpsilon linf = lInfinityEpsilonFromSupport(w);
    QVERIFY(!linf.forceClosure);
    QVERIFY(linf.originInside);
    QVERIFY2(std::abs(linf.epsilon) <= 1e-12, qPrintable(QString::number(linf.epsilon)));
    const GraspWrenchSpace linfHull = buildLInfinityGws(w);
    QCOMPARE(linfHull.hull.status, HullStatus::Ok);
    QVERIFY2(std::abs(largestOffset(linfHull)) <= 1e-9, qPrintable(QString::number(largestOffset(linfHull))));

    // Exact cones: W_lin ⊆ W_exact, so the origin is no farther from W_exact; against a 64-edge linearisation
    // (certified with its Qhull facets) it is within the polygon's error, μ(1/cos(π/64) − 1) ≈ 5e-4.
    const SupportEpsilon exact = exactConeEpsilon(conesAt(kCap), kR, GwsType::L1);
    QVERIFY(!exact.forceClosure);
    QVERIFY2(exact.epsilon < -1e-3, qPrintable(QString::number(exact.epsilon)));
    QVERIFY(exact.epsilon >= l1.epsilon - 1e-9);
    const Wrenches dense = wrenchesAt(kCap, kR, kMu, pointContactEdges(64));
    const SupportEpsilon denseL1 = l1EpsilonFromSupport(dense);
    const QString whyDense = certifyNearest(dense, denseL1.worstCaseWrench);
    QVERIFY2(whyDense.isEmpty(), qPrintable(whyDense));
    QVERIFY(denseL1.epsilon <= exact.epsilon + 1e-6);
    QVERIFY2(exact.epsilon - denseL1.epsilon <= 1e-3,
             qPrintable(QString("exact %1, 64 edges %2").arg(exact.epsilon).arg(denseL1.epsilon)));
  }

  void forceClosureIsPositiveInEveryNorm() {
    // The same rule's other side: four contacts at a tetrahedron's corners hold the ball; every ε > 0.
    const std::vector<Vec3> tetra = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};
    const Wrenches w = wrenchesAt(tetra, kR, kMu, pointContactEdges(8));
    const SupportEpsilon l1 = l1EpsilonFromSupport(w), linf = lInfinityEpsilonFromSupport(w);
    const SupportEpsilon exact = exactConeEpsilon(conesAt(tetra), kR, GwsType::L1);
    for (const SupportEpsilon* e : {&l1, &linf, &exact}) {
      QVERIFY(e->forceClosure);
      QVERIFY(e->epsilon > 0);
    }
    // Inside, ε is the nearest facet of the Qhull hull.
    const GraspWrenchSpace hull = buildL1Gws(w);
    QVERIFY(std::abs(-largestOffset(hull) - l1.epsilon) < 1e-9);
  }

  void flatSetsKeepTheSign() {
    // One point contact: its wrenches span a plane (2-D) in 6-D, flat. Its L1 set is the friction octagon
    // around the normal wrench n (|n| = 1, the tangential parts orthogonal to it), so the nearest point is n:
    // ε L1 = ε exact = −1, not 0.
    const Wrenches one = wrenchesAt({Vec3(0, 0, 1)}, kR, kMu, pointContactEdges(8));
    const SupportEpsilon l1 = l1EpsilonFromSupport(one);
    QCOMPARE(l1.status, SupportEpsilonStatus::Converged);
    QVERIFY(std::abs(l1.epsilon + 1) < 1e-9);
    QVERIFY(l1.worstCaseWrench.isApprox((Vec6() << 0, 0, -1, 0, 0, 0).finished(), 1e-9));
    const SupportEpsilon exact = exactConeEpsilon(conesAt({Vec3(0, 0, 1)}), kR, GwsType::L1);
    QVERIFY(std::abs(exact.epsilon + 1) < 1e-6);
    QVERIFY(!l1.forceClosure && !exact.forceClosure);
    // Its L∞ set holds the origin (push with 0) and is flat: the origin on its boundary, ε = 0.
    const SupportEpsilon linf = lInfinityEpsilonFromSupport(one);
    QCOMPARE(linf.status, SupportEpsilonStatus::Flat);
    QCOMPARE(linf.epsilon, 0.0);
    // Six wrenches e_i − 0.1·(1, …, 1): a 5-simplex whose point nearest the origin is its centroid
    // (1/6 − 1/10)·(1, …, 1): ε = −√6/15.
    std::vector<Vec6> six;
    for (int i = 0; i < 6; ++i) six.push_back(Vec6::Unit(i) - 0.1 * Vec6::Ones());
    const SupportEpsilon s6 = l1EpsilonFromSupport({six});
    QVERIFY2(std::abs(s6.epsilon + std::sqrt(6.0) / 15) < 1e-9, qPrintable(QString::number(s6.epsilon, 'g', 17)));
    // Two antipodal hard contacts: flat, and the origin lies in the set (the two normals cancel): ε = 0.
    const SupportEpsilon antipodal =
        l1EpsilonFromSupport(wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, kR, kMu, pointContactEdges(8)));
    QCOMPARE(antipodal.status, SupportEpsilonStatus::Flat);
    QCOMPARE(antipodal.epsilon, 0.0);
  }
};

QTEST_GUILESS_MAIN(TestEpsilonSign)
#include "tst_epsilon_sign.moc"
