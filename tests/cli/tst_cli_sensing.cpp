// softgrasp-cli sensing (ui/cli/CommandSensing.cpp) on the bundled parallel-jaw gripper 0.01 mm from its box: a torque
// squeeze presses both jaws with forces that balance the DOF's effort (100 N); the CSV rows carry the JSON's
// numbers; a motion squeeze gives the penetration the extra motion produces; contradicting and bad options
// are usage errors, a missing file bad input.
#include <QtTest>

#include <QJsonArray>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

using sg::test::CliRun;
using sg::test::runCli;

namespace {

const QString kWorld = sg::test::qSourceDir() + "/tests/data/paralleljaw_touching.xml";  // jaws 0.01 mm off

QJsonArray pressedPairs(const QJsonObject& doc) {
  QJsonArray out;
  for (const auto& p : doc["pairs"].toArray())
    if (p.toObject()["contact"].toBool()) out.append(p);
  return out;
}

}  // namespace

class TestCliSensing : public QObject {
  Q_OBJECT
 private slots:
  void torqueSqueezeBalancesTheEffort() {
    const CliRun r = runCli({"sensing", kWorld, "--squeeze-torque", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject doc = r.json();
    const QJsonObject squeeze = doc["squeeze"].toObject();
    QCOMPARE(squeeze["mode"].toString(), QString("torque"));
    QVERIFY(squeeze["converged"].toBool());
    QCOMPARE(squeeze["effort"].toArray()[0].toDouble(), 100.0);  // maxEffort 1e8 × 1e-6 N
    QVERIFY(std::abs(squeeze["contactLoad"].toArray()[0].toDouble() - 100) < 1e-6);
    const QJsonArray pressed = pressedPairs(doc);
    QCOMPARE(pressed.size(), 2);  // both jaws on the box
    double sum = 0;
    for (const auto& v : pressed) {
      const QJsonObject p = v.toObject();
      QCOMPARE(p["body2"].toString(), QString("box"));
      const double fn = p["normalForce_N"].toDouble();
      QVERIFY(std::abs(fn - 50) < 1e-4);  // straight jaws: half each
      QVERIFY(p["separation_mm"].toDouble() < 0);
      const QJsonArray f = p["normalForceOnBody1_N"].toArray();
      QVERIFY(std::abs(std::hypot(f[0].toDouble(), f[1].toDouble(), f[2].toDouble()) - fn) < 1e-9);
      QVERIFY(p["frame1"].toObject().contains("quaternion_wxyz"));
      sum += fn;
    }
    QVERIFY(std::abs(sum - 100) < 1e-6);
    QVERIFY(squeeze["dofsAfter"].toArray()[0].toDouble() > squeeze["dofsBefore"].toArray()[0].toDouble());

    // The CSV has the same rows and numbers.
    const CliRun csv = runCli({"sensing", kWorld, "--squeeze-torque", "--csv"});
    QCOMPARE(csv.exitCode, 0);
    const QStringList lines = QString::fromUtf8(csv.out).trimmed().split('\n');
    QCOMPARE(lines.size(), doc["pairs"].toArray().size() + 1);
    QVERIFY(lines[0].startsWith("body1,body2,separation_mm,contact,penetration_mm,normal_force_N"));
    for (int i = 1; i < lines.size(); ++i) {
      const QStringList cells = lines[i].split(',');
      const QJsonObject p = doc["pairs"].toArray()[i - 1].toObject();
      QCOMPARE(cells.size(), 28);
      QVERIFY(std::abs(cells[5].toDouble() - p["normalForce_N"].toDouble()) < 1e-9);
      QCOMPARE(cells[3] == "1", p["contact"].toBool());
    }
  }

  void motionSqueezeGivesItsPenetration() {
    const CliRun before = runCli({"sensing", kWorld, "--json"});
    QCOMPARE(before.exitCode, 0);
    QCOMPARE(pressedPairs(before.json()).size(), 0);  // 0.01 mm short of contact: nothing pressed
    double gap = 1e9;  // the jaws' (the palm is far above)
    for (const auto& v : before.json()["pairs"].toArray())
      if (v.toObject()["body2"].toString() == "box") gap = std::min(gap, v.toObject()["separation_mm"].toDouble());
    QVERIFY(std::abs(gap - 0.01) < 1e-6);
    const CliRun r = runCli({"sensing", kWorld, "--squeeze-motion", "0.08", "--json"});
    QCOMPARE(r.exitCode, 0);
    const QJsonArray pressed = pressedPairs(r.json());
    QCOMPARE(pressed.size(), 2);
    for (const auto& v : pressed)  // the jaw moved 0.08 mm on: it went through its gap and the rest into the box
      QVERIFY(std::abs(v.toObject()["penetration_mm"].toDouble() - (0.08 - gap)) < 1e-3);
  }

  void badInput() {
    QCOMPARE(runCli({"sensing", kWorld, "--json", "--csv"}).exitCode, 2);
    QCOMPARE(runCli({"sensing", kWorld, "--squeeze-torque", "--squeeze-motion", "1"}).exitCode, 2);
    QCOMPARE(runCli({"sensing", kWorld, "--squeeze-motion", "-1"}).exitCode, 2);
    QCOMPARE(runCli({"sensing", kWorld, "--stiffness", "0"}).exitCode, 2);
    QCOMPARE(runCli({"sensing", kWorld, "--robot", "4"}).exitCode, 2);
    const CliRun missing = runCli({"sensing", "no/such/world.xml"});
    QCOMPARE(missing.exitCode, 3);
    QVERIFY(missing.err.contains("world.xml"));
  }
};

QTEST_APPLESS_MAIN(TestCliSensing)
#include "tst_cli_sensing.moc"
