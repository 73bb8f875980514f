// Regression tests for constructs found when loading real GraspIt! hands, objects and worlds
// (src/io/GRASPIT_FILES_TRIED.md). Every file here is small and written by the test; none is copied
// from GraspIt!.
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/Error.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"

using namespace sg;

namespace {

// Writes `text` to root/relative, creating folders; `crlf` turns every "\n" into "\r\n" (Windows-saved files).
std::string writeFile(const QTemporaryDir& root, const std::string& relative, const std::string& text,
                      bool crlf = false) {
  const std::filesystem::path path = std::filesystem::path(root.path().toStdString()) / relative;
  std::filesystem::create_directories(path.parent_path());
  std::string out;
  for (char c : text) {
    if (c == '\n' && crlf) out += '\r';
    out += c;
  }
  std::ofstream(path, std::ios::binary) << out;
  return path.string();
}

// A box 10 x 4 x 2 mm as six quads in a FaceSet, with comment lines and a blank-with-spaces line inside the
// point list (as old hand-edited link files have).
const char* kQuadBoxIv = R"(#Inventor V2.0 ascii
#mass 100
##youngs 1500000

Separator {
  ShapeHints {
     vertexOrdering  COUNTERCLOCKWISE
     shapeType  SOLID
  }
  Coordinate3 {
    point [
            0 0 0, 0 4 0, 10 4 0, 10 0 0,
#            0 0 0, 0 4 0, 10 4 0, 10 0 0,
     
            0 0 2, 10 0 2, 10 4 2, 0 4 2,

            0 0 0, 10 0 0, 10 0 2, 0 0 2,
            0 4 0, 0 4 2, 10 4 2, 10 4 0,
            0 0 0, 0 0 2, 0 4 2, 0 4 0,
            10 0 0, 10 4 0, 10 4 2, 10 0 2,
          ]
  }
  FaceSet {
    numVertices [ 4, 4, 4, 4, 4, 4, ]
  }
}
)";

// Strips over a vertexProperty with indexed normals, one strip all-degenerate, under a Translation, an Info
// node with a multi-line string and a RotationXYZ (as in scanned object files).
const char* kStripIv = R"(#Inventor V2.1 ascii

Separator {
	
    Translation {
	translation	10 0 0
    }
    DEF Centre Info {
	string	"a = 1
		b = 2	
		c = 3"
    }
    RotationXYZ {
	axis	Z
	angle	1.5707963
    }
    IndexedTriangleStripSet {
	vertexProperty		VertexProperty {
	    vertex	[ 0 0 0,
			      1 0 0,
			      0 1 0,
			      1 1 0,
			      0 2 0 ]
	    normal	[ 0 0 1,
			      0 0 1 ]
	    materialBinding	OVERALL
	    normalBinding	PER_VERTEX_INDEXED
	}

	coordIndex	[ 0, 1, 2, 3, 4, -1, 3,
			  4, 3, 4, -1 ]
	materialIndex	0
	normalIndex	[ 0, 1, 0, 1, 0, -1, 1,
			  1, 1, 1, -1 ]
    }
}
)";

// A two-DOF hand: DOF 0 (rigid) spreads chain 0, DOF 1 (break-away) closes chain 1, a "thumb" whose base
// is turned by two successive rotations and whose distal joint is coupled at one third plus 40°.
const char* kRobotXml = R"(<?xml version="1.0" ?>
<robot type="Hand" DBName="Pincer">
    <palm>palm.xml</palm>
    <dof type="r">
        <defaultVelocity>0.0</defaultVelocity>
        <maxEffort>1.0e+9</maxEffort>
        <Kp>1.0e+10</Kp>
        <Kd>1.0e+6</Kd>
        <draggerScale>20</draggerScale>
    </dof>
    <dof type="b">
        <defaultVelocity>1.0</defaultVelocity>
        <maxEffort>1.0e+9</maxEffort>
        <Kp>1.0e+10</Kp>
        <Kd>1.0e+6</Kd>
        <draggerScale>20</draggerScale>
        <breakAwayTorque>0.4</breakAwayTorque>
    </dof>
    <chain>
        <transform>
            <translation>20.0 0 -1.0</translation>
            <rotation>180 y</rotation>
        </transform>
        <joint type="Revolute">
            <theta>d0+90</theta><d>0</d><a>30</a><alpha>-90</alpha>
            <minValue>0</minValue><maxValue>180</maxValue>
        </joint>
        <link dynamicJointType="Revolute">block.xml</link>
    </chain>
    <chain>
        <transform>
            <translation>0 -30.0 -1.0</translation>
            <rotation>-90 y</rotation>
            <rotation>-90 z</rotation>
        </transform>
        <joint type="Revolute">
            <theta>d1+5</theta><d>0</d><a>40</a><alpha>0</alpha>
            <minValue>0</minValue><maxValue>140</maxValue>
        </joint>
        <joint type="Revolute">
            <theta>d1*0.333333333+40</theta><d>0</d><a>25</a><alpha>0</alpha>
            <minValue>0</minValue><maxValue>140</maxValue>
        </joint>
        <link dynamicJointType="Revolute">block.xml</link>
        <link dynamicJointType="Revolute">block.xml</link>
    </chain>
    <eigenGrasps>eigen/pincer_eigen.xml</eigenGrasps>
    <virtualContacts>virtual/all_contacts.vgr</virtualContacts>
