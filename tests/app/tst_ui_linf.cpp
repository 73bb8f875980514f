// The L∞ wrench space built in the background (GraspAnalysis + JobRunner), offscreen: the default world
// grasped, evaluated with point contacts of 8 friction edges (3 contacts: 9³ = 729 summed points, quick) and
// a raised point limit. The values arrive asynchronously and equal a synchronous evaluateGrasp; results of
// an older model are dropped; deleting the analysis or the window mid-build joins the runner's thread; the quality dock and
// the GWS projection window show the pending state and then the values.
#include <QAction>
#include <QCoreApplication>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

#include "../support/AppTestSetup.h"
#include "Commands.h"
#include "GraspedDefaultWorld.h"
#include "GwsProjectionWindow.h"
#include "JobRunner.h"
#include "QualityDock.h"
#include "render/CoinInit.h"

using namespace sg;
using namespace sg::app;

namespace {
constexpr int kWait_ms = 120000;  // generous: a loaded CI machine; a hang still fails at ctest's 300 s
const BodyHandle kMug{BodyHandle::Kind::Graspable, 0, {}};

QSettings appSettings() { return QSettings("SoftGrasp", "softgrasp"); }

// Point contacts with 8 friction edges and a point limit well above 9³.
AnalysisSettings quickLInfinity(AnalysisSettings s) {
  s.contactModel = "point";
  s.quality.edges.pointContactEdges = 8;
  s.quality.gws.maxLInfinityPoints = 100000;
  s.computeLInfinity = true;
  return s;
}

// What a synchronous evaluation gives for the analysis' current world, contacts and settings.
GraspEvaluation synchronousEvaluation(const GraspAnalysis& a, const Document& doc) {
  GraspEvaluation e = evaluateGrasp(doc.world(), a.contacts(), a.graspableIndex(),
                                    *findContactModel(a.settings().contactModel), a.settings().quality);
  NullProgress progress;
  computeMeasures(e, qualityMeasureNames(), progress);
  return e;
}

bool near(double a, double b, double tolerance = 1e-9) {
  return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b));
}

// Empty when the L∞ parts agree (to 1e-9), else the first difference.
QString lInfinityMismatch(const GraspEvaluation& got, const GraspEvaluation& want) {
  const GraspQuality& g = got.lInfinityQuality;
  const GraspQuality& w = want.lInfinityQuality;
  if (got.lInfinity.type != GwsType::LInfinity) return "type";
  if (got.lInfinity.limitExceeded != want.lInfinity.limitExceeded) return "limitExceeded";
  if (got.lInfinity.inputPointCount != want.lInfinity.inputPointCount)
    return QString("input points %1 vs %2").arg(got.lInfinity.inputPointCount).arg(want.lInfinity.inputPointCount);
  if (got.lInfinity.hyperplanes6.size() != want.lInfinity.hyperplanes6.size()) return "hyperplane count";
  if (g.hullStatus != w.hullStatus) return "hull status";
  if (g.forceClosure != w.forceClosure) return "force closure";
  if (g.facetCount != w.facetCount) return "facet count";
  if (!near(g.epsilon, w.epsilon)) return QString("epsilon %1 vs %2").arg(g.epsilon, 0, 'g', 17).arg(w.epsilon, 0, 'g', 17);
  if (!near(g.volume, w.volume)) return QString("volume %1 vs %2").arg(g.volume, 0, 'g', 17).arg(w.volume, 0, 'g', 17);
  if ((g.weakestDirection - w.weakestDirection).norm() > 1e-9) return "weakest direction";
  return {};
}

// Waits, without running the event loop (so no result can be delivered meanwhile), until the runner has
// started its n-th job. Unbounded: the suite's ctest timeout catches a hang.
void waitUntilStarted(const JobRunner& runner, int n) {
  while (runner.startedCount() < n) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Waits until nothing runs or waits in the runner, then delivers what it posted.
bool drain(const JobRunner& runner) {
  if (!QTest::qWaitFor([&] { return !runner.busy(); }, kWait_ms)) return false;
  QCoreApplication::sendPostedEvents();
  return true;
}
}  // namespace

class TstUiLInfinity : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void arrivesAsynchronouslyAndMatchesSynchronous();
  void overTheLimitArrivesAsNotBuilt();
  void dockShowsComputingThenTheValues();
  void projectionWindowFollowsTheLInfinitySpace();
  void modelChangeDropsTheStaleResult();
  void burstOfRequestsGivesOneResultForTheLatest();
  void turningLInfinityOffDropsThePendingBuild();
  void deletingTheAnalysisMidBuildIsSafe();
  void closingTheWindowMidBuildIsSafe();

 private:
  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
  GraspAnalysis* analysis() const { return window_->analysis(); }
  JobRunner* worker() const { return window_->analysis()->findChild<JobRunner*>("lInfinityJobs"); }
  QualityDock* dock() const { return window_->findChild<QualityDock*>(); }
};

