// The engine's one analysis-to-JSON (src/grasp/AnalysisJson.h) and the geometry values it is built from
// (src/core/JsonGeometry.h): analytic values, one key order, null for missing values, the primary model at the top
// level equal to its "evaluations" entry, and a text round trip through the parser.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/JsonGeometry.h"
#include "grasp/Analysis.h"
#include "grasp/AnalysisJson.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

std::vector<std::string> keysOf(const Json& o) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : o.members("object")) keys.push_back(k);
  return keys;
}

double num(const Json& o, const std::string& key) { return o.at(key, "test").number(key); }

}  // namespace

class TstAnalysisJson : public QObject {
  Q_OBJECT
 private slots:
  void poseIsAnalytic() {
    const double s = std::sqrt(0.5);
    const Transform X(Quat(s, 0, 0, s), Vec3(1, 2, 3));  // 90° about z
    const Json pose = jsonPose(X);
    QCOMPARE(keysOf(pose), (std::vector<std::string>{"position_mm", "quaternion_wxyz", "rotation", "fullTransform"}));
    const auto& p = pose.at("position_mm", "t").items("p");
    QCOMPARE(p.size(), std::size_t(3));
    QCOMPARE(p[2].number("z"), 3.0);
    const auto& q = pose.at("quaternion_wxyz", "t").items("q");
    QCOMPARE(q[0].number("w"), s);
    QCOMPARE(q[3].number("z"), s);
    const auto& rows = pose.at("rotation", "t").items("rows");
    // R = [[0 -1 0] [1 0 0] [0 0 1]]
    QVERIFY(std::abs(rows[0].items("r0")[1].number("r01") + 1) < 1e-12);
    QVERIFY(std::abs(rows[1].items("r1")[0].number("r10") - 1) < 1e-12);
    QVERIFY(std::abs(rows[2].items("r2")[2].number("r22") - 1) < 1e-12);
    QCOMPARE(jsonCount(std::size_t(9261)).number("n"), 9261.0);
  }

  // A measure without a value is null, never a stand-in 0; NaN is null too; bounds come with the ε's.
  void measuresWithoutValuesAreNull() {
    GraspEvaluation e;
    MeasureValue missing{"volume-l1", 0, false, "hull not built", std::nullopt};
    MeasureValue nan{"min-singular-value", std::numeric_limits<double>::quiet_NaN(), true, "", std::nullopt};
    MeasureBounds b;
    b.lower = 0.25;
    b.upper = 0.5;
    b.iterations = 7;
    b.status = "converged";
    MeasureValue eps{"epsilon-l1", 0.25, true, "", b};
    e.measures = {missing, nan, eps};
    const Json m = measuresJson(e);
    // In computation order.
    QCOMPARE(keysOf(m), (std::vector<std::string>{"volume-l1", "min-singular-value", "epsilon-l1"}));
    QVERIFY(m.at("volume-l1", "t").at("value", "t").isNull());
    QCOMPARE(m.at("volume-l1", "t").at("message", "t").string("m"), std::string("hull not built"));
    // NaN is written as null: the text read back holds null.
    QVERIFY(Json::parse(m.dump()).at("min-singular-value", "t").at("value", "t").isNull());
    const Json& e1 = m.at("epsilon-l1", "t");
    QCOMPARE(num(e1, "value"), 0.25);
    QCOMPARE(num(e1, "gap"), 0.25);  // upper - lower
    QCOMPARE(num(e1, "iterations"), 7.0);
    QVERIFY(!m.at("volume-l1", "t").find("lowerBound"));
    QVERIFY(m.dump().find("NaN") == std::string::npos && m.dump().find("nan") == std::string::npos);
  }

  // Three contacts of 20 wrenches each: the L∞ sum needs up to 21³ points, above a limit of 2000.
  void lInfinityHullOverItsLimit() {
    GraspEvaluation e;
    e.contacts.resize(3);
    for (ContactEvaluation& c : e.contacts) c.wrenches.assign(20, Vec6::Zero());
    QCOMPARE(lInfinityPointBound(e), 9261.0);
    GraspWrenchSpace gws;
    gws.type = GwsType::LInfinity;
    gws.limitExceeded = true;
    QualitySettings settings;
    settings.gws.maxLInfinityPoints = 2000;
    const Json hull = hullJson(e, gws, GraspQuality{}, settings);
    QCOMPARE(hull.at("built", "t").boolean("built"), false);
    QCOMPARE(num(hull, "pointsNeeded"), 9261.0);
    QCOMPARE(num(hull, "pointLimit"), 2000.0);
    QVERIFY(hull.at("message", "t").string("m").find("9261 points") != std::string::npos);
  }