</robot>
)";

const char* kPalmXml = R"(<?xml version="1.0" ?>
<root>
    <material>plastic</material>
    <mass>500</mass>
    <cog>0.5 -1.25 -20</cog>
    <inertia_matrix>100 0 0 0 90 -2 0 -2 50</inertia_matrix>
    <geometryFile>plate.iv</geometryFile>
</root>
)";

const char* kBlockXml = R"(<?xml version="1.0" ?>
<root>
    <material>rubber</material>
    <mass>80</mass>
    <cog>5 2 1</cog>
    <inertia_matrix>10 0 0 0 12 0 0 0 14</inertia_matrix>
    <geometryFile>block.iv</geometryFile>
    <youngs>1500</youngs>
</root>
)";

// Writes the hand under root/models/robots/Pincer; returns the robot XML path. Link files are CRLF.
std::string writePincer(const QTemporaryDir& root) {
  writeFile(root, "models/robots/Pincer/iv/palm.xml", kPalmXml);
  writeFile(root, "models/robots/Pincer/iv/plate.iv", kStripIv);
  writeFile(root, "models/robots/Pincer/iv/block.xml", kBlockXml, true);
  writeFile(root, "models/robots/Pincer/iv/block.iv", kQuadBoxIv, true);
  return writeFile(root, "models/robots/Pincer/Pincer.xml", kRobotXml);
}

// 1-based line of the first line of `text` containing `needle`.
int lineOf(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
}

Transform rotZ(double a) { return Transform::fromAxisAngle(Vec3::UnitZ(), a); }
Transform rotY(double a) { return Transform::fromAxisAngle(Vec3::UnitY(), a); }
Transform rotX(double a) { return Transform::fromAxisAngle(Vec3::UnitX(), a); }
Transform shift(double x, double y, double z) { return Transform::fromTranslation(Vec3(x, y, z)); }
// Standard DH, written out here rather than taken from the engine.
Transform dh(double theta, double a, double alpha) { return rotZ(theta) * shift(a, 0, 0) * rotX(alpha); }
double deg(double d) { return d * M_PI / 180.0; }

}  // namespace

class RealFilesTest : public QObject {
  Q_OBJECT

 private slots:
  // Shipped hands name eigengrasp / virtual-contact files that are not there (e.g. a legacy .vgr name).
  // GraspIt! still loads the hand; so must we, with a warning naming the file and line.
  void missingEigenAndVirtualFilesAreWarnings() {
    QTemporaryDir root;
    const std::string path = writePincer(root);
    const Robot robot = loadRobot(path, MaterialTable{});
    const RobotState robotState = defaultRobotState(robot);
    QCOMPARE(robot.dofCount(), std::size_t(2));
    QCOMPARE(robot.eigengrasps.grasps.size(), std::size_t(2));  // one per DOF
    QVERIFY(robot.virtualContacts.empty());
    QCOMPARE(robot.loadWarnings.size(), std::size_t(2));
    const std::string egAt = "Pincer.xml:" + std::to_string(lineOf(kRobotXml, "<eigenGrasps>")) + ":";
    const std::string vcAt = "Pincer.xml:" + std::to_string(lineOf(kRobotXml, "<virtualContacts>")) + ":";
    QVERIFY(robot.loadWarnings[0].find(egAt) != std::string::npos);
    QVERIFY(robot.loadWarnings[0].find("eigen/pincer_eigen.xml") != std::string::npos);
    QVERIFY(robot.loadWarnings[1].find(vcAt) != std::string::npos);
    QVERIFY(robot.loadWarnings[1].find("virtual/all_contacts.vgr") != std::string::npos);
  }

