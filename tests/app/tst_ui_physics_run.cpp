// Measures vs Physics > Run… (ui/app/PhysicsPredictionWindow.h) on the offscreen platform with real MuJoCo: the
// window's background run on the ParallelJaw world (one seed, three kept grasps, short pulls, two contact models)
// shows the table sim::comparePhysics computes for the same world, settings and request in this test; Save… writes
// the document the engine's writer gives for that result, byte for byte what softgrasp-cli compare
// --against-physics --json prints for the same run; the saved file reopens as the same table; a cancel during
// the trials keeps the grasps tried (marked incomplete), a cancel while planning leaves no table; a grasp list's
// grasps are tried instead of planning as sim::comparePhysicsOnList tries them; a world without a hand, a missing
// world or grasp list file, no world at all and a grasp list with world files are refused with a clear message.
#include <QAction>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include "../support/AppTestSetup.h"
#include "../support/TestPaths.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "PhysicsPredictionWindow.h"
#include "core/Json.h"
#include "core/Progress.h"
#include "grasp/planner/GraspList.h"
#include "grasp/planner/GraspPlanner.h"
#include "io/ModelIO.h"
#include "render/CoinInit.h"
#include "sim/PhysicsComparison.h"
#include "sim/PhysicsComparisonJson.h"

using namespace sg;
using namespace sg::app;

namespace {

const QStringList kModels{"soft-finger", "point"};

PhysicsRunSettings smallRun() {
  PhysicsRunSettings s;
  s.seeds = 1;
  s.iterations = 200;
  s.keep = 3;
  s.pull_s = 0.05;
  s.threads = 2;
  s.models = kModels;
  return s;
}

// The engine's request for the same run, written out here (not taken from the window).
sim::PhysicsComparisonRequest engineRequest(const PhysicsRunSettings& s) {
  sim::PhysicsComparisonRequest r;
  r.seeds = s.seeds;
  r.iterations = s.iterations;
  r.keep = static_cast<std::size_t>(s.keep);
  r.threads = s.threads;
  r.successScore = s.successScore;
  r.trial.duration_s = s.pull_s;
  for (const QString& m : s.models) r.compare.models.push_back(m.toStdString());
  r.compare.measures = sim::defaultPhysicsMeasures();
  return r;
}

// Waits for the run's outcome (5 min: a loaded 2-core machine).
bool waitForOutcome(const QSignalSpy& finished, const QSignalSpy& cancelled, const QSignalSpy& failed) {
  return QTest::qWaitFor([&] { return finished.count() + cancelled.count() + failed.count() > 0; }, 300000);
}

QByteArray readFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void verifySameRows(const shared::PredictionTable& shown, const sim::PredictionTable& engine) {
  QCOMPARE(shown.rows.size(), engine.rows.size());
  QVERIFY(!shown.rows.empty());
  QCOMPARE(shown.grasps, std::optional<long>(engine.grasps));
  QCOMPARE(shown.successes, std::optional<long>(engine.successes));
  for (std::size_t i = 0; i < shown.rows.size(); ++i) {
    const shared::PredictionRow& a = shown.rows[i];
    const sim::PredictorRow& b = engine.rows[i];
    QCOMPARE(a.model, b.predictor.model);
    QCOMPARE(a.measure, b.predictor.measure);
    QCOMPARE(a.grasps, static_cast<long>(b.grasps));
    QCOMPARE(a.missing, static_cast<long>(b.missing));
    QCOMPARE(a.successes, static_cast<long>(b.successes));
    // Exactly: the document's numbers are written shortest-round-trip (core/NumberFormat.h).
    QVERIFY2(a.auc == b.auc, qPrintable(QString::fromStdString(a.model + " " + a.measure)));
    QVERIFY2(a.spearman == b.spearman, qPrintable(QString::fromStdString(a.model + " " + a.measure)));
  }
}

}  // namespace