void TstUiLInfinity::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  initCoin();
}

void TstUiLInfinity::init() {
  appSettings().clear();
  window_ = std::make_unique<MainWindow>();
  QVERIFY(test::openAndGraspDefaultWorld(*window_));
  QVERIFY2(analysis()->evaluation(), qPrintable(analysis()->error()));
  QVERIFY(worker());
  QVERIFY(!analysis()->settings().computeLInfinity);  // no view needs it yet
  QVERIFY(!analysis()->lInfinityPending());
}

void TstUiLInfinity::cleanup() {
  if (window_) window_->document()->undoStack()->setClean();
  window_.reset();
  // Destroying the window joined its runner's thread (a running build stopped at its next check).
  QCOMPARE(JobRunner::liveThreadCount(), 0);
}

void TstUiLInfinity::arrivesAsynchronouslyAndMatchesSynchronous() {
  GraspAnalysis* a = analysis();
  QSignalSpy updated(a, &GraspAnalysis::updated);
  QSignalSpy arrived(a, &GraspAnalysis::lInfinityUpdated);
  a->setSettings(quickLInfinity(a->settings()));
  // The synchronous part is there at once; the L∞ part is pending.
  QCOMPARE(updated.count(), 1);
  QVERIFY(a->lInfinityPending());
  QCOMPARE(arrived.count(), 0);
  QVERIFY(a->evaluation());
  QCOMPARE(a->evaluation()->contacts.size(), std::size_t(3));
  QVERIFY(!a->evaluation()->lInfinity.hull.ok());
  const GraspEvaluation want = synchronousEvaluation(*a, *window_->document());
  QCOMPARE(want.lInfinity.inputPointCount, std::size_t(729));  // 9³: no sum repeats another

  QVERIFY(arrived.wait(kWait_ms));
  QVERIFY(test::waitForL1Hull(*a));  // the L1 hull, built in the background too
  QCOMPARE(a->evaluation()->l1Quality.epsilon, want.l1Quality.epsilon);
  QCOMPARE(arrived.count(), 1);
  QCOMPARE(updated.count(), 1);  // the other views are not redrawn for it
  QVERIFY(!a->lInfinityPending());
  const QString mismatch = lInfinityMismatch(*a->evaluation(), want);
  QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
  QVERIFY(a->evaluation()->lInfinity.hull.ok());
  QVERIFY(a->evaluation()->lInfinityQuality.forceClosure);
  // The L∞ space holds the L1 space: ε L∞ ≥ ε L1.
  QVERIFY(a->evaluation()->lInfinityQuality.epsilon >= a->evaluation()->l1Quality.epsilon - 1e-12);
}

void TstUiLInfinity::overTheLimitArrivesAsNotBuilt() {
  // The default soft contacts (21³ sums) over the default limit: the worker gives up at once.
  GraspAnalysis* a = analysis();
  AnalysisSettings s = a->settings();
  s.computeLInfinity = true;
  a->setSettings(s);
  QVERIFY(a->lInfinityPending());
  QTRY_VERIFY_WITH_TIMEOUT(!a->lInfinityPending(), kWait_ms);
  QVERIFY(a->evaluation()->lInfinity.limitExceeded);
  QVERIFY(!a->evaluation()->lInfinityQuality.forceClosure);
}

