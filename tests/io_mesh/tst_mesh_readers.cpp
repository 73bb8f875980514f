// Mesh readers and writers on small hand-written files.
#include <QtTest>

#include "core/Error.h"
#include "geometry/MassProperties.h"
#include "io/MeshIO.h"
#include "MeshTestFiles.h"

using namespace sg;
using namespace sg::testfiles;

namespace {

// Asserts the mesh is the closed 10 mm cube [0,10]³.
void checkCube(const TriangleMesh& m, const Vec3& min = Vec3::Zero(), double size = 10) {
  QCOMPARE(m.triangleCount(), std::size_t(12));
  QVERIFY(m.bounds.min.isApprox(min, 1e-9) || (m.bounds.min - min).norm() < 1e-9);
  QVERIFY((m.bounds.max - (min + Vec3::Constant(size))).norm() < 1e-9 * size);
  auto mp = computeMassProperties(m);
  QVERIFY(mp.has_value());
  QVERIFY(std::abs(mp->volume_mm3 - size * size * size) < 1e-9 * size * size * size);
  QVERIFY((mp->centroid_mm - (min + Vec3::Constant(size / 2))).norm() < 1e-9 * size);
  // Outward orientation: the signed volume is positive.
  double signedVolume = 0;
  for (const auto& t : m.triangles)
    signedVolume += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6.0;
  QVERIFY(signedVolume > 0);
}

// Expects readMesh(path) to throw an sg::Error whose text names the file and contains `fragment`.
void expectError(const std::string& path, const std::string& fragment = {}) {
  try {
    (void)readMesh(path);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (qEnvironmentVariableIsSet("SG_SHOW_ERRORS")) qInfo("%s", what.c_str());
    if (what.find(path) == std::string::npos) QFAIL(("error does not name the file: " + what).c_str());
    if (!fragment.empty() && what.find(fragment) == std::string::npos)
      QFAIL(("error lacks '" + fragment + "': " + what).c_str());
    return;
  }
  QFAIL(("no error for " + path).c_str());
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
    QCOMPARE(meshFormatFromType(meshTypeName(MeshFormat::Inventor)), MeshFormat::Inventor);
  }
  void unknownExtensionAndMissingFile() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "a.xyz", "1 2 3"), "unknown");
    expectError(dir.filePath("missing.off").toStdString(), "cannot open");
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
        "COFF 4 1 0\r\n0 0 0 255 0 0 255\r\n1 0 0 255 0 0 255\r\n1 1 0 1 1 1 1\r\n0 1 0 1 1 1 1\r\n4 0 1 2 3 0.5 0.5 0.5\r\n";
    auto m = readMesh(writeFile(dir, "quad.off", coff));
    QCOMPARE(m.triangleCount(), std::size_t(2));
    QVERIFY(std::abs(m.surfaceArea() - 1.0) < 1e-12);
    // No keyword at all, pentagon fanned into three triangles.
    auto p = readMesh(writeFile(dir, "pent.off", "5 1\n0 0 0\n2 0 0\n2 1 0\n1 2 0\n0 1 0\n5 0 1 2 3 4\n"));
    QCOMPARE(p.triangleCount(), std::size_t(3));
  }
  void offBadInput() {
    QTemporaryDir dir;
    expectError(writeFile(dir, "garbage.off", "\x01\x02garbage\nmore garbage\n"));
    expectError(writeFile(dir, "trunc.off", "OFF\n8 6 0\n0 0 0\n1 0 0\n"), "truncated");
    expectError(writeFile(dir, "trunc.off", "OFF\n8 6 0\n0 0 0\n1 0 0\n"), ":4:");
    expectError(writeFile(dir, "range.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"), ":6:");
    expectError(writeFile(dir, "range.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n"), "out of range");
    expectError(writeFile(dir, "nan.off", "OFF\n3 1 0\n0 0 0\nnan 0 0\n0 1 0\n3 0 1 2\n"), ":4:");
    expectError(writeFile(dir, "inf.off", "OFF\n3 1 0\n0 0 0\ninf 0 0\n0 1 0\n3 0 1 2\n"), "finite");
    expectError(writeFile(dir, "shortface.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n"), ":6:");
    expectError(writeFile(dir, "degenerate.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2\n"), "no");
    expectError(writeFile(dir, "empty.off", ""));
  }
};

QTEST_GUILESS_MAIN(TestMeshReaders)
#include "tst_mesh_readers.moc"
