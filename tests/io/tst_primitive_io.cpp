// Bodies whose geometry is an analytic primitive: Inventor files holding a single Sphere/Cube/Cylinder/Cone
// (src/io/MeshIO.h readInventorGeometry) and body XML <primitive> elements (src/io/FORMATS.md §Primitives),
// their placement, exact mass properties, the writer, and bad input.
#include <QtTest>

#include "core/Error.h"
#include "geometry/ShapeQueries.h"
#include "io/BodyXml.h"
#include "io/ModelIO.h"
#include "MeshTestFiles.h"

using namespace sg;
using sg::testfiles::writeFile;

namespace {

const MaterialTable kMaterials;
const QByteArray kIv = "#Inventor V2.1 ascii\n\n";

Body bareIv(const QTemporaryDir& dir, const QString& name, const QByteArray& content) {
  return loadBody(writeFile(dir, name, kIv + content), BodyKind::Graspable, kMaterials);
}

Body bodyXml(const QTemporaryDir& dir, const QString& name, const QByteArray& children) {
  return loadBody(writeFile(dir, name, "<?xml version=\"1.0\"?>\n<root>\n" + children + "\n</root>\n"),
                  BodyKind::Graspable, kMaterials);
}

template <class S>
const S& shapeOf(const Body& b) {
  if (!b.primitive || !std::holds_alternative<S>(b.primitive->shape)) qFatal("%s: not the expected primitive", b.name.c_str());
  return std::get<S>(b.primitive->shape);
}

// Expects loading to throw an sg::Error naming `path` and containing `fragment`.
void expectLoadError(const std::string& path, const std::string& fragment) {
  try {
    (void)loadBody(path, BodyKind::Graspable, kMaterials);
  } catch (const Error& e) {
    const std::string what = e.what();
    QVERIFY2(what.find(path) != std::string::npos, what.c_str());
    QVERIFY2(what.find(fragment) != std::string::npos, what.c_str());
    return;
  }
  QFAIL(("no error for " + path).c_str());
}

}  // namespace

class TestPrimitiveIo : public QObject {
  Q_OBJECT
 private slots:
  void inventorPrimitives() {
    QTemporaryDir dir;
    // Property nodes (material, complexity) do not matter; the tessellation follows the file's complexity.
    Body b = bareIv(dir, "ball.iv", "Separator { Complexity { value 0.8 } Material { diffuseColor 1 0 0 } Sphere { radius 5 } }");
    QCOMPARE(shapeOf<Sphere>(b).radius_mm, 5.0);
    QVERIFY(b.primitive->X_BS.isApprox(Transform::identity()));
    QVERIFY(b.mesh && b.mesh->triangleCount() > 100);
    QVERIFY(std::abs(b.inertiaPerMass_mm2(0, 0) - 0.4 * 25) < 1e-9);  // exact, not the tessellation's
    // Transforms and uniform scales are baked in.
    b = bareIv(dir, "moved.iv", "Transform { translation 1 2 3 scaleFactor 2 2 2 } Sphere { radius 5 }");
    QVERIFY(std::abs(shapeOf<Sphere>(b).radius_mm - 10) < 1e-12);
    QVERIFY((b.primitive->X_BS.translation() - Vec3(1, 2, 3)).norm() < 1e-12);
    // A non-uniform scale turns a sphere into an ellipsoid.
    b = bareIv(dir, "egg.iv", "Scale { scaleFactor 1 2 3 } Sphere { radius 5 }");
    QVERIFY((shapeOf<Ellipsoid>(b).semiAxes_mm - Vec3(5, 10, 15)).norm() < 1e-12);
    // Coin's cylinder and cone stand along y; the cone's apex is at +height/2.
    b = bareIv(dir, "can.iv", "Cylinder { radius 2 height 10 }");
    QCOMPARE(shapeOf<Cylinder>(b).radius_mm, 2.0);
    QCOMPARE(shapeOf<Cylinder>(b).height_mm, 10.0);
    QVERIFY((b.primitive->X_BS * Vec3(0, 0, 5) - Vec3(0, 5, 0)).norm() < 1e-12);
    b = bareIv(dir, "cone.iv", "Cone { }");  // Coin's defaults: bottomRadius 1, height 2, all parts
    QCOMPARE(shapeOf<Cone>(b).radius_mm, 1.0);
    QCOMPARE(shapeOf<Cone>(b).height_mm, 2.0);
    QVERIFY((b.primitive->X_BS * Vec3(0, 0, 1) - Vec3(0, 1, 0)).norm() < 1e-12);
    for (const Vec3& v : b.mesh->vertices)  // Coin's tessellation lies on the primitive
      QVERIFY(std::abs(signedDistance(b.primitive->shape, b.primitive->X_BS.inverse() * v)) < 1e-5);
    b = bareIv(dir, "cube.iv", "Rotation { rotation 0 0 1 1.5707963 } Cube { width 2 height 4 depth 6 }");
    QVERIFY((shapeOf<Box>(b).size_mm - Vec3(2, 4, 6)).norm() < 1e-12);
    QVERIFY(std::abs(std::abs((b.primitive->X_BS.rotationMatrix() * Vec3::UnitX()).y()) - 1) < 1e-6);
    // Anything else stays a mesh: an open cone, two shapes, a cylinder squashed across its axis.
    QVERIFY(!bareIv(dir, "open.iv", "Cone { parts SIDES }").primitive);
    QVERIFY(!bareIv(dir, "two.iv", "Sphere { radius 1 } Translation { translation 5 0 0 } Sphere { radius 1 }").primitive);
    QVERIFY(!bareIv(dir, "squashed.iv", "Scale { scaleFactor 2 1 1 } Cylinder { }").primitive);
    QVERIFY(!bareIv(dir, "mesh.iv", "Coordinate3 { point [0 0 0, 1 0 0, 0 1 0] } IndexedFaceSet { coordIndex [0, 1, 2, -1] }")
                 .primitive);
  }

