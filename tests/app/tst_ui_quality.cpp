// The application's quality tools on the offscreen platform: the quality dock after an auto-grasp of the
// default world, its measures and their persistence, the analysis settings dialog, the GWS projection
// window, the soft-contact inspector and the overlay's scene graph.
#include <QAction>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QMap>
#include <QPushButton>
#include <QSignalSpy>
#include <QComboBox>
#include <QImage>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>

#include "../support/AppTestSetup.h"
#include "AnalysisSettingsDialog.h"
#include "GraspedDefaultWorld.h"
#include "contact/models/SoftFingerContactModel.h"
#include "grasp/QualityMeasure.h"
#include "GwsProjectionWindow.h"
#include "QualityDock.h"
#include "QualityOverlay.h"
#include "MainWindow.h"
#include "OverlayLegendWidget.h"
#include "render/OverlayLegend.h"
#include "PropertiesDock.h"
#include "SceneTreeDock.h"
#include "DofDock.h"
#include "SoftContactInspector.h"
#include "render/CoinInit.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::app;

namespace {
QSettings appSettings() { return QSettings("SoftGrasp", "softgrasp"); }

// Parses a displayed number; NaN when it is not one.
double shown(const QString& text) {
  bool ok = false;
  const double v = text.toDouble(&ok);
  return ok ? v : std::nan("");
}

bool closeRelative(double shownValue, double exact, double relative = 1e-5) {
  return std::abs(shownValue - exact) <= relative * std::max(1.0, std::abs(exact));
}

const ContactEvaluation& evaluationOf(const GraspAnalysis& a, int contact) {
  return a.evaluation()->contacts[static_cast<std::size_t>(*a.evaluationOfContact(contact))];
}

// The soft-finger model's data of contact `contact` (the fits, the patch).
const SoftContactResult& softOf(const GraspAnalysis& a, int contact) {
  return *softContactResult(a.evaluation()->modelResult.get(), static_cast<std::size_t>(*a.evaluationOfContact(contact)));
}
}  // namespace

class TstUiQuality : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase();
  void init();
  void cleanup();

  void dockShowsForceClosureAndEpsilonAfterAutoGrasp();
  void dockFollowsTheHandLive();
  void volumeL1ArrivesInTheBackground();
  void measuresAddRemoveAndPersist();
  void lInfinityMeasureBuildsOnlyOnDemandWithANote();
  void settingsDialogAppliesAndPersists();
  void settingsRangesForbidBadValues();
  void gwsProjectionWindowSlicesTheSpace();
  void inspectorShowsTheSelectedSoftContact();
  void inspectorNotesPointContacts();
  void inspectorNamesTheCurvatureSource();
  void overlayDrawsPatchesEllipsesAndWrench();
  void dockShowsTheActiveSettings();
  void lInfinityNoteIsUtf8();
  void layoutRecoversFromATinyWindow();
  void qualityValuesVisibleAt800x600();
  void escapeClosesTheProjectionWindow();
  void legendScalesToTheView();
  void mergedContactsNameTheirBodies();

 private:
  QTemporaryDir settingsDir_;
  std::unique_ptr<MainWindow> window_;
  QualityDock* dock() const { return window_->findChild<QualityDock*>(); }
  SoftContactInspector* inspector() const { return window_->findChild<SoftContactInspector*>(); }
};

void TstUiQuality::initTestCase() {
  QVERIFY(settingsDir_.isValid());
  test::useTemporarySettings(settingsDir_);
  initCoin();
}

void TstUiQuality::init() {
  appSettings().clear();
  window_ = std::make_unique<MainWindow>();
  QVERIFY(!window_->viewportPanel());  // offscreen
  QVERIFY(test::openAndGraspDefaultWorld(*window_));
  QVERIFY2(window_->analysis()->evaluation(), qPrintable(window_->analysis()->error()));
}

void TstUiQuality::cleanup() {
  if (window_) window_->document()->undoStack()->setClean();
  window_.reset();
}

void TstUiQuality::dockShowsForceClosureAndEpsilonAfterAutoGrasp() {
  GraspAnalysis* analysis = window_->analysis();
  const GraspEvaluation& e = *analysis->evaluation();
  QVERIFY(test::softContactCount(*analysis) >= 3);  // a soft fingertip on every finger
  QVERIFY(e.l1Quality.forceClosure);
  QVERIFY(e.l1Quality.epsilon > 0);

  QualityDock* d = dock();
  QVERIFY(d);
  QCOMPARE(d->measures(), QStringList({"epsilon-l1", "volume-l1", "epsilon-linf", "epsilon-exact"}));
  QVERIFY(d->forceClosureLabel()->property("forceClosure").toBool());
  QVERIFY(d->forceClosureLabel()->text().contains("Force closure"));
  QVERIFY(!d->forceClosureLabel()->text().contains("No force closure"));
  const double eps = shown(d->valueText("epsilon-l1"));
  QVERIFY(eps > 0);
  QVERIFY2(std::abs(eps - e.l1Quality.epsilon) <= 0.5e-4, qPrintable(d->valueText("epsilon-l1")));
  QVERIFY(closeRelative(shown(d->valueText("volume-l1")), e.l1Quality.volume, 1e-3));
  QVERIFY(d->graspableLabel()->text().contains("mug"));
  // Every ε is a value at once (support functions, no hull): ε L∞ ≥ ε L1, the exact cones' bounds above ε L1;
  // the tooltips give the certified bounds.
  const MeasureValue* linf = e.measure("epsilon-linf");
  const MeasureValue* exact = e.measure("epsilon-exact");
  QVERIFY(linf && linf->ok && exact && exact->ok);
  QCOMPARE(d->valueText("epsilon-linf"), QString::number(linf->value, 'f', 4));
  // The exact cones may stop short of their gap (the default grasp does): then the dock shows the certified
  // lower bound as "≥ value".
  QCOMPARE(d->valueText("epsilon-exact"), (exact->bounds->converged ? QString() : QString("≥ ")) +
                                               QString::number(exact->value, 'f', 4));
  QVERIFY(exact->bounds->lower <= exact->value && exact->value <= exact->bounds->upper);
  QVERIFY(linf->value >= e.measure("epsilon-l1")->value - 1e-12);
  QVERIFY(exact->bounds->upper >= e.measure("epsilon-l1")->value - 1e-12);
  for (const char* name : {"epsilon-l1", "epsilon-linf", "epsilon-exact"}) {
    const QString tip = d->table()->item(static_cast<int>(d->measures().indexOf(name)), 1)->toolTip();
    QVERIFY2(tip.contains("lower bound") && tip.contains("upper bound") && tip.contains("gap") &&
                 tip.contains("support queries"),
             qPrintable(tip));
  }
  // The L∞ hull (volume only) costs seconds here: not built while no view needs it.
  QVERIFY(!analysis->settings().computeLInfinity);
  QVERIFY(!e.lInfinityBuilt);
}

