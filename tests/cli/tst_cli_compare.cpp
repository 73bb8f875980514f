// softgrasp-cli compare run as a user would (QProcess) on the bundled default world after approach and
// auto-grasp: JSON with every registered model as a column and the same numbers the engine computes in
// process (src/grasp/ModelComparison.h), CSV with one line per cell, the sweep's table, usage errors.
#include <QtTest>

#include <cmath>

#include "../support/CliRun.h"
#include "grasp/SensitivitySweep.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;
using sg::test::CliRun;
using sg::test::runCli;

namespace {

const QString kWorld = sg::test::qInSourceTree("worlds/default.xml");

// The engine's comparison on the same grasp the CLI makes.
const ModelComparison& engineComparison() {
  static const ModelComparison c = [] {
    World world = loadWorld(kWorld.toStdString());
    AnalysisRequest request;
    request.motion.approach = true;
    request.motion.fingers = FingerMotion::Close;
    NullProgress progress;
    return runComparison(world, world.state, request, {}, progress);
  }();
  return c;
}

}  // namespace

class TstCliCompare : public QObject {
  Q_OBJECT
 private slots:
  void jsonHasTheEngineNumbers();
  void csvHasOneLinePerCellAndModel();
  void sweepCsvIsMonotoneInStiffness();
  void textListsEveryModel();
  void usageErrors();
};

void TstCliCompare::jsonHasTheEngineNumbers() {
  const CliRun r = runCli({"compare", kWorld, "--approach", "--autograsp", "--json"});
  QVERIFY2(r.exitCode == 0, r.err.constData());
  const QJsonObject doc = r.json();
  const ModelComparison& c = engineComparison();
  const QJsonArray models = doc["models"].toArray();
  QCOMPARE(models.size(), static_cast<qsizetype>(contactModels().size()));
  for (qsizetype k = 0; k < models.size(); ++k) {
    const QJsonObject m = models[k].toObject();
    const ModelColumn& column = c.columns[static_cast<std::size_t>(k)];
    QCOMPARE(m["name"].toString().toStdString(), contactModels()[static_cast<std::size_t>(k)]->name());
    QCOMPARE(m["ok"].toBool(), column.ok);
    for (const std::string& name : comparisonMeasureNames())
      if (column.ok && column.measure(name)->ok)
        QCOMPARE(m["measures"].toObject()[QString::fromStdString(name)].toDouble(), column.measure(name)->value);
  }
  const QJsonArray contacts = doc["contacts"].toArray();
  QCOMPARE(contacts.size(), static_cast<qsizetype>(c.rows.size()));
  QVERIFY(contacts.size() >= 3);
  int patches = 0;
  for (qsizetype i = 0; i < contacts.size(); ++i) {
    const QJsonObject row = contacts[i].toObject();
    QCOMPARE(row["sourceContact"].toInt(), c.rows[static_cast<std::size_t>(i)].sourceContact);
    for (const ModelColumn& column : c.columns) {
      const ComparedContact& cell = column.contacts[static_cast<std::size_t>(i)];
      const QJsonObject o = row["models"].toObject()[QString::fromStdString(column.model)].toObject();
      QCOMPARE(o["present"].toBool(), cell.present);
      if (!cell.present) continue;
      QCOMPARE(o["patchShape"].toString().toStdString(), cell.patchShape);
      QCOMPARE(o["patchArea_mm2"].toDouble(), cell.patchArea_mm2);
      QCOMPARE(o["normalForce_N"].toDouble(), cell.normalForce_N);
      QCOMPARE(o["peakPressure_Pa"].toDouble(), cell.peakPressure_Pa);
      QCOMPARE(o["maxTorsionalFriction_Nmm"].toDouble(), cell.maxTorsionalFriction_Nmm);
      QCOMPARE(o["patchOutline_W_mm"].toArray().size(), static_cast<qsizetype>(cell.patchOutline_W_mm.size()));
      if (cell.patchArea_mm2 > 0) ++patches;
    }
  }
  QVERIFY(patches >= 6);  // soft finger and Hertz on every fingertip contact
}

