// OFF, PLY, STL and OBJ readers and the mesh writers on small hand-written files.
#include <QtTest>

#include <QDataStream>

#include <cmath>
#include <limits>

#include "core/Error.h"
#include "geometry/MassProperties.h"
#include "io/MeshIO.h"
#include "MeshTestFiles.h"

using namespace sg;
using namespace sg::testfiles;

namespace {

// Asserts the mesh is the closed, outward-oriented cube [min, min+size]³ with 12 triangles.
void checkCube(const TriangleMesh& m, const Vec3& min = Vec3::Zero(), double size = 10) {
  QCOMPARE(m.triangleCount(), std::size_t(12));
  QCOMPARE(m.vertexCount(), std::size_t(8));
  QVERIFY((m.bounds.min - min).norm() < 1e-9 * size);
  QVERIFY((m.bounds.max - (min + Vec3::Constant(size))).norm() < 1e-9 * size);
  auto mp = computeMassProperties(m);
  QVERIFY(mp.has_value());
  QVERIFY(std::abs(mp->volume_mm3 - size * size * size) < 1e-9 * size * size * size);
  QVERIFY((mp->centroid_mm - (min + Vec3::Constant(size / 2))).norm() < 1e-9 * size);
  // Outward orientation: the signed volume is positive and every normal points away from the centre.
  double signedVolume = 0;
  for (const auto& t : m.triangles)
    signedVolume += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6.0;
  QVERIFY(signedVolume > 0);
  for (std::size_t i = 0; i < m.triangleCount(); ++i)
    QVERIFY(m.faceNormals[i].dot(m.triangleVertex(i, 0) - mp->centroid_mm) > 0);
}

// The cube as 12 triangles (quads split along 0-2) for soup formats.
TriangleMesh cubeTriangles() {
  TriangleMesh m;
  for (const auto& c : kCubeCorners) m.vertices.emplace_back(c[0], c[1], c[2]);
  for (const auto& q : kCubeQuads) {
    m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[1]), std::uint32_t(q[2])});
    m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[2]), std::uint32_t(q[3])});
  }
  m.finalize();
  return m;
}

QByteArray asciiStlCube() {
  const TriangleMesh m = cubeTriangles();
  QByteArray s = "solid cube\n";
  for (std::size_t i = 0; i < m.triangleCount(); ++i) {
    s += "facet normal 0 0 0\n  outer loop\n";
    for (int c = 0; c < 3; ++c) {
      const Vec3 v = m.triangleVertex(i, c);
      s += QByteArray("    vertex ") + QByteArray::number(v.x()) + " " + QByteArray::number(v.y()) + " " +
           QByteArray::number(v.z()) + "\n";
    }
    s += "  endloop\nendfacet\n";
  }
  return s + "endsolid cube\n";
}

// A binary PLY of the cube: float vertices with an extra uchar colour, quads as `listCount`/`listItem`
// lists, and an extra element with a list property that must be skipped.
QByteArray binaryPlyCube(QDataStream::ByteOrder order, bool doubles) {
  QByteArray bytes = QByteArray("ply\nformat ") +
                     (order == QDataStream::LittleEndian ? "binary_little_endian" : "binary_big_endian") +
                     " 1.0\ncomment test cube\n"
                     "element vertex 8\n" +
                     (doubles ? "property double x\nproperty double y\nproperty double z\n"
                              : "property float x\nproperty float y\nproperty float z\n") +
                     "property uchar red\n"
                     "element face 6\nproperty list uchar int vertex_indices\nproperty short flags\n"
                     "element extra 2\nproperty list ushort double values\nproperty int id\n"
                     "end_header\n";
  QDataStream out(&bytes, QIODevice::Append);
  out.setByteOrder(order);
  out.setFloatingPointPrecision(doubles ? QDataStream::DoublePrecision : QDataStream::SinglePrecision);
  for (const auto& c : kCubeCorners) {
    for (double x : c) {
      if (doubles) out << x;
      else out << float(x);
    }
    out << quint8(200);
  }
  for (const auto& q : kCubeQuads) {
    out << quint8(4);
    for (int i : q) out << qint32(i);
    out << qint16(-7);
  }
  out.setFloatingPointPrecision(QDataStream::DoublePrecision);
  out << quint16(3) << 1.0 << 2.0 << 3.0 << qint32(1);
  out << quint16(0) << qint32(2);
  return bytes;
}

}  // namespace

