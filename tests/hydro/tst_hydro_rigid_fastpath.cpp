// The compliant–rigid surface query (src/geometry/hydro/README.md §Algorithms (a)) against a brute-force
// reference on random poses: every (tet, triangle) pair, the normal filter, the triangle clipped by the tet's
// four face planes, nothing pruned. The query's early rejections (tree descents with the triangle's box, plane and
// edge planes, the plane, face and edge tests, the triangle-inside-the-tet shortcut) must not drop or add a polygon:
// counts, areas and forces agree. And the compact tet tree that descent reads: leaves of at most
// TetBvh::kLeafTets tets, together every tet once, each box holding the tets below it.
#include <QtTest>

#include <algorithm>
#include <array>
#include <random>
#include <span>
#include <vector>

#include "HydroTestBodies.h"
#include "geometry/hydro/ContactSurfaces.h"

using namespace sg;
using namespace sgtest;

namespace {

struct Totals {
  int polygons = 0;  // of area above kMinArea_mm2
  double area_mm2 = 0;
  double force_Pa_mm2 = 0;  // ∫ p dA
};

constexpr double kMinArea_mm2 = 1e-9;  // slivers below this may differ by round-off between the two

// Convex polygon area and ∫p dA (p linear) by the fan around vertex 0.
void addPolygon(std::span<const Vec3> v, std::span<const double> p, Totals& t) {
  double area = 0, force = 0;
  for (std::size_t i = 1; i + 1 < v.size(); ++i) {
    const double a = 0.5 * (v[i] - v[0]).cross(v[i + 1] - v[0]).norm();
    area += a;
    force += a * (p[0] + p[i] + p[i + 1]) / 3;
  }
  if (!(area > kMinArea_mm2)) return;
  ++t.polygons;
  t.area_mm2 += area;
  t.force_Pa_mm2 += force;
}

// Every tet of M against every triangle of N, world frame.
Totals bruteForce(const SoftVolume& M, const Transform& X_WM, const TriangleMesh& N, const Transform& X_WN) {
  Totals t;
  const VolumeMesh& mesh = M.field.mesh;
  const double cosMax = std::cos(5 * kPi / 8);
  // N in the world frame once, not once per tet (the same products, so the same values).
  std::vector<std::array<Vec3, 3>> triangle_W(N.triangleCount());
  std::vector<Vec3> n_W(N.triangleCount());
  for (std::size_t tri = 0; tri < N.triangleCount(); ++tri) {
    n_W[tri] = X_WN.applyToVector(N.faceNormals[tri]);
    for (int i = 0; i < 3; ++i) triangle_W[tri][i] = X_WN * N.triangleVertex(tri, i);
  }
  std::vector<Vec3> poly, kept;  // reused: allocating them per pair was a third of the suite's time
  std::vector<double> pressure;
  for (std::size_t k = 0; k < mesh.tetCount(); ++k) {
    Vec3 x[4];
    double px[4];
    for (int i = 0; i < 4; ++i) {
      x[i] = X_WM * mesh.vertices_mm[mesh.tets[k][i]];
      px[i] = M.field.pressure_Pa[mesh.tets[k][i]];
    }
    // The field's gradient from the vertex values, and the inward face planes.
    Mat3 A;
    for (int i = 0; i < 3; ++i) A.row(i) = x[i + 1] - x[0];
    const Vec3 g = A.inverse() * Vec3(px[1] - px[0], px[2] - px[0], px[3] - px[0]);
    Vec3 faceN[4];
    double faceD[4];
    for (int f = 0; f < 4; ++f) {
      const Vec3 &a = x[(f + 1) % 4], &b = x[(f + 2) % 4], &c = x[(f + 3) % 4];
      faceN[f] = (b - a).cross(c - a).normalized();
      if (faceN[f].dot(x[f] - a) < 0) faceN[f] = -faceN[f];
      faceD[f] = faceN[f].dot(a);
    }
    for (std::size_t tri = 0; tri < N.triangleCount(); ++tri) {
      const Vec3& n = n_W[tri];
      if (!(g.norm() == 0 || n.dot(g) > cosMax * g.norm())) continue;
      poly.assign(triangle_W[tri].begin(), triangle_W[tri].end());
      for (int f = 0; f < 4 && poly.size() >= 3; ++f) {
        kept.clear();
        for (std::size_t i = 0; i < poly.size(); ++i) {
          const Vec3& p = poly[i];
          const Vec3& q = poly[(i + 1) % poly.size()];
          const double sp = faceN[f].dot(p) - faceD[f], sq = faceN[f].dot(q) - faceD[f];
          if (sp >= 0) kept.push_back(p);
          if ((sp >= 0) != (sq >= 0)) kept.push_back(p + sp / (sp - sq) * (q - p));
        }
        poly.swap(kept);
      }
      if (poly.size() < 3) continue;
      // Pressure by barycentric interpolation of the vertex values.
      pressure.clear();
      for (const Vec3& v : poly) {
        const Vec3 l = A.transpose().inverse() * (v - x[0]);
        pressure.push_back(px[0] * (1 - l.sum()) + px[1] * l[0] + px[2] * l[1] + px[3] * l[2]);
      }
      addPolygon(poly, pressure, t);
    }
  }
  return t;
}

Totals fastPath(const ContactSurface& s) {
  Totals t;
  for (const ContactPolygon& p : s.polygons) addPolygon(p.p_WV_mm, p.pressure_Pa, t);
  return t;
}

}  // namespace

