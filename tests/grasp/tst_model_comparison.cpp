// The model comparison and the sensitivity sweep (src/grasp/ModelComparison.h, SensitivitySweep.h) on the
// bundled default world after approach and auto-grasp: every cell equals what the model gives when run alone,
// the soft models' patch fields against their own patch data and closed forms, sweeps monotone where physics
// says so, cancel, bad input.
#include <QtTest>

#include <cmath>

#include "contact/models/SoftFingerContactModel.h"
#include "core/Error.h"
#include "grasp/SensitivitySweep.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {


// The default world (ThreeFinger with rubber fingertips, the mug) grasped once, shared by the tests.
struct Grasped {
  World world;
  std::vector<Contact> contacts;
  int graspable = -1;
};

const Grasped& grasped() {
  static const Grasped g = [] {
    Grasped out;
    out.world = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    AnalysisRequest request;
    request.motion.approach = true;
    request.motion.fingers = FingerMotion::Close;
    request.contactModels.clear();
    request.measures.clear();
    NullProgress progress;
    AnalysisResult r = runAnalysis(out.world, request, progress);
    out.contacts = r.contacts;
    out.graspable = r.graspable;
    return out;
  }();
  return g;
}

// Cancels at its n-th report.
class CancelAfter final : public ProgressSink {
 public:
  explicit CancelAfter(int n) : left_(n) {}
  void report(double, std::string_view) override { --left_; ++reports; }
  bool cancelRequested() const override { return left_ <= 0; }
  int reports = 0;

 private:
  int left_;
};

bool sameMeasure(const MeasureValue* a, const MeasureValue* b) {
  if (!a || !b) return a == b;
  return a->ok == b->ok && a->value == b->value;
}

}  // namespace

class TstModelComparison : public QObject {
  Q_OBJECT
 private slots:
  void everyRegisteredModelIsAColumn();
  void cellsEqualEachModelRunAlone();
  void softFingerPatchFields();
  void hertzPatchFields();
  void pointModelsHaveNoPatch();
  void chosenModelsInRequestOrder();
  void unknownNamesAreErrors();
  void csvTableHasOneLinePerCellAndModel();
  void sweepValuesSpacing();
  void stifferMaterialGivesSmallerPatchAndTorsion();
  void largerForceGivesLargerPatch();
  void largerFrictionNeverLowersPointEpsilon();
  void sweepCancels();
  void sweepRejectsBadValues();
};

void TstModelComparison::everyRegisteredModelIsAColumn() {
  const Grasped& g = grasped();
  QVERIFY(g.contacts.size() >= 3);
  NullProgress progress;
  const ModelComparison c = compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, {}, progress);
  QCOMPARE(c.columns.size(), contactModels().size());
  for (std::size_t k = 0; k < c.columns.size(); ++k) {
    QCOMPARE(c.columns[k].model, contactModels()[k]->name());
    // The built-in models all treat this grasp; a model registered later may fail on it, but then says why.
    const bool builtin = c.columns[k].model == "soft-finger" || c.columns[k].model == "hertz" ||
                         c.columns[k].model == "point" || c.columns[k].model == "frictionless";
    if (builtin) QVERIFY2(c.columns[k].ok, c.columns[k].error.c_str());
    else QVERIFY(c.columns[k].ok || !c.columns[k].error.empty());
    QCOMPARE(c.columns[k].contacts.size(), c.rows.size());
    for (const std::string& m : comparisonMeasureNames()) QVERIFY(c.columns[k].measure(m));
  }
  QVERIFY(c.rows.size() >= 3);
  for (std::size_t r = 1; r < c.rows.size(); ++r) QVERIFY(c.rows[r - 1].sourceContact < c.rows[r].sourceContact);
}

