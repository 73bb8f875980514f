// The warm start of the support-function ε (QUALITY.md §Warm start): a solve that continues the previous state's
// polytope gives the cold solve's ε (to 1e-9 where both ask for a gap of 1e-9; within the certified gaps for the
// exact cones) and certified bounds that hold the cold value, over jittered states of the default grasp and over
// perturbed random grasps, also when another facet becomes the lowest; it falls back to a cold solve when the
// contact set changes, the origin leaves the set, or the input is degenerate or not finite; and a warm sequence
// is deterministic.
#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

#include "../support/GraspedDefaultWorld.h"
#include "../support/JitteredGraspStates.h"
#include "../support/RandomGrasps.h"
#include "grasp/Analysis.h"
#include "grasp/DeferredMeasures.h"
#include "grasp/EpsilonCold.h"
#include "grasp/ExactConePoint.h"
#include "grasp/ExpandingPolytope.h"
#include "geometry/TriangleTriangle.h"
#include "grasp/QualityMeasure.h"
#include "grasp/SupportEpsilon.h"

using namespace sg;

namespace {

using Wrenches = std::vector<std::vector<Vec6>>;

Wrenches jiggled(const Wrenches& w, std::mt19937& rng, double size) {
  std::normal_distribution<double> g(0.0, size);
  Wrenches out = w;
  for (auto& ws : out)
    for (Vec6& v : ws)
      for (int k = 0; k < 6; ++k) v(k) += g(rng);
  return out;
}

// A grasp whose contacts move a little from step to step, as under a dragged hand: each contact point by ~`mm`,
// each normal turned by ~`rad`; wrenches and exact cones rebuilt from them (each contact's wrenches stay on its
// own friction cone, as real ones do).
struct MovingGrasp {
  std::vector<ContactSide> sides;
  std::vector<double> mu;
  double torsion_mm = 0;
  int edges = 8;
  WrenchReference ref;
  MovingGrasp(std::mt19937& rng, int contacts, double torsion) : torsion_mm(torsion) {
    std::uniform_real_distribution<double> uni(0, 1);
    ref.torqueScale_mm = 34.5;
    for (int i = 0; i < contacts; ++i) {
      const Vec3 u = sgtest::randomUnit(rng);
      ContactSide side;
      side.p_WC_mm = 30 * (1 + 0.3 * (uni(rng) - 0.5)) * u;
      side.n_W = -(u + 0.18 * sgtest::randomUnit(rng)).normalized();
      side.X_WC = contactFrame(side.p_WC_mm, side.n_W);
      sides.push_back(side);
      mu.push_back(0.2 + 0.8 * uni(rng));
    }
  }
  void move(std::mt19937& rng, double mm, double rad) {
    std::normal_distribution<double> g(0.0, 1.0);
    for (ContactSide& side : sides) {
      side.p_WC_mm += mm * Vec3(g(rng), g(rng), g(rng));
      side.n_W = (side.n_W + rad * Vec3(g(rng), g(rng), g(rng))).normalized();
      side.X_WC = contactFrame(side.p_WC_mm, side.n_W);
    }
  }
  Wrenches wrenches() const {
    const std::vector<Vec6> e = torsion_mm > 0 ? softContactEdges(torsion_mm) : pointContactEdges(edges);
    Wrenches out;
    for (std::size_t i = 0; i < sides.size(); ++i) out.push_back(contactWrenches(sides[i], mu[i], e, ref));
    return out;
  }
  std::vector<ExactContactCone> cones() const {
    std::vector<ExactContactCone> out;
    for (std::size_t i = 0; i < sides.size(); ++i) out.push_back(exactConeFor(sides[i], mu[i], torsion_mm, ref));
    return out;
  }
};

// Warm equal to cold: the value to `tol` (relative to max(1, |ε|)), the same status, and each solve's certified
// interval holding the other's value to that tolerance plus its own gap.
void compare(const SupportEpsilon& warm, const SupportEpsilon& cold, double tol, const char* what) {
  QCOMPARE(toString(warm.status), toString(cold.status));
  const double t = tol * std::max(1.0, std::abs(cold.epsilon));
  if (!(std::abs(warm.epsilon - cold.epsilon) <= t))
    QFAIL(qPrintable(QString("%1: warm %2, cold %3").arg(what).arg(warm.epsilon, 0, 'g', 17).arg(cold.epsilon, 0, 'g', 17)));
  QVERIFY(warm.lowerBound <= cold.epsilon + t);
  QVERIFY(cold.epsilon <= warm.upperBound + t);
  QVERIFY(warm.lowerBound <= warm.epsilon && warm.epsilon <= warm.upperBound);
  QCOMPARE(warm.forceClosure, cold.forceClosure);
}

}  // namespace