class TestMeshReaders : public QObject {
  Q_OBJECT
 private slots:
  void formatDetection() {
    QCOMPARE(meshFormatFromType(""), MeshFormat::Inventor);
    QCOMPARE(meshFormatFromType("Inventor"), MeshFormat::Inventor);
    QCOMPARE(meshFormatFromType("OFF"), MeshFormat::Off);
    QCOMPARE(meshFormatFromType("ply"), MeshFormat::Ply);
    QCOMPARE(meshFormatFromType("Stl"), MeshFormat::Stl);
    QCOMPARE(meshFormatFromType("obj"), MeshFormat::Obj);
    QCOMPARE(meshFormatFromType("dae"), MeshFormat::Unknown);
    QCOMPARE(meshFormatFromPath("a/b.IV"), MeshFormat::Inventor);
    QCOMPARE(meshFormatFromPath("x.wrl"), MeshFormat::Inventor);
    QCOMPARE(meshFormatFromPath("x.off"), MeshFormat::Off);
    QCOMPARE(meshFormatFromPath("x.ply"), MeshFormat::Ply);
    QCOMPARE(meshFormatFromPath("x.stl"), MeshFormat::Stl);
    QCOMPARE(meshFormatFromPath("x.obj"), MeshFormat::Obj);
    QCOMPARE(meshFormatFromPath("dir.v2/file"), MeshFormat::Unknown);
    QCOMPARE(meshTypeName(MeshFormat::Off), std::string("off"));
    for (auto f : {MeshFormat::Inventor, MeshFormat::Off, MeshFormat::Ply, MeshFormat::Stl, MeshFormat::Obj})
      QCOMPARE(meshFormatFromType(meshTypeName(f)), f);
  }
  void explicitFormatOverridesExtension() {
    QTemporaryDir dir;
    checkCube(readMesh(writeFile(dir, "cube.txt", kCubeOff), MeshFormat::Off));
  }
  void unknownExtensionAndMissingFile() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "a.xyz", "1 2 3"), "unknown");
    expectError(dir.filePath("missing.off").toStdString(), "cannot open");
    expectError(dir.filePath("missing.stl").toStdString(), "cannot open");
    expectError(dir.filePath("missing.ply").toStdString(), "cannot open");
    expectError(dir.filePath("missing.obj").toStdString(), "cannot open");
    QVERIFY(QDir(dir.path()).mkdir("folder.off"));
    expectError(dir.filePath("folder.off").toStdString(), "directory");
  }

  // --- OFF ---
  void offCube() {
    QTemporaryDir dir;
    checkCube(readMesh(writeFile(dir, "cube.off", kCubeOff)));
    checkCube(readOffMesh(writeFile(dir, "cube.txt", kCubeOff)));
  }
  void offHeaderVariants() {
    QTemporaryDir dir;
    // Counts on the keyword line, COFF with vertex colours, CRLF line ends, face colours.
    const char* coff =
        "COFF 4 1 0\r\n0 0 0 255 0 0 255\r\n1 0 0 255 0 0 255\r\n1 1 0 1 1 1 1\r\n0 1 0 1 1 1 1\r\n"
        "4 0 1 2 3 0.5 0.5 0.5\r\n";
    auto m = readMesh(writeFile(dir, "quad.off", coff));
    QCOMPARE(m.triangleCount(), std::size_t(2));
    QVERIFY(std::abs(m.surfaceArea() - 1.0) < 1e-12);
    // NOFF: vertex normals after the coordinates.
    auto n = readMesh(writeFile(dir, "n.off", "NOFF\n3 1 0\n0 0 0 0 0 1\n1 0 0 0 0 1\n0 1 0 0 0 1\n3 0 1 2\n"));
    QCOMPARE(n.triangleCount(), std::size_t(1));
    QVERIFY(n.faceNormals[0].isApprox(Vec3::UnitZ()));
    // No keyword at all, pentagon fanned into three triangles.
    auto p = readMesh(writeFile(dir, "pent.off", "5 1\n0 0 0\n2 0 0\n2 1 0\n1 2 0\n0 1 0\n5 0 1 2 3 4\n"));
    QCOMPARE(p.triangleCount(), std::size_t(3));
    QVERIFY(std::abs(p.surfaceArea() - 3.0) < 1e-12);
  }
  void duplicateVerticesMergedUnusedDropped() {
    QTemporaryDir dir;
    // Vertex 3 repeats vertex 0; vertex 5 is used by no face.
    auto m = readMesh(writeFile(dir, "dup.off", "OFF\n6 2 0\n0 0 0\n1 0 0\n1 1 0\n0 0 0\n0 1 0\n9 9 9\n"
                                                "3 0 1 2\n3 3 2 4\n"));
    QCOMPARE(m.vertexCount(), std::size_t(4));
    QCOMPARE(m.vertices[3], Vec3(0, 1, 0));  // file order kept
    QCOMPARE(m.triangles[1][0], m.triangles[0][0]);  // both triangles share the corner now
    QVERIFY(m.bounds.max.isApprox(Vec3(1, 1, 0)));
    QVERIFY(std::abs(maxRadius(m, Vec3::Zero()) - std::sqrt(2.0)) < 1e-12);
  }
  void byteOrderMarkIsSkipped() {
    QTemporaryDir dir;
    checkCube(readMesh(writeFile(dir, "bom.off", QByteArray("\xEF\xBB\xBF") + kCubeOff)));
  }
  void offDropsDegenerateTriangles() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "d.off",
                                "OFF\n4 3 0\n0 0 0\n1 0 0\n0 1 0\n2 0 0\n3 0 1 2\n3 0 1 3\n3 0 0 2\n"));
    QCOMPARE(m.triangleCount(), std::size_t(1));
  }
  void offBadInput() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "garbage.off", "\x01\x02garbage\nmore garbage\n"));
    expectError(writeFile(dir, "trunc.off", "OFF\n8 6 0\n0 0 0\n1 0 0\n"), "truncated");
    expectError(writeFile(dir, "trunc.off", "OFF\n8 6 0\n0 0 0\n1 0 0\n"), ":4:");
    expectError(writeFile(dir, "counts.off", "OFF\n3 x\n"), ":2:");
    expectError(writeFile(dir, "range.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"), ":6:");
    expectError(writeFile(dir, "range.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"), "out of range");
    expectError(writeFile(dir, "nan.off", "OFF\n3 1 0\n0 0 0\nnan 0 0\n0 1 0\n3 0 1 2\n"), ":4:");
    expectError(writeFile(dir, "inf.off", "OFF\n3 1 0\n0 0 0\ninf 0 0\n0 1 0\n3 0 1 2\n"), "finite");
    expectError(writeFile(dir, "shortface.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n"), ":6:");
    expectError(writeFile(dir, "degenerate.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2\n"), "no");
    expectError(writeFile(dir, "huge.off", "OFF\n2000000000 2000000000 0\n0 0 0\n"), "truncated");
    expectError(writeFile(dir, "empty.off", ""));
  }

  // --- STL ---
  void stlAscii() {
    QTemporaryDir dir;
    checkCube(readMesh(writeFile(dir, "cube.stl", asciiStlCube())));  // duplicate corners merged
  }
  void stlAsciiUpperCaseKeywords() {
    QTemporaryDir dir;
    checkCube(readMesh(writeFile(dir, "CUBE.STL", asciiStlCube().toUpper())));
  }
  void stlBinaryRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("cube.stl").toStdString();
    writeBinaryStlMesh(cubeTriangles(), path);
    QCOMPARE(QFileInfo(QString::fromStdString(path)).size(), qint64(84 + 50 * 12));
    checkCube(readMesh(path));
    // Rewriting replaces the file atomically and leaves no temporary behind.
    TriangleMesh moved = cubeTriangles();
    moved.transform(Mat3::Identity(), Vec3(1, 2, 3));
    writeBinaryStlMesh(moved, path);
    checkCube(readStlMesh(path), Vec3(1, 2, 3));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"cube.stl"});
  }
  void stlAsciiRoundTrip() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("cube.stl").toStdString();
    writeAsciiStlMesh(cubeTriangles(), path);
    checkCube(readMesh(path));
  }
  void stlBinaryWhoseHeaderSaysSolid() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("cube.stl").toStdString();
    writeBinaryStlMesh(cubeTriangles(), path);
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadWrite));
    f.write("solid exported by a CAD tool");  // binary detection is by size, not by keyword
    f.close();
    checkCube(readMesh(path));
  }
  void stlBadInput() {
    QTemporaryDir dir;
    const std::string good = dir.filePath("good.stl").toStdString();
    writeBinaryStlMesh(cubeTriangles(), good);
    QFile f(QString::fromStdString(good));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    expectError(writeFile(dir, "trunc.stl", bytes.left(bytes.size() - 20)), "truncated");
    QByteArray nan = bytes;
    const float qnan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(nan.data() + 84 + 50 * 3 + 12, &qnan, 4);
    expectError(writeFile(dir, "nan.stl", nan), "triangle 3");
    expectError(writeFile(dir, "garbage.stl", "garbage, not an stl file"));
    expectError(writeFile(dir, "garbage2.stl", QByteArray(200, '\x07')));
    const QByteArray ascii = asciiStlCube();
    expectError(writeFile(dir, "trunc_ascii.stl", ascii.left(ascii.indexOf("endloop", 200))), "truncated");
    QByteArray asciiNan = ascii;
    asciiNan.replace("vertex 0 0 0", "vertex 0 nan 0");
    expectError(writeFile(dir, "nan_ascii.stl", asciiNan), ":4:");
    expectError(writeFile(dir, "bad_ascii.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                                                "endloop\nendfacet\nendsolid\n"),
                ":6:");
    expectError(writeFile(dir, "empty_ascii.stl", "solid x\nendsolid x\n"), "no");
  }

  // --- PLY ---
  void plyAscii() {
    QTemporaryDir dir;
    QByteArray ply =
        "ply\nformat ascii 1.0\ncomment a cube\nobj_info made by hand\n"
        "element vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
        "property float nx\nproperty uchar red\n"
        "element face 6\nproperty list uchar int vertex_indices\n"
        "element edge 1\nproperty int vertex1\nproperty int vertex2\nend_header\n";
    for (const auto& c : kCubeCorners) ply += QByteArray::number(c[0]) + " " + QByteArray::number(c[1]) + " " +
                                              QByteArray::number(c[2]) + " nan 255\n";  // unused: may be nan
    for (const auto& q : kCubeQuads)
      ply += "4 " + QByteArray::number(q[0]) + " " + QByteArray::number(q[1]) + " " + QByteArray::number(q[2]) +
             " " + QByteArray::number(q[3]) + "\n";
    ply += "0 1\n";
    checkCube(readMesh(writeFile(dir, "cube.ply", ply)));
  }
  void plyBinaryBothEndiannesses() {
    QTemporaryDir dir;
    checkCube(readMesh(writeFile(dir, "le.ply", binaryPlyCube(QDataStream::LittleEndian, false))));
    checkCube(readMesh(writeFile(dir, "be.ply", binaryPlyCube(QDataStream::BigEndian, false))));
    checkCube(readMesh(writeFile(dir, "led.ply", binaryPlyCube(QDataStream::LittleEndian, true))));
    checkCube(readMesh(writeFile(dir, "bed.ply", binaryPlyCube(QDataStream::BigEndian, true))));
  }
  void plyTriangleStrips() {
    QTemporaryDir dir;
    // A unit square as one strip (0 1 2 3) plus a restart and a degenerate remainder.
    auto m = readMesh(writeFile(dir, "strip.ply",
                                "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
                                "property float z\nelement tristrips 1\nproperty list int int vertex_indices\n"
                                "end_header\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n6 0 1 2 3 -1 0\n"));
    QCOMPARE(m.triangleCount(), std::size_t(2));
    QVERIFY(std::abs(m.surfaceArea() - 1) < 1e-12);
    for (const auto& n : m.faceNormals) QVERIFY(n.isApprox(Vec3::UnitZ()));  // consistent winding
  }
  void plyRoundTrips() {
    QTemporaryDir dir;
    const TriangleMesh cube = cubeTriangles();
    for (bool binary : {true, false}) {
      const std::string path = dir.filePath(binary ? "b.ply" : "a.ply").toStdString();
      writePlyMesh(cube, path, binary);
      const TriangleMesh back = readMesh(path);
      checkCube(back);
      QCOMPARE(back.vertices, cube.vertices);  // doubles survive exactly
      QCOMPARE(back.triangles, cube.triangles);
    }
  }
  // A 2 KB file declaring billions of items must not keep the reader busy for ever.
  void plyElementCountsAreBoundedByTheFileSize() {
    QTemporaryDir dir;
    const QByteArray tri = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    const QByteArray head = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                            "property float z\nelement face 1\nproperty list uchar int vertex_indices\n";
    QElapsedTimer timer;
    timer.start();
    // Items without properties hold no data: skipped, however many there are.
    const auto m = readMesh(writeFile(dir, "empty_element.ply", head + "element junk 4000000000\nend_header\n" + tri));
    QCOMPARE(m.triangleCount(), std::size_t(1));
    expectError(writeFile(dir, "many_faces.ply",
                          "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
                          "property float y\nproperty float z\nelement face 4000000000\n"
                          "property list uchar int vertex_indices\nend_header\n" + QByteArray(36 + 13, '\0')),
                "more than the 49 bytes of data can hold");
    expectError(writeFile(dir, "many_junk.ply", head + "element junk 3000000000\nproperty double a\nend_header\n" + tri),
                "'junk' items");
    QVERIFY(timer.elapsed() < 5000);
  }
  void plyBadInput() {
    QTemporaryDir dir;
    const QByteArray header =
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
        "element face 1\nproperty list uchar int vertex_indices\nend_header\n";
    expectError(writeFile(dir, "range.ply", header + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"), ":13:");
    expectError(writeFile(dir, "range2.ply", header + "0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"), "out of range");
    expectError(writeFile(dir, "nan.ply", header + "0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n"), ":11:");
    expectError(writeFile(dir, "trunc.ply", header + "0 0 0\n1 0 0\n"), "truncated");
    expectError(writeFile(dir, "hugelist.ply", header + "0 0 0\n1 0 0\n0 1 0\n1e308 0 1 2\n"), "bad list length 1e+308");
    expectError(writeFile(dir, "garbage.ply", "garbage\n"), "not a PLY");
    expectError(writeFile(dir, "noend.ply", "ply\nformat ascii 1.0\nelement vertex 3\n"), "end_header");
    expectError(writeFile(dir, "badtype.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty quad x\nend_header\n"),
                ":4:");
    expectError(writeFile(dir, "noz.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"
                                          "property float y\nend_header\n0 0\n"),
                "'z'");
    const QByteArray bin = binaryPlyCube(QDataStream::LittleEndian, false);
    expectError(writeFile(dir, "trunc_bin.ply", bin.left(bin.size() - 40)), "truncated");
    QByteArray binNan = binaryPlyCube(QDataStream::LittleEndian, false);
    const float qnan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(binNan.data() + bin.indexOf("end_header\n") + 11 + 13 * 2 + 4, &qnan, 4);  // vertex #2, y
    expectError(writeFile(dir, "nan_bin.ply", binNan), "#2");
    QByteArray binRange = binaryPlyCube(QDataStream::BigEndian, false);
    binRange[binRange.indexOf("end_header\n") + 11 + 13 * 8 + 1 + 3] = char(8);  // face #0, first index
    expectError(writeFile(dir, "range_bin.ply", binRange), "out of range");
    expectError(writeFile(dir, "noface.ply", header.left(header.indexOf("element face")) + "end_header\n0 0 0\n1 0 0\n0 1 0\n"),
                "no");
  }

  // --- OBJ ---
  void objQuadsAndCornerForms() {
    QTemporaryDir dir;
    QByteArray obj = "# cube\nmtllib cube.mtl\no cube\n";
    for (const auto& c : kCubeCorners)
      obj += "v " + QByteArray::number(c[0]) + " " + QByteArray::number(c[1]) + " " + QByteArray::number(c[2]) + "\n";
    obj += "vt 0 0\nvn 0 0 1\ng sides\nusemtl red\ns off\n";
    const char* forms[] = {"%1", "%1/1", "%1/1/1", "%1//1"};
    int form = 0;
    for (const auto& q : kCubeQuads) {
      QByteArray line = "f";
      for (int i : q) line += " " + QString(forms[form++ % 4]).arg(i + 1).toLatin1();
      obj += line + "\n";
    }
    obj += "l 1 2\n";
    checkCube(readMesh(writeFile(dir, "cube.obj", obj)));
  }
  void objNegativeIndices() {
    QTemporaryDir dir;
    // Each face refers back to vertices just read; the second quad uses relative indices only.
    const char* obj =
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4 -3 -2 -1\n"
        "v 0 0 5\nv 2 0 5\nv 2 2 5\nv 0 2 5\nf -4/1/1 -3/2/2 -2/3/3 -1/4/4\n";
    auto m = readMesh(writeFile(dir, "neg.obj", obj));
    QCOMPARE(m.triangleCount(), std::size_t(4));
    QVERIFY(std::abs(m.surfaceArea() - (1 + 4)) < 1e-12);
    QVERIFY(m.bounds.max.isApprox(Vec3(2, 2, 5)));
  }
  void objLineContinuation() {
    QTemporaryDir dir;
    auto m = readMesh(writeFile(dir, "cont.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 \\\n  3 4\n"));
    QCOMPARE(m.triangleCount(), std::size_t(2));
    expectError(writeFile(dir, "cont_bad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 \\\n  9\n"), ":4:");
  }
  void objBadInput() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n"), ":4:");
    expectError(writeFile(dir, "range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n"), "out of range");
    expectError(writeFile(dir, "negrange.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n"), ":4:");
    expectError(writeFile(dir, "nan.obj", "v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n"), ":2:");
    expectError(writeFile(dir, "shortv.obj", "v 0 0\n"), ":1:");
    expectError(writeFile(dir, "badcorner.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 x 3\n"), ":4:");
    expectError(writeFile(dir, "garbage.obj", "just some text\nno geometry here\n"), "no");
    expectError(writeFile(dir, "binary.obj", QByteArray("\x00\x01\x02\x03", 4)), "no");
  }

  // --- every reader, every truncation: a mesh or an sg::Error, never a crash or another exception ---
  void truncationNeverCrashes() {
    QTemporaryDir dir;
    const TriangleMesh cube = cubeTriangles();
    const std::string stlPath = dir.filePath("full.stl").toStdString();
    writeBinaryStlMesh(cube, stlPath);
    const std::string plyPath = dir.filePath("full.ply").toStdString();
    writePlyMesh(cube, plyPath, false);
    auto slurp = [](const std::string& path) {
      QFile f(QString::fromStdString(path));
      if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read back %s", path.c_str());
      return f.readAll();
    };
    QByteArray obj;
    for (const auto& c : kCubeCorners)
      obj += "v " + QByteArray::number(c[0]) + " " + QByteArray::number(c[1]) + " " + QByteArray::number(c[2]) + "\n";
    for (const auto& q : kCubeQuads) obj += "f -8 -7 -6\nf " + QByteArray::number(q[0] + 1) + "/1 " +
                                           QByteArray::number(q[1] + 1) + " " + QByteArray::number(q[2] + 1) + "\n";
    const struct { const char* name; QByteArray bytes; } files[] = {
        {"cut.off", kCubeOff},
        {"cut.stl", slurp(stlPath)},
        {"cut.stl", asciiStlCube()},
        {"cut.ply", slurp(plyPath)},
        {"cut.ply", binaryPlyCube(QDataStream::LittleEndian, false)},
        {"cut.ply", binaryPlyCube(QDataStream::BigEndian, true)},
        {"cut.obj", obj},
    };
    for (const auto& f : files) {
      int ok = 0;
      for (qsizetype n = 0; n <= f.bytes.size(); ++n) {
        try {
          (void)readMesh(writeFile(dir, f.name, f.bytes.left(n)));
          ++ok;
        } catch (const Error&) {
        }
      }
      QVERIFY2(ok >= 1, f.name);  // the complete file reads
    }
  }
  void corruptedBytesNeverCrash() {
    // Flip bytes of valid files at every position (deterministic): a mesh or an sg::Error, nothing else.
    QTemporaryDir dir;
    const struct { const char* name; QByteArray bytes; } files[] = {
        {"bad.off", kCubeOff},
        {"bad.ply", binaryPlyCube(QDataStream::LittleEndian, false)},
        {"bad.stl", asciiStlCube().left(400) + "\nendloop\nendfacet\nendsolid\n"},
    };
    for (const auto& f : files)
      for (qsizetype i = 0; i < f.bytes.size(); ++i)
        for (char replacement : {'\xff', '9', '-', '\n'}) {
          QByteArray bytes = f.bytes;
          bytes[i] = replacement;
          try {
            (void)readMesh(writeFile(dir, f.name, bytes));
          } catch (const Error&) {
          }
        }
  }

  // --- OFF writer ---
  void offRoundTrip() {
    QTemporaryDir dir;
    TriangleMesh cube = cubeTriangles();
    cube.transform(Mat3::Identity(), Vec3(0.1, -1.0 / 3.0, 1e-7));  // awkward decimals survive exactly
    const std::string path = dir.filePath("cube.off").toStdString();
    writeOffMesh(cube, path);
    const TriangleMesh back = readMesh(path);
    QCOMPARE(back.vertices, cube.vertices);
    QCOMPARE(back.triangles, cube.triangles);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"cube.off"});
  }
  void writerErrors() {
    QTemporaryDir dir;
    const std::string noDir = dir.filePath("no/such/dir/cube.off").toStdString();
    QVERIFY_THROWS_EXCEPTION(Error, writeOffMesh(cubeTriangles(), noDir));
    QVERIFY_THROWS_EXCEPTION(Error, writeBinaryStlMesh(cubeTriangles(), dir.filePath("no/x.stl").toStdString()));
    TriangleMesh broken;
    broken.vertices.push_back(Vec3::Zero());
    broken.triangles.push_back({0, 1, 2});
    QVERIFY_THROWS_EXCEPTION(Error, writeOffMesh(broken, dir.filePath("b.off").toStdString()));
    QVERIFY(!QFile::exists(dir.filePath("b.off")));
  }
};

QTEST_GUILESS_MAIN(TestMeshReaders)
#include "tst_mesh_readers.moc"
