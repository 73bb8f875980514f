// Open Inventor and VRML geometry through Coin: primitives, transforms, units, VRML 1/2, bad input.
#include <QtTest>

#include <cmath>
#include <map>
#include <thread>
#include <utility>

#include "core/Error.h"
#include "geometry/MassProperties.h"
#include "io/MeshIO.h"
#include "MeshTestFiles.h"

using namespace sg;
using namespace sg::testfiles;

namespace {

const QByteArray kIvHeader = "#Inventor V2.1 ascii\n";

// V - E + F for a mesh; 2 for a closed, indexed, genus-0 surface. Also checks every edge has two faces.
int eulerCharacteristic(const TriangleMesh& m, bool* everyEdgeTwice = nullptr) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
  for (const auto& t : m.triangles)
    for (int k = 0; k < 3; ++k) {
      auto a = t[k], b = t[(k + 1) % 3];
      ++edges[{std::min(a, b), std::max(a, b)}];
    }
  if (everyEdgeTwice) {
    *everyEdgeTwice = true;
    for (const auto& [e, n] : edges) *everyEdgeTwice = *everyEdgeTwice && n == 2;
  }
  return int(m.vertexCount()) - int(edges.size()) + int(m.triangleCount());
}

bool isClosed(const TriangleMesh& m) {
  bool twice = false;
  const int chi = eulerCharacteristic(m, &twice);
  return twice && chi == 2;
}

// Every face normal points away from `inside` (true for convex solids around that point).
bool normalsPointAwayFrom(const TriangleMesh& m, const Vec3& inside) {
  for (std::size_t i = 0; i < m.triangleCount(); ++i) {
    const Vec3 c = (m.triangleVertex(i, 0) + m.triangleVertex(i, 1) + m.triangleVertex(i, 2)) / 3.0;
    if (m.faceNormals[i].dot(c - inside) <= 0) return false;
  }
  return true;
}

bool near(const Vec3& a, const Vec3& b, double tol) { return (a - b).norm() <= tol; }

double volumeOf(const TriangleMesh& m) {
  auto mp = computeMassProperties(m);
  return mp ? mp->volume_mm3 : 0.0;
}

}  // namespace

