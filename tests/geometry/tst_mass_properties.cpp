// TriangleMesh and mass properties on analytic solids: a box and a finely tessellated sphere.
#include <QtTest>

#include <cmath>

#include "geometry/MassProperties.h"
#include "geometry/TriangleMesh.h"

using namespace sg;

namespace {

// Axis-aligned box [0,a]×[0,b]×[0,c] moved by `offset`, outward counter-clockwise triangles.
TriangleMesh box(double a, double b, double c, const Vec3& offset = Vec3::Zero()) {
  TriangleMesh m;
  for (int i = 0; i < 8; ++i)
    m.vertices.push_back(offset + Vec3((i & 1) ? a : 0, (i & 2) ? b : 0, (i & 4) ? c : 0));
  // Corner index bits: x = 1, y = 2, z = 4.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {1, 3, 7, 5}, {0, 4, 6, 2}};
  for (const auto& q : quads) {
    m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[1]), std::uint32_t(q[2])});
    m.triangles.push_back({std::uint32_t(q[0]), std::uint32_t(q[2]), std::uint32_t(q[3])});
  }
  m.finalize();
  return m;
}

// Latitude/longitude sphere of radius r about `center`, outward triangles, shared poles.
TriangleMesh sphere(double r, int stacks, int slices, const Vec3& center = Vec3::Zero()) {
  TriangleMesh m;
  m.vertices.push_back(center + Vec3(0, 0, r));  // north pole: 0
  for (int i = 1; i < stacks; ++i) {
    const double theta = kPi * i / stacks;
    for (int j = 0; j < slices; ++j) {
      const double phi = 2 * kPi * j / slices;
      m.vertices.push_back(center + r * Vec3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi),
                                             std::cos(theta)));
    }
  }
  const auto south = std::uint32_t(m.vertices.size());
  m.vertices.push_back(center + Vec3(0, 0, -r));
  auto ring = [&](int i, int j) { return std::uint32_t(1 + (i - 1) * slices + (j % slices)); };
  for (int j = 0; j < slices; ++j) {
    m.triangles.push_back({0, ring(1, j), ring(1, j + 1)});
    m.triangles.push_back({south, ring(stacks - 1, j + 1), ring(stacks - 1, j)});
  }
  for (int i = 1; i + 1 < stacks; ++i)
    for (int j = 0; j < slices; ++j) {
      m.triangles.push_back({ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)});
      m.triangles.push_back({ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)});
    }
  m.finalize();
  return m;
}

double signedVolume(const TriangleMesh& m) {
  double v = 0;
  for (const auto& t : m.triangles) v += m.vertices[t[0]].dot(m.vertices[t[1]].cross(m.vertices[t[2]])) / 6.0;
  return v;
}

bool normalsPointAwayFrom(const TriangleMesh& m, const Vec3& inside) {
  for (std::size_t i = 0; i < m.triangleCount(); ++i) {
    const Vec3 c = (m.triangleVertex(i, 0) + m.triangleVertex(i, 1) + m.triangleVertex(i, 2)) / 3.0;
    if (m.faceNormals[i].dot(c - inside) <= 0) return false;
  }
  return true;
}

}  // namespace

