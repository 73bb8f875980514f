// The bundled model zoo (models/, worlds/ and the build-time bumpy pebble): everything loads through
// src/io, has real geometry, and the hands have the DOFs, couplings and kinematics their files describe.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "ZooChecks.h"
#include "core/Error.h"
#include "geometry/Bvh.h"
#include "geometry/Proximity.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"

using namespace sg;
using namespace sg::zootest;

namespace {

const double kSqrt3 = std::sqrt(3.0);
const double kSqrt2 = std::sqrt(2.0);

bool near(const Vec3& a, const Vec3& b, double tol) { return (a - b).norm() <= tol; }

QString describe(const Vec3& v) { return QString("(%1, %2, %3)").arg(v.x()).arg(v.y()).arg(v.z()); }

#define VERIFY_NEAR(actual, expected, tol)                                                            \
  QVERIFY2(near((actual), (expected), (tol)),                                                          \
           qPrintable(QString("got %1, expected %2").arg(describe(actual), describe(expected))))

// A link pose against hand-derived origin and x/y axes (z = x × y).
void checkPose(const Transform& pose, const Vec3& origin, const Vec3& xAxis, const Vec3& yAxis) {
  const Mat3 R = pose.rotationMatrix();
  VERIFY_NEAR(pose.translation(), origin, 1e-3);
  VERIFY_NEAR(Vec3(R.col(0)), xAxis, 1e-6);
  VERIFY_NEAR(Vec3(R.col(1)), yAxis, 1e-6);
  VERIFY_NEAR(Vec3(R.col(2)), xAxis.cross(yAxis), 1e-6);
}

void checkClosedMesh(const Body& body, const std::string& what) {
  QVERIFY2(body.triangleCount() > 0, what.c_str());
  QVERIFY2(signedMeshVolume(body) > 0, (what + ": mesh is not closed and outward oriented").c_str());
  QVERIFY2(computeMassProperties(*body.mesh).has_value(), what.c_str());
  QVERIFY2(body.mass_g > 0 && std::isfinite(body.maxRadius_mm) && body.maxRadius_mm > 0, what.c_str());
}

Robot loadThreeFinger() {
  return loadRobot(sourcePath("models/robots/ThreeFinger/ThreeFinger.xml"), MaterialTable{});
}

}  // namespace

class TestModels : public QObject {
  Q_OBJECT
 private slots:
  // ---------------------------------------------------------------- objects
  void everyBundledObjectLoadsClosed_data() {
    QTest::addColumn<QString>("file");
    for (const QString& dir : {QString("models/objects"), QString("models/obstacles")})
      for (const QString& f : bundledFiles(dir, "*.xml")) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
  }
  void everyBundledObjectLoadsClosed() {
    QFETCH(QString, file);
    const Body body = loadBody(file.toStdString(), BodyKind::Graspable, MaterialTable{});
    checkClosedMesh(body, file.toStdString());
    QVERIFY(MaterialTable{}.contains(body.material));
  }

  void objectFormatsAndSizes() {
    const MaterialTable materials;
    struct Expect {
      const char* file;
      const char* type;
      double volume_mm3, tolerance;  // analytic volume and relative tolerance (tessellation)
    };
    // Polygonal volumes: a 48-gon of radius r has area 24·r²·sin(7.5°).
    const double gon48 = 24 * std::sin(degToRad(7.5));
    const Expect expect[] = {
        {"box.xml", "stl", 50.0 * 70 * 90, 1e-6},
        {"cylinder.xml", "off", gon48 * 30 * 30 * 120, 1e-3},
        {"cone.xml", "ply", gon48 * 35 * 35 * 90 / 3, 1e-3},
        {"torus.xml", "obj", 2 * kPi * kPi * 40 * 12 * 12, 0.02},
        {"sphere.xml", "Inventor", 4.0 / 3 * kPi * 40 * 40 * 40, 0.08},
        // Mug: outer minus inner solid of revolution (rim and chamfers ignored) plus the handle's tube.
        {"mug.xml", "Inventor", kPi * (35 * 35 * 90 - 32 * 32 * 82) + kPi * 5.5 * 5.5 * 22 * 2 * 1.75, 0.08},
    };
    for (const auto& e : expect) {
      const Body b = loadBody(sourcePath(QString("models/objects/") + e.file), BodyKind::Graspable, materials);
      QVERIFY2(QString::fromStdString(b.geometry.type).compare(e.type, Qt::CaseInsensitive) == 0, e.file);
      const double v = signedMeshVolume(b);
      QVERIFY2(std::abs(v - e.volume_mm3) <= e.tolerance * e.volume_mm3,
               qPrintable(QString("%1: volume %2, expected %3").arg(e.file).arg(v).arg(e.volume_mm3)));
    }
  }