void TstUiLInfinity::dockShowsComputingThenTheValues() {
  GraspAnalysis* a = analysis();
  QualityDock* d = dock();
  QVERIFY(d);
  a->setSettings(quickLInfinity(a->settings()));
  QVERIFY(a->lInfinityPending());
  d->addMeasure("epsilon-linf");  // from support functions: a value at once, no hull
  d->addMeasure("volume-linf");   // the dock's demand for the L∞ hull keeps computeLInfinity on
  QVERIFY(a->settings().computeLInfinity);
  QVERIFY(a->lInfinityPending());
  QCOMPARE(d->valueText("epsilon-linf"), QString::number(a->evaluation()->measure("epsilon-linf")->value, 'f', 4));
  QCOMPARE(d->valueText("volume-linf"), QString("computing…"));
  QVERIFY(!d->valueText("epsilon-l1").contains("computing"));  // L1 is there already
  QVERIFY(!d->notesLabel()->text().contains("L∞"));
  QVERIFY(d->table()->item(static_cast<int>(d->measures().indexOf("epsilon-linf")), 1)->toolTip().contains("upper bound"));

  QTRY_VERIFY_WITH_TIMEOUT(!a->lInfinityPending(), kWait_ms);
  const GraspEvaluation want = synchronousEvaluation(*a, *window_->document());
  // The support ε L∞ equals the Qhull hull's of the 729-point Minkowski sum (to the 4 decimals shown).
  QCOMPARE(d->valueText("epsilon-linf"), QString::number(want.lInfinityQuality.epsilon, 'f', 4));
  QVERIFY(std::abs(a->evaluation()->measure("epsilon-linf")->value - want.lInfinityQuality.epsilon) < 1e-9);
  QCOMPARE(d->valueText("volume-linf"), QString::number(want.lInfinityQuality.volume, 'g', 4));

  // A model change shows "computing…" again until the new space arrives.
  window_->document()->undoStack()->undo();  // the hand opens: no contacts, nothing to build in the background
  QTRY_VERIFY(!a->evaluation() || a->evaluation()->contacts.empty());
  QVERIFY(!a->lInfinityPending());
  QVERIFY(!d->valueText("volume-linf").contains("computing"));
  window_->document()->undoStack()->redo();
  QTRY_VERIFY(a->evaluation() && !a->evaluation()->contacts.empty());
  QVERIFY(a->lInfinityPending());
  QCOMPARE(d->valueText("volume-linf"), QString("computing…"));
  QVERIFY(!d->valueText("epsilon-linf").contains("computing"));
  QTRY_VERIFY_WITH_TIMEOUT(!a->lInfinityPending(), kWait_ms);
  QCOMPARE(d->valueText("epsilon-linf"), QString::number(want.lInfinityQuality.epsilon, 'f', 4));
  QCOMPARE(d->valueText("volume-linf"), QString::number(want.lInfinityQuality.volume, 'g', 4));
}

void TstUiLInfinity::projectionWindowFollowsTheLInfinitySpace() {
  GraspAnalysis* a = analysis();
  a->setSettings(quickLInfinity(a->settings()));
  QTRY_VERIFY_WITH_TIMEOUT(!a->lInfinityPending(), kWait_ms);
  QAction* action = window_->findChild<QAction*>("actionGwsProjection");
  QVERIFY(action);
  action->trigger();
  auto* w = window_->findChild<GwsProjectionWindow*>();
  QVERIFY(w);
  w->setFixed({3, 4, 5}, Vec3::Zero());  // the force slice at zero torque
  w->setType(GwsType::LInfinity);
  QVERIFY(w->projection().valid);
  const double eps = a->evaluation()->lInfinityQuality.epsilon;
  QVERIFY(eps > 0);
  QVERIFY2(w->originDepth() >= eps - 1e-6, qPrintable(w->summary()));

  // A new model: the window says the space is being computed, then slices the new one.
  AnalysisSettings s = a->settings();
  s.quality.torqueLength_mm = 60;
  a->setSettings(s);
  QVERIFY(a->lInfinityPending());
  QVERIFY(!w->projection().valid);
  QVERIFY2(w->summary().contains("being computed"), qPrintable(w->summary()));
  QTRY_VERIFY_WITH_TIMEOUT(w->projection().valid, kWait_ms);
  QVERIFY(!a->lInfinityPending());
  QVERIFY(w->originDepth() >= a->evaluation()->lInfinityQuality.epsilon - 1e-6);
}

void TstUiLInfinity::modelChangeDropsTheStaleResult() {
  GraspAnalysis* a = analysis();
  Document* doc = window_->document();
  JobRunner* wk = worker();
  const int started = wk->startedCount();
  a->setSettings(quickLInfinity(a->settings()));
  const GraspEvaluation glass = synchronousEvaluation(*a, *doc);
  waitUntilStarted(*wk, started + 1);  // the glass mug's space is being built (or done, not delivered)
  QSignalSpy arrived(a, &GraspAnalysis::lInfinityUpdated);
  QSignalSpy finished(wk, &JobRunner::finished);
  QSignalSpy cancelled(wk, &JobRunner::cancelled);
  QSignalSpy failed(wk, &JobRunner::failed);

  // A rubber mug: other friction coefficients, other wrenches.
  BodyProperties rubber = propertiesOf(doc->world().graspables[0]);
  QVERIFY(rubber.material != "rubber");
  rubber.material = "rubber";
  doc->push(new SetBodyPropertiesCommand(doc, kMug, rubber));
  a->recompute();
  QVERIFY(a->lInfinityPending());
  const GraspEvaluation want = synchronousEvaluation(*a, *doc);
  QVERIFY2(!lInfinityMismatch(want, glass).isEmpty(), "the change must change the L∞ space");

  QTRY_VERIFY_WITH_TIMEOUT(!a->lInfinityPending(), kWait_ms);
  QVERIFY(drain(*wk));  // the glass result, if still on its way, is delivered now — and dropped
  QCOMPARE(arrived.count(), 1);
  QCOMPARE(wk->startedCount(), started + 2);
  // The change cancelled the glass build: it stopped at a check (cancelled) or had finished (dropped).
  QCOMPARE(finished.count() + cancelled.count(), 2);
  QCOMPARE(failed.count(), 0);
  const QString mismatch = lInfinityMismatch(*a->evaluation(), want);
  QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
}