  // The fallback is only for a missing file: one that exists but is wrong stays an error.
  void brokenEigenFileIsStillAnError() {
    QTemporaryDir root;
    const std::string path = writePincer(root);
    writeFile(root, "models/robots/Pincer/eigen/pincer_eigen.xml",
              "<EigenGrasps dimensions=\"3\">\n  <EG><EigenValue value=\"0.5\"/><DimVals d0=\"1\"/></EG>\n"
              "</EigenGrasps>\n");
    QVERIFY_THROWS_EXCEPTION(Error, loadRobot(path, MaterialTable{}));
    writeFile(root, "models/robots/Pincer/eigen/pincer_eigen.xml",
              "<EigenGrasps dimensions=\"2\">\n  <EG><EigenValue value=\"0.5\"/><DimVals d0=\"1\"/></EG>\n"
              "  <EG><EigenValue value=\"0.25\"/><DimVals d1=\"2\"/></EG>\n"
              "  <ORIGIN><EigenValue value=\"0.0\"/><DimVals d0=\"0.5\" d1=\"0.25\"/></ORIGIN>\n</EigenGrasps>\n");
    const Robot robot = loadRobot(path, MaterialTable{});
    const RobotState robotState = defaultRobotState(robot);
    QCOMPARE(robot.loadWarnings.size(), std::size_t(1));  // only the virtual contacts are missing now
    QCOMPARE(robot.eigengrasps.grasps.size(), std::size_t(2));
    QVERIFY(robot.eigengrasps.hasOrigin);
    QVERIFY(std::abs(robot.eigengrasps.grasps[1].direction[1] - 1.0) < 1e-12);  // normalised
  }

  // Bodies, triangle counts (quads split in two, degenerate strips dropped, CRLF files) and mass data.
  void bodiesAndTriangleCounts() {
    QTemporaryDir root;
    const Robot robot = loadRobot(writePincer(root), MaterialTable{});
    const RobotState robotState = defaultRobotState(robot);
    QCOMPARE(robot.bodyRefs().size(), std::size_t(4));
    QCOMPARE(robot.palm.triangleCount(), std::size_t(3));
    for (const auto& chain : robot.chains)
      for (const auto& link : chain.links) {
        QCOMPARE(link.body.triangleCount(), std::size_t(12));
        QCOMPARE(link.body.material, std::string("rubber"));
        QVERIFY(link.body.isSoft());
        QCOMPARE(link.body.mass_g, 80.0);
        QVERIFY(link.body.cog_mm.isApprox(Vec3(5, 2, 1)));
      }
    QCOMPARE(robot.palm.mass_g, 500.0);
    QVERIFY(robot.palm.cog_mm.isApprox(Vec3(0.5, -1.25, -20)));
    QCOMPARE(robot.palm.inertiaPerMass_mm2(1, 2), -2.0);
    // The strip file's Translation and RotationXYZ are baked into the palm's vertices.
    const auto& box = robot.palm.mesh->bounds;
    QVERIFY((box.min - Vec3(8, 0, 0)).norm() < 1e-6);
    QVERIFY((box.max - Vec3(10, 1, 0)).norm() < 1e-6);
  }

  // A Coin primitive after "Rotation{" (no space before the brace) and an identity Transform: tessellated,
  // turned from the y axis onto z, and close to the true cylinder.
  void primitiveCylinderUnderRotation() {
    QTemporaryDir root;
    const std::string path = writeFile(root, "objects/rod.iv",
                                       "#Inventor V2.1 ascii\n#mass 40\n\n\nSeparator { # Body\n\n\tMaterial {\n"
                                       "\t\tdiffuseColor\t0.4 0.4 0.8\n\t  }\n\n\t  Transform { translation 0 0 0\n"
                                       "\t\t\t  \t\t\t}\n\t  \n\t  Rotation{ rotation 1 0 0 1.5707963267 }\n\n"
                                       "\t  Cylinder { radius 5 height 40}\n}\n");
    const TriangleMesh mesh = readMesh(path);
    QVERIFY(mesh.triangleCount() >= 24);  // exact count is Coin's tessellation
    // Coin works in single precision.
    QVERIFY((mesh.bounds.min - Vec3(-5, -5, -20)).norm() < 1e-4);
    QVERIFY((mesh.bounds.max - Vec3(5, 5, 20)).norm() < 1e-4);
  }

