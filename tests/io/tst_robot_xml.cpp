// Robot XML: DOFs, DOF expressions, joints, links, collision rules, approach direction, forward
// kinematics, eigengrasps and virtual contacts (XML and .vgr), and the robot-level error messages.
#include <QtTest>

#include "io/ModelIO.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"
#include "RobotTestFiles.h"

using namespace sg;
using sgtest::Tree;

namespace {

const MaterialTable kMaterials;

Transform rz(double deg) { return Transform::fromAxisAngle(Vec3::UnitZ(), degToRad(deg)); }
Transform rx(double deg) { return Transform::fromAxisAngle(Vec3::UnitX(), degToRad(deg)); }
Transform translate(double x, double y, double z) { return Transform::fromTranslation(Vec3(x, y, z)); }

// Replaces the first occurrence of `from` in the file at `path` by `to`.
void editFile(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = sgtest::readText(path);
  const auto pos = text.find(from);
  QVERIFY2(pos != std::string::npos, from.c_str());
  text.replace(pos, from.size(), to);
  sgtest::writeText(path, text);
}

}  // namespace

class TestRobotXml : public QObject {
  Q_OBJECT
 private slots:
  void planarRobotStructure() {
    Tree tree;
    RobotFileHistory names;
    const Robot r = loadRobot(sgtest::writePlanarRobot(tree), kMaterials, {}, &names);
    const RobotState rState = defaultRobotState(r);
    QCOMPARE(r.name, std::string("Planar"));
    QCOMPARE(r.type, std::string("Robot"));
    QCOMPARE(r.dbName, std::string("PlanarArm"));
    QCOMPARE(r.dofCount(), std::size_t(2));
    QCOMPARE(r.chains.size(), std::size_t(1));
    QCOMPARE(r.linkCount(), std::size_t(2));
    QCOMPARE(r.palm.material, std::string("metal"));
    QCOMPARE(r.palm.kind, BodyKind::Link);
    QCOMPARE(r.chains[0].links[1].body.material, std::string("rubber"));
    QCOMPARE(r.chains[0].links[0].lastJoint, 0);
    QCOMPARE(r.chains[0].links[1].lastJoint, 1);
    QCOMPARE(names.bodyFile({0, 0}), std::string("link1.xml"));
    QCOMPARE(names.linkFiles.size(), r.chains.size());
    QVERIFY(std::abs(r.dofs[0].minValue - degToRad(-90)) < 1e-12);
    QVERIFY(std::abs(r.dofs[1].maxValue - degToRad(120)) < 1e-12);
    QVERIFY(std::abs(rState.dofValues[0] - degToRad(30)) < 1e-12);
    QCOMPARE(r.dofs[0].kp, 1e11);
    QCOMPARE(r.dofs[0].draggerScale, 20.0);
    // No eigengrasp file: one identity eigengrasp per DOF.
    QCOMPARE(r.eigengrasps.grasps.size(), std::size_t(2));
    QVERIFY(r.eigengrasps.grasps[1].direction.isApprox(Vec2(0, 1)));
    QVERIFY(!r.approach.has_value());
  }

