// Body XML, bare meshes, <transform> composition, path resolution and the body-level error messages.
#include <QtTest>

#include <tinyxml2.h>

#include "core/Parse.h"
#include "io/ModelIO.h"
#include "io/PathResolver.h"
#include "io/TransformXml.h"
#include "XmlTestTree.h"

using namespace sg;
using sgtest::Tree;

namespace {

Transform transformFromXml(const std::string& xmlText) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xmlText.c_str()) != tinyxml2::XML_SUCCESS) throw Error("test XML does not parse");
  return xml::parseTransform(*doc.RootElement(), "test.xml");
}

const MaterialTable kMaterials;

}  // namespace

class TestBodyXml : public QObject {
  Q_OBJECT
 private slots:
  void rotationsComposeLeftToRight() {
    // T = Rx(90)·Rz(90): x -> y (Rz first) -> z (then Rx).
    const Transform t = transformFromXml("<transform><rotation>90 x</rotation><rotation>90 z</rotation></transform>");
    QVERIFY((t * Vec3(1, 0, 0)).isApprox(Vec3(0, 0, 1), 1e-12));
    // Translation then rotation: points are rotated first, then translated.
    const Transform u =
        transformFromXml("<transform><translation>10 0 0</translation><rotation>90 z</rotation></transform>");
    QVERIFY((u * Vec3(1, 0, 0)).isApprox(Vec3(10, 1, 0), 1e-12));
    const Transform v =
        transformFromXml("<transform><rotation>90 z</rotation><translation>10 0 0</translation></transform>");
    QVERIFY((v * Vec3(1, 0, 0)).isApprox(Vec3(0, 11, 0), 1e-12));
  }

  void rotationMatrixIsColumnMajor() {
    // First column (0 1 0) is the image of x: a +90° turn about z.
    const Transform t = transformFromXml("<transform><rotationMatrix>0 1 0 -1 0 0 0 0 1</rotationMatrix></transform>");
    QVERIFY((t * Vec3(1, 0, 0)).isApprox(Vec3(0, 1, 0), 1e-12));
    QVERIFY((t * Vec3(0, 1, 0)).isApprox(Vec3(-1, 0, 0), 1e-12));
  }

  void fullTransformIsWFirst() {
    const Transform t = transformFromXml(
        "<transform><fullTransform>(0.7071067811865476 0 0 0.7071067811865476)[1 2 3]</fullTransform></transform>");
    QVERIFY((t * Vec3(1, 0, 0)).isApprox(Vec3(1, 3, 3), 1e-12));
    // Mixed children: fullTransform, then a translation applied first.
    const Transform u = transformFromXml(
        "<transform><fullTransform>(+1 +0 +0 +0)[+5 +0 +0]</fullTransform><translation>0 7 0</translation></transform>");
    QVERIFY((u * Vec3::Zero()).isApprox(Vec3(5, 7, 0), 1e-12));
  }

  void transformRejectsBadChildren() {
    QVERIFY(sgtest::contains(sgtest::errorOf([] { transformFromXml("<transform>\n<rotation>90 w</rotation></transform>"); }),
                             "test.xml:2"));
    QVERIFY(sgtest::contains(sgtest::errorOf([] { transformFromXml("<transform><rotation>nan x</rotation></transform>"); }),
                             "test.xml:1"));
    QVERIFY(sgtest::contains(
        sgtest::errorOf([] { transformFromXml("<transform>\n\n<rotationMatrix>1 2 3 4 5 6 7 8 9</rotationMatrix></transform>"); }),
        "test.xml:3"));
    QVERIFY(sgtest::contains(sgtest::errorOf([] { transformFromXml("<transform><scale>2</scale></transform>"); }),
                             "unknown element <scale>"));
    QVERIFY(sgtest::contains(sgtest::errorOf([] { transformFromXml("<transform><fullTransform>(1 0 0)[0 0 0]</fullTransform></transform>"); }),
                             "fullTransform"));
  }

