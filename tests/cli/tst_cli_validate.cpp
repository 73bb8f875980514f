// softgrasp-cli validate (ui/cli/README.md, src/sim/README.md §Trial protocol): its JSON equals the engine's trial
// run in process on the same grasp, at the default step and at --timestep; usage errors for bad directions,
// durations, timesteps and contradicting flags.
#include <QtTest/QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

#include "../support/CliRun.h"
#include "../support/GraspedDefaultWorld.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "sim/PhysicsTrial.h"
#include "sim/TrialJson.h"
#include "../support/TestPaths.h"

using sg::test::runCli;

class TestCliValidate : public QObject {
  Q_OBJECT

 private slots:
  void jsonEqualsTheEngine() {
    const QString world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");
    const auto r = runCli({"validate", world, "--autograsp", "--directions", "z-,x+", "--duration", "0.2", "--json",
                           "--no-progress"});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["format"].toString(), QStringLiteral("softgrasp.validation"));
    QCOMPARE(doc["grasps"].toArray().size(), 1);
    QJsonObject cli = doc["grasps"].toArray()[0].toObject();
    QCOMPARE(cli["source"].toString(), QStringLiteral("world"));
    cli.remove("source");

    sg::World w = sgtest::closedHandWorld(world.toStdString(), false);
    sg::NullProgress progress;
    sg::sim::TrialSettings settings;
    settings.duration_s = 0.2;
    settings.directions = sg::sim::parseDirections("z-,x+");
    const sg::sim::TrialResult engine = sg::sim::runTrial(w, w.state, {0, 0, settings}, progress);
    const QJsonObject expected =
        QJsonDocument::fromJson(QByteArray::fromStdString(sg::sim::trialSummaryJson(engine).dump())).object();
    QCOMPARE(cli, expected);
    QCOMPARE(cli["tried"].toInt(), 2);
    QCOMPARE(cli["directions"].toArray()[0].toObject()["direction"].toString(), QStringLiteral("z-"));

    // The text form says the same per direction.
    const auto text = runCli({"validate", world, "--autograsp", "--directions", "z-,x+", "--duration", "0.2",
                              "--no-progress"});
    QCOMPARE(text.exitCode, 0);
    for (const sg::sim::DirectionTrial& d : engine.directions)
      QVERIFY(text.out.contains(QByteArray::fromStdString(d.direction.name() + ": " + (d.held ? "held" : "lost"))));
  }

  // --timestep S is the trial's MuJoCo step: the same trial as the engine's with that step.
  void timestepReachesTheTrial() {
    const QString world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");
    const auto r = runCli({"validate", world, "--autograsp", "--directions", "z-", "--duration", "0.1", "--timestep",
                           "0.001", "--json", "--no-progress"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.json()["settings"].toObject()["timestep_s"].toDouble(), 0.001);
    QJsonObject cli = r.json()["grasps"].toArray()[0].toObject();
    cli.remove("source");
    sg::World w = sgtest::closedHandWorld(world.toStdString(), false);
    sg::NullProgress progress;
    sg::sim::TrialSettings settings;
    settings.duration_s = 0.1;
    settings.timestep_s = 0.001;
    settings.directions = sg::sim::parseDirections("z-");
    const sg::sim::TrialResult engine = sg::sim::runTrial(w, w.state, {0, 0, settings}, progress);
    const QByteArray expected = QByteArray::fromStdString(sg::sim::trialSummaryJson(engine).dump());
    QCOMPARE(cli, QJsonDocument::fromJson(expected).object());
  }

  void usageErrors() {
    const QString world = sg::test::qInSourceTree("worlds/paralleljaw_box.xml");
    auto bad = runCli({"validate", world, "--directions", "x+,w-"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("w-"));
    bad = runCli({"validate", world, "--duration", "-1"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--duration"));
    bad = runCli({"validate", world, "--duration", "nan"});
    QCOMPARE(bad.exitCode, 2);
    for (const char* step : {"0", "nan", "0.05"}) {
      bad = runCli({"validate", world, "--timestep", step});
      QCOMPARE(bad.exitCode, 2);
      QVERIFY(bad.err.contains("--timestep"));
    }
    bad = runCli({"plan", world, "--iterations", "10", "--timestep", "0.001"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--validate"));
    bad = runCli({"validate", world, "--grasps", "missing.json", "--autograsp"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("--grasps"));
  }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "tst_cli_validate.moc"
