// Measures computed later (grasp/DeferredMeasures.h) without a GUI: the deferred path gives what building the
// hulls at once gives, placeholders until then, failures and cancel requests; and the GWS projection's origin
// depth (grasp/GwsProjection.h: originDepth) on hulls whose depth is known.
#include <QtTest>

#include <cmath>
#include <limits>

#include "grasp/Analysis.h"
#include "grasp/DeferredMeasures.h"
#include "grasp/GwsProjection.h"
#include "grasp/HandMotionPresets.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

// The default world after G (approach 30 mm, auto-grasp), evaluated with `measures` only, with point contacts:
// their L∞ Minkowski sum (9³ points) stays under GwsSettings::maxLInfinityPoints, the soft fingers' does not.
GraspEvaluation graspedDefaultWorld(const std::vector<std::string>& measures) {
  World world = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
  AnalysisRequest request;
  request.contactModels = {"point"};
  request.motion = presetMotion(HandMotionPreset::ApproachAndGrasp);
  request.measures = measures;
  NullProgress none;
  AnalysisResult result = runAnalysis(world, request, none);
  if (result.evaluations.empty()) throw Error("the default world has no evaluation");
  return std::move(result.evaluations.front());
}

// Records every report, to check that the fraction only moves forward.
class RecordingProgress final : public ProgressSink {
 public:
  void report(double fraction, std::string_view) override { fractions.push_back(fraction); }
  bool cancelRequested() const override { return false; }
  std::vector<double> fractions;
};

// The cube [lo, hi]³ as 12 triangles, wound `outward` or the other way.
GwsProjection cube(double lo, double hi, bool outward) {
  GwsProjection p;
  p.valid = true;
  for (int i = 0; i < 8; ++i) p.vertices.emplace_back(i & 1 ? hi : lo, i & 2 ? hi : lo, i & 4 ? hi : lo);
  const std::array<std::array<int, 4>, 6> faces{{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                                 {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}};
  for (const auto& f : faces) {
    p.triangles.push_back({f[0], f[1], f[2]});
    p.triangles.push_back({f[0], f[2], f[3]});
  }
  if (!outward)
    for (auto& t : p.triangles) std::swap(t[1], t[2]);
  return p;
}

}  // namespace

class TstDeferredMeasures : public QObject {
  Q_OBJECT
 private slots:
  void measuresSplitIntoImmediateAndDeferred() {
    QCOMPARE(deferredMeasureNames(GwsType::L1), std::vector<std::string>{"volume-l1"});
    QCOMPARE(deferredMeasureNames(GwsType::LInfinity), std::vector<std::string>{"volume-linf"});
    const std::vector<std::string> now = immediateMeasureNames();
    QCOMPARE(now.size() + 2, qualityMeasureNames().size());
    for (const char* name : {"volume-l1", "volume-linf"})
      QVERIFY(std::find(now.begin(), now.end(), name) == now.end());
  }

  void deferredEqualsAtOnce() {
    // Reference: every measure computed within the analysis (ensureWrenchSpace builds the hulls there).
    const GraspEvaluation atOnce = graspedDefaultWorld(qualityMeasureNames());
    GraspEvaluation later = graspedDefaultWorld(immediateMeasureNames());
    QVERIFY(!later.contacts.empty());
    QVERIFY(!later.l1Built && !later.lInfinityBuilt);
    QVERIFY(!later.measure("volume-l1"));
    RecordingProgress progress;
    computeDeferredMeasures(later, {GwsType::L1, GwsType::LInfinity}, progress);
    QVERIFY(later.l1Built && later.lInfinityBuilt);
    for (const char* name : {"volume-l1", "volume-linf"}) {
      const MeasureValue* a = atOnce.measure(name);
      const MeasureValue* b = later.measure(name);
      QVERIFY(a && b);
      QVERIFY2(a->ok && b->ok, name);
      QVERIFY(a->value > 0);
      QCOMPARE(b->value, a->value);  // the same wrenches, settings and Qhull call
    }
    QCOMPARE(later.l1Quality.epsilon, atOnce.l1Quality.epsilon);
    QCOMPARE(later.lInfinityQuality.volume, atOnce.lInfinityQuality.volume);
    // Progress moves forward only and ends at 1.
    QVERIFY(!progress.fractions.empty());
    for (std::size_t i = 1; i < progress.fractions.size(); ++i)
      QVERIFY(progress.fractions[i] >= progress.fractions[i - 1]);
    QCOMPARE(progress.fractions.back(), 1.0);
  }

  void jobInputsAreTheEvaluations() {
    const GraspEvaluation e = graspedDefaultWorld(immediateMeasureNames());
    const DeferredHull job = deferredHull(e, GwsType::L1);
    QVERIFY(job.type == GwsType::L1);
    QCOMPARE(job.perContactWrenches.size(), e.contacts.size());
    QVERIFY(job.gws.l1ForceOffset == e.gws.l1ForceOffset);  // the gravity term goes with it
    QCOMPARE(job.forceClosureTolerance, e.forceClosureTolerance);
  }