class TstUiPhysicsRun : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QVERIFY(settingsDir_.isValid());
    QVERIFY(dir_.isValid());
    test::useTemporarySettings(settingsDir_);
    initCoin();
  }
  void init() {
    QSettings("SoftGrasp", "softgrasp").clear();
    window_ = std::make_unique<MainWindow>();
    QVERIFY(window_->openWorldFile(test::qInSourceTree("worlds/paralleljaw_box.xml")));
  }
  void cleanup() {
    if (window_) window_->document()->undoStack()->setClean();
    window_.reset();
  }

  void runEqualsEngineAndCli();
  void graspListRunEqualsEngine();
  void cancelDuringTrialsKeepsTheGraspsTried();
  void cancelWhilePlanningLeavesNoTable();
  void refusedRuns();

 private:
  PhysicsPredictionWindow* openWindow() {
    auto* action = window_->findChild<QAction*>("actionMeasuresVsPhysics");
    if (!action) return nullptr;
    action->trigger();
    return window_->findChild<PhysicsPredictionWindow*>();
  }

  QTemporaryDir settingsDir_, dir_;
  std::unique_ptr<MainWindow> window_;
};

void TstUiPhysicsRun::runEqualsEngineAndCli() {
  PhysicsPredictionWindow* w = openWindow();
  QVERIFY(w);
  const PhysicsRunSettings settings = smallRun();
  QSignalSpy finished(w, &PhysicsPredictionWindow::runFinished), cancelled(w, &PhysicsPredictionWindow::runCancelled),
      failed(w, &PhysicsPredictionWindow::runFailed);
  QVERIFY(w->run(settings));
  QVERIFY(w->running());
  QVERIFY(!w->runButton()->isEnabled());
  QVERIFY(w->cancelButton()->isEnabled());
  QVERIFY(waitForOutcome(finished, cancelled, failed));
  QCOMPARE(failed.count(), 0);
  QCOMPARE(finished.count(), 1);
  QVERIFY(!w->running());
  QVERIFY(w->saveButton()->isEnabled());
  QVERIFY(w->table());
  const PhysicsRun* run = w->lastRun();
  QVERIFY(run);
  QVERIFY(run->comparison.complete);

  // The engine on the same world, with the live analysis' settings and the same request.
  const std::string worldPath = window_->document()->filePath().toStdString();
  const World world = loadWorld(worldPath);
  AnalysisRequest analysis = liveAnalysisRequest(window_->analysis()->settings(), 0);
  const sim::PhysicsComparisonRequest request = engineRequest(settings);
  NullProgress quiet;
  const sim::PhysicsComparison engine = sim::comparePhysics({{&world, worldPath, analysis}}, request, quiet);
  QCOMPARE(engine.samples.size(), std::size_t{3});
  QCOMPARE(engine.predictors.size(), static_cast<std::size_t>(kModels.size()) * (request.compare.measures.size() + 1));
  verifySameRows(*w->table(), engine.table);
  QCOMPARE(w->tableWidget()->rowCount(), static_cast<int>(engine.table.rows.size()));
  QCOMPARE(w->tableWidget()->item(0, 0)->text(), kModels[0]);
  QVERIFY(w->statusLabel()->text().contains(QString("%1 succeeded").arg(engine.table.successes)));

  // Save… writes the engine's document of that result.
  const QString saved = dir_.filePath("run.json");
  QString error;
  QVERIFY2(w->saveRun(saved, &error), qPrintable(error));
  const QByteArray text = readFile(saved);
  const std::string expected =
      sim::physicsComparisonJson(engine, request, {worldPath}, world.loadWarnings()).dump() + "\n";
  QCOMPARE(text.toStdString(), expected);
  const Json doc = Json::parse(text.toStdString());
  QCOMPARE(doc.at("format", "doc").string("format"), std::string("softgrasp.physics-prediction"));
  QCOMPARE(doc.at("version", "doc").number("version"), 2.0);

  // ... which is what the CLI prints for the same run.
  QProcess cli;
  cli.start(test::qCliPath(), {"compare", QString::fromStdString(worldPath), "--against-physics", "--seeds", "1",
                               "--iterations", "200", "--keep", "3", "--duration", "0.05", "--threads", "2",
                               "--contact-model", kModels.join(','), "--no-progress", "--json"});
  QVERIFY(cli.waitForFinished(300000));
  QCOMPARE(cli.exitCode(), 0);
  QCOMPARE(cli.readAllStandardOutput().toStdString(), text.toStdString());

  // Reopened, the file is the same table.
  PhysicsPredictionWindow reopened;
  QVERIFY2(reopened.openFile(saved, &error), qPrintable(error));
  verifySameRows(*reopened.table(), engine.table);
  QVERIFY(!reopened.lastRun());
  QVERIFY(!reopened.saveRun(dir_.filePath("nothing.json"), &error));
}

