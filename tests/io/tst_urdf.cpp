// URDF robots (src/io/FORMATS.md §URDF): the bundled URDF ThreeFinger against the GraspIt!-format one, mimic
// joints, branching trees, continuous and prismatic joints, unit conversion, package:// resolution, the sidecar,
// visual vs collision geometry, Collada meshes, bad URDFs, and the conversion to GraspIt! DH joints.
#include <QtTest>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <random>

#include "MeshTestFiles.h"
#include "geometry/Primitives.h"
#include "io/ModelIO.h"
#include "model/DhConversion.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

using namespace sg;
using sg::testfiles::writeFile;

namespace {

std::string source(const std::string& rel) { return std::string(sg::test::sourceDir()) + "/" + rel; }
const std::string kGraspItHand = source("models/robots/ThreeFinger/ThreeFinger.xml");
const std::string kUrdfHand = source("models/robots/ThreeFingerURDF/urdf/three_finger.urdf");

// A URDF robot document around `body` (links and joints).
QByteArray urdfDocument(const std::string& body) { return QByteArray::fromStdString("<robot name=\"t\">\n" + body + "</robot>\n"); }

const char* kBox = "<collision><geometry><box size=\"0.01 0.01 0.01\"/></geometry></collision>";

std::string urdfLink(const std::string& name, const std::string& inside = kBox) {
  return "<link name=\"" + name + "\">" + inside + "</link>\n";
}

std::string urdfJoint(const std::string& name, const std::string& type, const std::string& parent, const std::string& child,
                  const std::string& extra = "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>") {
  return "<joint name=\"" + name + "\" type=\"" + type + "\"><parent link=\"" + parent + "\"/><child link=\"" + child +
         "\"/>" + extra + "</joint>\n";
}

Robot load(const std::string& path, const LoadOptions& options = {}) { return loadRobot(path, MaterialTable{}, options); }

// Expects loading `path` to fail with an error naming `named` (the file by default) and containing `fragment`.
void expectLoadError(const std::string& path, const std::string& fragment, const LoadOptions& options = {},
                     std::string named = {}) {
  if (named.empty()) named = path;
  try {
    (void)load(path, options);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (qEnvironmentVariableIsSet("SG_SHOW_ERRORS")) qInfo("%s", what.c_str());
    QVERIFY2(what.find(named) != std::string::npos, ("error does not name " + named + ": " + what).c_str());
    QVERIFY2(what.find(fragment) != std::string::npos, ("error lacks '" + fragment + "': " + what).c_str());
    return;
  }
  QFAIL(("no error for " + path).c_str());
}

std::vector<double> randomDofs(const Robot& robot, std::mt19937& rng) {
  std::vector<double> v;
  for (const Dof& d : robot.dofs) v.push_back(std::uniform_real_distribution<double>(d.minValue, d.maxValue)(rng));
  return v;
}

// Largest distance from a world vertex of `a` to the nearest world vertex of `b` (small meshes: brute force).
double meshGap(const TriangleMesh& a, const Transform& X_WA, const TriangleMesh& b, const Transform& X_WB) {
  double worst = 0;
  for (const Vec3& p : a.vertices) {
    const Vec3 pw = X_WA * p;
    double best = std::numeric_limits<double>::infinity();
    for (const Vec3& q : b.vertices) best = std::min(best, (X_WB * q - pw).norm());
    worst = std::max(worst, best);
  }
  return worst;
}

// Every body of `a` and `b` (same body refs) has the same world geometry at random DOF values, within tol_mm.
void expectSameWorldGeometry(const Robot& a, const Robot& b, double tol_mm, int samples = 10) {
  QCOMPARE(a.dofCount(), b.dofCount());
  QCOMPARE(a.bodyRefs().size(), b.bodyRefs().size());
  std::mt19937 rng(17);
  const Transform X_WP(Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized())), Vec3(120, -40, 300));
  RobotState sa = defaultRobotState(a, X_WP), sb = defaultRobotState(b, X_WP);
  for (int s = 0; s < samples; ++s) {
    const auto v = randomDofs(a, rng);
    setDofValues(a, sa, v);
    setDofValues(b, sb, v);
    for (const BodyRef& ref : a.bodyRefs()) {
      const double gap = std::max(meshGap(*a.body(ref).mesh, X_WB(sa, ref), *b.body(ref).mesh, X_WB(sb, ref)),
                                  meshGap(*b.body(ref).mesh, X_WB(sb, ref), *a.body(ref).mesh, X_WB(sa, ref)));
      QVERIFY2(gap <= tol_mm, qPrintable(QString("chain %1 link %2 sample %3: %4 mm").arg(ref.chain).arg(ref.link).arg(s).arg(gap)));
    }
  }
}

