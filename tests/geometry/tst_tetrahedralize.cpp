// Tetrahedral meshes of closed triangle meshes through Gmsh (src/geometry/hydro/README.md §Meshing): the tets
// fill exactly the enclosed volume, are positively oriented, their boundary is the input surface; bad surfaces
// give a clear error and leave the mesher usable. Gmsh is loaded at the first meshing only, and a missing or wrong
// Gmsh library is a clear error (src/geometry/hydro/README.md §Gmsh loaded on demand).
#include <QFile>
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <thread>

#include "core/Error.h"
#include "geometry/ShapeTessellation.h"
#include "geometry/hydro/GmshApi.h"
#include "geometry/hydro/Tetrahedralize.h"

using namespace sg;

namespace {

TriangleMesh meshOf(std::vector<Vec3> vertices, std::vector<TriangleMesh::Triangle> triangles) {
  TriangleMesh m;
  m.vertices = std::move(vertices);
  m.triangles = std::move(triangles);
  m.finalize();
  return m;
}

// A prism: the counter-clockwise (seen from +z) polygon `outline` from z = 0 to z = height, fanned from its
// vertex 0 (the outline must be star-shaped about it), outward-facing triangles.
TriangleMesh prism(const std::vector<Vec3>& outline, double height) {
  const auto n = static_cast<std::uint32_t>(outline.size());
  std::vector<Vec3> v;
  for (const Vec3& p : outline) v.push_back(p);
  for (const Vec3& p : outline) v.push_back(p + Vec3(0, 0, height));
  std::vector<TriangleMesh::Triangle> t;
  for (std::uint32_t i = 1; i + 1 < n; ++i) {
    t.push_back({0, i + 1, i});              // bottom, facing -z
    t.push_back({n, n + i, n + i + 1});      // top, facing +z
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t j = (i + 1) % n;
    t.push_back({i, j, n + j});
    t.push_back({i, n + j, n + i});
  }
  return meshOf(std::move(v), std::move(t));
}

TriangleMesh box(double x, double y, double z) {
  return prism({Vec3(0, 0, 0), Vec3(x, 0, 0), Vec3(x, y, 0), Vec3(0, y, 0)}, z);
}

// An L-shaped (non-convex) prism: 20 x 30 mm outline with a 10 x 20 mm notch, 8 mm thick, away from the origin.
TriangleMesh lShape() {
  TriangleMesh m = prism({Vec3(0, 0, 0), Vec3(20, 0, 0), Vec3(20, 10, 0), Vec3(10, 10, 0), Vec3(10, 30, 0),
                          Vec3(0, 30, 0)}, 8);
  m.transform(Mat3::Identity(), Vec3(100, -50, 7));
  return m;
}

double enclosedVolume(const TriangleMesh& m) {
  double v6 = 0;
  for (const auto& t : m.triangles) v6 += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]]));
  return v6 / 6;
}

double tetVolume(const VolumeMesh& m, const VolumeMesh::Tet& t) {
  const auto& v = m.vertices_mm;
  return (v[t[1]] - v[t[0]]).dot((v[t[2]] - v[t[0]]).cross(v[t[3]] - v[t[0]])) / 6;
}

// Area of the tet faces that belong to one tet only (the mesh's boundary).
double boundaryArea(const VolumeMesh& m) {
  std::map<std::array<std::uint32_t, 3>, int> faces;
  for (const auto& t : m.tets)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<std::uint32_t, 3> f;
      for (int k = 0, j = 0; k < 4; ++k)
        if (k != skip) f[j++] = t[k];
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  double area = 0;
  for (const auto& [f, count] : faces)
    if (count == 1) {
      const auto& v = m.vertices_mm;
      area += 0.5 * (v[f[1]] - v[f[0]]).cross(v[f[2]] - v[f[0]]).norm();
    }
  return area;
}

