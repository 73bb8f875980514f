// softgrasp-cli contact (ui/cli/CommandContact.cpp) run as a user runs it: the bundled default world after an
// auto-grasp under the hydroelastic model (no compliant body there: every contact falls back to a point
// contact, with its note, and no surface) and under the soft finger, a body file on its own, and bad input.
#include <QtTest>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

using sg::test::CliRun;
using sg::test::runCli;

class TstHydroCli : public QObject {
  Q_OBJECT

  static CliRun run(const QStringList& args) { return runCli(args, sg::test::qSourceDir()); }

 private slots:
  void hydroelasticOnARigidGrasp() {
    const CliRun r = run({"contact", "worlds/default.xml", "--contact-model", "hydroelastic", "--autograsp", "--json"});
    QVERIFY2(!r.crashed && r.exitCode == 0, r.err.constData());
    const QJsonObject doc = r.json();
    QCOMPARE(doc["model"].toString(), QString("hydroelastic"));
    QVERIFY(doc["contactsFound"].toInt() > 0);
    const QJsonArray contacts = doc["contacts"].toArray();
    QVERIFY(!contacts.isEmpty());
    for (const QJsonValue& c : contacts) {
      QCOMPARE(c["surface"].toInt(), -1);
      QVERIFY(c["note"].toString().contains("no compliant body"));
    }
    QVERIFY(doc["surfaces"].toArray().isEmpty());
    const CliRun text = run({"contact", "worlds/default.xml", "--autograsp"});
    QCOMPARE(text.exitCode, 0);
    QVERIFY(text.out.contains("under hydroelastic") && text.out.contains("no compliant body"));
  }

  void otherModelsReportTheirPatches() {
    const CliRun r = run({"contact", "worlds/default.xml", "--contact-model", "soft-finger", "--autograsp", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject doc = r.json();
    QCOMPARE(doc["model"].toString(), QString("soft-finger"));
    bool patch = false;
    for (const QJsonValue& c : doc["contacts"].toArray()) {
      QVERIFY(!c.toObject().contains("surface"));
      patch = patch || (c["kind"].toString() == "soft-finger" && c["maxTorsionalFriction_Nmm"].toDouble() > 0);
    }
    QVERIFY(patch);
  }

  void bodyFileAlone() {
    const CliRun r = run({"contact", "models/objects/mug.xml", "--json", "--triangulated"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(r.json()["contactsFound"].toInt(), 0);
    QVERIFY(r.json()["surfaces"].toArray().isEmpty());
  }

  void badInput() {
    const CliRun model = run({"contact", "worlds/default.xml", "--contact-model", "nonsense"});
    QCOMPARE(model.exitCode, 2);
    QVERIFY(model.err.contains("--contact-model") && model.err.contains("hydroelastic"));
    const CliRun missing = run({"contact", "worlds/none.xml"});
    QCOMPARE(missing.exitCode, 3);
    QVERIFY(missing.err.contains("none.xml"));
    const CliRun noRobot = run({"contact", "models/objects/mug.xml", "--approach"});
    QCOMPARE(noRobot.exitCode, 2);
    const CliRun force = run({"contact", "worlds/default.xml", "--force", "-1"});
    QCOMPARE(force.exitCode, 2);
    QVERIFY(force.err.contains("--force"));
    QVERIFY(!model.crashed && !missing.crashed && !noRobot.crashed && !force.crashed);
  }
};

QTEST_GUILESS_MAIN(TstHydroCli)
#include "tst_hydro_cli.moc"