// The whole robot's world vertices (every body) of `a` and `b` lie on each other at random DOF values, within tol_mm:
// for robots whose bodies were merged (toDhRobot folds fixed joints).
void expectSameRobotGeometry(const Robot& a, const Robot& b, double tol_mm, int samples = 10) {
  QCOMPARE(a.dofCount(), b.dofCount());
  std::mt19937 rng(5);
  RobotState sa = defaultRobotState(a), sb = defaultRobotState(b);
  const auto cloud = [](const Robot& r, const RobotState& s) {
    TriangleMesh all;
    for (const BodyRef& ref : r.bodyRefs()) {
      TriangleMesh m = *r.body(ref).mesh;
      const Transform& X = X_WB(s, ref);
      m.transform(X.rotationMatrix(), X.translation());
      all.append(m);
    }
    return all;
  };
  for (int s = 0; s < samples; ++s) {
    const auto v = randomDofs(a, rng);
    setDofValues(a, sa, v);
    setDofValues(b, sb, v);
    const TriangleMesh ca = cloud(a, sa), cb = cloud(b, sb);
    const double gap = std::max(meshGap(ca, {}, cb, {}), meshGap(cb, {}, ca, {}));
    QVERIFY2(gap <= tol_mm, qPrintable(QString("sample %1: %2 mm").arg(s).arg(gap)));
  }
}

}  // namespace

class TestUrdf : public QObject {
  Q_OBJECT

 private slots:
  // The bundled URDF ThreeFinger is the GraspIt!-format ThreeFinger: same DOFs and ranges, and at random DOF values
  // each URDF link frame times its DH joint's X_JC (the URDF link frame is the joint frame, the GraspIt! one the
  // frame after the DH transform) is the GraspIt! link pose, and every body's mesh lies at the same place.
  void bundledHandFkEqualsGraspItHand() {
    const Robot g = load(kGraspItHand), u = load(kUrdfHand);
    QVERIFY2(u.loadWarnings.empty(), u.loadWarnings.empty() ? "" : u.loadWarnings.front().c_str());
    QCOMPARE(u.dofCount(), g.dofCount());
    QCOMPARE(u.chains.size(), g.chains.size());
    for (std::size_t k = 0; k < g.dofCount(); ++k) {
      QVERIFY(std::abs(u.dofs[k].minValue - g.dofs[k].minValue) < 1e-12);
      QVERIFY(std::abs(u.dofs[k].maxValue - g.dofs[k].maxValue) < 1e-12);
      QCOMPARE(u.dofs[k].type, g.dofs[k].type);
      QCOMPARE(u.dofs[k].defaultVelocity, g.dofs[k].defaultVelocity);
    }
    for (const BodyRef& ref : g.bodyRefs()) {
      QCOMPARE(u.body(ref).material, g.body(ref).material);
      QCOMPARE(u.body(ref).youngs_Pa, g.body(ref).youngs_Pa);
      QVERIFY(std::abs(u.body(ref).mass_g - g.body(ref).mass_g) < 1e-9);
    }
    QCOMPARE(u.virtualContacts.size(), g.virtualContacts.size());
    QCOMPARE(u.eigengrasps.grasps.size(), g.eigengrasps.grasps.size());

    std::mt19937 rng(2024);
    const Transform X_WP(Quat(Eigen::AngleAxisd(0.4, Vec3(0.3, 1, -0.2).normalized())), Vec3(-30, 50, 170));
    RobotState stateG = defaultRobotState(g, X_WP), stateU = defaultRobotState(u, X_WP);
    double worst = 0;
    for (int s = 0; s < 50; ++s) {
      const auto v = randomDofs(g, rng);
      setDofValues(g, stateG, v);
      setDofValues(u, stateU, v);
      for (std::size_t c = 0; c < g.chains.size(); ++c)
        for (std::size_t l = 0; l < g.chains[c].links.size(); ++l) {
          const Transform& expected = stateG.X_WL[c][l];
          const Transform actual = stateU.X_WL[c][l] * g.chains[c].joints[g.chains[c].links[l].lastJoint].X_JC;
          worst = std::max(worst, (actual.translation() - expected.translation()).norm());
          QVERIFY((actual.rotationMatrix() - expected.rotationMatrix()).cwiseAbs().maxCoeff() < 1e-12);
        }
    }
    QVERIFY2(worst <= 1e-9, qPrintable(QString("worst link position difference %1 mm").arg(worst)));
    expectSameWorldGeometry(g, u, 1e-9, 5);
  }

