// World XML: GraspIt!-layout path resolution, bodies by file and inline, robots with dofValues (break-away
// entries), connections with a mount, the camera (w-last quaternion); the writer and load/save round trips;
// world-level error messages.
#include <QDir>
#include <QImage>
#include <QtTest>

#include <filesystem>

#include "geometry/Primitives.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"
#include "RobotTestFiles.h"
#include "../support/PlacedBody.h"
#include "../support/TestPaths.h"

using namespace sg;
using sgtest::Tree;

namespace {

const double kH = 0.7071067811865476;  // cos 45°

Transform rz(double deg) { return Transform::fromAxisAngle(Vec3::UnitZ(), degToRad(deg)); }
Transform rx(double deg) { return Transform::fromAxisAngle(Vec3::UnitX(), degToRad(deg)); }
Transform translation(double x, double y, double z) { return Transform::fromTranslation(Vec3(x, y, z)); }

const char* kWorld = R"(<?xml version="1.0" ?>
<world>
  <obstacle>
    <filename>models/objects/table.xml</filename>
    <transform><fullTransform>(+1 0 0 0)[0 0 -50]</fullTransform></transform>
  </obstacle>
  <graspableBody>
    <filename>models/objects/cube.xml</filename>
    <transform><fullTransform>(0.7071067811865476 0 0 0.7071067811865476)[+8.37264e-06 +0.781957 +105.818]</fullTransform></transform>
  </graspableBody>
  <graspableBody>
    <body>
      <material>rubber</material>
      <youngs>1500</youngs>
      <mass>50</mass>
      <geometryFile type="off">models/objects/brick.off</geometryFile>
      <geometryScaling>2</geometryScaling>
    </body>
    <transform><translation>0 200 0</translation><rotation>90 x</rotation></transform>
  </graspableBody>
  <robot>
    <filename>models/robots/Planar/Planar.xml</filename>
    <dofValues>0.5 -0.25</dofValues>
    <transform><fullTransform>(+1 0 0 0)[0 0 300]</fullTransform></transform>
  </robot>
  <robot>
    <filename>models/robots/Gripper/Gripper.xml</filename>
    <dofValues>+0.2 +0 +1 0.1 5 0.1</dofValues>
  </robot>
  <connection>
    <parentRobot>0</parentRobot>
    <parentChain>0</parentChain>
    <childRobot>1</childRobot>
    <mountFilename>models/robots/Planar/iv/mount.xml</mountFilename>
    <transform><fullTransform>(+1 0 0 0)[0 0 +17.5]</fullTransform></transform>
  </connection>
  <camera>
    <position>+512.727 +11.2119 +92.4714</position>
    <orientation>0 0 0.7071067811865476 0.7071067811865476</orientation>
    <focalDistance>+501</focalDistance>
  </camera>
</world>
)";

// Writes the objects, both robots and the world above; returns the world path.
std::string writeWorldTree(const Tree& tree, const std::string& worldText = kWorld) {
  tree.write("models/objects/cube.off", sgtest::cubeOff(10));
  tree.write("models/objects/cube.xml",
             "<root><material>glass</material><mass>200</mass><geometryFile type=\"off\">cube.off</geometryFile></root>");
  tree.write("models/objects/table.off", sgtest::boxOff({-200, -200, -10}, {200, 200, 0}));
  tree.write("models/objects/table.xml", "<root><material>wood</material><geometryFile type=\"off\">table.off</geometryFile></root>");
  tree.write("models/objects/brick.off", sgtest::boxOff({0, 0, 0}, {10, 20, 30}));
  sgtest::writePlanarRobot(tree);
  sgtest::writeGripperRobot(tree);
  return tree.write("worlds/w.xml", worldText);
}

void verifyBodiesEqual(const Body& a, const Body& b) {
  QCOMPARE(a.name, b.name);
  QCOMPARE(a.kind, b.kind);
  QCOMPARE(a.material, b.material);
  QCOMPARE(a.youngs_Pa, b.youngs_Pa);
  QCOMPARE(a.mass_g, b.mass_g);
  QVERIFY(a.cog_mm.isApprox(b.cog_mm, 1e-12) || (a.cog_mm - b.cog_mm).norm() < 1e-12);
  QVERIFY((a.inertiaPerMass_mm2 - b.inertiaPerMass_mm2).norm() < 1e-9);
  QVERIFY(std::abs(a.maxRadius_mm - b.maxRadius_mm) < 1e-9);
  QCOMPARE(a.triangleCount(), b.triangleCount());
  QVERIFY(a.mesh->bounds.min.isApprox(b.mesh->bounds.min, 1e-12));
  QVERIFY(a.mesh->bounds.max.isApprox(b.mesh->bounds.max, 1e-12));
  QCOMPARE(a.sourceFile, b.sourceFile);
}