// Volume sum, orientation and boundary of a mesh of `surface`.
void checkFills(const TriangleMesh& surface, const VolumeMesh& m) {
  QVERIFY(m.tetCount() >= 3);
  double total = 0;
  for (const auto& t : m.tets) {
    const double v = tetVolume(m, t);
    QVERIFY2(v > 0, qPrintable(QString("tet volume %1").arg(v)));
    total += v;
  }
  const double expected = enclosedVolume(surface);
  QVERIFY2(std::abs(total - expected) <= 1e-9 * expected, qPrintable(QString("%1 vs %2").arg(total, 0, 'g', 17).arg(expected, 0, 'g', 17)));
  const double area = boundaryArea(m), surfaceArea = surface.surfaceArea();
  QVERIFY2(std::abs(area - surfaceArea) <= 1e-9 * surfaceArea, qPrintable(QString("%1 vs %2").arg(area).arg(surfaceArea)));
  for (const Vec3& p : m.vertices_mm)  // no vertex outside the surface's box
    QVERIFY((p.array() >= surface.bounds.min.array() - 1e-9).all() && (p.array() <= surface.bounds.max.array() + 1e-9).all());
}

// Is a Gmsh library mapped into this process?
bool gmshMapped() {
  QFile maps("/proc/self/maps");
  if (!maps.open(QIODevice::ReadOnly)) qFatal("cannot read /proc/self/maps");
  return maps.readAll().contains("/libgmsh");
}

