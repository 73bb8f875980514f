// G in the application and `softgrasp-cli quality --approach --autograsp --json` are the same engine calls
// (moveHand + analyzeGrasp): on every bundled world they must agree on the grasp's contacts (same order, same
// points), ε (L1, L∞, exact cones, with their bounds) and volume of the L1 space, and the final DOF values.
//
// Extra worlds: SG_PARITY_EXTRA_WORLDS, a ':'-separated list of world files, adds one row per file to the same
// data-driven test (row name "extra:<file name>"). Use it for files that may not be committed here, e.g.
// GraspIt!'s worlds/plannerMug.xml fetched into a scratch tree (src/io/GRASPIT_FILES_TRIED.md):
//   SG_PARITY_EXTRA_WORLDS=/tmp/graspit/worlds/plannerMug.xml ctest -R parity --output-on-failure
// Unset or empty: only the bundled worlds run. A named file that does not exist fails its row.
#include <QAction>
#include <cmath>
#include <optional>
#include <string>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "AnalysisExport.h"
#include "AnalysisSettingsDialog.h"
#include <QTemporaryDir>
#include <QtTest>

#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "GraspedDefaultWorld.h"
#include "MessageBoxCloser.h"
#include "Commands.h"
#include "../support/AppTestSetup.h"
#include "../support/JitteredGraspStates.h"
#include "../support/TestPaths.h"

using namespace sg;

class TstAppCliParity : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { test::useTemporarySettings(settingsDir_); }
  void gAndCliAgree_data();
  void gAndCliAgree();
  void exportedSettingsGiveTheSameAnalysis();
  void exportEqualsCliQuality();
  void dragIsWarmAndExportIsCold();
  void filesOpenAsInTheCli();

 private:
  QTemporaryDir settingsDir_;
};

void TstAppCliParity::gAndCliAgree_data() {
  QTest::addColumn<QString>("world");
  const QDir worlds(sg::test::qInSourceTree("worlds"));
  const QStringList files = worlds.entryList({"*.xml"}, QDir::Files, QDir::Name);
  QVERIFY(files.size() >= 5);
  for (const QString& f : files) QTest::newRow(qPrintable(f)) << worlds.filePath(f);
  const QString extra = qEnvironmentVariable("SG_PARITY_EXTRA_WORLDS");
  for (const QString& path : extra.split(QLatin1Char(':'), Qt::SkipEmptyParts))
    QTest::newRow(qPrintable("extra:" + QFileInfo(path).fileName())) << path;
}

