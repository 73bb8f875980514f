// bench_quality: median time of a full grasp-quality update (contact detection + soft contacts + L1/L∞ GWS and
// ε) on the default world and the ThreeFinger-on-a-ball world after auto-grasp, then ε alone next to bare
// Qhull on the same wrenches; the same on a synthetic grasp (four soft fingertips on a sphere mesh) that
// needs no model files. Then ε from support functions (grasp/SupportEpsilon.h) next to bare Qhull on random
// grasp-like wrench sets (tests/support/RandomGrasps.h) of growing size, and L∞/exact-cone ε on the worlds.
// Last, the default world's full update through the engine's one call (analyzeGrasp: contacts → soft fits →
// wrenches → ε L1 and ε L∞ from support functions; and the application's live measure set), many iterations.
// Usage: bench_quality [--quick] | bench_quality --full-update [--quick] (only the default world's full update,
// whole and per stage, with the 1 ms target) | bench_quality --eps-loop SECONDS [WORLD.xml] (ε L1/L∞/exact of
// one bundled world after auto-grasp, default.xml unless named) | bench_quality --update-loop SECONDS
// [MEASURE...] (analyzeGrasp on the default world with those measures, for a profiler) | bench_quality
// --stage-counts N (each stage of the default world's full update N times, a fixed amount of work: run it under
// `valgrind --tool=callgrind` and read the inclusive instruction counts of the stage functions) | bench_quality
// --jitter-counts N [live] (N jittered states of the default world analysed cold, then warm, for callgrind:
// --toggle-collect='*jitterSequenceCold*' and '*jitterSequenceWarm*') | bench_quality --exact-gaps N
// [--wrong-reference] (the exact cones' cold solve by relative gap over N jittered states, cross-checked: exit 3 on a
// failed check; --wrong-reference must fail it) | bench_quality --exact-warm N [--wrong-reference] (the exact cones
// warm along N jittered states next to cold: finished warm, why the others fell back, δ/ε, facets, CPU; exit 3 on a
// failed check). --full-update first runs the jittered
// states (median and p90, cold next to warm, every state's ε checked against the cold solve: a mismatch fails it).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "contact/ContactCache.h"
#include "contact/ContactDetection.h"
#include "core/NumberFormat.h"
#include "geometry/Primitives.h"
#include "grasp/Analysis.h"
#include "grasp/AutoGrasp.h"
#include "grasp/DeferredMeasures.h"
#include "grasp/GraspEvaluation.h"
#include "grasp/HullMeasures.h"
#include "grasp/QualityMeasure.h"
#include "grasp/SupportEpsilon.h"
#include "BenchStats.h"
#include "BenchTiming.h"
#include "../support/RandomGrasps.h"
#include "../support/SameContacts.h"
#include "io/ModelIO.h"
#include "../support/PlacedBody.h"
#include "../support/JitteredGraspStates.h"

using namespace sg;