void TstModelComparison::cellsEqualEachModelRunAlone() {
  const Grasped& g = grasped();
  QualitySettings settings;
  settings.soft.patch.normalForce_N = 7.5;
  NullProgress progress;
  const ModelComparison c = compareModels(g.world, g.world.state, g.contacts, g.graspable, settings, {}, progress);
  for (const ContactModel* model : contactModels()) {
    GraspEvaluation alone = evaluateGrasp(g.world, g.world.state, g.contacts, g.graspable, *model, settings);
    computeMeasures(alone, comparisonMeasureNames(), progress);
    const ModelColumn* column = c.column(model->name());
    QVERIFY(column);
    QCOMPARE(column->evaluation.contacts.size(), alone.contacts.size());
    int present = 0;
    for (std::size_t r = 0; r < c.rows.size(); ++r) {
      const ComparedContact& cell = column->contacts[r];
      if (!cell.present) continue;
      ++present;
      const ContactEvaluation& e = alone.contacts[static_cast<std::size_t>(cell.evaluationContact)];
      QCOMPARE(e.sourceContacts.front(), c.rows[r].sourceContact);
      QCOMPARE(cell.kind, e.kind);
      QCOMPARE(cell.patchShape, e.patchShape);
      QCOMPARE(cell.patchArea_mm2, e.patchArea_mm2);
      QCOMPARE(cell.normalForce_N, e.normalForce_N);
      QCOMPARE(cell.peakPressure_Pa, e.peakPressure_Pa);
      QCOMPARE(cell.mu, e.mu);
      QCOMPARE(cell.torsion_mm, e.torsion_mm);
      QCOMPARE(cell.maxTorsionalFriction_Nmm, e.maxTorsionalFriction_Nmm);
      QCOMPARE(cell.patchOutline_W_mm.size(), e.patchOutline_W_mm.size());
      for (std::size_t k = 0; k < e.patchOutline_W_mm.size(); ++k)
        QCOMPARE((cell.patchOutline_W_mm[k] - e.patchOutline_W_mm[k]).norm(), 0.0);
    }
    QCOMPARE(present, static_cast<int>(alone.contacts.size()));
    for (const std::string& m : comparisonMeasureNames())
      QVERIFY2(sameMeasure(column->measure(m), alone.measure(m)), (model->name() + " " + m).c_str());
  }
}

void TstModelComparison::softFingerPatchFields() {
  const Grasped& g = grasped();
  QualitySettings settings;
  settings.soft.patch.normalForce_N = 4.0;
  const GraspEvaluation e =
      evaluateGrasp(g.world, g.world.state, g.contacts, g.graspable, *findContactModel("soft-finger"), settings);
  int soft = 0;
  for (std::size_t i = 0; i < e.contacts.size(); ++i) {
    const ContactEvaluation& c = e.contacts[i];
    const SoftContactResult* s = softContactResult(e.modelResult.get(), i);
    if (!s) continue;
    ++soft;
    const double a = s->patch.semiAxisLong_mm, b = s->patch.semiAxisShort_mm;
    QVERIFY(c.patchShape == "ellipse" || c.patchShape == "circle");
    QCOMPARE(c.patchArea_mm2, kPi * a * b);
    QCOMPARE(c.normalForce_N, 4.0);
    QCOMPARE(c.peakPressure_Pa, s->patch.maxPressure_Pa);
    QVERIFY(c.peakPressure_Pa > 0);
    QCOMPARE(c.maxTorsionalFriction_Nmm, c.mu * 4.0 * s->patch.torsionPerFriction_mm);
    // The outline: N points on the ellipse in the tangent plane at the object's contact point, counter-clockwise
    // about the object's outward normal; an affine image of a regular N-gon has area πab·N·sin(2π/N)/(2π).
    const Vec3 centre = c.onObject().p_WC_mm, outward = -c.onObject().n_W;
    const std::size_t n = c.patchOutline_W_mm.size();
    QCOMPARE(n, std::size_t(32));
    Vec3 areaVector = Vec3::Zero();
    for (std::size_t k = 0; k < n; ++k) {
      const Vec3 p = c.patchOutline_W_mm[k] - centre;
      QVERIFY(std::abs(p.dot(outward)) < 1e-9);
      const double x = p.dot(s->patch.axisLong) / a, y = p.dot(s->patch.axisShort) / b;
      QVERIFY(std::abs(x * x + y * y - 1) < 1e-9);
      areaVector += 0.5 * p.cross(c.patchOutline_W_mm[(k + 1) % n] - centre);
    }
    QVERIFY(areaVector.dot(outward) > 0);
    const double expected = kPi * a * b * n * std::sin(2 * kPi / n) / (2 * kPi);
    QVERIFY(std::abs(areaVector.norm() - expected) < 1e-9 * expected);
  }
  QVERIFY(soft >= 3);
}