  void boxAndMugExtents() {
    const Body box = loadBody(sourcePath("models/objects/box.xml"), BodyKind::Graspable, MaterialTable{});
    QCOMPARE(box.triangleCount(), std::size_t(12));
    VERIFY_NEAR(box.mesh->bounds.min, Vec3(-25, -35, 0), 1e-3);
    VERIFY_NEAR(box.mesh->bounds.max, Vec3(25, 35, 90), 1e-3);

    const Body mug = loadBody(sourcePath("models/objects/mug.xml"), BodyKind::Graspable, MaterialTable{});
    QCOMPARE(mug.material, std::string("glass"));
    QCOMPARE(mug.mass_g, 200.0);
    QVERIFY(!mug.isSoft());
    // Body 70 mm across standing on z = 0, rim at 90.5 mm, handle reaching x = 38 + 22 + 5.5 = 65.5 mm.
    QVERIFY(std::abs(mug.mesh->bounds.min.z()) < 1e-3);
    QVERIFY(std::abs(mug.mesh->bounds.max.z() - 90.5) < 1e-3);
    QVERIFY(std::abs(mug.mesh->bounds.min.x() + 35) < 0.1);
    QVERIFY(std::abs(mug.mesh->bounds.max.x() - 65.5) < 0.1);
  }

  void softSphere() {
    const Body ball = loadBody(sourcePath("models/objects/sphere.xml"), BodyKind::Graspable, MaterialTable{});
    QVERIFY(ball.isSoft());
    QCOMPARE(*ball.youngs_Pa, 1.5e6);
    QCOMPARE(ball.material, std::string("rubber"));
    // Tessellated sphere: every vertex on the 40 mm sphere.
    for (const Vec3& v : ball.mesh->vertices) QVERIFY(std::abs(v.norm() - 40) < 1e-3);
  }

  void bumpyScanIsLargeAndClosed() {
    const std::string xml = binaryPath("models/objects/bumpy.xml");
    QVERIFY2(QFileInfo::exists(QString::fromStdString(xml)), "the `models` target did not generate bumpy.xml");
    const Body bumpy = loadBody(xml, BodyKind::Graspable, MaterialTable{});
    QVERIFY(bumpy.triangleCount() >= 50000);
    QCOMPARE(bumpy.triangleCount(), std::size_t(81920));  // icosphere subdivided 6 times
    QCOMPARE(QString::fromStdString(bumpy.geometry.type).toLower(), QString("ply"));
    checkClosedMesh(bumpy, "bumpy");
    // Pebble of semi-axes 45 x 35 x 30 mm with bumps of a few mm.
    const Vec3 size = bumpy.mesh->bounds.size();
    QVERIFY(size.x() > 80 && size.x() < 110);
    QVERIFY(size.z() > 50 && size.z() < 80);
  }