class TestWarmEpsilon : public QObject {
  Q_OBJECT
 private slots:
  // The application's live set over jittered states of the default grasp, each analysed warm (the polytopes of
  // the state before) and cold: every ε, bound and σmin as the cold analysis gives them.
  void jitteredDefaultGraspMatchesCold() {
    const World world = sgtest::graspedDefaultWorld();
    const std::vector<WorldState> states = sgtest::jitteredGraspStates(world, 0, 25, 7);
    NullProgress progress;
    EpsilonWarmStarts warm;
    int warmL1 = 0, warmLinf = 0;
    for (const WorldState& state : states) {
      AnalysisRequest request;
      request.measures = immediateMeasureNames();
      const AnalysisResult cold = analyzeGrasp(world, state, request, progress);
      request.warmStart = &warm;
      const AnalysisResult hot = analyzeGrasp(world, state, request, progress);
      const GraspEvaluation& c = *cold.primary();
      const GraspEvaluation& h = *hot.primary();
      QVERIFY(h.warmStart == nullptr);  // lent only while the measures are computed
      compare(*h.l1Support, *c.l1Support, 1e-9, "eps L1");
      compare(*h.lInfinitySupport, *c.lInfinitySupport, 1e-9, "eps Linf");
      // The exact cones converge to a gap of 1e-6 relative: warm and cold stop at different points of it.
      compare(*h.exactSupport, *c.exactSupport, 2 * c.exactConeRelativeGap, "eps exact");
      QVERIFY(h.l1Support->forceClosure);
      QCOMPARE(h.measure("min-singular-value")->value, c.measure("min-singular-value")->value);
      QVERIFY(!c.l1Support->warmStarted && !c.lInfinitySupport->warmStarted);
      warmL1 += h.l1Support->warmStarted;
      warmLinf += h.lInfinitySupport->warmStarted;
      QVERIFY(!c.exactSupport->warmStarted);
      QVERIFY(!h.exactSupport->warmStarted);  // analyses solve the exact cones cold (QUALITY.md §Warm start)
      // Solved again cold (what the application's export does): the cold analysis's measures exactly, in order.
      GraspEvaluation again = h;
      resolveEpsilonCold(again);
      QCOMPARE(again.measures.size(), c.measures.size());
      for (std::size_t m = 0; m < c.measures.size(); ++m) {
        const MeasureValue& x = c.measures[m];
        const MeasureValue& y = again.measures[m];
        QCOMPARE(y.measure, x.measure);
        QCOMPARE(y.value, x.value);
        QCOMPARE(y.bounds.has_value(), x.bounds.has_value());
        if (x.bounds) {
          QCOMPARE(y.bounds->lower, x.bounds->lower);
          QCOMPARE(y.bounds->upper, x.bounds->upper);
          QCOMPARE(y.bounds->iterations, x.bounds->iterations);
        }
      }
      QVERIFY(!again.l1Support->warmStarted && !again.lInfinitySupport->warmStarted && !again.exactSupport->warmStarted);
    }
    // The first state is cold; nearly every later one continues the polytope (the point of the warm start).
    QVERIFY2(warmL1 >= 20 && warmLinf >= 20, qPrintable(QString("%1 %2").arg(warmL1).arg(warmLinf)));
  }

