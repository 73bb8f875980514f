// softgrasp-cli on URDF hands: the URDF ThreeFinger world grasps the mug with the same contacts and
// quality as the GraspIt!-format one; info, fk, plan and convert take a .urdf; --package-path resolves
// package:// names and a missing package is one error naming the URI.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

namespace {

using sg::test::CliRun;

CliRun run(const QStringList& args) { return sg::test::runCli(args, sg::test::qSourceDir()); }

void expectExit(const CliRun& r, int code) {
  QVERIFY2(!r.crashed, "softgrasp-cli crashed or hung");
  QVERIFY2(r.exitCode == code,
           qPrintable(QString("exit %1, expected %2; stderr: %3").arg(r.exitCode).arg(code).arg(QString::fromUtf8(r.err))));
}

double maxDiff(const QJsonArray& a, const QJsonArray& b) {
  if (a.size() != b.size()) return INFINITY;
  double d = 0;
  for (int i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i].toDouble() - b[i].toDouble()));
  return d;
}

const QString kUrdf = "models/robots/ThreeFingerURDF/urdf/three_finger.urdf";

}  // namespace

class TestCliUrdf : public QObject {
  Q_OBJECT

 private slots:
  // Auto-grasp of the URDF hand on the mug: the same final DOFs and the same contacts (bodies by chain and link,
  // points and normals) as the GraspIt!-format hand in the same world.
  void autoGraspMakesTheGraspItContacts() {
    const CliRun g = run({"grasp", "worlds/default.xml", "--autograsp", "--json"});
    const CliRun u = run({"grasp", "worlds/threefinger_urdf.xml", "--autograsp", "--json"});
    expectExit(g, 0);
    expectExit(u, 0);
    const QJsonObject gj = g.json(), uj = u.json();
    QCOMPARE(uj["robot"].toString(), QString("three_finger"));
    QVERIFY(maxDiff(gj["dofs"].toArray(), uj["dofs"].toArray()) < 1e-9);
    const QJsonArray gc = gj["contacts"].toArray(), uc = uj["contacts"].toArray();
    QVERIFY(gc.size() >= 3);
    QCOMPARE(uc.size(), gc.size());
    for (int i = 0; i < gc.size(); ++i) {
      const QJsonObject a = gc[i].toObject(), b = uc[i].toObject();
      for (const char* key : {"body1", "body2"})
        QCOMPARE(b[key].toString().replace("three_finger/", "ThreeFinger/"), a[key].toString());
      for (const QString& key : a.keys())
        if (a[key].isArray()) QVERIFY2(maxDiff(a[key].toArray(), b[key].toArray()) < 1e-6, qPrintable(key));
    }
    QVERIFY(uj["warnings"].toArray().isEmpty());
  }

  void qualityMatchesTheGraspItHand() {
    const CliRun g = run({"quality", "worlds/default.xml", "--autograsp", "--json"});
    const CliRun u = run({"quality", "worlds/threefinger_urdf.xml", "--autograsp", "--json"});
    expectExit(g, 0);
    expectExit(u, 0);
    const QJsonObject gm = g.json()["measures"].toObject(), um = u.json()["measures"].toObject();
    QVERIFY(!gm.isEmpty());
    QCOMPARE(um.keys(), gm.keys());
    for (const QString& name : gm.keys())
      if (gm[name].toObject().contains("value"))
        QVERIFY2(std::abs(gm[name].toObject()["value"].toDouble() - um[name].toObject()["value"].toDouble()) < 1e-6,
                 qPrintable(name));
    QVERIFY(gm["epsilon-l1"].toObject()["value"].isDouble());
    QVERIFY(g.json()["forceClosure"].toBool());
    QVERIFY(u.json()["forceClosure"].toBool());
  }

  void infoFkPlanAndConvertTakeUrdf() {
    const CliRun info = run({"info", kUrdf, "--json"});
    expectExit(info, 0);
    QCOMPARE(info.json()["robots"].toArray()[0].toObject()["dofs"].toArray().size(), 4);
    const CliRun fk = run({"fk", kUrdf, "--dofs", "0.5,0.3,0.2,0.1", "--json"});
    expectExit(fk, 0);
    QCOMPARE(fk.json()["links"].toArray().size(), 8);
    const CliRun plan = run({"plan", "worlds/threefinger_urdf.xml", "--steps", "30200", "--json"});
    expectExit(plan, 0);

    QTemporaryDir out;
    const CliRun convert = run({"convert", kUrdf, "--to", "graspit", out.path(), "--json"});
    expectExit(convert, 0);
    const QString written = convert.json()["written"].toString();
    QVERIFY(QFile::exists(written));
    const CliRun again = run({"info", written, "--json"});
    expectExit(again, 0);
    QCOMPARE(again.json()["robots"].toArray()[0].toObject()["dofs"].toArray().size(), 4);
    expectExit(run({"convert", kUrdf, "--to", "sdf", out.path()}), 2);
  }

  void packagePathResolvesPackageUris() {
    QTemporaryDir dir;
    QVERIFY(QDir().mkpath(dir.filePath("pkgs/cube_pkg/meshes")));
    QFile mesh(dir.filePath("pkgs/cube_pkg/meshes/cube.off"));
    QVERIFY(mesh.open(QIODevice::WriteOnly));
    mesh.write("OFF\n4 4 0\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n");
    mesh.close();
    QFile urdf(dir.filePath("hand.urdf"));
    QVERIFY(urdf.open(QIODevice::WriteOnly));
    urdf.write("<robot name=\"h\"><link name=\"p\"><collision><geometry><mesh filename=\"package://cube_pkg/meshes/cube.off\" "
               "scale=\"0.01 0.01 0.01\"/></geometry></collision></link><link name=\"f\"/>"
               "<joint name=\"j\" type=\"revolute\"><parent link=\"p\"/><child link=\"f\"/>"
               "<limit lower=\"0\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint></robot>");
    urdf.close();
    const CliRun ok = run({"info", dir.filePath("hand.urdf"), "--package-path", dir.filePath("pkgs"), "--json"});
    expectExit(ok, 0);
    const CliRun missing = run({"info", dir.filePath("hand.urdf"), "--package-path", dir.path()});
    expectExit(missing, 3);
    const QString err = QString::fromUtf8(missing.err);
    QVERIFY2(err.contains("package://cube_pkg/meshes/cube.off") && err.contains("hand.urdf") &&
                 err.contains(dir.filePath("cube_pkg/meshes/cube.off")),
             qPrintable(err));
    expectExit(run({"info", dir.filePath("hand.urdf"), "--package-path", dir.filePath("nope")}), 2);
  }
};

QTEST_GUILESS_MAIN(TestCliUrdf)
#include "tst_cli_urdf.moc"