  void planarForwardKinematics() {
    Tree tree;
    Robot r = loadRobot(sgtest::writePlanarRobot(tree), kMaterials);
    RobotState rState = defaultRobotState(r);
    const double c30 = std::cos(degToRad(30)), s30 = std::sin(degToRad(30));
    // Defaults (30°, 0°): link1 frame = T(10,0,0)·Rz(30)·Tx(100); link2 adds Rz(0)·Tx(50).
    const auto& l1 = rState.X_WL[0][0];
    const auto& l2 = rState.X_WL[0][1];
    QVERIFY(l1.translation().isApprox(Vec3(10 + 100 * c30, 100 * s30, 0), 1e-12));
    QVERIFY(l2.translation().isApprox(Vec3(10 + 150 * c30, 150 * s30, 0), 1e-12));
    QVERIFY(l2.rotation().isApprox(rz(30).rotation(), 1e-12));
    // (30°, 45°): link2 turns to 75° and sits 50 mm along it from link1.
    setDofValues(r, rState, {degToRad(30), degToRad(45)});
    const double c75 = std::cos(degToRad(75)), s75 = std::sin(degToRad(75));
    QVERIFY(rState.X_WL[0][1].translation().isApprox(
        Vec3(10 + 100 * c30 + 50 * c75, 100 * s30 + 50 * s75, 0), 1e-12));
    QVERIFY(rState.X_WL[0][1].rotation().isApprox(rz(75).rotation(), 1e-12));
    // A robot pose moves everything rigidly.
    const Transform pose = translate(0, 0, 100) * rx(90);
    setRobotPose(r, rState, pose);
    QVERIFY(rState.X_WP.isApprox(pose, 1e-12));
    QVERIFY(rState.X_WL[0][1].translation().isApprox(
        Vec3(10 + 100 * c30 + 50 * c75, 0, 100 + 100 * s30 + 50 * s75), 1e-12));
    // Values are clamped into the joint limits.
    setDofValues(r, rState, {degToRad(200), 0});
    QVERIFY(std::abs(rState.dofValues[0] - degToRad(90)) < 1e-12);
  }

  void dofExpressionsAndRanges() {
    Tree tree;
    const Robot r = loadRobot(sgtest::writeGripperRobot(tree), kMaterials);
    const RobotState rState = defaultRobotState(r);
    QCOMPARE(r.dofCount(), std::size_t(3));
    QCOMPARE(r.dofs[0].type, DofType::BreakAway);
    QCOMPARE(r.dofs[0].breakAwayTorque, 0.5);
    QCOMPARE(r.dofs[1].type, DofType::Rigid);
    QCOMPARE(r.dofs[2].type, DofType::Compliant);
    const Joint& j0 = r.chains[0].joints[0];
    const Joint& j1 = r.chains[0].joints[1];
    QCOMPARE(j0.expr.dof, 0);
    QVERIFY(std::abs(j0.expr.offset - degToRad(10)) < 1e-15);
    QCOMPARE(j1.expr.ratio, 3.0);                                // coupled 1:3
    QVERIFY(std::abs(j1.expr.offset - degToRad(-5)) < 1e-15);   // "d0*3-5": offset −5°
    // Range of d0: [0, 90°] ∩ [0, 120°]/3 = [0, 40°].
    QVERIFY(std::abs(r.dofs[0].minValue) < 1e-15);
    QVERIFY(std::abs(r.dofs[0].maxValue - degToRad(40)) < 1e-12);
    // Prismatic: "d1+-2" is offset −2 mm, limits in mm, defaultValue 10 mm not converted.
    const Joint& p = r.chains[1].joints[0];
    QCOMPARE(p.type, JointType::Prismatic);
    QCOMPARE(p.expr.offset, -2.0);
    QVERIFY(p.dh && std::abs(p.dh->theta_rad - degToRad(90)) < 1e-15);
    QCOMPARE(p.maxValue, 50.0);
    QVERIFY(r.dofs[1].prismatic);
    QCOMPARE(rState.dofValues[1], 10.0);
    QCOMPARE(r.dofs[1].defaultValue, 10.0);
    // Negative ratio and the Universal link consuming two joints.
    QCOMPARE(r.chains[2].joints[1].expr.ratio, -1.0);
    QCOMPARE(r.chains[2].joints[0].springStiffness, 2.0);
    QCOMPARE(r.chains[2].links[0].jointType, LinkJointType::Universal);
    QCOMPARE(r.chains[2].links[0].lastJoint, 1);
    QVERIFY(std::abs(r.dofs[2].maxValue - degToRad(30)) < 1e-12);
  }

  void gripperForwardKinematics() {
    Tree tree;
    const Robot r = loadRobot(sgtest::writeGripperRobot(tree), kMaterials);
    const RobotState rState = defaultRobotState(r);
    // d0 = 20°: joint 0 θ = 30°, joint 1 θ = 3·20 − 5 = 55°; chain base Rx(90).
    const Transform f0 = rx(90) * rz(30) * translate(40, 0, 0);
    const Transform f1 = f0 * rz(55) * translate(30, 0, 0);
    QVERIFY(rState.X_WL[0][0].isApprox(f0, 1e-12));
    QVERIFY(rState.X_WL[0][1].isApprox(f1, 1e-12));
    // Prismatic: d = 10 − 2 = 8 mm along the base z, then θ = 90° and α = −90°.
    const Transform p0 = translate(0, 0, 20) * rz(90) * translate(0, 0, 8) * rx(-90);
    QVERIFY(rState.X_WL[1][0].isApprox(p0, 1e-12));
    QVERIFY(rState.X_WL[1][0].translation().isApprox(Vec3(0, 0, 28), 1e-12));
  }