class TestMassProperties : public QObject {
  Q_OBJECT
 private slots:
  void boxVolumeCentroidInertia() {
    const double a = 10, b = 20, c = 40;
    const Vec3 offset(5, -7, 3);
    const TriangleMesh m = box(a, b, c, offset);
    QVERIFY(normalsPointAwayFrom(m, offset + Vec3(a, b, c) / 2));
    auto mp = computeMassProperties(m);
    QVERIFY(mp.has_value());
    QVERIFY(std::abs(mp->volume_mm3 - a * b * c) < 1e-9 * a * b * c);
    QVERIFY((mp->centroid_mm - (offset + Vec3(a, b, c) / 2)).norm() < 1e-9);
    // Solid box about its centre, per unit mass: diag((b²+c²)/12, (a²+c²)/12, (a²+b²)/12).
    const Mat3 expected = Vec3((b * b + c * c) / 12, (a * a + c * c) / 12, (a * a + b * b) / 12).asDiagonal();
    QVERIFY((mp->inertiaPerMass_mm2 - expected).norm() < 1e-9 * expected.norm());
    QCOMPARE(m.surfaceArea(), 2 * (a * b + b * c + a * c));
    QVERIFY(m.bounds.min.isApprox(offset) && m.bounds.max.isApprox(offset + Vec3(a, b, c)));
  }
  void inwardMeshGivesTheSameProperties() {
    TriangleMesh m = box(10, 20, 30);
    for (auto& t : m.triangles) std::swap(t[1], t[2]);
    m.finalize();
    QVERIFY(signedVolume(m) < 0);
    auto mp = computeMassProperties(m);
    QVERIFY(mp.has_value());
    QVERIFY(std::abs(mp->volume_mm3 - 6000) < 1e-6);
    QVERIFY((mp->centroid_mm - Vec3(5, 10, 15)).norm() < 1e-9);
    QVERIFY(std::abs(mp->inertiaPerMass_mm2(0, 0) - (400.0 + 900.0) / 12) < 1e-9);
  }
  void rotatedBoxInertiaRotates() {
    const TriangleMesh base = box(10, 20, 40);
    TriangleMesh m = base;
    const Mat3 R = Eigen::AngleAxisd(0.6, Vec3(1, 2, -1).normalized()).toRotationMatrix();
    m.transform(R, Vec3(3, 4, 5));
    auto mp0 = computeMassProperties(base);
    auto mp = computeMassProperties(m);
    QVERIFY(mp0 && mp);
    QVERIFY((mp->inertiaPerMass_mm2 - R * mp0->inertiaPerMass_mm2 * R.transpose()).norm() < 1e-8);
    QVERIFY((mp->centroid_mm - (R * mp0->centroid_mm + Vec3(3, 4, 5))).norm() < 1e-9);
  }
  void sphereVolumeAndInertia() {
    const double r = 25;
    const Vec3 center(100, -50, 10);
    const TriangleMesh m = sphere(r, 90, 180, center);
    auto mp = computeMassProperties(m);
    QVERIFY(mp.has_value());
    const double exactVolume = 4.0 / 3.0 * kPi * r * r * r;
    QVERIFY(std::abs(mp->volume_mm3 - exactVolume) < 0.005 * exactVolume);
    QVERIFY((mp->centroid_mm - center).norm() < 1e-6 * r);
    const double exactInertia = 0.4 * r * r;  // solid sphere, per unit mass
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(mp->inertiaPerMass_mm2(k, k) - exactInertia) < 0.01 * exactInertia);
    QVERIFY(std::abs(mp->inertiaPerMass_mm2(0, 1)) < 1e-6 * exactInertia);
    QVERIFY(std::abs(mp->inertiaPerMass_mm2(1, 2)) < 1e-6 * exactInertia);
    QVERIFY(std::abs(m.surfaceArea() - 4 * kPi * r * r) < 0.005 * 4 * kPi * r * r);
    QVERIFY(std::abs(maxRadius(m, center) - r) < 1e-9);
  }
  void openOrFlatMeshHasNoMassProperties() {
    TriangleMesh flat;
    flat.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    flat.triangles = {{0, 1, 2}, {0, 2, 1}};
    flat.finalize();
    QVERIFY(!computeMassProperties(flat).has_value());
    QVERIFY(!computeMassProperties(TriangleMesh{}).has_value());
  }
  void maxRadiusIsTheFarthestVertex() {
    const TriangleMesh m = box(10, 20, 40, Vec3(-5, -10, -20));
    QVERIFY(std::abs(maxRadius(m, Vec3::Zero()) - std::sqrt(25.0 + 100 + 400)) < 1e-12);
    QVERIFY(std::abs(maxRadius(m, Vec3(-5, -10, -20)) - std::sqrt(100.0 + 400 + 1600)) < 1e-12);
  }
  void finalizeDropsDegenerateTriangles() {
    TriangleMesh m;
    m.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(2, 0, 0), Vec3(1e-9, 0, 0)};
    m.triangles = {{0, 1, 2},   // good
                   {0, 0, 2},   // repeated index
                   {0, 1, 3},   // collinear, zero area
                   {0, 4, 2}};  // area 5e-10 < 1e-9 threshold below
    QCOMPARE(m.finalize(1e-9), std::size_t(3));
    QCOMPARE(m.triangleCount(), std::size_t(1));
    QCOMPARE(m.faceNormals.size(), std::size_t(1));
    QVERIFY(m.faceNormals[0].isApprox(Vec3::UnitZ()));
    // Bounds cover only the vertices of the surviving triangles.
    QVERIFY(m.bounds.max.isApprox(Vec3(1, 1, 0)));
  }
  void finalizeRejectsBadData() {
    TriangleMesh range;
    range.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    range.triangles = {{0, 1, 3}};
    QVERIFY_THROWS_EXCEPTION(std::exception, range.finalize());
    TriangleMesh nan = range;
    nan.triangles = {{0, 1, 2}};
    nan.vertices[1].x() = std::nan("");
    QVERIFY_THROWS_EXCEPTION(std::exception, nan.finalize());
  }
  void transformWithMirroringScaleKeepsOutwardNormals() {
    TriangleMesh m = box(10, 20, 30);
    m.transform(Mat3::Identity(), Vec3(100, 0, 0), Vec3(-2, 1, 1));  // mirror in x and stretch
    QVERIFY(m.bounds.min.isApprox(Vec3(80, 0, 0)) && m.bounds.max.isApprox(Vec3(100, 20, 30)));
    QVERIFY(signedVolume(m) > 0);
    QVERIFY(normalsPointAwayFrom(m, Vec3(90, 10, 15)));
    auto mp = computeMassProperties(m);
    QVERIFY(mp && std::abs(mp->volume_mm3 - 12000) < 1e-6);
    // Two mirrors make a rotation: winding unchanged, still outward.
    TriangleMesh twice = box(10, 20, 30);
    twice.transform(Mat3::Identity(), Vec3::Zero(), Vec3(-1, -1, 1));
    QVERIFY(signedVolume(twice) > 0);
    QVERIFY(normalsPointAwayFrom(twice, Vec3(-5, -10, 15)));
  }
  void appendKeepsBothParts() {
    TriangleMesh a = box(1, 1, 1);
    const TriangleMesh b = box(2, 2, 2);
    a.append(b, Mat3::Identity(), Vec3(10, 0, 0));
    QCOMPARE(a.triangleCount(), std::size_t(24));
    auto mp = computeMassProperties(a);
    QVERIFY(mp && std::abs(mp->volume_mm3 - 9) < 1e-9);
    QVERIFY(a.bounds.max.isApprox(Vec3(12, 2, 2)));
  }
};

QTEST_GUILESS_MAIN(TestMassProperties)
#include "tst_mass_properties.moc"