void verifyWorldsEqual(const World& a, const World& b) {
  QCOMPARE(a.obstacles.size(), b.obstacles.size());
  QCOMPARE(a.graspables.size(), b.graspables.size());
  QCOMPARE(a.robots.size(), b.robots.size());
  QCOMPARE(a.connections.size(), b.connections.size());
  for (std::size_t i = 0; i < a.obstacles.size(); ++i) verifyBodiesEqual(a.obstacles[i], b.obstacles[i]);
  for (std::size_t i = 0; i < a.graspables.size(); ++i) verifyBodiesEqual(a.graspables[i], b.graspables[i]);
  for (std::size_t r = 0; r < a.robots.size(); ++r) {
    const Robot& ra = a.robots[r];
    const Robot& rb = b.robots[r];
    QCOMPARE(ra.sourceFile, rb.sourceFile);
    const RobotState& sa = a.state.robots[r];
    const RobotState& sb = b.state.robots[r];
    QVERIFY(sa.X_WP.isApprox(sb.X_WP, 1e-12));
    QCOMPARE(sa.dofValues, sb.dofValues);
    for (std::size_t c = 0; c < ra.chains.size(); ++c)
      for (std::size_t j = 0; j < ra.chains[c].joints.size(); ++j)
        QCOMPARE(breakAwayOf(sa, c, j), breakAwayOf(sb, c, j));
    for (const auto& ref : ra.bodyRefs()) verifyBodiesEqual(ra.body(ref), rb.body(ref));
  }
  // Where every body is (obstacles, graspables, robot bodies, mounts).
  QVERIFY(a.bodyHandles() == b.bodyHandles());
  for (const BodyHandle& h : a.bodyHandles()) QVERIFY(X_WB(a.state, h).isApprox(X_WB(b.state, h), 1e-12));
  for (std::size_t i = 0; i < a.connections.size(); ++i) {
    const Connection& ca = a.connections[i];
    const Connection& cb = b.connections[i];
    QCOMPARE(ca.parentRobot, cb.parentRobot);
    QCOMPARE(ca.parentChain, cb.parentChain);
    QCOMPARE(ca.childRobot, cb.childRobot);
    QVERIFY(ca.offset.isApprox(cb.offset, 1e-12));
    QCOMPARE(ca.mount.has_value(), cb.mount.has_value());
    if (ca.mount) verifyBodiesEqual(*ca.mount, *cb.mount);
  }
  QCOMPARE(a.camera.has_value(), b.camera.has_value());
  if (a.camera) {
    QVERIFY(a.camera->position_mm == b.camera->position_mm);
    QVERIFY(a.camera->orientation.isApprox(b.camera->orientation, 1e-15));
    QCOMPARE(a.camera->focalDistance_mm, b.camera->focalDistance_mm);
  }
}

std::vector<std::string> leftoverTempFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp-") != std::string::npos) out.push_back(e.path().string());
  return out;
}

}  // namespace