class TstHydroRigidFastPath : public QObject {
  Q_OBJECT
 private slots:
  void matchesBruteForceOnRandomPoses();
  void matchesBruteForceOnAlignedPoses();
  void compactTreeHoldsEveryTetOnce();
};

void TstHydroRigidFastPath::matchesBruteForceOnRandomPoses() {
  // Compliant: the sphere's long single-centre tets (the fingertip of bench_hydro), the exact box field, a capsule;
  // rigid: a box, a coarse sphere and a torus (non-convex). Poses: M's centre near a random point of N's surface,
  // randomly turned, so most poses overlap by a few mm and some not at all.
  const std::vector<Body> soft = {compliant(primitiveBody("sphere", Sphere{9}), 1e6, 1.5),
                                  compliant(primitiveBody("box", Box{Vec3(10, 14, 8)}), 1e6),
                                  compliant(primitiveBody("capsule", Capsule{5, 12}), 1e6, 2)};
  const std::vector<Body> rigid = {primitiveBody("block", Box{Vec3(30, 20, 25)}), primitiveBody("ball", Sphere{12}, {}, 16),
                                   primitiveBody("ring", Torus{15, 5}, {}, 24)};
  std::mt19937 rng(12);
  std::uniform_real_distribution<double> u(-1, 1);
  int compared = 0, nonEmpty = 0;
  for (const Body& m : soft) {
    const auto geometry = compliantGeometryFor(m.mesh, m.primitive, CompliantSpec{{1e6, m.hydroelastic->resolutionHint_mm, 0}, 10});
    QVERIFY(geometry->volume);
    for (const Body& n : rigid) {
      const Bvh bvh(*n.mesh);
      for (int k = 0; k < 12; ++k) {
        const std::size_t tri = std::uniform_int_distribution<std::size_t>(0, n.mesh->triangleCount() - 1)(rng);
        const Vec3 onSurface = (n.mesh->triangleVertex(tri, 0) + n.mesh->triangleVertex(tri, 1) + n.mesh->triangleVertex(tri, 2)) / 3;
        const Vec3 axis = Vec3(u(rng), u(rng), u(rng) + 0.01).normalized();
        const Transform X_WN(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng) + 0.01, u(rng)).normalized())), Vec3(u(rng), u(rng), u(rng)));
        const Transform X_NM(Quat(Eigen::AngleAxisd(3 * u(rng), axis)),
                             onSurface + n.mesh->faceNormals[tri] * (5 + 4 * u(rng)) + Vec3(u(rng), u(rng), u(rng)));
        const Transform X_WM = X_WN * X_NM;
        const ContactSurface s = compliantRigidSurface(*geometry->volume, X_WM, bvh, X_WN, SurfaceOptions{});
        const Totals fast = fastPath(s);
        const Totals want = bruteForce(*geometry->volume, X_WM, *n.mesh, X_WN);
        const QString where = QString("%1 vs %2, pose %3").arg(m.name.c_str(), n.name.c_str()).arg(k);
        QVERIFY2(fast.polygons == want.polygons,
                 qPrintable(where + QString(": %1 polygons, brute force %2").arg(fast.polygons).arg(want.polygons)));
        QVERIFY2(std::abs(fast.area_mm2 - want.area_mm2) <= 1e-9 * (1 + want.area_mm2), qPrintable(where));
        QVERIFY2(std::abs(fast.force_Pa_mm2 - want.force_Pa_mm2) <= 1e-9 * (1 + std::abs(want.force_Pa_mm2)), qPrintable(where));
        QVERIFY(allFinite(s));
        ++compared;
        nonEmpty += want.polygons > 0 ? 1 : 0;
      }
    }
  }
  QCOMPARE(compared, 3 * 3 * 12);
  QVERIFY2(nonEmpty > compared / 2, qPrintable(QString("only %1 of %2 poses overlap").arg(nonEmpty).arg(compared)));
}