void TstUiQuality::dockFollowsTheHandLive() {
  GraspAnalysis* analysis = window_->analysis();
  QualityDock* d = dock();
  QVERIFY(d->forceClosureLabel()->property("forceClosure").toBool());
  const int updates = analysis->updateCount();
  window_->document()->undoStack()->undo();  // the hand opens again: no grasp
  QTRY_VERIFY(analysis->updateCount() > updates);
  QVERIFY(!d->forceClosureLabel()->property("forceClosure").toBool());
  QVERIFY(d->forceClosureLabel()->text().contains("No force closure"));
  QVERIFY(shown(d->valueText("epsilon-l1")) <= 0);
  window_->document()->undoStack()->redo();
  QTRY_VERIFY(d->forceClosureLabel()->property("forceClosure").toBool());
  QVERIFY(test::waitForL1Hull(*analysis));
  QVERIFY(std::abs(shown(d->valueText("epsilon-l1")) - analysis->evaluation()->l1Quality.epsilon) <= 0.5e-4);
}

// The L1 hull (volume-l1, the L1 projection) is never built on the GUI thread: an update shows the ε's at once and
// the last volume greyed; a burst of updates (a drag) is coalesced into one build, whose value is the engine's.
void TstUiQuality::volumeL1ArrivesInTheBackground() {
  GraspAnalysis* analysis = window_->analysis();
  QualityDock* d = dock();
  const QString before = d->valueText("volume-l1");
  QVERIFY2(shown(before) > 0, qPrintable(before));
  QVERIFY(!d->valuePending("volume-l1"));
  QSignalSpy arrived(analysis, &GraspAnalysis::l1HullUpdated);
  for (int i = 0; i < 5; ++i) analysis->recompute();  // no events in between: the runner keeps only the latest
  QVERIFY(analysis->l1HullPending());
  QVERIFY(!analysis->evaluation()->l1Built);
  QVERIFY(!analysis->evaluation()->measure("volume-l1"));
  QVERIFY(analysis->evaluation()->measure("epsilon-l1") && analysis->evaluation()->measure("epsilon-l1")->ok);
  QCOMPARE(d->valueText("volume-l1"), before);  // the last value, greyed
  QVERIFY(d->valuePending("volume-l1"));
  QVERIFY(d->table()->item(static_cast<int>(d->measures().indexOf("volume-l1")), 1)->toolTip().contains("background"));

  QVERIFY(arrived.wait(30000));
  QVERIFY(!analysis->l1HullPending());
  QVERIFY(analysis->evaluation()->l1Built);
  QVERIFY(!d->valuePending("volume-l1"));
  // The engine's one analysis call on the same world, asked for the volume, gives the same number.
  NullProgress progress;
  AnalysisRequest request = liveAnalysisRequest(analysis->settings(), analysis->graspableIndex());
  request.measures = {"epsilon-l1", "volume-l1"};
  const AnalysisResult engine = analyzeGrasp(window_->document()->world(), request, progress);
  QVERIFY(engine.primary());
  const MeasureValue* want = engine.primary()->measure("volume-l1");
  const MeasureValue* got = analysis->evaluation()->measure("volume-l1");
  QVERIFY(want && got && want->ok && got->ok);
  QCOMPARE(got->value, want->value);
  QCOMPARE(analysis->evaluation()->l1Quality.epsilon, engine.primary()->l1Quality.epsilon);
  QCOMPARE(d->valueText("volume-l1"), QString::number(want->value, 'g', 4));
  QTest::qWait(100);
  QCOMPARE(arrived.count(), 1);  // the older builds' results were dropped
}

