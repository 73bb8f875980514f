// The CLI's analysis options in process, with a contact model registered only by this test
// (tests/support/TestOnlyContactModel.h): --contact-model accepts and lists it, --model-param sets its own
// parameter and the built-in models' ones, checked against the declarations, and --settings reads its group.
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

#include "../support/TestOnlyContactModel.h"
#include "AnalysisOptions.h"

using namespace sg;
using namespace sg::cli;

namespace {

AnalysisRequest requestFor(const std::vector<std::string>& argv) {
  CommandSyntax syntax;
  syntax.options.push_back(analysis_options::contactModel());
  for (const OptionSpec& o : analysis_options::qualitySettings()) syntax.options.push_back(o);
  const InputFile model;  // an empty world: no robot, no graspable
  return analysisRequest(parseArguments(syntax, argv), model, /*closeByDefault=*/false);
}

std::string usageErrorOf(const std::vector<std::string>& argv) {
  try {
    requestFor(argv);
  } catch (const UsageError& e) {
    return e.what();
  }
  return {};
}

double gainOf(const AnalysisRequest& r) { return modelParameter(r.quality, *findContactModel("test-only"), "gain"); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

class TestCliModelParam : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { sgtest::registerTestOnlyContactModel(); }

  void contactModelListsIt() {
    QVERIFY(contains(analysis_options::contactModel().help, "test-only"));
    const AnalysisRequest r = requestFor({"--contact-model", "point,test-only"});
    QCOMPARE(r.contactModels, (std::vector<std::string>{"point", "test-only"}));
    QCOMPARE(gainOf(r), 1.0);  // its declared default
  }

  void modelParamSetsValues() {
    std::string help;
    for (const OptionSpec& o : analysis_options::qualitySettings())
      if (o.name == "--model-param") help = o.help;
    QVERIFY2(contains(help, "test-only.gain") && contains(help, "patch.tolerance_mm"), help.c_str());

    const AnalysisRequest r = requestFor({"--contact-model", "test-only", "--model-param", "test-only.gain=4.5",
                                          "--model-param=patch.tolerance_mm=0.5", "--model-param",
                                          "penalty.clampNormalForce=false"});
    QCOMPARE(gainOf(r), 4.5);
    QCOMPARE(r.quality.patch.tolerance_mm, 0.5);
    QCOMPARE(r.quality.penalty.clampNormalForce, false);
  }

  void modelParamRejectsBadValues() {
    std::string e = usageErrorOf({"--model-param", "test-only.gain=11"});
    QVERIFY2(contains(e, "--model-param: test-only.gain = 11 is out of range") && contains(e, "[0, 10] N"), e.c_str());
    e = usageErrorOf({"--model-param", "test-only.loss=1"});
    QVERIFY2(contains(e, "'loss'") && contains(e, "gain"), e.c_str());
    e = usageErrorOf({"--model-param", "nobody.gain=1"});
    QVERIFY2(contains(e, "'nobody'") && contains(e, "test-only"), e.c_str());
    e = usageErrorOf({"--model-param", "test-only.gain=abc"});
    QVERIFY2(contains(e, "'abc' is not a number"), e.c_str());
  }

  // --settings FILE: the model's group is read; an explicit --model-param overrides it.
  void settingsFileGroup() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("settings.ini").toStdString();
    std::ofstream(path) << "[analysis]\ncontactModel=test-only\n[test-only]\ngain=6\n";
    AnalysisRequest r = requestFor({"--settings", path});
    QCOMPARE(r.contactModels, std::vector<std::string>{"test-only"});
    QCOMPARE(gainOf(r), 6.0);
    r = requestFor({"--settings", path, "--model-param", "test-only.gain=2"});
    QCOMPARE(gainOf(r), 2.0);
    std::ofstream(path) << "[test-only]\ngain=lots\n";
    try {
      requestFor({"--settings", path});
      QFAIL("a malformed value was accepted");
    } catch (const Error& e) {
      QVERIFY2(contains(e.what(), "[test-only] gain = 'lots' is not a number") && contains(e.what(), path),
               e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestCliModelParam)
#include "tst_cli_model_param.moc"