std::string loadError(const std::string& library) {
  try {
    (void)loadGmshApi(library);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

void expectError(const TriangleMesh& surface, const char* fragment) {
  try {
    (void)tetrahedralizeClosedMesh(surface, 0);
  } catch (const Error& e) {
    QVERIFY2(std::string(e.what()).find(fragment) != std::string::npos, e.what());
    return;
  }
  QFAIL("no error");
}

}  // namespace

class TestTetrahedralize : public QObject {
  Q_OBJECT
 private slots:
  // First: nothing in this process has meshed before it.
  void gmshLoadedOnlyWhenMeshing() {
    QVERIFY2(!gmshMapped(), "libgmsh is mapped before any tetrahedralization (linked again?)");
    // SOFTGRASP_GMSH_LIBRARY naming a missing file: the meshing call fails with the library's name. In a forked
    // child, as the library is loaded once per process; the child reports through its exit status.
    const pid_t pid = fork();
    QVERIFY(pid >= 0);
    if (pid == 0) {
      setenv("SOFTGRASP_GMSH_LIBRARY", "/nonexistent/libgmsh-missing.so.4.8", 1);
      int status = 1;
      try {
        (void)tetrahedralizeClosedMesh(box(2, 3, 4), 0);
        std::fprintf(stderr, "no error with a missing Gmsh library\n");
      } catch (const Error& e) {
        const std::string m = e.what();
        if (m.find("cannot load the Gmsh library /nonexistent/libgmsh-missing.so.4.8") != std::string::npos)
          status = 0;
        else
          std::fprintf(stderr, "unexpected error: %s\n", e.what());
      }
      _exit(status);
    }
    int status = -1;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, "SOFTGRASP_GMSH_LIBRARY's missing library");
    QVERIFY(!gmshMapped());
    const TriangleMesh b = box(2, 3, 4);
    checkFills(b, tetrahedralizeClosedMesh(b, 0));
    QVERIFY2(gmshMapped(), "libgmsh is not mapped after a tetrahedralization");
  }

  void missingOrWrongGmshLibrary() {
    const std::string missing = loadError("libsoftgrasp-no-such-gmsh.so.0");
    QVERIFY2(missing.find("cannot load the Gmsh library libsoftgrasp-no-such-gmsh.so.0") != std::string::npos,
             missing.c_str());
    // A library without Gmsh's functions (the C math library): the first missing one is named.
    const std::string wrong = loadError("libm.so.6");
    QVERIFY2(wrong.find("libm.so.6") != std::string::npos && wrong.find("no function gmshInitialize") != std::string::npos,
             wrong.c_str());
    // The override, and the configured SONAME without it.
    qputenv("SOFTGRASP_GMSH_LIBRARY", "/opt/gmsh/lib/libgmsh.so.4.11");
    QCOMPARE(gmshLibraryName(), std::string("/opt/gmsh/lib/libgmsh.so.4.11"));
    qunsetenv("SOFTGRASP_GMSH_LIBRARY");
    QVERIFY2(gmshLibraryName().rfind("libgmsh.so.", 0) == 0, gmshLibraryName().c_str());
  }

  void closedBox() {
    const TriangleMesh b = box(10, 20, 30);
    const VolumeMesh coarse = tetrahedralizeClosedMesh(b, 0);
    checkFills(b, coarse);
    const VolumeMesh fine = tetrahedralizeClosedMesh(b, 3);
    checkFills(b, fine);
    QVERIFY2(fine.tetCount() > 10 * coarse.tetCount(), qPrintable(QString("%1 vs %2").arg(fine.tetCount()).arg(coarse.tetCount())));
  }

  void nonConvexLShape() {
    const TriangleMesh l = lShape();
    checkFills(l, tetrahedralizeClosedMesh(l, 0));
    checkFills(l, tetrahedralizeClosedMesh(l, 2.5));
  }

  void inwardSurfaceAndRepeatedVertices() {
    // Inward-facing triangles are turned; a mesh with its vertices repeated per triangle (as STL gives) is welded.
    TriangleMesh b = box(10, 10, 10);
    TriangleMesh inward = b;
    for (auto& t : inward.triangles) std::swap(t[1], t[2]);
    inward.finalize();
    checkFills(b, tetrahedralizeClosedMesh(inward, 0));
    TriangleMesh soup;
    for (const auto& t : b.triangles) {
      const auto base = static_cast<std::uint32_t>(soup.vertices.size());
      for (int k = 0; k < 3; ++k) soup.vertices.push_back(b.vertices[t[k]]);
      soup.triangles.push_back({base, base + 1, base + 2});
    }
    soup.finalize();
    checkFills(b, tetrahedralizeClosedMesh(soup, 0));
  }

  void tessellatedSphere() {
    const TriangleMesh s = tessellatePrimitive(Primitive{Sphere{10}, Transform::identity()});
    checkFills(s, tetrahedralizeClosedMesh(s, 4));
  }

  void torusWhereHxtFails() {
    // Gmsh's HXT mesher crashes (SIGSEGV) on this torus at hints 1-3.5 mm and leaves a flat tet at hint 0:
    // the crash stays in the meshing process and Gmsh's Delaunay mesher fills the torus instead.
    const TriangleMesh ring = tessellatePrimitive(Primitive{Torus{20, 5}, Transform::identity()}, [] {
      TessellationOptions t;
      t.segments = 24;
      return t;
    }());
    const VolumeMesh fine = tetrahedralizeClosedMesh(ring, 3);
    checkFills(ring, fine);
    const VolumeMesh coarse = tetrahedralizeClosedMesh(ring, 0);
    checkFills(ring, coarse);
    QVERIFY(fine.tetCount() > coarse.tetCount());
  }

  void badSurfaces() {
    TriangleMesh open = box(10, 10, 10);
    open.triangles.pop_back();
    open.finalize();
    expectError(open, "open surface");
    TriangleMesh flipped = box(10, 10, 10);
    std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
    flipped.finalize();
    expectError(flipped, "inconsistent orientation");
    expectError(meshOf({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}}), "fewer than 4 triangles");
    try {
      (void)tetrahedralizeClosedMesh(box(1, 1, 1), std::nan(""));
      QFAIL("no error for a NaN hint");
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find("resolution hint") != std::string::npos, e.what());
    }
    // The mesher is still usable after the errors.
    const TriangleMesh b = box(4, 5, 6);
    checkFills(b, tetrahedralizeClosedMesh(b, 0));
  }

  void concurrentCallers() {
    // Each call meshes in its own process: callers on several threads each get their own mesh.
    const TriangleMesh a = box(10, 20, 30), l = lShape();
    VolumeMesh ma, ml;
    std::thread t1([&] { ma = tetrahedralizeClosedMesh(a, 4); });
    std::thread t2([&] { ml = tetrahedralizeClosedMesh(l, 4); });
    t1.join();
    t2.join();
    checkFills(a, ma);
    checkFills(l, ml);
  }
};

QTEST_GUILESS_MAIN(TestTetrahedralize)
#include "tst_tetrahedralize.moc"