void TstModelComparison::hertzPatchFields() {
  const Grasped& g = grasped();
  const GraspEvaluation e =
      evaluateGrasp(g.world, g.world.state, g.contacts, g.graspable, *findContactModel("hertz"), {});
  int soft = 0;
  for (std::size_t i = 0; i < e.contacts.size(); ++i) {
    const SoftContactResult* s = softContactResult(e.modelResult.get(), i);
    if (!s) continue;
    ++soft;
    const ContactEvaluation& c = e.contacts[i];
    const double a = s->patch.semiAxisLong_mm, b = s->patch.semiAxisShort_mm;
    QCOMPARE(c.patchArea_mm2, kPi * a * b);
    // Hertz: p0 = 3N / (2πab), N in newtons and a, b in mm → Pa = N/mm² · 1e6.
    QVERIFY(std::abs(c.peakPressure_Pa - 3 * c.normalForce_N / (2 * kPi * a * b) * 1e6) < 1e-9 * c.peakPressure_Pa);
    QCOMPARE(c.normalForce_N, QualitySettings{}.soft.patch.normalForce_N);
  }
  QVERIFY(soft >= 3);
}

void TstModelComparison::pointModelsHaveNoPatch() {
  const Grasped& g = grasped();
  NullProgress progress;
  ComparisonRequest request;
  request.models = {"point", "frictionless"};
  const ModelComparison c = compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress);
  for (const ModelColumn& column : c.columns)
    for (const ComparedContact& cell : column.contacts) {
      QVERIFY(cell.present);
      QVERIFY(cell.patchShape.empty() && cell.patchOutline_W_mm.empty());
      QCOMPARE(cell.patchArea_mm2, 0.0);
      QCOMPARE(cell.maxTorsionalFriction_Nmm, 0.0);
    }
  QCOMPARE(c.column("frictionless")->contacts.front().kind, ContactKind::Frictionless);
}

void TstModelComparison::chosenModelsInRequestOrder() {
  const Grasped& g = grasped();
  NullProgress progress;
  ComparisonRequest request;
  request.models = {"hertz", "soft"};  // an alias names its model
  request.measures = {"epsilon-l1"};
  const ModelComparison c = compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress);
  QCOMPARE(c.columns.size(), std::size_t(2));
  QCOMPARE(c.columns[0].model, std::string("hertz"));
  QCOMPARE(c.columns[1].model, std::string("soft-finger"));
  QCOMPARE(c.columns[0].evaluation.measures.size(), std::size_t(1));
  QVERIFY(!c.columns[0].measure("volume-l1"));
}

void TstModelComparison::unknownNamesAreErrors() {
  const Grasped& g = grasped();
  NullProgress progress;
  ComparisonRequest request;
  request.models = {"soft-finger", "nonsense"};
  QVERIFY_THROWS_EXCEPTION(Error, compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress));
  request.models = {};
  request.measures = {"epsilon-nonsense"};
  QVERIFY_THROWS_EXCEPTION(Error, compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress));
}

void TstModelComparison::csvTableHasOneLinePerCellAndModel() {
  const Grasped& g = grasped();
  NullProgress progress;
  const ModelComparison c = compareModels(g.world, g.world.state, g.contacts, g.graspable, {}, {}, progress);
  const QStringList lines = QString::fromStdString(comparisonCsv(c)).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), static_cast<qsizetype>(1 + c.rows.size() * c.columns.size() + c.columns.size()));
  const qsizetype fields = lines[0].split(',').size();
  QCOMPARE(fields, static_cast<qsizetype>(13 + c.measures.size()));
  // Row 1 of the soft finger: its area; the grasp line: its ε L1 (labels have no comma here).
  for (const QString& line : lines.mid(1)) QCOMPARE(line.split(',').size(), fields);
  const QStringList first = lines[1].split(',');
  QCOMPARE(first[2], QString::fromStdString(c.columns[0].model));
  QCOMPARE(first[7].toDouble(), c.columns[0].contacts[0].patchArea_mm2);
  const QStringList grasp = lines[static_cast<qsizetype>(1 + c.rows.size() * c.columns.size())].split(',');
  QCOMPARE(grasp[0], QStringLiteral("grasp"));
  QCOMPARE(grasp[13].toDouble(), c.columns[0].measure("epsilon-l1")->value);
}