void TstAppCliParity::gAndCliAgree() {
  QFETCH(QString, world);
  QVERIFY2(QFileInfo::exists(world), qPrintable(world + " does not exist"));
  // The application: open, press G (approach 30 mm, then auto-grasp), analyse.
  app::MainWindow window;
  QVERIFY(window.openWorldFile(world));
  // A world without a hand (the objects gallery) is analysed as it is, by both.
  const bool hasHand = !window.document()->world().robots.empty();
  auto* g = window.findChild<QAction*>("actionApproachAndGrasp");
  QVERIFY(g);
  if (hasHand) g->trigger();
  window.analysis()->recompute();
  QVERIFY(QTest::qWaitFor([&] { return !window.analysis()->l1HullPending(); }, 30000));  // volume-l1: background
  const auto& evaluation = window.analysis()->evaluation();

  // The CLI on the same file.
  QProcess cli;
  QStringList args = {"quality", world, "--json"};
  if (hasHand) args << "--approach" << "--autograsp";
  cli.start(sg::test::qCliPath(), args);
  QVERIFY(cli.waitForFinished(120000));
  QCOMPARE(cli.exitCode(), 0);
  const QJsonObject doc = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();

  QCOMPARE(doc["contactsFound"].toInt(), static_cast<int>(window.analysis()->contacts().size()));
  if (hasHand) {
    const QJsonArray dofs = doc["dofs"].toArray();
    const Robot& hand = window.document()->world().robots.at(0);
    QCOMPARE(dofs.size(), static_cast<qsizetype>(hand.dofs.size()));
    for (qsizetype k = 0; k < dofs.size(); ++k)
      QCOMPARE(dofs[k].toDouble(), window.document()->world().state.robots.at(0).dofValues[static_cast<std::size_t>(k)]);
  }

  QVERIFY(evaluation.has_value());
  const QJsonArray contacts = doc["contacts"].toArray();
  QCOMPARE(contacts.size(), static_cast<qsizetype>(evaluation->contacts.size()));
  for (qsizetype i = 0; i < contacts.size(); ++i) {
    const ContactEvaluation& c = evaluation->contacts[static_cast<std::size_t>(i)];
    const QJsonObject json = contacts[i].toObject();
    QCOMPARE(json["contacts"].toArray().first().toInt(), c.sourceContacts.front());
    const QJsonArray p = json["position_mm"].toArray();
    for (int k = 0; k < 3; ++k) QCOMPARE(p[k].toDouble(), c.onObject().p_WC_mm[k]);
    QCOMPARE(json["kind"].toString(), QString(toString(c.kind)));
  }
  const QJsonObject measures = doc["measures"].toObject();
  // The window's ε may be warm-started (the cold value to the solver's gap); what the application exports is the
  // cold analysis, the CLI's to the bit (src/grasp/QUALITY.md §Live warm and export cold).
  const std::optional<GraspEvaluation> coldEvaluation = window.analysis()->exportEvaluation();
  QVERIFY(coldEvaluation.has_value());
  for (const char* name : {"epsilon-l1", "volume-l1", "epsilon-linf", "epsilon-exact", "min-singular-value"}) {
    const MeasureValue* m = coldEvaluation->measure(name);
    const MeasureValue* live = evaluation->measure(name);
    QVERIFY2(m && live, name);
    QCOMPARE(measures[name].toObject()["value"].toDouble(), m->value);
    const double gap = std::string(name) == "epsilon-exact" ? coldEvaluation->exactConeRelativeGap : 1e-9;
    QVERIFY2(std::abs(live->value - m->value) <= 2 * gap * std::abs(m->value) + 1e-12, name);
    if (m->bounds) {  // the ε's: the same certified bounds
      QCOMPARE(measures[name].toObject()["lowerBound"].toDouble(), m->bounds->lower);
      QCOMPARE(measures[name].toObject()["upperBound"].toDouble(), m->bounds->upper);
      QCOMPARE(measures[name].toObject()["iterations"].toInt(), m->bounds->iterations);
    }
  }
  QCOMPARE(doc["forceClosure"].toBool(), evaluation->forceClosure());
  // File > Export writes each measure as the CLI does: one value (null when there is none), the ε's bounds.
  QTemporaryDir out;
  QVERIFY(app::exportAnalysisJson(*window.document(), *window.analysis(), out.filePath("a.json")));
  QFile exported(out.filePath("a.json"));
  QVERIFY(exported.open(QIODevice::ReadOnly));
  const QJsonObject appMeasures = QJsonDocument::fromJson(exported.readAll()).object()["measures"].toObject();
  QVERIFY(!appMeasures.isEmpty());
  for (const QString& name : appMeasures.keys()) {
    const QJsonObject a = appMeasures[name].toObject(), c = measures[name].toObject();
    for (const char* key : {"label", "value", "ok", "lowerBound", "upperBound", "gap", "iterations", "converged", "status"})
      QVERIFY2(a[key] == c[key], qPrintable(name + " " + key));
  }
  QCOMPARE(evaluation->forceClosure(), evaluation->l1Quality.forceClosure);
}