  // Perturbed random grasps (soft and point contacts, L1, L∞, exact cones), a sequence of small moves.
  void perturbedRandomGraspsMatchCold() {
    std::mt19937 rng(3901);
    for (const double torsion : {0.0, 2.0}) {
      MovingGrasp grasp(rng, 5, torsion);
      SupportWarmStart wl1, wlinf, wexact;
      int warmed = 0, steps = 0, warmedExact = 0;
      for (int step = 0; step < 12; ++step) {
        grasp.move(rng, 0.05, 0.002);
        const Wrenches w = grasp.wrenches();
        const auto cones = grasp.cones();
        const SupportEpsilon l1Cold = l1EpsilonFromSupport(w), linfCold = lInfinityEpsilonFromSupport(w);
        const SupportEpsilon l1 = l1EpsilonFromSupport(w, {}, &wl1), linf = lInfinityEpsilonFromSupport(w, {}, &wlinf);
        compare(l1, l1Cold, 1e-9, "eps L1");
        compare(linf, linfCold, 1e-9, "eps Linf");
        SupportEpsilonSettings exact;
        exact.relativeGap = 1e-6;
        exact.maxIterations = 2000;
        const SupportEpsilon eCold = exactConeEpsilon(cones, grasp.ref.torqueScale_mm, GwsType::L1, exact);
        const SupportEpsilon e = exactConeEpsilon(cones, grasp.ref.torqueScale_mm, GwsType::L1, exact, &wexact);
        compare(e, eCold, 2e-6, "eps exact");
        if (step > 0 && l1Cold.originInside) {
          ++steps;
          warmed += l1.warmStarted && linf.warmStarted;
          warmedExact += e.warmStarted;
        }
      }
      QVERIFY2(steps == 0 || warmed >= steps / 2, qPrintable(QString("%1 of %2").arg(warmed).arg(steps)));
      QVERIFY2(steps == 0 || warmedExact >= 1, qPrintable(QString("exact: %1 of %2").arg(warmedExact).arg(steps)));
    }
  }

  // The facet that bounds ε from below changes while the polytope is kept: after a move another facet (another
  // weakest direction) is the lowest, and its stale bound must not hide it (QUALITY.md §Warm start: only facets
  // whose bound lies below the lowest exact offset are refitted, the bound tightened along each facet's normal
  // first). Warm equals cold at every step, including the steps whose weakest direction turned.
  void lowestFacetChangesWhileWarm() {
    std::mt19937 rng(3903);
    int turnedWarm = 0;  // over both sets: which steps turn the weakest direction depends on the last bits of the
                         // solves, which differ between compilers (the clang sanitizer build saw none in one set)
    for (const double torsion : {0.0, 2.0}) {
      MovingGrasp grasp(rng, 6, torsion);
      SupportWarmStart wl1, wlinf;
      Vec6 lastL1 = Vec6::Zero(), lastLinf = Vec6::Zero();
      int warmSteps = 0;
      for (int step = 0; step < 80; ++step) {
        grasp.move(rng, 0.3, 0.01);
        const Wrenches w = grasp.wrenches();
        const SupportEpsilon l1Cold = l1EpsilonFromSupport(w), linfCold = lInfinityEpsilonFromSupport(w);
        const SupportEpsilon l1 = l1EpsilonFromSupport(w, {}, &wl1), linf = lInfinityEpsilonFromSupport(w, {}, &wlinf);
        compare(l1, l1Cold, 1e-9, "eps L1");
        compare(linf, linfCold, 1e-9, "eps Linf");
        // The weakest direction turned by more than ~8° (cos < 0.99; a step turns a facet by ~1°): another facet of
        // W is the lowest.
        if (l1.warmStarted && l1Cold.weakestDirection.dot(lastL1) < 0.99) ++turnedWarm;
        if (linf.warmStarted && linfCold.weakestDirection.dot(lastLinf) < 0.99) ++turnedWarm;
        warmSteps += l1.warmStarted + linf.warmStarted;
        lastL1 = l1Cold.weakestDirection;
        lastLinf = linfCold.weakestDirection;
      }
      QVERIFY2(warmSteps >= 40, qPrintable(QString("%1 warm solves").arg(warmSteps)));
    }
    QVERIFY2(turnedWarm >= 1, qPrintable(QString("%1 warm solves after the weakest direction turned").arg(turnedWarm)));
  }