void TstModelComparison::sweepValuesSpacing() {
  const std::vector<double> e = sweepValues(SweepParameter::YoungsModulus, 1e5, 1e9, 5);
  QCOMPARE(e.size(), std::size_t(5));
  QCOMPARE(e.front(), 1e5);
  QCOMPARE(e.back(), 1e9);
  for (std::size_t k = 1; k < e.size(); ++k) QVERIFY(std::abs(e[k] / e[k - 1] - 10) < 1e-9);
  const std::vector<double> f = sweepValues(SweepParameter::NormalForce, 1, 3, 3);
  QCOMPARE(f, (std::vector<double>{1, 2, 3}));
  QVERIFY_THROWS_EXCEPTION(Error, sweepValues(SweepParameter::YoungsModulus, 0, 1e9, 5));
  QVERIFY_THROWS_EXCEPTION(Error, sweepValues(SweepParameter::Friction, 0, 1, 1));
  QCOMPARE(sweepParameterFromKey("mu"), std::optional<SweepParameter>(SweepParameter::Friction));
  QVERIFY(!sweepParameterFromKey("stiffness"));
}

void TstModelComparison::stifferMaterialGivesSmallerPatchAndTorsion() {
  const Grasped& g = grasped();
  SweepRequest request;
  request.parameter = SweepParameter::YoungsModulus;
  request.values = sweepValues(request.parameter, 1e5, 1e9, 5);
  request.models = {"soft-finger", "hertz"};
  auto moduli = [&g] {
    std::vector<double> out;
    for (const BodyHandle& h : g.world.bodyHandles())
      if (g.world.body(h).youngs_Pa) out.push_back(*g.world.body(h).youngs_Pa);
    return out;
  };
  const std::vector<double> before = moduli();
  QVERIFY(!before.empty());
  NullProgress progress;
  const SweepTable t = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress);
  QCOMPARE(moduli(), before);  // the sweep changed its own copy
  QCOMPARE(t.points.size(), std::size_t(10));
  QCOMPARE(t.models, request.models);
  for (const std::string& model : request.models) {
    const auto series = t.series(model);
    QCOMPARE(series.size(), std::size_t(5));
    for (std::size_t k = 1; k < series.size(); ++k) {
      const SweepPoint& soft = *series[k - 1];
      const SweepPoint& stiff = *series[k];
      QVERIFY(stiff.ok && stiff.patches >= 3);
      QCOMPARE(stiff.rowSources, soft.rowSources);
      for (std::size_t r = 0; r < stiff.patchArea_mm2.size(); ++r) {
        if (soft.patchArea_mm2[r] == 0) continue;
        QVERIFY2(stiff.patchArea_mm2[r] < soft.patchArea_mm2[r], model.c_str());
        QVERIFY2(stiff.torsionalLimit_Nmm[r] < soft.torsionalLimit_Nmm[r], model.c_str());
      }
      QVERIFY(stiff.meanPatchArea_mm2 < soft.meanPatchArea_mm2);
    }
  }
}

void TstModelComparison::largerForceGivesLargerPatch() {
  const Grasped& g = grasped();
  SweepRequest request;
  request.parameter = SweepParameter::NormalForce;
  request.values = {1, 2, 5, 10, 20};
  request.models = {"soft-finger", "hertz"};
  request.measures = {"epsilon-l1"};
  NullProgress progress;
  const SweepTable t = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress);
  for (const std::string& model : request.models) {
    const auto series = t.series(model);
    for (std::size_t k = 1; k < series.size(); ++k)
      for (std::size_t r = 0; r < series[k]->patchArea_mm2.size(); ++r) {
        if (series[k - 1]->patchArea_mm2[r] == 0) continue;
        QVERIFY(series[k]->patchArea_mm2[r] > series[k - 1]->patchArea_mm2[r]);
        QVERIFY(series[k]->torsionalLimit_Nmm[r] > series[k - 1]->torsionalLimit_Nmm[r]);
      }
  }
}