  // The committed meshes are reproducible: the generator writes the same geometry again.
  void committedMeshesMatchTheGenerator() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcess generator;
    generator.start(SG_MODEL_GENERATOR, {"objects", dir.path()});
    QVERIFY(generator.waitForFinished(60000));
    QCOMPARE(generator.exitStatus(), QProcess::NormalExit);
    QCOMPARE(generator.exitCode(), 0);
    for (const char* name : {"mug.iv", "cylinder.off", "cone.ply", "torus.obj", "box.stl"}) {
      const TriangleMesh fresh = readMesh(dir.filePath(name).toStdString());
      const TriangleMesh committed = readMesh(sourcePath(QString("models/objects/") + name));
      QVERIFY2(fresh.triangleCount() == committed.triangleCount(), name);
      QVERIFY2(fresh.vertexCount() == committed.vertexCount(), name);
      for (std::size_t i = 0; i < fresh.vertexCount(); ++i)
        QVERIFY2(near(fresh.vertices[i], committed.vertices[i], 1e-3), name);
    }
  }

  // ---------------------------------------------------------------- robots
  void everyBundledRobotLoads_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : bundledRobots()) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
  }
  void everyBundledRobotLoads() {
    QFETCH(QString, file);
    const Robot robot = loadRobot(file.toStdString(), MaterialTable{});
    QVERIFY(robot.dofCount() >= 1);
    QVERIFY(robot.approach.has_value());
    // Approach along the palm's +z for every bundled hand.
    VERIFY_NEAR(Vec3(robot.approach->rotationMatrix().col(2)), Vec3(0, 0, 1), 1e-9);
    for (const BodyRef& ref : robot.bodyRefs())
      checkClosedMesh(robot.body(ref), robot.name + " body " + std::to_string(ref.chain) + "/" + std::to_string(ref.link));
    for (const Dof& d : robot.dofs) QVERIFY(d.minValue < d.maxValue);
  }

  void threeFingerStructure() {
    const Robot hand = loadThreeFinger();
    const RobotState handState = defaultRobotState(hand);
    QCOMPARE(hand.dofCount(), std::size_t(4));
    QCOMPARE(hand.dofs[0].type, DofType::Rigid);
    for (int k = 1; k <= 3; ++k) {
      QCOMPARE(hand.dofs[k].type, DofType::BreakAway);
      QVERIFY(hand.dofs[k].defaultVelocity > 0);  // auto-grasp closes the fingers
    }
    QCOMPARE(hand.dofs[0].defaultVelocity, 0.0);  // ... but leaves the spread alone
    QCOMPARE(hand.chains.size(), std::size_t(3));
    QCOMPARE(hand.chains[0].joints.size(), std::size_t(3));
    QCOMPARE(hand.chains[1].joints.size(), std::size_t(3));
    QCOMPARE(hand.chains[2].joints.size(), std::size_t(2));
    QCOMPARE(hand.linkCount(), std::size_t(8));
    QCOMPARE(hand.bodyRefs().size(), std::size_t(9));
    // Ranges: spread [0, 90°] from the ±1 spread joints; fingers [0, 130°] from the proximal joints (the
    // distal joint, [0, 60°] at ratio 1/3, would allow 180°).
    QVERIFY(std::abs(hand.dofs[0].minValue) < 1e-9 && std::abs(hand.dofs[0].maxValue - degToRad(90)) < 1e-9);
    for (int k = 1; k <= 3; ++k)
      QVERIFY(std::abs(hand.dofs[k].minValue) < 1e-9 && std::abs(hand.dofs[k].maxValue - degToRad(130)) < 1e-9);
    // Materials and soft fingertips.
    QCOMPARE(hand.palm.material, std::string("plastic"));
    for (int c = 0; c < 3; ++c) {
      const auto& links = hand.chains[c].links;
      for (std::size_t l = 0; l + 1 < links.size(); ++l) QVERIFY(!links[l].body.isSoft());
      QVERIFY(links.back().body.isSoft());
      QCOMPARE(*links.back().body.youngs_Pa, 1.5e6);
      QCOMPARE(links.back().body.material, std::string("rubber"));
    }
    // Eigengrasps: spread and close.
    QCOMPARE(hand.eigengrasps.grasps.size(), std::size_t(2));
    QVERIFY(hand.eigengrasps.grasps[0].direction.isApprox(Vec4(1, 0, 0, 0), 1e-9));
    QVERIFY(hand.eigengrasps.grasps[1].direction.isApprox(Vec4(0, 1, 1, 1).normalized(), 1e-9));
    QVERIFY(hand.eigengrasps.hasOrigin);
    // Virtual contacts: one per fingertip, eight friction edges each, outward normal +y of the link.
    QCOMPARE(hand.virtualContacts.size(), std::size_t(3));
    for (const VirtualContact& vc : hand.virtualContacts) {
      QCOMPARE(vc.frictionEdges.size(), std::size_t(8));
      VERIFY_NEAR(vc.normal, Vec3(0, 1, 0), 1e-9);
      VERIFY_NEAR(Vec3(vc.frame.rotationMatrix().col(2)), Vec3(0, 1, 0), 1e-5);
      QVERIFY(vc.chain >= 0 && vc.chain < 3 && vc.link == int(hand.chains[vc.chain].links.size()) - 1);
    }
  }

  void threeFingerDistalCouplingIsOneThird() {
    Robot hand = loadThreeFinger();
    RobotState handState = defaultRobotState(hand);
    const std::vector<double> q = {0.3, 1.2, 0.6, 2.1};
    setDofValues(hand, handState, q);
    const int fingerDof[3] = {1, 2, 3};
    for (int c = 0; c < 3; ++c) {
      const auto& joints = hand.chains[c].joints;
      const Joint& proximal = joints[joints.size() - 2];
      const Joint& distal = joints.back();
      const double dofValue = q[fingerDof[c]];
      QCOMPARE(distal.expr.dof, fingerDof[c]);
      QVERIFY(std::abs(jointValue(proximal, q) - dofValue) < 1e-12);
      QVERIFY(std::abs(jointValue(distal, q) - dofValue / 3) < 1e-6);
      QVERIFY(std::abs(distal.expr.offset - degToRad(30)) < 1e-12);
    }
    // Spread joints turn the two fingers in opposite directions.
    QVERIFY(std::abs(jointValue(hand.chains[0].joints[0], q) + 0.3) < 1e-12);
    QVERIFY(std::abs(jointValue(hand.chains[1].joints[0], q) - 0.3) < 1e-12);
  }

  // Forward kinematics against poses worked out by hand from ThreeFinger.xml.
  //
  // DH per joint: T = Rz(θ)·Tz(d)·Tx(a)·Rx(α); a link's frame is the frame after its joint; x_i, y_i are
  // the columns of the link rotation, p_i its origin (palm frame = world frame, robot at the origin).
  //
  // Setting A, all DOFs 0.
  //  Finger 1 (chain 0), base = translation (25, 15, 0).
  //   J0: θ = -0 + 90°, d = 10, a = 25, α = 90°. Rz(90)·Rx(90): x1 = (0,1,0), y1 = Rz90(Rx90·y) = Rz90(0,0,1)
  //       = (0,0,1), z1 = Rz90(0,-1,0) = (1,0,0).  p1 = (25,15,0) + (0,0,10) + 25·x1 = (25, 40, 10). [knuckle]
  //   J1: θ = 0, a = 60: same axes, p2 = p1 + 60·x1 = (25, 100, 10).                          [proximal]
  //   J2: θ = 0/3 + 30° = 30°, a = 50: x3 = cos30·x1 + sin30·y1 = (0, √3/2, 1/2),
  //       y3 = -sin30·x1 + cos30·y1 = (0, -1/2, √3/2); p3 = p2 + 50·x3 = (25, 100 + 25√3, 35).  [distal]
  //  Thumb (chain 2), base = Tr(0,-40,10)·Rz(-90)·Rx(90): xB = (0,-1,0), yB = (0,0,1), zB = (-1,0,0).
  //   J0: θ = 0, a = 60: p1 = (0,-40,10) + 60·xB = (0, -100, 10), axes of the base.        [proximal]
  //   J1: θ = 30°, a = 50: x2 = cos30·xB + sin30·yB = (0, -√3/2, 1/2), y2 = -sin30·xB + cos30·yB = (0, 1/2, √3/2),
  //       p2 = p1 + 50·x2 = (0, -100 - 25√3, 35).                                              [distal]
  //
  // Setting B: d0 = 30° spread, d1 = 90°, d2 = 45°, d3 = 60°.
  //  Finger 1: J0 θ = -30 + 90 = 60°: x1 = (1/2, √3/2, 0), z1 = Rz60(0,-1,0) = (√3/2, -1/2, 0), y1 = z1×x1 = (0,0,1);
  //       p1 = (25,15,10) + 25·x1 = (37.5, 15 + 12.5√3, 10).
  //   J1 θ = 90°: x2 = y1 = (0,0,1), y2 = -x1; p2 = p1 + 60·(0,0,1) = (37.5, 15 + 12.5√3, 70).
  //   J2 θ = 90/3 + 30 = 60° (150° from frame 1): x3 = cos150·x1 + sin150·y1 = (-√3/4, -3/4, 1/2),
  //       y3 = -sin150·x1 + cos150·y1 = (-1/4, -√3/4, -√3/2); p3 = p2 + 50·x3 = (37.5 - 12.5√3, 12.5√3 - 22.5, 95).
  //  Finger 2 (chain 1), base (-25, 15, 0): J0 θ = +30 + 90 = 120°: x1 = (-1/2, √3/2, 0), y1 = (0,0,1);
  //       p1 = (-25,15,10) + 25·x1 = (-37.5, 15 + 12.5√3, 10).
  //   J1 θ = 45°: x2 = (√2/2)(x1 + y1) = (-√2/4, √6/4, √2/2), y2 = (√2/2)(y1 - x1) = (√2/4, -√6/4, √2/2);
  //       p2 = p1 + 60·x2 = (-37.5 - 15√2, 15 + 12.5√3 + 15√6, 10 + 30√2).
  //   J2 θ = 45/3 + 30 = 45° (90° from frame 1): x3 = y1 = (0,0,1), y3 = -x1 = (1/2, -√3/2, 0); p3 = p2 + (0,0,50).
  //  Thumb: J0 θ = 60°: x1 = cos60·xB + sin60·yB = (0, -1/2, √3/2), y1 = -sin60·xB + cos60·yB = (0, √3/2, 1/2);
  //       p1 = (0,-40,10) + 60·x1 = (0, -70, 10 + 30√3).
  //   J1 θ = 60/3 + 30 = 50° (110° from the base): x2 = (0, -cos110, sin110), y2 = (0, sin110, cos110);
  //       p2 = p1 + 50·x2 = (0, -70 - 50·cos110, 10 + 30√3 + 50·sin110).
  void threeFingerForwardKinematicsAllZero() {
    Robot hand = loadThreeFinger();
    RobotState handState = defaultRobotState(hand);
    setDofValues(hand, handState, {0, 0, 0, 0});
    const auto& f1 = handState.X_WL[0];
    checkPose(f1[0], Vec3(25, 40, 10), Vec3(0, 1, 0), Vec3(0, 0, 1));
    checkPose(f1[1], Vec3(25, 100, 10), Vec3(0, 1, 0), Vec3(0, 0, 1));
    checkPose(f1[2], Vec3(25, 100 + 25 * kSqrt3, 35), Vec3(0, kSqrt3 / 2, 0.5), Vec3(0, -0.5, kSqrt3 / 2));
    const auto& thumb = handState.X_WL[2];
    checkPose(thumb[0], Vec3(0, -100, 10), Vec3(0, -1, 0), Vec3(0, 0, 1));
    checkPose(thumb[1], Vec3(0, -100 - 25 * kSqrt3, 35), Vec3(0, -kSqrt3 / 2, 0.5), Vec3(0, 0.5, kSqrt3 / 2));
    // linkPoses() agrees with the stored body poses.
    const auto poses = linkPoses(hand, handState.X_WP, handState.dofValues, handState.breakAway);
    QVERIFY(poses[0][2].isApprox(f1[2], 1e-9));
  }

  void threeFingerForwardKinematicsSpreadAndClosed() {
    Robot hand = loadThreeFinger();
    RobotState handState = defaultRobotState(hand);
    setDofValues(hand, handState, {degToRad(30), degToRad(90), degToRad(45), degToRad(60)});
    const double y1 = 15 + 12.5 * kSqrt3;
    const auto& f1 = handState.X_WL[0];
    checkPose(f1[0], Vec3(37.5, y1, 10), Vec3(0.5, kSqrt3 / 2, 0), Vec3(0, 0, 1));
    checkPose(f1[1], Vec3(37.5, y1, 70), Vec3(0, 0, 1), Vec3(-0.5, -kSqrt3 / 2, 0));
    checkPose(f1[2], Vec3(37.5 - 12.5 * kSqrt3, 12.5 * kSqrt3 - 22.5, 95), Vec3(-kSqrt3 / 4, -0.75, 0.5),
              Vec3(-0.25, -kSqrt3 / 4, -kSqrt3 / 2));
    const auto& f2 = handState.X_WL[1];
    checkPose(f2[0], Vec3(-37.5, y1, 10), Vec3(-0.5, kSqrt3 / 2, 0), Vec3(0, 0, 1));
    const Vec3 p2(-37.5 - 15 * kSqrt2, y1 + 15 * std::sqrt(6.0), 10 + 30 * kSqrt2);
    checkPose(f2[1], p2, Vec3(-kSqrt2 / 4, std::sqrt(6.0) / 4, kSqrt2 / 2),
              Vec3(kSqrt2 / 4, -std::sqrt(6.0) / 4, kSqrt2 / 2));
    checkPose(f2[2], p2 + Vec3(0, 0, 50), Vec3(0, 0, 1), Vec3(0.5, -kSqrt3 / 2, 0));
    const auto& thumb = handState.X_WL[2];
    checkPose(thumb[0], Vec3(0, -70, 10 + 30 * kSqrt3), Vec3(0, -0.5, kSqrt3 / 2), Vec3(0, kSqrt3 / 2, 0.5));
    const double c110 = std::cos(degToRad(110)), s110 = std::sin(degToRad(110));
    checkPose(thumb[1], Vec3(0, -70 - 50 * c110, 10 + 30 * kSqrt3 + 50 * s110), Vec3(0, -c110, s110),
              Vec3(0, s110, c110));
  }

  void threeFingerMovesWithRobotPose() {
    Robot hand = loadThreeFinger();
    RobotState handState = defaultRobotState(hand);
    // Palm down at 110 mm, as in worlds/default.xml: Rx(180) maps (x, y, z) to (x, -y, -z).
    setRobotPose(hand, handState, Transform(Quat(0, 1, 0, 0), Vec3(0, 0, 110)));
    setDofValues(hand, handState, {0, 0, 0, 0});
    checkPose(handState.X_WL[0][1], Vec3(25, -100, 100), Vec3(0, -1, 0), Vec3(0, 0, -1));
  }

  void parallelJawJawsMoveSymmetrically() {
    Robot gripper = loadRobot(sourcePath("models/robots/ParallelJaw/ParallelJaw.xml"), MaterialTable{});
    RobotState gripperState = defaultRobotState(gripper);
    QCOMPARE(gripper.dofCount(), std::size_t(1));
    QVERIFY(gripper.dofs[0].prismatic);
    QCOMPARE(gripper.dofs[0].minValue, 0.0);
    QCOMPARE(gripper.dofs[0].maxValue, 50.0);
    QCOMPARE(gripper.chains.size(), std::size_t(2));
    for (const Chain& c : gripper.chains) {
      QCOMPARE(c.joints.size(), std::size_t(1));
      QCOMPARE(c.joints[0].type, JointType::Prismatic);
    }
    QCOMPARE(gripper.chains[0].joints[0].expr.ratio, 1.0);
    QCOMPARE(gripper.chains[1].joints[0].expr.ratio, -1.0);
    // Gripping faces (pads) at x = -62 + d + 11 and x = 62 - d - 11: 102 mm apart open, 2 mm closed.
    for (double d : {0.0, 20.0, 50.0}) {
      setDofValues(gripper, gripperState, {d});
      const AlignedBox left = worldBounds(gripper.chains[0].links[0].body, gripperState.X_WL[0][0]);
      const AlignedBox right = worldBounds(gripper.chains[1].links[0].body, gripperState.X_WL[1][0]);
      QVERIFY2(std::abs(left.max.x() - (-51 + d)) < 1e-3, qPrintable(QString::number(left.max.x())));
      QVERIFY2(std::abs(right.min.x() - (51 - d)) < 1e-3, qPrintable(QString::number(right.min.x())));
      // Jaw fingers reach 80 mm along the approach direction.
      QVERIFY(std::abs(left.max.z() - 80) < 1e-3 && std::abs(right.max.z() - 80) < 1e-3);
    }
  }

  void fiveFingerStructure() {
    Robot hand = loadRobot(sourcePath("models/robots/FiveFinger/FiveFinger.xml"), MaterialTable{});
    RobotState handState = defaultRobotState(hand);
    QCOMPARE(hand.dofCount(), std::size_t(12));
    QCOMPARE(hand.chains.size(), std::size_t(5));
    QCOMPARE(hand.linkCount(), std::size_t(18));
    // Spread: index ×-1 [-20°, 0], ring ×0.5 [0, 10°], little ×1 [0, 20°] -> DOF range [0, 20°].
    QVERIFY(std::abs(hand.dofs[3].minValue) < 1e-9 && std::abs(hand.dofs[3].maxValue - degToRad(20)) < 1e-9);
    // PIP DOFs: PIP [0, 100°], DIP at 2/3 within [0, 70°] -> [0, 100°].
    for (int k : {5, 7, 9, 11}) QVERIFY(std::abs(hand.dofs[k].maxValue - degToRad(100)) < 1e-9);
    QCOMPARE(hand.eigengrasps.grasps.size(), std::size_t(3));
    for (const EigenGrasp& eg : hand.eigengrasps.grasps) {
      QCOMPARE(eg.direction.size(), Eigen::Index(12));
      QVERIFY(std::abs(eg.direction.norm() - 1) < 1e-9);
      QVERIFY(eg.minAmplitude.has_value() && eg.maxAmplitude.has_value() && *eg.minAmplitude < *eg.maxAmplitude);
    }
    // The middle finger's fingertip at all-zero DOFs: MCP axis at (9, 55, -10), 45 + 28 + 22 mm along +y.
    setDofValues(hand, handState, std::vector<double>(12, 0.0));
    VERIFY_NEAR(handState.X_WL[2].back().translation(), Vec3(9, 150, -10), 1e-6);
    for (const Chain& c : hand.chains) QVERIFY(c.links.back().body.isSoft());
  }

  // ---------------------------------------------------------------- worlds
  void everyBundledWorldLoads_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : bundledFiles("worlds", "*.xml")) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    QTest::newRow("generated threefinger_bumpy.xml") << QString::fromStdString(binaryPath("worlds/threefinger_bumpy.xml"));
  }
  void everyBundledWorldLoads() {
    QFETCH(QString, file);
    const World world = loadWorld(file.toStdString());
    QVERIFY(!world.graspables.empty());
    QVERIFY(world.camera.has_value());
    for (const Body& b : world.graspables) checkClosedMesh(b, b.name);
    // The camera looks at the first graspable body (within 10°).
    const Vec3 view = world.camera->orientation * Vec3(0, 0, -1);
    const Vec3 toObject = worldBounds(world.graspables.front(), world.state.X_WG.front()).center() - world.camera->position_mm;
    QVERIFY2(view.normalized().dot(toObject.normalized()) > std::cos(degToRad(10)), "camera misses the object");
    // The hand starts open and clear of every graspable body (world bounding boxes 1 mm apart).
    for (std::size_t r = 0; r < world.robots.size(); ++r)
      for (const BodyRef& ref : world.robots[r].bodyRefs())
        for (std::size_t g = 0; g < world.graspables.size(); ++g) {
          const Robot& robot = world.robots[r];
          const Body& object = world.graspables[g];
          QVERIFY2(!boxesOverlap(worldBounds(robot.body(ref), X_WB(world.state.robots[r], ref)),
                                 worldBounds(object, world.state.X_WG[g]), 1.0),
                   qPrintable(QString("%1 body %2/%3 touches %4 at load")
                                  .arg(QString::fromStdString(robot.name)).arg(ref.chain).arg(ref.link)
                                  .arg(QString::fromStdString(object.name))));
        }
  }

  // Saving a bundled world next to the original and loading it again keeps every body, pose and DOF value.
  void everyBundledWorldSurvivesSaveAndLoad_data() { everyBundledWorldLoads_data(); }
  void everyBundledWorldSurvivesSaveAndLoad() {
    QFETCH(QString, file);
    const World original = loadWorld(file.toStdString());
    QTemporaryDir dir;  // elsewhere: the writer must name the models so that they still resolve
    QVERIFY(dir.isValid());
    const std::string copy = dir.filePath("copy.xml").toStdString();
    saveWorld(original, copy);
    const World again = loadWorld(copy);
    QCOMPARE(again.bodyCount(), original.bodyCount());
    QCOMPARE(again.robots.size(), original.robots.size());
    for (std::size_t r = 0; r < original.robots.size(); ++r) {
      QVERIFY(again.state.robots[r].X_WP.isApprox(original.state.robots[r].X_WP, 1e-5));
      for (std::size_t k = 0; k < original.robots[r].dofs.size(); ++k)
        QVERIFY(std::abs(again.state.robots[r].dofValues[k] - original.state.robots[r].dofValues[k]) < 1e-5);
    }
    for (std::size_t g = 0; g < original.graspables.size(); ++g) {
      QVERIFY(again.state.X_WG[g].isApprox(original.state.X_WG[g], 1e-5));
      QCOMPARE(again.graspables[g].triangleCount(), original.graspables[g].triangleCount());
    }
  }

  // Exact geometry: at load no robot body is within 1 mm of a graspable body, and closing the hand (every
  // DOF with a positive auto-grasp velocity driven from its start value to its maximum) brings each
  // finger into contact with the object — the worlds are set up so that auto-grasp can grasp.
  void worldsAreSetUpForAGrasp_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("fingersThatTouch");
    QTest::newRow("default") << QString::fromStdString(sourcePath("worlds/default.xml")) << 3;
    QTest::newRow("threefinger_sphere") << QString::fromStdString(sourcePath("worlds/threefinger_sphere.xml")) << 3;
    QTest::newRow("paralleljaw_box") << QString::fromStdString(sourcePath("worlds/paralleljaw_box.xml")) << 2;
    // The thumb curls in the palm plane above the can; the four fingers wrap it.
    QTest::newRow("fivefinger_cylinder") << QString::fromStdString(sourcePath("worlds/fivefinger_cylinder.xml")) << 4;
    QTest::newRow("threefinger_bumpy") << QString::fromStdString(binaryPath("worlds/threefinger_bumpy.xml")) << 3;
  }
  void worldsAreSetUpForAGrasp() {
    QFETCH(QString, file);
    QFETCH(int, fingersThatTouch);
    World world = loadWorld(file.toStdString());
    QCOMPARE(world.robots.size(), std::size_t(1));
    Robot& hand = world.robots[0];
    RobotState& handState = world.state.robots[0];
    const Body& object = world.graspables.front();
    const Bvh objectBvh(*object.mesh);
    std::vector<std::vector<Bvh>> linkBvhs;
    for (const Chain& c : hand.chains) {
      linkBvhs.emplace_back();
      for (const Link& l : c.links) linkBvhs.back().emplace_back(*l.body.mesh);
    }
    const Bvh palmBvh(*hand.palm.mesh);
    auto gapToObject = [&](const Bvh& bvh, const Transform& pose) {
      return meshDistance(bvh, pose, objectBvh, world.state.X_WG.front(), 50.0).distance_mm;
    };
    QVERIFY(gapToObject(palmBvh, handState.X_WP) > 1.0);
    for (std::size_t c = 0; c < hand.chains.size(); ++c)
      for (std::size_t l = 0; l < hand.chains[c].links.size(); ++l)
        QVERIFY2(gapToObject(linkBvhs[c][l], handState.X_WL[c][l]) > 1.0,
                 qPrintable(QString("chain %1 link %2 starts within 1 mm of the object").arg(c).arg(l)));

    const std::vector<double> start = handState.dofValues;
    std::vector<bool> touched(hand.chains.size(), false);
    for (int step = 1; step <= 100; ++step) {
      std::vector<double> q = start;
      for (std::size_t k = 0; k < q.size(); ++k)
        if (hand.dofs[k].defaultVelocity > 0) q[k] = start[k] + (hand.dofs[k].maxValue - start[k]) * step / 100.0;
      setDofValues(hand, handState, q);
      for (std::size_t c = 0; c < hand.chains.size(); ++c)
        for (std::size_t l = 0; l < hand.chains[c].links.size() && !touched[c]; ++l)
          touched[c] = meshesCollide(linkBvhs[c][l], handState.X_WL[c][l], objectBvh, world.state.X_WG.front());
    }
    QCOMPARE(int(std::count(touched.begin(), touched.end(), true)), fingersThatTouch);
  }

  void parallelJawTouchesTheBoxAt26mm() {
    World world = loadWorld(sourcePath("worlds/paralleljaw_box.xml"));
    Robot& gripper = world.robots[0];
    RobotState& gripperState = world.state.robots[0];
    const Body& box = world.graspables.front();
    const Bvh boxBvh(*box.mesh);
    const Bvh leftBvh(*gripper.chains[0].links[0].body.mesh), rightBvh(*gripper.chains[1].links[0].body.mesh);
    // Pads at x = ±(51 - d), box faces at x = ±25: both jaws touch at d = 26 mm, not before.
    for (double d : {25.5, 26.5}) {
      setDofValues(gripper, gripperState, {d});
      const bool touching = d > 26;
      QCOMPARE(meshesCollide(leftBvh, gripperState.X_WL[0][0], boxBvh, world.state.X_WG.front()), touching);
      QCOMPARE(meshesCollide(rightBvh, gripperState.X_WL[1][0], boxBvh, world.state.X_WG.front()), touching);
    }
  }

  void defaultWorldContents() {
    const World world = loadWorld(sourcePath("worlds/default.xml"));
    QCOMPARE(world.obstacles.size(), std::size_t(1));
    QCOMPARE(world.graspables.size(), std::size_t(1));
    QCOMPARE(world.robots.size(), std::size_t(1));
    QCOMPARE(world.bodyCount(), std::size_t(11));  // table + mug + palm + 8 links
    const Robot& hand = world.robots[0];
    const RobotState& handState = world.state.robots[0];
    QCOMPARE(hand.name, std::string("ThreeFinger"));
    QVERIFY(std::abs(handState.dofValues[0] - degToRad(60)) < 1e-6);
    for (int k = 1; k <= 3; ++k) QCOMPARE(handState.dofValues[k], 0.0);
    // Palm down above the mug: the approach direction points at the mug (world -z) and the palm's
    // approach reference point lies on the mug's axis, 80 mm above its rim.
    const Transform approach = handState.X_WP * *hand.approach;
    VERIFY_NEAR(Vec3(approach.rotationMatrix().col(2)), Vec3(0, 0, -1), 1e-6);
    VERIFY_NEAR(approach.translation(), Vec3(0, 0, 170), 1e-6);
    const AlignedBox mug = worldBounds(world.graspables[0], world.state.X_WG[0]);
    QVERIFY(mug.max.z() < 91 && mug.min.y() < -60);  // handle turned towards -y
    // The fingers, when closed, sweep the mug: at 90° flexion every fingertip link reaches below the rim,
    // clear of the table. tests/grasp closes them for real.
    Robot closed = hand;
    RobotState closedState = handState;
    setDofValues(closed, closedState, {degToRad(60), degToRad(90), degToRad(90), degToRad(90)});
    for (int c = 0; c < 3; ++c) {
      const AlignedBox link = worldBounds(closed.chains[c].links.back().body, closedState.X_WL[c].back());
      QVERIFY(link.min.z() < mug.max.z() && link.min.z() > 20);
    }
  }

  void galleryHoldsEveryFormat() {
    const World world = loadWorld(sourcePath("worlds/objects_gallery.xml"));
    QCOMPARE(world.graspables.size(), std::size_t(6));
    QStringList types;
    for (const Body& b : world.graspables) types << QString::fromStdString(b.geometry.type).toLower();
    for (const char* t : {"inventor", "stl", "off", "ply", "obj"}) QVERIFY2(types.contains(t), t);
  }

  void missingModelFileIsAnError() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("broken.xml");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<?xml version=\"1.0\" ?>\n<world>\n  <graspableBody>\n    <filename>models/objects/nosuch.xml</filename>\n"
            "  </graspableBody>\n</world>\n");
    f.close();
    try {
      loadWorld(path.toStdString());
      QFAIL("a world naming a missing body loaded");
    } catch (const Error& e) {
      QVERIFY(QString::fromStdString(e.what()).contains("nosuch.xml"));
    }
  }
};

QTEST_GUILESS_MAIN(TestModels)
#include "tst_models.moc"
