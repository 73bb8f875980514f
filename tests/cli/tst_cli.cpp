// softgrasp-cli end to end: exit codes, JSON content checked against hand-computed values (cube volume
// and inertia, DH forward kinematics), one-line error reports naming file and line.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>

#include "../support/CliRun.h"
#include "../support/TestPaths.h"

namespace {

using sg::test::CliRun;

// A 10 mm cube centred on the origin, outward counter-clockwise quads (12 triangles, 1000 mm³).
const char* kCubeOff =
    "OFF\n8 6 0\n"
    "-5 -5 -5\n5 -5 -5\n5 5 -5\n-5 5 -5\n-5 -5 5\n5 -5 5\n5 5 5\n-5 5 5\n"
    "4 0 3 2 1\n4 4 5 6 7\n4 0 1 5 4\n4 2 3 7 6\n4 0 4 7 3\n4 1 2 6 5\n";
// The same cube without its top: open, 10 triangles.
const char* kOpenBoxOff =
    "OFF\n8 5 0\n"
    "-5 -5 -5\n5 -5 -5\n5 5 -5\n-5 5 -5\n-5 -5 5\n5 -5 5\n5 5 5\n-5 5 5\n"
    "4 0 3 2 1\n4 0 1 5 4\n4 2 3 7 6\n4 0 4 7 3\n4 1 2 6 5\n";

const char* kDof =
    "  <dof type=\"r\"><defaultVelocity>1</defaultVelocity><maxEffort>1e8</maxEffort><Kp>1e9</Kp><Kd>1e6</Kd>"
    "<draggerScale>20</draggerScale></dof>\n";

// Two revolute joints in one chain: base at (10, 0, 20); joint 0 theta=d0, a=50; joint 1 theta=d1, d=5, a=30.
QByteArray twoLinkRobot(const char* secondLinkFile) {
  return QByteArray("<?xml version=\"1.0\" ?>\n<robot type=\"Hand\">\n  <palm>palm.xml</palm>\n") + kDof + kDof +
         "  <chain>\n"
         "    <transform><translation>10 0 20</translation></transform>\n"
         "    <joint type=\"Revolute\"><theta>d0</theta><d>0</d><a>50</a><alpha>0</alpha>"
         "<minValue>-90</minValue><maxValue>90</maxValue></joint>\n"
         "    <joint type=\"Revolute\"><theta>d1</theta><d>5</d><a>30</a><alpha>0</alpha>"
         "<minValue>0</minValue><maxValue>120</maxValue></joint>\n"
         "    <link dynamicJointType=\"Revolute\">link.xml</link>\n"
         "    <link dynamicJointType=\"Revolute\">" +
         secondLinkFile +
         "</link>\n"
         "  </chain>\n"
         "  <eigenGrasps>eigen/two_eigen.xml</eigenGrasps>\n"
         "</robot>\n";
}

// Hand computation of the link origins of the robot above (robot at `base`): link 0 after joint 0,
// link 1 after joint 1; both frames are rotated about z by the summed joint angles.
QVector<double> linkOrigin(int link, double q0, double q1, double baseZ = 0) {
  double x = 10 + 50 * std::cos(q0), y = 50 * std::sin(q0), z = 20 + baseZ;
  if (link == 1) {
    x += 30 * std::cos(q0 + q1);
    y += 30 * std::sin(q0 + q1);
    z += 5;
  }
  return {x, y, z};
}

}  // namespace