void TstModelComparison::largerFrictionNeverLowersPointEpsilon() {
  const Grasped& g = grasped();
  SweepRequest request;
  request.parameter = SweepParameter::Friction;
  request.values = sweepValues(request.parameter, 0.2, 1.0, 5);
  request.models = {"point", "soft-finger"};
  request.measures = {"epsilon-l1"};
  NullProgress progress;
  const SweepTable t = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress);
  const auto point = t.series("point");
  for (std::size_t k = 1; k < point.size(); ++k)
    QVERIFY(*point[k]->measures[0] >= *point[k - 1]->measures[0] - 1e-12);
  QVERIFY(*point.back()->measures[0] > *point.front()->measures[0]);
  // τmax = μ N e_n: linear in μ at fixed patch.
  const auto soft = t.series("soft-finger");
  for (std::size_t k = 0; k < soft.size(); ++k)
    QVERIFY(std::abs(soft[k]->meanTorsionalLimit_Nmm / soft[k]->value - soft[0]->meanTorsionalLimit_Nmm / soft[0]->value) <
            1e-9 * soft[0]->meanTorsionalLimit_Nmm);
  const QStringList lines = QString::fromStdString(t.csv()).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), static_cast<qsizetype>(1 + t.points.size()));
  QVERIFY(lines[0].startsWith("mu,model,ok,epsilon-l1,"));
}

void TstModelComparison::sweepCancels() {
  const Grasped& g = grasped();
  SweepRequest request;
  request.values = sweepValues(SweepParameter::YoungsModulus, 1e5, 1e9, 9);
  request.models = {"soft-finger"};
  CancelAfter early(0);
  QVERIFY_THROWS_EXCEPTION(Cancelled, runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, early));
  QCOMPARE(early.reports, 0);
  // Cancelled in the middle: stops before the remaining values.
  CancelAfter middle(3);
  QVERIFY_THROWS_EXCEPTION(Cancelled, runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, middle));
  CancelAfter counter(1 << 30);
  runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, counter);
  QVERIFY(middle.reports < counter.reports);
  // keepPointsOnCancel: the values done are returned (whole values only), equal to the full sweep's first ones.
  request.keepPointsOnCancel = true;
  CancelAfter fullCount(1 << 30);
  const SweepTable full = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, fullCount);
  QVERIFY(!full.cancelled);
  QCOMPARE(full.points.size(), request.values.size());
  CancelAfter none(0);
  const SweepTable empty = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, none);
  QVERIFY(empty.cancelled && empty.points.empty());
  CancelAfter part(fullCount.reports / 2);
  const SweepTable half = runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, part);
  QVERIFY(half.cancelled);
  QVERIFY(!half.points.empty() && half.points.size() < full.points.size());
  for (std::size_t i = 0; i < half.points.size(); ++i) {
    QCOMPARE(half.points[i].value, full.points[i].value);
    QCOMPARE(half.points[i].measures, full.points[i].measures);
  }
}

void TstModelComparison::sweepRejectsBadValues() {
  const Grasped& g = grasped();
  NullProgress progress;
  SweepRequest request;
  request.parameter = SweepParameter::NormalForce;
  request.values = {1, 0};
  QVERIFY_THROWS_EXCEPTION(Error, runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress));
  request.parameter = SweepParameter::Friction;
  request.values = {-0.1};
  QVERIFY_THROWS_EXCEPTION(Error, runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress));
  request.values = {};
  QVERIFY_THROWS_EXCEPTION(Error, runSweep(g.world, g.world.state, g.contacts, g.graspable, {}, request, progress));
}

QTEST_GUILESS_MAIN(TstModelComparison)
#include "tst_model_comparison.moc"