  void collisionRulesAndApproach() {
    Tree tree;
    const Robot r = loadRobot(sgtest::writeGripperRobot(tree), kMaterials);
    const RobotState rState = defaultRobotState(r);
    QVERIFY(r.chains[1].links[0].collisionOff);
    QVERIFY(!r.chains[1].links[0].body.collisionEnabled);
    QVERIFY(!r.chains[0].links[0].collisionOff);
    QCOMPARE(r.disabledPairs.size(), std::size_t(2));
    QVERIFY((r.disabledPairs[0] == std::pair<BodyRef, BodyRef>{{0, 1}, {-1, 0}}));
    QVERIFY((r.disabledPairs[1] == std::pair<BodyRef, BodyRef>{{0, 0}, {1, 0}}));
    QVERIFY(r.approach.has_value());
    QVERIFY(r.approach->translation().isApprox(Vec3(0, 0, 10)));
    QVERIFY(r.approach->applyToVector(Vec3::UnitZ()).isApprox(Vec3::UnitZ(), 1e-12));
    QVERIFY(r.approach->applyToVector(Vec3::UnitX()).isApprox(Vec3::UnitX(), 1e-12));
  }

  void overlappingPairDefaultsToOwnChain() {
    Tree tree;
    const std::string path = sgtest::writePlanarRobot(tree);
    editFile(path, "<link dynamicJointType=\"Revolute\">link2.xml",
             "<link dynamicJointType=\"Revolute\" collisionRule=\"OverlappingPair\" targetLink=\"0\">link2.xml");
    const Robot r = loadRobot(path, kMaterials);
    const RobotState rState = defaultRobotState(r);
    QCOMPARE(r.disabledPairs.size(), std::size_t(1));
    QVERIFY((r.disabledPairs[0] == std::pair<BodyRef, BodyRef>{{0, 1}, {0, 0}}));
    QVERIFY(r.loadWarnings.empty());
    // Without targetLink the rule names nothing: ignored with a warning (GraspIt! ignores it silently).
    editFile(path, " targetLink=\"0\"", "");
    const Robot q = loadRobot(path, kMaterials);
    QVERIFY(q.disabledPairs.empty());
    QCOMPARE(q.loadWarnings.size(), std::size_t(1));
    QVERIFY(sgtest::contains(q.loadWarnings[0], path + ":" + std::to_string(sgtest::lineOf(sgtest::readText(path), "OverlappingPair"))));
  }

  void approachAlongX() {
    Tree tree;
    const std::string path = sgtest::writePlanarRobot(
        tree, "  <approachDirection><referenceLocation>1 2 3</referenceLocation><direction>5 0 0</direction></approachDirection>\n");
    const Robot r = loadRobot(path, kMaterials);
    const RobotState rState = defaultRobotState(r);
    // z along x: the x axis is built from (0,1,0), y = z × x.
    QVERIFY(r.approach->applyToVector(Vec3::UnitZ()).isApprox(Vec3::UnitX(), 1e-12));
    QVERIFY(r.approach->applyToVector(Vec3::UnitX()).isApprox(Vec3::UnitY(), 1e-12));
    QVERIFY(r.approach->applyToVector(Vec3::UnitY()).isApprox(Vec3::UnitZ(), 1e-12));
  }