  // The warm polytope's lazy refits (ExpandingPolytope.h, QUALITY.md §Warm start): after a move only the facets whose
  // bound lies below the lowest exact offset are refitted; the others stay stale from move to move, their bounds
  // kept in the offsets alone (the facets themselves untouched). The polytope here starts from a simplex that does
  // not hold the origin (its early facets, dead, leave low block bounds behind) and is translated step by step, each
  // step along another direction, so facets left stale for several moves become the lowest. At every step every live facet's bound is at most
  // the facet's distance from the origin (brute force, point to triangle), and the lowest exact offset E — exact:
  // the plane through the facet's moved vertices — is at most every facet's distance, so ε ≥ E stays certified.
  void lazyRefitsKeepTheLowerBound() {
    using namespace sg::support_polytope;
    std::mt19937 rng(3904);
    std::uniform_real_distribution<double> jitter(-0.003, 0.003);
    auto packed = [](const Vec3& v) {
      VecD x(3);
      x << v.x(), v.y(), v.z();
      return x;
    };
    Polytope<3> poly;
    poly.reset(1e-12);
    const std::vector<VecD> simplex = {packed(Vec3(1.1, 0.5, 0.5)), packed(Vec3(1.1, -0.5, -0.5)),
                                       packed(Vec3(0.1, 0.5, -0.5)), packed(Vec3(0.1, -0.5, 0.5))};
    QVERIFY(poly.init(simplex, std::vector<Origin>(4)));
    for (int i = 0; i < 300; ++i) QVERIFY(poly.addIfOutside(packed(sgtest::randomUnit(rng)), Origin{}));
    QVERIFY(poly.minOffset() > 0.8);  // the origin well inside
    // Each step: every vertex translated by 0.05 along a random direction and jittered, as a warm start moves them.
    int lazyLowest = 0;
    for (int step = 0; step < 12; ++step) {
      std::vector<bool> exactBefore;
      for (int i = 0; i < poly.slotCount(); ++i) exactBefore.push_back(poly.exact(i));
      P6 shift = P6::Zero();
      shift.head<3>() = 0.05 * sgtest::randomUnit(rng);
      double moved = 0;
      for (int k = 0; k < poly.vertexCount(); ++k) {
        const P6 to = poly.vertex(k) + shift + P6(jitter(rng), jitter(rng), jitter(rng), 0, 0, 0);
        moved = std::max(moved, (to - poly.vertex(k)).norm());
        poly.moveVertex(k, to);
      }
      poly.setInterior(poly.interior() + shift);
      poly.markMoved(moved);
      QVERIFY(poly.refitBelowLowest());
      const int f0 = poly.lowestExact();
      QVERIFY(f0 >= 0);
      QVERIFY(poly.exact(f0));
      const double lowest = poly.facet(f0).b;
      double nearest = std::numeric_limits<double>::infinity();
      for (int i = 0; i < poly.slotCount(); ++i) {
        const Facet& f = poly.facet(i);
        if (!f.alive) continue;
        const Vec3 a = poly.vertex(f.v[0]).head<3>(), b = poly.vertex(f.v[1]).head<3>(), c = poly.vertex(f.v[2]).head<3>();
        const double distance = std::sqrt(closestPointOnTriangle(Vec3::Zero(), a, b, c).distanceSquared);
        QVERIFY2(poly.bound(i) <= distance + 1e-12, qPrintable(QString("step %1 facet %2: bound %3 above %4")
                                                                   .arg(step).arg(i).arg(poly.bound(i)).arg(distance)));
        nearest = std::min(nearest, distance);
        if (i == f0) {  // the exact plane through the moved vertices
          Vec3 n = (b - a).cross(c - a).normalized();
          if (n.dot(f.n.head<3>()) < 0) n = -n;
          QVERIFY(std::abs(n.dot(a) - lowest) <= 1e-12);
        }
      }
      QVERIFY2(lowest <= nearest + 1e-12, qPrintable(QString("step %1: %2 above %3").arg(step).arg(lowest).arg(nearest)));
      QVERIFY(nearest - lowest < 0.05);  // and not a loose bound: the facets are ~0.1 wide
      lazyLowest += !exactBefore[static_cast<std::size_t>(f0)];
    }
    // A translation hands the lowest offset to facets on the side it moves away from, stale since earlier steps.
    QVERIFY2(lazyLowest >= 1, qPrintable(QString("%1").arg(lazyLowest)));
  }

