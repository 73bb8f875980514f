// Softgrasp-cli contact, quality, grasp, compare and sensing find the same contacts on the same
// world and motion flags. A one-DOF probe hand whose palm is a R = 10 mm sphere over the top face (z = 0) of a
// 50 mm box — rigid primitives, rigid meshes (OFF files written here; the sphere's pole vertex is its lowest
// point) or a compliant sphere (<hydroelastic>) — 0.1 mm above the face, touching, and 0.05 and 0.5 mm into it.
// Every command reports one palm–box contact at the same point with the same separation and penetration flag
// (src/contact/README.md §Touching and overlapping pairs); the hydroelastic surface comes from the overlap when
// the bodies overlap and is pressed to --force otherwise.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cmath>

#include "../support/CliRun.h"

using sg::test::CliRun;

namespace {

constexpr double kR = 10;
const double kX = 3, kY = -2;  // the palm's centre above the face

enum class Bodies { RigidPrimitives, RigidMeshes, Hydroelastic };

// A closed UV sphere, faces counter-clockwise seen from outside, poles on the z axis.
QByteArray sphereOff(double r, int slices, int stacks) {
  QByteArray v, f;
  int vertices = 0, faces = 0;
  auto vertex = [&](double x, double y, double z) {
    v += QByteArray::number(x, 'g', 17) + ' ' + QByteArray::number(y, 'g', 17) + ' ' + QByteArray::number(z, 'g', 17) + '\n';
    return vertices++;
  };
  const int north = vertex(0, 0, r);
  std::vector<std::vector<int>> rings;
  for (int i = 1; i < stacks; ++i) {
    const double t = M_PI * i / stacks;
    rings.emplace_back();
    for (int j = 0; j < slices; ++j) {
      const double p = 2 * M_PI * j / slices;
      rings.back().push_back(vertex(r * std::sin(t) * std::cos(p), r * std::sin(t) * std::sin(p), r * std::cos(t)));
    }
  }
  const int south = vertex(0, 0, -r);
  auto face = [&](std::initializer_list<int> ids) {
    f += QByteArray::number(static_cast<int>(ids.size()));
    for (int id : ids) f += ' ' + QByteArray::number(id);
    f += '\n';
    ++faces;
  };
  for (int j = 0; j < slices; ++j) {
    const int k = (j + 1) % slices;
    face({north, rings.front()[j], rings.front()[k]});
    for (std::size_t i = 0; i + 1 < rings.size(); ++i) face({rings[i][j], rings[i + 1][j], rings[i + 1][k], rings[i][k]});
    face({south, rings.back()[k], rings.back()[j]});
  }
  return "OFF\n" + QByteArray::number(vertices) + ' ' + QByteArray::number(faces) + " 0\n" + v + f;
}

const char* kCube50Off =
    "OFF\n8 6 0\n"
    "-25 -25 -25\n25 -25 -25\n25 25 -25\n-25 25 -25\n-25 -25 25\n25 -25 25\n25 25 25\n-25 25 25\n"
    "4 0 3 2 1\n4 4 5 6 7\n4 0 1 5 4\n4 2 3 7 6\n4 0 4 7 3\n4 1 2 6 5\n";

// One contact as a command reports it: the point on the box, the separation, the flag.
struct Found {
  QVector<double> onBox;
  double separation = 0;
  bool penetrating = false;
};

QVector<double> vec(const QJsonValue& v) {
  QVector<double> out;
  for (const QJsonValue& x : v.toArray()) out.push_back(x.toDouble());
  return out;
}

}  // namespace