namespace {

bool quick = false;

// Median seconds per call: at least 5 calls, then until ~0.5 s (0.05 s with --quick) or 200 calls.
double medianSeconds(const std::function<void()>& f) {
  return bench::medianSeconds(f, quick ? 0.05 : 0.5, 200);
}
using bench::secondsOf;

// ε with the plain C library (reentrant libqhull_r, GraspIt!'s quantity): min −offset over facets.
// `flags`: Qhull options after "qhull" ("" = Qhull's defaults, WrenchHull's exact hulls; "QJ" joggled).
double bareQhullEpsilon(std::vector<double> coords, int dim, const char* flags = "") {
  qhT qhStorage;
  qhT* qh = &qhStorage;
  QHULL_LIB_CHECK
  qh_zero(qh, nullptr);
  std::string optionText = std::string("qhull ") + flags;
  std::vector<char> options(optionText.begin(), optionText.end());
  options.push_back('\0');
  double eps = 0;
  const int n = static_cast<int>(coords.size()) / dim;
  if (n > dim && qh_new_qhull(qh, dim, n, coords.data(), False, options.data(), nullptr, nullptr) == 0) {
    eps = 1e300;
    facetT* facet;
    FORALLfacets eps = std::min(eps, -facet->offset);
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  return eps;
}

// `handContactsOnly` false: the synthetic grasp's fingertips are obstacles (a fixture), not a hand.
void report(const char* title, const World& world, const std::function<std::vector<Contact>()>& contacts,
            bool handContactsOnly = true) {
  std::printf("\n== %s\n", title);
  QualitySettings settings;
  settings.handContactsOnly = handContactsOnly;
  const std::vector<Contact> cs = contacts();
  const ContactModel& model = defaultContactModel();
  NullProgress progress;
  const std::vector<std::string> l1Measures = {"epsilon-l1", "volume-l1"};
  auto evaluate = [&](const std::vector<Contact>& found, const std::vector<std::string>& measures) {
    GraspEvaluation e = evaluateGrasp(world, found, 0, model, settings);
    computeMeasures(e, measures, progress);
    return e;
  };
  const GraspEvaluation e = evaluate(cs, qualityMeasureNames());
  int soft = 0;
  for (const auto& c : e.contacts) soft += c.kind == ContactKind::SoftFinger ? 1 : 0;
  std::printf("contacts: %zu found, %zu on the object (%d soft), %zu wrenches\n", cs.size(), e.contacts.size(), soft,
              e.l1.inputPointCount);
  for (const auto& c : cs)
    std::printf("  %s - %s, separation %.3f mm\n", world.bodyLabel(c.side1.body).c_str(),
                world.bodyLabel(c.side2.body).c_str(), c.separation_mm);
  std::printf("L1: eps %.6f  volume %.6g  facets %d  force closure %s\n", e.l1Quality.epsilon, e.l1Quality.volume,
              e.l1Quality.facetCount, e.l1Quality.forceClosure ? "yes" : "no");
  if (e.lInfinity.limitExceeded)
    std::printf("Linf: not built (%s)\n", e.lInfinity.hull.message.c_str());
  else
    std::printf("Linf: eps %.6f  volume %.6g  facets %d\n", e.lInfinityQuality.epsilon, e.lInfinityQuality.volume,
                e.lInfinityQuality.facetCount);

  const double tDetect = medianSeconds([&] { (void)contacts(); });
  const double tEval = medianSeconds([&] { (void)evaluate(cs, l1Measures); });
  const double tEvalBoth = medianSeconds([&] { (void)evaluate(cs, qualityMeasureNames()); });
  const double tFull = medianSeconds([&] { (void)evaluate(contacts(), l1Measures); });
  std::vector<std::vector<Vec6>> wrenches;
  std::vector<double> coords;
  for (const auto& c : e.contacts) {
    wrenches.push_back(c.wrenches);
    for (const auto& w : c.wrenches) coords.insert(coords.end(), w.data(), w.data() + 6);
  }
  const double tEps = medianSeconds([&] { (void)l1Epsilon(wrenches); });
  double bareEps = 0;
  const double tBare = medianSeconds([&] { bareEps = bareQhullEpsilon(coords, 6); });
  std::printf("median: contact detection %.3f ms | evaluateGrasp L1 %.3f ms, L1+Linf %.3f ms | full update "
              "(detection + L1 evaluation) %.3f ms\n",
              1e3 * tDetect, 1e3 * tEval, 1e3 * tEvalBoth, 1e3 * tFull);
  std::printf("median: L1 eps alone %.3f ms (eps %.9f) | bare libqhull_r %.3f ms (eps %.9f)\n", 1e3 * tEps,
              l1Epsilon(wrenches), 1e3 * tBare, bareEps);

  // Support functions (QUALITY.md "ε from support functions"): L1, L∞ (no Minkowski sum) and exact cones.
  SupportEpsilon l1s, linfs, exact;
  std::vector<ExactContactCone> cones;
  for (const auto& c : e.contacts)
    cones.push_back(exactConeFor(c.objectIsSide1 ? c.contact.side1 : c.contact.side2,
                                 c.mu, c.torsion_mm,
                                 e.reference));
  SupportEpsilonSettings exactSettings;
  exactSettings.relativeGap = 1e-6;
  const double tL1s = medianSeconds([&] { l1s = l1EpsilonFromSupport(wrenches); });
  const double tLinfs = medianSeconds([&] { linfs = lInfinityEpsilonFromSupport(wrenches); });
  const double tExact = medianSeconds([&] {
    exact = exactConeEpsilon(cones, e.reference.torqueScale_mm, GwsType::L1, exactSettings);
  });
  std::printf("median: support L1 eps %.3f ms (eps %.9f, %s, %d queries; |d eps| vs Qhull %.1e)\n", 1e3 * tL1s,
              l1s.epsilon, l1s.message.c_str(), l1s.iterations, std::abs(l1s.epsilon - e.l1Quality.epsilon));
  std::printf("median: support Linf eps %.3f ms (eps %.9f, %s, %d queries", 1e3 * tLinfs, linfs.epsilon,
              linfs.message.c_str(), linfs.iterations);
  if (e.lInfinity.limitExceeded) std::printf("; the Qhull Minkowski-sum path is over its point limit)\n");
  else std::printf("; |d eps| vs Qhull %.1e)\n", std::abs(linfs.epsilon - e.lInfinityQuality.epsilon));
  std::printf("median: exact-cone L1 eps %.3f ms (eps %.9f in [%.9f, %.9f], %s, %d queries; linearised %.9f)\n",
              1e3 * tExact, exact.epsilon, exact.lowerBound, exact.upperBound, exact.message.c_str(),
              exact.iterations, l1s.epsilon);
}

// Support-function ε against bare libqhull_r on the same random grasps (contacts × edges), same run.
void compareOnRandomGrasps() {
  std::printf("\n== eps from support functions vs bare libqhull_r, random grasps on a bumpy sphere (6-D L1)\n");
  std::printf("%-6s %4s | %9s %6s | %10s %8s %9s | %10s %8s %9s\n", "size", "sets", "support", "queries",
              "qhull", "ratio", "max|dEps|", "qhull QJ", "ratio", "max|dEps|");
  struct Size { int contacts, edges, sets; };
  const std::vector<Size> sizes = {{4, 8, 5}, {6, 8, 5}, {12, 8, 3}, {12, 16, 3}, {12, 32, quick ? 1 : 2}};
  std::mt19937 rng(1234);
  for (const Size& z : sizes) {
    double tSupport = 0, tQhull = 0, tQJ = 0, dQhull = 0, dQJ = 0;
    int queries = 0, outside = 0;
    for (int k = 0; k < z.sets; ++k) {
      const sgtest::RandomGrasp g = sgtest::randomGrasp(rng, z.contacts, z.edges);
      std::vector<double> coords;
      for (const auto& ws : g.wrenches)
        for (const auto& w : ws) coords.insert(coords.end(), w.data(), w.data() + 6);
      SupportEpsilon s;
      double eq = 0, ej = 0;
      tSupport += medianSeconds([&] { s = l1EpsilonFromSupport(g.wrenches); });
      tQhull += bench::medianSeconds([&] { eq = bareQhullEpsilon(coords, 6); }, quick ? 0.05 : 0.3, 20);
      tQJ += bench::medianSeconds([&] { ej = bareQhullEpsilon(coords, 6, "QJ"); }, quick ? 0.05 : 0.3, 20);
      queries = std::max(queries, s.iterations);
      if (eq < 0) { ++outside; continue; }  // outside: −distance vs the nearest facet plane (QUALITY.md)
      dQhull = std::max(dQhull, std::abs(s.epsilon - eq));
      dQJ = std::max(dQJ, std::abs(s.epsilon - ej));
    }
    const double n = z.sets;
    std::printf("%2dx%-3d %4d | %6.3f ms %6d | %7.2f ms %8.4f %9.1e | %7.2f ms %8.4f %9.1e%s\n", z.contacts, z.edges,
                z.sets, 1e3 * tSupport / n, queries, 1e3 * tQhull / n, tSupport / tQhull, dQhull, 1e3 * tQJ / n,
                tSupport / tQJ, dQJ, outside ? "  (some sets not force closure: |dEps| over the others)" : "");
  }
  std::printf("ratio = support time / Qhull time (targets: <= 0.1 at 12x16 and <= 0.01 at 12x32 vs Qhull QJ)\n");
}

World sphereGraspWorld(std::vector<Contact>& contacts) {
  World w;
  Body ball;
  ball.name = "ball";
  ball.kind = BodyKind::Graspable;
  ball.mesh = std::make_shared<const TriangleMesh>(makeIcosphere(30, 5));
  ball.maxRadius_mm = 30;
  sgtest::addGraspable(w, ball);
  const std::vector<Vec3> dirs = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const Vec3 u = dirs[i].normalized();
    Body tip;
    tip.name = "tip" + std::to_string(i);
    tip.youngs_Pa = 1.5e6;
    tip.mesh = std::make_shared<const TriangleMesh>(makeIcosphere(8, 4));
    sgtest::addObstacle(w, tip, Transform::fromTranslation(38 * u));
    Contact c;
    c.side1.body = {BodyHandle::Kind::Graspable, 0, {}};
    c.side1.p_WC_mm = 30 * u;
    c.side1.n_W = -u;
    c.side1.X_WC = contactFrame(c.side1.p_WC_mm, c.side1.n_W);
    c.side2.body = {BodyHandle::Kind::Obstacle, static_cast<int>(i), {}};
    c.side2.p_WC_mm = 30 * u;
    c.side2.n_W = u;
    c.side2.X_WC = contactFrame(c.side2.p_WC_mm, c.side2.n_W);
    c.muStatic = 0.5;
    c.muKinetic = 0.4;
    contacts.push_back(c);
  }
  return w;
}

bool jitteredFullUpdate(const World& world, int stateCount, int passes);

// The default world after auto-grasp, the whole update as the application and the CLI run it (analyzeGrasp:
// contact detection, soft neighbourhoods and fits, patches, wrenches, measures): median over many calls, then
// each stage alone on the same state (the sum of the stage medians is close to, not equal to, the whole).
bool defaultWorldFullUpdate() {
  World world;
  try {
    world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/default.xml");
  } catch (const std::exception& e) {
    std::printf("(worlds/default.xml not usable: %s)\n", e.what());
    return true;
  }
  autoGrasp(world, 0);
  const bool same = jitteredFullUpdate(world, quick ? 100 : 200, quick ? 3 : 7);
  std::printf("\n== default world full update, one state repeated (analyzeGrasp after auto-grasp: contacts -> soft "
              "fits -> wrenches -> measures)\n");
  NullProgress progress;
  const double budget = quick ? 0.3 : 3.0;
  const std::size_t maxCalls = quick ? 200 : 3000;
  std::vector<std::string> live;  // what the application computes on the GUI thread with every change
  for (const QualityMeasure* m : qualityMeasures())
    if (!m->expensive() && !wrenchSpaceHull(*m)) live.push_back(m->name());
  std::vector<std::string> liveWithVolume = live;  // before: volume-l1 (a Qhull hull) in every live update
  liveWithVolume.insert(liveWithVolume.begin() + 1, "volume-l1");
  struct Case { const char* title; std::vector<std::string> measures; };
  const std::vector<Case> cases = {
      {"contacts + soft fits + wrenches only", {}},
      {"app live set, GUI thread (eps L1, eps Linf, eps exact, sigma min)", live},
      {"app live set with volume L1 (its hull now built in the background)", liveWithVolume}};
  for (const Case& c : cases) {
    AnalysisRequest request;
    request.measures = c.measures;
    AnalysisResult r = analyzeGrasp(world, request, progress);
    const bench::Medians m = bench::medians([&] { r = analyzeGrasp(world, request, progress); }, budget, maxCalls);
    std::printf("%-70s median %.3f ms (cpu %.3f ms, %zu calls), %.0f evaluations/s\n", c.title, 1e3 * m.wall_s,
                1e3 * m.cpu_s, m.calls, 1.0 / m.wall_s);
  }

  // The target case, whole and per stage.
  AnalysisRequest request;
  request.measures = {"epsilon-l1", "epsilon-linf"};
  AnalysisResult r = analyzeGrasp(world, request, progress);
  const bench::Medians full = bench::medians([&] { r = analyzeGrasp(world, request, progress); }, budget, maxCalls);
  const GraspEvaluation* e = r.primary();
  if (!e) return same;
  const ContactModel& model = *findContactModel(request.contactModels.front());
  // The stages as analyzeGrasp runs them: detection keeps its raw points for the touching points.
  std::vector<Contact> contacts;
  std::vector<RawPairContacts> raw;
  const bench::Medians tContacts = bench::medians(
      [&] {
        raw.clear();
        contacts = findAllContacts(world, world.state, request.collision, &raw);
        orderContacts(contacts);
      },
      budget / 3, maxCalls);
  GraspEvaluation fitted;
  const bench::Medians tFits = bench::medians(
      [&] { fitted = evaluateGrasp(world, world.state, contacts, r.graspable, model, request.quality, nullptr, &raw); },
      budget / 3, maxCalls);
  std::vector<std::vector<Vec6>> wrenches;
  const bench::Medians tWrenches = bench::medians(
      [&] {
        wrenches.clear();
        for (const ContactEvaluation& c : fitted.contacts)
          wrenches.push_back(contactWrenches(c.onObject(), c.mu, c.frictionEdges, fitted.reference));
      },
      budget / 3, maxCalls);
  const SupportEpsilonSettings settings = supportEpsilonSettingsFor(fitted.gws, fitted.forceClosureTolerance);
  SupportEpsilon l1, linf;
  const bench::Medians tL1 =
      bench::medians([&] { l1 = l1EpsilonFromSupport(fitted.perContactWrenches(), settings); }, budget / 3, maxCalls);
  const bench::Medians tLinf = bench::medians(
      [&] { linf = lInfinityEpsilonFromSupport(fitted.perContactWrenches(), settings); }, budget / 3, maxCalls);
  std::printf("full update, eps L1 + eps Linf: median %.3f ms (cpu %.3f ms, %zu calls), %.0f evaluations/s | "
              "eps L1 %.9f (%d queries), eps Linf %.9f (%d queries)\n",
              1e3 * full.wall_s, 1e3 * full.cpu_s, full.calls, 1.0 / full.wall_s, l1.epsilon, l1.iterations,
              linf.epsilon, linf.iterations);
  // The same grasp with ContactScope::Grasp (only graspable–hand pairs queried: the mug–table pair and its 64
  // contacts are left out; tst_analysis checks the grasp and its ε are identical).
  AnalysisRequest graspScope = request;
  graspScope.contactScope = ContactScope::Grasp;
  const bench::Medians scoped =
      bench::medians([&] { r = analyzeGrasp(world, graspScope, progress); }, budget, maxCalls);
  std::printf("full update, grasp pairs only (ContactScope::Grasp): median %.3f ms (cpu %.3f ms, %zu calls), "
              "%.0f evaluations/s\n", 1e3 * scoped.wall_s, 1e3 * scoped.cpu_s, scoped.calls, 1.0 / scoped.wall_s);
  const double sumWall = tContacts.wall_s + tFits.wall_s + tWrenches.wall_s + tL1.wall_s + tLinf.wall_s;
  const double sumCpu = tContacts.cpu_s + tFits.cpu_s + tWrenches.cpu_s + tL1.cpu_s + tLinf.cpu_s;
  const std::vector<std::pair<const char*, bench::Medians>> stages = {
      {"contacts (findAllContacts + order)", tContacts},
      {"soft fits + patches (evaluateGrasp, wrenches included)", tFits},
      {"wrenches alone (contactWrenches)", tWrenches},
      {"eps L1 (support functions)", tL1},
      {"eps Linf (support functions)", tLinf}};
  for (const auto& [name, m] : stages)
    std::printf("  %-56s median %.3f ms (cpu %.3f ms) %5.1f %%\n", name, 1e3 * m.wall_s, 1e3 * m.cpu_s,
                100 * m.wall_s / sumWall);
  std::printf("  %-56s        %.3f ms (cpu %.3f ms)\n", "sum of the stages", 1e3 * sumWall, 1e3 * sumCpu);
  std::printf("target <= 1 ms (default world full update, eps L1 + eps Linf, median): %s (%.3f ms wall, %.3f ms cpu; "
              "grasp pairs only: %s, %.3f ms wall)\n",
              full.wall_s <= 1e-3 ? "met" : "not met", 1e3 * full.wall_s, 1e3 * full.cpu_s,
              scoped.wall_s <= 1e-3 ? "met" : "not met", 1e3 * scoped.wall_s);
  return same;
}

// Median and 90th percentile of per-state figures.
struct Spread {
  double median = 0, p90 = 0;
};
Spread spreadOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size())))]; };
  return {at(0.5), at(0.9)};
}