  void inventorPrimitiveUnderBodyScaling() {
    QTemporaryDir dir;
    writeFile(dir, "ball.iv", kIv + "Sphere { radius 5 }");
    Body b = bodyXml(dir, "ball.xml",
                     "<geometryFile type=\"Inventor\">ball.iv</geometryFile><geometryScaling>2</geometryScaling>"
                     "<geometryOffset><transform><translation>0 0 7</translation></transform></geometryOffset>");
    QVERIFY(std::abs(shapeOf<Sphere>(b).radius_mm - 10) < 1e-12);
    QVERIFY((b.primitive->X_BS.translation() - Vec3(0, 0, 7)).norm() < 1e-12);
    QVERIFY((b.cog_mm - Vec3(0, 0, 7)).norm() < 1e-12);
    b = bodyXml(dir, "egg.xml",
                "<geometryFile>ball.iv</geometryFile><geometryScalingX>1</geometryScalingX>"
                "<geometryScalingY>1</geometryScalingY><geometryScalingZ>2</geometryScalingZ>");
    QVERIFY((shapeOf<Ellipsoid>(b).semiAxes_mm - Vec3(5, 5, 10)).norm() < 1e-12);
  }

  void xmlPrimitives() {
    QTemporaryDir dir;
    Body b = bodyXml(dir, "tip.xml", "<material>rubber</material><youngs>1.5e6</youngs><primitive type=\"sphere\" radius=\"10\"/>");
    QCOMPARE(shapeOf<Sphere>(b).radius_mm, 10.0);
    QCOMPARE(b.name, std::string("tip"));
    QVERIFY(b.isSoft() && b.mesh && !b.mesh->empty());
    QCOMPARE(b.geometry.type, std::string("primitive"));
    QVERIFY(std::abs(b.maxRadius_mm - 10) < 1e-9);
    const struct {
      const char* xml;
      const char* type;
      double volume;
    } cases[] = {
        {"<primitive type=\"ellipsoid\" semiAxes=\"1 2 3\"/>", "ellipsoid", 4.0 / 3 * kPi * 6},
        {"<primitive type=\"cylinder\" radius=\"2\" height=\"10\"/>", "cylinder", kPi * 40},
        {"<primitive type=\"cone\" radius=\"3\" height=\"4\"/>", "cone", kPi * 12},
        {"<primitive type=\"box\" size=\"1 2 3\"/>", "box", 6},
        {"<primitive type=\"torus\" majorRadius=\"10\" minorRadius=\"2\"/>", "torus", 2 * kPi * kPi * 40},
        {"<primitive type=\"capsule\" radius=\"1\" length=\"4\"/>", "capsule", kPi * 4 + 4.0 / 3 * kPi},
        {"<primitive type=\"Sphere\" radius=\"2\"/>", "sphere", 4.0 / 3 * kPi * 8},
    };
    for (const auto& c : cases) {
      b = bodyXml(dir, "p.xml", c.xml);
      QVERIFY(b.primitive);
      QCOMPARE(std::string(shapeTypeName(b.primitive->shape)), std::string(c.type));
      const auto mp = shapeMassProperties(b.primitive->shape);
      QVERIFY(mp && std::abs(mp->volume_mm3 - c.volume) < 1e-9 * c.volume);
    }
    b = bodyXml(dir, "ground.xml", "<primitive type=\"halfspace\"/>");
    QVERIFY(b.primitive && std::holds_alternative<HalfSpace>(b.primitive->shape));
    // Scale and offset apply to the primitive as to a mesh: p_body = Offset·Scale·p_shape.
    b = bodyXml(dir, "placed.xml",
                "<primitive type=\"cylinder\" radius=\"2\" height=\"10\"/><geometryScaling>3</geometryScaling>"
                "<geometryOffset><transform><translation>1 2 3</translation><rotation>90 x</rotation></transform>"
                "</geometryOffset>");
    QVERIFY(std::abs(shapeOf<Cylinder>(b).radius_mm - 6) < 1e-12);
    QVERIFY(std::abs(shapeOf<Cylinder>(b).height_mm - 30) < 1e-12);
    const Vec3 top = b.primitive->X_BS * Vec3(0, 0, 15);
    QVERIFY2((top - (Vec3(1, 2, 3) + Vec3(0, -15, 0))).norm() < 1e-9, qPrintable(QString("%1 %2 %3").arg(top.x()).arg(top.y()).arg(top.z())));
    for (const Vec3& v : b.mesh->vertices)  // the tessellation is placed the same way
      QVERIFY(std::abs(signedDistance(b.primitive->shape, b.primitive->X_BS.inverse() * v)) < 1e-9);
  }