  void mimicJointIsACoupledDof() {
    QTemporaryDir dir;
    const std::string path = writeFile(
        dir, "m.urdf",
        urdfDocument(urdfLink("base") + urdfLink("a") + urdfLink("b") +
             urdfJoint("ja", "revolute", "base", "a", "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1.5\" effort=\"1\" velocity=\"1\"/>") +
             urdfJoint("jb", "revolute", "a", "b",
                   "<origin xyz=\"0.1 0 0\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"2\" effort=\"1\" velocity=\"1\"/>"
                   "<mimic joint=\"ja\" multiplier=\"-2\" offset=\"0.1\"/>")));
    const Robot r = load(path);
    QCOMPARE(r.dofCount(), std::size_t(1));
    const Joint& jb = r.chains[0].joints[1];
    QCOMPARE(jb.expr.dof, 0);
    QCOMPARE(jb.expr.ratio, -2.0);
    QCOMPARE(jb.expr.offset, 0.1);
    // URDF limits include the offset: -2·d + 0.1 ∈ [-1, 2]  ⇔  d ∈ [-0.95, 0.55]; ja gives [-1, 1.5].
    QVERIFY(std::abs(r.dofs[0].minValue - -0.95) < 1e-12);
    QVERIFY(std::abs(r.dofs[0].maxValue - 0.55) < 1e-12);
    RobotState s = defaultRobotState(r);
    setDofValues(r, s, {0.3});
    const Transform expected = Transform::fromAxisAngle(Vec3::UnitZ(), 0.3) * Transform::fromTranslation(Vec3(100, 0, 0)) *
                               Transform::fromAxisAngle(Vec3::UnitY(), -2 * 0.3 + 0.1);
    QVERIFY(s.X_WL[0][1].isApprox(expected, 1e-12));
  }

  void mimicOfAMissingJointIsAnError() {
    QTemporaryDir dir;
    const std::string path = writeFile(
        dir, "m.urdf",
        urdfDocument(urdfLink("base") + urdfLink("a") + urdfJoint("ja", "revolute", "base", "a",
                                             "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/><mimic joint=\"nope\"/>")));
    expectLoadError(path, "mimics joint 'nope'");
  }

  // palm -> a; a branches into b and c (c's finger has two links). Chains: [a], [b] off a, [c, d] off a.
  void branchingTreeHangsChainsOffTheBranchingLink() {
    QTemporaryDir dir;
    const std::string z = "<axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>";
    const std::string path = writeFile(
        dir, "tree.urdf",
        urdfDocument(urdfLink("palm") + urdfLink("a") + urdfLink("b") + urdfLink("c") + urdfLink("d") +
             urdfJoint("ja", "revolute", "palm", "a", "<origin xyz=\"0 0 0.01\"/>" + z) +
             urdfJoint("jb", "revolute", "a", "b", "<origin xyz=\"0.02 0 0\"/>" + z) +
             urdfJoint("jc", "revolute", "a", "c", "<origin xyz=\"-0.02 0 0\" rpy=\"0 0 3.14159265358979\"/>" + z) +
             urdfJoint("jd", "fixed", "c", "d", "<origin xyz=\"0.03 0 0\"/>")));
    const Robot r = load(path);
    QCOMPARE(r.chains.size(), std::size_t(3));
    QCOMPARE(r.dofCount(), std::size_t(3));
    QVERIFY(!r.chains[0].parent);
    QCOMPARE(*r.chains[1].parent, (BodyRef{0, 0}));
    QCOMPARE(*r.chains[2].parent, (BodyRef{0, 0}));
    QCOMPARE(r.chains[2].links.size(), std::size_t(2));
    QCOMPARE(r.chains[2].joints[1].type, JointType::Fixed);
    QVERIFY(std::find(r.disabledPairs.begin(), r.disabledPairs.end(), std::pair{BodyRef{0, 0}, BodyRef{1, 0}}) !=
            r.disabledPairs.end());
    RobotState s = defaultRobotState(r);
    setDofValues(r, s, {0.5, 0.2, -0.3});
    const Transform A = Transform::fromTranslation(Vec3(0, 0, 10)) * Transform::fromAxisAngle(Vec3::UnitZ(), 0.5);
    QVERIFY(s.X_WL[0][0].isApprox(A, 1e-12));
    QVERIFY(s.X_WL[1][0].isApprox(A * Transform::fromTranslation(Vec3(20, 0, 0)) * Transform::fromAxisAngle(Vec3::UnitZ(), 0.2), 1e-9));
    const Transform C = A * Transform::fromTranslation(Vec3(-20, 0, 0)) *
                        Transform::fromAxisAngle(Vec3::UnitZ(), 3.14159265358979) * Transform::fromAxisAngle(Vec3::UnitZ(), -0.3);
    QVERIFY(s.X_WL[2][0].isApprox(C, 1e-9));
    QVERIFY(s.X_WL[2][1].isApprox(C * Transform::fromTranslation(Vec3(30, 0, 0)), 1e-9));
  }