  void eigenGrasps() {
    Tree tree;
    const Robot r = loadRobot(sgtest::writeGripperRobot(tree), kMaterials);
    const RobotState rState = defaultRobotState(r);
    const EigenGraspSet& eg = r.eigengrasps;
    QCOMPARE(eg.grasps.size(), std::size_t(2));
    const double h = 1 / std::sqrt(2.0);
    QVERIFY(eg.grasps[0].direction.isApprox(Vec3(h, h, 0), 1e-15));  // normalised
    QVERIFY(eg.grasps[1].direction.isApprox(Vec3(0, 0, -1), 1e-15));
    QCOMPARE(eg.grasps[0].eigenValue, 0.7);
    QCOMPARE(eg.grasps[1].eigenValue, 0.5);  // default
    QVERIFY(eg.grasps[0].minAmplitude && *eg.grasps[0].minAmplitude == -2 && *eg.grasps[0].maxAmplitude == 3);
    QVERIFY(!eg.grasps[1].minAmplitude);
    QVERIFY(eg.hasOrigin);
    QVERIFY(eg.origin.isApprox(Vec3(0.2, 10, 0.1)));
    QVERIFY(eg.norm.isApprox(Vec3(1, 10, 1)));
    // Back-projection x = (Eᵀa) ⊙ s + o, and projection recovers the amplitudes.
    const std::vector<double> a{0.3, -0.2};
    const auto x = amplitudesToDofs(r, a);
    QVERIFY(Vec3(x[0], x[1], x[2]).isApprox(Vec3(0.2 + 0.3 * h, 10 + 10 * 0.3 * h, 0.1 + 0.2), 1e-12));
    const auto back = dofsToAmplitudes(r, x);
    QVERIFY(std::abs(back[0] - 0.3) < 1e-12 && std::abs(back[1] + 0.2) < 1e-12);
    // A posture outside the subspace projects onto it: back-projecting lands on the closest posture.
    const auto a2 = dofsToAmplitudes(r, {0.5, 10, 0.1});
    const auto x2 = amplitudesToDofs(r, a2);
    QVERIFY(std::abs(dofsToAmplitudes(r, x2)[0] - a2[0]) < 1e-12);
    QVERIFY(std::abs(a2[0] - 0.3 * h) < 1e-12);
  }

  void virtualContactsXmlAndVgrAgree() {
    Tree tree;
    const Robot r = loadRobot(sgtest::writeGripperRobot(tree), kMaterials);
    const RobotState rState = defaultRobotState(r);
    QCOMPARE(r.virtualContacts.size(), std::size_t(2));
    const std::string vgr = tree.write("vgr/contacts.vgr", sgtest::gripperVirtualContactsVgr());
    const auto v = loadVirtualContacts(vgr);
    QCOMPARE(v.size(), std::size_t(2));
    for (std::size_t i = 0; i < 2; ++i) {
      const VirtualContact& a = r.virtualContacts[i];
      const VirtualContact& b = v[i];
      QCOMPARE(a.chain, b.chain);
      QCOMPARE(a.link, b.link);
      QCOMPARE(a.frictionEdges.size(), b.frictionEdges.size());
      for (std::size_t k = 0; k < a.frictionEdges.size(); ++k) QVERIFY(a.frictionEdges[k] == b.frictionEdges[k]);
      QVERIFY(a.location_mm == b.location_mm);
      QVERIFY(a.frame.isApprox(b.frame, 1e-15));
      QVERIFY(a.normal == b.normal);
      QCOMPARE(a.mu, b.mu);
    }
    const VirtualContact& c = v[0];
    QCOMPARE(c.chain, 0);
    QCOMPARE(c.link, 1);
    QVERIFY(c.frictionEdges[1] == (Vec6() << 0, 1, 0, 0, 0, 1.5).finished());
    QVERIFY(c.normal.isApprox(Vec3::UnitZ()));  // normalised
    // Quaternion w x y z = (0 1 0 0): 180° about x.
    QVERIFY(c.frame.applyToVector(Vec3::UnitY()).isApprox(-Vec3::UnitY(), 1e-12));
    QVERIFY(c.frame.translation().isApprox(Vec3(1, 2, 3)));
    QCOMPARE(v[1].chain, -1);
    QCOMPARE(v[1].mu, 0.5);
  }