void TstHydroRigidFastPath::matchesBruteForceOnAlignedPoses() {
  // Axis-aligned poses on a grid put rigid vertices exactly on tet face planes and tet vertices exactly on
  // triangle planes (f = 0 in floating point), the touches the query drops without clipping: the result must
  // still be the brute force's. At depth 0 the compliant box's face lies in the block's face: rigid triangles
  // lie in tet face planes (f = 0 at all three vertices), which must not be dropped.
  const std::vector<Body> soft = {compliant(primitiveBody("sphere", Sphere{9}), 1e6, 1.5),
                                  compliant(primitiveBody("box", Box{Vec3(10, 14, 8)}), 1e6)};
  const std::vector<Body> rigid = {primitiveBody("block", Box{Vec3(30, 20, 25)}), primitiveBody("ball", Sphere{12}, {}, 16)};
  int compared = 0, nonEmpty = 0, coplanar = 0;
  for (const Body& m : soft) {
    const auto geometry = compliantGeometryFor(m.mesh, m.primitive, CompliantSpec{{1e6, m.hydroelastic->resolutionHint_mm, 0}, 10});
    QVERIFY(geometry->volume);
    const double reach = m.mesh->bounds.max.x();
    for (const Body& n : rigid) {
      const Bvh bvh(*n.mesh);
      const double face = n.mesh->bounds.max.x();
      for (double depth : {0.0, 0.5, 1.0, 2.0})
        for (double y : {0.0, 2.5})
          for (int quarterTurns = 0; quarterTurns < 2; ++quarterTurns) {
            const Transform X_WN;
            const Transform X_WM(Quat(Eigen::AngleAxisd(quarterTurns * kPi / 2, Vec3::UnitX())), Vec3(face + reach - depth, y, 0));
            const ContactSurface s = compliantRigidSurface(*geometry->volume, X_WM, bvh, X_WN, SurfaceOptions{});
            const Totals fast = fastPath(s);
            const Totals want = bruteForce(*geometry->volume, X_WM, *n.mesh, X_WN);
            const QString where = QString("%1 vs %2, depth %3, y %4, turns %5").arg(m.name.c_str(), n.name.c_str()).arg(depth).arg(y).arg(quarterTurns);
            QVERIFY2(fast.polygons == want.polygons,
                     qPrintable(where + QString(": %1 polygons, brute force %2").arg(fast.polygons).arg(want.polygons)));
            QVERIFY2(std::abs(fast.area_mm2 - want.area_mm2) <= 1e-9 * (1 + want.area_mm2), qPrintable(where));
            // Touching at depth 0, the pressure is zero up to the field's round-off (~1e-16 E): an absolute
            // term for it.
            QVERIFY2(std::abs(fast.force_Pa_mm2 - want.force_Pa_mm2) <= 1e-9 * (1 + std::abs(want.force_Pa_mm2)) + 1e-12 * 1e6 * want.area_mm2,
                     qPrintable(where));
            ++compared;
            nonEmpty += want.polygons > 0 ? 1 : 0;
            coplanar += depth == 0 && m.name == "box" && n.name == "block" && fast.polygons > 0 ? 1 : 0;
          }
    }
  }
  QCOMPARE(compared, 2 * 2 * 4 * 2 * 2);
  QVERIFY2(nonEmpty >= 2 * 2 * 3 * 2 * 2, qPrintable(QString("only %1 of %2 poses overlap").arg(nonEmpty).arg(compared)));
  QCOMPARE(coplanar, 4);
}

