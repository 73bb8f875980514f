// GraspIt! robots through the general joint: forward kinematics of every bundled hand and of the robot
// files the io_xml tests write equals a textbook DH evaluation of the parsed DH parameters, and a
// save → load round trip keeps every DH value bit for bit.
#include <QtTest>

#include <cmath>
#include <random>

#include "RobotTestFiles.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

constexpr int kSamples = 60;

// Textbook DH: A = Rz(θ)·Tz(d)·Tx(a)·Rx(α) as one 4×4 matrix.
Mat4 dhMatrix(double theta, double d, double a, double alpha) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha), sa = std::sin(alpha);
  Mat4 A;
  A << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return A;
}

// Link poses from the DH parameters alone: the variable parameter = ratio·dof + offset (+ its constant part).
std::vector<std::vector<Mat4>> textbookPoses(const Robot& robot, const Transform& X_WP, const std::vector<double>& dofs) {
  std::vector<std::vector<Mat4>> out;
  for (const Chain& chain : robot.chains) {
    Mat4 T = X_WP.matrix() * chain.base.matrix();
    std::vector<Mat4> frames;
    for (const Joint& j : chain.joints) {
      const DhParameters& dh = *j.dh;
      const double v = j.expr.ratio * dofs[static_cast<std::size_t>(j.expr.dof)] + j.expr.offset;
      const bool revolute = j.type == JointType::Revolute;
      T = T * dhMatrix(revolute ? dh.theta_rad + v : dh.theta_rad, revolute ? dh.d_mm : dh.d_mm + v, dh.a_mm,
                       dh.alpha_rad);
      frames.push_back(T);
    }
    std::vector<Mat4> poses;
    for (const Link& l : chain.links) poses.push_back(frames[static_cast<std::size_t>(l.lastJoint)]);
    out.push_back(poses);
  }
  return out;
}

void compareWithTextbook(Robot robot, unsigned seed) {
  std::mt19937 rng(seed);
  RobotState state =
      defaultRobotState(robot, Transform(Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized())), Vec3(120, -40, 300)));
  for (int s = 0; s < kSamples; ++s) {
    std::vector<double> v;
    for (const Dof& d : robot.dofs) v.push_back(std::uniform_real_distribution<double>(d.minValue, d.maxValue)(rng));
    if (s == 0) for (std::size_t k = 0; k < v.size(); ++k) v[k] = robot.dofs[k].minValue;  // range ends too
    if (s == 1) for (std::size_t k = 0; k < v.size(); ++k) v[k] = robot.dofs[k].maxValue;
    setDofValues(robot, state, v);
    QCOMPARE(state.dofValues, v);  // in range: nothing clamped
    const auto expected = textbookPoses(robot, state.X_WP, v);
    for (std::size_t c = 0; c < robot.chains.size(); ++c)
      for (std::size_t l = 0; l < robot.chains[c].links.size(); ++l) {
        const Mat4 A = state.X_WL[c][l].matrix(), E = expected[c][l];
        const double dp = (A.topRightCorner<3, 1>() - E.topRightCorner<3, 1>()).norm();
        const double dR = (A.topLeftCorner<3, 3>() - E.topLeftCorner<3, 3>()).cwiseAbs().maxCoeff();
        QVERIFY2(dp <= 1e-9 && dR <= 1e-12, qPrintable(QString("%1 chain %2 link %3 sample %4: %5 mm, %6")
                                                          .arg(QString::fromStdString(robot.name))
                                                          .arg(c).arg(l).arg(s).arg(dp).arg(dR)));
      }
  }
}