  void missingEigenAndVirtualFilesWarn() {
    Tree tree;
    const std::string path = sgtest::writeGripperRobot(tree);
    editFile(path, "eigen/grip_eigen.xml", "eigen/none.xml");
    editFile(path, "virtual/contacts.xml", "virtual/none.vgr");
    const Robot r = loadRobot(path, kMaterials);
    QCOMPARE(r.eigengrasps.grasps.size(), std::size_t(3));  // one per DOF
    QVERIFY(r.virtualContacts.empty());
    QCOMPARE(r.loadWarnings.size(), std::size_t(2));
    const std::string text = sgtest::readText(path);
    QVERIFY(sgtest::contains(r.loadWarnings[0], path + ":" + std::to_string(sgtest::lineOf(text, "eigen/none.xml"))));
    QVERIFY(sgtest::contains(r.loadWarnings[1], path + ":" + std::to_string(sgtest::lineOf(text, "virtual/none.vgr"))));
  }

  void truncatedAndCorruptedFilesOnlyThrowSgErrors() {
    // Every cut of the robot file (and of its eigengrasp and virtual-contact files), and single-byte
    // corruptions, either load or throw sg::Error — never another exception, never a crash.
    Tree tree;
    const std::string robot = sgtest::writeGripperRobot(tree);
    const std::string dir = tree.path("models/robots/Gripper/");
    for (const std::string& target : {robot, dir + "eigen/grip_eigen.xml", dir + "virtual/contacts.xml"}) {
      const std::string original = sgtest::readText(target);
      for (std::size_t cut = 0; cut < original.size(); cut += 11) {
        for (int variant = 0; variant < 2; ++variant) {
          std::string text = original;
          if (variant == 0)
            text.resize(cut);
          else
            text[cut] = "<>\"&9-x/ "[cut % 9];
          sgtest::writeText(target, text);
          const std::string msg = sgtest::errorOf([&] { loadRobot(robot, kMaterials); });
          QVERIFY2(!sgtest::contains(msg, "NOT AN sg::Error"), msg.c_str());
        }
      }
      sgtest::writeText(target, original);
    }
  }

  // ---- bad input ----

