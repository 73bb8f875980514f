// ε from support functions (grasp/SupportEpsilon.h, QUALITY.md "ε from support functions") against the Qhull
// path (buildL1Gws / buildLInfinityGws + evaluateQuality) on random grasp-like wrench sets, the analytic
// oracles of tests/grasp, exact cones against their linearisations, and degenerate input.
#include <QtTest>

#include "../support/BallContacts.h"

#include <chrono>
#include <cmath>
#include <random>

#include "../support/RandomGrasps.h"
#include "contact/FrictionEdges.h"
#include "grasp/ContactWrenches.h"
#include "grasp/GraspQuality.h"
#include "grasp/GraspWrenchSpace.h"
#include "grasp/SupportEpsilon.h"
#include "grasp/WrenchSupport.h"

using namespace sg;
using namespace sgtest;

namespace {

using Wrenches = std::vector<std::vector<Vec6>>;

std::vector<ExactContactCone> conesAt(const std::vector<Vec3>& dirs, double r, double mu, double torsion_mm = 0) {
  std::vector<ExactContactCone> out;
  for (const auto& u : dirs) out.push_back(exactConeFor(sideAt(u.normalized(), r), mu, torsion_mm, centred(r)));
  return out;
}

std::vector<Vec3> disk(int n) {
  std::vector<Vec3> d;
  for (int i = 0; i < n; ++i) d.emplace_back(std::cos(2 * kPi * i / n), std::sin(2 * kPi * i / n), 0);
  return d;
}

constexpr std::array<bool, 6> kPlanar = {true, true, false, false, false, true};  // fx fy τz

SupportEpsilonSettings planar() {
  SupportEpsilonSettings s;
  s.dimensions = kPlanar;
  return s;
}

const std::vector<Vec3> kTetra = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};

// h of the L1 set (with the settings' force offset and dimensions) — an independent check of certificates.
double l1Support(const Wrenches& w, const GwsSettings& gs, const Vec6& u) {
  Vec6 um = u;
  for (int k = 0; k < 6; ++k)
    if (!gs.dimensions[static_cast<std::size_t>(k)]) um(k) = 0;
  double h = -1e300;
  for (const auto& ws : w)
    for (Vec6 x : ws) {
      x.head<3>() += gs.l1ForceOffset;
      h = std::max(h, x.dot(um));
    }
  return h;
}

struct Tally {
  int sets = 0, inside = 0, outside = 0, outsideSameAsFacet = 0, flat = 0, boundary = 0, skipped = 0;
  int iterationsMax = 0;
  double supportSeconds = 0, qhullSeconds = 0;
};