void TstUiPhysicsRun::graspListRunEqualsEngine() {
  PhysicsPredictionWindow* w = openWindow();
  QVERIFY(w);
  // A list of the jaw's grasps, planned here (seed 2) and saved as the Planner dock saves it.
  const std::string worldPath = window_->document()->filePath().toStdString();
  const World world = loadWorld(worldPath);
  const AnalysisRequest analysis = liveAnalysisRequest(window_->analysis()->settings(), 0);
  planner::PlanRequest plan;
  plan.energy.analysis = analysis;
  plan.maxSteps = plan.params.k0 + 200;
  plan.seed = 2;
  NullProgress quiet;
  planner::GraspList list = planner::makeGraspList(world, worldPath, plan, planner::planGrasps(world, plan, quiet));
  QVERIFY(list.grasps.size() >= 2);
  list.grasps.resize(2);
  const QString listPath = dir_.filePath("grasps.json");
  planner::saveGraspList(list, listPath.toStdString());

  PhysicsRunSettings settings = smallRun();
  settings.graspList = listPath;
  QSignalSpy finished(w, &PhysicsPredictionWindow::runFinished), cancelled(w, &PhysicsPredictionWindow::runCancelled),
      failed(w, &PhysicsPredictionWindow::runFailed);
  QVERIFY(w->run(settings));
  QVERIFY(waitForOutcome(finished, cancelled, failed));
  QCOMPARE(finished.count(), 1);
  const PhysicsRun* run = w->lastRun();
  QVERIFY(run);
  const sim::PhysicsComparisonRequest request = engineRequest(settings);
  const sim::PhysicsComparison engine =
      sim::comparePhysicsOnList({&world, worldPath, analysis}, planner::loadGraspList(listPath.toStdString()),
                                request, quiet);
  QCOMPARE(run->comparison.samples.size(), std::size_t{2});
  for (std::size_t i = 0; i < 2; ++i) {
    QCOMPARE(run->comparison.samples[i].seed, 0);
    QCOMPARE(run->comparison.samples[i].score, engine.samples[i].score);
    QCOMPARE(run->comparison.samples[i].predictors, engine.samples[i].predictors);
  }
  verifySameRows(*w->table(), engine.table);

  // A grasp list goes with the current world alone; a missing list is named.
  settings.worldFiles = {test::qInSourceTree("worlds/paralleljaw_box.xml")};
  QVERIFY(!w->run(settings));
  QVERIFY(w->statusLabel()->text().contains("current world only"));
  settings.worldFiles.clear();
  settings.graspList = dir_.filePath("no-such-list.json");
  finished.clear();
  QVERIFY(w->run(settings));
  QVERIFY(waitForOutcome(finished, cancelled, failed));
  QCOMPARE(failed.count(), 1);
  QVERIFY2(failed.at(0).at(0).toString().contains(settings.graspList), qPrintable(failed.at(0).at(0).toString()));
}

void TstUiPhysicsRun::cancelDuringTrialsKeepsTheGraspsTried() {
  PhysicsPredictionWindow* w = openWindow();
  QVERIFY(w);
  PhysicsRunSettings settings = smallRun();
  settings.keep = 10;
  settings.threads = 1;
  settings.models = {"point"};
  // Cancel once the first grasp has been tried (the engine's progress names the grasp under way, src/sim/
  // PhysicsComparison.cpp): the table then has grasps, and fewer than were planned. The first message naming a
  // grasp after the first: the engine reports when it wakes, so a busy machine may go from grasp 1 to grasp 3.
  bool asked = false;
  const QRegularExpression underWay("^measures and physics trial of grasp (\\d+) of");
  connect(w, &PhysicsPredictionWindow::runProgress, w, [&](double, const QString& message) {
    const QRegularExpressionMatch m = underWay.match(message);
    if (!asked && m.hasMatch() && m.captured(1).toInt() >= 2) {
      asked = true;
      w->cancel();
    }
  });
  QSignalSpy finished(w, &PhysicsPredictionWindow::runFinished), cancelled(w, &PhysicsPredictionWindow::runCancelled),
      failed(w, &PhysicsPredictionWindow::runFailed);
  QVERIFY(w->run(settings));
  QVERIFY(waitForOutcome(finished, cancelled, failed));
  QVERIFY(asked);
  QCOMPARE(finished.count(), 1);  // a table of the grasps tried, not a cancelled run
  const PhysicsRun* run = w->lastRun();
  QVERIFY(run);
  const sim::PhysicsComparison& c = run->comparison;
  QVERIFY(!c.complete);
  QVERIFY(c.samples.size() > 1);  // the planner keeps up to 10
  QVERIFY(c.tried() >= 1);
  QVERIFY(c.tried() < c.samples.size());
  QVERIFY(w->table());
  for (const shared::PredictionRow& r : w->table()->rows) QCOMPARE(r.grasps, static_cast<long>(c.tried()));
  QVERIFY(w->statusLabel()->text().startsWith("Cancelled: the table covers the"));
  // The document says so too.
  const QString saved = dir_.filePath("cancelled.json");
  QString error;
  QVERIFY2(w->saveRun(saved, &error), qPrintable(error));
  const Json doc = Json::parse(readFile(saved).toStdString());
  QVERIFY(!doc.at("complete", "doc").boolean("complete"));
  QCOMPARE(doc.at("samples", "doc").items("samples").size(), c.tried());
}