  // The exact cones' warm start keeps each vertex as a point (x, y, z) of its contact's cone (ExactConePoint.h):
  // the support point's (x, y, z) gives back its wrench exactly, with h = u·w, and no other point of the cone
  // (random (x, y, z) in the unit ball) lies farther along u.
  void exactConePointIsTheSupportPoint() {
    std::mt19937 rng(3902);
    std::uniform_real_distribution<double> uni(-1, 1);
    for (const double torsion : {0.0, 2.0}) {
      MovingGrasp grasp(rng, 4, torsion);
      for (const ExactContactCone& cone : grasp.cones())
        for (int k = 0; k < 50; ++k) {
          Vec6 u;
          for (int i = 0; i < 6; ++i) u(i) = uni(rng);
          u.normalize();
          const ExactConeSupport at = supportExactConeAt(cone, grasp.ref.torqueScale_mm, u);
          QVERIFY(std::abs(at.xyz.norm() - 1) <= 1e-12);
          QVERIFY(exactConePoint(cone, grasp.ref.torqueScale_mm, at.xyz) == at.point.w);
          QVERIFY(supportExactCone(cone, grasp.ref.torqueScale_mm, u).w == at.point.w);
          QVERIFY(std::abs(at.point.h - u.dot(at.point.w)) <= 1e-12 * std::max(1.0, std::abs(at.point.h)));
          Vec3 xyz(uni(rng), uni(rng), uni(rng));
          if (xyz.norm() > 1) xyz.normalize();
          if (torsion == 0) xyz.z() = 0;  // a point contact's set is the disc z = 0
          QVERIFY(u.dot(exactConePoint(cone, grasp.ref.torqueScale_mm, xyz)) <= at.point.h + 1e-12);
        }
    }
  }

  // A different contact set (another contact, or one fewer) is another shape: cold, with the cold value; the state
  // after it warm-starts from the new one.
  void contactSetChangeFallsBackToCold() {
    std::mt19937 rng(77);
    const sgtest::RandomGrasp g = sgtest::randomGrasp(rng, 6, 8);
    SupportWarmStart warm;
    const SupportEpsilon first = lInfinityEpsilonFromSupport(g.wrenches, {}, &warm);
    QVERIFY(!first.warmStarted);
    QVERIFY(QString(first.warm.fallback).startsWith("no polytope kept"));
    QCOMPARE(QString(lInfinityEpsilonFromSupport(g.wrenches).warm.fallback), QString());  // none lent
    QVERIFY(first.originInside);
    QVERIFY(warm.holdsPolytope());
    Wrenches fewer = jiggled(g.wrenches, rng, 1e-4);
    fewer.pop_back();
    const SupportEpsilon changed = lInfinityEpsilonFromSupport(fewer, {}, &warm);
    QVERIFY(!changed.warmStarted);
    QCOMPARE(QString(changed.warm.fallback), QString("another input shape"));  // why it is cold (bench --exact-warm)
    QCOMPARE(changed.warm.move, 0.0);
    compare(changed, lInfinityEpsilonFromSupport(fewer), 0, "one contact fewer");
    Wrenches more = fewer;
    more.push_back(g.wrenches.back());
    more.back().pop_back();  // and a contact with another number of edges
    const SupportEpsilon other = lInfinityEpsilonFromSupport(more, {}, &warm);
    QVERIFY(!other.warmStarted);
    compare(other, lInfinityEpsilonFromSupport(more), 0, "another contact");
    const Wrenches next = jiggled(more, rng, 1e-4);
    const SupportEpsilon again = lInfinityEpsilonFromSupport(next, {}, &warm);
    QVERIFY(again.warmStarted);
    QCOMPARE(QString(again.warm.fallback), QString());
    QVERIFY(again.warm.move > 0);
    QVERIFY(again.warm.startLower <= again.epsilon);  // the moved polytope's first certified lower bound
    compare(again, lInfinityEpsilonFromSupport(next), 1e-9, "after the change");
    // Other settings are another shape too.
    SupportEpsilonSettings forces;
    forces.dimensions = {true, true, true, true, true, false};
    const SupportEpsilon five = lInfinityEpsilonFromSupport(next, forces, &warm);
    QVERIFY(!five.warmStarted);
    compare(five, lInfinityEpsilonFromSupport(next, forces), 0, "five coordinates");
  }