void TstHydroRigidFastPath::compactTreeHoldsEveryTetOnce() {
  // The fingertip's sphere at three resolutions (8, 128 and 8192 tets; the first is one level above a leaf), the
  // exact box and a capsule.
  const std::vector<Body> soft = {compliant(primitiveBody("coarse sphere", Sphere{9}), 1e6, 0),
                                  compliant(primitiveBody("sphere", Sphere{9}), 1e6, 4.5),
                                  compliant(primitiveBody("fine sphere", Sphere{9}), 1e6, 0.5),
                                  compliant(primitiveBody("box", Box{Vec3(10, 14, 8)}), 1e6),
                                  compliant(primitiveBody("capsule", Capsule{5, 12}), 1e6, 2)};
  for (const Body& m : soft) {
    const CompliantGeometry g = makeCompliantGeometry(m.mesh.get(), m.primitive, CompliantSpec{{1e6, m.hydroelastic->resolutionHint_mm, 0}, 10});
    const SoftVolume& v = *g.volume;
    const TetBvh& tree = v.bvh;
    const std::size_t tets = v.field.mesh.tetCount();
    QVERIFY2(!tree.boxes.empty() && tree.order.size() == tets, m.name.c_str());
    std::vector<int> seen(tets, 0);
    std::size_t leaves = 0;
    // Depth-first from the root, each box checked to hold every tet of its range.
    std::vector<std::size_t> stack{0};
    while (!stack.empty()) {
      const TetBvh::Box& b = tree.boxes[stack.back()];
      stack.pop_back();
      QVERIFY(b.count > 0 && b.first + b.count <= tets);
      for (std::uint32_t i = b.first; i < b.first + b.count; ++i)
        for (int j = 0; j < 4; ++j)
          for (int k = 0; k < 3; ++k) QVERIFY2(b.corner[0][k] <= v.tetLanes[tree.order[i]].vertex(j)[k] &&
                         v.tetLanes[tree.order[i]].vertex(j)[k] <= b.corner[1][k], m.name.c_str());
      if (b.firstChild < 0) {
        QVERIFY2(b.count <= TetBvh::kLeafTets, m.name.c_str());
        for (std::uint32_t i = b.first; i < b.first + b.count; ++i) ++seen[tree.order[i]];
        ++leaves;
        continue;
      }
      const auto c = static_cast<std::size_t>(b.firstChild);
      QVERIFY(c + 1 < tree.boxes.size());
      // The two children split the parent's range, and a subtree of ≤ kLeafTets tets would have been a leaf.
      QCOMPARE(tree.boxes[c].first, b.first);
      QCOMPARE(tree.boxes[c].count + tree.boxes[c + 1].count, b.count);
      QCOMPARE(tree.boxes[c + 1].first, b.first + tree.boxes[c].count);
      QVERIFY2(b.count > TetBvh::kLeafTets, m.name.c_str());
      stack.push_back(c);
      stack.push_back(c + 1);
    }
    QVERIFY2(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }), m.name.c_str());
    QVERIFY2(leaves >= (tets + TetBvh::kLeafTets - 1) / TetBvh::kLeafTets, m.name.c_str());
  }
}

QTEST_GUILESS_MAIN(TstHydroRigidFastPath)
#include "tst_hydro_rigid_fastpath.moc"