  // The default world grasped under two models: one document, every number as the engine computed it.
  void documentOfTheDefaultGrasp() {
    World world = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    AnalysisRequest request;
    request.motion.approach = true;
    request.motion.fingers = FingerMotion::Close;
    request.contactModels = {"soft-finger", "point"};
    request.measures = {"epsilon-l1", "volume-l1", "epsilon-linf"};
    NullProgress progress;
    const AnalysisResult r = runAnalysis(world, request, progress);
    QCOMPARE(r.evaluations.size(), std::size_t(2));
    const Json doc = analysisJson({.file = "/w.xml",
                                   .world = world,
                                   .contacts = r.contacts,
                                   .graspable = r.graspable,
                                   .evaluations = {&r.evaluations[0], &r.evaluations[1]},
                                   .settings = request.quality,
                                   .robot = 0,
                                   .warnings = {"a warning"}});
    // The tag first (src/core/JsonFormat.h), then the analysis.
    QCOMPARE(keysOf(doc), (std::vector<std::string>{"format", "version", "file", "graspable", "robot", "dofs",
                                                    "contactsFound", "found", "contactModel", "torqueScale_mm",
                                                    "contacts", "forceClosure", "measures", "hulls", "model",
                                                    "evaluations", "warnings"}));
    QCOMPARE(doc.at("graspable", "t").string("g"), std::string("mug"));
    QCOMPARE(doc.at("dofs", "t").items("dofs").size(), world.state.robots[0].dofValues.size());
    QCOMPARE(num(doc, "contactsFound"), static_cast<double>(r.contacts.size()));
    // "found": every contact, its index, and what the primary model made of it.
    const auto& found = doc.at("found", "t").items("found");
    QCOMPARE(found.size(), r.contacts.size());
    for (std::size_t i = 0; i < found.size(); ++i) QCOMPARE(num(found[i], "index"), static_cast<double>(i));
    const GraspEvaluation& soft = r.evaluations[0];
    for (const ContactEvaluation& c : soft.contacts)
      QCOMPARE(found[static_cast<std::size_t>(c.sourceContacts.front())].at("friction", "t").string("f"),
               std::string(toString(c.kind)));
    // The evaluated contacts: the kind, the model's own tree under "model" (an object: the soft fits).
    const auto& contacts = doc.at("contacts", "t").items("contacts");
    QCOMPARE(contacts.size(), soft.contacts.size());
    for (std::size_t i = 0; i < contacts.size(); ++i) {
      QCOMPARE(contacts[i].at("kind", "t").string("k"), std::string("soft-finger"));
      QCOMPARE(contacts[i].at("model", "t").type(), Json::Type::Object);
      QVERIFY(contacts[i].at("model", "t").find("fit1"));  // the soft finger describes its fits there
      QCOMPARE(num(contacts[i], "frictionEdgeCount"), static_cast<double>(soft.contacts[i].frictionEdges.size()));
    }
    // Every measure once, the engine's values and bounds.
    for (const MeasureValue& m : soft.measures) {
      const Json& v = doc.at("measures", "t").at(m.measure, "t");
      QCOMPARE(num(v, "value"), m.value);
      if (m.bounds) QCOMPARE(num(v, "lowerBound"), m.bounds->lower);
    }
    QCOMPARE(doc.at("forceClosure", "t").boolean("fc"), soft.forceClosure());
    QVERIFY(doc.at("hulls", "t").find("l1"));  // volume-l1 built it
    // The primary model at the top level is its "evaluations" entry; the second model follows.
    const auto& evaluations = doc.at("evaluations", "t").items("evaluations");
    QCOMPARE(evaluations.size(), std::size_t(2));
    for (const auto& [key, value] : evaluations[0].members("e0")) QCOMPARE(doc.at(key, "t").dump(), value.dump());
    QCOMPARE(evaluations[1].at("contactModel", "t").string("m"), std::string("point"));
    QCOMPARE(evaluations[1].at("contacts", "t").items("c")[0].at("kind", "t").string("k"),
             std::string("point-with-friction"));
    QCOMPARE(doc.at("warnings", "t").items("w")[0].string("w"), std::string("a warning"));
    // One text form: parsed back it writes the same bytes.
    QCOMPARE(Json::parse(doc.dump()).dump(), doc.dump());
  }
};

QTEST_MAIN(TstAnalysisJson)
#include "tst_analysis_json.moc"
