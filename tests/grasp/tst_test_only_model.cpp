// The contact model registered only by the tests (tests/support/TestOnlyContactModel.h) reaches the engine's
// other doors with no edit outside its file: the model comparison (a column, its own normal force, the same ε as
// the built-in point model it imitates) and the analysis JSON (an evaluation named after it, with its own data
// under "model"). Its name, settings file group, dialog page and --model-param are covered by
// tests/contact/tst_model_parameters, tests/app/tst_ui_model_settings and tests/cli/tst_cli_model_param.
#include <QtTest>

#include "../support/GraspedDefaultWorld.h"
#include "../support/TestOnlyContactModel.h"
#include "contact/ContactModel.h"
#include "contact/ModelParameter.h"
#include "core/Error.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "grasp/AnalysisJson.h"
#include "grasp/ModelComparison.h"
#include "io/ModelIO.h"

using namespace sg;

class TstTestOnlyModel : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    sgtest::registerTestOnlyContactModel();
    world_ = sgtest::graspedDefaultWorld();
    settings_.modelValues[sgtest::kTestOnlyModel]["gain"] = 3.5;  // not the default (1)
  }

  void isAComparisonColumn() {
    const AnalysisResult found = analyzeGrasp(world_, AnalysisRequest{}, quiet_);
    QVERIFY(found.contacts.size() >= 3);
    ComparisonRequest request;  // every registered model: the built-ins and the test's
    const ModelComparison c =
        compareModels(world_, world_.state, found.contacts, found.graspable, settings_, request, quiet_);
    QCOMPARE(c.columns.size(), contactModels().size());
    const ModelColumn* test = c.column(sgtest::kTestOnlyModel);
    const ModelColumn* point = c.column("point");
    QVERIFY(test && point);
    QVERIFY2(test->ok, test->error.c_str());
    QCOMPARE(test->evaluation.contacts.size(), point->evaluation.contacts.size());
    for (const ContactEvaluation& e : test->evaluation.contacts) QCOMPARE(e.normalForce_N, 3.5);
    // Point contacts with friction, as "point" makes them: the same wrenches, hence the same ε.
    QVERIFY(test->measure("epsilon-l1") && point->measure("epsilon-l1"));
    QCOMPARE(test->measure("epsilon-l1")->value, point->measure("epsilon-l1")->value);
  }

  void isInTheAnalysisJson() {
    AnalysisRequest request;
    request.quality = settings_;
    request.contactModels = {"point", sgtest::kTestOnlyModel};
    request.measures = {"epsilon-l1"};
    const AnalysisResult r = analyzeGrasp(world_, request, quiet_);
    QCOMPARE(r.evaluations.size(), std::size_t(2));
    AnalysisJsonInput in{"default.xml", world_, r.contacts, r.graspable, {}, settings_, 0, {}};
    for (const GraspEvaluation& e : r.evaluations) in.evaluations.push_back(&e);
    // Through the text, as a reader of the file sees it.
    const Json doc = Json::parse(analysisJson(in).dump());
    const auto& evaluations = doc.at("evaluations", "").items("");
    QCOMPARE(evaluations.size(), std::size_t(2));
    const Json& test = evaluations[1];
    QCOMPARE(test.at("contactModel", "").string(""), std::string(sgtest::kTestOnlyModel));
    const auto& contacts = test.at("contacts", "").items("");
    QCOMPARE(contacts.size(), r.evaluations[1].contacts.size());
    for (const Json& c : contacts) QCOMPARE(c.at("model", "").at("gain_N", "").number(""), 3.5);
    QCOMPARE(test.at("model", "").at("contactCount", "").number(""), static_cast<double>(contacts.size()));
    QCOMPARE(test.at("measures", "").at("epsilon-l1", "").at("value", "").number(""),
             evaluations[0].at("measures", "").at("epsilon-l1", "").at("value", "").number(""));
  }

  void outOfRangeGainIsAnError() {
    ContactModelSettings bad = settings_;
    bad.modelValues[sgtest::kTestOnlyModel]["gain"] = 11;  // above the declared maximum 10
    AnalysisRequest request;
    static_cast<ContactModelSettings&>(request.quality) = bad;
    request.contactModels = {sgtest::kTestOnlyModel};
    QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world_, request, quiet_));
  }

 private:
  World world_;
  QualitySettings settings_;
  NullProgress quiet_;
};

QTEST_MAIN(TstTestOnlyModel)
#include "tst_test_only_model.moc"
