// Per-model settings (src/contact/README.md §Model parameters): the built-in models' declarations read and write
// their typed settings, values are checked against the declarations, the soft ring pattern, and a model
// registered only here (tests/support/TestOnlyContactModel.h) reaching the registry and its generic store.
#include <QtTest>

#include <cmath>

#include "../support/TestOnlyContactModel.h"
#include "contact/ContactModel.h"
#include "core/Error.h"
#include "core/Progress.h"

using namespace sg;

namespace {

// A value of `p` other than its default, inside its range.
double otherValue(const ModelParameter& p) {
  switch (p.kind) {
    case ParameterKind::Bool: return p.defaultValue != 0 ? 0 : 1;
    case ParameterKind::Choice: return std::fmod(p.defaultValue + 1, static_cast<double>(p.choices.size()));
    case ParameterKind::Integer: return p.defaultValue + 1 <= p.max ? p.defaultValue + 1 : p.min;
    case ParameterKind::Number: break;
  }
  const double v = 0.5 * (p.min + p.max);
  return v != p.defaultValue ? v : p.min;
}

std::string errorOf(ContactModelSettings& s, const std::string& assignment) {
  try {
    applyModelParameterAssignment(s, assignment);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestModelParameters : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { sgtest::registerTestOnlyContactModel(); }

  // GraspIt!'s {1, 5, 8, 5, 1} scaled by the equator count m: {1, round(5m/8) ≥ 3, m, round(5m/8) ≥ 3, 1}.
  void softRingPattern() {
    const std::vector<FrictionRing> graspIt = softRingsWithEquator(8);
    QCOMPARE(graspIt.size(), std::size_t(5));
    const double latitudes[] = {90, 45, 0, -45, -90};
    const int counts[] = {1, 5, 8, 5, 1};
    for (std::size_t i = 0; i < 5; ++i) {
      QCOMPARE(graspIt[i].latitude_deg, latitudes[i]);
      QCOMPARE(graspIt[i].directions, counts[i]);
    }
    QCOMPARE(softRingsWithEquator(16)[1].directions, 10);  // 5·16/8
    QCOMPARE(softRingsWithEquator(3)[1].directions, 3);    // round(1.875) = 2, raised to 3
    QCOMPARE(softRingsWithEquator(100)[2].directions, kMaxFrictionDirections);  // clamped
    QCOMPARE(softRingsWithEquator(1)[2].directions, kMinFrictionDirections);
    for (int m = kMinFrictionDirections; m <= kMaxFrictionDirections; ++m)
      QCOMPARE(equatorDirectionsOf(softRingsWithEquator(m)), m);
    QCOMPARE(equatorDirectionsOf(FrictionEdgeSettings{}.softRings), 8);  // the default is GraspIt!'s pattern
    QCOMPARE(equatorDirectionsOf({{90, 1}, {45, 4}}), 8);                // no equator ring
    QCOMPARE(softContactEdges(2.0, {8, softRingsWithEquator(16)}).size(), std::size_t(1 + 10 + 16 + 10 + 1));
  }

  // Every declaration of every registered model: its default is the settings' default, a value set is read
  // back, and a key is unique within its model.
  void declarationsRoundTrip() {
    for (const ContactModel* m : contactModels()) {
      const std::vector<ModelParameter> declared = m->parameters();
      for (const ModelParameter& p : declared) {
        const QByteArray what = QByteArray::fromStdString(m->name() + "." + p.key);
        QCOMPARE(findModelParameter(declared, p.key), &p);
        const ContactModelSettings defaults;
        QVERIFY2(parameterValue(defaults, m->name(), p) == p.defaultValue, what);
        if (p.kind == ParameterKind::Number || p.kind == ParameterKind::Integer)
          QVERIFY2(p.min <= p.defaultValue && p.defaultValue <= p.max, what);
        ContactModelSettings s;
        const double v = otherValue(p);
        setParameterValue(s, m->name(), p, v);
        QVERIFY2(parameterValue(s, m->name(), p) == v, what);
        QVERIFY2(!modelParametersAtDefaults(s), what);
        // Through text as the settings file and --model-param carry it.
        std::string problem;
        const auto parsed = parseParameterText(p, parameterText(p, v), problem);
        QVERIFY2(parsed && *parsed == v, (what + " " + QByteArray::fromStdString(problem)));
      }
    }
    QVERIFY(modelParametersAtDefaults(ContactModelSettings{}));
  }

  // The built-in models' parameters are their engine structs' fields (existing callers keep reading those).
  void builtinsWriteTypedFields() {
    ContactModelSettings s;
    applyModelParameterAssignment(s, "patch.tolerance_mm=0.25");
    applyModelParameterAssignment(s, "patch.maxVertices=10");
    applyModelParameterAssignment(s, "penalty.stiffness_N_per_mm=250");
    applyModelParameterAssignment(s, "penalty.clampNormalForce=false");
    applyModelParameterAssignment(s, "soft.layerThickness_mm=4.5");  // alias of soft-finger
    applyModelParameterAssignment(s, "hertz.poissonRatio=0.3");
    QCOMPARE(s.patch.tolerance_mm, 0.25);
    QCOMPARE(s.patch.maxVertices, 10);
    QCOMPARE(s.penalty.stiffness_N_per_mm, 250.0);
    QCOMPARE(s.penalty.clampNormalForce, false);
    QCOMPARE(s.soft.patch.layerThickness_mm, 4.5);
    QCOMPARE(s.soft.patch.poissonRatio, 0.3);
    QVERIFY(s.modelValues.empty());  // typed fields, not the generic store
  }

  void badValuesNamed() {
    ContactModelSettings s;
    std::string e = errorOf(s, "patch.tolerance_mm=-1");
    QVERIFY2(contains(e, "tolerance_mm") && contains(e, "out of range") && contains(e, "[0, 10] mm"), e.c_str());
    e = errorOf(s, "patch.curvedSamples=3.5");
    QVERIFY2(contains(e, "curvedSamples") && contains(e, "not an integer"), e.c_str());
    e = errorOf(s, "patch.tolerance_mm=0,2");
    QVERIFY2(contains(e, "'0,2'") && contains(e, "not a number"), e.c_str());
    e = errorOf(s, "penalty.clampNormalForce=maybe");
    QVERIFY2(contains(e, "clampNormalForce") && contains(e, "true or false"), e.c_str());
    e = errorOf(s, "patch.nope=1");
    QVERIFY2(contains(e, "'nope'") && contains(e, "tolerance_mm"), e.c_str());
    e = errorOf(s, "point.edges=4");
    QVERIFY2(contains(e, "'point'") && contains(e, "has none"), e.c_str());
    e = errorOf(s, "unknown.x=1");
    QVERIFY2(contains(e, "'unknown'") && contains(e, "soft-finger"), e.c_str());
    e = errorOf(s, "tolerance_mm=1");
    QVERIFY2(contains(e, "MODEL.KEY=VALUE"), e.c_str());
    QVERIFY(modelParametersAtDefaults(s));  // nothing was changed by a refused value
    std::string problem;
    // parameters() returns by value: keep the list alive while its element is used.
    const std::vector<ModelParameter> declared = findContactModel(sgtest::kTestOnlyModel)->parameters();
    const ModelParameter* gain = findModelParameter(declared, "gain");
    QVERIFY(gain);
    QCOMPARE(parseParameterText(*gain, "12", problem, /*clampToRange=*/true).value_or(-1), 10.0);
  }

  // Registered here only: listed, found, its one parameter in the generic store and read by evaluate().
  void testOnlyModelIsRegistered() {
    QVERIFY(contains(contactModelNames(), "test-only"));
    const ContactModel* m = findContactModel("test-only");
    QVERIFY(m);
    QCOMPARE(contactModels().back(), m);  // after the built-in ones
    QVERIFY_THROWS_EXCEPTION(Error, registerContactModel(nullptr));
    sgtest::registerTestOnlyContactModel();  // a second call registers nothing
    QCOMPARE(std::count(contactModels().begin(), contactModels().end(), m), 1);

    ContactModelSettings s;
    QCOMPARE(modelParameter(s, *m, "gain"), 1.0);  // the declared default
    QVERIFY_THROWS_EXCEPTION(Error, modelParameter(s, *m, "loss"));
    applyModelParameterAssignment(s, "test-only.gain=2.5");
    QCOMPARE(s.modelValues.at("test-only").at("gain"), 2.5);
    const std::string e = errorOf(s, "test-only.gain=11");
    QVERIFY2(contains(e, "test-only.gain = 11 is out of range") && contains(e, "[0, 10] N"), e.c_str());
    QCOMPARE(s.modelValues.at("test-only").at("gain"), 2.5);  // kept

    World world;
    Contact c;
    c.side1.body = {BodyHandle::Kind::Graspable, 0, {}};
    c.side2.body = {BodyHandle::Kind::Obstacle, 0, {}};
    c.muStatic = 0.5;
    const std::vector<Contact> contacts = {c, c};
    const std::vector<int> sources = {0, 1};
    NullProgress progress;
    const auto result = m->evaluate({world, world.state, 0, contacts, sources}, s, progress);
    QCOMPARE(result->contacts.size(), std::size_t(2));
    for (const ModelContact& mc : result->contacts) {
      QCOMPARE(mc.normalForce_N, 2.5);
      QCOMPARE(mc.kind, ContactKind::PointWithFriction);
      QCOMPARE(mc.frictionEdges.size(), std::size_t(8));
    }
  }
};

QTEST_GUILESS_MAIN(TestModelParameters)
#include "tst_model_parameters.moc"