  void continuousJointTurnsOneTurnEachWay() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "c.urdf",
                                       urdfDocument(urdfLink("base") + urdfLink("wheel") +
                                            urdfJoint("spin", "continuous", "base", "wheel", "<axis xyz=\"1 0 0\"/>")));
    const Robot r = load(path);
    QCOMPARE(r.dofs[0].minValue, -std::numbers::pi);
    QCOMPARE(r.dofs[0].maxValue, std::numbers::pi);
    RobotState s = defaultRobotState(r);
    setDofValues(r, s, {3.0});
    QVERIFY(s.X_WL[0][0].isApprox(Transform::fromAxisAngle(Vec3::UnitX(), 3.0), 1e-12));
  }

  // Metres -> mm for origins, prismatic limits, primitive sizes and inertials; kg -> g.
  void unitsAreConverted() {
    QTemporaryDir dir;
    const std::string path = writeFile(
        dir, "u.urdf",
        urdfDocument(urdfLink("base", "<collision><origin xyz=\"0.001 0 0\"/><geometry><box size=\"0.02 0.04 0.06\"/></geometry></collision>"
                          "<inertial><origin xyz=\"0.001 0.002 0.003\"/><mass value=\"0.5\"/>"
                          "<inertia ixx=\"0.002\" ixy=\"0\" ixz=\"0\" iyy=\"0.003\" iyz=\"0\" izz=\"0.004\"/></inertial>") +
             urdfLink("slider", "<collision><geometry><cylinder radius=\"0.005\" length=\"0.03\"/></geometry></collision>") +
             urdfJoint("slide", "prismatic", "base", "slider",
                   "<origin xyz=\"0.01 0.02 0.03\" rpy=\"0 0 1.5707963267948966\"/><axis xyz=\"0 0 2\"/>"
                   "<limit lower=\"-0.01\" upper=\"0.05\" effort=\"1\" velocity=\"1\"/>")));
    const Robot r = load(path);
    QVERIFY(r.dofs[0].prismatic);
    QVERIFY(std::abs(r.dofs[0].minValue - -10) < 1e-12);
    QVERIFY(std::abs(r.dofs[0].maxValue - 50) < 1e-12);
    QVERIFY((r.palm.mesh->bounds.min - Vec3(-9, -20, -30)).norm() < 1e-12);
    QVERIFY((r.palm.mesh->bounds.max - Vec3(11, 20, 30)).norm() < 1e-12);
    QCOMPARE(r.palm.mass_g, 500.0);
    QVERIFY((r.palm.cog_mm - Vec3(1, 2, 3)).norm() < 1e-12);
    QVERIFY((r.palm.inertiaPerMass_mm2.diagonal() - Vec3(4000, 6000, 8000)).norm() < 1e-9);  // 0.002 kg m² / 0.5 kg
    QVERIFY(std::abs(r.chains[0].links[0].body.mesh->bounds.max.z() - 15) < 1e-12);
    // One box / cylinder as a link's collision geometry is that exact primitive, in mm, at its <origin>.
    QVERIFY(r.palm.primitive.has_value());
    const auto* box = std::get_if<Box>(&r.palm.primitive->shape);
    QVERIFY(box && (box->size_mm - Vec3(20, 40, 60)).norm() < 1e-12);
    QVERIFY((r.palm.primitive->X_BS.translation() - Vec3(1, 0, 0)).norm() < 1e-12);
    const auto& sliderBody = r.chains[0].links[0].body;
    QVERIFY(sliderBody.primitive.has_value());
    const auto* cyl = std::get_if<Cylinder>(&sliderBody.primitive->shape);
    QVERIFY(cyl && std::abs(cyl->radius_mm - 5) < 1e-12 && std::abs(cyl->height_mm - 30) < 1e-12);
    RobotState s = defaultRobotState(r);
    setDofValues(r, s, {25.0});
    QVERIFY(s.X_WL[0][0].isApprox(Transform(Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitZ())), Vec3(10, 20, 55)), 1e-9));
  }

  void packageUrisResolveThroughSearchPaths() {
    QTemporaryDir dir;
    std::filesystem::create_directories(dir.filePath("pkgs/mypkg/meshes").toStdString());
    std::filesystem::create_directories(dir.filePath("robot").toStdString());
    writeFile(dir, "pkgs/mypkg/meshes/cube.off", sg::testfiles::kCubeOff);
    const std::string mesh = "<collision><geometry><mesh filename=\"package://mypkg/meshes/cube.off\" scale=\"0.001 0.002 0.001\"/></geometry></collision>";
    const std::string path = writeFile(dir, "robot/p.urdf", urdfDocument(urdfLink("base", mesh) + urdfLink("a") + urdfJoint("j", "revolute", "base", "a")));
    LoadOptions viaOption;
    viaOption.useRosPackagePath = false;
    viaOption.packagePaths = {dir.filePath("pkgs").toStdString()};
    const Robot r = load(path, viaOption);
    QVERIFY((r.palm.mesh->bounds.max - Vec3(10, 20, 10)).norm() < 1e-12);  // scale applied, cube is 10 units
    // The same through ROS_PACKAGE_PATH, and with the package directory itself on the path.
    qputenv("ROS_PACKAGE_PATH", QByteArray("/nonexistent:") + dir.filePath("pkgs").toUtf8());
    QVERIFY(load(path).palm.mesh->bounds.max.isApprox(Vec3(10, 20, 10)));
    qunsetenv("ROS_PACKAGE_PATH");
    LoadOptions packageItself;
    packageItself.packagePaths = {dir.filePath("pkgs/mypkg").toStdString()};
    QVERIFY(load(path, packageItself).palm.mesh->bounds.max.isApprox(Vec3(10, 20, 10)));
    // Not found: the error names the URDF, the URI and every place tried.
    LoadOptions elsewhere;
    elsewhere.packagePaths = {dir.filePath("robot").toStdString()};
    expectLoadError(path, "package://mypkg/meshes/cube.off", elsewhere);
    expectLoadError(path, dir.filePath("robot/mypkg/meshes/cube.off").toStdString(), elsewhere);
    expectLoadError(path, "tried:", elsewhere);
  }

  void fileUrisAndRelativeNamesResolve() {
    QTemporaryDir dir;
    const std::string cube = writeFile(dir, "cube.off", sg::testfiles::kCubeOff);
    const std::string path = writeFile(
        dir, "f.urdf",
        urdfDocument(urdfLink("base", "<collision><geometry><mesh filename=\"file://" + cube + "\"/></geometry></collision>") +
             urdfLink("a", "<collision><geometry><mesh filename=\"cube.off\"/></geometry></collision>") +
             urdfJoint("j", "revolute", "base", "a")));
    const Robot r = load(path);
    QVERIFY(r.palm.mesh->bounds.max.isApprox(Vec3(10000, 10000, 10000)));  // metres
    QVERIFY(r.chains[0].links[0].body.mesh->bounds.max.isApprox(Vec3(10000, 10000, 10000)));
  }

  void collisionForContactsVisualForDrawing() {
    QTemporaryDir dir;
    const std::string path = writeFile(
        dir, "v.urdf",
        QByteArray::fromStdString("<robot name=\"v\"><material name=\"red\"><color rgba=\"1 0 0 1\"/></material>" +
            urdfLink("base", std::string(kBox) + "<visual><geometry><sphere radius=\"0.02\"/></geometry><material name=\"red\"/></visual>") +
            urdfLink("a", "<visual><geometry><box size=\"0.01 0.02 0.03\"/></geometry></visual>") + urdfLink("frame", "") +
            urdfJoint("j", "revolute", "base", "a") + urdfJoint("k", "fixed", "a", "frame") + "</robot>"));
    const Robot r = load(path);
    QVERIFY(r.palm.mesh->bounds.max.isApprox(Vec3(5, 5, 5)));
    QVERIFY(r.palm.visualMesh);
    QVERIFY(std::abs(r.palm.visualMesh->bounds.max.x() - 20) < 1e-9);
    QCOMPARE(*r.palm.colour, Vec4(1, 0, 0, 1));
    // No <collision>: the visual geometry is used for contacts, with a warning.
    QVERIFY(r.chains[0].links[0].body.mesh->bounds.max.isApprox(Vec3(5, 10, 15)));
    bool warned = false;
    for (const auto& w : r.loadWarnings) warned = warned || w.find("'a' has no <collision>") != std::string::npos;
    QVERIFY(warned);
    // A frame-only link has no geometry and never collides.
    const Body& frame = r.chains[0].links[1].body;
    QVERIFY(frame.mesh && frame.mesh->empty());
    QVERIFY(!frame.collisionEnabled);
  }

  void colladaMeshesLoadThroughAssimp() {
    QTemporaryDir dir;
    // One triangle, in a file whose unit is the centimetre.
    writeFile(dir, "tri.dae",
        "<?xml version='1.0' encoding='utf-8'?>\n"
        "<COLLADA xmlns='http://www.collada.org/2005/11/COLLADASchema' version='1.4.1'>\n"
        "  <asset><unit name='centimeter' meter='0.01'/><up_axis>Z_UP</up_axis></asset>\n"
        "  <library_geometries><geometry id='g'><mesh>\n"
        "    <source id='p'><float_array id='pa' count='9'>0 0 0 10 0 0 0 20 0</float_array>\n"
        "      <technique_common><accessor source='#pa' count='3' stride='3'><param name='X' type='float'/><param name='Y' type='float'/><param name='Z' type='float'/></accessor></technique_common></source>\n"
        "    <vertices id='v'><input semantic='POSITION' source='#p'/></vertices>\n"
        "    <triangles count='1'><input semantic='VERTEX' source='#v' offset='0'/><p>0 1 2</p></triangles>\n"
        "  </mesh></geometry></library_geometries>\n"
        "  <library_visual_scenes><visual_scene id='s'><node id='n'><instance_geometry url='#g'/></node></visual_scene></library_visual_scenes>\n"
        "  <scene><instance_visual_scene url='#s'/></scene>\n"
        "</COLLADA>\n");
    const std::string path = writeFile(
        dir, "d.urdf",
        urdfDocument(urdfLink("base", "<collision><geometry><mesh filename=\"tri.dae\"/></geometry></collision>") + urdfLink("a") +
             urdfJoint("j", "revolute", "base", "a")));
    const Robot r = load(path);
    QCOMPARE(r.palm.mesh->triangleCount(), std::size_t(1));
    QVERIFY2((r.palm.mesh->bounds.max - Vec3(100, 200, 0)).norm() < 1e-4,  // 10 cm, 20 cm; assimp works in float
             qPrintable(QString("%1 %2 %3").arg(r.palm.mesh->bounds.max.x()).arg(r.palm.mesh->bounds.max.y()).arg(r.palm.mesh->bounds.max.z())));
  }

  void withoutSidecarDefaultsAndAWarning() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "d.urdf", urdfDocument(urdfLink("base") + urdfLink("a") + urdfJoint("j", "revolute", "base", "a")));
    const Robot r = load(path);
    QCOMPARE(r.dofs[0].defaultVelocity, 1.0);
    QCOMPARE(r.dofs[0].type, DofType::Rigid);
    QVERIFY(!r.chains[0].links[0].body.isSoft());
    QCOMPARE(r.loadWarnings.size(), std::size_t(1));
    QVERIFY(r.loadWarnings[0].find("no sidecar") != std::string::npos);
    QCOMPARE(r.eigengrasps.grasps.size(), std::size_t(1));
  }

  void sidecarSuppliesWhatUrdfLacks() {
    QTemporaryDir dir;
    const std::string path = writeFile(
        dir, "s.urdf",
        urdfDocument(urdfLink("root") + urdfLink("palm") + urdfLink("a") + urdfLink("b") + urdfJoint("mount", "fixed", "root", "palm") +
             urdfJoint("ja", "revolute", "palm", "a") + urdfJoint("jb", "prismatic", "a", "b")));
    writeFile(dir, "s.softgrasp.xml", R"(<softgraspHand>
  <palm link="palm"/>
  <approachDirection><referenceLocation>0 0 5</referenceLocation><direction>0 0 2</direction></approachDirection>
  <dof joint="jb" type="c" defaultVelocity="-0.5"/>
  <dof joint="ja" type="b" breakAwayTorque="0.3" defaultValue="0.25"/>
  <link name="b" material="rubber" youngs="2e6"/>
  <link name="a" collision="off"/>
</softgraspHand>)");
    const Robot r = load(path);
    QCOMPARE(r.palm.name, std::string("palm"));
    QCOMPARE(r.dofCount(), std::size_t(2));
    QVERIFY(r.dofs[0].prismatic);  // jb first: the sidecar's order
    QCOMPARE(r.dofs[0].type, DofType::Compliant);
    QCOMPARE(r.dofs[0].defaultVelocity, -0.5);
    QCOMPARE(r.dofs[1].type, DofType::BreakAway);
    QCOMPARE(r.dofs[1].breakAwayTorque, 0.3);
    QCOMPARE(r.dofs[1].defaultValue, 0.25);
    QCOMPARE(r.chains[0].joints[1].expr.dof, 0);
    QCOMPARE(r.chains[0].links[1].body.material, std::string("rubber"));
    QCOMPARE(*r.chains[0].links[1].body.youngs_Pa, 2e6);
    QVERIFY(!r.chains[0].links[0].body.collisionEnabled);
    QVERIFY(r.approach->translation().isApprox(Vec3(0, 0, 5)));
    QVERIFY(r.approach->rotationMatrix().col(2).isApprox(Vec3::UnitZ()));
    bool ignored = false;
    for (const auto& w : r.loadWarnings) ignored = ignored || w.find("not below palm link 'palm' are ignored") != std::string::npos;
    QVERIFY(ignored);
  }

  void badSidecarNamesItsFileAndLine() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "s.urdf", urdfDocument(urdfLink("base") + urdfLink("a") + urdfJoint("ja", "revolute", "base", "a")));
    const std::string side = writeFile(dir, "s.softgrasp.xml", "<softgraspHand>\n  <dof joint=\"nope\"/>\n</softgraspHand>");
    expectLoadError(path, "s.softgrasp.xml:2", {}, side);
    writeFile(dir, "s.softgrasp.xml", "<softgraspHand>\n  <link name=\"a\" material=\"cheese\"/>\n</softgraspHand>");
    expectLoadError(path, "unknown material 'cheese'", {}, side);
  }

  void badUrdfsGiveClearErrors() {
    QTemporaryDir dir;
    expectLoadError(writeFile(dir, "parent.urdf", urdfDocument(urdfLink("a") + urdfLink("b") + urdfJoint("j", "revolute", "zz", "b"))),
                    "parent link [zz] of joint [j] not found");
    expectLoadError(writeFile(dir, "cycle.urdf", urdfDocument(urdfLink("a") + urdfLink("b") + urdfJoint("j1", "fixed", "a", "b", "") +
                                                      urdfJoint("j2", "fixed", "b", "a", ""))),
                    "No root link found");
    expectLoadError(writeFile(dir, "cycle2.urdf", urdfDocument(urdfLink("r") + urdfLink("a") + urdfLink("b") + urdfJoint("j0", "fixed", "r", "a", "") +
                                                       urdfJoint("j1", "revolute", "a", "b") + urdfJoint("j2", "fixed", "b", "a", ""))),
                    "already has parent joint");
    expectLoadError(writeFile(dir, "mesh.urdf",
                              urdfDocument(urdfLink("a", "<collision><geometry><mesh filename=\"package://nopkg/x.stl\"/></geometry></collision>") +
                                   urdfLink("b") + urdfJoint("j", "revolute", "a", "b"))),
                    "mesh of link 'a': 'package://nopkg/x.stl' not found");
    expectLoadError(writeFile(dir, "nan.urdf", urdfDocument(urdfLink("a") + urdfLink("b") + urdfJoint("j", "revolute", "a", "b",
                                                                                  "<origin xyz=\"0 nan 0\"/><limit lower=\"0\" upper=\"1\" effort=\"1\" velocity=\"1\"/>"))),
                    "Malformed parent origin element for joint [j]");
    expectLoadError(writeFile(dir, "huge.urdf", urdfDocument(urdfLink("a") + urdfLink("b") + urdfJoint("j", "revolute", "a", "b",
                                                                                   "<origin xyz=\"0 1e307 0\"/><limit lower=\"0\" upper=\"1\" effort=\"1\" velocity=\"1\"/>"))),
                    "joint 'j': origin xyz is not finite in mm");
    expectLoadError(writeFile(dir, "limits.urdf", urdfDocument(urdfLink("a") + urdfLink("b") + urdfJoint("j", "revolute", "a", "b", ""))),
                    "does not specify limits");
    expectLoadError(writeFile(dir, "float.urdf", urdfDocument(urdfLink("a") + urdfLink("b") + urdfJoint("j", "floating", "a", "b", ""))),
                    "floating and planar joints are not supported");
    expectLoadError(writeFile(dir, "xml.urdf", "<robot name=\"x\"><link name=\"a\">\n</robot>"), "xml.urdf:");
  }

  // toDhRobot keeps every body's world geometry: the bundled URDF hand, and a skewed chain with a fixed joint,
  // parallel and intersecting axes.
  void dhConversionKeepsWorldGeometry() {
    const Robot u = load(kUrdfHand);
    const Robot dh = toDhRobot(u);
    for (const auto& c : dh.chains)
      for (const auto& j : c.joints) QVERIFY(j.dh && j.X_PJ.isApprox(Transform(), 1e-15));
    expectSameWorldGeometry(u, dh, 1e-9, 5);

    QTemporaryDir dir;
    const std::string lim = "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>";
    const std::string path = writeFile(
        dir, "skew.urdf",
        urdfDocument(urdfLink("palm") + urdfLink("a") + urdfLink("b") + urdfLink("c") + urdfLink("d") + urdfLink("e") +
             urdfJoint("ja", "revolute", "palm", "a", "<origin xyz=\"0.01 0.02 0.005\" rpy=\"0.3 -0.2 0.9\"/><axis xyz=\"0.2 1 0.3\"/>" + lim) +
             urdfJoint("jb", "fixed", "a", "b", "<origin xyz=\"0.03 0 0.01\" rpy=\"0.1 0.2 0.3\"/>") +
             urdfJoint("jc", "revolute", "b", "c", "<origin xyz=\"0.02 0.01 0\"/><axis xyz=\"0.2 1 0.3\"/>" + lim) +  // parallel
             urdfJoint("jd", "prismatic", "c", "d", "<origin xyz=\"0 0 0\" rpy=\"0 1.2 0\"/><axis xyz=\"1 0 0\"/>" + lim) +  // intersecting
             urdfJoint("je", "revolute", "d", "e", "<origin xyz=\"0.04 -0.01 0.02\" rpy=\"1 0 0\"/><axis xyz=\"0 0 -1\"/><mimic joint=\"ja\" multiplier=\"0.5\" offset=\"0.2\"/>" + lim)));
    const Robot skew = load(path);
    const Robot skewDh = toDhRobot(skew);
    QCOMPARE(skewDh.chains[0].joints.size(), std::size_t(4));
    QCOMPARE(skewDh.chains[0].links.size(), std::size_t(4));  // b joined a
    expectSameRobotGeometry(skew, skewDh, 1e-9);
  }

  // convert --to graspit: the written GraspIt! robot loads and has the URDF hand's geometry (OFF text: 1e-6 mm).
  void exportedGraspItRobotMatches() {
    QTemporaryDir dir;
    const Robot u = load(kUrdfHand);
    const std::string written = exportGraspItRobot(u, dir.filePath("out").toStdString());
    const Robot g = load(written);
    QVERIFY(g.loadWarnings.empty());
    QCOMPARE(g.eigengrasps.grasps.size(), u.eigengrasps.grasps.size());
    for (const BodyRef& ref : u.bodyRefs()) {
      QCOMPARE(g.body(ref).material, u.body(ref).material);
      QCOMPARE(g.body(ref).youngs_Pa, u.body(ref).youngs_Pa);
    }
    expectSameWorldGeometry(u, g, 1e-6, 3);
  }

  // A world naming the URDF hand saves it by file name; only link properties edited after loading are written
  // (<linkProperties>), and they come back.
  void worldWithUrdfRobotSavesAndLoads() {
    World world = loadWorld(source("worlds/threefinger_urdf.xml"));
    QCOMPARE(world.robots.size(), std::size_t(1));
    QVERIFY(world.robots[0].loadWarnings.empty());
    const std::string dir = source("worlds");
    QVERIFY(worldToXml(world, dir).find("<linkProperties") == std::string::npos);
    world.robots[0].chains[1].links[2].body.material = "metal";
    const std::string text = worldToXml(world, dir);
    QVERIFY(text.find("three_finger.urdf") != std::string::npos);
    QCOMPARE(text.find("<linkProperties"), text.rfind("<linkProperties"));  // one link
    QTemporaryDir tmp;
    const std::string copy = tmp.filePath("w.xml").toStdString();
    saveWorld(world, copy);
    const World again = loadWorld(copy);
    QCOMPARE(again.robots[0].chains[1].links[2].body.material, std::string("metal"));
    QCOMPARE(again.robots[0].chains[0].links[2].body.material, std::string("rubber"));
  }

  void treesCannotBeWrittenForGraspIt() {
    QTemporaryDir dir;
    const std::string path = writeFile(dir, "t.urdf",
                                       urdfDocument(urdfLink("p") + urdfLink("a") + urdfLink("b") + urdfLink("c") + urdfJoint("ja", "revolute", "p", "a") +
                                            urdfJoint("jb", "revolute", "a", "b") + urdfJoint("jc", "revolute", "a", "c")));
    try {
      (void)exportGraspItRobot(load(path), dir.filePath("out").toStdString());
      QFAIL("no error");
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find("GraspIt! chains hang off the palm") != std::string::npos, e.what());
    }
  }
};

QTEST_GUILESS_MAIN(TestUrdf)
#include "tst_urdf.moc"
