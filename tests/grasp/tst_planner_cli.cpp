// softgrasp-cli plan and evaluate, run as a user would.
#include <QtTest>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

namespace {

using Run = sg::test::CliRun;

Run cli(const QStringList& args) { return sg::test::runCli(args, {}, 240000); }

QString world(const char* name) { return sg::test::qSourceDir() + "/worlds/" + name; }

// The grasps of a --json document without the run statistics (which hold timings).
QJsonArray grasps(const QByteArray& json) {
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
  if (error.error != QJsonParseError::NoError) qWarning() << error.errorString();
  return doc.object().value("grasps").toArray();
}

}  // namespace

class TestPlannerCli : public QObject {
  Q_OBJECT
 private slots:
  void sameSeedSameListOnOneAndTwoThreads() {
    const QStringList base = {"plan", world("default.xml"), "--steps", "31000", "--seed", "5", "--json",
                              "--contact-model", "point"};
    const Run one = cli(base + QStringList{"--threads", "1"});
    const Run two = cli(base + QStringList{"--threads", "2"});
    QCOMPARE(one.exitCode, 0);
    QCOMPARE(two.exitCode, 0);
    const QJsonArray a = grasps(one.out), b = grasps(two.out);
    QVERIFY(!a.isEmpty());
    QCOMPARE(a, b);
    const QJsonObject first = a.first().toObject();
    QVERIFY(first.contains("preGrasp") && first.contains("grasp") && first.contains("measures"));
    QCOMPARE(first.value("grasp").toObject().value("dofs").toArray().size(), 4);
  }

  void planSavesAndEvaluateReadsTheList() {
    QTemporaryDir dir;
    const QString path = dir.filePath("grasps.json");
    const Run plan = cli({"plan", world("paralleljaw_box.xml"), "--energy", "autograsp-quality", "--steps", "30200", "--seed", "7",
                          "--contact-model", "point", "--out", path});
    QCOMPARE(plan.exitCode, 0);
    QVERIFY(plan.out.contains("force closure"));
    QVERIFY(QFile::exists(path));
    const Run evaluate = cli({"evaluate", world("paralleljaw_box.xml"), "--grasps", path, "--contact-model",
                              "point", "--json"});
    QCOMPARE(evaluate.exitCode, 0);
    const QJsonArray list = grasps(evaluate.out);
    QVERIFY(!list.isEmpty());
    QVERIFY(list.first().toObject().value("forceClosure").toBool());
  }

  // The step counter runs from the parameter set's first step (30 000 for default): a limit at or below it
  // is a usage error that says so, not a run of no iteration that finds nothing; with the 'modified' set
  // (first step 0) the same limit runs.
  void stepsBelowTheStartAreRefused() {
    const Run below = cli({"plan", world("paralleljaw_box.xml"), "--steps", "3000", "--no-progress"});
    QCOMPARE(below.exitCode, 2);
    QVERIFY2(below.err.contains("--steps") && below.err.contains("30000") && below.err.contains("3000"),
             below.err.constData());
    const Run modified = cli({"plan", world("paralleljaw_box.xml"), "--steps", "40", "--params", "modified",
                              "--contact-model", "point", "--json"});
    QCOMPARE(modified.exitCode, 0);
    QVERIFY(!grasps(modified.out).isEmpty());
  }

  void badGraspFileIsNamed() {
    QTemporaryDir dir;
    const QString path = dir.filePath("bad.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"format\": \"softgrasp-grasp-list\", \"version\": 1, \"grasps\": [{]}");
    f.close();
    const Run r = cli({"evaluate", world("default.xml"), "--grasps", path});
    QCOMPARE(r.exitCode, 3);
    QVERIFY2(r.err.contains(path.toUtf8()), r.err.constData());
  }