class TestWorldXml : public QObject {
  Q_OBJECT
 private slots:
  void loadsGraspitLayout() {
    Tree tree;
    const std::string path = writeWorldTree(tree);
    FileHistory names;
    const World w = loadWorld(path, {}, &names);
    QCOMPARE(w.sourceFile, absolutePath(path));
    QCOMPARE(w.obstacles.size(), std::size_t(1));
    QCOMPARE(w.graspables.size(), std::size_t(2));
    QCOMPARE(w.robots.size(), std::size_t(2));
    QCOMPARE(w.connections.size(), std::size_t(1));
    QCOMPARE(detectInputFileKind(path), InputFileKind::World);

    const Body& table = w.obstacles[0];
    QCOMPARE(table.kind, BodyKind::Obstacle);
    // Names as written are io's file history, not part of the body.
    QCOMPARE(names.bodyFile({BodyHandle::Kind::Obstacle, 0, {}}), std::string("models/objects/table.xml"));
    QCOMPARE(table.sourceFile, tree.path("models/objects/table.xml"));
    QCOMPARE(names.graspableFiles.size(), std::size_t(2));
    QVERIFY(names.graspableFiles[1].empty());  // the inline brick
    QVERIFY(w.state.X_WO[0].translation().isApprox(Vec3(0, 0, -50)));

    // fullTransform: quaternion w first.
    const Body& cube = w.graspables[0];
    QCOMPARE(cube.name, std::string("cube"));
    QCOMPARE(cube.material, std::string("glass"));
    QVERIFY(w.state.X_WG[0].rotation().isApprox(rz(90).rotation(), 1e-12));
    QVERIFY(w.state.X_WG[0].translation().isApprox(Vec3(8.37264e-06, 0.781957, 105.818)));

    // Inline body, geometry resolved from the world's implied root, scaled.
    const Body& brick = w.graspables[1];
    QVERIFY(brick.sourceFile.empty());
    QCOMPARE(brick.material, std::string("rubber"));
    QCOMPARE(*brick.youngs_Pa, 1500.0);
    QCOMPARE(brick.mass_g, 50.0);
    QVERIFY(brick.mesh->bounds.max.isApprox(Vec3(20, 40, 60)));
    QVERIFY(brick.cog_mm.isApprox(Vec3(10, 20, 30), 1e-9));
    QVERIFY(w.state.X_WG[1].isApprox(translation(0, 200, 0) * rx(90), 1e-12));

    // Camera orientation: qx qy qz qw (w last).
    QVERIFY(w.camera.has_value());
    QVERIFY((w.camera->orientation * Vec3::UnitX()).isApprox(Vec3::UnitY(), 1e-12));
    QVERIFY(w.camera->position_mm.isApprox(Vec3(512.727, 11.2119, 92.4714)));
    QCOMPARE(w.camera->focalDistance_mm, 501.0);
  }

  void robotsDofValuesAndConnection() {
    Tree tree;
    FileHistory names;
    const World w = loadWorld(writeWorldTree(tree), {}, &names);
    const Robot& arm = w.robots[0];
    const RobotState& armState = w.state.robots[0];
    QCOMPARE(names.robotFile(0), std::string("models/robots/Planar/Planar.xml"));
    QCOMPARE(arm.sourceFile, tree.path("models/robots/Planar/Planar.xml"));
    QCOMPARE(names.robots.size(), std::size_t(2));
    QCOMPARE(names.bodyFile({BodyHandle::Kind::Robot, 0, {0, 0}}), std::string("link1.xml"));
    QCOMPARE(armState.dofValues, (std::vector<double>{0.5, -0.25}));
    QVERIFY(armState.X_WP.translation().isApprox(Vec3(0, 0, 300)));
    const Transform flange = translation(0, 0, 300) * translation(10, 0, 0) * rz(radToDeg(0.5)) *
                             translation(100, 0, 0) * rz(radToDeg(-0.25)) * translation(50, 0, 0);
    QVERIFY(armState.X_WL[0][1].isApprox(flange, 1e-12));

    // Break-away entries: d0 = 0.2 with joint 0 engaged and joint 1 in break-away at DOF value 0.1.
    const Robot& hand = w.robots[1];
    const RobotState& handState = w.state.robots[1];
    QCOMPARE(handState.dofValues, (std::vector<double>{0.2, 5, 0.1}));
    QVERIFY(!handState.breakAway[0][0].active);
    QVERIFY(handState.breakAway[0][1].active);
    QCOMPARE(handState.breakAway[0][1].dofValue, 0.1);
    QCOMPARE(jointValue(hand.chains[0].joints[1], handState.dofValues, handState.breakAway[0][1]), 3 * 0.1);
    QCOMPARE(jointValue(hand.chains[0].joints[0], handState.dofValues, handState.breakAway[0][0]), 0.2);
    QCOMPARE(dofValuesToString(hand, handState), std::string("+0.2 +0 +1 +0.1 +5 +0.1"));

    // The connection puts the hand on the flange, offset 17.5 mm along its z; the mount sits on the flange.
    const Connection& c = w.connections[0];
    QVERIFY(c.mount.has_value());
    QCOMPARE(names.bodyFile({BodyHandle::Kind::Mount, 0, {}}), std::string("models/robots/Planar/iv/mount.xml"));
    QVERIFY(w.state.X_WM[0].isApprox(flange, 1e-12));
    QVERIFY(handState.X_WP.isApprox(flange * translation(0, 0, 17.5), 1e-12));
    QVERIFY(X_WB(w.state, {BodyHandle::Kind::Robot, 1, {-1, 0}}).isApprox(handState.X_WP, 1e-12));
    QVERIFY(handState.X_WL[1][0].isApprox(handState.X_WP * translation(0, 0, 20) * rz(90) *
                                              translation(0, 0, 5 - 2) * rx(-90), 1e-12));
  }