class TestCli : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString path(const QString& relative) const { return dir_.filePath(relative); }

  void write(const QString& relative, const QByteArray& text) {
    const QString file = path(relative);
    QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
    QFile f(file);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(file));
    f.write(text);
  }

  static CliRun run(const QStringList& args, const QString& workingDir = {}) {
    return sg::test::runCli(args, workingDir);
  }

  static void expectExit(const CliRun& r, int code) {
    QVERIFY2(!r.crashed, "softgrasp-cli crashed or hung");
    QVERIFY2(r.exitCode == code, qPrintable(QString("exit %1, expected %2; stderr: %3")
                                                .arg(r.exitCode)
                                                .arg(code)
                                                .arg(QString::fromUtf8(r.err))));
  }

  // Exactly one line on stderr, naming the file.
  static void expectOneLineError(const CliRun& r, const QString& fileName) {
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.startsWith("softgrasp-cli: "), qPrintable(err));
    QCOMPARE(err.count('\n'), 1);
    QVERIFY2(err.contains(fileName), qPrintable(err));
  }

  static void compareVec(const QJsonValue& value, const QVector<double>& expected, double tol = 1e-9) {
    const QJsonArray a = value.toArray();
    QCOMPARE(a.size(), expected.size());
    for (int i = 0; i < expected.size(); ++i)
      QVERIFY2(std::abs(a[i].toDouble() - expected[i]) <= tol,
               qPrintable(QString("component %1: %2 vs %3").arg(i).arg(a[i].toDouble()).arg(expected[i])));
  }

  static QString defaultWorldPath() { return sg::test::qSourceDir() + "/worlds/default.xml"; }
  // softgrasp-cli on the bundled default world (ThreeFinger above a soft-fingered mug grasp), run from the
  // source tree as a user would.
  static CliRun runOnDefaultWorld(const QString& command, const QStringList& options) {
    return run(QStringList{command, "worlds/default.xml"} + options, sg::test::qSourceDir());
  }

  // The chain labels ("chain0", ...) of ThreeFinger bodies among the contacts' body1/body2 labels.
  static QSet<QString> fingerChains(const QJsonArray& contacts) {
    QSet<QString> chains;
    const QRegularExpression finger("^ThreeFinger/(chain[0-9]+)/link[0-9]+$");
    for (const auto& c : contacts)
      for (const char* key : {"body1", "body2"}) {
        const auto m = finger.match(c.toObject()[key].toString());
        if (m.hasMatch()) chains.insert(m.captured(1));
      }
    return chains;
  }

  // The number after "<label> [<measure>]: " in text output (the measures list), or NaN.
  static double textMeasure(const QByteArray& out, const QString& measure) {
    const auto m = QRegularExpression("\\[" + QRegularExpression::escape(measure) + "\\]: ([-+0-9.e]+)")
                       .match(QString::fromUtf8(out));
    return m.hasMatch() ? m.captured(1).toDouble() : std::nan("");
  }

  static QJsonObject findLink(const QJsonObject& fk, int chain, int link) {
    for (const auto& v : fk["links"].toArray())
      if (v.toObject()["chain"].toInt() == chain && v.toObject()["link"].toInt() == link) return v.toObject();
    return {};
  }

  // The quaternion of a rotation by `angle` about z, w x y z (up to sign).
  static void compareRotationZ(const QJsonObject& pose, double angle) {
    const QJsonArray q = pose["quaternion_wxyz"].toArray();
    const double sign = q[0].toDouble() < 0 ? -1 : 1;
    compareVec(QJsonArray{sign * q[0].toDouble(), sign * q[1].toDouble(), sign * q[2].toDouble(),
                          sign * q[3].toDouble()},
               {std::cos(angle / 2), 0, 0, std::sin(angle / 2)});
    const QJsonArray R = pose["rotation"].toArray();
    compareVec(R[0], {std::cos(angle), -std::sin(angle), 0});
    compareVec(R[1], {std::sin(angle), std::cos(angle), 0});
    compareVec(R[2], {0, 0, 1});
  }

 private slots:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    write("models/objects/cube.off", kCubeOff);
    write("models/objects/cube.xml",
          "<?xml version=\"1.0\" ?>\n<root>\n  <material>rubber</material>\n  <youngs>1500000</youngs>\n"
          "  <mass>50</mass>\n  <geometryFile type=\"off\">cube.off</geometryFile>\n</root>\n");
    write("models/obstacles/open.off", kOpenBoxOff);
    write("models/obstacles/open.xml",
          "<root>\n  <material>wood</material>\n  <geometryFile type=\"off\">open.off</geometryFile>\n</root>\n");
    write("models/robots/Two/Two.xml", twoLinkRobot("link.xml"));
    write("models/robots/Two/iv/cube.off", kCubeOff);
    write("models/robots/Two/iv/palm.xml",
          "<root><material>wood</material><mass>100</mass><geometryFile type=\"off\">cube.off</geometryFile></root>\n");
    write("models/robots/Two/iv/link.xml",
          "<root><material>rubber</material><mass>20</mass><geometryFile type=\"off\">cube.off</geometryFile></root>\n");
    write("models/robots/Two/eigen/two_eigen.xml",
          "<EigenGrasps dimensions=\"2\">\n  <EG><EigenValue value=\"0.5\"/><DimVals d0=\"1.0\" d1=\"1.0\"/></EG>\n"
          "</EigenGrasps>\n");
    write("models/robots/Two/TwoMissingLink.xml", twoLinkRobot("nolink.xml"));
    // Names an eigengrasp file that does not exist: loads with a warning (as GraspIt! does, silently).
    write("models/robots/Two/TwoNoEigen.xml",
          twoLinkRobot("link.xml").replace("eigen/two_eigen.xml", "eigen/none_eigen.xml"));
    write("worlds/noeigen.xml",
          "<?xml version=\"1.0\" ?>\n<world>\n"
          "  <graspableBody><filename>models/objects/cube.xml</filename>\n"
          "    <transform><translation>60 0 0</translation></transform></graspableBody>\n"
          "  <robot><filename>models/robots/Two/TwoNoEigen.xml</filename></robot>\n"
          "</world>\n");
    // One prismatic joint: theta fixed at 90°, d = d0 + 5 mm, a = 10 mm; link origin (0, 10, d0 + 5).
    write("models/robots/Slide/Slide.xml",
          QByteArray("<robot type=\"Hand\">\n  <palm>palm.xml</palm>\n") + kDof +
              "  <chain>\n    <transform><translation>0 0 0</translation></transform>\n"
              "    <joint type=\"Prismatic\"><theta>90</theta><d>d0+5</d><a>10</a><alpha>0</alpha>"
              "<minValue>0</minValue><maxValue>50</maxValue></joint>\n"
              "    <link dynamicJointType=\"Prismatic\">palm.xml</link>\n  </chain>\n</robot>\n");
    write("models/robots/Slide/iv/cube.off", kCubeOff);
    write("models/robots/Slide/iv/palm.xml",
          "<root><material>metal</material><mass>10</mass><geometryFile type=\"off\">cube.off</geometryFile></root>\n");
    write("worlds/test.xml",
          "<?xml version=\"1.0\" ?>\n<world>\n"
          "  <obstacle><filename>models/obstacles/open.xml</filename></obstacle>\n"
          "  <graspableBody><filename>models/objects/cube.xml</filename>\n"
          "    <transform><translation>0 0 100</translation></transform></graspableBody>\n"
          "  <robot><filename>models/robots/Two/Two.xml</filename><dofValues>0.5 0.25</dofValues>\n"
          "    <transform><translation>0 0 200</translation></transform></robot>\n"
          "  <camera><position>0 0 500</position><orientation>0 0 0 1</orientation>"
          "<focalDistance>500</focalDistance></camera>\n"
          "</world>\n");
    // Line 3 holds the bad mass.
    write("bad/badmass.xml",
          "<root>\n  <material>wood</material>\n  <mass>abc</mass>\n"
          "  <geometryFile type=\"off\">../models/objects/cube.off</geometryFile>\n</root>\n");
    write("bad/broken.xml", "<root>\n  <material>wood\n  <mass>10</mass>\n</root>\n");
  }

  void helpAndVersion() {
    const CliRun help = run({"--help"});
    expectExit(help, 0);
    QVERIFY(help.out.contains("info"));
    QVERIFY(help.out.contains("fk"));
    const CliRun infoHelp = run({"info", "--help"});
    expectExit(infoHelp, 0);
    QVERIFY(infoHelp.out.contains("--model-root"));
    const CliRun version = run({"--version"});
    expectExit(version, 0);
    QCOMPARE(version.out, QStringLiteral("softgrasp-cli " SG_PROJECT_VERSION "\n"));  // project() in CMakeLists.txt
  }

  void usageErrors() {
    expectExit(run({}), 2);
    const CliRun unknown = run({"frobnicate"});
    expectExit(unknown, 2);
    QVERIFY(unknown.err.contains("frobnicate"));
    expectExit(run({"info"}), 2);                                          // missing FILE
    expectExit(run({"info", path("models/objects/cube.xml"), "--bogus"}), 2);  // unknown option
    expectExit(run({"info", path("models/objects/cube.xml"), "extra"}), 2);   // extra argument
    expectExit(run({"info", path("models/objects/cube.xml"), "--model-root"}), 2);  // missing value
    expectExit(run({"--bogus"}), 2);
  }

  void infoWarnsAboutInterpenetration() {
    // The gallery's ball (a primitive sphere, R = 40 mm) 2 mm into the table, then resting 0.1 mm above it.
    const auto world = [&](double z) {
      const QByteArray src = sg::test::sourceDir();
      return "<world><obstacle><filename>" + src + "/models/obstacles/table.xml</filename>"
                        "<transform><fullTransform>(+1 +0 +0 +0)[+0 +0 +0]</fullTransform></transform></obstacle>"
                        "<graspableBody><filename>" + src + "/models/objects/sphere.xml</filename>"
             "<transform><fullTransform>(+1 +0 +0 +0)[+0 +0 +" +
             QByteArray::number(z) + "]</fullTransform></transform></graspableBody></world>";
    };
    write("sunk.xml", world(38));
    const CliRun sunk = run({"info", path("sunk.xml"), "--json"});
    expectExit(sunk, 0);
    const QJsonArray warnings = sunk.json()["warnings"].toArray();
    QCOMPARE(warnings.size(), 1);
    const QString w = warnings[0].toString();
    QVERIFY2(w.startsWith("interpenetrating: ") && w.endsWith(" 2.00 mm deep"), qPrintable(w));
    QVERIFY(sunk.err.contains("warning: interpenetrating"));
    write("resting.xml", world(40.1));
    const CliRun resting = run({"info", path("resting.xml"), "--json"});
    expectExit(resting, 0);
    QVERIFY(resting.json()["warnings"].toArray().isEmpty());
    QVERIFY(resting.err.isEmpty());
  }

  void bodyInfoJson() {
    const CliRun r = run({"info", path("models/objects/cube.xml"), "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["kind"].toString(), QString("body"));
    const QJsonArray bodies = doc["graspables"].toArray();
    QCOMPARE(bodies.size(), 1);
    const QJsonObject cube = bodies[0].toObject();
    QCOMPARE(cube["triangles"].toInt(), 12);
    QCOMPARE(cube["material"].toString(), QString("rubber"));
    QCOMPARE(cube["rigid"].toBool(), false);
    QCOMPARE(cube["youngs_Pa"].toDouble(), 1.5e6);
    QVERIFY(cube["closed"].toBool());
    QVERIFY(std::abs(cube["volume_mm3"].toDouble() - 1000.0) < 1e-6);
    const QJsonObject mass = cube["massProperties"].toObject();
    QCOMPARE(mass["mass_g"].toDouble(), 50.0);
    compareVec(mass["cog_mm"], {0, 0, 0}, 1e-9);
    // Solid cube of side s: inertia per mass about the centre = s²/6 on the diagonal.
    const QJsonArray I = mass["inertiaPerMass_mm2"].toArray();
    compareVec(I[0], {100.0 / 6, 0, 0}, 1e-6);
    compareVec(I[1], {0, 100.0 / 6, 0}, 1e-6);
    compareVec(I[2], {0, 0, 100.0 / 6}, 1e-6);
    QVERIFY(std::abs(cube["maxRadius_mm"].toDouble() - std::sqrt(75.0)) < 1e-6);
    compareVec(cube["boundsBody_mm"].toObject()["size"], {10, 10, 10});
    QCOMPARE(doc["totals"].toObject()["triangles"].toInt(), 12);
  }

  void meshInfoJson() {
    const CliRun r = run({"info", path("models/obstacles/open.off"), "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["kind"].toString(), QString("mesh"));
    const QJsonObject box = doc["graspables"].toArray()[0].toObject();
    QCOMPARE(box["triangles"].toInt(), 10);
    QCOMPARE(box["closed"].toBool(), false);
    QVERIFY(box["volume_mm3"].isNull());
  }

  void bodyInfoText() {
    const CliRun r = run({"info", path("models/objects/cube.xml")});
    expectExit(r, 0);
    QVERIFY(r.out.contains("12 triangles"));
    QVERIFY(r.out.contains("50 g"));
    QVERIFY(r.out.contains("1000 mm"));
  }

  void robotInfoJson() {
    const CliRun r = run({"info", path("models/robots/Two/Two.xml"), "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["kind"].toString(), QString("robot"));
    const QJsonArray robots = doc["robots"].toArray();
    QCOMPARE(robots.size(), 1);
    const QJsonObject robot = robots[0].toObject();
    QCOMPARE(robot["dofCount"].toInt(), 2);
    QCOMPARE(robot["eigengraspCount"].toInt(), 1);
    const QJsonArray dofs = robot["dofs"].toArray();
    QCOMPARE(dofs[1].toObject()["unit"].toString(), QString("rad"));
    QVERIFY(std::abs(dofs[1].toObject()["max"].toDouble() - 120 * M_PI / 180) < 1e-9);
    const QJsonObject chain = robot["chains"].toArray()[0].toObject();
    const QJsonObject joint1 = chain["joints"].toArray()[1].toObject();
    QCOMPARE(joint1["expression"].toString(), QString("d1"));
    QCOMPARE(joint1["dh"].toObject()["d_mm"].toDouble(), 5.0);
    QCOMPARE(joint1["dh"].toObject()["a_mm"].toDouble(), 30.0);
    const QJsonArray links = chain["links"].toArray();
    QCOMPARE(links.size(), 2);
    // Default DOF values are 0: the links lie along x.
    compareVec(links[1].toObject()["pose"].toObject()["position_mm"], linkOrigin(1, 0, 0));
    const QJsonObject totals = doc["totals"].toObject();
    QCOMPARE(totals["bodies"].toInt(), 3);
    QCOMPARE(totals["triangles"].toInt(), 36);
    QCOMPARE(totals["dofs"].toInt(), 2);
    QCOMPARE(totals["dynamicMass_g"].toDouble(), 140.0);
  }

  void worldInfoJson() {
    const CliRun r = run({"info", path("worlds/test.xml"), "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["kind"].toString(), QString("world"));
    QCOMPARE(doc["obstacles"].toArray().size(), 1);
    QCOMPARE(doc["obstacles"].toArray()[0].toObject()["massProperties"].isNull(), true);
    const QJsonObject cube = doc["graspables"].toArray()[0].toObject();
    QCOMPARE(cube["triangles"].toInt(), 12);
    compareVec(cube["boundsWorld_mm"].toObject()["min"], {-5, -5, 95});
    compareVec(cube["boundsWorld_mm"].toObject()["max"], {5, 5, 105});
    const QJsonObject robot = doc["robots"].toArray()[0].toObject();
    QVERIFY(std::abs(robot["dofs"].toArray()[0].toObject()["value"].toDouble() - 0.5) < 1e-12);
    const QJsonArray links = robot["chains"].toArray()[0].toObject()["links"].toArray();
    compareVec(links[1].toObject()["pose"].toObject()["position_mm"], linkOrigin(1, 0.5, 0.25, 200));
    QVERIFY(!doc["camera"].isNull());
    QCOMPARE(doc["camera"].toObject()["focalDistance_mm"].toDouble(), 500.0);
    const QJsonObject totals = doc["totals"].toObject();
    QCOMPARE(totals["bodies"].toInt(), 5);
    QCOMPARE(totals["triangles"].toInt(), 10 + 12 + 36);
    QCOMPARE(totals["robots"].toInt(), 1);
    QCOMPARE(totals["dynamicMass_g"].toDouble(), 50.0 + 100.0 + 2 * 20.0);
    // The text form works on the same world.
    const CliRun text = run({"info", path("worlds/test.xml")});
    expectExit(text, 0);
    QVERIFY(text.out.contains("totals: 5 bodies"));
  }

  void fkMatchesHandComputation() {
    const double q0 = 0.5, q1 = 0.25;
    const CliRun r = run({"fk", path("models/robots/Two/Two.xml"), "--dofs", "0.5,0.25", "--json"});
    expectExit(r, 0);
    const QJsonObject fk = r.json();
    QCOMPARE(fk["dofs"].toArray().size(), 2);
    compareVec(fk["palm"].toObject()["position_mm"], {0, 0, 0});
    const QJsonObject link0 = findLink(fk, 0, 0), link1 = findLink(fk, 0, 1);
    compareVec(link0["position_mm"], linkOrigin(0, q0, q1));
    compareVec(link1["position_mm"], linkOrigin(1, q0, q1));
    compareRotationZ(link0, q0);
    compareRotationZ(link1, q0 + q1);
  }

  void fkDegreesAndClamping() {
    const CliRun deg = run({"fk", path("models/robots/Two/Two.xml"), "--dofs=30,45", "--degrees", "--json"});
    expectExit(deg, 0);
    compareVec(findLink(deg.json(), 0, 1)["position_mm"], linkOrigin(1, M_PI / 6, M_PI / 4));
    // d1's range starts at 0: -0.3 is clamped, with a warning, and reported.
    const CliRun clamped = run({"fk", path("models/robots/Two/Two.xml"), "--dofs", "0.5,-0.3", "--json"});
    expectExit(clamped, 0);
    QVERIFY(clamped.err.contains("clamped"));
    const QJsonObject d1 = clamped.json()["dofs"].toArray()[1].toObject();
    QVERIFY(d1["clamped"].toBool());
    QCOMPARE(d1["value"].toDouble(), 0.0);
    compareVec(findLink(clamped.json(), 0, 1)["position_mm"], linkOrigin(1, 0.5, 0));
    // Text output.
    const CliRun text = run({"fk", path("models/robots/Two/Two.xml"), "--dofs", "0.5,0.25"});
    expectExit(text, 0);
    QVERIFY(text.out.contains("Two/chain0/link1"));
  }

  void prismaticDofsStayInMm() {
    const QString robot = path("models/robots/Slide/Slide.xml");
    const CliRun info = run({"info", robot, "--json"});
    expectExit(info, 0);
    const QJsonObject r = info.json()["robots"].toArray()[0].toObject();
    QCOMPARE(r["dofs"].toArray()[0].toObject()["unit"].toString(), QString("mm"));
    QCOMPARE(r["dofs"].toArray()[0].toObject()["max"].toDouble(), 50.0);
    const QJsonObject joint = r["chains"].toArray()[0].toObject()["joints"].toArray()[0].toObject();
    QCOMPARE(joint["type"].toString(), QString("prismatic"));
    QCOMPARE(joint["expression"].toString(), QString("d0+5"));
    QVERIFY(std::abs(joint["dh"].toObject()["theta_rad"].toDouble() - M_PI / 2) < 1e-12);
    // --degrees converts revolute DOFs only: 20 stays 20 mm.
    const CliRun fk = run({"fk", robot, "--dofs", "20", "--degrees", "--json"});
    expectExit(fk, 0);
    const QJsonObject link = findLink(fk.json(), 0, 0);
    compareVec(link["position_mm"], {0, 10, 25});
    compareRotationZ(link, M_PI / 2);
  }

  void fkBadDofs() {
    const QString robot = path("models/robots/Two/Two.xml");
    expectExit(run({"fk", robot, "--dofs", "0.5"}), 2);            // too few
    expectExit(run({"fk", robot, "--dofs", "0.5,0.1,0.2"}), 2);    // too many
    expectExit(run({"fk", robot, "--dofs", "0.5,abc"}), 2);        // not a number
    expectExit(run({"fk", robot, "--dofs", "0.5,"}), 2);           // empty entry
    expectExit(run({"fk", robot, "--dofs", "nan,0"}), 2);          // not finite
    expectExit(run({"fk", robot}), 2);                             // --dofs missing
    // A body file is not a robot: bad input.
    const CliRun body = run({"fk", path("models/objects/cube.xml"), "--dofs", "0"});
    expectExit(body, 3);
    expectOneLineError(body, "cube.xml");
  }

  void badXmlNamesFileAndLine() {
    const CliRun mass = run({"info", path("bad/badmass.xml")});
    expectExit(mass, 3);
    expectOneLineError(mass, "badmass.xml");
    QVERIFY2(mass.err.contains("badmass.xml:3:"), mass.err.constData());
    const CliRun broken = run({"info", path("bad/broken.xml"), "--json"});
    expectExit(broken, 3);
    expectOneLineError(broken, "broken.xml");
    QVERIFY2(QRegularExpression("broken\\.xml:[0-9]+: ").match(QString::fromUtf8(broken.err)).hasMatch(),
             broken.err.constData());
    QVERIFY(broken.out.isEmpty());
  }

  void missingFilesAreBadInput() {
    const CliRun missing = run({"info", path("nowhere/none.xml")});
    expectExit(missing, 3);
    expectOneLineError(missing, "none.xml");
    const CliRun missingRobot = run({"fk", path("nowhere/robot.xml"), "--dofs", "0,0"});
    expectExit(missingRobot, 3);
    // A robot naming a link file that does not exist: the error names the missing file.
    const CliRun missingLink = run({"info", path("models/robots/Two/TwoMissingLink.xml")});
    expectExit(missingLink, 3);
    expectOneLineError(missingLink, "nolink.xml");
    // A directory is not a model file.
    expectExit(run({"info", path("models")}), 3);
  }

  void modelRootResolvesNames() {
    // A world in a directory with no models/ ancestor finds its files only through --model-root.
    QTemporaryDir other;
    QVERIFY(other.isValid());
    const QString world = other.filePath("w.xml");
    QFile f(world);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<world><graspableBody><filename>models/objects/cube.xml</filename></graspableBody></world>\n");
    f.close();
    const CliRun without = run({"info", world});
    expectExit(without, 3);
    expectOneLineError(without, "w.xml");
    const CliRun with = run({"info", world, "--json", "--model-root", dir_.path()});
    expectExit(with, 0);
    QCOMPARE(with.json()["graspables"].toArray()[0].toObject()["triangles"].toInt(), 12);
    expectExit(run({"info", world, "--model-root", path("not-a-dir")}), 2);
  }

  void defaultWorld() {
    const QString world = sg::test::qSourceDir() + "/worlds/default.xml";
    QVERIFY2(QFile::exists(world), "worlds/default.xml is missing from the source tree");
    const CliRun r = run({"info", "worlds/default.xml", "--json"}, sg::test::qSourceDir());
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QVERIFY(doc["robots"].toArray().size() >= 1);
    QVERIFY(doc["graspables"].toArray().size() >= 1);
    QVERIFY(doc["robots"].toArray()[0].toObject()["dofCount"].toInt() > 0);
    QVERIFY(doc["graspables"].toArray()[0].toObject()["triangles"].toInt() > 0);
  }

  // Contacts numbered from 1 in text (#1, as the GUI's table), 0-based "index" in JSON; quality's
  // evaluated contacts name the contacts found they came from, and whether they were merged.
  void contactNumbering() {
    const CliRun r = runOnDefaultWorld("grasp", {"--autograsp", "--json"});
    expectExit(r, 0);
    const QJsonArray contacts = r.json()["contacts"].toArray();
    QVERIFY(contacts.size() >= 3);
    for (int i = 0; i < contacts.size(); ++i) QCOMPARE(contacts[i].toObject()["index"].toInt(-1), i);
    const CliRun text = runOnDefaultWorld("grasp", {"--autograsp"});
    expectExit(text, 0);
    const QByteArray first = "#1 " + contacts[0].toObject()["body1"].toString().toUtf8() + " – ";
    QVERIFY2(text.out.contains(first), text.out.constData());
    QVERIFY(text.out.contains("#" + QByteArray::number(contacts.size()) + " "));
    QVERIFY(!text.out.contains("#0 "));
    const CliRun q = runOnDefaultWorld("quality", {"--autograsp", "--json"});
    expectExit(q, 0);
    const QJsonArray evaluated = q.json()["contacts"].toArray();
    QVERIFY(!evaluated.isEmpty());
    for (const QJsonValue& v : evaluated) {
      const QJsonArray sources = v.toObject()["contacts"].toArray();
      QVERIFY(!sources.isEmpty());
      QCOMPARE(v.toObject()["merged"].toBool(), sources.size() > 1);
      const QJsonObject found = contacts[sources[0].toInt()].toObject();
      QVERIFY(found["body1"] == v.toObject()["body1"] || found["body2"] == v.toObject()["body2"] ||
              found["body1"] == v.toObject()["body2"]);
    }
    const CliRun qText = runOnDefaultWorld("quality", {"--autograsp"});
    expectExit(qText, 0);
    const int firstSource = evaluated[0].toObject()["contacts"].toArray()[0].toInt();
    QVERIFY2(qText.out.contains("#" + QByteArray::number(firstSource + 1)), qText.out.constData());
  }

  // The text prints friction edges as the inspector shows them (unit normal force, mu applied: fz = 1).
  void frictionEdgesOneConvention() {
    const CliRun r = runOnDefaultWorld("quality", {"--autograsp"});
    expectExit(r, 0);
    const QList<QByteArray> lines = r.out.split('\n');
    int checked = 0;
    for (int i = 0; i < lines.size(); ++i) {
      if (!lines[i].contains("friction edges: ")) continue;
      QVERIFY2(lines[i].contains("unit normal force, mu applied: fx fy fz tz"), lines[i].constData());
      const QList<QByteArray> values = lines[i + 1].simplified().split(' ');
      QCOMPARE(values.size(), 4);
      QCOMPARE(values[2], QByteArray("1"));
      ++checked;
    }
    QVERIFY(checked >= 3);
  }

  void graspClosesEveryFinger() {
    QVERIFY(QFile::exists(defaultWorldPath()));
    const CliRun r = runOnDefaultWorld("grasp", {"--autograsp", "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["robot"].toString(), QString("ThreeFinger"));
    QCOMPARE(doc["grasp"].toString(), QString("contact"));
    QVERIFY(!doc.contains("approach"));
    QCOMPARE(doc["collision"].toBool(), false);
    QCOMPARE(fingerChains(doc["contacts"].toArray()), (QSet<QString>{"chain0", "chain1", "chain2"}));
    // The finger DOFs (d1..d3) closed from their open values; the spread DOF (d0, velocity 0) stayed.
    const QJsonArray dofs = doc["dofs"].toArray();
    const CliRun open = runOnDefaultWorld("grasp", {"--no-close", "--json"});
    expectExit(open, 0);
    const QJsonArray openDofs = open.json()["dofs"].toArray();
    QCOMPARE(dofs.size(), 4);
    QCOMPARE(dofs[0].toDouble(), openDofs[0].toDouble());
    for (int k = 1; k < 4; ++k)
      QVERIFY2(dofs[k].toDouble() > openDofs[k].toDouble() + 0.5, qPrintable(QString::number(dofs[k].toDouble())));
    QVERIFY(doc["warnings"].toArray().isEmpty());
    QVERIFY(r.err.isEmpty());
    // Closing is grasp's default: the same DOF values without --autograsp.
    const CliRun byDefault = runOnDefaultWorld("grasp", {"--json"});
    expectExit(byDefault, 0);
    QCOMPARE(byDefault.json()["dofs"].toArray(), dofs);
    // Text: the contacts by label and the final DOF values.
    const CliRun text = runOnDefaultWorld("grasp", {"--autograsp"});
    expectExit(text, 0);
    for (const char* finger : {"ThreeFinger/chain0/", "ThreeFinger/chain1/", "ThreeFinger/chain2/"})
      QVERIFY2(text.out.contains(finger), text.out.constData());
    QVERIFY(text.out.contains("dof values: "));
    QVERIFY(text.out.contains("contacts: " + QByteArray::number(doc["contacts"].toArray().size())));
  }

  // Hand contacts come first; --sensing gives, per hand-body pair, the contact signal, the separation and
  // the frames at the witness points (z = inward normal; the two witness points are `separation` apart).
  void graspSensingOutputs() {
    const CliRun r = runOnDefaultWorld("grasp", {"--autograsp", "--sensing", "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    const QJsonArray contacts = doc["contacts"].toArray();
    QVERIFY(contacts.size() > 3);  // the fingertips and the mug's rim on the table
    for (int i = 0; i < contacts.size(); ++i) {
      const bool hand = contacts[i].toObject()["body2"].toString().startsWith("ThreeFinger/");
      QCOMPARE(hand, i < 3);
    }
    const QJsonArray sensing = doc["sensing"].toArray();
    int touching = 0;
    for (const auto& v : sensing) {
      const QJsonObject p = v.toObject();
      QVERIFY(p["body1"].toString().startsWith("ThreeFinger/"));
      QVERIFY(!p["body2"].toString().startsWith("ThreeFinger/"));
      const double separation = p["separation"].toDouble();
      QCOMPARE(p["contact"].toBool(), separation <= 0.2);
      QVERIFY(!p["colliding"].toBool());
      const QJsonArray a = p["frame1"].toObject()["position_mm"].toArray();
      const QJsonArray b = p["frame2"].toObject()["position_mm"].toArray();
      const double gap = std::hypot(a[0].toDouble() - b[0].toDouble(), a[1].toDouble() - b[1].toDouble(),
                                    a[2].toDouble() - b[2].toDouble());
      QVERIFY2(std::abs(gap - separation) < 1e-6 * std::max(1.0, separation), qPrintable(p["body1"].toString()));
      if (p["contact"].toBool()) {
        ++touching;
        QCOMPARE(p["body2"].toString(), QString("mug"));
      }
    }
    QCOMPARE(touching, 3);  // one fingertip pair per finger
    const CliRun text = runOnDefaultWorld("grasp", {"--autograsp", "--sensing"});
    expectExit(text, 0);
    QVERIFY(text.out.contains("(3 by a hand)"));
    QVERIFY(text.out.contains("sensing: " + QByteArray::number(sensing.size()) + " pair(s)"));
    QVERIFY(!runOnDefaultWorld("grasp", {"--json"}).json().contains("sensing"));
  }

  void graspNoCloseKeepsDofs() {
    const CliRun r = runOnDefaultWorld("grasp", {"--no-close", "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["grasp"].toString(), QString("not run"));
    const QJsonArray dofs = doc["dofs"].toArray();
    for (int k = 1; k < 4; ++k) QCOMPARE(dofs[k].toDouble(), 0.0);
    QVERIFY(fingerChains(doc["contacts"].toArray()).isEmpty());  // open hand 50 mm above the mug
  }

  void approachWithAndWithoutDistance() {
    // The palm is palm-down (approach direction -z in the world) with nothing within 30 mm below the open
    // hand, so the default approach moves it the full 30 mm.
    const CliRun start = runOnDefaultWorld("grasp", {"--no-close", "--json"});
    expectExit(start, 0);
    const QJsonArray p0 = start.json()["palm"].toObject()["position_mm"].toArray();
    const double x0 = p0[0].toDouble(), y0 = p0[1].toDouble(), z0 = p0[2].toDouble();
    const CliRun byDefault = runOnDefaultWorld("grasp", {"--approach", "--no-close", "--json"});
    expectExit(byDefault, 0);
    QCOMPARE(byDefault.json()["approach"].toString(), QString("reached"));
    compareVec(byDefault.json()["palm"].toObject()["position_mm"], {x0, y0, z0 - 30}, 1e-6);
    const CliRun five = runOnDefaultWorld("grasp", {"--approach", "5", "--no-close", "--json"});
    expectExit(five, 0);
    compareVec(five.json()["palm"].toObject()["position_mm"], {x0, y0, z0 - 5}, 1e-6);
    const CliRun equals = runOnDefaultWorld("grasp", {"--approach=12.5", "--no-close", "--json"});
    expectExit(equals, 0);
    compareVec(equals.json()["palm"].toObject()["position_mm"], {x0, y0, z0 - 12.5}, 1e-6);
    // Without a value, the next argument is not taken as the distance unless it is a number.
    const CliRun before = run({"grasp", "--approach", "worlds/default.xml", "--no-close", "--json"},
                              sg::test::qSourceDir());
    expectExit(before, 0);
    QCOMPARE(before.json()["palm"].toObject()["position_mm"], byDefault.json()["palm"].toObject()["position_mm"]);
    // quality accepts it the same way.
    const CliRun quality = runOnDefaultWorld("quality", {"--approach", "--json"});
    expectExit(quality, 0);
    QCOMPARE(quality.json()["approach"].toString(), QString("reached"));
    // Help shows the value as optional.
    const CliRun help = run({"grasp", "--help"});
    expectExit(help, 0);
    QVERIFY(help.out.contains("[--approach [MM]]"));
    QVERIFY(help.out.contains("30 mm"));
    QVERIFY(help.out.contains("--autograsp"));
  }

  // One flag per concept (ui/cli/README.md §One spelling per concept): a former spelling still works and prints a
  // deprecation note on stderr; the current one prints none; both give the same output.
  void formerFlagSpellingsAreAliases() {
    const CliRun old = runOnDefaultWorld("contact", {"--model", "point", "--json"});
    expectExit(old, 0);
    QVERIFY2(old.err.contains("--model is deprecated, use --contact-model"), old.err.constData());
    QCOMPARE(old.json()["model"].toString(), QString("point"));
    const CliRun current = runOnDefaultWorld("contact", {"--contact-model", "point", "--json"});
    expectExit(current, 0);
    QVERIFY2(!current.err.contains("deprecated"), current.err.constData());
    QCOMPARE(current.out, old.out);
    const CliRun compare = runOnDefaultWorld("compare", {"--models", "point,frictionless", "--json"});
    expectExit(compare, 0);
    QVERIFY2(compare.err.contains("--models is deprecated, use --contact-model"), compare.err.constData());
    QCOMPARE(compare.json()["models"].toArray().size(), 2);
    // The alias and its option are one option: both at once is the same option given twice.
    expectExit(runOnDefaultWorld("contact", {"--model", "point", "--contact-model", "point"}), 2);
  }

  void qualityOfTheDefaultGrasp() {
    const CliRun r = runOnDefaultWorld("quality", {"--autograsp", "--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["graspable"].toString(), QString("mug"));
    QCOMPARE(doc["grasp"].toString(), QString("contact"));
    const QJsonArray contacts = doc["contacts"].toArray();
    QCOMPARE(contacts.size(), 3);
    QCOMPARE(fingerChains(contacts), (QSet<QString>{"chain0", "chain1", "chain2"}));
    for (const auto& value : contacts) {
      const QJsonObject c = value.toObject();
      QCOMPARE(c["kind"].toString(), QString("soft-finger"));  // soft fingertips
      QCOMPARE(c["frictionEdgeCount"].toInt(), 20);
      QCOMPARE(c["frictionEdges"].toArray().size(), 20);
      QCOMPARE(c["wrenches"].toArray().size(), 20);
      QCOMPARE(c["wrenches"].toArray()[0].toArray().size(), 6);
      const QJsonObject soft = c["model"].toObject();  // the soft finger's own description
      QVERIFY(soft["neighbourhood1"].toInt() > 0 && soft["neighbourhood2"].toInt() > 0);
      for (const char* fit : {"fit1", "fit2"})
        for (const char* coefficient : {"a_per_mm", "b_per_mm", "c_per_mm", "kappaMax_per_mm", "kappaMin_per_mm"})
          QVERIFY2(soft[fit].toObject()[coefficient].isDouble(), coefficient);
      // Every fit says whether it is supported, an unreliable one why, and the patch its fallback.
      bool unreliable = false;
      for (const char* name : {"fit1", "fit2"}) {
        const QJsonObject fit = soft[name].toObject();
        const QString status = fit["status"].toString();
        QVERIFY2((QStringList{"ok", "too-few-points", "degenerate", "unreliable"}).contains(status), qPrintable(status));
        QVERIFY(fit["relativeResidual"].isDouble() && fit["neighbourhoodRadius_mm"].toDouble() > 0);
        if (status == "unreliable") {
          unreliable = true;
          QVERIFY(fit["statusNote"].toString().contains("residual"));
          QCOMPARE(fit["kappaMax_per_mm"].toDouble(), 0.0);  // the jet's unreliable fit is taken as flat
        }
        qInfo().noquote() << name << status << fit["relativeResidual"].toDouble() << fit["statusNote"].toString();
      }
      const QString fallback = soft["patchFallback"].toString();
      QVERIFY2((QStringList{"none", "flat-direction", "conforming-direction", "failed-fit", "unreliable-fit"})
                   .contains(fallback), qPrintable(fallback));
      if (unreliable) QCOMPARE(fallback, QString("unreliable-fit"));
      QCOMPARE(soft["patchFallbackReason"].toString().isEmpty(), fallback == "none");
      QVERIFY(soft["relativeRadiusMin_mm"].toDouble() > 0);
      QVERIFY(soft["relativeRadiusMax_mm"].toDouble() >= soft["relativeRadiusMin_mm"].toDouble());
      QVERIFY(soft["semiAxisLong_mm"].toDouble() >= soft["semiAxisShort_mm"].toDouble());
      QVERIFY(soft["semiAxisShort_mm"].toDouble() > 0);
      QCOMPARE(soft["axisLong"].toArray().size(), 3);
      QVERIFY(c["maxTorsionalFriction_Nmm"].toDouble() > 0);
      // The first soft edge is pure torsion of e_n mm (the pole of the friction ellipsoid).
      const QJsonArray pole = c["frictionEdges"].toArray()[0].toArray();
      QVERIFY(std::abs(pole[5].toDouble() - c["torsion_mm"].toDouble()) < 1e-12);
    }
    // Force closure once, from ε L1; the hulls only say how they were built (the L1 hull for volume-l1).
    QVERIFY(doc["forceClosure"].toBool());
    QVERIFY(!doc.contains("l1") && !doc.contains("lInfinity"));  // the legacy blocks with their own ε are gone
    const QJsonObject hulls = doc["hulls"].toObject();
    const QJsonObject l1 = hulls["l1"].toObject();
    QVERIFY(l1["built"].toBool());
    QCOMPARE(l1["status"].toString(), QString("ok"));
    QVERIFY(l1["facets"].toInt() > 0);
    for (const char* number : {"epsilon", "epsilonGraspIt", "volume", "worstCaseWrench", "forceClosure"})
      QVERIFY2(!l1.contains(number), number);
    // The L∞ hull (volume) needs (20 + 1)³ summed points, above the engine's limit of 2000: not built, and
    // said so, with no stand-in numbers; ε L∞ comes from support functions all the same.
    const QJsonObject linf = hulls["lInfinity"].toObject();
    QCOMPARE(linf["built"].toBool(), false);
    QCOMPARE(linf["status"].toString(), QString("not built"));
    QCOMPARE(linf["pointsNeeded"].toDouble(), 9261.0);
    QCOMPARE(linf["pointLimit"].toDouble(), 2000.0);
    QVERIFY(linf["message"].toString().contains("epsilon-linf comes from support functions"));
    QVERIFY(!linf.contains("volume") && !linf.contains("epsilon"));
    // Every ε carries its certified bounds: lower ≤ value ≤ upper.
    const QJsonObject measures = doc["measures"].toObject();
    for (const char* name : {"epsilon-l1", "epsilon-linf", "epsilon-exact"}) {
      const QJsonObject m = measures[name].toObject();
      QVERIFY2(m["ok"].toBool(), name);
      const double value = m["value"].toDouble(), lower = m["lowerBound"].toDouble(), upper = m["upperBound"].toDouble();
      QVERIFY(lower <= value && value <= upper);
      QCOMPARE(m["gap"].toDouble(), upper - lower);
      QVERIFY(m["iterations"].toInt() > 0);
      QCOMPARE(m["weakestDirection"].toArray().size(), qsizetype(6));
    }
    const double epsilon = measures["epsilon-l1"].toObject()["value"].toDouble();
    QVERIFY2(epsilon > 0, qPrintable(QString::number(epsilon)));
    QVERIFY(measures["epsilon-l1"].toObject()["converged"].toBool());
    QVERIFY(measures["epsilon-linf"].toObject()["value"].toDouble() >= epsilon);
    QVERIFY(measures["epsilon-exact"].toObject()["upperBound"].toDouble() >= epsilon);
    QVERIFY(measures["volume-l1"].toObject()["value"].toDouble() > 0);
    // A measure without a value has none: null, not 0.
    QVERIFY(!measures["volume-linf"].toObject()["ok"].toBool());
    QVERIFY(measures["volume-linf"].toObject()["value"].isNull());
    QVERIFY(!measures["volume-l1"].toObject().contains("lowerBound"));
    QVERIFY(doc["warnings"].toArray().isEmpty());

    // The text output reports the same ε, once (6 significant digits), and why the L∞ hull is missing.
    const CliRun text = runOnDefaultWorld("quality", {"--autograsp"});
    expectExit(text, 0);
    const double textEps = textMeasure(text.out, "epsilon-l1");
    QVERIFY2(std::abs(textEps - epsilon) <= 1e-5 * epsilon, text.out.constData());
    QCOMPARE(text.out.count("ε L1"), qsizetype(1));
    QVERIFY(!text.out.contains("epsilon "));  // the hulls print no ε of their own
    QVERIFY(text.out.contains("force closure: yes"));
    QVERIFY(text.out.contains("Linf hull: not built: "));
    QVERIFY(text.out.contains("9261 points, above the limit of 2000"));
    QVERIFY(text.out.contains("support queries"));
    for (const char* field : {"neighbourhood: ", "z = a x² + b y² + c xy with a ", "relative radii: ", "patch: ",
                              "max torsional friction: ", "friction edges: 20", "wrenches: 20"})
      QVERIFY2(text.out.contains(field), field);

    // grasp and quality see the same contacts after the same auto-grasp.
    const CliRun grasp = runOnDefaultWorld("grasp", {"--autograsp", "--json"});
    expectExit(grasp, 0);
    QCOMPARE(doc["contactsFound"].toInt(), grasp.json()["contacts"].toArray().size());
    QCOMPARE(doc["dofs"].toArray(), grasp.json()["dofs"].toArray());
  }

  void qualityWithoutForceClosureHasOneSignRule() {
    // The five-finger hand on the cylinder is not force closure. Every ε follows one sign rule
    // (QUALITY.md): −(distance from the origin to the set), so ε L1 < 0 and ε exact cones in [ε L1, 0) (its set
    // holds the linearised one), and ε L∞ = 0 because the L∞ set always holds the origin, which its message says.
    const QStringList args{"quality", "worlds/fivefinger_cylinder.xml", "--approach", "--autograsp"};
    const CliRun r = run(args + QStringList{"--json"}, sg::test::qSourceDir());
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QVERIFY(!doc["forceClosure"].toBool());
    QVERIFY(doc["contacts"].toArray().size() >= 2);
    const QJsonObject measures = doc["measures"].toObject();
    const double l1 = measures["epsilon-l1"].toObject()["value"].toDouble();
    const double linf = measures["epsilon-linf"].toObject()["value"].toDouble();
    const double exact = measures["epsilon-exact"].toObject()["value"].toDouble();
    QVERIFY2(l1 < 0, qPrintable(QString::number(l1)));
    QVERIFY2(exact < 0 && exact >= l1 - 1e-9, qPrintable(QString::number(exact)));
    QCOMPARE(linf, 0.0);
    QVERIFY(measures["epsilon-linf"].toObject()["message"].toString().contains("always holds the origin"));
    QVERIFY(measures["epsilon-l1"].toObject()["message"].toString().contains("distance from the origin"));
    // Exactly one value per measure: a "value" in each, and no ε, volume or force-closure number anywhere else.
    for (const QString& name : measures.keys()) QVERIFY2(measures[name].toObject().contains("value"), qPrintable(name));
    std::function<void(const QJsonObject&, const QString&)> noSecondValue = [&](const QJsonObject& o, const QString& at) {
      for (const QString& key : o.keys()) {
        if (at.isEmpty() && (key == "measures" || key == "evaluations")) continue;
        QVERIFY2(!key.startsWith("epsilon") && !key.startsWith("volume") && key != "worstCaseWrench",
                 qPrintable(at + "/" + key));
        if (o[key].isObject()) noSecondValue(o[key].toObject(), at + "/" + key);
      }
    };
    noSecondValue(doc, {});
    // The text prints each ε once.
    const CliRun text = run(args, sg::test::qSourceDir());
    expectExit(text, 0);
    QCOMPARE(text.out.count("ε L1"), qsizetype(1));
    for (const char* measure : {"[epsilon-l1]:", "[epsilon-linf]:", "[epsilon-exact]:"})
      QCOMPARE(text.out.count(measure), qsizetype(1));
    QVERIFY(text.out.contains("force closure: no"));
    QVERIFY(std::abs(textMeasure(text.out, "epsilon-l1") - l1) <= 1e-5 * std::abs(l1));
  }

  void qualityEvaluatesContactsAsTheyAre() {
    // Without --autograsp nothing moves: the open hand does not touch the mug, no force closure.
    const CliRun r = runOnDefaultWorld("quality", {"--json"});
    expectExit(r, 0);
    const QJsonObject doc = r.json();
    QCOMPARE(doc["grasp"].toString(), QString("not run"));
    QCOMPARE(doc["contacts"].toArray().size(), 0);
    QCOMPARE(doc["forceClosure"].toBool(), false);
    // No contacts, no ε: null, not a stand-in 0.
    QCOMPARE(doc["measures"].toObject()["epsilon-l1"].toObject()["ok"].toBool(), false);
    QVERIFY(doc["measures"].toObject()["epsilon-l1"].toObject()["value"].isNull());
    for (int k = 1; k < 4; ++k) QCOMPARE(doc["dofs"].toArray()[k].toDouble(), 0.0);
    // --no-close (the former way to ask for this) still works and means the same.
    const CliRun noClose = runOnDefaultWorld("quality", {"--no-close", "--json"});
    expectExit(noClose, 0);
    QCOMPARE(noClose.json()["dofs"].toArray(), doc["dofs"].toArray());
    QCOMPARE(noClose.json()["contacts"].toArray().size(), 0);
  }

  void graspAndQualityBadInput() {
    for (const char* command : {"grasp", "quality"}) {
      const CliRun missing = run({command, path("nowhere/gone.xml"), "--autograsp"});
      expectExit(missing, 3);
      expectOneLineError(missing, "gone.xml");
      QVERIFY(missing.out.isEmpty());
      expectExit(runOnDefaultWorld(command, {"--bogus"}), 2);
      expectExit(runOnDefaultWorld(command, {"--autograsp", "--no-close"}), 2);
      expectExit(runOnDefaultWorld(command, {"--approach=0"}), 2);
      expectExit(runOnDefaultWorld(command, {"--approach=abc"}), 2);
      expectExit(runOnDefaultWorld(command, {"--robot", "3"}), 2);
      expectExit(run({command}), 2);  // WORLD missing
      const CliRun usage = runOnDefaultWorld(command, {"--threshold", "-1"});
      expectExit(usage, 2);
      QVERIFY(usage.err.contains("--threshold"));
      QVERIFY(usage.out.isEmpty());
    }
    // A body file has no robot: evaluated as it is (no contacts), but there is nothing to close.
    const CliRun body = run({"quality", path("models/objects/cube.xml"), "--json"});
    expectExit(body, 0);
    QCOMPARE(body.json()["contacts"].toArray().size(), 0);
    QCOMPARE(body.json()["forceClosure"].toBool(), false);
    QVERIFY(!body.json().contains("grasp"));
    expectExit(run({"quality", path("models/objects/cube.xml"), "--autograsp"}), 2);
    expectExit(runOnDefaultWorld("grasp", {"--autograsp", "--open"}), 2);
    expectExit(runOnDefaultWorld("quality", {"--open"}), 2);  // grasp only
    const CliRun estimator = runOnDefaultWorld("quality", {"--curvature", "paraboloid"});
    expectExit(estimator, 2);
    QVERIFY(estimator.err.contains("--curvature: expected jet or graspit"));
    const CliRun scope = runOnDefaultWorld("quality", {"--contact-scope", "hand"});
    expectExit(scope, 2);
    QVERIFY(scope.err.contains("--contact-scope: expected world or grasp"));
  }

  // --model-param MODEL.KEY=VALUE reaches the analysis commands: listed in --help, checked against the model's
  // declaration (src/contact/README.md §Model parameters; the in-process cases: tst_cli_model_param).
  void modelParamOption() {
    const CliRun help = run({"quality", "--help"});
    expectExit(help, 0);
    QVERIFY(help.out.contains("--model-param") && help.out.contains("patch.tolerance_mm"));
    const CliRun range = runOnDefaultWorld("quality", {"--model-param", "patch.tolerance_mm=-1"});
    expectExit(range, 2);
    QVERIFY2(range.err.contains("--model-param: patch.tolerance_mm = -1 is out of range"), range.err.constData());
    const CliRun key = runOnDefaultWorld("compare", {"--model-param", "penalty.stiffness=5"});
    expectExit(key, 2);
    QVERIFY2(key.err.contains("'stiffness'") && key.err.contains("stiffness_N_per_mm"), key.err.constData());
    const CliRun ok = runOnDefaultWorld(
        "quality", {"--contact-model", "patch", "--model-param", "patch.maxVertices=8", "--measures", "epsilon-l1"});
    expectExit(ok, 0);
  }

  // --contact-scope grasp: only the mug's pairs with the hand are searched (contactsFound drops the table's);
  // the grasp and its ε are the same.
  void contactScopeGrasp() {
    const QStringList options = {"--autograsp", "--json", "--measures", "epsilon-l1,epsilon-linf"};
    const CliRun world = runOnDefaultWorld("quality", options);
    const CliRun grasp = runOnDefaultWorld("quality", options + QStringList{"--contact-scope", "grasp"});
    expectExit(world, 0);
    expectExit(grasp, 0);
    const int found = grasp.json()["contactsFound"].toInt(), allFound = world.json()["contactsFound"].toInt();
    QVERIFY2(found >= 3 && allFound > found + 10, qPrintable(QString("%1 / %2").arg(found).arg(allFound)));
    QCOMPARE(grasp.json()["contacts"].toArray().size(), world.json()["contacts"].toArray().size());
    const auto measure = [](const CliRun& r, const char* name) {
      return r.json()["evaluations"].toArray()[0].toObject()["measures"].toObject()[name].toObject()["value"].toDouble();
    };
    for (const char* m : {"epsilon-l1", "epsilon-linf"}) {
      QVERIFY(measure(world, m) > 0);
      QCOMPARE(measure(grasp, m), measure(world, m));
    }
  }

  void loadWarningsAreReported() {
    const QString robot = path("models/robots/Two/TwoNoEigen.xml");
    const QString world = path("worlds/noeigen.xml");
    const QList<QStringList> runs = {{"info", robot, "--json"},
                                     {"info", world, "--json"},
                                     {"fk", robot, "--dofs", "0.1,0.2", "--json"},
                                     {"grasp", world, "--json"},
                                     {"quality", world, "--json"}};
    for (const auto& args : runs) {
      const CliRun r = run(args);
      expectExit(r, 0);
      const QString err = QString::fromUtf8(r.err);
      QVERIFY2(err.startsWith("softgrasp-cli: warning: "), qPrintable(args.join(' ') + ": " + err));
      QVERIFY2(err.contains("TwoNoEigen.xml:") && err.contains("eigen/none_eigen.xml"), qPrintable(err));
      QCOMPARE(err.count('\n'), 1);
      const QJsonArray warnings = r.json()["warnings"].toArray();
      QCOMPARE(warnings.size(), 1);
      QVERIFY(err.contains(warnings[0].toString()));
    }
    // Text output: the same warning on stderr, stdout unaffected.
    const CliRun text = run({"info", robot});
    expectExit(text, 0);
    QVERIFY(text.err.contains("warning: "));
    QVERIFY(!text.out.contains("warning"));
    // fk's clamp warnings join the same list.
    const CliRun clamped = run({"fk", robot, "--dofs", "0.1,-1", "--json"});
    expectExit(clamped, 0);
    QCOMPARE(clamped.json()["warnings"].toArray().size(), 2);
    QVERIFY(clamped.json()["warnings"].toArray()[1].toString().contains("clamped"));
    // A texture Coin cannot read (here missing) is a load warning naming the file, and the world loads.
    QTemporaryDir textured;
    {
      QFile iv(textured.filePath("floor.iv"));
      QVERIFY(iv.open(QIODevice::WriteOnly));
      iv.write("#Inventor V2.1 ascii\nSeparator {\n  Texture2 { filename \"textures/checker.jpg\" }\n"
               "  Cube { width 100 height 100 depth 2 }\n}\n");
      QFile xml(textured.filePath("floor_world.xml"));
      QVERIFY(xml.open(QIODevice::WriteOnly));
      xml.write("<world><graspableBody><filename>floor.iv</filename></graspableBody></world>\n");
    }
    for (const char* command : {"info", "quality"}) {
      const CliRun floor = run({command, textured.filePath("floor_world.xml"), "--json"});
      expectExit(floor, 0);
      const QJsonArray warnings = floor.json()["warnings"].toArray();
      QCOMPARE(warnings.size(), 1);
      QVERIFY2(warnings[0].toString().startsWith(textured.filePath("floor.iv") + ":3: texture 'textures/checker.jpg' not found"),
               qPrintable(warnings[0].toString()));
      QVERIFY(QString::fromUtf8(floor.err).contains("softgrasp-cli: warning: " + warnings[0].toString()));
    }

    // No warnings: an empty array.
    const CliRun clean = run({"info", path("models/robots/Two/Two.xml"), "--json"});
    expectExit(clean, 0);
    QVERIFY(clean.err.isEmpty());
    QVERIFY(clean.json()["warnings"].isArray());
    QVERIFY(clean.json()["warnings"].toArray().isEmpty());
  }

  // A planned list re-measured by evaluate --grasps (src/grasp/planner/PLANNER.md §Grasp list file, "breakAway"):
  // the list keeps the joints that broke away while closing, and every grasp measures as the list says — force
  // closure and ε L1 to 1e-9. hydro_fingertips seed 2 (tst_planner finalStageScoreIsTheListsMeasurement's run)
  // keeps closings with joints in break-away.
  void evaluateMeasuresTheListsBreakAwayGraspsAsPlanned() {
    const QString list = dir_.filePath("breakaway_list.json");
    const CliRun plan = sg::test::runCli({"plan", "worlds/hydro_fingertips.xml", "--iterations", "250", "--seed", "2",
                                          "--threads", "1", "--contact-model", "point", "--measures", "epsilon-l1",
                                          "--no-progress", "--out", list},
                                         sg::test::qSourceDir());
    expectExit(plan, 0);
    QFile file(list);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray planned = QJsonDocument::fromJson(file.readAll()).object()["grasps"].toArray();
    QVERIFY(!planned.isEmpty());
    const CliRun evaluate = sg::test::runCli({"evaluate", "worlds/hydro_fingertips.xml", "--grasps", list,
                                              "--contact-model", "point", "--measures", "epsilon-l1", "--no-progress",
                                              "--json"},
                                             sg::test::qSourceDir());
    expectExit(evaluate, 0);
    const QJsonArray again = evaluate.json()["grasps"].toArray();
    QCOMPARE(again.size(), planned.size());
    int withBreakAway = 0;
    for (int i = 0; i < planned.size(); ++i) {
      const QJsonObject p = planned[i].toObject(), e = again[i].toObject();
      const QJsonArray broke = p["grasp"].toObject()["breakAway"].toArray();
      withBreakAway += broke.isEmpty() ? 0 : 1;
      QCOMPARE(e["grasp"].toObject()["breakAway"].toArray(), broke);  // evaluate --json keeps it
      const QString where = QString("grasp %1").arg(i);
      QVERIFY2(e["forceClosure"].toBool() == p["forceClosure"].toBool(), qPrintable(where));
      const QJsonValue a = e["measures"].toObject()["epsilon-l1"], b = p["measures"].toObject()["epsilon-l1"];
      QCOMPARE(a.isNull(), b.isNull());
      if (!b.isNull())
        QVERIFY2(std::abs(a.toDouble() - b.toDouble()) <= 1e-9,
                 qPrintable(where + QString(": %1 vs %2").arg(a.toDouble()).arg(b.toDouble())));
    }
    QVERIFY(withBreakAway > 0);  // not vacuous
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