// The warm path must give the cold path's value: the ε's to 1e-9 (relative to max(1, |ε|)) where both solves ask
// for a gap of 1e-9, else within the two certified intervals' gaps (the exact cones: gap 1e-6); the rest exactly.
bool sameMeasures(const AnalysisResult& cold, const AnalysisResult& warm, std::string& why) {
  const GraspEvaluation* a = cold.primary();
  const GraspEvaluation* b = warm.primary();
  if (!a || !b) { why = "no evaluation"; return a == b; }
  if (a->measures.size() != b->measures.size()) { why = "different measure lists"; return false; }
  for (std::size_t i = 0; i < a->measures.size(); ++i) {
    const MeasureValue& x = a->measures[i];
    const MeasureValue& y = b->measures[i];
    double tol = 1e-9 * std::max(1.0, std::abs(x.value));
    if (x.bounds && y.bounds) tol = std::max(tol, x.bounds->gap() + y.bounds->gap());
    const bool boundsOverlap =
        !x.bounds || !y.bounds || (x.bounds->lower <= y.bounds->upper + tol && y.bounds->lower <= x.bounds->upper + tol);
    if (x.measure != y.measure || x.ok != y.ok || !(std::abs(x.value - y.value) <= tol) || !boundsOverlap) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s: cold %.15g, warm %.15g (tolerance %.1e)", x.measure.c_str(), x.value, y.value, tol);
      why = buf;
      return false;
    }
  }
  return true;
}