class TstCliContactsAgree : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;

  void write(const QString& relative, const QByteArray& text) {
    const QString file = dir_.filePath(relative);
    QVERIFY(QDir().mkpath(QFileInfo(file).absolutePath()));
    QFile f(file);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(file));
    f.write(text);
  }

  static QString bodiesName(Bodies b) {
    return b == Bodies::RigidPrimitives ? "rigid" : b == Bodies::RigidMeshes ? "mesh" : "hydro";
  }

  // worlds/probe_<bodies>_<gap>.xml
  QString world(Bodies bodies, double gap) {
    const QString name = QString("worlds/probe_%1_%2.xml").arg(bodiesName(bodies)).arg(gap);
    const QString robot = "Probe" + bodiesName(bodies);
    const QByteArray palm =
        bodies == Bodies::RigidMeshes ? "<geometryFile type=\"off\">sphere.off</geometryFile>"
                                      : "<primitive type=\"sphere\" radius=\"10\"/>";
    const QByteArray hydro = bodies == Bodies::Hydroelastic ? "<hydroelastic modulus=\"1e6\" resolutionHint=\"0.25\"/>" : "";
    write("models/robots/" + robot + "/iv/palm.xml",
          "<root><material>rubber</material><youngs>1.5e6</youngs><mass>20</mass>" + palm + hydro + "</root>\n");
    write("models/robots/" + robot + "/iv/sphere.off", sphereOff(kR, 64, 32));
    write("models/robots/" + robot + "/iv/link.xml",
          "<root><material>plastic</material><mass>5</mass><primitive type=\"box\" size=\"4 4 4\"/></root>\n");
    // The link slides along the palm's +z, 60 mm above the palm: it never reaches the box.
    write("models/robots/" + robot + "/" + robot + ".xml",
          "<robot type=\"Hand\">\n  <palm>palm.xml</palm>\n"
          "  <dof type=\"r\"><defaultVelocity>1</defaultVelocity><maxEffort>1e8</maxEffort><Kp>1e9</Kp><Kd>1e6</Kd>"
          "<draggerScale>20</draggerScale></dof>\n"
          "  <chain>\n    <transform><translation>0 0 60</translation></transform>\n"
          "    <joint type=\"Prismatic\"><theta>0</theta><d>d0</d><a>0</a><alpha>0</alpha>"
          "<minValue>0</minValue><maxValue>10</maxValue></joint>\n"
          "    <link dynamicJointType=\"Prismatic\">link.xml</link>\n  </chain>\n</robot>\n");
    write("models/objects/box50.off", kCube50Off);
    write("models/objects/box_mesh.xml",
          "<root><material>wood</material><mass>100</mass><geometryFile type=\"off\">box50.off</geometryFile></root>\n");
    write("models/objects/box_primitive.xml",
          "<root><material>wood</material><mass>100</mass><primitive type=\"box\" size=\"50 50 50\"/></root>\n");
    const QByteArray box = bodies == Bodies::RigidMeshes ? "box_mesh.xml" : "box_primitive.xml";
    write(name, "<?xml version=\"1.0\" ?>\n<world>\n"
                "  <graspableBody><filename>models/objects/" + box + "</filename>\n"
                "    <transform><translation>0 0 -25</translation></transform></graspableBody>\n"
                "  <robot><filename>models/robots/" + robot.toUtf8() + "/" + robot.toUtf8() + ".xml</filename>"
                "<dofValues>0</dofValues>\n"
                "    <transform><translation>" + QByteArray::number(kX) + " " + QByteArray::number(kY) + " " +
                QByteArray::number(kR + gap, 'g', 17) + "</translation></transform></robot>\n</world>\n");
    return dir_.filePath(name);
  }

  static QJsonObject runJson(const QStringList& args) {
    const CliRun r = sg::test::runCli(args);
    if (r.crashed || r.exitCode != 0) {
      qWarning("%s: exit %d: %s", qPrintable(args.join(' ')), r.exitCode, r.err.constData());
      return {};
    }
    return r.json();
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void fiveCommandsAgree_data() {
    QTest::addColumn<int>("bodies");
    QTest::addColumn<double>("gap");
    QTest::addColumn<bool>("autograsp");
    for (Bodies b : {Bodies::RigidPrimitives, Bodies::RigidMeshes, Bodies::Hydroelastic})
      for (double gap : {0.1, 0.0, -0.05, -0.5})
        for (bool autograsp : {false, true})
          QTest::addRow("%s %g mm%s", qPrintable(bodiesName(b)), gap, autograsp ? " autograsp" : "")
              << static_cast<int>(b) << gap << autograsp;
  }

  void fiveCommandsAgree() {
    QFETCH(int, bodies);
    QFETCH(double, gap);
    QFETCH(bool, autograsp);
    const Bodies b = static_cast<Bodies>(bodies);
    const QString file = world(b, gap);
    const QStringList motion = autograsp ? QStringList{"--autograsp"} : QStringList{};
    const QStringList graspMotion = autograsp ? QStringList{"--autograsp"} : QStringList{"--no-close"};

    std::map<QString, std::vector<Found>> found;
    const QJsonObject contact = runJson(QStringList{"contact", file, "--json"} + motion);
    QVERIFY(!contact.isEmpty());
    for (const QJsonValue& c : contact["contacts"].toArray())
      found["contact"].push_back({vec(c["position_mm"]), c["separation_mm"].toDouble(), c["penetrating"].toBool()});
    QCOMPARE(contact["contactsFound"].toInt(), 1);

    const QJsonObject quality = runJson(QStringList{"quality", file, "--json", "--contact-model", "hydroelastic"} + motion);
    QVERIFY(!quality.isEmpty());
    for (const QJsonValue& c : quality["contacts"].toArray())
      found["quality"].push_back({vec(c["position_mm"]), c["separation_mm"].toDouble(), c["penetrating"].toBool()});
    QCOMPARE(quality["contactsFound"].toInt(), 1);

    const QJsonObject grasp = runJson(QStringList{"grasp", file, "--json"} + graspMotion);
    QVERIFY(!grasp.isEmpty());
    for (const QJsonValue& c : grasp["contacts"].toArray()) {
      const bool boxIs1 = c["body1"].toString().contains("box");
      found["grasp"].push_back({vec(c[boxIs1 ? "position1" : "position2"]), c["separation"].toDouble(), c["penetrating"].toBool()});
    }
    QCOMPARE(grasp["collision"].toBool(), gap <= 0);

    const QJsonObject compare = runJson(QStringList{"compare", file, "--json"} + motion);
    QVERIFY(!compare.isEmpty());
    for (const QJsonValue& c : compare["contacts"].toArray()) {
      const bool boxIs1 = c["bodies"].toString().startsWith("box");
      found["compare"].push_back({vec(c[boxIs1 ? "position1_mm" : "position2_mm"]), c["separation_mm"].toDouble(),
                                  c["penetrating"].toBool()});
      // Every registered model has the contact.
      for (const QJsonValue& cell : c["models"].toObject()) QVERIFY(cell["present"].toBool());
    }
    QCOMPARE(compare["contactsFound"].toInt(), 1);

    // Sensing has a row per hand pair; the contacts are the pairs within the contact threshold (0.2 mm).
    const QJsonObject sensing = runJson(QStringList{"sensing", file, "--json"} + motion);
    QVERIFY(!sensing.isEmpty());
    for (const QJsonValue& p : sensing["pairs"].toArray())
      if (p["separation_mm"].toDouble() <= 0.2)
        found["sensing"].push_back({vec(p["point2_mm"]), p["separation_mm"].toDouble(), p["penetrating"].toBool()});

    // One contact everywhere: at the face point under the palm, with the separation and flag as placed.
    for (const auto& [command, list] : found) {
      QVERIFY2(list.size() == 1, qPrintable(command + ": " + QString::number(list.size()) + " contacts"));
      const Found& f = list[0];
      QVERIFY2(f.onBox.size() == 3 && std::abs(f.onBox[0] - kX) < 1e-9 && std::abs(f.onBox[1] - kY) < 1e-9 &&
                   std::abs(f.onBox[2]) < 1e-9,
               qPrintable(command));
      QVERIFY2(std::abs(f.separation - gap) < 1e-9, qPrintable(command + ": " + QString::number(f.separation, 'g', 17)));
      QVERIFY2(f.penetrating == (gap <= 0), qPrintable(command));
    }
    QCOMPARE(found.size(), std::size_t(5));

    // Depth in mm, where a command reports it.
    for (const QJsonObject* doc : {&contact, &quality, &grasp})
      QVERIFY(std::abs((*doc)["contacts"].toArray().at(0)["depth_mm"].toDouble() - std::max(0.0, -gap)) < 1e-9);

    // The hydroelastic contact: a surface whose source says whether it is the overlap's or pressed to the force.
    const QJsonObject c = contact["contacts"].toArray().at(0).toObject();
    if (b != Bodies::Hydroelastic) {
      QCOMPARE(c["surface"].toInt(), -1);
      return;
    }
    QCOMPARE(c["surface"].toInt(), 0);
    const QJsonObject surface = contact["surfaces"].toArray().at(0).toObject();
    const QString source = gap < 0 ? "from overlap" : "pressed to force";
    QCOMPARE(c["surfaceSource"].toString(), source);
    QCOMPARE(surface["source"].toString(), source);
    const double force = surface["normalForce_N"].toDouble();
    if (gap < 0) {
      QCOMPARE(surface["indentation_mm"].toDouble(), 0.0);
      // V1 from below (the tet mesh is inscribed): F = π·E·d²·(1 − 2d/(3R)), E = 1 MPa; at least V1 at d less
      // the facets' sagitta ℓ²/(4R) (ℓ = 2πR/256, the equator's edge at the hint's level 6; tst_hydro_overlap).
      const auto v1 = [](double d) { return M_PI * 1e6 * d * d * (1 - 2 * d / (3 * kR)) * 1e-6; };
      const double edge = 2 * M_PI * kR / 256, d = -gap;
      QVERIFY2(force < v1(d) && force > v1(d - edge * edge / (4 * kR)), qPrintable(QString("%1 N, V1 %2 N").arg(force).arg(v1(d))));
    } else {
      QVERIFY(std::abs(force - 5) < 1e-3 * 5);
    }
    // The same force under quality's and compare's hydroelastic model.
    QCOMPARE(quality["contacts"].toArray().at(0)["maxTorsionalFriction_Nmm"].toDouble(), c["maxTorsionalFriction_Nmm"].toDouble());
    QCOMPARE(compare["contacts"].toArray().at(0)["models"]["hydroelastic"]["normalForce_N"].toDouble(), c["normalForce_N"].toDouble());

    // The text output says it too.
    const CliRun text = sg::test::runCli(QStringList{"contact", file} + motion);
    QVERIFY(text.exitCode == 0 && text.out.contains(source.toUtf8()));
    QCOMPARE(text.out.contains("penetrating, depth"), gap <= 0);
  }
};

QTEST_GUILESS_MAIN(TstCliContactsAgree)
#include "tst_cli_contacts_agree.moc"