QStringList bundledRobots() {
  QStringList out;
  QDir robots(sg::test::qSourceDir() + "/models/robots");
  for (const QString& name : robots.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (QFileInfo::exists(robots.filePath(name + "/" + name + ".xml"))) out << robots.filePath(name + "/" + name + ".xml");
  return out;
}

// Every bundled hand, and the robots the io_xml suites write (offsets, couplings, prismatic, universal).
void addRobotRows(const sgtest::Tree& tree) {
  QTest::addColumn<QString>("file");
  const QStringList bundled = bundledRobots();
  QVERIFY(bundled.size() >= 3);
  for (const QString& f : bundled) QTest::newRow(qPrintable(QFileInfo(f).baseName())) << f;
  QTest::newRow("Gripper") << QString::fromStdString(sgtest::writeGripperRobot(tree));
  QTest::newRow("Planar") << QString::fromStdString(sgtest::writePlanarRobot(tree));
}

void compareJoints(const Robot& a, const Robot& b) {
  QCOMPARE(b.chains.size(), a.chains.size());
  for (std::size_t c = 0; c < a.chains.size(); ++c) {
    const Chain &ca = a.chains[c], &cb = b.chains[c];
    QVERIFY(cb.base.isApprox(ca.base, 1e-15));
    QCOMPARE(cb.joints.size(), ca.joints.size());
    for (std::size_t j = 0; j < ca.joints.size(); ++j) {
      const Joint &ja = ca.joints[j], &jb = cb.joints[j];
      QVERIFY(ja.dh && jb.dh);
      QVERIFY2(*jb.dh == *ja.dh, qPrintable(QString("chain %1 joint %2").arg(c).arg(j)));
      QCOMPARE(jb.type, ja.type);
      QCOMPARE(jb.expr.dof, ja.expr.dof);
      QVERIFY(jb.expr.ratio == ja.expr.ratio && jb.expr.offset == ja.expr.offset);
      QVERIFY(jb.minValue == ja.minValue && jb.maxValue == ja.maxValue);
      QCOMPARE(jb.springStiffness, ja.springStiffness);
    }
    QCOMPARE(cb.links.size(), ca.links.size());
    for (std::size_t l = 0; l < ca.links.size(); ++l) {
      QCOMPARE(cb.links[l].lastJoint, ca.links[l].lastJoint);
      QCOMPARE(cb.links[l].jointType, ca.links[l].jointType);
      QCOMPARE(cb.links[l].collisionOff, ca.links[l].collisionOff);
    }
  }
}

}  // namespace

class TestDhParity : public QObject {
  Q_OBJECT
  sgtest::Tree tree_;

 private slots:
  void forwardKinematicsIsTextbookDh_data() { addRobotRows(tree_); }
  void forwardKinematicsIsTextbookDh() {
    QFETCH(QString, file);
    const Robot robot = loadRobot(file.toStdString(), MaterialTable{});
    for (const Chain& c : robot.chains)
      for (const Joint& j : c.joints) QVERIFY(j.dh.has_value());
    compareWithTextbook(robot, 1234u + static_cast<unsigned>(robot.dofs.size()));
  }

  void saveLoadKeepsDhValues_data() { addRobotRows(tree_); }
  void saveLoadKeepsDhValues() {
    QFETCH(QString, file);
    const Robot original = loadRobot(file.toStdString(), MaterialTable{});
    sgtest::Tree out;
    const std::string saved = out.path("models/robots/Copy/Copy.xml");
    std::filesystem::create_directories(out.path("models/robots/Copy/iv"));
    saveRobot(original, saved);
    const Robot reloaded = loadRobot(saved, MaterialTable{});
    compareJoints(original, reloaded);
    QCOMPARE(reloaded.dofs.size(), original.dofs.size());
    for (std::size_t k = 0; k < original.dofs.size(); ++k) {
      QCOMPARE(reloaded.dofs[k].type, original.dofs[k].type);
      QVERIFY(reloaded.dofs[k].minValue == original.dofs[k].minValue);
      QVERIFY(reloaded.dofs[k].maxValue == original.dofs[k].maxValue);
      QVERIFY(reloaded.dofs[k].defaultValue == original.dofs[k].defaultValue);
    }
    QCOMPARE(reloaded.disabledPairs, original.disabledPairs);
    QCOMPARE(reloaded.eigengrasps.grasps.size(), original.eigengrasps.grasps.size());
    QCOMPARE(reloaded.approach.has_value(), original.approach.has_value());
    if (original.approach) QVERIFY(reloaded.approach->isApprox(*original.approach, 1e-12));
    const RobotState reloadedState = defaultRobotState(reloaded), originalState = defaultRobotState(original);
    for (std::size_t c = 0; c < original.chains.size(); ++c)
      for (std::size_t l = 0; l < original.chains[c].links.size(); ++l)
        QVERIFY(reloadedState.X_WL[c][l].isApprox(originalState.X_WL[c][l], 1e-12));
    // Writing again gives the same text: the file is a fixed point of load → save.
    QCOMPARE(robotToXml(reloaded, out.path("models/robots/Copy")),
             robotToXml(original, out.path("models/robots/Copy")));
  }

  // What GraspIt! robot files cannot say is refused, not written wrong.
  void writerRefusesGeneralJointsAndTrees() {
    Robot r = loadRobot(sgtest::writePlanarRobot(tree_), MaterialTable{});
    Robot general = r;
    general.chains[0].joints[0] = generalJoint(JointType::Revolute, {}, Vec3::UnitX(), {.dof = 0}, -1, 1);
    QVERIFY_THROWS_EXCEPTION(Error, robotToXml(general, tree_.root()));
    Robot tree = r;
    tree.chains.push_back(tree.chains[0]);
    tree.chains[1].parent = BodyRef{0, 1};
    QVERIFY_THROWS_EXCEPTION(Error, robotToXml(tree, tree_.root()));
  }
};

QTEST_GUILESS_MAIN(TestDhParity)
#include "tst_dh_parity.moc"