// The default world's update over jittered states (tests/support/JitteredGraspStates.h: palm and DOFs around the
// auto-grasped state, seed 39, the grasp's contacts kept), each state analysed cold and warm (the ε solves starting
// from the previous state's polytopes, QUALITY.md §Warm start) in the same run; per state the median of `passes`
// passes, then the median and 90th percentile over the states. Every state's measures are compared (sameMeasures):
// a mismatch fails the benchmark. Returns false on a mismatch.
bool jitteredFullUpdate(const World& world, int stateCount, int passes) {
  const std::vector<WorldState> states = sgtest::jitteredGraspStates(world, 0, stateCount, 39);
  std::printf("\n== default world over %d jittered states (palm +-0.1 mm, +-0.002 rad, DOFs +-0.002; the grasp's "
              "contacts kept; %d passes, per-state median, then median and p90 over the states)\n",
              stateCount, passes);
  NullProgress progress;
  std::vector<std::string> live;
  for (const QualityMeasure* m : qualityMeasures())
    if (!m->expensive() && !wrenchSpaceHull(*m)) live.push_back(m->name());
  struct Case { const char* title; std::vector<std::string> measures; double target_ms; };
  const std::vector<Case> cases = {
      {"full update (contacts, soft fits, eps L1, eps Linf)", {"epsilon-l1", "epsilon-linf"}, 0.5},
      {"app live set (eps L1, eps Linf, eps exact, sigma min)", live, 1.5}};
  bool allSame = true;
  for (const Case& c : cases) {
    std::vector<std::vector<double>> wall(2, std::vector<double>(states.size())), cpu = wall;
    std::vector<std::vector<std::vector<double>>> samples(4, std::vector<std::vector<double>>(states.size()));
    int warmStarted = 0, warmSolves = 0, mismatches = 0;
    std::size_t pairsReused = 0, pairsQueried = 0, pairsApart = 0;
    EpsilonWarmStarts warm;
    ContactCache contactCache;  // pairs whose bodies did not move keep their contacts (contact/ContactCache.h)
    for (int pass = 0; pass < passes; ++pass)
      for (int mode = 0; mode < 2; ++mode)  // 0 cold, 1 warm; the same states in the same run
        for (std::size_t i = 0; i < states.size(); ++i) {
          AnalysisRequest request;
          request.measures = c.measures;
          if (mode == 1) {
            request.warmStart = &warm;
            request.contactCache = &contactCache;
          }
          AnalysisResult r;
          const double c0 = bench::threadCpuSeconds();
          const double w = bench::secondsOf([&] { r = analyzeGrasp(world, states[i], request, progress); });
          samples[static_cast<std::size_t>(2 * mode)][i].push_back(w);
          samples[static_cast<std::size_t>(2 * mode + 1)][i].push_back(bench::threadCpuSeconds() - c0);
          if (mode == 1 && pass == 0) {
            AnalysisRequest coldRequest;
            coldRequest.measures = c.measures;
            const AnalysisResult cold = analyzeGrasp(world, states[i], coldRequest, progress);
            std::string why = sgtest::contactListDifference(cold.contacts, r.contacts);
            if (!why.empty()) why = "contacts: " + why;
            for (const bool reused : contactCache.reusedInLastCall()) {
              ++pairsQueried;
              pairsReused += reused ? 1 : 0;
            }
            for (const bool apart : contactCache.certifiedApartInLastCall()) pairsApart += apart ? 1 : 0;
            if (!why.empty() || !sameMeasures(cold, r, why)) {
              if (mismatches++ < 5) std::printf("  MISMATCH at state %zu: %s\n", i, why.c_str());
              allSame = false;
            }
            if (const GraspEvaluation* e = r.primary())
              for (const auto* slot : {&e->l1Support, &e->lInfinitySupport, &e->exactSupport})
                if (*slot) { ++warmSolves; warmStarted += (*slot)->warmStarted ? 1 : 0; }
          }
        }
    for (int k = 0; k < 4; ++k)
      for (std::size_t i = 0; i < states.size(); ++i) {
        auto& v = samples[static_cast<std::size_t>(k)][i];
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        (k % 2 == 0 ? wall : cpu)[static_cast<std::size_t>(k / 2)][i] = v[v.size() / 2];
      }
    const Spread coldWall = spreadOf(wall[0]), warmWall = spreadOf(wall[1]);
    const Spread coldCpu = spreadOf(cpu[0]), warmCpu = spreadOf(cpu[1]);
    std::printf("%s\n  cold: median %.3f ms, p90 %.3f ms (cpu median %.3f ms, p90 %.3f ms)\n", c.title,
                1e3 * coldWall.median, 1e3 * coldWall.p90, 1e3 * coldCpu.median, 1e3 * coldCpu.p90);
    std::printf("  warm: median %.3f ms, p90 %.3f ms (cpu median %.3f ms, p90 %.3f ms); %d of %d eps solves "
                "warm-started; %zu of %zu pair queries reused, %zu skipped as certainly apart; %d states differ "
                "from the cold solve (contacts bit for bit, measures)\n",
                1e3 * warmWall.median, 1e3 * warmWall.p90, 1e3 * warmCpu.median, 1e3 * warmCpu.p90, warmStarted,
                warmSolves, pairsReused, pairsQueried, pairsApart, mismatches);
    std::printf("  target <= %.1f ms (warm, median over jittered states): %s (%.3f ms wall, %.3f ms cpu)\n",
                c.target_ms, warmWall.median <= 1e-3 * c.target_ms ? "met" : "not met", 1e3 * warmWall.median,
                1e3 * warmCpu.median);
  }
  return allSame;
}