void TstUiQuality::measuresAddRemoveAndPersist() {
  QualityDock* d = dock();
  d->removeMeasure("epsilon-linf");
  d->removeMeasure("epsilon-exact");
  QCOMPARE(d->measures(), QStringList({"epsilon-l1", "volume-l1"}));
  // Remove "Volume L1" with the Remove button.
  d->table()->setCurrentCell(1, 0);
  d->removeButton()->click();
  QCOMPARE(d->measures(), QStringList({"epsilon-l1"}));
  QCOMPARE(d->table()->rowCount(), 1);
  QVERIFY(d->valueText("volume-l1").isEmpty());
  // Add it back from the Add menu: the menu offers exactly the measures not shown.
  QMenu* menu = d->addButton()->menu();
  const int registered = static_cast<int>(qualityMeasures().size());
  QCOMPARE(menu->actions().size(), registered - 1);
  QAction* addVolume = menu->findChild<QAction*>("add_volume-l1");
  QVERIFY(addVolume);
  addVolume->trigger();
  QCOMPARE(d->measures(), QStringList({"epsilon-l1", "volume-l1"}));
  QCOMPARE(menu->actions().size(), registered - 2);
  QVERIFY(!d->valueText("volume-l1").isEmpty());
  // Any registered measure shows up by itself: σmin of the grasp matrix, as the engine computed it.
  QVERIFY(menu->findChild<QAction*>("add_min-singular-value"));
  d->addMeasure("min-singular-value");
  const MeasureValue* sigma = window_->analysis()->evaluation()->measure("min-singular-value");
  QVERIFY(sigma && sigma->ok && sigma->value > 0);
  QCOMPARE(d->valueText("min-singular-value"), QString::number(sigma->value, 'f', 4));
  d->removeMeasure("min-singular-value");
  d->removeMeasure("epsilon-l1");

  // A new window shows the same measures.
  window_->document()->undoStack()->setClean();
  window_ = std::make_unique<MainWindow>();
  QCOMPARE(dock()->measures(), QStringList({"volume-l1"}));
  dock()->removeMeasure("volume-l1");
  window_ = std::make_unique<MainWindow>();
  QVERIFY(dock()->measures().isEmpty());
  QVERIFY(!dock()->removeButton()->isEnabled());
}

void TstUiQuality::lInfinityMeasureBuildsOnlyOnDemandWithANote() {
  GraspAnalysis* analysis = window_->analysis();
  QualityDock* d = dock();
  QVERIFY(!analysis->settings().computeLInfinity);
  QVERIFY(d->measures().contains("epsilon-linf"));  // ε L∞ needs no hull
  d->addMeasure("volume-linf");
  QVERIFY(analysis->settings().computeLInfinity);
  // The hull built in the background (here it stops at once): three soft contacts of 20 edges, 21³ summed
  // points, over the engine's limit of 2000.
  QTRY_VERIFY(!analysis->lInfinityPending());
  QVERIFY(analysis->evaluation()->lInfinity.limitExceeded);
  QCOMPARE(d->valueText("volume-linf"), QString("over the hull limit"));
  QVERIFY(d->notesLabel()->text().contains("Volume L∞ not computed"));
  QVERIFY(d->notesLabel()->text().contains("2000"));
  QVERIFY(!d->notesLabel()->isHidden());
  // ε L∞ and the L1 values are unaffected.
  QCOMPARE(d->valueText("epsilon-linf"),
           QString::number(analysis->evaluation()->measure("epsilon-linf")->value, 'f', 4));
  QVERIFY(analysis->evaluation()->measure("epsilon-linf")->value > 0);
  QVERIFY(test::waitForL1Hull(*analysis));  // the settings changed: the L1 hull was built again in the background
  QVERIFY(std::abs(shown(d->valueText("epsilon-l1")) - analysis->evaluation()->l1Quality.epsilon) <= 0.5e-4);
  d->removeMeasure("volume-linf");
  QVERIFY(!analysis->settings().computeLInfinity);
  QVERIFY(!d->notesLabel()->text().contains("not computed"));
}

void TstUiQuality::settingsDialogAppliesAndPersists() {
  GraspAnalysis* analysis = window_->analysis();
  const int contact = test::firstSoftContact(*analysis);
  QVERIFY(contact >= 0);
  const SoftPatch layer = softOf(*analysis, contact).patch;
  QCOMPARE(layer.model, PatchModel::ElasticLayer);

  // The menu entry opens the dialog showing the current settings.
  QAction* action = window_->findChild<QAction*>("actionAnalysisSettings");
  QVERIFY(action);
  QVERIFY(window_->qualityMenu()->actions().contains(action));
  action->trigger();
  auto* opened = window_->findChild<AnalysisSettingsDialog*>();
  QVERIFY(opened);
  QCOMPARE(opened->normalForceSpin()->value(), 5.0);
  QCOMPARE(opened->contactModelCombo()->currentData().toString(), QString("soft-finger"));
  opened->reject();

  // Unparented: the window is replaced below, and it must not delete a dialog living on the stack.
  AnalysisSettingsDialog dialog(analysis);
  dialog.contactModelCombo()->setCurrentIndex(dialog.contactModelCombo()->findData(QString("hertz")));
  dialog.apply();
  QCOMPARE(analysis->settings().contactModel, std::string("hertz"));
  const SoftPatch hertz = softOf(*analysis, contact).patch;
  QCOMPARE(hertz.model, PatchModel::Hertz);
  QVERIFY(std::abs(hertz.semiAxisLong_mm - layer.semiAxisLong_mm) > 1e-6 ||
          std::abs(hertz.semiAxisShort_mm - layer.semiAxisShort_mm) > 1e-6);

  // A larger nominal force makes a larger patch.
  dialog.normalForceSpin()->setValue(20.0);
  dialog.pointEdgesSpin()->setValue(12);
  dialog.softEquatorSpin()->setValue(16);
  dialog.thresholdSpin()->setValue(0.5);
  dialog.torqueScaleCombo()->setCurrentIndex(1);
  dialog.torqueLengthSpin()->setValue(80.0);
  dialog.apply();
  const AnalysisSettings& s = analysis->settings();
  QCOMPARE(s.quality.soft.patch.normalForce_N, 20.0);
  QCOMPARE(s.quality.edges.pointContactEdges, 12);
  QCOMPARE(equatorDirectionsOf(s.quality.edges.softRings), 16);
  QCOMPARE(s.collision.contacts.threshold_mm, 0.5);
  QCOMPARE(s.quality.torqueLength_mm, 80.0);
  // No L∞ point limit any more: not a field, not stored.
  QVERIFY(!dialog.findChild<QSpinBox*>("lInfinityLimitSpin"));
  QVERIFY(!appSettings().contains("analysis/maxLInfinityPoints"));
  QVERIFY(!s.computeLInfinity);  // still only on demand
  const int bigger = test::firstSoftContact(*analysis);
  QVERIFY(bigger >= 0);
  const ContactEvaluation& strong = evaluationOf(*analysis, bigger);
  QCOMPARE(softOf(*analysis, bigger).patch.normalForce_N, 20.0);
  QVERIFY(softOf(*analysis, bigger).patch.semiAxisLong_mm > hertz.semiAxisLong_mm);
  QCOMPARE(strong.frictionEdges.size(), std::size_t(1 + 10 + 16 + 10 + 1));
  QCOMPARE(analysis->evaluation()->reference.torqueScale_mm, 80.0);

  // Persisted: a new window starts with these settings.
  window_->document()->undoStack()->setClean();
  window_ = std::make_unique<MainWindow>();
  const AnalysisSettings& restored = window_->analysis()->settings();
  QCOMPARE(restored.contactModel, std::string("hertz"));
  QCOMPARE(restored.quality.soft.patch.normalForce_N, 20.0);
  QCOMPARE(restored.quality.edges.pointContactEdges, 12);
  QCOMPARE(equatorDirectionsOf(restored.quality.edges.softRings), 16);
  QCOMPARE(restored.collision.contacts.threshold_mm, 0.5);
  QCOMPARE(restored.quality.torqueLength_mm, 80.0);

  // Restore Defaults + OK goes back to GraspIt!'s values.
  AnalysisSettingsDialog again(window_->analysis());
  QCOMPARE(again.normalForceSpin()->value(), 20.0);
  again.showSettings(AnalysisSettings{});
  again.apply();
  QCOMPARE(window_->analysis()->settings().quality.soft.patch.normalForce_N, 5.0);
  QCOMPARE(window_->analysis()->settings().quality.torqueLength_mm, 0.0);
  QCOMPARE(appSettings().value("analysis/contactModel").toString(), QString("soft-finger"));
}