class TestInventorReader : public QObject {
  Q_OBJECT
 private slots:
  void cube() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "cube.iv", kIvHeader + "Separator { Cube { width 10 height 10 depth 10 } }\n"));
    QCOMPARE(m.triangleCount(), std::size_t(12));
    QCOMPARE(m.vertexCount(), std::size_t(8));  // corners merged into an indexed mesh
    QVERIFY(near(m.bounds.min, Vec3(-5, -5, -5), 1e-6));
    QVERIFY(near(m.bounds.max, Vec3(5, 5, 5), 1e-6));
    QVERIFY(isClosed(m));
    QVERIFY(std::abs(volumeOf(m) - 1000) < 1e-3);
    QVERIFY(normalsPointAwayFrom(m, Vec3::Zero()));
  }
  void sphereIsTessellatedAndClosed() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "sphere.iv", kIvHeader + "Sphere { radius 5 }\n"));
    QVERIFY(m.triangleCount() > 100);  // default complexity: a few hundred triangles
    QVERIFY(isClosed(m));              // seam and pole copies merged
    QVERIFY(m.bounds.max.maxCoeff() <= 5 + 1e-5 && m.bounds.max.minCoeff() > 4.5);
    QVERIFY(m.bounds.min.minCoeff() >= -5 - 1e-5 && m.bounds.min.maxCoeff() < -4.5);
    for (const auto& v : m.vertices) QVERIFY(std::abs(v.norm() - 5) < 1e-5);
    const double exact = 4.0 / 3.0 * kPi * 125;
    QVERIFY(volumeOf(m) > 0.9 * exact && volumeOf(m) < exact);
    QVERIFY(normalsPointAwayFrom(m, Vec3::Zero()));
  }
  void complexityInTheFileIsHonoured() {
    QTemporaryDir dir;
    auto coarse = readMesh(writeFile(dir, "a.iv", kIvHeader + "Sphere { radius 5 }\n"));
    auto fine = readMesh(writeFile(dir, "b.iv", kIvHeader + "Complexity { value 1.0 } Sphere { radius 5 }\n"));
    QVERIFY(fine.triangleCount() > coarse.triangleCount());
    QVERIFY(isClosed(fine));
  }
  void cylinderAndCone() {
    QTemporaryDir dir;
    auto cyl = readMesh(writeFile(dir, "cyl.iv", kIvHeader + "Cylinder { radius 5 height 10 }\n"));
    QVERIFY(isClosed(cyl));
    QVERIFY(std::abs(cyl.bounds.min.y() + 5) < 1e-6 && std::abs(cyl.bounds.max.y() - 5) < 1e-6);
    QVERIFY(volumeOf(cyl) > 0.9 * kPi * 25 * 10 && volumeOf(cyl) < kPi * 25 * 10);
    auto cone = readMesh(writeFile(dir, "cone.iv", kIvHeader + "Cone { bottomRadius 5 height 10 }\n"));
    QVERIFY(isClosed(cone));
    const double coneVolume = kPi * 25 * 10 / 3;
    QVERIFY(volumeOf(cone) > 0.9 * coneVolume && volumeOf(cone) < coneVolume);
  }
  void transformsAccumulateAndSeparatorsIsolate() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "t.iv", kIvHeader +
                                               "Separator {\n"
                                               "  Separator {\n"
                                               "    Transform { translation 100 0 0 }\n"
                                               "    Scale { scaleFactor 2 1 1 }\n"
                                               "    Cube { width 10 height 10 depth 10 }\n"
                                               "  }\n"
                                               "  Cube { width 2 height 2 depth 2 }  # outside the inner Separator\n"
                                               "}\n"));
    QCOMPARE(m.triangleCount(), std::size_t(24));
    QVERIFY(near(m.bounds.min, Vec3(-1, -5, -5), 1e-5));
    QVERIFY(near(m.bounds.max, Vec3(110, 5, 5), 1e-5));
    QVERIFY(std::abs(volumeOf(m) - (2000 + 8)) < 1e-2);
  }
  void unitsAreBakedIn() {
    QTemporaryDir dir;
    // Coin's default unit is the metre; a Units node rescales what follows.
    auto m = readMesh(writeFile(dir, "u.iv", kIvHeader + "Units { units MILLIMETERS }\nCube { width 10 height 10 depth 10 }\n"));
    QVERIFY(near(m.bounds.size(), Vec3(0.01, 0.01, 0.01), 1e-8));
  }
  void mirroringScaleKeepsOutwardWinding() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "m.iv", kIvHeader + "Transform { translation 20 0 0 scaleFactor -1 1 1 }\n"
                                                         "Cube { width 10 height 10 depth 10 }\n"));
    QVERIFY(near(m.bounds.center(), Vec3(20, 0, 0), 1e-5));
    QVERIFY(normalsPointAwayFrom(m, Vec3(20, 0, 0)));
    QVERIFY(std::abs(volumeOf(m) - 1000) < 1e-3);
  }
  void indexedFaceSet() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "ifs.iv", kIvHeader +
                                                 "Separator {\n"
                                                 "  Coordinate3 { point [ 0 0 0, 10 0 0, 10 10 0, 0 10 0,\n"
                                                 "                        0 0 10, 10 0 10, 10 10 10, 0 10 10 ] }\n"
                                                 "  IndexedFaceSet { coordIndex [ 0 3 2 1 -1, 4 5 6 7 -1, 0 1 5 4 -1,\n"
                                                 "                                2 3 7 6 -1, 1 2 6 5 -1, 0 4 7 3 -1 ] }\n"
                                                 "}\n"));
    QCOMPARE(m.triangleCount(), std::size_t(12));
    QCOMPARE(m.vertexCount(), std::size_t(8));
    QVERIFY(isClosed(m));
    auto mp = computeMassProperties(m);
    QVERIFY(mp);
    QVERIFY(std::abs(mp->volume_mm3 - 1000) < 1e-6);
    QVERIFY(near(mp->centroid_mm, Vec3(5, 5, 5), 1e-9));
    QVERIFY(normalsPointAwayFrom(m, Vec3(5, 5, 5)));
  }
  void unreadableTexturesAreWarningsNotErrors() {
    // Texture2 (Inventor) and ImageTexture (VRML 2) naming an image that is not there: the shape is read, and
    // the warning names the geometry file, the line of the texture node and the image as written.
    QTemporaryDir dir;
    const std::string iv = writeFile(dir, "floor.iv", kIvHeader + "Separator {\n  Texture2 { filename \"tex/none.jpg\" }\n"
                                                               "  Cube { width 10 height 10 depth 10 }\n}\n");
    const InventorGeometry a = readInventorGeometry(iv);
    QCOMPARE(a.mesh.triangleCount(), std::size_t(12));
    QCOMPARE(a.warnings.size(), std::size_t(1));
    QVERIFY2(a.warnings[0].rfind(iv + ":3: texture 'tex/none.jpg' not found", 0) == 0, a.warnings[0].c_str());
    QCOMPARE(readMesh(iv).triangleCount(), std::size_t(12));  // the plain reader does not throw either
    const std::string wrl = writeFile(dir, "box.wrl", "#VRML V2.0 utf8\nShape {\n  appearance Appearance { texture "
                                                      "ImageTexture { url \"tex/none.png\" } }\n"
                                                      "  geometry Box { size 10 10 10 }\n}\n");
    const InventorGeometry b = readInventorGeometry(wrl);
    QCOMPARE(b.mesh.triangleCount(), std::size_t(12));
    QCOMPARE(b.warnings.size(), std::size_t(1));
    QVERIFY2(b.warnings[0].rfind(wrl + ":3: texture 'tex/none.png' not found", 0) == 0, b.warnings[0].c_str());
    // A file without textures has no warnings; a real read error is still an error.
    QVERIFY(readInventorGeometry(writeFile(dir, "plain.iv", kIvHeader + "Cube { width 1 height 1 depth 1 }\n")).warnings.empty());
    QVERIFY_THROWS_EXCEPTION(Error, readInventorGeometry(writeFile(dir, "bad.iv", kIvHeader + "Cube { width one }\n")));
  }

  void fileReferenceResolvesNextToTheFile() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath("parts"));
    writeFile(dir, "parts/box.iv", kIvHeader + "Cube { width 4 height 4 depth 4 }\n");
    auto m = readMesh(writeFile(dir, "main.iv", kIvHeader + "Translation { translation 0 0 10 }\nFile { name \"parts/box.iv\" }\n"));
    QCOMPARE(m.triangleCount(), std::size_t(12));
    QVERIFY(near(m.bounds.center(), Vec3(0, 0, 10), 1e-5));
  }
  void referenceCyclesAreErrors() {
    // Coin would recurse until the stack overflows.
    QTemporaryDir dir;
    expectError(writeFile(dir, "self.iv", kIvHeader + "Cube { }\nFile { name \"self.iv\" }\n"), "cycle");
    writeFile(dir, "b.iv", kIvHeader + "Cube { }\nFile {\n  name \"a.iv\" }\n");
    expectError(writeFile(dir, "a.iv", kIvHeader + "Separator { File { name \"b.iv\" } }\n"), "cycle");
    expectError(writeFile(dir, "self.wrl", "#VRML V2.0 utf8\nShape { geometry Box { } }\nInline { url \"self.wrl\" }\n"),
                "cycle");
    // The same file twice, side by side, is not a cycle.
    writeFile(dir, "part.iv", kIvHeader + "Cube { width 2 height 2 depth 2 }\n");
    auto m = readMesh(writeFile(dir, "twice.iv", kIvHeader + "File { name \"part.iv\" }\n"
                                                             "Translation { translation 10 0 0 }\n"
                                                             "File { name \"part.iv\" }\n"));
    QCOMPARE(m.triangleCount(), std::size_t(24));
  }
  void vrml1() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "v1.wrl", "#VRML V1.0 ascii\n"
                                                "Separator { Translation { translation 0 0 20 }\n"
                                                "  Cube { width 10 height 10 depth 10 } }\n"));
    QCOMPARE(m.triangleCount(), std::size_t(12));
    QVERIFY(near(m.bounds.min, Vec3(-5, -5, 15), 1e-5));
    QVERIFY(near(m.bounds.max, Vec3(5, 5, 25), 1e-5));
  }
  void vrml2() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "v2.wrl",
                                "#VRML V2.0 utf8\n"
                                "Transform { translation 10 0 0 scale 2 2 2\n"
                                "  children [ Shape { geometry Box { size 10 10 10 } } ] }\n"
                                "Transform { translation 100 0 0 children [\n"
                                "  Shape { geometry IndexedFaceSet {\n"
                                "    coord Coordinate { point [ 0 0 0, 10 0 0, 0 10 0, 0 0 10 ] }\n"
                                "    coordIndex [ 0 2 1 -1, 0 1 3 -1, 0 3 2 -1, 1 2 3 -1 ] } } ] }\n"));
    QCOMPARE(m.triangleCount(), std::size_t(12 + 4));
    QVERIFY(near(m.bounds.min, Vec3(0, -10, -10), 1e-5));
    QVERIFY(near(m.bounds.max, Vec3(110, 10, 10), 1e-5));
    QVERIFY(std::abs(volumeOf(m) - (8000 + 1000.0 / 6)) < 1e-2);
  }
  void vrml2InlineResolvesNextToTheFile() {
    QTemporaryDir dir;
    writeFile(dir, "part.wrl", "#VRML V2.0 utf8\nShape { geometry Box { size 2 2 2 } }\n");
    auto m = readMesh(writeFile(dir, "main.wrl", "#VRML V2.0 utf8\n"
                                                 "Transform { translation 0 5 0 children [ Inline { url \"part.wrl\" } ] }\n"));
    QCOMPARE(m.triangleCount(), std::size_t(12));
    QVERIFY(near(m.bounds.center(), Vec3(0, 5, 0), 1e-5));
  }
  void badInput() {
    QTemporaryDir dir;
    expectError(dir.filePath("missing.iv").toStdString(), "cannot open");
    QVERIFY(QDir(dir.path()).mkdir("folder.wrl"));
    expectError(dir.filePath("folder.wrl").toStdString(), "directory");
    expectError(writeFile(dir, "garbage.iv", "this is not an inventor file { at all\n"));
    // The length comes from the literal itself (13 bytes; the embedded NUL stops strlen): a fixed count read past it.
    static constexpr char kBinary[] = "\x00\x01\x02\xff\xfe garbage";
    expectError(writeFile(dir, "binary.iv", QByteArray(kBinary, sizeof kBinary - 1)));
    expectError(writeFile(dir, "empty.iv", ""));
    expectError(writeFile(dir, "truncated.iv", kIvHeader + "Separator { Cube { width 10 height 10 "));
    expectError(writeFile(dir, "badfield.iv", kIvHeader + "Separator { Cube { width abc } }\n"), ":2:");
    expectError(writeFile(dir, "unknown.iv", kIvHeader + "Separator { NoSuchNode { } }\n"));
    expectError(writeFile(dir, "noshape.iv", kIvHeader + "Separator { Material { } }\n"), "no");
    expectError(writeFile(dir, "lines.iv", kIvHeader + "Coordinate3 { point [0 0 0, 1 0 0] } LineSet { }\n"), "no");
    expectError(writeFile(dir, "truncated.wrl", "#VRML V2.0 utf8\nShape { geometry Box { size 1 1 "));
    expectError(writeFile(dir, "missingref.iv", kIvHeader + "File { name \"nowhere.iv\" }\n"), "nowhere.iv");
  }
  // Inputs that crashed or hung Coin are refused before Coin reads them.
  void deepNestingIsRefusedBeforeCoinRecurses() {
    QTemporaryDir dir;
    QByteArray iv = kIvHeader;
    for (int i = 0; i < 12000; ++i) iv += "Separator {\n";
    iv += "Cube { }\n";
    for (int i = 0; i < 12000; ++i) iv += "}\n";
    expectError(writeFile(dir, "deep.iv", iv), "nesting deeper than");
    QByteArray wrl = "#VRML V2.0 utf8\n";
    for (int i = 0; i < 6000; ++i) wrl += "Transform { children [\n";
    wrl += "Shape { geometry Box { } }\n";
    for (int i = 0; i < 6000; ++i) wrl += "] }\n";
    expectError(writeFile(dir, "deep.wrl", wrl), "nesting deeper than");
    // Nesting adds up through includes: 300 levels here + 300 in the included file.
    QByteArray half = kIvHeader, outer = kIvHeader;
    for (int i = 0; i < 300; ++i) half += "Separator {\n", outer += "Separator {\n";
    half += "Cube { }\n";
    outer += "File { name \"half.iv\" }\n";
    for (int i = 0; i < 300; ++i) half += "}\n", outer += "}\n";
    const auto halfPath = writeFile(dir, "half.iv", half);
    QCOMPARE(readMesh(halfPath).triangleCount(), std::size_t(12));  // 300 levels alone are fine
    expectError(writeFile(dir, "outer.iv", outer), "nesting deeper than");
  }
  void selfReferencesAreRefused() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "defuse.iv", kIvHeader + "DEF A Separator {\n Cube { }\n USE A\n}\n"), ":4:");
    expectError(writeFile(dir, "defuse2.wrl", "#VRML V2.0 utf8\nDEF T Transform { children [ Shape { geometry Box { } }"
                                              " Group { children [ USE T ] } ] }\n"),
                "USE T inside DEF T");
    // A USE after its DEF closed, or of an inner redefinition, is an ordinary shared node.
    const auto ok = writeFile(dir, "shared.iv", kIvHeader + "DEF A Separator { DEF B Cube { } USE B }\nUSE A\n");
    QVERIFY(readMesh(ok).triangleCount() > 0);
    expectError(writeFile(dir, "proto.wrl", "#VRML V2.0 utf8\nPROTO P [ ] { Group { children [ P { } ] } }\n"
                                            "Shape { geometry Box { } }\nP { }\n"),
                "recursive PROTO");
    expectError(writeFile(dir, "proto2.wrl", "#VRML V2.0 utf8\nPROTO Q [ ] { R { } }\nPROTO R [ ] { Q { } }\nQ { }\n"),
                "recursive PROTO");
    expectError(writeFile(dir, "extern.wrl", "#VRML V2.0 utf8\nEXTERNPROTO E [ ] \"e.wrl#E\"\n"), "EXTERNPROTO");
  }
  void includesFollowCoinsSearchOrder() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    // sub/a.iv names "top.iv": Coin finds it in the top-level file's directory (after sub/), so this is a cycle
    // even though nothing called top.iv sits next to sub/a.iv.
    writeFile(dir, "sub/a.iv", kIvHeader + "Separator { File { name \"top.iv\" } }\n");
    expectError(writeFile(dir, "top.iv", kIvHeader + "Separator { Cube { } File { name \"sub/a.iv\" } }\n"), "cycle");
    // The including file's directory comes first: sub/b.iv (a cone) wins over b.iv (a cube).
    writeFile(dir, "sub/b.iv", kIvHeader + "Cone { }\n");
    writeFile(dir, "b.iv", kIvHeader + "Cube { }\n");
    writeFile(dir, "sub/c.iv", kIvHeader + "File { name \"b.iv\" }\n");
    const auto m = readMesh(writeFile(dir, "useb.iv", kIvHeader + "File { name \"sub/c.iv\" }\n"));
    QVERIFY(m.triangleCount() != 12);
  }
  void includeFanOutAndSpecialFilesAreRefused() {
    QTemporaryDir dir;
    // 12 levels, each naming the next twice: 4096 expansions for Coin.
    writeFile(dir, "f12.iv", kIvHeader + "Cube { }\n");
    for (int i = 11; i >= 0; --i)
      writeFile(dir, QString("f%1.iv").arg(i),
                kIvHeader + "Separator { File { name \"f" + QByteArray::number(i + 1) + ".iv\" } File { name \"f" +
                    QByteArray::number(i + 1) + ".iv\" } }\n");
    QElapsedTimer timer;
    timer.start();
    expectError(dir.filePath("f0.iv").toStdString(), "includes in all");
    QVERIFY(timer.elapsed() < 5000);
    expectError(writeFile(dir, "zero.iv", kIvHeader + "Separator { Cube { } File { name \"/dev/zero\" } }\n"),
                "not a regular file");
    QVERIFY(QDir(dir.path()).mkdir("adir"));
    expectError(writeFile(dir, "dirref.iv", kIvHeader + "Separator { Cube { } File { name \"adir\" } }\n"), "not found");
    // A missing include is an error even when the rest of the file has triangles (src/io/DEVIATIONS.md).
    expectError(writeFile(dir, "missing2.iv", kIvHeader + "Separator { Cube { } File { name \"gone.iv\" } }\n"),
                "gone.iv");
    expectError(writeFile(dir, "inl.wrl", "#VRML V2.0 utf8\nShape { geometry Box { } }\nInline { url [ \"gone.wrl\" ] }\n"),
                "gone.wrl");
    expectError(writeFile(dir, "bin.iv", "#Inventor V2.1 binary\n\x01\x02\x03"), "binary");
    // The top-level file itself must be a regular file.
    try {
      (void)readInventorMesh("/dev/zero");
      QFAIL("/dev/zero was read");
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find("not a regular file") != std::string::npos, e.what());
    }
  }
  void includesAreReadWithTheirOwnNames() {
    QTemporaryDir dir;
    // Coin reads an included file with its own table of names and drops the include when that read fails:
    // both must be errors naming the included file, not a model with a part missing (src/io/DEVIATIONS.md).
    writeFile(dir, "leaf_use.iv", kIvHeader + "Separator { Translation { translation 10 0 0 } USE Z }\n");
    const auto includer =
        writeFile(dir, "includer.iv", kIvHeader + "Separator { DEF Z Cube { } File { name \"leaf_use.iv\" } }\n");
    expectError(includer, "USE Z without an earlier DEF Z");
    expectError(includer, "leaf_use.iv");
    expectError(writeFile(dir, "later.iv", kIvHeader + "Separator { USE L DEF L Cube { } }\n"), "USE L without");
    // A syntax error inside an include (which the guard does not parse field by field) is reported by Coin
    // while it reads the include; it names the included file and the includer.
    writeFile(dir, "leaf_bad.iv", kIvHeader + "Separator { Cube { bogusField 3 } }\n");
    const auto bad = writeFile(dir, "bad_includer.iv", kIvHeader + "Separator { Cube { } File { name \"leaf_bad.iv\" } }\n");
    expectError(bad, "bogusField");
    expectError(bad, "leaf_bad.iv");
    expectError(bad, "included from");
    // DEF and USE in the same file still share the node.
    const auto ok = writeFile(dir, "two_cubes.iv",
                              kIvHeader + "Separator { DEF C Cube { } Translation { translation 5 0 0 } USE C }\n");
    QCOMPARE(readMesh(ok).triangleCount(), std::size_t(24));
  }
  void nurbsGiveAClearError() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "nurbs.iv", kIvHeader +
                                            "Separator { Coordinate3 { point [0 0 0, 1 0 0, 0 1 0, 1 1 0] }\n"
                                            " NurbsSurface { numUControlPoints 2 numVControlPoints 2\n"
                                            "  uKnotVector [0 0 1 1] vKnotVector [0 0 1 1] } }\n"),
                "NURBS");
  }
  void indicesCoinWouldReadOutOfBoundsAreErrors() {
    // Coin trusts these indices and crashes on them; the reader must report them instead.
    QTemporaryDir dir;
    const QByteArray tri = "Coordinate3 { point [0 0 0, 1 0 0, 0 1 0] }\n";
    const QByteArray v2 = "#VRML V2.0 utf8\n";
    const QByteArray vrmlCoords = "coord Coordinate { point [0 0 0, 1 0 0, 0 1 0] } ";
    const struct { const char* name; QByteArray text; const char* fragment; } cases[] = {
        {"ifs.iv", kIvHeader + tri + "IndexedFaceSet { coordIndex [0 1 2 -1, 0 1 100000 -1] }\n", "coordIndex"},
        {"faceset.iv", kIvHeader + tri + "FaceSet { numVertices [3, 3] }\n", "FaceSet"},
        {"strip.iv", kIvHeader + tri + "IndexedTriangleStripSet { coordIndex [0 1 2 7000000 -1] }\n", "coordIndex"},
        {"quadmesh.iv", kIvHeader + tri + "QuadMesh { verticesPerColumn 1000 verticesPerRow 1000 }\n", "QuadMesh"},
        {"start.iv", kIvHeader + tri + "TriangleStripSet { numVertices [3] startIndex 2 }\n", "TriangleStripSet"},
        {"vp.iv", kIvHeader + "IndexedFaceSet { vertexProperty VertexProperty { vertex [0 0 0, 1 0 0, 0 1 0] }\n"
                               "  coordIndex [0 1 2 -1, 0 2 8000000 -1] }\n", "coordIndex"},
        {"normals.iv", kIvHeader + tri + "Normal { vector [0 0 1] }\nNormalBinding { value PER_VERTEX_INDEXED }\n"
                                          "IndexedFaceSet { coordIndex [0 1 2 -1] normalIndex [0 5000000 0 -1] }\n",
         "normalIndex"},
        {"vpnormals.iv", kIvHeader + "IndexedFaceSet { vertexProperty VertexProperty { vertex [0 0 0, 1 0 0, 0 1 0]\n"
                                    "  normal [0 0 1] } coordIndex [0 1 2 -1] normalIndex [0 9000000 0 -1] }\n",
         "normalIndex"},
        {"ifs.wrl", v2 + "Shape { geometry IndexedFaceSet { " + vrmlCoords + "coordIndex [0 1 2 -1 0 2 50000000 -1] } }\n",
         "coordIndex"},
        {"normals.wrl", v2 + "Shape { geometry IndexedFaceSet { " + vrmlCoords +
                            "normal Normal { vector [0 0 1] } normalIndex [0 9000000 0 -1] coordIndex [0 1 2 -1] } }\n",
         "normalIndex"},
        {"texcoords.wrl", v2 + "Shape { geometry IndexedFaceSet { " + vrmlCoords +
                              "texCoord TextureCoordinate { point [0 0] } texCoordIndex [0 9000000 0 -1]"
                              " coordIndex [0 1 2 -1] } }\n",
         "texCoordIndex"},
        {"nocoord.wrl", v2 + "Shape { geometry IndexedFaceSet { coordIndex [0 1 2 -1] } }\n", "coordIndex"},
        {"grid.wrl", v2 + "Shape { geometry ElevationGrid { xDimension 1000 zDimension 1000 height [0 1 2] } }\n",
         "ElevationGrid"},
    };
    for (const auto& c : cases) expectError(writeFile(dir, c.name, c.text), c.fragment);
  }
  void truncationNeverCrashes() {
    QTemporaryDir dir;
    const QByteArray files[] = {
        kIvHeader + "Separator { Transform { translation 1 2 3 } Cube { width 2 } Coordinate3 { point [0 0 0, 1 0 0, 0 1 0] }"
                    " IndexedFaceSet { coordIndex [0 1 2 -1] } }\n",
        "#VRML V2.0 utf8\nTransform { children [ Shape { geometry Box { size 1 2 3 } } Shape { geometry IndexedFaceSet {"
        " coord Coordinate { point [0 0 0, 1 0 0, 0 1 0] } coordIndex [0 1 2 -1] } } ] }\n"};
    int ok = 0, errors = 0;
    for (const QByteArray& full : files)
      for (qsizetype n = 0; n <= full.size(); ++n) {
        try {
          (void)readMesh(writeFile(dir, "cut.iv", full.left(n)));
          ++ok;
        } catch (const Error&) {
          ++errors;
        }
      }
    QVERIFY(ok >= 2);  // at least the complete files
    QVERIFY(errors > 100);
  }
  void concurrentReadsAreSerializedAndAgree() {
    QTemporaryDir dir;
    const auto path = writeFile(dir, "s.iv", kIvHeader + "Separator { Transform { translation 1 2 3 } Sphere { radius 4 } }\n");
    const TriangleMesh reference = readMesh(path);
    std::vector<TriangleMesh> results(4);
    std::vector<std::thread> threads;
    for (auto& r : results)
      threads.emplace_back([&path, &r] {
        for (int i = 0; i < 5; ++i) r = readInventorMesh(path);
      });
    for (auto& t : threads) t.join();
    for (const auto& r : results) QCOMPARE(r.vertices, reference.vertices);
  }
  void readingTwiceGivesTheSameMesh() {
    QTemporaryDir dir;
    const auto path = writeFile(dir, "s.iv", kIvHeader + "Sphere { radius 3 }\n");
    auto a = readMesh(path);
    auto b = readInventorMesh(path);
    QCOMPARE(a.triangleCount(), b.triangleCount());
    QCOMPARE(a.vertices, b.vertices);
  }
};

QTEST_GUILESS_MAIN(TestInventorReader)
#include "tst_inventor_reader.moc"