  void saveWorldWritesTheChosenGrasp() {
    QTemporaryDir dir;
    const QString list = dir.filePath("grasps.json"), best = dir.filePath("best.xml"), second = dir.filePath("second.xml");
    const Run plan = cli({"plan", world("paralleljaw_box.xml"), "--energy", "autograsp-quality", "--steps", "30100",
                          "--seed", "3", "--contact-model", "point", "--out", list, "--save-world", best, "--json"});
    QCOMPARE(plan.exitCode, 0);
    const QJsonArray planned = grasps(plan.out);
    QVERIFY(planned.size() >= 2);
    // The saved world evaluates to the best grasp's ε (the hand is where the list says).
    const Run q = cli({"quality", best, "--contact-model", "point", "--json"});
    QCOMPARE(q.exitCode, 0);
    const double saved = QJsonDocument::fromJson(q.out).object()["measures"].toObject()["epsilon-l1"].toObject()["value"].toDouble();
    const double listed = planned.first().toObject()["measures"].toObject()["epsilon-l1"].toDouble();
    QVERIFY2(listed > 0 && std::abs(saved - listed) < 1e-6, qPrintable(QString("%1 vs %2").arg(saved).arg(listed)));
    const Run eval = cli({"evaluate", world("paralleljaw_box.xml"), "--grasps", list, "--contact-model", "point",
                          "--save-world", second, "--rank", "2"});
    QCOMPARE(eval.exitCode, 0);
    QVERIFY(QFile::exists(second));
    QFile a(best), b(second);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QVERIFY(a.readAll() != b.readAll());  // another grasp
    const Run tooFar = cli({"evaluate", world("paralleljaw_box.xml"), "--grasps", list, "--save-world",
                            dir.filePath("x.xml"), "--rank", "99"});
    QCOMPARE(tooFar.exitCode, 3);
    QVERIFY2(tooFar.err.contains("--rank 99"), tooFar.err.constData());
  }

  void loopPlannerAndNewEnergiesRun() {
    for (const char* energy : {"potential-quality", "guided-potential-quality"}) {
      const Run r = cli({"plan", world("paralleljaw_box.xml"), "--planner", "loop", "--loops", "2", "--params", "loop",
                         "--energy", energy, "--steps", "35100", "--contact-model", "point", "--json"});
      QCOMPARE(r.exitCode, 0);
      QVERIFY2(!grasps(r.out).isEmpty(), energy);
    }
    const Run bad = cli({"plan", world("paralleljaw_box.xml"), "--planner", "nope"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.err.contains("nope") && bad.err.contains("guided"));
  }

  void guidedPlannerRunsAndRecordsItsType() {
    const QStringList base = {"plan", world("threefinger_sphere.xml"), "--planner", "guided", "--space", "approach",
                              "--steps", "30300", "--child-steps", "10", "--seed", "3", "--json",
                              "--contact-model", "point", "--measures", "epsilon-l1"};
    const Run one = cli(base + QStringList{"--threads", "1"});
    const Run two = cli(base + QStringList{"--threads", "2"});
    QCOMPARE(one.exitCode, 0);
    QCOMPARE(two.exitCode, 0);
    QVERIFY(!grasps(one.out).isEmpty());
    QCOMPARE(grasps(one.out), grasps(two.out));
    const QJsonObject planning = QJsonDocument::fromJson(one.out).object().value("planning").toObject();
    QCOMPARE(planning.value("planner").toString(), QString("guided"));
    QCOMPARE(planning.value("energy").toString(), QString("autograsp-quality"));
    QCOMPARE(planning.value("parentEnergy").toString(), QString("guided-potential-quality"));
    const Run badChild = cli({"plan", world("threefinger_sphere.xml"), "--planner", "guided", "--child-energy", "x"});
    QCOMPARE(badChild.exitCode, 2);
    QVERIFY(badChild.err.contains("--child-energy"));
  }

  void unknownSpaceIsAUsageError() {
    const Run r = cli({"plan", world("default.xml"), "--space", "nowhere"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("nowhere"));
  }
};

QTEST_GUILESS_MAIN(TestPlannerCli)
#include "tst_planner_cli.moc"