void TstUiQuality::settingsRangesForbidBadValues() {
  AnalysisSettingsDialog dialog(window_->analysis());
  dialog.normalForceSpin()->setValue(-3);
  QVERIFY(dialog.normalForceSpin()->value() > 0);
  dialog.thresholdSpin()->setValue(0);
  QVERIFY(dialog.thresholdSpin()->value() > 0);
  dialog.pointEdgesSpin()->setValue(1);
  QVERIFY(dialog.pointEdgesSpin()->value() >= 3);
  dialog.apply();  // the clamped values are valid: the evaluation still runs
  QVERIFY2(window_->analysis()->evaluation(), qPrintable(window_->analysis()->error()));
  // Corrupt stored values are clamped when read back.
  appSettings().setValue("analysis/normalForce_N", -7.0);
  appSettings().setValue("analysis/pointContactEdges", "many");
  const AnalysisSettings read = readAnalysisSettings(AnalysisSettings{});
  QVERIFY(read.quality.soft.patch.normalForce_N > 0);
  QCOMPARE(read.quality.edges.pointContactEdges, 8);
}

void TstUiQuality::gwsProjectionWindowSlicesTheSpace() {
  GraspAnalysis* analysis = window_->analysis();
  QAction* action = window_->findChild<QAction*>("actionGwsProjection");
  QVERIFY(action);
  action->trigger();
  auto* w = window_->findChild<GwsProjectionWindow*>();
  QVERIFY(w);
  QVERIFY(w->isVisible());
  QVERIFY(!w->viewport());  // offscreen: the text summary only
  QCOMPARE(w->type(), GwsType::L1);

  // Torques fixed at 0: the force slice of a force-closure grasp holds the origin, at least ε from its
  // boundary (the 6-D ball of radius ε around the origin meets the slice in a 3-D ball of radius ε).
  const double eps = analysis->evaluation()->l1Quality.epsilon;
  QVERIFY(w->projection().valid);
  QVERIFY(!w->projection().vertices.empty());
  QVERIFY(!w->projection().triangles.empty());
  QCOMPARE(w->projection().freeCoordinates, (std::array<int, 3>{0, 1, 2}));
  QVERIFY2(w->originDepth() >= eps - 1e-6, qPrintable(w->summary()));
  QVERIFY(w->summary().contains("inside"));

  // The torque slice at zero force too.
  w->setFixed({0, 1, 2}, Vec3::Zero());
  QVERIFY(w->projection().valid);
  QCOMPARE(w->projection().freeCoordinates, (std::array<int, 3>{3, 4, 5}));
  QVERIFY(w->originDepth() >= eps - 1e-6);

  // A slice beyond the space (a normal-force sum of 1 cannot push 5 units) is empty.
  w->setFixed({2, 4, 5}, Vec3(5, 0, 0));
  QVERIFY(!w->projection().valid);
  QVERIFY(w->summary().startsWith("No projection"));

  // The same coordinate twice is refused with a message.
  w->setFixed({0, 0, 5}, Vec3::Zero());
  QVERIFY(!w->projection().valid);
  QVERIFY(w->summary().contains("different"));

  // Choosing L∞ asks the analysis for it; over the point limit, the window says so.
  w->setFixed({3, 4, 5}, Vec3::Zero());
  w->setType(GwsType::LInfinity);
  QVERIFY(analysis->settings().computeLInfinity);
  QVERIFY(!w->projection().valid);
  QTRY_VERIFY(w->summary().contains("not built"));  // once the background build gives up
  w->setType(GwsType::L1);
  QVERIFY(!analysis->settings().computeLInfinity);
  QTRY_VERIFY(w->projection().valid);  // the settings changed: the L1 hull arrives from the background

  // Live: opening the hand (no grasp) empties the projection.
  window_->document()->undoStack()->undo();
  QTRY_VERIFY(!w->projection().valid);
}