  void dofExpressionNamingMissingDof() {
    Tree tree;
    const std::string path = sgtest::writePlanarRobot(tree);
    editFile(path, "<theta>d1</theta>", "<theta>d2</theta>");
    const int line = sgtest::lineOf(sgtest::readText(path), "<theta>d2</theta>");
    SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, line, "names DOF 2");
  }

  void dofExpressionGarbage() {
    for (const char* bad : {"x0", "d", "d0*", "d0+", "d0+5abc", "d0--5", "d0*2*3", "d-1", "d0*0", "d0+nan"}) {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, "<theta>d1</theta>", std::string("<theta>") + bad + "</theta>");
      const int line = sgtest::lineOf(sgtest::readText(path), std::string("<theta>") + bad + "</theta>");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, line, "DOF expression");
    }
  }

  // Numbers that overflow after the unit conversion (or make auto-grasp loop) are refused at their line.
  void absurdMagnitudesAreErrors() {
    const struct {
      const char* from;
      const char* to;
      const char* what;
    } cases[] = {
        {"<theta>d1</theta>", "<theta>d1+1e308</theta>", "offset is out of range"},
        {"<theta>d1</theta>", "<theta>d1*1e308</theta>", "ratio is out of range"},
        {"<theta>d1</theta>", "<theta>d1*1e-300</theta>", "ratio is too small"},
        {"<a>50.000000</a>", "<a>1e308</a>", "<a> is out of range"},
        {"<a>50.000000</a>", "<a>-2e8</a>", "limit ±1e+08 mm"},
        {"<alpha>0.000000</alpha>\n      <minValue>-120", "<alpha>1e308</alpha>\n      <minValue>-120", "<alpha>"},
        {"<maxValue>120.000000</maxValue>", "<maxValue>1e308</maxValue>", "<maxValue> is out of range"},
        {"<minValue>-120.000000</minValue>", "<minValue>-1e7</minValue>", "limit ±1e+06 deg"},
        {"<maxEffort>5.0e+10</maxEffort>", "<maxEffort>1e308</maxEffort>", "limit ±1e+15"},
    };
    for (const auto& c : cases) {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, c.from, c.to);
      const std::string text = sgtest::readText(path);
      const std::string firstLine = std::string(c.to).substr(0, std::string(c.to).find('\n'));
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, sgtest::lineOf(text, firstLine), c.what);
    }
  }

  void eigenGraspDimensionMismatch() {
    Tree tree;
    const std::string robot = sgtest::writeGripperRobot(tree);
    const std::string eigen = tree.path("models/robots/Gripper/eigen/grip_eigen.xml");
    editFile(eigen, "dimensions=\"3\"", "dimensions=\"4\"");
    SG_VERIFY_ERROR_AT(loadRobot(robot, kMaterials), eigen, 2, "3 DOF");
    SG_VERIFY_ERROR_AT(loadEigenGrasps(eigen, 3), eigen, 2, "dimensions");
    editFile(eigen, "dimensions=\"4\"", "dimensions=\"3\"");
    editFile(eigen, "d2=\"-4\"", "d3=\"-4\"");
    SG_VERIFY_ERROR_AT(loadEigenGrasps(eigen, 3), eigen, sgtest::lineOf(sgtest::readText(eigen), "d3="), "d3");
  }

  void badRobotStructure() {
    {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, "dynamicJointType=\"Revolute\">link2", "dynamicJointType=\"Fixed\">link2");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, sgtest::lineOf(sgtest::readText(path), "Fixed"), "Fixed");
    }
    {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, "link2.xml</link>", "link9.xml</link>");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, sgtest::lineOf(sgtest::readText(path), "link9"), "link9.xml");
    }
    {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, "<dof type=\"r\">", "<dof type=\"q\">");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, sgtest::lineOf(sgtest::readText(path), "type=\"q\""), "r, b or c");
    }
    {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, "<maxValue>90", "<maxValue>-100");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, sgtest::lineOf(sgtest::readText(path), "<maxValue>-100"),
                         "above maxValue");
    }
    {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      editFile(path, "<Kp>1.0e+11</Kp>", "");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, 4, "missing <Kp>");
    }
    {
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree, "  <disableCollision body1_chain=\"0\" body1_link=\"5\" body2_chain=\"-1\" body2_link=\"0\"/>\n");
      SG_VERIFY_ERROR_AT(loadRobot(path, kMaterials), path, sgtest::lineOf(sgtest::readText(path), "disableCollision"), "link 5");
    }
    {
      // An error inside a link body names that file and line, and the robot line that referenced it.
      Tree tree;
      const std::string path = sgtest::writePlanarRobot(tree);
      const std::string link = tree.path("models/robots/Planar/iv/link2.xml");
      editFile(link, "<mass>100</mass>", "<mass>heavy</mass>");
      const std::string msg = sgtest::errorOf([&] { loadRobot(path, kMaterials); });
      QVERIFY2(sgtest::contains(msg, link + ":4"), msg.c_str());
      QVERIFY2(sgtest::contains(msg, path + ":" + std::to_string(sgtest::lineOf(sgtest::readText(path), "link2.xml"))), msg.c_str());
    }
  }

  void badVirtualContacts() {
    Tree tree;
    std::string xml = sgtest::gripperVirtualContactsXml();
    xml.replace(xml.find("<num_friction_edges>2"), 21, "<num_friction_edges>3");
    const std::string p = tree.write("v/a.xml", xml);
    SG_VERIFY_ERROR_AT(loadVirtualContacts(p), p, sgtest::lineOf(xml, "<num_friction_edges>3"), "says 3");
    std::string vgr = sgtest::gripperVirtualContactsVgr();
    vgr.replace(vgr.find("0.3\n"), 3, "abc");
    const std::string q = tree.write("v/b.vgr", vgr);
    SG_VERIFY_ERROR_AT(loadVirtualContacts(q), q, sgtest::lineOf(vgr, "abc"), "abc");
    const std::string t = tree.write("v/c.vgr", "Gripper\n2\n0 1\n2\n1 0 0 0 0 0\n");
    SG_VERIFY_ERROR_AT(loadVirtualContacts(t), t, 5, "file ends");
  }
};

QTEST_GUILESS_MAIN(TestRobotXml)
#include "tst_robot_xml.moc"