  // The origin leaving the set (a one-sided grasp after a force-closure one with the same shape): cold, ε < 0 as
  // the cold solve gives it; NaN input: InvalidInput and nothing kept; zero and flat input: as cold.
  void outsideDegenerateAndNonFiniteInput() {
    std::mt19937 rng(5);
    const sgtest::RandomGrasp inside = sgtest::randomGrasp(rng, 4, 8);
    sgtest::RandomGrasp outside;
    do outside = sgtest::randomGrasp(rng, 4, 8, 0.6);
    while (l1EpsilonFromSupport(outside.wrenches).originInside);
    for (int set = 0; set < 2; ++set) {
      auto solve = [&](const Wrenches& w, SupportWarmStart* warm) {
        return set == 0 ? l1EpsilonFromSupport(w, {}, warm) : lInfinityEpsilonFromSupport(w, {}, warm);
      };
      SupportWarmStart warm;
      QVERIFY(solve(inside.wrenches, &warm).originInside);
      const SupportEpsilon out = solve(outside.wrenches, &warm);
      QVERIFY(!out.warmStarted);
      QVERIFY(*out.warm.fallback != '\0');  // the attempt says why it fell back, after moving the vertices
      QVERIFY(out.warm.move > 0);
      compare(out, solve(outside.wrenches, nullptr), 0, "outside");
      QVERIFY(out.epsilon <= 0);
      QVERIFY(!warm.holdsPolytope());  // nothing inside to continue from

      QVERIFY(solve(inside.wrenches, &warm).originInside);
      QVERIFY(warm.holdsPolytope());
      Wrenches nan = inside.wrenches;
      nan[1][2](3) = std::nan("");
      const SupportEpsilon bad = solve(nan, &warm);
      QCOMPARE(bad.status, SupportEpsilonStatus::InvalidInput);
      QVERIFY(!bad.warmStarted);
      const SupportEpsilon after = solve(inside.wrenches, &warm);
      compare(after, solve(inside.wrenches, nullptr), 1e-9, "after NaN");

      Wrenches zero = inside.wrenches;
      for (auto& ws : zero)
        for (Vec6& v : ws) v.setZero();
      const SupportEpsilon z = solve(zero, &warm);
      QVERIFY(!z.warmStarted);
      compare(z, solve(zero, nullptr), 0, "zero wrenches");
      QVERIFY(!warm.holdsPolytope());
      // Flat: every contact's wrenches in the force subspace alone (no torques).
      Wrenches flat = inside.wrenches;
      for (auto& ws : flat)
        for (Vec6& v : ws) v.tail<3>().setZero();
      const SupportEpsilon f = solve(flat, &warm);
      QVERIFY(!f.warmStarted);
      compare(f, solve(flat, nullptr), 0, "flat set");
    }
    SupportWarmStart exact;
    std::vector<ExactContactCone> cones = inside.cones;
    QVERIFY(exactConeEpsilon(cones, inside.torqueScale_mm, GwsType::L1, {}, &exact).originInside);
    cones[0].mu = std::nan("");
    QCOMPARE(exactConeEpsilon(cones, inside.torqueScale_mm, GwsType::L1, {}, &exact).status,
             SupportEpsilonStatus::InvalidInput);
  }

  // The same warm sequence twice: bit for bit the same values, bounds and query counts.
  void warmSequenceIsDeterministic() {
    auto run = [] {
      std::mt19937 rng(11);
      const sgtest::RandomGrasp g = sgtest::randomGrasp(rng, 5, 8, -1, 2.0);
      SupportWarmStart warm;
      std::vector<double> out;
      for (int step = 0; step < 8; ++step) {
        const SupportEpsilon e = lInfinityEpsilonFromSupport(jiggled(g.wrenches, rng, 1e-3), {}, &warm);
        out.insert(out.end(), {e.epsilon, e.lowerBound, e.upperBound, double(e.iterations), double(e.warmStarted)});
      }
      return out;
    };
    const std::vector<double> a = run(), b = run();
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) QCOMPARE(a[i], b[i]);
  }
};

QTEST_APPLESS_MAIN(TestWarmEpsilon)
#include "tst_warm_epsilon.moc"