  void dofValuesFormats() {
    Tree tree;
    World w = loadWorld(writeWorldTree(tree));
    const Robot& hand = w.robots[1];
    RobotState& s = w.state.robots[1];
    // A plain list, one number per DOF, is accepted too and engages every joint.
    applyDofValuesString(hand, s, "0.3 7 -0.1");
    QCOMPARE(s.dofValues, (std::vector<double>{0.3, 7, -0.1}));
    QVERIFY(!s.breakAway[0][1].active);
    QCOMPARE(dofValuesToString(hand, s), std::string("+0.3 +0 +0 +7 -0.1"));
    applyDofValuesString(hand, s, dofValuesToString(hand, s));
    QCOMPARE(s.dofValues, (std::vector<double>{0.3, 7, -0.1}));
    // Values are clamped into the DOF ranges.
    applyDofValuesString(hand, s, "5 0 0 100 0");
    QVERIFY(std::abs(s.dofValues[0] - degToRad(40)) < 1e-12);
    QCOMPARE(s.dofValues[1], 50.0);
    const std::string msg = sgtest::errorOf([&] { applyDofValuesString(hand, s, "1 2", "w.xml", 9); });
    QVERIFY2(sgtest::contains(msg, "w.xml:9"), msg.c_str());
    QVERIFY2(sgtest::contains(msg, "q0 (0|1 v) (0|1 v) q1 q2"), msg.c_str());
    QVERIFY(sgtest::contains(sgtest::errorOf([&] { applyDofValuesString(hand, s, "0.2 2 0.5 5 0.1", "w.xml", 9); }), "w.xml:9"));
    QVERIFY(sgtest::contains(sgtest::errorOf([&] { applyDofValuesString(hand, s, "0.2 0 0 nan 0.1", "w.xml", 9); }), "w.xml:9"));
  }

  void roundTripIsByteIdentical() {
    Tree tree;
    FileHistory names1, names2;
    const World first = loadWorld(writeWorldTree(tree), {}, &names1);
    const std::string out1 = tree.path("worlds/saved1.xml");
    const std::string out2 = tree.path("worlds/saved2.xml");
    saveWorld(first, out1, &names1);
    const World second = loadWorld(out1, {}, &names2);
    saveWorld(second, out2, &names2);
    const std::string text1 = sgtest::readText(out1);
    const std::string text2 = sgtest::readText(out2);
    QCOMPARE(text1, text2);
    verifyWorldsEqual(first, second);
    // Names stay as they were written (GraspIt! layout), the camera keeps w last, break-away entries survive.
    QVERIFY(sgtest::contains(text1, "<filename>models/objects/cube.xml</filename>"));
    QVERIFY(sgtest::contains(text1, "<geometryFile type=\"off\">models/objects/brick.off</geometryFile>"));
    QVERIFY(sgtest::contains(text1, "<geometryScaling>2</geometryScaling>"));
    QVERIFY(sgtest::contains(text1, "<dofValues>+0.2 +0 +1 +0.1 +5 +0.1</dofValues>"));
    QVERIFY(sgtest::contains(text1, "<mountFilename>models/robots/Planar/iv/mount.xml</mountFilename>"));
    QVERIFY(sgtest::contains(text1, "<orientation>+0 +0 +0.7071067811865476 +0.7071067811865476</orientation>"));
    QVERIFY(sgtest::contains(text1, "<fullTransform>(+1 +0 +0 +0)[+0 +0 +17.5]</fullTransform>"));
    QVERIFY(leftoverTempFiles(tree.path("worlds")).empty());
    // Saving over an existing file replaces it.
    saveWorld(second, out1, &names2);
    QCOMPARE(sgtest::readText(out1), text2);
    // Without the file history, files outside the world's folder are named by absolute path; the same files
    // are read back.
    const std::string out3 = tree.path("worlds/saved3.xml");
    saveWorld(second, out3);
    const std::string text3 = sgtest::readText(out3);
    QVERIFY2(sgtest::contains(text3, "<filename>" + absolutePath(tree.path("models/objects/cube.xml")) + "</filename>"),
             text3.c_str());
    QVERIFY(sgtest::contains(text3, absolutePath(tree.path("models/robots/Planar/iv/mount.xml"))));
    verifyWorldsEqual(second, loadWorld(out3));
    QVERIFY(leftoverTempFiles(tree.path("worlds")).empty());
  }