  void graspableBodyComputesMassProperties() {
    Tree tree;
    tree.write("models/objects/cube.off", sgtest::cubeOff(10));
    const std::string xmlPath = tree.write("models/objects/cube.xml",
                                           "<?xml version=\"1.0\" ?>\n<root>\n  <material>glass</material>\n"
                                           "  <mass>150</mass>\n  <geometryFile type=\"off\">cube.off</geometryFile>\n"
                                           "  <youngs>1500000</youngs>\n</root>\n");
    const Body b = loadBody(xmlPath, BodyKind::Graspable, kMaterials);
    QCOMPARE(b.name, std::string("cube"));
    QCOMPARE(b.material, std::string("glass"));
    QCOMPARE(b.mass_g, 150.0);
    QVERIFY(b.youngs_Pa && *b.youngs_Pa == 1.5e6);
    QVERIFY(b.isSoft());
    QCOMPARE(b.triangleCount(), std::size_t(12));
    QVERIFY(!b.cogFromFile && !b.inertiaFromFile);
    QVERIFY(b.cog_mm.norm() < 1e-9);
    // Solid cube of side s: inertia per unit mass s²/6 about every axis.
    QVERIFY(b.inertiaPerMass_mm2.isApprox(Mat3::Identity() * (400.0 / 6.0), 1e-9));
    QVERIFY(std::abs(b.maxRadius_mm - 10 * std::sqrt(3.0)) < 1e-9);
    QCOMPARE(b.sourceFile, absolutePath(xmlPath));
    QCOMPARE(b.geometry.type, std::string("off"));
    QCOMPARE(b.geometry.file, std::string("cube.off"));
  }

