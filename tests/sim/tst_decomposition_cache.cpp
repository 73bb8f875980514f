// The directory of HACD decompositions (src/sim/README.md §Decomposition cache): a file written and read back
// gives the same pieces bit for bit; a file of another input, settings or format, a short, longer or damaged file
// is a miss; through convexPieces, a second mesh object of the same shape reads the first one's file and gets
// the pieces HACD gives without the cache; an unwritable directory leaves the decomposition as it is.
#include <QtTest/QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "geometry/ShapeTessellation.h"
#include "sim/ConvexPieces.h"
#include "sim/DecompositionCache.h"
#include "../support/ScopedCacheDir.h"

using namespace sg;
using namespace sg::sim;

namespace {

// A torus: not convex, so HACD splits it (ConvexPieces.cpp decomposeComponent); 16 segments keep it quick.
std::shared_ptr<TriangleMesh> torusMesh() {
  TessellationOptions options;
  options.segments = 16;
  return std::make_shared<TriangleMesh>(tessellateShape(Torus{30, 10}, options));
}

// Hand-made pieces with values that a text round trip could alter (1/3, a subnormal, -0).
ConvexPieces handMadePieces() {
  ConvexPieces p;
  p.meshVolume_mm3 = 1.0 / 3.0;
  p.piecesVolume_mm3 = 0.1 + 0.2;
  ConvexPiece a;
  a.vertices = {Vec3(0, 0, 0), Vec3(1.0 / 3.0, 0, 0), Vec3(0, 4.9e-324, 0), Vec3(0, 0, -0.0)};
  a.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  ConvexPiece b = a;
  b.vertices[1] = Vec3(2, 2, 2);
  p.pieces = {a, b};
  return p;
}

bool bitwiseEqual(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool samePieces(const ConvexPieces& a, const ConvexPieces& b) {
  if (!bitwiseEqual(a.meshVolume_mm3, b.meshVolume_mm3) || !bitwiseEqual(a.piecesVolume_mm3, b.piecesVolume_mm3) ||
      a.pieces.size() != b.pieces.size())
    return false;
  for (std::size_t i = 0; i < a.pieces.size(); ++i) {
    const ConvexPiece &p = a.pieces[i], &q = b.pieces[i];
    if (p.vertices.size() != q.vertices.size() || p.triangles != q.triangles || p.primitive.has_value() ||
        q.primitive.has_value())
      return false;
    for (std::size_t v = 0; v < p.vertices.size(); ++v)
      for (int k = 0; k < 3; ++k)
        if (!bitwiseEqual(p.vertices[v][k], q.vertices[v][k])) return false;
  }
  return true;
}

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) out.push_back(e.path());
  return out;
}

}  // namespace

class TestDecompositionCache : public QObject {
  Q_OBJECT

 private slots:
  void writtenFileReadsBackBitForBit() {
    QTemporaryDir dir;
    const auto mesh = torusMesh();
    const DecompositionSettings settings;
    const ConvexPieces pieces = handMadePieces();
    const std::filesystem::path file = dir.filePath("x.bin").toStdString();
    QVERIFY(writeCachedDecomposition(file, *mesh, settings, pieces));
    const auto back = readCachedDecomposition(file, *mesh, settings);
    QVERIFY(back.has_value());
    QVERIFY(samePieces(*back, pieces));
    QCOMPARE(filesIn(dir.path().toStdString()).size(), std::size_t{1});  // no temporary file left
  }

  void anotherInputIsAMiss() {
    QTemporaryDir dir;
    const auto mesh = torusMesh();
    const DecompositionSettings settings;
    const std::filesystem::path file = dir.filePath("x.bin").toStdString();
    QVERIFY(writeCachedDecomposition(file, *mesh, settings, handMadePieces()));
    TriangleMesh moved = *mesh;  // one coordinate one ulp away
    moved.vertices[5].x() = std::nextafter(moved.vertices[5].x(), 1e9);
    QVERIFY(!readCachedDecomposition(file, moved, settings));
    TriangleMesh flipped = *mesh;
    std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
    QVERIFY(!readCachedDecomposition(file, flipped, settings));
    DecompositionSettings coarser = settings;
    coarser.concavity *= 2;
    QVERIFY(!readCachedDecomposition(file, *mesh, coarser));
    DecompositionSettings fewer = settings;
    fewer.maxVerticesPerPiece = 32;
    QVERIFY(!readCachedDecomposition(file, *mesh, fewer));
    // The file name follows the input: equal inputs share it, another input has its own.
    QCOMPARE(decompositionCacheFileName(*torusMesh(), settings), decompositionCacheFileName(*mesh, settings));
    QVERIFY(decompositionCacheFileName(moved, settings) != decompositionCacheFileName(*mesh, settings));
    QVERIFY(decompositionCacheFileName(*mesh, coarser) != decompositionCacheFileName(*mesh, settings));
    QVERIFY(QString::fromStdString(decompositionCacheFileName(*mesh, settings)).contains(
        QRegularExpression("^hacd-[0-9a-f]{16}\\.bin$")));
  }