  // DOF ranges and link poses of the two chains against a hand-written DH product.
  void linkPosesMatchHandComputedDh() {
    QTemporaryDir root;
    Robot robot = loadRobot(writePincer(root), MaterialTable{});
    RobotState robotState = defaultRobotState(robot);
    QCOMPARE(robot.dofs[0].maxValue, M_PI);
    QVERIFY(std::abs(robot.dofs[1].maxValue - deg(140)) < 1e-12);  // proximal joint binds (ratio 1)
    const double q0 = 0.5, q1 = 1.0;
    setDofValues(robot, robotState, {q0, q1});
    const Transform base0 = shift(20, 0, -1) * rotY(M_PI);
    const Transform link00 = base0 * dh(q0 + deg(90), 30, deg(-90));
    const Transform base1 = shift(0, -30, -1) * rotY(deg(-90)) * rotZ(deg(-90));
    const Transform link10 = base1 * dh(q1 + deg(5), 40, 0);
    const Transform link11 = link10 * dh(q1 * 0.333333333 + deg(40), 25, 0);
    QVERIFY(robotState.X_WL[0][0].isApprox(link00, 1e-9));
    QVERIFY(robotState.X_WL[1][0].isApprox(link10, 1e-9));
    QVERIFY(robotState.X_WL[1][1].isApprox(link11, 1e-9));
    // A number worked by hand for the thumb tip at q1 = 0: angles 5° and 45° in the chain's x-y plane,
    // which the base rotations map to (0, -x, y) before the (0, -30, -1) shift.
    setDofValues(robot, robotState, {0.0, 0.0});
    const Vec3 tip(0, -30 - (40 * std::cos(deg(5)) + 25 * std::cos(deg(45))),
                   -1 + 40 * std::sin(deg(5)) + 25 * std::sin(deg(45)));
    QVERIFY((robotState.X_WL[1][1].translation() - tip).norm() < 1e-9);
  }

