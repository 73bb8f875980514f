// One analysis for every caller (src/grasp/Analysis.h): progress only moves forward (each model its own slice
// of the bar, each measure its slice of the model's), the model comparison runs analyzeGrasp on the given
// contacts, and a contact model registered by this test alone (registerContactModel) appears in the
// comparison with its self-description; a model that fails gives a column with its error.
#include <QtTest>

#include <memory>

#include "../support/GraspedDefaultWorld.h"
#include "contact/ContactModel.h"
#include "core/Error.h"
#include "grasp/ModelComparison.h"
#include "io/ModelIO.h"

using namespace sg;

namespace {

// The test model's result: one made-up quantity per contact, and a model-wide count.
struct ViewsTestResult : ContactModelResult {
  Json describeContact(std::size_t i) const override {
    Json o = Json::object();
    o.set("testLength_mm", 0.5 + static_cast<double>(i));
    return o;
  }
  Json describe() const override {
    Json o = Json::object();
    o.set("contactCount", static_cast<int>(contacts.size()));
    return o;
  }
};

// Every contact a point contact with friction; reports progress from 0 to 1 over the contacts.
class ViewsTestModel final : public ContactModel {
 public:
  std::string name() const override { return "views-test"; }
  std::string label() const override { return "Views test model"; }
  std::string description() const override { return "point contacts, registered by tst_analysis_progress only"; }
  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink& progress) const override {
    auto out = std::make_unique<ViewsTestResult>();
    for (std::size_t i = 0; i < in.contacts.size(); ++i) {
      progress.report(static_cast<double>(i) / static_cast<double>(in.contacts.size()), "views test");
      out->contacts.push_back(pointModelContact(in.contacts[i], in.graspable, in.sourceIndices[i], false, settings.edges));
    }
    progress.report(1.0, "views test");
    return out;
  }
};

class FailingTestModel final : public ContactModel {
 public:
  std::string name() const override { return "views-failing"; }
  std::string label() const override { return "Failing test model"; }
  std::string description() const override { return "always throws"; }
  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput&, const ContactModelSettings&,
                                               ProgressSink& progress) const override {
    progress.report(0.7, "about to fail");
    throw Error("the failing test model fails");
  }
};

// Every report, in order.
class Recorder final : public ProgressSink {
 public:
  void report(double fraction, std::string_view) override { fractions.push_back(fraction); }
  bool cancelRequested() const override { return false; }
  std::vector<double> fractions;

  // "" when the reports never decrease, stay in [0, 1] and end at 1; else the first offence.
  QString problem() const {
    if (fractions.empty()) return "no reports";
    for (std::size_t k = 0; k < fractions.size(); ++k) {
      if (fractions[k] < 0 || fractions[k] > 1) return QString("report %1 is %2").arg(k).arg(fractions[k]);
      if (k && fractions[k] < fractions[k - 1])
        return QString("report %1 goes back from %2 to %3").arg(k).arg(fractions[k - 1]).arg(fractions[k]);
    }
    if (fractions.back() != 1.0) return QString("ends at %1").arg(fractions.back());
    return {};
  }
};


}  // namespace

class TstAnalysisProgress : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    registerContactModel(std::make_unique<ViewsTestModel>());
    registerContactModel(std::make_unique<FailingTestModel>());
    QVERIFY_THROWS_EXCEPTION(Error, registerContactModel(std::make_unique<ViewsTestModel>()));  // name taken
    QVERIFY(findContactModel("views-test"));
    QVERIFY(QString::fromStdString(contactModelNames()).contains("views-test"));
    world_ = sgtest::graspedDefaultWorld();
  }

  void analysisProgressOnlyMovesForward() {
    AnalysisRequest request;
    request.contactModels = {"soft-finger", "hertz", "views-test", "point"};  // each reports 0 → 1 itself
    Recorder progress;
    const AnalysisResult r = analyzeGrasp(world_, request, progress);
    QCOMPARE(r.evaluations.size(), std::size_t(4));
    QVERIFY2(progress.problem().isEmpty(), qPrintable(progress.problem()));
    QVERIFY(progress.fractions.size() > 8);  // the models' own reports came through
  }

  void comparisonProgressOnlyMovesForward() {
    const AnalysisResult found = analyzeGrasp(world_, AnalysisRequest{}, none_);
    Recorder progress;
    const ModelComparison c =
        compareModels(world_, world_.state, found.contacts, found.graspable, QualitySettings{}, {}, progress);
    QVERIFY2(progress.problem().isEmpty(), qPrintable(progress.problem()));
    QCOMPARE(c.columns.size(), contactModels().size());
  }

  void registeredTestModelIsAColumnWithItsDescription() {
    const AnalysisResult found = analyzeGrasp(world_, AnalysisRequest{}, none_);
    QVERIFY(!found.contacts.empty());
    ComparisonRequest request;  // every registered model, the test's included
    NullProgress progress;
    const ModelComparison c =
        compareModels(world_, world_.state, found.contacts, found.graspable, QualitySettings{}, request, progress);
    const ModelColumn* test = c.column("views-test");
    QVERIFY(test);
    QVERIFY(test->ok);
    QCOMPARE(test->label, std::string("Views test model"));
    // Its evaluation: every hand contact on the mug a point contact, its measures computed like the others'.
    QVERIFY(!test->evaluation.contacts.empty());
    QVERIFY(test->measure("epsilon-l1"));
    // Point contacts with friction, as the "point" model makes them: the same ε.
    const ModelColumn* point = c.column("point");
    QVERIFY(point && test->measure("epsilon-l1")->value == point->measure("epsilon-l1")->value);
    // Its self-description reaches every view through the evaluation's result.
    const ContactModelResult& result = *test->evaluation.modelResult;
    QCOMPARE(result.describeContact(1).at("testLength_mm", "").number(""), 1.5);
    QCOMPARE(result.describe().at("contactCount", "").number(""), static_cast<double>(result.contacts.size()));
  }

  void failingModelIsAColumnWithItsError() {
    const AnalysisResult found = analyzeGrasp(world_, AnalysisRequest{}, none_);
    ComparisonRequest request;
    request.models = {"point", "views-failing", "views-test"};
    Recorder progress;
    const ModelComparison c =
        compareModels(world_, world_.state, found.contacts, found.graspable, QualitySettings{}, request, progress);
    QCOMPARE(c.columns.size(), std::size_t(3));
    const ModelColumn* failing = c.column("views-failing");
    QVERIFY(failing);
    QVERIFY2(!failing->ok, qPrintable(QString("%1 contacts evaluated").arg(failing->evaluation.contacts.size())));
    QCOMPARE(failing->error, std::string("the failing test model fails"));
    QVERIFY(failing->evaluation.contacts.empty());
    QVERIFY(c.column("point")->ok && c.column("views-test")->ok);
    QVERIFY2(progress.problem().isEmpty(), qPrintable(progress.problem()));
    // The analysis itself fails on it unless asked to keep going.
    AnalysisRequest analysis;
    analysis.contactModels = {"views-failing"};
    NullProgress quiet;
    QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world_, analysis, quiet));
    // Given contacts need the graspable.
    analysis.contactModels = {"point"};
    analysis.contacts = found.contacts;
    QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world_, analysis, quiet));
  }

 private:
  World world_;
  NullProgress none_;
};

QTEST_GUILESS_MAIN(TstAnalysisProgress)
#include "tst_analysis_progress.moc"