  void writerRoundTrip() {
    QTemporaryDir dir;
    const Body b = bodyXml(dir, "cap.xml", "<primitive type=\"capsule\" radius=\"1.5\" length=\"4\"/><geometryScaling>2</geometryScaling>");
    const std::string xml = xmlio::bodyContentXml(b, dir.path().toStdString(), 2);
    QVERIFY2(xml.find("<primitive type=\"capsule\" radius=\"1.5\" length=\"4\"/>") != std::string::npos, xml.c_str());
    QVERIFY(xml.find("<geometryFile") == std::string::npos);
    const Body again = bodyXml(dir, "again.xml", QByteArray::fromStdString(xml));
    QCOMPARE(shapeOf<Capsule>(again).radius_mm, 3.0);
    QCOMPARE(shapeOf<Capsule>(again).length_mm, 8.0);
  }

  void badPrimitives() {
    QTemporaryDir dir;
    auto file = [&](const char* name, const char* children) {
      return writeFile(dir, name, QByteArray("<?xml version=\"1.0\"?>\n<root>\n") + children + "\n</root>\n");
    };
    expectLoadError(file("neg.xml", "<primitive type=\"sphere\" radius=\"-1\"/>"), "radius must be a finite number > 0");
    expectLoadError(file("nan.xml", "<primitive type=\"sphere\" radius=\"nan\"/>"), "not a finite number");
    expectLoadError(file("unknown.xml", "<primitive type=\"blob\" radius=\"1\"/>"), "unknown primitive type 'blob'");
    expectLoadError(file("notype.xml", "<primitive radius=\"1\"/>"), "needs a type attribute");
    expectLoadError(file("missing.xml", "<primitive type=\"cylinder\" radius=\"1\"/>"), "needs the attribute height");
    expectLoadError(file("axes.xml", "<primitive type=\"box\" size=\"1 2\"/>"), "three finite numbers");
    expectLoadError(file("torus.xml", "<primitive type=\"torus\" majorRadius=\"1\" minorRadius=\"2\"/>"),
                    "minor radius must be smaller");
    expectLoadError(file("both.xml", "<geometryFile>x.iv</geometryFile><primitive type=\"sphere\" radius=\"1\"/>"),
                    "either <geometryFile> or <primitive>");
    expectLoadError(file("squash.xml",
                         "<primitive type=\"torus\" majorRadius=\"5\" minorRadius=\"1\"/><geometryScalingX>2</geometryScalingX>"),
                    "cannot be scaled non-uniformly");
    expectLoadError(file("none.xml", "<material>wood</material>"), "geometryFile");
  }
};

QTEST_GUILESS_MAIN(TestPrimitiveIo)
#include "tst_primitive_io.moc"