// The default world's ε L1, ε L∞ and exact-cone ε alone, each repeated for `seconds` (for a profiler:
// `bench_quality --eps-loop 3`), with the median per call and the support queries.
void defaultWorldEpsilonLoop(double seconds, const std::string& worldName) {
  World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + worldName);
  if (world.robots.empty() || world.graspables.empty()) return;
  autoGrasp(world, 0);
  std::printf("%s\n", worldName.c_str());
  const GraspEvaluation e = evaluateGrasp(world, findAllContacts(world), 0, defaultContactModel(), QualitySettings{});
  std::vector<std::vector<Vec6>> wrenches;
  std::vector<ExactContactCone> cones;
  for (const auto& c : e.contacts) {
    wrenches.push_back(c.wrenches);
    cones.push_back(exactConeFor(c.objectIsSide1 ? c.contact.side1 : c.contact.side2, c.mu, c.torsion_mm, e.reference));
  }
  SupportEpsilonSettings exactSettings;
  exactSettings.relativeGap = QualitySettings{}.exactConeRelativeGap;
  exactSettings.maxIterations = QualitySettings{}.exactConeMaxIterations;
  const std::vector<std::pair<const char*, std::function<SupportEpsilon()>>> runs = {
      {"eps L1", [&] { return l1EpsilonFromSupport(wrenches); }},
      {"eps Linf", [&] { return lInfinityEpsilonFromSupport(wrenches); }},
      {"eps exact", [&] { return exactConeEpsilon(cones, e.reference.torqueScale_mm, GwsType::L1, exactSettings); }}};
  for (const auto& [name, f] : runs) {
    SupportEpsilon r;
    const bench::Medians m = bench::medians([&] { r = f(); }, seconds, 1000000);
    const double t = m.wall_s;
    std::printf("%-9s median %.4f ms (cpu %.4f ms) | eps %.12f in [%.12f, %.12f] | %s | %d queries, %d vertices, %d facets "
                "(%d made)\n", name, 1e3 * t, 1e3 * m.cpu_s, r.epsilon, r.lowerBound, r.upperBound, r.message.c_str(),
                r.iterations, r.workingSetSize, r.facetCount, r.facetsCreated);
  }
}