  void pendingPlaceholdersThenMerge() {
    GraspEvaluation e = graspedDefaultWorld(immediateMeasureNames());
    const DeferredHull job = deferredHull(e, GwsType::LInfinity);
    markHullPending(e, GwsType::LInfinity);
    QVERIFY(!e.lInfinityBuilt);
    QVERIFY(e.lInfinity.type == GwsType::LInfinity);
    QVERIFY(QString::fromStdString(e.lInfinityQuality.message).contains("being built"));
    NullProgress none;
    mergeDeferredHull(e, computeDeferredHull(job, none));
    QVERIFY(e.lInfinityBuilt);
    QVERIFY(e.lInfinityQuality.hullStatus == HullStatus::Ok);
    QVERIFY(e.measure("volume-linf") && e.measure("volume-linf")->ok);
    QVERIFY(!e.measure("volume-l1"));  // only the measures of the merged space
  }

  void failedBuildMarksSpaceAndMeasures() {
    GraspEvaluation e = graspedDefaultWorld(immediateMeasureNames());
    DeferredHullResult failed;
    failed.type = GwsType::L1;
    failed.error = "qhull said no";
    mergeDeferredHull(e, failed);
    QVERIFY(e.l1Built);  // not built again by the measure
    QVERIFY(e.l1.hull.status == HullStatus::Failed);
    QVERIFY(e.l1Quality.hullStatus == HullStatus::Failed);
    QCOMPARE(e.l1Quality.message, std::string("qhull said no"));
    const MeasureValue* v = e.measure("volume-l1");
    QVERIFY(v && !v->ok);
  }

  void cancelRequestThrows() {
    const GraspEvaluation e = graspedDefaultWorld(immediateMeasureNames());
    CancellableProgress progress;
    progress.cancel();
    QVERIFY_THROWS_EXCEPTION(Cancelled, computeDeferredHull(deferredHull(e, GwsType::L1), progress));
  }

  void graspWithoutContactsIsInstant() {
    DeferredHull job;
    job.type = GwsType::L1;
    NullProgress none;
    const DeferredHullResult r = computeDeferredHull(job, none);  // the hull of {0}: no error, no volume
    QVERIFY(r.error.empty());
    QCOMPARE(r.quality.volume, 0.0);
    QVERIFY(r.quality.hullStatus != HullStatus::Ok);
  }

  // --- origin depth of a GWS projection ---
  void originDepthOfACube() {
    // [−1, 2]³: the nearest faces are at distance 1; the winding of the triangles does not matter.
    QVERIFY(std::abs(originDepth(cube(-1, 2, true)) - 1.0) < 1e-12);
    QVERIFY(std::abs(originDepth(cube(-1, 2, false)) - 1.0) < 1e-12);
    // [1, 2]³: the origin is outside; the faces x = 1, y = 1, z = 1 face away from it by 1.
    QVERIFY(std::abs(originDepth(cube(1, 2, true)) + 1.0) < 1e-12);
    // On the boundary: 0.
    QVERIFY(std::abs(originDepth(cube(0, 2, true))) < 1e-12);
  }

  void originDepthOfAProjectedOctahedron() {
    // The L1 space of ±e_i (the 6-D cross-polytope) sliced at zero torque: |fx| + |fy| + |fz| ≤ 1, whose faces
    // lie 1/√3 from the origin.
    std::vector<Vec6> ws;
    for (int i = 0; i < 6; ++i) {
      ws.push_back(Vec6::Unit(i));
      ws.push_back(-Vec6::Unit(i));
    }
    const GraspWrenchSpace g = buildL1Gws({ws});
    const GwsProjection p = projectGws(g.hyperplanes6);
    QVERIFY2(p.valid, p.message.c_str());
    QVERIFY(std::abs(originDepth(p) - 1.0 / std::sqrt(3.0)) < 1e-9);
  }

  void originDepthWithoutAProjection() {
    constexpr double kNone = -std::numeric_limits<double>::infinity();
    QCOMPARE(originDepth(GwsProjection{}), kNone);  // invalid
    GwsProjection empty = cube(-1, 1, true);
    empty.triangles.clear();
    QCOMPARE(originDepth(empty), kNone);
    GwsProjection flat = cube(-1, 1, true);
    for (Vec3& v : flat.vertices) v.z() = 0;  // every triangle degenerate or in one plane through the origin
    QVERIFY(originDepth(flat) <= 0);
  }
};

QTEST_APPLESS_MAIN(TstDeferredMeasures)
#include "tst_deferred_measures.moc"