void TstUiQuality::inspectorShowsTheSelectedSoftContact() {
  GraspAnalysis* analysis = window_->analysis();
  SoftContactInspector* in = inspector();
  QVERIFY(in);
  QVERIFY(!analysis->selectedContact());
  QCOMPARE(in->contactCombo()->count(), static_cast<int>(analysis->contacts().size()) + 1);
  QVERIFY(in->highlightedPoints().empty());

  const int contact = test::firstSoftContact(*analysis);
  QVERIFY(contact >= 0);
  in->contactCombo()->setCurrentIndex(contact + 1);  // the inspector's own selector
  QCOMPARE(analysis->selectedContact(), std::optional<int>(contact));
  const ContactEvaluation& ce = evaluationOf(*analysis, contact);
  QCOMPARE(ce.kind, ContactKind::SoftFinger);
  const SoftContactResult& soft = softOf(*analysis, contact);
  QVERIFY(closeRelative(shown(in->valueText("kappaMax1")), soft.fit1.curvatures.kappaMax_per_mm));
  QVERIFY(closeRelative(shown(in->valueText("kappaMin1")), soft.fit1.curvatures.kappaMin_per_mm));
  QVERIFY(closeRelative(shown(in->valueText("kappaMax2")), soft.fit2.curvatures.kappaMax_per_mm));
  QVERIFY(closeRelative(shown(in->valueText("a1")), soft.fit1.a));
  QVERIFY(closeRelative(shown(in->valueText("residual2")), soft.fit2.rmsResidual_mm));
  QVERIFY(closeRelative(shown(in->valueText("relRadiusMax")), soft.patch.relativeRadiusMax_mm));
  QVERIFY(closeRelative(shown(in->valueText("semiAxisLong")), soft.patch.semiAxisLong_mm));
  QVERIFY(closeRelative(shown(in->valueText("semiAxisShort")), soft.patch.semiAxisShort_mm));
  QVERIFY(closeRelative(shown(in->valueText("torsion")), ce.torsion_mm));
  QVERIFY(closeRelative(shown(in->valueText("maxTorsionalFriction")), ce.maxTorsionalFriction_Nmm));
  QCOMPARE(in->valueText("size1").toInt(), static_cast<int>(soft.neighbourhoods.side1.size()));
  QVERIFY(ce.torsion_mm > 0);
  // Each side's status with its reason, the residual against the neighbourhood, the patch's fallback.
  for (const auto& [fit, n] : {std::pair{&soft.fit1, QString("1")}, std::pair{&soft.fit2, QString("2")}}) {
    const QString status = in->valueText("status" + n);
    QVERIFY2(status.startsWith(fit->status == QuadricFitStatus::Ok ? "ok" : "unreliable") ||
                 fit->status == QuadricFitStatus::TooFewPoints || fit->status == QuadricFitStatus::Degenerate,
             qPrintable(status));
    if (!fit->note.empty()) QVERIFY(status.contains(QString::fromStdString(fit->note)));
    if (fit->neighbourhoodRadius_mm > 0)
      QVERIFY(in->valueText("relativeResidual" + n).contains(QString::number(fit->neighbourhoodRadius_mm, 'g', 6) + " mm"));
  }
  const QString fallback = in->valueText("patchFallback");
  QVERIFY(!fallback.isEmpty());
  QCOMPARE(fallback == QString("none"), soft.patch.fallback == PatchFallback::None);
  if (soft.patch.fallback != PatchFallback::None)
    QVERIFY(fallback.contains(QString::fromStdString(soft.patch.fallbackReason)));

  // The 4-D edges: one row per friction edge, unit normal force, torsion μ·e5.
  QCOMPARE(in->edgesTable()->rowCount(), static_cast<int>(ce.frictionEdges.size()));
  double maxTorsion = 0;
  for (int row = 0; row < in->edgesTable()->rowCount(); ++row) {
    QCOMPARE(shown(in->edgesTable()->item(row, 2)->text()), 1.0);
    maxTorsion = std::max(maxTorsion, std::abs(shown(in->edgesTable()->item(row, 3)->text())));
  }
  QVERIFY(closeRelative(maxTorsion, ce.mu * ce.torsion_mm, 1e-4));

  // The highlighted neighbourhood: exactly the points the fits used, on both sides.
  QCOMPARE(in->highlightedPoints().size(), soft.neighbourhoods.side1.size() + soft.neighbourhoods.side2.size());
  QVERIFY(in->highlightedPoints().front().isApprox(ce.contact.side1.p_WC_mm));

  // Selecting elsewhere (the contacts dock does this) updates the inspector; clearing empties it.
  analysis->setSelectedContact(std::nullopt);
  QCOMPARE(in->contactCombo()->currentIndex(), 0);
  QVERIFY(in->valueText("kappaMax1").isEmpty());
  QVERIFY(in->highlightedPoints().empty());
  analysis->setSelectedContact(contact);
  QCOMPARE(in->contactCombo()->currentIndex(), contact + 1);
  QVERIFY(!in->valueText("kappaMax1").isEmpty());
}

void TstUiQuality::inspectorNotesPointContacts() {
  GraspAnalysis* analysis = window_->analysis();
  AnalysisSettings s = analysis->settings();
  s.contactModel = "point";
  analysis->setSettings(s);
  const int contact = analysis->evaluation()->contacts.front().sourceContacts.front();
  analysis->setSelectedContact(contact);
  SoftContactInspector* in = inspector();
  QVERIFY(in->noteLabel()->text().contains("Not a soft contact"));
  QVERIFY(in->valueText("kappaMax1").isEmpty());
  QVERIFY(in->highlightedPoints().empty());
  QCOMPARE(in->edgesTable()->rowCount(), s.quality.edges.pointContactEdges);
  for (int row = 0; row < in->edgesTable()->rowCount(); ++row)
    QCOMPARE(shown(in->edgesTable()->item(row, 3)->text()), 0.0);  // no torsional friction
}