  // A world naming the hand and an object, with signed numbers in fullTransform and break-away entries
  // in dofValues, found from ROOT/worlds without any environment variable.
  void worldWithSignedTransformsAndBreakAwayDofValues() {
    QTemporaryDir root;
    writePincer(root);
    writeFile(root, "models/objects/brick.xml",
              "<?xml version=\"1.0\" ?>\n<root>\n\t<material>glass</material>\n\t<mass>200</mass>\n"
              "\t<cog>0 0 0</cog>\n\t<inertia_matrix>15.0 -1.5 0.0 -1.5 19.0  0.0 0.0 0.0 17.5</inertia_matrix>\n"
              "\t<geometryFile type=\"Inventor\">brick.iv</geometryFile>\n</root>\n");
    writeFile(root, "models/objects/brick.iv", kQuadBoxIv, true);
    const std::string worldText = R"(<?xml version="1.0" ?>
<world>
    <graspableBody>
        <filename>models/objects/brick.xml</filename>
        <transform>
            <fullTransform>(+1 0 0 0)[+8.5e-06 +0.75 +100.5]</fullTransform>
        </transform>
    </graspableBody>
    <robot>
        <filename>models/robots/Pincer/Pincer.xml</filename>
        <dofValues>+0.2 +0.4 +1 +0.3 +0</dofValues>
        <transform>
            <fullTransform>(+1 0 0 0)[0 0 0]</fullTransform>
        </transform>
    </robot>
    <camera>
        <position>+400.5 +10.25 +90.5</position>
        <orientation>+0.5 +0.5 +0.5 +0.5</orientation>
        <focalDistance>+401</focalDistance>
    </camera>
</world>
)";
    const World world = loadWorld(writeFile(root, "worlds/pincerBrick.xml", worldText));
    QCOMPARE(world.graspables.size(), std::size_t(1));
    QCOMPARE(world.robots.size(), std::size_t(1));
    QCOMPARE(world.bodyCount(), std::size_t(5));
    const Body& brick = world.graspables[0];
    QCOMPARE(brick.mass_g, 200.0);
    QCOMPARE(brick.material, std::string("glass"));
    QVERIFY(brick.cogFromFile && brick.inertiaFromFile);
    QCOMPARE(brick.inertiaPerMass_mm2(0, 1), -1.5);
    QVERIFY((world.state.X_WG[0].translation() - Vec3(8.5e-06, 0.75, 100.5)).norm() < 1e-12);
    const Robot& hand = world.robots[0];
    const RobotState& handState = world.state.robots[0];
    QCOMPARE(handState.dofValues[0], 0.2);
    QCOMPARE(handState.dofValues[1], 0.4);
    QVERIFY(handState.breakAway[1][0].active);
    QCOMPARE(handState.breakAway[1][0].dofValue, 0.3);
    QVERIFY(!handState.breakAway[1][1].active);
    QVERIFY(world.camera.has_value());
    QCOMPARE(world.camera->focalDistance_mm, 401.0);
    QCOMPARE(dofValuesToString(hand, handState).empty(), false);
  }

  // Virtual contacts: the legacy .vgr text (CRLF, trailing blanks) and the XML form (comments between
  // elements, no newline at the end) describe the same palm contact.
  void virtualContactsVgrAndXmlAgree() {
    QTemporaryDir root;
    const std::string vgr = writeFile(root, "v/palm.vgr",
                                      "Pincer\n1\n-1 0\n3\n"
                                      "0.000000 0.000000 0.000000 0.000000 0.000000 1.500000 \n"
                                      "1.000000 0.000000 0.000000 0.000000 0.000000 0.000000 \n"
                                      "-0.500000 0.866025 0.000000 0.000000 0.000000 0.000000 \n"
                                      "0.000200 -0.250000 0.000000\n"
                                      "-0.707107 0.000001 -0.000001 0.707107\n"
                                      "0.000200 -0.250000 0.000000\n"
                                      "0.000000 0.000000 1.000000\n"
                                      "0.300000\n",
                                      true);
    const std::string xml = writeFile(root, "v/palm.xml", R"(<?xml version="1.0" ?>
<virtual_contacts>
  <robot_name>Pincer</robot_name>
  <num_contacts>1</num_contacts>
  <virtual_contact>
    <finger_number>-1</finger_number>
    <link_number>0</link_number>
    <num_friction_edges>3</num_friction_edges>
    <friction_edges>
      <friction_edge>0.000000 0.000000 0.000000 0.000000 0.000000 1.500000</friction_edge>
      <friction_edge>1.000000 0.000000 0.000000 0.000000 0.000000 0.000000</friction_edge>
      <friction_edge>-0.500000 0.866025 0.000000 0.000000 0.000000 0.000000</friction_edge>
    </friction_edges>
    <location>0.000200 -0.250000 0.000000</location>
    <!--w, x, y, z -->
    <rotation>-0.707107 0.000001 -0.000001 0.707107</rotation>
    <!--x, y, z -->
    <translation>0.000200 -0.250000 0.000000</translation>
    <normal>0.000000 0.000000 1.000000</normal>
    <sCof>0.300000</sCof>
  </virtual_contact>
  </virtual_contacts>)");
    const auto a = loadVirtualContacts(vgr);
    const auto b = loadVirtualContacts(xml);
    QCOMPARE(a.size(), std::size_t(1));
    QCOMPARE(b.size(), std::size_t(1));
    for (const auto* c : {&a[0], &b[0]}) {
      QCOMPARE(c->chain, -1);
      QCOMPARE(c->frictionEdges.size(), std::size_t(3));
      QCOMPARE(c->frictionEdges[0][5], 1.5);
      QCOMPARE(c->mu, 0.3);
      QVERIFY(c->normal.isApprox(Vec3::UnitZ()));
      QVERIFY((c->frame.translation() - Vec3(0.0002, -0.25, 0)).norm() < 1e-12);
    }
    QVERIFY(a[0].frame.isApprox(b[0].frame, 1e-12));
  }
};

QTEST_GUILESS_MAIN(RealFilesTest)
#include "tst_realfiles.moc"