  void damagedFilesAreAMiss() {
    QTemporaryDir dir;
    const auto mesh = torusMesh();
    const DecompositionSettings settings;
    const std::filesystem::path file = dir.filePath("x.bin").toStdString();
    QVERIFY(!readCachedDecomposition(file, *mesh, settings));  // missing
    QVERIFY(writeCachedDecomposition(file, *mesh, settings, handMadePieces()));
    std::string bytes;
    {
      std::ifstream in(file, std::ios::binary);
      bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto rewrite = [&](const std::string& content) {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << content;
    };
    rewrite(bytes.substr(0, bytes.size() - 1));  // short by one byte
    QVERIFY(!readCachedDecomposition(file, *mesh, settings));
    rewrite(bytes + "x");  // one byte too many
    QVERIFY(!readCachedDecomposition(file, *mesh, settings));
    std::string otherFormat = bytes;
    otherFormat[7] = '9';  // another format revision (DecompositionCache.cpp kMagic)
    rewrite(otherFormat);
    QVERIFY(!readCachedDecomposition(file, *mesh, settings));
    // A piece count far beyond the file: refused, not allocated. It follows the input (magic, two counts, two
    // settings: 40 bytes; three doubles a vertex, three indices a triangle) and the two volumes.
    const std::size_t countAt = 40 + mesh->vertices.size() * 24 + mesh->triangles.size() * 12 + 16;
    std::string huge = bytes;
    huge.replace(countAt, 8, std::string(8, '\xff'));
    rewrite(huge);
    QVERIFY(!readCachedDecomposition(file, *mesh, settings));
    rewrite("");
    QVERIFY(!readCachedDecomposition(file, *mesh, settings));
    rewrite(bytes);  // the file as written reads again
    QVERIFY(readCachedDecomposition(file, *mesh, settings).has_value());
  }

  // Through convexPieces: the in-memory cache is per mesh object, so a second object of the same shape (another
  // process's mesh) reads the file; the pieces are those HACD gives without the directory.
  void secondMeshObjectReadsTheFirstOnesFile() {
    std::shared_ptr<const ConvexPieces> uncached;
    {
      test::ScopedCacheDir none("");
      QVERIFY(!decompositionCacheDir());
      uncached = convexPieces(torusMesh());
    }
    QVERIFY(uncached->pieces.size() > 1);  // HACD split it: the path the cache serves
    QTemporaryDir dir;
    const std::string cacheDir = dir.filePath("cache/hacd").toStdString();  // created on first use
    test::ScopedCacheDir set(cacheDir);
    QCOMPARE(decompositionCacheDir().value_or(""), std::filesystem::path(cacheDir));
    const auto first = convexPieces(torusMesh());
    const auto files = filesIn(cacheDir);
    QCOMPARE(files.size(), std::size_t{1});
    const auto written = std::filesystem::last_write_time(files[0]);
    const auto second = convexPieces(torusMesh());
    QVERIFY(first.get() != second.get());  // not the in-memory cache
    QCOMPARE(filesIn(cacheDir).size(), std::size_t{1});
    QVERIFY(std::filesystem::last_write_time(files[0]) == written);  // read, not written again
    QVERIFY(samePieces(*first, *uncached));
    QVERIFY(samePieces(*second, *uncached));
    // A damaged file under the name is a miss: the pieces are computed again and the file replaced.
    std::ofstream(files[0], std::ios::binary | std::ios::trunc) << "not a decomposition";
    const auto third = convexPieces(torusMesh());
    QVERIFY(samePieces(*third, *uncached));
    std::string head(8, '\0');
    std::ifstream(files[0], std::ios::binary).read(head.data(), 8);
    QCOMPARE(head, std::string("SGHACD01"));  // rewritten (the file holds the component, not the whole mesh)
    QVERIFY(std::filesystem::file_size(files[0]) > 1000);
  }

  void unwritableDirectoryLeavesTheDecomposition() {
    QTemporaryDir dir;
    const std::string notADir = dir.filePath("file").toStdString();
    std::ofstream(notADir) << "x";
    test::ScopedCacheDir set(notADir);
    QVERIFY(!decompositionCacheDir());
    const auto pieces = convexPieces(torusMesh());
    QVERIFY(pieces->pieces.size() > 1);
    QVERIFY(!writeCachedDecomposition(std::filesystem::path(notADir) / "x.bin", *torusMesh(), DecompositionSettings{},
                                      *pieces));
  }
};

QTEST_APPLESS_MAIN(TestDecompositionCache)
#include "tst_decomposition_cache.moc"