void TstUiPhysicsRun::cancelWhilePlanningLeavesNoTable() {
  PhysicsPredictionWindow* w = openWindow();
  QVERIFY(w);
  PhysicsRunSettings settings = smallRun();
  settings.iterations = 1000000;  // planning outlasts the cancel
  QSignalSpy finished(w, &PhysicsPredictionWindow::runFinished), cancelled(w, &PhysicsPredictionWindow::runCancelled),
      failed(w, &PhysicsPredictionWindow::runFailed);
  QVERIFY(w->run(settings));
  QTRY_VERIFY_WITH_TIMEOUT(w->progressBar()->value() > 0, 60000);  // the job runs (not merely waits)
  w->activateWindow();
  QVERIFY(QTest::qWaitForWindowActive(w));
  QTest::keyClick(w, Qt::Key_Escape);  // as Cancel
  QVERIFY(waitForOutcome(finished, cancelled, failed));
  QCOMPARE(cancelled.count(), 1);
  QCOMPARE(finished.count(), 0);
  QVERIFY(!w->running());
  QVERIFY(!w->table());
  QVERIFY(!w->lastRun());
  QVERIFY(!w->saveButton()->isEnabled());
  QVERIFY(w->runButton()->isEnabled());
  QVERIFY(w->statusLabel()->text().contains("no table"));
}

void TstUiPhysicsRun::refusedRuns() {
  PhysicsPredictionWindow* w = openWindow();
  QVERIFY(w);
  // No world chosen.
  PhysicsRunSettings none = smallRun();
  none.currentWorld = false;
  QVERIFY(!w->run(none));
  QVERIFY(w->statusLabel()->text().contains("No world to plan"));
  // A world file that does not exist: the job's error names it.
  PhysicsRunSettings missing = none;
  const QString path = dir_.filePath("no-such-world.xml");
  missing.worldFiles = {path};
  QSignalSpy finished(w, &PhysicsPredictionWindow::runFinished), cancelled(w, &PhysicsPredictionWindow::runCancelled),
      failed(w, &PhysicsPredictionWindow::runFailed);
  QVERIFY(w->run(missing));
  QVERIFY(waitForOutcome(finished, cancelled, failed));
  QCOMPARE(failed.count(), 1);
  const QString error = failed.at(0).at(0).toString();
  QVERIFY2(error.contains(path) && error.contains("no such file"), qPrintable(error));
  QVERIFY(w->statusLabel()->text().contains(path));
  QVERIFY(!w->table());
  // A window without a document cannot plan the current world.
  PhysicsPredictionWindow alone;
  QVERIFY(!alone.run(smallRun()));
  QVERIFY(alone.statusLabel()->text().contains("No current world"));
  // A world without a hand.
  World handless = window_->document()->world();
  handless.robots.clear();
  handless.state.robots.clear();
  window_->document()->resetWorld(handless);
  QVERIFY(!w->run(smallRun()));
  QVERIFY2(w->statusLabel()->text().contains("needs a hand"), qPrintable(w->statusLabel()->text()));
}

QTEST_MAIN(TstUiPhysicsRun)
#include "tst_ui_physics_run.moc"