  void roundTripOfArbitraryPosesIsByteIdentical() {
    // Reading normalises quaternions; the writer picks rotations that normalisation leaves unchanged.
    Tree tree;
    World w = loadWorld(writeWorldTree(tree));
    std::srand(7);
    auto randomTransform = [] {
      const Vec4 q = Vec4::Random();
      return Transform(Quat(q[0], q[1], q[2], q[3]), 1000 * Vec3::Random());
    };
    for (int round = 0; round < 25; ++round) {
      for (auto& X_WO : w.state.X_WO) X_WO = randomTransform();
      for (auto& X_WG : w.state.X_WG) X_WG = randomTransform();
      setRobotPose(w.robots[0], w.state.robots[0], randomTransform());
      w.connections[0].offset = randomTransform();
      w.updateConnections();
      w.camera->orientation = randomTransform().rotation();
      // load → save → load → save (a connected robot's pose is derived, so the chain starts from a file).
      const std::string start = tree.path("worlds/start.xml"), a = tree.path("worlds/a.xml"), b = tree.path("worlds/b.xml");
      saveWorld(w, start);
      saveWorld(loadWorld(start), a);
      const World back = loadWorld(a);
      saveWorld(back, b);
      const QStringList linesA = QString::fromStdString(sgtest::readText(a)).split('\n');
      const QStringList linesB = QString::fromStdString(sgtest::readText(b)).split('\n');
      QCOMPARE(linesA.size(), linesB.size());
      for (int i = 0; i < linesA.size(); ++i) QCOMPARE(linesB[i], linesA[i]);
      QVERIFY(back.state.X_WG[1].isApprox(w.state.X_WG[1], 1e-12));
      QVERIFY(back.state.robots[1].X_WP.isApprox(w.state.robots[1].X_WP, 1e-12));
    }
  }

  void savesElsewhere() {
    Tree tree;
    FileHistory names;
    const World w = loadWorld(writeWorldTree(tree), {}, &names);
    // Deeper in the same tree: the GraspIt!-style names still resolve through the ancestors.
    const std::string deep = tree.path("worlds/more/deeper/w.xml");
    std::filesystem::create_directories(tree.path("worlds/more/deeper"));
    saveWorld(w, deep, &names);
    QVERIFY(sgtest::contains(sgtest::readText(deep), "<filename>models/objects/cube.xml</filename>"));
    verifyWorldsEqual(w, loadWorld(deep));
    // Outside the tree: absolute names.
    Tree other;
    const std::string far = other.path("w.xml");
    saveWorld(w, far, &names);
    const std::string text = sgtest::readText(far);
    QVERIFY2(sgtest::contains(text, "<filename>" + absolutePath(tree.path("models/objects/cube.xml")) + "</filename>"),
             text.c_str());
    verifyWorldsEqual(w, loadWorld(far));
    // Relative to the world's own directory when below it.
    QCOMPARE(relativePath(tree.path("worlds/sub/x.xml"), tree.path("worlds")), std::string("sub/x.xml"));
  }

  void bodiesBuiltInMemoryAreSavedAsOff() {
    Tree tree;
    World w;
    Body b;
    b.name = "ball";
    b.kind = BodyKind::Graspable;
    TriangleMesh m = makeBox(Vec3(10, 20, 30));
    b.mesh = std::make_shared<const TriangleMesh>(m);
    sgtest::addGraspable(w, b, translation(1, 2, 3));
    const std::string path = tree.path("w.xml");
    saveWorld(w, path);
    const World back = loadWorld(path);
    QCOMPARE(back.graspables.size(), std::size_t(1));
    QVERIFY(back.state.X_WG[0].isApprox(translation(1, 2, 3)));
    QVERIFY(back.graspables[0].mesh->bounds.max.isApprox(m.bounds.max, 1e-12));
    QVERIFY(std::filesystem::exists(tree.path("w_ball.off")));
  }