double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Empty string when the support-function ε agrees with the Qhull path (QUALITY.md "Origin outside" for
// the outside case: −distance, certified by a point of W and a support value).
QString compareL1(const Wrenches& w, const GwsSettings& gs, Tally& t) {
  GraspQuality q;
  GraspWrenchSpace g;
  SupportEpsilon s;
  t.qhullSeconds += seconds([&] {
    g = buildL1Gws(w, gs);
    q = evaluateQuality(g);
  });
  t.supportSeconds += seconds([&] { s = l1EpsilonFromSupport(w, supportEpsilonSettingsFor(gs)); });
  ++t.sets;
  t.iterationsMax = std::max(t.iterationsMax, s.iterations);
  const QString what = QString("qhull %1 (%2, eps %3) vs support %4 (eps %5 in [%6, %7], %8 queries)")
                           .arg(toString(q.hullStatus)).arg(g.hull.joggled ? "joggled" : "exact")
                           .arg(q.epsilon, 0, 'g', 17).arg(s.message.c_str()).arg(s.epsilon, 0, 'g', 17)
                           .arg(s.lowerBound, 0, 'g', 17).arg(s.upperBound, 0, 'g', 17).arg(s.iterations);
  if (q.hullStatus == HullStatus::Flat || q.hullStatus == HullStatus::TooFewPoints ||
      q.hullStatus == HullStatus::Empty) {
    ++t.flat;
    if (s.forceClosure) return "flat but force closure: " + what;
    // One sign rule (QUALITY.md): a flat set holding the origin gives 0, one beside it −dist(0, W); then the
    // reported nearest point x has no wrench nearer the origin than the plane through x orthogonal to it.
    if (s.status == SupportEpsilonStatus::Flat || s.status == SupportEpsilonStatus::Empty)
      return s.epsilon == 0 ? QString() : "flat but eps != 0: " + what;
    if (s.status != SupportEpsilonStatus::Converged || !(s.epsilon < 0)) return "flat, outside, not converged: " + what;
    const Vec6& x = s.worstCaseWrench;
    if (std::abs(x.norm() + s.epsilon) > 1e-12) return "flat: |x| != -eps: " + what;
    for (const auto& ws : w)
      for (Vec6 v : ws) {
        v.head<3>() += gs.l1ForceOffset;
        if (v.dot(x) < x.squaredNorm() - 1e-9) return "flat: x is not the nearest point: " + what;
      }
    return {};
  }
  if (q.hullStatus != HullStatus::Ok || g.hull.joggled) { ++t.skipped; return {}; }
  if (s.status != SupportEpsilonStatus::Converged) return "not converged: " + what;
  if (!(s.lowerBound <= s.epsilon && s.epsilon <= s.upperBound)) return "bounds do not bracket eps: " + what;
  const double scale = std::max(std::abs(s.lowerBound), std::abs(s.upperBound));
  if (s.upperBound - s.lowerBound > 1e-9 * scale + 1e-11) return "gap too wide: " + what;
  if (std::abs(s.weakestDirection.norm() - 1) > 1e-12) return "direction not unit: " + what;
  if (std::abs(l1Support(w, gs, s.weakestDirection) - s.upperBound) > 1e-12) return "h(direction) != upper: " + what;
  if (q.epsilon >= -1e-9) {  // inside or on the boundary: the inradius, as Qhull's nearest facet
    if (std::abs(q.epsilon) <= 1e-9) ++t.boundary; else ++t.inside;
    if (std::abs(s.epsilon - q.epsilon) > 1e-9) return "eps differs: " + what;
    if (s.forceClosure != q.forceClosure) return "force closure differs: " + what;
    if (!(s.lowerBound <= q.epsilon + 1e-11 && q.epsilon <= s.upperBound + 1e-11)) return "bounds miss qhull: " + what;
    return {};
  }
  ++t.outside;
  if (std::abs(s.epsilon - q.epsilon) <= 1e-9) ++t.outsideSameAsFacet;
  if (s.forceClosure || s.epsilon >= 0) return "outside but eps >= 0: " + what;
  if (s.epsilon > q.epsilon + 1e-9) return "-distance above qhull's facet value: " + what;
  // The nearest point x = worstCaseWrench lies in W (all of Qhull's facets), |x| = −ε, and h(−x/|x|) = −|x|.
  const Vec6 x = s.worstCaseWrench;
  for (const auto& f : g.hyperplanes6)
    if (f.normal.head<6>().dot(x) + f.offset > 1e-9) return "nearest point outside the hull: " + what;
  if (std::abs(x.norm() + s.epsilon) > 1e-12) return "|nearest point| != -eps: " + what;
  return {};
}

}  // namespace

