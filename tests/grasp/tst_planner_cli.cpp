// softgrasp-cli plan and evaluate, run as a user would.
#include <QtTest>

#include "../support/CliRun.h"

namespace {

using Run = sg::test::CliRun;

Run cli(const QStringList& args) { return sg::test::runCli(args, {}, 240000); }

QString world(const char* name) { return QString(SG_SOURCE_DIR) + "/worlds/" + name; }

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

  void unknownSpaceIsAUsageError() {
    const Run r = cli({"plan", world("default.xml"), "--space", "nowhere"});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("nowhere"));
  }
};

QTEST_GUILESS_MAIN(TestPlannerCli)
#include "tst_planner_cli.moc"