void TstCliCompare::csvHasOneLinePerCellAndModel() {
  const CliRun r =
      runCli({"compare", kWorld, "--approach", "--autograsp", "--csv", "--contact-model", "soft-finger,point"});
  QVERIFY2(r.exitCode == 0, r.err.constData());
  const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
  const ModelComparison& c = engineComparison();
  QCOMPARE(lines.size(), static_cast<qsizetype>(1 + 2 * c.rows.size() + 2));
  QVERIFY(lines[0].startsWith("row,bodies,model,ok,present,kind,patch_shape,patch_area_mm2"));
  const QStringList first = lines[1].split(',');
  QCOMPARE(first[2], QStringLiteral("soft-finger"));
  QCOMPARE(first[7].toDouble(), c.column("soft-finger")->contacts[0].patchArea_mm2);
  const QStringList point = lines[2].split(',');
  QCOMPARE(point[2], QStringLiteral("point"));
  QVERIFY(point[6].isEmpty());  // no patch shape
  const QStringList grasp = lines.last().split(',');
  QCOMPARE(grasp[0], QStringLiteral("grasp"));
  QCOMPARE(grasp[2], QStringLiteral("point"));
  QCOMPARE(grasp[13].toDouble(), c.column("point")->measure("epsilon-l1")->value);
}

void TstCliCompare::sweepCsvIsMonotoneInStiffness() {
  const CliRun r = runCli({"compare", kWorld, "--approach", "--autograsp", "--contact-model", "soft-finger",
                           "--sweep", "youngs:1e5:1e9:5", "--csv"});
  QVERIFY2(r.exitCode == 0, r.err.constData());
  const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
  QCOMPARE(lines.size(), 6);
  QCOMPARE(lines[0], QStringLiteral("youngs,model,ok,epsilon-l1,epsilon-linf,epsilon-exact,mean_patch_area_mm2,"
                                    "mean_torsional_limit_Nmm,patches"));
  double lastE = 0, lastArea = 1e300, lastTorsion = 1e300;
  for (qsizetype k = 1; k < lines.size(); ++k) {
    const QStringList f = lines[k].split(',');
    QVERIFY(f[0].toDouble() > lastE);
    QVERIFY(f[6].toDouble() < lastArea);
    QVERIFY(f[7].toDouble() < lastTorsion);
    lastE = f[0].toDouble();
    lastArea = f[6].toDouble();
    lastTorsion = f[7].toDouble();
  }
  QCOMPARE(lines[1].split(',')[0].toDouble(), 1e5);
  QCOMPARE(lines[5].split(',')[0].toDouble(), 1e9);
}

void TstCliCompare::textListsEveryModel() {
  const CliRun r = runCli({"compare", kWorld, "--approach", "--autograsp", "--sweep", "mu:0.5:1:2",
                           "--contact-model", "hertz,frictionless"});
  QVERIFY2(r.exitCode == 0, r.err.constData());
  const QString out = QString::fromUtf8(r.out);
  QVERIFY(out.contains("comparison on the grasp of"));
  QVERIFY(out.contains("hertz: soft-finger, "));
  QVERIFY(out.contains("frictionless: frictionless"));
  QVERIFY(out.contains("sweep of mu"));
  QVERIFY(out.contains("epsilon-l1"));
}

void TstCliCompare::usageErrors() {
  QCOMPARE(runCli({"compare", kWorld, "--contact-model", "nonsense"}).exitCode, 2);
  QCOMPARE(runCli({"compare", kWorld, "--sweep", "stiffness:1:2:3"}).exitCode, 2);
  QCOMPARE(runCli({"compare", kWorld, "--sweep", "youngs:0:1e9:3"}).exitCode, 2);
  QCOMPARE(runCli({"compare", kWorld, "--sweep", "youngs:1e5:1e9:1"}).exitCode, 2);
  QCOMPARE(runCli({"compare", kWorld, "--json", "--csv"}).exitCode, 2);
  const CliRun missing = runCli({"compare", "/nonexistent/world.xml"});
  QCOMPARE(missing.exitCode, 3);
  QVERIFY(missing.err.contains("/nonexistent/world.xml"));
}

QTEST_GUILESS_MAIN(TstCliCompare)
#include "tst_cli_compare.moc"