void TstUiLInfinity::burstOfRequestsGivesOneResultForTheLatest() {
  GraspAnalysis* a = analysis();
  JobRunner* wk = worker();
  const int started = wk->startedCount();
  QSignalSpy arrived(a, &GraspAnalysis::lInfinityUpdated);
  AnalysisSettings s = quickLInfinity(a->settings());
  for (double rho : {30.0, 45.0, 60.0, 75.0}) {  // four models in a row, no event loop in between
    s.quality.torqueLength_mm = rho;
    a->setSettings(s);
    QVERIFY(a->lInfinityPending());
  }
  const GraspEvaluation want = synchronousEvaluation(*a, *window_->document());
  QTRY_VERIFY_WITH_TIMEOUT(!a->lInfinityPending(), kWait_ms);
  QVERIFY(drain(*wk));
  QCOMPARE(arrived.count(), 1);
  // One build at a time, a newer request replacing the waiting one: typically the first and the last ran
  // (how many depends on thread scheduling, so only logged).
  QVERIFY(wk->startedCount() >= started + 1);
  qInfo("builds run for 4 requests: %d", wk->startedCount() - started);
  const QString mismatch = lInfinityMismatch(*a->evaluation(), want);
  QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
  QCOMPARE(a->evaluation()->reference.torqueScale_mm, 75.0);
}

void TstUiLInfinity::turningLInfinityOffDropsThePendingBuild() {
  GraspAnalysis* a = analysis();
  QSignalSpy arrived(a, &GraspAnalysis::lInfinityUpdated);
  AnalysisSettings s = quickLInfinity(a->settings());
  a->setSettings(s);
  QVERIFY(a->lInfinityPending());
  s.computeLInfinity = false;
  a->setSettings(s);
  QVERIFY(!a->lInfinityPending());
  QVERIFY(drain(*worker()));
  QCOMPARE(arrived.count(), 0);
  QVERIFY(!a->evaluation()->lInfinity.hull.ok());  // not built: not asked for
}

void TstUiLInfinity::deletingTheAnalysisMidBuildIsSafe() {
  Document* doc = window_->document();
  const int threadsBefore = JobRunner::liveThreadCount();
  auto* extra = new GraspAnalysis(doc);  // a second analysis of the same world
  extra->setSettings(quickLInfinity(extra->settings()));
  QTRY_VERIFY_WITH_TIMEOUT(!extra->lInfinityPending(), kWait_ms);
  auto* wk = extra->findChild<JobRunner*>("lInfinityJobs");
  QVERIFY(wk);
  const int started = wk->startedCount();

  // Deleted while its build runs (or its result is posted, not delivered).
  extra->recompute();
  QVERIFY(extra->lInfinityPending());
  waitUntilStarted(*wk, started + 1);
  QSignalSpy destroyed(extra, &QObject::destroyed);
  delete extra;
  QCOMPARE(destroyed.count(), 1);
  QCOMPARE(JobRunner::liveThreadCount(), threadsBefore);  // its thread is joined, not left running

  // Again with a build running and the next one waiting.
  extra = new GraspAnalysis(doc);
  extra->setSettings(quickLInfinity(extra->settings()));
  wk = extra->findChild<JobRunner*>("lInfinityJobs");
  waitUntilStarted(*wk, 1);
  extra->recompute();  // cancels the running one and waits behind it (unless that one finished already)
  delete extra;
  QCOMPARE(JobRunner::liveThreadCount(), threadsBefore);

  // Results posted before the deletion went with the runner.
  QCoreApplication::sendPostedEvents();
  // The window's own analysis is untouched.
  QVERIFY(analysis()->evaluation());
  QVERIFY(!analysis()->lInfinityPending());
}

void TstUiLInfinity::closingTheWindowMidBuildIsSafe() {
  GraspAnalysis* a = analysis();
  JobRunner* wk = worker();
  const int started = wk->startedCount();
  a->setSettings(quickLInfinity(a->settings()));
  dock()->addMeasure("epsilon-linf");  // L∞ already on: no new request
  QVERIFY(a->lInfinityPending());
  waitUntilStarted(*wk, started + 1);
  window_->document()->undoStack()->setClean();
  QVERIFY(window_->close());
  window_.reset();
  QCOMPARE(JobRunner::liveThreadCount(), 0);  // joined
  QCoreApplication::sendPostedEvents();
  // A new window works as before.
  window_ = std::make_unique<MainWindow>();
  QVERIFY(test::openAndGraspDefaultWorld(*window_));
  QVERIFY(analysis()->evaluation());
}

QTEST_MAIN(TstUiLInfinity)
#include "tst_ui_linf.moc"