// Each stage of the default world's full update exactly `n` times (no timing loop), so that instruction
// counts (callgrind, inclusive per function) are repeatable: findAllContacts, evaluateGrasp (soft fits,
// patches and wrenches), l1EpsilonFromSupport, lInfinityEpsilonFromSupport.
void defaultWorldStageCounts(int n) {
  World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/default.xml");
  autoGrasp(world, 0);
  AnalysisRequest request;
  const ContactModel& model = *findContactModel(request.contactModels.front());
  std::vector<Contact> contacts;
  GraspEvaluation fitted;
  SupportEpsilon l1, linf;
  std::vector<RawPairContacts> raw;  // as analyzeGrasp: the detection's raw points serve the touching points
  for (int i = 0; i < n; ++i) {
    raw.clear();
    contacts = findAllContacts(world, world.state, request.collision, &raw);
    orderContacts(contacts);
  }
  const int graspable = chooseGraspable(world, contacts);
  for (int i = 0; i < n; ++i)
    fitted = evaluateGrasp(world, world.state, contacts, graspable, model, request.quality, nullptr, &raw);
  const SupportEpsilonSettings settings = supportEpsilonSettingsFor(fitted.gws, fitted.forceClosureTolerance);
  const auto wrenches = fitted.perContactWrenches();
  for (int i = 0; i < n; ++i) l1 = l1EpsilonFromSupport(wrenches, settings);
  for (int i = 0; i < n; ++i) linf = lInfinityEpsilonFromSupport(wrenches, settings);
  std::printf("%d contacts, %zu evaluated | eps L1 %.12f [%.12f, %.12f] %d queries | eps Linf %.12f [%.12f, %.12f] "
              "%d queries, %d vertices, %d facets (%d made)\n",
              static_cast<int>(contacts.size()), fitted.contacts.size(), l1.epsilon, l1.lowerBound, l1.upperBound,
              l1.iterations, linf.epsilon, linf.lowerBound, linf.upperBound, linf.iterations, linf.workingSetSize,
              linf.facetCount, linf.facetsCreated);
}

// A fixed amount of work for callgrind (instructions per state, cold against warm): the same jittered states
// analysed once cold, then once warm, by two functions `--toggle-collect` can tell apart.
__attribute__((noinline)) void jitterSequenceCold(const World& world, const std::vector<WorldState>& states,
                                                  const std::vector<std::string>& measures) {
  NullProgress progress;
  for (const WorldState& s : states) {
    AnalysisRequest request;
    request.measures = measures;
    (void)analyzeGrasp(world, s, request, progress);
  }
}
__attribute__((noinline)) void jitterSequenceWarm(const World& world, const std::vector<WorldState>& states,
                                                  const std::vector<std::string>& measures) {
  NullProgress progress;
  EpsilonWarmStarts warm;
  ContactCache contactCache;
  for (const WorldState& s : states) {
    AnalysisRequest request;
    request.measures = measures;
    request.warmStart = &warm;
    request.contactCache = &contactCache;
    (void)analyzeGrasp(world, s, request, progress);
  }
}
void jitterCounts(int n, bool liveSet) {
  World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/default.xml");
  autoGrasp(world, 0);
  const std::vector<WorldState> states = sgtest::jitteredGraspStates(world, 0, n, 39);
  std::vector<std::string> measures = {"epsilon-l1", "epsilon-linf"};
  if (liveSet) measures = immediateMeasureNames();
  jitterSequenceCold(world, states, measures);
  jitterSequenceWarm(world, states, measures);
  std::printf("%d jittered states, cold then warm (%s)\n", n, liveSet ? "the live set" : "eps L1 + eps Linf");
}

// Where the exact cones' cold solve spends (QUALITY.md §Warm start, "Where the exact cones' cold solve spends"): the
// default world's grasp over `stateCount` jittered states, each state's exact cones solved cold once per relative
// gap (1e-2 … 1e-6, the setting's value last). A looser solve follows the same path and stops earlier, so its
// support queries and facets made are what the tighter solve had made at that gap. Per gap the median and p90 over
// the states of the queries, facets made and thread-CPU time, and the solves that stopped unconverged (with certified
// bounds). Asserted: each looser solve's certified bounds overlap the 1e-6 solve's, and ε L1 of the same contacts
// (their inscribed linearisation) is at most the exact upper bound.
// `wrongReference`: the 1e-6 solve gets the cones with μ × 1.05, another set, so the overlap checks must fail (the
// ctest that checks the cross-checks can fail).
int exactConeGaps(int stateCount, bool wrongReference) {
  World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/default.xml");
  autoGrasp(world, 0);
  const std::vector<WorldState> states = sgtest::jitteredGraspStates(world, 0, stateCount, 39);
  const std::vector<double> gaps = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
  std::printf("== exact cones' cold solve by relative gap, default world's grasp over %d jittered states (median, p90)\n",
              stateCount);
  std::vector<std::vector<double>> queries(gaps.size()), made(gaps.size()), cpu(gaps.size());
  std::vector<int> notConverged(gaps.size(), 0);
  bench::CrossCheck check;
  NullProgress progress;
  for (std::size_t i = 0; i < states.size(); ++i) {
    AnalysisRequest request;
    request.measures = {"epsilon-l1"};
    const AnalysisResult r = analyzeGrasp(world, states[i], request, progress);
    const GraspEvaluation* e = r.primary();
    if (!e || !e->l1Support) {
      check.expect(false, "state " + std::to_string(i) + ": no grasp evaluation");
      continue;
    }
    const std::vector<ExactContactCone> cones = e->exactCones();
    SupportEpsilonSettings settings = supportEpsilonSettingsFor(e->gws, e->forceClosureTolerance);
    settings.maxIterations = e->exactConeMaxIterations;
    std::vector<SupportEpsilon> solves;
    std::vector<ExactContactCone> wrongCones = cones;
    for (ExactContactCone& c : wrongCones) c.mu *= 1.05;
    for (std::size_t g = 0; g < gaps.size(); ++g) {
      settings.relativeGap = gaps[g];
      const bool wrong = wrongReference && g + 1 == gaps.size();
      const double c0 = bench::threadCpuSeconds();
      solves.push_back(exactConeEpsilon(wrong ? wrongCones : cones, e->reference.torqueScale_mm, GwsType::L1, settings));
      cpu[g].push_back(bench::threadCpuSeconds() - c0);
      queries[g].push_back(solves.back().iterations);
      made[g].push_back(solves.back().facetsCreated);
    }
    const SupportEpsilon& tight = solves.back();
    const std::string at = "state " + std::to_string(i) + ": ";
    for (std::size_t g = 0; g < gaps.size(); ++g) {
      // A solve that ends at a non-manifold horizon stops with certified bounds (QUALITY.md "Degenerate insertions").
      if (solves[g].status != SupportEpsilonStatus::Converged) ++notConverged[g];
      check.expect(solves[g].lowerBound <= tight.upperBound && tight.lowerBound <= solves[g].upperBound,
                   at + "the bounds at gap " + formatDouble(gaps[g]) + " do not overlap the 1e-6 solve's");
    }
    check.expect(e->l1Support->epsilon <= tight.upperBound + 1e-12, at + "eps L1 above the exact upper bound");
  }
  std::printf("%-8s %-24s %-26s %-28s %s\n", "gap", "support queries", "facets made", "cpu ms", "not converged");
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    const Spread q = spreadOf(queries[g]), m = spreadOf(made[g]), c = spreadOf(cpu[g]);
    std::printf("%-8s median %5.0f p90 %5.0f    median %6.0f p90 %6.0f    median %.3f p90 %.3f    %d\n",
                formatDouble(gaps[g]).c_str(), q.median, q.p90, m.median, m.p90, 1e3 * c.median, 1e3 * c.p90,
                notConverged[g]);
  }
  return check.finish();
}