  void inventorMeshesInAWorld() {
    // A world naming a bare .iv mesh, and a robot whose links use Inventor geometry.
    Tree tree;
    tree.write("models/objects/block.iv", sgtest::boxIv({0, 0, 0}, {4, 6, 8}));
    sgtest::writePlanarRobot(tree);
    tree.write("models/robots/Planar/iv/box.iv", sgtest::boxIv({-5, -5, -5}, {5, 5, 5}));
    for (const char* link : {"link1", "link2"})
      tree.write(std::string("models/robots/Planar/iv/") + link + ".xml",
                 "<root><material>plastic</material><geometryFile type=\"Inventor\">box.iv</geometryFile></root>");
    const std::string path = tree.write(
        "worlds/iv.xml",
        "<world>\n  <graspableBody><filename>models/objects/block.iv</filename></graspableBody>\n"
        "  <robot><filename>models/robots/Planar/Planar.xml</filename></robot>\n</world>\n");
    FileHistory names;
    const World w = loadWorld(path, {}, &names);
    QCOMPARE(names.graspableFiles.front(), std::string("models/objects/block.iv"));
    QCOMPARE(w.graspables[0].triangleCount(), std::size_t(12));
    QVERIFY(w.graspables[0].cog_mm.isApprox(Vec3(2, 3, 4), 1e-9));
    QCOMPARE(w.robots[0].chains[0].links[1].body.geometry.type, std::string("Inventor"));
    QCOMPARE(w.robots[0].chains[0].links[1].body.triangleCount(), std::size_t(12));
    // Saved: the bare mesh becomes an inline body naming the .iv file; loading it again gives the same world.
    const std::string out = tree.path("worlds/iv_saved.xml");
    saveWorld(w, out, &names);
    QVERIFY(sgtest::contains(sgtest::readText(out), "<geometryFile type=\"Inventor\">models/objects/block.iv</geometryFile>"));
    verifyWorldsEqual(w, loadWorld(out));
    // Without the file history the mesh is named by its path (absolute: it is not below the world's folder).
    saveWorld(w, out);
    QVERIFY(sgtest::contains(sgtest::readText(out), absolutePath(tree.path("models/objects/block.iv")) + "</geometryFile>"));
    verifyWorldsEqual(w, loadWorld(out));
  }