// The settings the application uses, exported (Quality > Export Analysis Settings), make
// `softgrasp-cli quality --settings FILE` compute what the window shows.
void TstAppCliParity::exportedSettingsGiveTheSameAnalysis() {
  const QString world = sg::test::qInSourceTree("worlds/default.xml");
  app::MainWindow window;
  QVERIFY(window.openWorldFile(world));
  app::AnalysisSettings s = window.analysis()->settings();
  s.contactModel = "hertz";
  s.quality.soft.patch.normalForce_N = 7.5;
  s.collision.contacts.threshold_mm = 0.3;
  s.quality.soft.fit.estimator = CurvatureEstimator::GraspItParaboloid;  // not the default
  window.analysis()->setSettings(s);
  window.findChild<QAction*>("actionApproachAndGrasp")->trigger();
  window.analysis()->recompute();
  QVERIFY(QTest::qWaitFor([&] { return !window.analysis()->l1HullPending(); }, 30000));  // volume-l1: background
  QVERIFY(window.analysis()->evaluation());
  QTemporaryDir dir;
  const QString file = dir.filePath("settings.ini");
  QVERIFY(app::exportAnalysisSettings(window.analysis()->settings(), file));

  auto run = [&](QStringList extra) {
    QProcess cli;
    cli.start(sg::test::qCliPath(), QStringList{"quality", world, "--json", "--approach", "--autograsp"} + extra);
    cli.waitForFinished(120000);
    return QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
  };
  const QJsonObject doc = run({"--settings", file});
  QCOMPARE(doc["contactModel"].toString(), QString("hertz"));
  QCOMPARE(doc["contactsFound"].toInt(), static_cast<int>(window.analysis()->contacts().size()));
  for (const char* name : {"epsilon-l1", "volume-l1", "epsilon-linf"}) {
    const MeasureValue* m = window.analysis()->evaluation()->measure(name);
    QVERIFY2(m, name);
    QCOMPARE(doc["measures"].toObject()[name].toObject()["value"].toDouble(), m->value);
  }
  const MeasureValue* volume = window.analysis()->evaluation()->measure("volume-l1");
  // Without the file the CLI uses the defaults: another value.
  const QJsonObject defaults = run({});
  QCOMPARE(defaults["contactModel"].toString(), QString("soft-finger"));
  QVERIFY(defaults["measures"].toObject()["volume-l1"].toObject()["value"].toDouble() != volume->value);
  // Explicit options override the file.
  QCOMPARE(run({"--settings", file, "--contact-model", "soft-finger"})["contactModel"].toString(), QString("soft-finger"));
  // The curvature estimator travels with the file; --curvature overrides it.
  auto firstFitEstimator = [](const QJsonObject& d) {
    return d["contacts"].toArray().first().toObject()["model"].toObject()["fit1"].toObject()["estimator"].toString();
  };
  QCOMPARE(firstFitEstimator(doc), QString("GraspIt! paraboloid"));
  QCOMPARE(firstFitEstimator(defaults), QString("osculating jet"));
  QCOMPARE(firstFitEstimator(run({"--settings", file, "--curvature", "jet"})), QString("osculating jet"));
}

namespace {

// "" when equal, else the JSON path of the first difference (objects compared by key, whatever their order).
QString firstDifference(const QJsonValue& a, const QJsonValue& b, const QString& path) {
  if (a.type() != b.type()) return path + " (type)";
  if (a.isObject()) {
    const QJsonObject x = a.toObject(), y = b.toObject();
    if (x.keys() != y.keys()) return path + " keys: " + x.keys().join(',') + " | " + y.keys().join(',');
    for (const QString& k : x.keys())
      if (QString d = firstDifference(x[k], y[k], path + "." + k); !d.isEmpty()) return d;
    return {};
  }
  if (a.isArray()) {
    const QJsonArray x = a.toArray(), y = b.toArray();
    if (x.size() != y.size()) return path + " (size)";
    for (qsizetype i = 0; i < x.size(); ++i)
      if (QString d = firstDifference(x[i], y[i], path + "[" + QString::number(i) + "]"); !d.isEmpty()) return d;
    return {};
  }
  return a == b ? QString() : path;
}

struct CliRun {
  int exitCode = -1;
  QByteArray out, err;
};
CliRun runCli(const QStringList& args) {
  QProcess cli;
  cli.start(sg::test::qCliPath(), args);
  cli.waitForFinished(120000);
  return {cli.exitCode(), cli.readAllStandardOutput(), cli.readAllStandardError()};
}

}  // namespace