// The inspector says where each side's curvatures came from, with the estimator's residual, and the
// settings dialog chooses the estimator (persisted as analysis/curvatureEstimator).
void TstUiQuality::inspectorNamesTheCurvatureSource() {
  GraspAnalysis* analysis = window_->analysis();
  const int contact = test::firstSoftContact(*analysis);
  QVERIFY(contact >= 0);
  analysis->setSelectedContact(contact);
  SoftContactInspector* in = inspector();
  const QString jet1 = in->valueText("source1"), jet2 = in->valueText("source2");
  QVERIFY2(jet1.startsWith("estimated (osculating jet"), qPrintable(jet1));  // the default
  QVERIFY2(jet2.startsWith("estimated (osculating jet"), qPrintable(jet2));
  const SoftContactResult& jet = softOf(*analysis, contact);
  QCOMPARE(jet.fit1.estimator, CurvatureEstimator::OsculatingJet);
  QVERIFY(jet1.contains(QString("RMS residual %1 mm").arg(QString::number(jet.fit1.rmsResidual_mm, 'g', 6))));
  QVERIFY(!in->valueText("slopeResidual1").isEmpty() || jet.fit1.normalCount == 0);

  AnalysisSettingsDialog dialog(analysis);
  QCOMPARE(dialog.curvatureEstimatorCombo()->currentData().toString(), QString("jet"));
  QCOMPARE(dialog.curvatureEstimatorCombo()->count(), 2);
  dialog.curvatureEstimatorCombo()->setCurrentIndex(dialog.curvatureEstimatorCombo()->findData(QString("graspit")));
  dialog.apply();
  QCOMPARE(analysis->settings().quality.soft.fit.estimator, CurvatureEstimator::GraspItParaboloid);
  QCOMPARE(appSettings().value("analysis/curvatureEstimator").toString(), QString("graspit"));
  analysis->setSelectedContact(contact);
  const QString fit1 = in->valueText("source1");
  QVERIFY2(fit1.startsWith("GraspIt! fit; RMS residual"), qPrintable(fit1));
  QVERIFY(in->valueText("source2").startsWith("GraspIt! fit"));
  const SoftContactResult& graspIt = softOf(*analysis, contact);
  QCOMPARE(graspIt.fit1.estimator, CurvatureEstimator::GraspItParaboloid);
  QVERIFY(fit1.contains(QString::number(graspIt.fit1.rmsResidual_mm, 'g', 6)));
  QVERIFY(in->valueText("slopeResidual1").isEmpty());  // positions only

  // Back to the jet: the text follows again.
  dialog.curvatureEstimatorCombo()->setCurrentIndex(dialog.curvatureEstimatorCombo()->findData(QString("jet")));
  dialog.apply();
  analysis->setSelectedContact(contact);
  QVERIFY(in->valueText("source1").startsWith("estimated (osculating jet"));
  QCOMPARE(appSettings().value("analysis/curvatureEstimator").toString(), QString("jet"));
}

void TstUiQuality::overlayDrawsPatchesEllipsesAndWrench() {
  GraspAnalysis* analysis = window_->analysis();
  SoSeparator* root = new SoSeparator;
  root->ref();
  {
    QualityOverlay overlay(analysis, root);
    QCOMPARE(root->getNumChildren(), 1);
    const int soft = test::softContactCount(*analysis);
    QCOMPARE(overlay.patchCount(), 2 * soft);
    QCOMPARE(overlay.ellipseCount(), soft);
    QVERIFY(overlay.showsWorstCaseWrench());
    QCOMPARE(overlay.node()->whichChild.getValue(), SO_SWITCH_ALL);
    overlay.setVisible(false);
    QCOMPARE(overlay.node()->whichChild.getValue(), SO_SWITCH_NONE);
    overlay.setVisible(true);
    // Live: the open hand has no soft contacts and no grasp.
    window_->document()->undoStack()->undo();
    QTRY_COMPARE(overlay.patchCount(), 0);
    QVERIFY(!overlay.showsWorstCaseWrench());
  }
  QCOMPARE(root->getNumChildren(), 0);  // the overlay removes its node
  root->unref();
}

// The Quality dock says which contact model, patch model and normal force are in force, and
// whether they differ from the defaults; the dialog's Restore Defaults brings the defaults back.
void TstUiQuality::dockShowsTheActiveSettings() {
  QLabel* label = dock()->settingsLabel();
  QVERIFY(label->text().contains("GraspIt! soft finger"));
  QVERIFY(label->text().contains("elastic layer"));
  QVERIFY(label->text().contains("normal force 5 N"));
  QVERIFY(!label->text().contains("not the defaults"));
  AnalysisSettings s = window_->analysis()->settings();
  s.contactModel = "hertz";
  s.quality.soft.patch.normalForce_N = 7.5;
  window_->analysis()->setSettings(s);
  QVERIFY2(label->text().contains("Hertz") && label->text().contains("7.5 N") && label->text().contains("not the defaults"),
           qPrintable(label->text()));
  AnalysisSettingsDialog dialog(window_->analysis());
  dialog.showSettings(window_->analysis()->settings());
  auto* buttons = dialog.findChild<QDialogButtonBox*>();
  QVERIFY(buttons);
  buttons->button(QDialogButtonBox::RestoreDefaults)->click();
  dialog.apply();
  QCOMPARE(window_->analysis()->settings().contactModel, defaultContactModel().name());
  QVERIFY(sameAsDefaults(window_->analysis()->settings()));
  QVERIFY2(!label->text().contains("not the defaults") && label->text().contains("normal force 5 N"),
           qPrintable(label->text()));
}