  void texturesNeverBlockLoading() {
    // GraspIt!'s barrettGlassDyn.xml: the floor's simpleFloor.iv names textures/checker.jpg. A texture is
    // decoration: one Coin decodes (JPEG, PNG through libsimage) loads silently; a missing or corrupt one
    // becomes a load warning naming the file, and the geometry is there all the same.
    Tree tree;
    QImage checker(8, 8, QImage::Format_RGB32);
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) checker.setPixel(x, y, (x + y) % 2 ? qRgb(255, 255, 255) : qRgb(0, 0, 0));
    QDir().mkpath(QString::fromStdString(tree.path("models/obstacles/textures")));
    QVERIFY(checker.save(QString::fromStdString(tree.path("models/obstacles/textures/checker.jpg")), "JPG"));
    QVERIFY(checker.save(QString::fromStdString(tree.path("models/obstacles/textures/checker.png")), "PNG"));
    tree.write("models/obstacles/textures/corrupt.jpg", std::string("\xff\xd8\xff\xe0 not a JPEG after all"));
    const auto floorWith = [&](const std::string& stem, const std::string& texture) {
      tree.write("models/obstacles/" + stem + ".iv",
                 "#Inventor V2.1 ascii\n\nSeparator {\n  Texture2 { filename \"" + texture +
                     "\" }\n  Cube { width 400 height 400 depth 2 }\n}\n");
      tree.write("models/obstacles/" + stem + ".xml",
                 "<root><material>wood</material><geometryFile type=\"Inventor\">" + stem +
                     ".iv</geometryFile></root>");
      return tree.write("worlds/" + stem + ".xml", "<world>\n  <obstacle><filename>models/obstacles/" + stem +
                                                       ".xml</filename></obstacle>\n</world>\n");
    };
    struct Case {
      const char* stem;
      const char* texture;
      const char* expected;  // in the one warning; nullptr: no warning
    };
    for (const Case& c : {Case{"jpegFloor", "textures/checker.jpg", nullptr},
                          Case{"pngFloor", "textures/checker.png", nullptr},
                          Case{"missingFloor", "textures/missing.jpg", "texture 'textures/missing.jpg' not found"},
                          Case{"corruptFloor", "textures/corrupt.jpg", "could not be decoded"}}) {
      const World w = loadWorld(floorWith(c.stem, c.texture));
      QCOMPARE(w.obstacles.size(), std::size_t(1));
      QCOMPARE(w.obstacles[0].triangleCount(), std::size_t(12));
      QVERIFY(w.obstacles[0].mesh->bounds.max.isApprox(Vec3(200, 200, 1), 1e-6));
      const std::vector<std::string> warnings = w.loadWarnings();
      std::string all;
      for (const auto& line : warnings) all += line + "\n";
      if (!c.expected) {
        QVERIFY2(warnings.empty(), ("a texture Coin should decode (is libsimage installed? scripts/deps/build.txt): " + all).c_str());
        continue;
      }
      QCOMPARE(warnings.size(), std::size_t(1));
      QVERIFY2(sgtest::contains(all, tree.path(std::string("models/obstacles/") + c.stem + ".iv") + ":4: "), all.c_str());
      QVERIFY2(sgtest::contains(all, c.expected), all.c_str());
      QVERIFY2(sgtest::contains(all, "loaded without it"), all.c_str());
      QCOMPARE(w.obstacles[0].loadWarnings, warnings);
    }
    // The corrupt file that exists is named by its path, so the user knows which file to fix.
    const World corrupt = loadWorld(tree.path("worlds/corruptFloor.xml"));
    QVERIFY(sgtest::contains(corrupt.loadWarnings().front(),
                             "(" + std::filesystem::path(tree.path("models/obstacles/textures/corrupt.jpg")).lexically_normal().string() + ")"));
  }

  void repeatedFilesAreReadOnce() {
    Tree tree;
    writeWorldTree(tree);
    const std::string path = tree.write(
        "worlds/twice.xml",
        "<world>\n"
        "  <graspableBody><filename>models/objects/cube.xml</filename></graspableBody>\n"
        "  <graspableBody><filename>models/objects/cube.xml</filename>"
        "<transform><translation>50 0 0</translation></transform></graspableBody>\n"
        "  <robot><filename>models/robots/Planar/Planar.xml</filename><dofValues>0.1 0.2</dofValues></robot>\n"
        "  <robot><filename>models/robots/Planar/Planar.xml</filename><dofValues>-0.1 -0.2</dofValues></robot>\n"
        "</world>\n");
    const World w = loadWorld(path);
    QCOMPARE(w.graspables[0].mesh.get(), w.graspables[1].mesh.get());
    QVERIFY(w.state.X_WG[1].translation().isApprox(Vec3(50, 0, 0)));
    QVERIFY(w.state.X_WG[0].translation().isZero());
    QCOMPARE(w.robots[0].chains[0].links[0].body.mesh.get(), w.robots[1].chains[0].links[0].body.mesh.get());
    QCOMPARE(w.state.robots[0].dofValues, (std::vector<double>{0.1, 0.2}));
    QCOMPARE(w.state.robots[1].dofValues, (std::vector<double>{-0.1, -0.2}));
    // Different link files stay different bodies.
    QVERIFY(w.robots[0].chains[0].links[0].body.material != w.robots[0].chains[0].links[1].body.material);
  }

  void projectWorldsRoundTrip() {
    // Every world shipped in worlds/ loads, and load → save → load → save is byte-identical.
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(sg::test::inSourceTree("worlds"))) {
      if (entry.path().extension() != ".xml") continue;
      ++count;
      const std::string name = entry.path().filename().string();
      World w;
      try {
        w = loadWorld(entry.path().string());
      } catch (const Error& e) {
        QFAIL(e.what());
      }
      Tree tmp;
      const std::string a = tmp.path("a_" + name), b = tmp.path("b_" + name);
      saveWorld(w, a);
      const World back = loadWorld(a);
      saveWorld(back, b);
      QCOMPARE(sgtest::readText(b), sgtest::readText(a));
      verifyWorldsEqual(w, back);
    }
    QVERIFY(count > 0);
  }

  void failedSaveLeavesNothingBehind() {
    Tree tree;
    const World w = loadWorld(writeWorldTree(tree));
    const std::string bad = tree.path("no/such/dir/w.xml");
    const std::string msg = sgtest::errorOf([&] { saveWorld(w, bad); });
    QVERIFY2(sgtest::contains(msg, bad), msg.c_str());
    QVERIFY(!std::filesystem::exists(tree.path("no")));
  }

  // ---- bad input ----

  void unknownWorldTag() {
    Tree tree;
    std::string text = kWorld;
    text.insert(text.find("  <camera>"), "  <light>bright</light>\n");
    const std::string path = writeWorldTree(tree, text);
    SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "<light>"), "unknown element <light>");
  }

  void malformedWorld() {
    Tree tree;
    std::string text = kWorld;
    text.replace(text.find("</robot>"), 8, "</robto>");
    const std::string path = writeWorldTree(tree, text);
    // tinyxml2 reports the line of the element left open.
    SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "  <robot>"), "malformed XML");
  }

  void missingFilesListPlacesTried() {
    Tree tree;
    std::string text = kWorld;
    text.replace(text.find("objects/cube.xml"), 16, "objects/mug.xml");
    const std::string path = writeWorldTree(tree, text);
    const std::string msg = sgtest::errorOf([&] { loadWorld(path); });
    QVERIFY2(sgtest::contains(msg, path + ":" + std::to_string(sgtest::lineOf(text, "mug.xml"))), msg.c_str());
    QVERIFY2(sgtest::contains(msg, absolutePath(tree.path("worlds/models/objects/mug.xml"))), msg.c_str());
    QVERIFY2(sgtest::contains(msg, absolutePath(tree.path("models/objects/mug.xml"))), msg.c_str());
    // A user model root is searched last and makes it load.
    Tree lib;
    lib.write("models/objects/mug.xml", "<root><geometryFile type=\"off\">mug.off</geometryFile></root>");
    lib.write("models/objects/mug.off", sgtest::cubeOff(3));
    const World w = loadWorld(path, LoadOptions{{lib.root()}, {}, true});
    QCOMPARE(w.graspables[0].name, std::string("mug"));
  }

  void badWorldContents() {
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("<dofValues>0.5 -0.25"), 20, "<dofValues>0.5 -0.25 7");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "<dofValues>0.5"), "dofValues");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("<childRobot>1"), 13, "<childRobot>5");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "<childRobot>5"), "<childRobot> 5");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("    <focalDistance>+501</focalDistance>\n"), 39, "");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "<camera>"), "missing <focalDistance>");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("[0 0 -50]"), 9, "[0 0 inf]");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "[0 0 inf]"), "<fullTransform>");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("<material>rubber</material>"), 27, "<material>jelly</material>");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "jelly"), "unknown material 'jelly'");
    }
    // A cycle of connections, an unnormalisable quaternion and absurd magnitudes are errors at the line.
    {
      Tree tree;
      std::string text = kWorld;
      const std::string back = "  <connection>\n    <parentRobot>1</parentRobot>\n    <parentChain>0</parentChain>\n"
                               "    <childRobot>0</childRobot>\n  </connection>\n";
      text.insert(text.find("  <camera>"), back);
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "<parentRobot>1") - 1, "cycle of connections");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("(+1 0 0 0)[0 0 300]"), 19, "(1e308 1e308 0 0)[0 0 300]");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "(1e308 1e308"), "out of range");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("(+1 0 0 0)[0 0 300]"), 19, "(1e-320 0 0 0)[0 0 300]");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "(1e-320"), "zero quaternion");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("<translation>0 200 0</translation>"), 34, "<translation>0 2e8 0</translation>");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "0 2e8 0"), "limit ±1e+08 mm");
    }
    {
      Tree tree;
      std::string text = kWorld;
      text.replace(text.find("<dofValues>0.5 -0.25"), 20, "<dofValues>1e308 -0.25");
      const std::string path = writeWorldTree(tree, text);
      SG_VERIFY_ERROR_AT(loadWorld(path), path, sgtest::lineOf(text, "<dofValues>1e308"), "out of range");
    }
    {
      Tree tree;
      const std::string path = writeWorldTree(tree, "<?xml version=\"1.0\" ?>\n<robot/>\n");
      SG_VERIFY_ERROR_AT(loadWorld(path), path, 2, "expected <world>");
    }
  }
};

QTEST_GUILESS_MAIN(TestWorldXml)
#include "tst_world_xml.moc"