// File > Export Analysis writes the engine's analysis document (src/grasp/AnalysisJson.h): for the grasped default
// world, saved, it is the document `softgrasp-cli quality --json` prints for that file and the same measures, but
// for the CLI's hand-motion outcome ("grasp").
void TstAppCliParity::exportEqualsCliQuality() {
  app::MainWindow window;
  QVERIFY(test::openAndGraspDefaultWorld(window));
  QTemporaryDir dir;
  const QString world = dir.filePath("grasped.xml");
  window.document()->saveWorld(world);
  window.analysis()->recompute();
  QVERIFY(test::waitForL1Hull(*window.analysis()));
  const auto& evaluation = window.analysis()->evaluation();
  QVERIFY(evaluation && !evaluation->measures.empty());
  QStringList measures;
  for (const MeasureValue& m : evaluation->measures) measures << QString::fromStdString(m.measure);
  QVERIFY(app::exportAnalysisJson(*window.document(), *window.analysis(), dir.filePath("app.json")));
  QFile exported(dir.filePath("app.json"));
  QVERIFY(exported.open(QIODevice::ReadOnly));
  QJsonParseError error;
  const QByteArray exportedText = exported.readAll();
  const QJsonObject app = QJsonDocument::fromJson(exportedText, &error).object();
  QCOMPARE(error.error, QJsonParseError::NoError);
  const CliRun run = runCli({"quality", world, "--json", "--measures", measures.join(',')});
  QCOMPARE(run.exitCode, 0);
  QJsonObject cli = QJsonDocument::fromJson(run.out).object();
  QVERIFY(cli.contains("grasp") && !cli.contains("approach"));  // the CLI's motion outcome (none run)
  cli.remove("grasp");
  QCOMPARE(app["file"].toString(), world);
  // The exported file is tagged as the CLI's document is (docs/schemas/quality.schema.json).
  QVERIFY2(exportedText.startsWith("{\n  \"format\": \"softgrasp.quality\",\n  \"version\": 1,\n"),
           exportedText.left(80).constData());
  QVERIFY(app["contacts"].toArray().size() >= 3);
  const QString difference = firstDifference(app, cli, "$");
  QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

// Live warm, export cold (src/grasp/QUALITY.md §Live warm and export cold): while the hand is dragged through
// jittered states of the grasp, the live updates continue the previous update's ε polytopes (most of them finish
// warm) and show the cold ε to the solver's gap; what File > Export writes for the final state is the document
// `softgrasp-cli quality --json` prints for that state, bounds and iteration counts included.
void TstAppCliParity::dragIsWarmAndExportIsCold() {
  app::MainWindow window;
  QVERIFY(test::openAndGraspDefaultWorld(window));
  app::Document* doc = window.document();
  app::GraspAnalysis* analysis = window.analysis();
  const int stateCount = 12;
  const std::vector<WorldState> states = sgtest::jitteredGraspStates(doc->world(), 0, stateCount, 3939);
  int warmL1 = 0, warmLinf = 0;
  for (const WorldState& state : states) {
    const RobotState& hand = state.robots.at(0);
    doc->push(new app::SetRobotPoseCommand(doc, 0, hand.X_WP));
    doc->push(new app::SetDofValuesCommand(doc, 0, hand.dofValues));
    analysis->recompute();
    const auto& live = analysis->evaluation();
    QVERIFY(live && live->l1Support && live->lInfinitySupport && live->exactSupport);
    warmL1 += live->l1Support->warmStarted;
    warmLinf += live->lInfinitySupport->warmStarted;
    // Every state: the live ε within the solvers' gaps of the cold ones the export would write.
    const std::optional<GraspEvaluation> cold = analysis->exportEvaluation();
    QVERIFY(cold && !cold->l1Support->warmStarted && !cold->lInfinitySupport->warmStarted);
    for (const char* name : {"epsilon-l1", "epsilon-linf", "epsilon-exact"}) {
      const MeasureValue* w = live->measure(name);
      const MeasureValue* c = cold->measure(name);
      QVERIFY2(w && c && w->bounds && c->bounds, name);
      const double gap = std::string(name) == "epsilon-exact" ? cold->exactConeRelativeGap : 1e-9;
      const double t = 2 * gap * std::abs(c->value) + 1e-12;
      QVERIFY2(std::abs(w->value - c->value) <= t, name);
      // Each solve's certified bounds hold the other's value (to the other's gap).
      QVERIFY2(w->bounds->lower <= c->value + t && c->value <= w->bounds->upper + t, name);
      QVERIFY2(c->bounds->lower <= w->value + t && w->value <= c->bounds->upper + t, name);
    }
    const MeasureValue* sigmaLive = live->measure("min-singular-value");
    const MeasureValue* sigmaCold = cold->measure("min-singular-value");
    QVERIFY(sigmaLive && sigmaCold);
    QCOMPARE(sigmaCold->value, sigmaLive->value);
  }
  // The first state after the grasp may solve cold; the drag is the warm start's case.
  QVERIFY2(warmL1 >= stateCount / 2 && warmLinf >= stateCount / 2,
           qPrintable(QString("warm: L1 %1, Linf %2 of %3").arg(warmL1).arg(warmLinf).arg(stateCount)));
  QVERIFY(test::waitForL1Hull(*analysis));

  // The final state, saved, exported and analysed by the CLI.
  QTemporaryDir dir;
  const QString world = dir.filePath("dragged.xml");
  doc->saveWorld(world);
  QStringList measures;
  for (const MeasureValue& m : analysis->evaluation()->measures) measures << QString::fromStdString(m.measure);
  QVERIFY(app::exportAnalysisJson(*doc, *analysis, dir.filePath("app.json")));
  QFile exported(dir.filePath("app.json"));
  QVERIFY(exported.open(QIODevice::ReadOnly));
  const QJsonObject app = QJsonDocument::fromJson(exported.readAll()).object();
  const CliRun run = runCli({"quality", world, "--json", "--measures", measures.join(',')});
  QCOMPARE(run.exitCode, 0);
  const QJsonObject cli = QJsonDocument::fromJson(run.out).object();
  const QJsonObject appMeasures = app["measures"].toObject(), cliMeasures = cli["measures"].toObject();
  for (const char* name : {"epsilon-l1", "epsilon-linf", "epsilon-exact"}) {
    QVERIFY2(appMeasures.contains(name), name);
    QVERIFY2(cliMeasures[name].toObject()["value"].toDouble() > 0, name);  // still force closure
  }
  const QString difference = firstDifference(appMeasures, cliMeasures, "$.measures");
  QVERIFY2(difference.isEmpty(), qPrintable(difference));
  QCOMPARE(app["contacts"].toArray().size(), cli["contacts"].toArray().size());
}

// The application opens (or imports) what the CLI reads and refuses what it refuses, with the same message: the
// engine's one rule (src/io/InputFile.h).
void TstAppCliParity::filesOpenAsInTheCli() {
  QTemporaryDir dir;
  QFile unknown(dir.filePath("thing.xml"));
  QVERIFY(unknown.open(QIODevice::WriteOnly));
  unknown.write("<?xml version=\"1.0\"?>\n<thing><a/></thing>\n");
  unknown.close();
  QFile text(dir.filePath("notes.txt"));
  QVERIFY(text.open(QIODevice::WriteOnly));
  text.write("hello\n");
  text.close();
  const QString root = sg::test::qSourceDir();
  const QList<std::pair<QString, bool>> files = {{root + "/worlds/default.xml", true},
                                                 {root + "/models/robots/ThreeFinger/ThreeFinger.xml", true},
                                                 {root + "/models/objects/mug.xml", true},
                                                 {unknown.fileName(), false},
                                                 {text.fileName(), false}};
  for (const auto& [path, readable] : files) {
    const CliRun run = runCli({"info", path});
    QCOMPARE(run.exitCode == 0, readable);
    app::MainWindow window;
    test::MessageBoxCloser closer;
    QCOMPARE(window.openOrImport(path), readable);
    if (readable) continue;
    QCOMPARE(closer.count(), 1);
    QString cliMessage = QString::fromUtf8(run.err).trimmed();
    QVERIFY2(cliMessage.startsWith("softgrasp-cli: "), qPrintable(cliMessage));
    cliMessage.remove(0, QStringLiteral("softgrasp-cli: ").size());
    QCOMPARE(closer.text().simplified(), cliMessage.simplified());
  }
}

QTEST_MAIN(TstAppCliParity)
#include "tst_app_cli_parity.moc"