// The L∞ note is UTF-8 ("L∞", not "Lâ\u0088\u009e"): volume L∞ asked for on a world whose hand does
// not touch the object (an L∞ space of too few points).
void TstUiQuality::lInfinityNoteIsUtf8() {
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/default.xml")));
  dock()->addMeasure("volume-linf");
  window_->analysis()->recompute();
  if (window_->analysis()->lInfinityPending())
    QVERIFY(QSignalSpy(window_->analysis(), &GraspAnalysis::lInfinityUpdated).wait(20000));
  const QString notes = dock()->notesLabel()->text();
  QVERIFY2(notes.contains(QString::fromUtf8("L\u221e space")), qPrintable(notes));
  QVERIFY(!notes.contains(QChar(0x00e2)));  // 'â': the first byte of ∞ read as Latin-1
  dock()->removeMeasure("volume-linf");
}

namespace {
// Widths of the docks docked at the sides, by name.
QMap<QString, int> sideDockWidths(MainWindow& w) {
  QMap<QString, int> out;
  for (QDockWidget* d : w.findChildren<QDockWidget*>())
    if (!d->isFloating() && d->isVisible()) out[d->objectName()] = d->width();
  return out;
}

// The rectangle of `widget` that is actually on screen inside `window` (clipped by every ancestor).
QRect visibleRect(const QWidget* widget, const QRect& local) {
  QRect r = local;
  for (const QWidget* w = widget; w->parentWidget(); w = w->parentWidget()) {
    r = r.intersected(w->rect()).translated(w->pos());
  }
  return r;
}
}  // namespace

// After the window was made 320×240 and large again, the side docks have their widths back; View >
// Reset Layout restores the first-start layout.
void TstUiQuality::layoutRecoversFromATinyWindow() {
  window_->resize(1280, 800);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  window_->resetLayout();
  QTest::qWait(50);
  const QMap<QString, int> before = sideDockWidths(*window_);
  QVERIFY(before.value("SceneTreeDock") >= 250);
  window_->resize(320, 240);
  QTest::qWait(50);
  window_->resize(1280, 800);
  // The docks settle over several event-loop passes (slower on a loaded machine): wait for them, then report.
  const auto recovered = [&] {
    const QMap<QString, int> now = sideDockWidths(*window_);
    for (auto it = before.begin(); it != before.end(); ++it)
      if (now.value(it.key()) < std::min(it.value(), 320) * 9 / 10) return false;
    return true;
  };
  QTRY_VERIFY_WITH_TIMEOUT(recovered(), 5000);
  const QMap<QString, int> after = sideDockWidths(*window_);
  for (auto it = before.begin(); it != before.end(); ++it)
    QVERIFY2(after.value(it.key()) >= std::min(it.value(), 320) * 9 / 10,
             qPrintable(QString("%1: %2 → %3").arg(it.key()).arg(it.value()).arg(after.value(it.key()))));
  // Reset Layout: a dock closed and one floated come back docked.
  auto* reset = window_->findChild<QAction*>("actionResetLayout");
  QVERIFY(reset && window_->viewMenu()->actions().contains(reset));
  window_->propertiesDock()->hide();
  window_->sceneTreeDock()->setFloating(true);
  reset->trigger();
  QTest::qWait(50);
  QVERIFY(window_->propertiesDock()->isVisible());
  QVERIFY(!window_->sceneTreeDock()->isFloating());
  QVERIFY(window_->sceneTreeDock()->width() >= 250);
}

// At 800×600 every value of the Quality dock is on screen, whole.
void TstUiQuality::qualityValuesVisibleAt800x600() {
  window_->resize(800, 600);
  window_->show();
  QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
  window_->resetLayout();
  QTest::qWait(50);
  QualityDock* d = dock();
  QVERIFY(d->isVisible());
  QVERIFY(d->width() >= 220);
  QTableWidget* table = d->table();
  QVERIFY(table->rowCount() >= 3);
  const int rowHeight = table->rowHeight(0);
  for (int row = 0; row < table->rowCount(); ++row) {
    const QRect cell = table->visualItemRect(table->item(row, 1));
    const QRect onScreen = visibleRect(table->viewport(), cell);
    QVERIFY2(onScreen.height() >= rowHeight - 1 && onScreen.width() >= 40,
             qPrintable(QString("row %1: %2 px of %3 visible").arg(row).arg(onScreen.height()).arg(rowHeight)));
    QVERIFY(!table->item(row, 1)->text().isEmpty());
  }
  const QRect fc = visibleRect(d->forceClosureLabel(), d->forceClosureLabel()->rect());
  QVERIFY(fc.height() >= d->forceClosureLabel()->height() - 1);
}

// Esc closes the GWS projection window.
void TstUiQuality::escapeClosesTheProjectionWindow() {
  window_->findChild<QAction*>("actionGwsProjection")->trigger();
  auto* projection = window_->findChild<GwsProjectionWindow*>();
  QVERIFY(projection);
  QVERIFY(QTest::qWaitForWindowActive(projection));
  QVERIFY(projection->isVisible());
  QTest::keyClick(projection, Qt::Key_Escape);
  QTRY_VERIFY(!projection->isVisible());
}