class TestQualitySupport : public QObject {
  Q_OBJECT
 private slots:
  // --- support functions -------------------------------------------------------------------------------------
  void supportFunctionsMatchTheirSets() {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 50; ++trial) {
      const RandomGrasp g = randomGrasp(rng, 3, 8);
      const Vec6 u = (Vec6() << randomUnit(rng), randomUnit(rng)).finished().normalized();
      // L1: the best wrench; L∞: Σ max(0, best of each contact); support points achieve h.
      double best = -1e300, sum = 0;
      for (const auto& ws : g.wrenches) {
        double bi = 0;
        for (const auto& w : ws) { best = std::max(best, w.dot(u)); bi = std::max(bi, w.dot(u)); }
        sum += bi;
      }
      const SupportPoint l1 = supportL1(g.wrenches, u), linf = supportLInfinity(g.wrenches, u);
      QVERIFY(std::abs(l1.h - best) < 1e-15 && std::abs(l1.w.dot(u) - l1.h) < 1e-15);
      QVERIFY(std::abs(linf.h - sum) < 1e-14 && std::abs(linf.w.dot(u) - linf.h) < 1e-14);
      // Exact cones: every linearised edge lies on the exact surface (h ≥ w·u), the support point on it too.
      for (std::size_t i = 0; i < g.cones.size(); ++i) {
        const SupportPoint e = supportExactCone(g.cones[i], g.torqueScale_mm, u);
        QVERIFY(std::abs(e.w.dot(u) - e.h) < 1e-14);
        for (const auto& w : g.wrenches[i]) QVERIFY(w.dot(u) <= e.h + 1e-14);
        // Sampled densely, the cone's edges reach h: 720 edges of the same contact.
        double dense = -1e300;
        const ExactContactCone& c = g.cones[i];
        for (const auto& edge : pointContactEdges(720)) {
          const Vec3 f = c.n_O + c.mu * (edge(0) * c.t1_O + edge(1) * c.t2_O);
          Vec6 w;
          w << f, c.p_OC_mm.cross(f) / g.torqueScale_mm;
          dense = std::max(dense, w.dot(u));
        }
        QVERIFY(e.h - dense < 1e-4 && e.h >= dense - 1e-14);
      }
    }
    // Soft finger: the torsion term about the normal (e_n), and the edges of softContactEdges on the surface.
    const ExactContactCone c = exactConeFor(sideAt(Vec3(1, 0, 0), 10), 0.5, 2.0, centred(10));
    const Vec6 spin = (Vec6() << 0, 0, 0, -1, 0, 0).finished();  // torque about −x = about n
    QVERIFY(std::abs(supportExactCone(c, 10, spin).h - 0.5 * 2.0 / 10) < 1e-15);
    const auto soft = contactWrenches(sideAt(Vec3(1, 0, 0), 10), 0.5, softContactEdges(2.0), centred(10));
    std::mt19937 rng2(3);
    for (int k = 0; k < 100; ++k) {
      const Vec6 u = (Vec6() << randomUnit(rng2), randomUnit(rng2)).finished().normalized();
      for (const auto& w : soft) QVERIFY(w.dot(u) <= supportExactCone(c, 10, u).h + 1e-14);
    }
  }

  // --- ε against the Qhull path on random grasps --------------------------------------------------------------
  void l1EqualsQhullOnRandomGrasps() {
    std::mt19937 rng(20240611);
    std::uniform_int_distribution<int> contacts(3, 6), pick(0, 3);
    const int edgeChoices[] = {4, 5, 6, 8};
    Tally t;
    for (int i = 0; i < 1000; ++i) {
      int nc = contacts(rng), ne = edgeChoices[pick(rng)];
      if (i % 100 == 37) { nc = 12; ne = 8; }
      if (i % 500 == 99) { nc = 12; ne = 16; }
      if (i == 500) { nc = 16; ne = 32; }
      GwsSettings gs;
      Wrenches w;
      switch (i % 10) {
        case 5: w = randomGrasp(rng, nc, ne, 0.3).wrenches; break;  // one-sided: origin outside
        case 6: {  // flat: two exactly antipodal contacts, or a coordinate that is zero throughout
          if (i % 20 == 6) {
            const Vec3 u = randomUnit(rng);
            w = wrenchesAt({u, -u}, 20, 0.6, pointContactEdges(ne));
          } else {
            w = randomGrasp(rng, nc, ne).wrenches;
            for (auto& ws : w) for (auto& x : ws) x(5) = 0;
          }
          break;
        }
        case 7: {  // the origin on the boundary: shift a set by its ε along the weakest direction
          w = randomGrasp(rng, nc, ne).wrenches;
          const GraspQuality q = evaluateQuality(buildL1Gws(w));
          for (auto& ws : w) for (auto& x : ws) x -= q.worstCaseWrench;
          break;
        }
        case 8: {  // duplicated wrenches and a duplicated contact
          w = randomGrasp(rng, nc, ne).wrenches;
          w.push_back(w[0]);
          for (auto& ws : w) ws.push_back(ws[static_cast<std::size_t>(i) % ws.size()]);
          break;
        }
        case 9: {  // fewer than 7 independent wrenches, or a lower-dimensional space, or an offset
          if (i % 30 == 9) w = randomGrasp(rng, 1, ne).wrenches;
          else if (i % 30 == 19) { w = randomGrasp(rng, nc, ne).wrenches; gs.dimensions = kPlanar; }
          else { w = randomGrasp(rng, nc, ne).wrenches; gs.l1ForceOffset = 0.3 * randomUnit(rng); }
          break;
        }
        default: w = randomGrasp(rng, nc, ne).wrenches;
      }
      const QString err = compareL1(w, gs, t);
      QVERIFY2(err.isEmpty(), qPrintable(QString("set %1 (%2x%3): %4").arg(i).arg(nc).arg(ne).arg(err)));
    }
    qInfo("%d sets: %d inside, %d on the boundary, %d outside (%d with -distance = Qhull's facet value), %d flat, "
          "%d skipped (Qhull joggled); max %d support queries; support %.1f ms vs Qhull %.1f ms",
          t.sets, t.inside, t.boundary, t.outside, t.outsideSameAsFacet, t.flat, t.skipped, t.iterationsMax,
          1e3 * t.supportSeconds, 1e3 * t.qhullSeconds);
    QVERIFY(t.inside > 300 && t.outside > 100 && t.flat > 50 && t.boundary > 50);
    QVERIFY(t.skipped < 10);
  }

  void lInfinityEqualsQhullOnTheMinkowskiSum() {
    // Three contacts (two point contacts span only 5-D in L∞: a force along the line through both gives
    // the same wrench from either), roughly a triangle around a random axis: 125–343 summed points.
    std::mt19937 rng(99);
    int compared = 0, forceClosure = 0;
    for (int i = 0; i < 12; ++i) {
      const int ne = 4 + i % 3;
      const Vec3 axis = randomUnit(rng), a = axis.unitOrthogonal(), b = axis.cross(a);
      std::vector<Vec3> dirs;
      for (int k = 0; k < 3; ++k) {
        const double th = 2 * kPi * k / 3 + 0.4 * (std::uniform_real_distribution<double>(0, 1)(rng) - 0.5);
        dirs.push_back((std::cos(th) * a + std::sin(th) * b + 0.3 * randomUnit(rng)).normalized());
      }
      const Wrenches w = graspAt(rng, dirs, ne).wrenches;
      const GraspQuality q = evaluateQuality(buildLInfinityGws(w));
      const SupportEpsilon s = lInfinityEpsilonFromSupport(w);
      const QString what = QString("set %1 (3x%2): qhull %3 eps %4, support %5 eps %6")
                               .arg(i).arg(ne).arg(toString(q.hullStatus)).arg(q.epsilon, 0, 'g', 17)
                               .arg(s.message.c_str()).arg(s.epsilon, 0, 'g', 17);
      QVERIFY2(q.hullStatus == HullStatus::Ok, qPrintable(what));
      QVERIFY2(s.status == SupportEpsilonStatus::Converged, qPrintable(what));
      QVERIFY2(std::abs(s.epsilon - q.epsilon) < 1e-9, qPrintable(what));
      QVERIFY2(s.lowerBound <= q.epsilon + 1e-11 && q.epsilon <= s.upperBound + 1e-11, qPrintable(what));
      QVERIFY(s.epsilon >= -1e-12);  // L∞ always holds the origin
      QCOMPARE(s.forceClosure, q.forceClosure);
      ++compared;
      forceClosure += s.forceClosure ? 1 : 0;
    }
    QVERIFY(forceClosure >= 4);
    // Two point contacts: flat in L∞ too, as the Qhull path says.
    std::mt19937 rng2(4);
    const Wrenches two = randomGrasp(rng2, 2, 6).wrenches;
    QCOMPARE(evaluateQuality(buildLInfinityGws(two)).hullStatus, HullStatus::Flat);
    QCOMPARE(lInfinityEpsilonFromSupport(two).status, SupportEpsilonStatus::Flat);
  }

  // --- analytic oracles (src/grasp/QUALITY.md §Oracles, as in tests/grasp) ---------------------------------------
  void crossPolytopeAndShiftedCloud() {
    std::vector<Vec6> ws;
    for (int i = 0; i < 6; ++i) for (double s : {1.0, -1.0}) ws.push_back(s * Vec6::Unit(i));
    const SupportEpsilon e = l1EpsilonFromSupport({ws});
    QCOMPARE(e.status, SupportEpsilonStatus::Converged);
    QVERIFY(std::abs(e.epsilon - 1 / std::sqrt(6.0)) < 1e-12);
    QVERIFY(std::abs(e.weakestDirection.cwiseAbs().minCoeff() - 1 / std::sqrt(6.0)) < 1e-9);
    QVERIFY(e.forceClosure);
    // The inner polytope ends as the cross-polytope itself (12 vertices, 2^6 facets); its insertions made
    // every facet but the initial simplex's 7, some of which they replaced.
    QCOMPARE(e.workingSetSize, 12);
    QCOMPARE(e.facetCount, 64);
    QVERIFY(e.facetsCreated >= e.facetCount - 7);
    // Shifted by 10 along fx: the nearest point is the vertex 9·e_x, distance 9 (Qhull's nearest facet
    // plane says 9/√6: QUALITY.md "Origin outside").
    for (auto& w : ws) w(0) += 10;
    const SupportEpsilon o = l1EpsilonFromSupport({ws});
    QCOMPARE(o.status, SupportEpsilonStatus::Converged);
    QVERIFY(std::abs(o.epsilon + 9) < 1e-9);
    QVERIFY((o.worstCaseWrench - 9 * Vec6::Unit(0)).norm() < 1e-9);
    QVERIFY(!o.forceClosure && !o.originInside);
    QVERIFY(std::abs(evaluateQuality(buildL1Gws({ws})).epsilon + 9 / std::sqrt(6.0)) < 1e-12);
  }
  void analyticGrasps() {
    for (double mu : {0.5, 1.0}) {  // G1: planar antipodal, L1 and L∞
      const auto w = wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, 10, mu, pointContactEdges(4));
      QVERIFY(std::abs(l1EpsilonFromSupport(w, planar()).epsilon - mu / std::sqrt(2 + mu * mu)) < 1e-9);
      QVERIFY(std::abs(lInfinityEpsilonFromSupport(w, planar()).epsilon -
                       std::sqrt(2.0) * mu / std::sqrt(1 + 2 * mu * mu)) < 1e-9);
      // The exact cone projects onto the same planar set (its out-of-plane tangent adds no fx, fy, τz).
      const auto cones = conesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, 10, mu);
      QVERIFY(std::abs(exactConeEpsilon(cones, 10, GwsType::L1, planar()).epsilon - mu / std::sqrt(2 + mu * mu)) < 1e-9);
    }
    for (double mu : {0.3, 0.5, 0.9})  // G2: three fingers on a disk
      QVERIFY(std::abs(l1EpsilonFromSupport(wrenchesAt(disk(3), 10, mu, pointContactEdges(4)), planar()).epsilon - mu) < 1e-9);
    const std::vector<Vec3> dirs = {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)};
    for (double mu : {0.3, 0.5, 1.0})  // G4: four hard contacts on a sphere
      QVERIFY(std::abs(l1EpsilonFromSupport(wrenchesAt(dirs, 25, mu, pointContactEdges(4))).epsilon - mu / std::sqrt(3.0)) < 1e-9);
    // G5: two antipodal hard contacts are flat (no torque about their axis): ε = 0, as the Qhull path.
    const SupportEpsilon g5 = l1EpsilonFromSupport(wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, 10, 0.5, pointContactEdges(8)));
    QCOMPARE(g5.status, SupportEpsilonStatus::Flat);
    QCOMPARE(g5.epsilon, 0.0);
    QVERIFY(!g5.forceClosure);
    QVERIFY(std::abs(std::abs(g5.weakestDirection(3)) - 1) < 1e-9);  // the missing torque about x
    // G6: the soft antipodal pyramid.
    const double r = 10;
    for (double mu : {0.3, 1.0})
      for (double gamma : {0.05, 0.3, 1.0}) {
        Vec6 e = Vec6::Zero();
        std::vector<Vec6> edges;
        for (int k : {0, 1}) for (double sgn : {1.0, -1.0}) { e.setZero(); e(k) = sgn; edges.push_back(e); }
        for (double sgn : {1.0, -1.0}) { e.setZero(); e(5) = sgn * gamma * r / mu; edges.push_back(e); }
        const double eps = l1EpsilonFromSupport(wrenchesAt({Vec3(1, 0, 0), Vec3(-1, 0, 0)}, r, mu, edges)).epsilon;
        const double expect = std::min(mu * gamma / std::sqrt(mu * mu + 2 * gamma * gamma), mu / std::sqrt(4 + mu * mu));
        QVERIFY2(std::abs(eps - expect) < 1e-9, qPrintable(QString("mu %1 gamma %2: %3 vs %4").arg(mu).arg(gamma).arg(eps).arg(expect)));
      }
  }

  // --- exact cones ------------------------------------------------------------------------------------------------
  void exactConeBoundsTheLinearizedOne() {
    std::mt19937 rng(11);
    int fc = 0;
    for (int i = 0; i < 40; ++i) {
      const bool soft = i % 4 == 3;
      const RandomGrasp g = randomGrasp(rng, 3 + i % 4, 8, i % 5 == 4 ? 0.3 : -1.0, soft ? 3.0 : 0.0);
      for (GwsType type : {GwsType::L1, GwsType::LInfinity}) {
        const SupportEpsilon lin = type == GwsType::L1 ? l1EpsilonFromSupport(g.wrenches) : lInfinityEpsilonFromSupport(g.wrenches);
        SupportEpsilonSettings s;
        s.relativeGap = 1e-6;  // smooth sets converge slower than polytopes
        const SupportEpsilon ex = exactConeEpsilon(g.cones, g.torqueScale_mm, type, s);
        const QString what = QString("grasp %1 %2: lin %3 [%4], exact %5 in [%6, %7] (%8, %9 queries)")
                                 .arg(i).arg(toString(type)).arg(lin.epsilon).arg(lin.message.c_str()).arg(ex.epsilon)
                                 .arg(ex.lowerBound).arg(ex.upperBound).arg(ex.message.c_str()).arg(ex.iterations);
        QVERIFY2(ex.status == SupportEpsilonStatus::Converged, qPrintable(what));
        QVERIFY2(ex.upperBound >= lin.epsilon - 1e-9, qPrintable(what));  // edges inscribed: W_lin ⊆ W_exact
        QVERIFY2(ex.epsilon >= lin.epsilon - 1e-9, qPrintable(what));
        fc += ex.forceClosure ? 1 : 0;
      }
    }
    QVERIFY(fc > 20);
  }
  void exactConeBetweenInscribedAndCircumscribedPyramids() {
    // m edges inscribed in the circle; the same edges with μ/cos(π/m) circumscribe it: ε_in ≤ ε_exact ≤ ε_out.
    std::mt19937 rng(5);
    const int m = 64;
    for (int i = 0; i < 6; ++i) {
      RandomGrasp g = randomGrasp(rng, 4, m, i % 3 == 2 ? 0.3 : -1.0);
      Wrenches outer;
      for (const auto& c : g.cones) {
        std::vector<Vec6> ws;
        for (const auto& e : pointContactEdges(m)) {
          const Vec3 f = c.n_O + c.mu / std::cos(kPi / m) * (e(0) * c.t1_O + e(1) * c.t2_O);
          Vec6 w;
          w << f, c.p_OC_mm.cross(f) / g.torqueScale_mm;
          ws.push_back(w);
        }
        outer.push_back(ws);
      }
      const double in = l1EpsilonFromSupport(g.wrenches).epsilon, out = l1EpsilonFromSupport(outer).epsilon;
      SupportEpsilonSettings s;
      s.relativeGap = 1e-7;
      const SupportEpsilon ex = exactConeEpsilon(g.cones, g.torqueScale_mm, GwsType::L1, s);
      QVERIFY2(ex.status == SupportEpsilonStatus::Converged && in <= ex.epsilon + 1e-9 && ex.epsilon <= out + 1e-9,
               qPrintable(QString("%1 <= %2 <= %3 (%4)").arg(in).arg(ex.epsilon).arg(out).arg(ex.message.c_str())));
    }
  }

  // --- degenerate input -------------------------------------------------------------------------------------------
  void degenerateInput() {
    QCOMPARE(l1EpsilonFromSupport({}).status, SupportEpsilonStatus::Empty);
    QCOMPARE(l1EpsilonFromSupport({{}, {}}).epsilon, 0.0);
    QCOMPARE(lInfinityEpsilonFromSupport({}).status, SupportEpsilonStatus::Empty);
    QCOMPARE(exactConeEpsilon({}, 10, GwsType::L1).status, SupportEpsilonStatus::Empty);
    // All-zero wrenches, a single wrench, six wrenches in 6-D: flat.
    QCOMPARE(l1EpsilonFromSupport({{Vec6::Zero(), Vec6::Zero()}}).status, SupportEpsilonStatus::Flat);
    // A single wrench is flat and, the origin outside it, ε = −its distance (one sign rule, tst_epsilon_sign).
    QVERIFY(std::abs(l1EpsilonFromSupport({{Vec6::Ones()}}).epsilon + std::sqrt(6.0)) < 1e-12);
    std::vector<Vec6> six;
    for (int i = 0; i < 6; ++i) six.push_back(Vec6::Unit(i) - 0.1 * Vec6::Ones());
    const SupportEpsilon s6 = l1EpsilonFromSupport({six});
    QVERIFY(!s6.forceClosure && s6.epsilon < 0);
    // The origin a vertex of W: ε = 0 exactly at the boundary, not force closure.
    std::vector<Vec6> cone{Vec6::Zero()};
    for (int i = 0; i < 6; ++i) cone.push_back(Vec6::Unit(i) + Vec6::Ones());
    const SupportEpsilon v = l1EpsilonFromSupport({cone});
    QCOMPARE(v.status, SupportEpsilonStatus::Converged);
    QVERIFY(std::abs(v.epsilon) < 1e-12 && !v.forceClosure);
    // Fewer than 2 dimensions: invalid, not a throw.
    SupportEpsilonSettings one;
    one.dimensions = {true, false, false, false, false, false};
    QCOMPARE(l1EpsilonFromSupport({six}, one).status, SupportEpsilonStatus::InvalidInput);
  }
  void nanInputIsAnErrorNotAHang() {
    std::mt19937 rng(1);
    RandomGrasp g = randomGrasp(rng, 4, 8);
    g.wrenches[2][3](4) = std::numeric_limits<double>::quiet_NaN();
    QCOMPARE(l1EpsilonFromSupport(g.wrenches).status, SupportEpsilonStatus::InvalidInput);
    QCOMPARE(lInfinityEpsilonFromSupport(g.wrenches).status, SupportEpsilonStatus::InvalidInput);
    g.cones[1].n_O.x() = std::numeric_limits<double>::infinity();
    QCOMPARE(exactConeEpsilon(g.cones, g.torqueScale_mm, GwsType::L1).status, SupportEpsilonStatus::InvalidInput);
    QCOMPARE(exactConeEpsilon({}, 0, GwsType::L1).status, SupportEpsilonStatus::InvalidInput);
    // A support function that starts answering NaN after a while.
    const RandomGrasp ok = randomGrasp(rng, 5, 8);
    int calls = 0;
    const SupportEpsilon e = epsilonFromSupport([&](const Vec6& u) {
      SupportPoint p = supportL1(ok.wrenches, u);
      if (++calls > 20) p.h = std::numeric_limits<double>::quiet_NaN();
      return p;
    });
    QCOMPARE(e.status, SupportEpsilonStatus::InvalidInput);
    QVERIFY(calls <= 22);
  }
  void iterationCapKeepsValidBounds() {
    std::mt19937 rng(2);
    for (int i = 0; i < 20; ++i) {
      const RandomGrasp g = randomGrasp(rng, 8, 16, i % 2 ? 0.3 : -1.0);
      const SupportEpsilon full = l1EpsilonFromSupport(g.wrenches);
      QCOMPARE(full.status, SupportEpsilonStatus::Converged);
      SupportEpsilonSettings capped;
      capped.maxIterations = 12 + i;
      const SupportEpsilon c = l1EpsilonFromSupport(g.wrenches, capped);
      if (c.status == SupportEpsilonStatus::Converged) continue;
      QCOMPARE(c.status, SupportEpsilonStatus::NotConverged);
      QVERIFY(c.iterations <= capped.maxIterations);
      QVERIFY2(c.lowerBound <= full.epsilon + 1e-12 && full.epsilon <= c.upperBound + 1e-12,
               qPrintable(QString("%1 in [%2, %3]?").arg(full.epsilon).arg(c.lowerBound).arg(c.upperBound)));
    }
  }
  void stopEarlyWhenNotForceClosure() {
    std::mt19937 rng(3);
    int stopped = 0;
    for (int i = 0; i < 30; ++i) {
      const RandomGrasp g = randomGrasp(rng, 4, 8, i % 2 ? 0.3 : -1.0);
      const SupportEpsilon full = l1EpsilonFromSupport(g.wrenches);
      SupportEpsilonSettings s;
      s.stopWhenNotForceClosure = true;
      const SupportEpsilon e = l1EpsilonFromSupport(g.wrenches, s);
      QCOMPARE(e.forceClosure, full.forceClosure);
      if (e.status == SupportEpsilonStatus::StoppedEarly) {
        ++stopped;
        QVERIFY(e.iterations <= full.iterations);
        QVERIFY(e.upperBound <= 1e-9 && full.epsilon <= e.upperBound + 1e-12);
      } else {
        QVERIFY(std::abs(e.epsilon - full.epsilon) < 1e-12);
      }
    }
    QVERIFY(stopped > 5);
  }
};

QTEST_GUILESS_MAIN(TestQualitySupport)
#include "tst_quality_support.moc"