// The exact cones warm over N jittered states of the default grasp (QUALITY.md §Warm start, the exact cones): each
// state solved cold, then warm from the previous state's polytope (one SupportWarmStart along the sequence, as an
// analysis would lend it). Prints how many warm solves finish warm, why the others fall back
// (SupportEpsilon::warm.fallback), the largest vertex move δ relative to ε, the facets made and the CPU per state.
// Cross-check (exit 3): the two solves' bounds overlap and, both converged, their ε agree to twice the gap.
// `wrongReference` compares with a cold solve of cones 5 % more slippery, which must fail it.
int exactConeWarm(int stateCount, bool wrongReference) {
  World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/default.xml");
  autoGrasp(world, 0);
  const std::vector<WorldState> states = sgtest::jitteredGraspStates(world, 0, stateCount, 39);
  std::printf("== exact cones warm along %d jittered states of the default world's grasp (median, p90)\n", stateCount);
  SupportWarmStart warm;
  bench::CrossCheck check;
  NullProgress progress;
  std::vector<double> coldCpu, warmCpu, coldMade, warmMadeFinished, warmMadeFellBack, moveRel, startShortfall;
  int finished = 0, attempts = 0;
  std::vector<std::pair<std::string, int>> reasons;
  for (std::size_t i = 0; i < states.size(); ++i) {
    AnalysisRequest request;
    request.measures = {"epsilon-l1"};
    const AnalysisResult r = analyzeGrasp(world, states[i], request, progress);
    const GraspEvaluation* e = r.primary();
    if (!e) {
      check.expect(false, "state " + std::to_string(i) + ": no grasp evaluation");
      continue;
    }
    const std::vector<ExactContactCone> cones = e->exactCones();
    std::vector<ExactContactCone> wrongCones = cones;
    for (ExactContactCone& c : wrongCones) c.mu *= 1.05;
    SupportEpsilonSettings settings = supportEpsilonSettingsFor(e->gws, e->forceClosureTolerance);
    settings.relativeGap = e->exactConeRelativeGap;
    settings.maxIterations = e->exactConeMaxIterations;
    const double rho = e->reference.torqueScale_mm;
    double c0 = bench::threadCpuSeconds();
    const SupportEpsilon cold = exactConeEpsilon(wrongReference ? wrongCones : cones, rho, GwsType::L1, settings);
    coldCpu.push_back(bench::threadCpuSeconds() - c0);
    coldMade.push_back(cold.facetsCreated);
    c0 = bench::threadCpuSeconds();
    const SupportEpsilon w = exactConeEpsilon(cones, rho, GwsType::L1, settings, &warm);
    warmCpu.push_back(bench::threadCpuSeconds() - c0);
    const std::string at = "state " + std::to_string(i) + ": ";
    // Both bound pairs hold ε, so they overlap; converged, each ε lies within the gap of ε, so the two agree to twice
    // the relative gap (tst_warm_epsilon's rule). An unconverged solve (a non-manifold horizon) has only its bounds.
    const double tol = 2 * settings.relativeGap * std::max(1.0, std::abs(cold.epsilon));
    const bool bothConverged =
        w.status == SupportEpsilonStatus::Converged && cold.status == SupportEpsilonStatus::Converged;
    check.expect(w.lowerBound <= cold.upperBound && cold.lowerBound <= w.upperBound &&
                     (!bothConverged || std::abs(w.epsilon - cold.epsilon) <= tol),
                 at + "warm eps " + formatDouble(w.epsilon) + " [" + formatDouble(w.lowerBound) + ", " +
                     formatDouble(w.upperBound) + "], cold " + formatDouble(cold.epsilon) + " [" +
                     formatDouble(cold.lowerBound) + ", " + formatDouble(cold.upperBound) + "]");
    if (i == 0) continue;  // the sequence's first solve has nothing to continue
    ++attempts;
    if (w.warmStarted) {
      ++finished;
      warmMadeFinished.push_back(w.facetsCreated);
    } else {
      warmMadeFellBack.push_back(w.facetsCreated);
      auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& x) { return x.first == w.warm.fallback; });
      if (it == reasons.end()) reasons.emplace_back(w.warm.fallback, 1);
      else ++it->second;
    }
    if (w.warm.move > 0 && cold.epsilon > 0) moveRel.push_back(w.warm.move / cold.epsilon);
    // How far below ε the moved polytope's first certified bound lies: what the attempt still had to close.
    if (std::isfinite(w.warm.startLower) && cold.epsilon > 0)
      startShortfall.push_back((cold.epsilon - w.warm.startLower) / cold.epsilon);
  }
  auto line = [](const char* what, const std::vector<double>& v, double scale, const char* unit) {
    if (v.empty()) { std::printf("%-44s -\n", what); return; }
    const Spread x = spreadOf(v);
    std::printf("%-44s median %.4g p90 %.4g %s (%zu)\n", what, scale * x.median, scale * x.p90, unit, v.size());
  };
  std::printf("warm solves that finished warm: %d of %d\n", finished, attempts);
  for (const auto& [why, count] : reasons) std::printf("  fell back %3d x: %s\n", count, why.c_str());
  line("largest vertex move / eps (delta relative)", moveRel, 1, "");
  line("(eps - moved polytope's first lower) / eps", startShortfall, 1, "");
  line("facets made, cold solve", coldMade, 1, "");
  line("facets made, warm solves that finished warm", warmMadeFinished, 1, "");
  line("facets made, cold solves after a fallback", warmMadeFellBack, 1, "");
  line("cpu, cold solve", coldCpu, 1e3, "ms");
  line("cpu, warm solve (attempt + any cold fallback)", warmCpu, 1e3, "ms");
  return check.finish();
}

}  // namespace