// At 800×600 the legend covered ~40 % of the view. Its panel now keeps to a bounded share of any view: the
// full lines on a large view, the compact ones in a smaller font on a small view, the first lines and "+N more" on a
// tiny one; never wider than the view.
void TstUiQuality::legendScalesToTheView() {
  std::vector<OverlayLegendEntry> entries = graspOverlayLegend(&*window_->analysis()->evaluation());
  QCOMPARE(entries.size(), std::size_t{3});  // contact force, worst-case force and torque
  for (const OverlayLegendEntry& e : entries) QVERIFY(!e.compactText.empty() && e.compactText.size() < e.text.size());
  auto bounded = [](const OverlayLegendLayout& l, const QSize& view) {
    return l.size.width() <= view.width() - 16 && l.size.height() <= kOverlayLegendMaxHeightFraction * view.height() &&
           double(l.size.width()) * l.size.height() <= kOverlayLegendMaxAreaFraction * view.width() * view.height();
  };
  // A large view: the full lines in the legend font, as before.
  const QSize large(1000, 700);
  const OverlayLegendLayout full = overlayLegendLayout(entries, large);
  QVERIFY(!full.compact);
  QCOMPARE(full.font, overlayLegendFont());
  QCOMPARE(full.lines.size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) QCOMPARE(full.lines[i].text, entries[i].text);
  QCOMPARE(full.size, overlayLegendSize(entries, overlayLegendFont(), large.width() - 16));
  QVERIFY(bounded(full, large));
  // The 3-D view of an 800×600 window is about this size: the full lines, wrapped, would cover more than allowed.
  const QSize small(380, 400);
  const QSize old = overlayLegendSize(entries, overlayLegendFont(), small.width() - 16);
  const double oldShare = double(old.width()) * old.height() / (small.width() * small.height());
  qInfo("legend at %dx%d: full lines %dx%d px = %.0f %% of the view", small.width(), small.height(), old.width(),
        old.height(), 100 * oldShare);
  QVERIFY(oldShare > kOverlayLegendMaxAreaFraction);
  const OverlayLegendLayout compact = overlayLegendLayout(entries, small);
  QVERIFY(compact.compact);
  QCOMPARE(compact.lines.size(), entries.size());  // every line still there, in its short form
  for (std::size_t i = 0; i < entries.size(); ++i) QCOMPARE(compact.lines[i].text, entries[i].compactText);
  QVERIFY(bounded(compact, small));
  qInfo("compact: %dx%d px = %.0f %% of the view", compact.size.width(), compact.size.height(),
        100.0 * compact.size.width() * compact.size.height() / (small.width() * small.height()));
  // With every model's patch lines as well, on a tiny view: the first lines and a count of the others.
  for (const ContactModel* m : contactModels()) {
    OverlayLegendEntry e;
    e.key = "patches:" + m->name();
    e.text = m->label() + ": 3 patches";
    e.compactText = m->name() + ": 3";
    entries.push_back(e);
  }
  const QSize tiny(240, 180);
  const OverlayLegendLayout cut = overlayLegendLayout(entries, tiny);
  QVERIFY(bounded(cut, tiny));
  QVERIFY(cut.lines.size() >= 2 && cut.lines.size() < entries.size());
  QCOMPARE(cut.lines.back().key, std::string("more"));
  QCOMPARE(QString::fromStdString(cut.lines.back().text),
           QString("+%1 more").arg(entries.size() - (cut.lines.size() - 1)));
  // Nothing to explain, or no room at all: no panel.
  QCOMPARE(overlayLegendLayout({}, large).size, QSize(0, 0));
  QVERIFY(overlayLegendLayout(entries, QSize(30, 20)).lines.empty());
  // The headless screenshot paints the same fitted panel: nothing outside its box in the corner.
  QImage image(small, QImage::Format_RGB32);
  image.fill(Qt::black);
  paintOverlayLegend(image, std::vector<OverlayLegendEntry>(entries.begin(), entries.begin() + 3));
  int painted = 0, outside = 0;
  const QRect box(QPoint(8, small.height() - 8 - compact.size.height()), compact.size);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (image.pixel(x, y) != qRgb(0, 0, 0)) (box.contains(x, y) ? painted : outside) += 1;
  QVERIFY(painted > box.width() * box.height() / 2);
  QCOMPARE(outside, 0);
}

// The dock said "merged from 9 contacts of the table" (meaning the Contacts dock's table) for a hand's
// contacts, which reads as the table body. It names whose contacts were merged: the hand's, by its name.
void TstUiQuality::mergedContactsNameTheirBodies() {
  auto sourcesOf = [](const GraspEvaluation& e) {
    std::size_t sources = 0;
    for (const ContactEvaluation& c : e.contacts) sources += c.sourceContacts.size();
    return sources;
  };
  // The default grasp: one contact per fingertip, nothing merged, nothing said about it.
  {
    const GraspEvaluation& e = *window_->analysis()->evaluation();
    QCOMPARE(sourcesOf(e), e.contacts.size());
    const QString text = dock()->graspableLabel()->text();
    QVERIFY2(text.contains("mug") && text.contains("3 contacts") && !text.contains("merged") && !text.contains("table"),
             qPrintable(text));
  }
  // The five-finger hand on the cylinder (G): the soft-finger model merges neighbouring contacts of its links.
  QVERIFY(window_->openWorldFile(sg::test::qInSourceTree("worlds/fivefinger_cylinder.xml")));
  window_->findChild<QAction*>("actionApproachAndGrasp")->trigger();
  window_->analysis()->recompute();
  QVERIFY(test::waitForL1Hull(*window_->analysis()));
  const GraspEvaluation& e = *window_->analysis()->evaluation();
  const std::size_t sources = sourcesOf(e);
  QVERIFY2(sources > e.contacts.size(), "this grasp merges neighbouring contacts");
  const QString text = dock()->graspableLabel()->text();
  const QString hand = QString::fromStdString(window_->document()->world().robots.at(0).name);
  QCOMPARE(hand, QString("FiveFinger"));
  QVERIFY2(text.contains(QString("merged from %1 contacts of %2").arg(sources).arg(hand)), qPrintable(text));
  QVERIFY2(!text.contains("table"), qPrintable(text));
}

QTEST_MAIN(TstUiQuality)
#include "tst_ui_quality.moc"