  void dynamicTagsFromFile() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(10));
    const std::string xmlPath =
        tree.write("o/b.xml",
                   "<root><geometryFile type=\"off\">cube.off</geometryFile><cog>1 2 3</cog>"
                   "<inertia_matrix>1 2 3 2 5 6 3 6 9</inertia_matrix><normalCompliance>0.5</normalCompliance>"
                   "<shearCompliance>0.25</shearCompliance><useFlockOfBirds>3</useFlockOfBirds></root>");
    const Body b = loadBody(xmlPath, BodyKind::Graspable, kMaterials);
    QCOMPARE(b.mass_g, 300.0);  // GraspIt!'s default
    QCOMPARE(b.material, std::string("wood"));
    QVERIFY(b.cog_mm.isApprox(Vec3(1, 2, 3)));
    Mat3 I;
    I << 1, 2, 3, 2, 5, 6, 3, 6, 9;
    QVERIFY(b.inertiaPerMass_mm2.isApprox(I));
    QVERIFY(b.normalCompliance && *b.normalCompliance == 0.5 && *b.shearCompliance == 0.25);
    QVERIFY(b.flockOfBirds && *b.flockOfBirds == 3);
    QVERIFY(std::abs(b.maxRadius_mm - (Vec3(-10, -10, -10) - Vec3(1, 2, 3)).norm()) < 1e-9);
    // An obstacle ignores the dynamic tags.
    const Body o = loadBody(xmlPath, BodyKind::Obstacle, kMaterials);
    QVERIFY(!o.cogFromFile && o.cog_mm.norm() < 1e-9);
  }

  void cogGivenInertiaComputedIsShifted() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(10));
    const std::string xmlPath =
        tree.write("o/b.xml", "<root><geometryFile type=\"off\">cube.off</geometryFile><cog>0 0 3</cog></root>");
    const Body b = loadBody(xmlPath, BodyKind::Graspable, kMaterials);
    // Parallel axis: +d² on x and y for d = (0,0,3).
    QVERIFY(b.inertiaPerMass_mm2.isApprox(Vec3(400.0 / 6 + 9, 400.0 / 6 + 9, 400.0 / 6).asDiagonal().toDenseMatrix(), 1e-9));
  }

  void scalingAndOffsetAreBaked() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(10));
    {
      const Body b = loadBody(tree.write("o/u.xml", "<root><geometryFile type=\"off\">cube.off</geometryFile>"
                                                   "<geometryScaling>2</geometryScaling></root>"),
                              BodyKind::Obstacle, kMaterials);
      QVERIFY(b.mesh->bounds.min.isApprox(Vec3::Constant(-20)));
      QVERIFY(b.mesh->bounds.max.isApprox(Vec3::Constant(20)));
      QVERIFY(b.geometry.hasScale && b.geometry.scaleWasUniform);
    }
    {
      // p_body = Offset·Scale·p_file with Scale = diag(2,1,3), Offset = T(100,0,0)·Rz(90).
      const Body b = loadBody(
          tree.write("o/xyz.xml",
                     "<root><geometryFile type=\"off\">cube.off</geometryFile><geometryScalingX>2</geometryScalingX>"
                     "<geometryScalingZ>3</geometryScalingZ><geometryOffset><transform><translation>100 0 0</translation>"
                     "<rotation>90 z</rotation></transform></geometryOffset></root>"),
          BodyKind::Graspable, kMaterials);
      QVERIFY(b.mesh->bounds.min.isApprox(Vec3(90, -20, -30), 1e-9));
      QVERIFY(b.mesh->bounds.max.isApprox(Vec3(110, 20, 30), 1e-9));
      QVERIFY(!b.geometry.scaleWasUniform);
      QVERIFY(b.geometry.scale.isApprox(Vec3(2, 1, 3)));
      QVERIFY(b.geometry.offset.has_value());
      QVERIFY(b.cog_mm.isApprox(Vec3(100, 0, 0), 1e-9));
      // Box 40 (y) × 20 (x) × 60 (z) after the turn: I_xx = (b²+c²)/12 with b = 40, c = 60.
      QVERIFY(std::abs(b.inertiaPerMass_mm2(0, 0) - (40.0 * 40 + 60 * 60) / 12) < 1e-6);
      QVERIFY(std::abs(b.inertiaPerMass_mm2(1, 1) - (20.0 * 20 + 60 * 60) / 12) < 1e-6);
    }
  }

  void openMeshFallsBackToBoxCentreAndIdentity() {
    Tree tree;
    tree.write("o/tri.off", "OFF\n3 1 0\n0 0 0\n10 0 0\n0 20 0\n3 0 1 2\n");
    const Body b = loadBody(tree.write("o/t.xml", "<root><geometryFile type=\"off\">tri.off</geometryFile></root>"),
                            BodyKind::Graspable, kMaterials);
    QVERIFY(b.cog_mm.isApprox(Vec3(5, 10, 0)));
    QVERIFY(b.inertiaPerMass_mm2.isApprox(Mat3::Identity()));
  }

  void bareMeshIsABodyInMillimetres() {
    Tree tree;
    const std::string mesh = tree.write("loose/brick.off", sgtest::boxOff(Vec3(0, 0, 0), Vec3(10, 20, 30)));
    const Body b = loadBody(mesh, BodyKind::Graspable, kMaterials);
    QCOMPARE(b.name, std::string("brick"));
    QVERIFY(b.mesh->bounds.max.isApprox(Vec3(10, 20, 30)));  // not ×1000
    QCOMPARE(b.mass_g, 300.0);
    QCOMPARE(b.material, std::string("wood"));
    QVERIFY(b.cog_mm.isApprox(Vec3(5, 10, 15), 1e-9));
    QVERIFY(b.sourceFile.empty());
    QCOMPARE(b.geometry.type, std::string("off"));
    QCOMPARE(detectInputFileKind(mesh), InputFileKind::Mesh);
  }

  void typeAttributeDefaultsByExtension() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(1));
    // No type attribute: GraspIt! would assume Inventor; the .off extension is used instead.
    const Body b = loadBody(tree.write("o/c.xml", "<root><geometryFile>cube.off</geometryFile></root>"),
                            BodyKind::Obstacle, kMaterials);
    QCOMPARE(b.triangleCount(), std::size_t(12));
    const std::string bad = tree.write("o/bad.xml", "<root>\n<geometryFile type=\"3ds\">cube.off</geometryFile></root>");
    SG_VERIFY_ERROR_AT(loadBody(bad, BodyKind::Obstacle, kMaterials), bad, 2, "unknown geometry type");
  }

  void inventorGeometry() {
    Tree tree;
    tree.write("models/objects/cube.iv", sgtest::boxIv(Vec3::Constant(-10), Vec3::Constant(10)));
    // Explicit type, GraspIt!'s default (no type) and a bare .iv file all read the same Inventor geometry.
    for (const char* geometryFile : {"<geometryFile type=\"Inventor\">cube.iv</geometryFile>", "<geometryFile>cube.iv</geometryFile>"}) {
      const Body b = loadBody(tree.write("models/objects/cube.xml", std::string("<root><mass>80</mass>") + geometryFile + "</root>"),
                              BodyKind::Graspable, kMaterials);
      QCOMPARE(b.geometry.type, std::string("Inventor"));
      QCOMPARE(b.triangleCount(), std::size_t(12));
      QVERIFY(b.mesh->bounds.max.isApprox(Vec3::Constant(10), 1e-9));
      QVERIFY(b.inertiaPerMass_mm2.isApprox(Mat3::Identity() * (400.0 / 6.0), 1e-9));
    }
    const Body bare = loadBody(tree.path("models/objects/cube.iv"), BodyKind::Obstacle, kMaterials);
    QCOMPARE(bare.name, std::string("cube"));
    QCOMPARE(bare.triangleCount(), std::size_t(12));
    QVERIFY(bare.mesh->bounds.min.isApprox(Vec3::Constant(-10), 1e-9));
  }

  void pathResolution() {
    Tree tree;
    const std::string target = tree.write("models/objects/cube.xml", "<root/>");
    const PathResolver resolver;
    // Relative to the referencing file's directory, then its ancestors.
    QCOMPARE(*resolver.resolve("cube.xml", tree.path("models/objects")), absolutePath(target));
    QCOMPARE(*resolver.resolve("models/objects/cube.xml", tree.path("worlds")), absolutePath(target));
    QVERIFY(!resolver.resolve("models/objects/nothing.xml", tree.path("worlds")).has_value());
    // User model roots come last.
    Tree other;
    other.write("lib/thing.xml", "<root/>");
    const PathResolver withRoot(LoadOptions{{other.path("lib")}, {}, true});
    QCOMPARE(*withRoot.resolve("thing.xml", tree.path("worlds")), absolutePath(other.path("lib/thing.xml")));
    const std::string msg = sgtest::errorOf([&] { withRoot.require("nope.xml", tree.path("worlds"), "w.xml", 7); });
    QVERIFY2(sgtest::contains(msg, "w.xml:7"), msg.c_str());
    QVERIFY2(sgtest::contains(msg, absolutePath(tree.path("worlds/nope.xml"))), msg.c_str());
    QVERIFY2(sgtest::contains(msg, absolutePath(other.path("lib/nope.xml"))), msg.c_str());
    QCOMPARE(relativePath(tree.path("models/objects/cube.xml"), tree.path("models")), std::string("objects/cube.xml"));
    QCOMPARE(relativePath(tree.path("models/objects/cube.xml"), tree.path("worlds")),
             absolutePath(tree.path("models/objects/cube.xml")));
    QCOMPARE(fileStem("/a/b/mug.xml"), std::string("mug"));
  }

  void detectsKinds() {
    Tree tree;
    QCOMPARE(detectInputFileKind(tree.write("w.xml", "<world/>")), InputFileKind::World);
    QCOMPARE(detectInputFileKind(tree.write("r.xml", "<robot type=\"Hand\"/>")), InputFileKind::Robot);
    QCOMPARE(detectInputFileKind(tree.write("b.xml", "<root><geometryFile>x.iv</geometryFile></root>")),
             InputFileKind::Body);
    QCOMPARE(detectInputFileKind(tree.write("e.xml", "<EigenGrasps/>")), InputFileKind::Unknown);
    QCOMPARE(detectInputFileKind(tree.write("bad.xml", "<world>")), InputFileKind::Unknown);
    QCOMPARE(detectInputFileKind(tree.path("missing.xml")), InputFileKind::Unknown);
    QCOMPARE(detectInputFileKind("x.iv"), InputFileKind::Mesh);
    QCOMPARE(detectInputFileKind("x.wrl"), InputFileKind::Mesh);
  }

  // ---- bad input: every message names the file and the line ----

  void malformedXml() {
    Tree tree;
    const std::string p = tree.write("o/m.xml", "<root>\n  <material>wood</material>\n  <mass>3</mas>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(p, BodyKind::Graspable, kMaterials), p, 3, "malformed XML");
  }

  void missingGeometryFile() {
    Tree tree;
    const std::string text = "<root>\n  <material>wood</material>\n  <geometryFile type=\"off\">nothere.off</geometryFile>\n</root>\n";
    const std::string p = tree.write("o/m.xml", text);
    SG_VERIFY_ERROR_AT(loadBody(p, BodyKind::Graspable, kMaterials), p, 3, "nothere.off");
    QVERIFY(sgtest::contains(sgtest::errorOf([&] { loadBody(p, BodyKind::Graspable, kMaterials); }), "tried"));
    const std::string noGeom = tree.write("o/n.xml", "<root>\n  <material>wood</material>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(noGeom, BodyKind::Graspable, kMaterials), noGeom, 1, "missing <geometryFile>");
  }

  void unknownMaterial() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(1));
    const std::string p =
        tree.write("o/m.xml", "<root>\n  <geometryFile type=\"off\">cube.off</geometryFile>\n  <material>cheese</material>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(p, BodyKind::Graspable, kMaterials), p, 3, "unknown material 'cheese'");
  }

  void nonFiniteNumbers() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(1));
    const std::string head = "<root>\n  <geometryFile type=\"off\">cube.off</geometryFile>\n";
    const std::string a = tree.write("o/a.xml", head + "  <mass>nan</mass>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(a, BodyKind::Graspable, kMaterials), a, 3, "<mass>");
    const std::string b = tree.write("o/b.xml", head + "  <cog>0 inf 0</cog>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(b, BodyKind::Graspable, kMaterials), b, 3, "<cog>");
    const std::string c = tree.write("o/c.xml", head + "\n  <youngs>-5</youngs>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(c, BodyKind::Graspable, kMaterials), c, 4, "<youngs>");
    const std::string d = tree.write("o/d.xml", head + "  <inertia_matrix>1 2 3</inertia_matrix>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(d, BodyKind::Graspable, kMaterials), d, 3, "9 numbers");
    const std::string e = tree.write("o/e.xml", head + "  <mass>0</mass>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(e, BodyKind::Graspable, kMaterials), e, 3, "<mass> must be > 0");
    const std::string f = tree.write("o/f.xml", head + "  <normalCompliance>1</normalCompliance>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(f, BodyKind::Graspable, kMaterials), f, 3, "together");
  }

  void absurdScale() {
    Tree tree;
    tree.write("o/cube.off", sgtest::cubeOff(1));
    const std::string head = "<root>\n  <geometryFile type=\"off\">cube.off</geometryFile>\n";
    for (const char* s : {"1e9", "0", "-2", "inf"}) {
      const std::string p = tree.write("o/s.xml", head + "  <geometryScaling>" + s + "</geometryScaling>\n</root>\n");
      SG_VERIFY_ERROR_AT(loadBody(p, BodyKind::Obstacle, kMaterials), p, 3, "<geometryScaling>");
    }
    const std::string y = tree.write("o/y.xml", head + "\n  <geometryScalingY>0</geometryScalingY>\n</root>\n");
    SG_VERIFY_ERROR_AT(loadBody(y, BodyKind::Obstacle, kMaterials), y, 4, "<geometryScalingY>");
  }

  void emptyMesh() {
    Tree tree;
    const std::string mesh = tree.write("o/empty.off", "OFF\n0 0 0\n");
    const std::string p = tree.write("o/e.xml", "<root>\n\n  <geometryFile type=\"off\">empty.off</geometryFile>\n</root>\n");
    const std::string msg = sgtest::errorOf([&] { loadBody(p, BodyKind::Obstacle, kMaterials); });
    QVERIFY2(sgtest::contains(msg, absolutePath(mesh)), msg.c_str());
    QVERIFY2(sgtest::contains(msg, absolutePath(p) + ":3"), msg.c_str());
    // A mesh whose triangles are all degenerate is empty too.
    tree.write("o/flat.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2\n");
    const std::string q = tree.write("o/f.xml", "<root>\n<geometryFile type=\"off\">flat.off</geometryFile>\n</root>\n");
    const std::string msg2 = sgtest::errorOf([&] { loadBody(q, BodyKind::Obstacle, kMaterials); });
    QVERIFY2(sgtest::contains(msg2, absolutePath(q) + ":2"), msg2.c_str());
  }
};

QTEST_GUILESS_MAIN(TestBodyXml)
#include "tst_body_xml.moc"