int usage(int status) {
  std::fprintf(status == 0 ? stdout : stderr,
               "usage: bench_quality [--quick]\n"
               "       bench_quality --full-update [--quick]\n"
               "       bench_quality --eps-loop SECONDS [WORLD.xml]\n"
               "       bench_quality --update-loop SECONDS [MEASURE...]\n"
               "       bench_quality --stage-counts N\n"
               "       bench_quality --jitter-counts N [live]\n"
               "       bench_quality --exact-gaps N [--wrong-reference]\n"
               "       bench_quality --exact-warm N [--wrong-reference]\n");
  return status;
}

int main(int argc, char** argv) {
  if (argc > 1) {
    const std::string first = argv[1];
    if (first == "--help" || first == "-h") return usage(0);
    const bool known = first == "--quick" || first == "--full-update" || first == "--eps-loop" ||
                       first == "--update-loop" || first == "--stage-counts" || first == "--jitter-counts" ||
                       first == "--exact-gaps" || first == "--exact-warm";
    const bool needsValue = first == "--eps-loop" || first == "--update-loop" || first == "--stage-counts" ||
                            first == "--jitter-counts" || first == "--exact-gaps" || first == "--exact-warm";
    if (!known || (needsValue && argc < 3)) return usage(2);
  }
  bool fullUpdateOnly = false;
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    fullUpdateOnly = fullUpdateOnly || std::strcmp(argv[i], "--full-update") == 0;
  }
  if (fullUpdateOnly) {
    if (!defaultWorldFullUpdate()) {
      std::fprintf(stderr, "bench_quality: the warm-started eps differs from the cold solve\n");
      return 1;
    }
    return 0;
  }
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--update-loop") == 0) {
      World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/default.xml");
      autoGrasp(world, 0);
      AnalysisRequest request;
      request.measures = {};
      for (int k = i + 2; k < argc; ++k) request.measures.push_back(argv[k]);
      NullProgress progress;
      const double t = bench::medianSeconds([&] { (void)analyzeGrasp(world, request, progress); }, std::atof(argv[i + 1]), 100000000);
      std::printf("full update median %.4f ms\n", 1e3 * t);
      return 0;
    }
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--jitter-counts") == 0) {
      jitterCounts(std::max(1, std::atoi(argv[i + 1])), i + 2 < argc && std::strcmp(argv[i + 2], "live") == 0);
      return 0;
    }
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--exact-gaps") == 0) {
      bool wrongReference = false;
      for (int k = i + 2; k < argc; ++k) wrongReference = wrongReference || std::strcmp(argv[k], "--wrong-reference") == 0;
      return exactConeGaps(std::max(1, std::atoi(argv[i + 1])), wrongReference);
    }
    if (std::strcmp(argv[i], "--exact-warm") == 0) {
      bool wrongReference = false;
      for (int k = i + 2; k < argc; ++k) wrongReference = wrongReference || std::strcmp(argv[k], "--wrong-reference") == 0;
      return exactConeWarm(std::max(1, std::atoi(argv[i + 1])), wrongReference);
    }
  }
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--stage-counts") == 0) {
      defaultWorldStageCounts(std::max(1, std::atoi(argv[i + 1])));
      return 0;
    }
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--eps-loop") == 0) {
      defaultWorldEpsilonLoop(std::atof(argv[i + 1]), i + 2 < argc ? argv[i + 2] : "default.xml");
      return 0;
    }
  // The default world (ThreeFinger over the mug) and the ThreeFinger-on-a-ball world, each after auto-grasp.
  for (const char* name : {"default.xml", "threefinger_sphere.xml"}) {
    try {
      World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
      if (world.robots.empty() || world.graspables.empty()) continue;
      const double graspSeconds = secondsOf([&] { autoGrasp(world, 0); });
      std::printf("\n%s: auto-grasp %.1f ms", name, 1e3 * graspSeconds);
      report((std::string("worlds/") + name + " after auto-grasp").c_str(), world, [&] { return findAllContacts(world); });
    } catch (const std::exception& e) {
      std::printf("(worlds/%s not usable: %s)\n", name, e.what());
    }
  }
  std::vector<Contact> contacts;
  const World sphere = sphereGraspWorld(contacts);
  report("synthetic: four soft fingertips (E = 1.5 MPa) on a 30 mm icosphere", sphere, [&] { return contacts; },
         /*handContactsOnly=*/false);
  compareOnRandomGrasps();
  if (!defaultWorldFullUpdate()) {
    std::fprintf(stderr, "bench_quality: the warm-started eps differs from the cold solve\n");
    return 1;
  }
  std::printf("\n== per measure on the same grasp (eps alone, from the wrenches / cones; median)\n");
  defaultWorldEpsilonLoop(quick ? 0.1 : 1.0, "default.xml");
  return 0;
}
