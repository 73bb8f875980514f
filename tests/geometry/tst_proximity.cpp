// Triangle primitives, BVH queries (collision, distance, contacts) against closed-form answers.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "geometry/BvhCache.h"
#include "geometry/MassProperties.h"
#include "geometry/MeshTopology.h"
#include "geometry/Primitives.h"
#include "geometry/Proximity.h"
#include "geometry/ProximityContacts.h"
#include "geometry/ProximityTraversal.h"
#include "geometry/SeparationBound.h"
#include "geometry/TopologyCache.h"

using namespace sg;

namespace {

Transform placedAt(double x, double y, double z) { return Transform::fromTranslation(Vec3(x, y, z)); }
Transform rotZ(double rad, const Vec3& t = Vec3::Zero()) { return Transform(Quat(Eigen::AngleAxisd(rad, Vec3::UnitZ())), t); }

// A 100×100×10 mm slab whose top face is z = 0.
Bvh slab(BoxFit fit = BoxFit::Aligned) {
  TriangleMesh m = makeBox(Vec3(100, 100, 10));
  m.transform(Mat3::Identity(), Vec3(0, 0, -5));
  return Bvh(m, {fit, 2});
}

// Both meshes' triangles in the world frame once (not once per pair: the same products, so the same values).
std::vector<TrianglePoints> worldTriangles(const TriangleMesh& m, const Transform& pose) {
  std::vector<TrianglePoints> out;
  out.reserve(m.triangleCount());
  for (std::size_t i = 0; i < m.triangleCount(); ++i)
    out.push_back({pose * m.triangleVertex(i, 0), pose * m.triangleVertex(i, 1), pose * m.triangleVertex(i, 2)});
  return out;
}

double bruteForceDistance(const TriangleMesh& a, const Transform& pa, const TriangleMesh& b, const Transform& pb) {
  double best = std::numeric_limits<double>::infinity();
  const std::vector<TrianglePoints> ta = worldTriangles(a, pa), tb = worldTriangles(b, pb);
  for (const TrianglePoints& x : ta)
    for (const TrianglePoints& y : tb) best = std::min(best, triangleDistance(x, y).distance);
  return best;
}

// The penetration estimate by its definition (Proximity.h): every vertex of one mesh inside the other's box
// voted on by pointInsideMesh and measured to the other's surface by closestPointOnMesh, the deepest kept
// (the first of equal depths), A's vertices before B's. estimatePenetration votes once per component instead.
void deepestVertexByVotes(const Bvh& inner, const Transform& innerPose, const Bvh& outer, const Transform& outerPose,
                          double& depth, Vec3& innerPoint, Vec3& outerPoint, int& votedInside) {
  const Transform toOuter = outerPose.inverse() * innerPose;
  const AlignedBox& box = outer.bounds();
  for (const Vec3& v : inner.vertices()) {
    const Vec3 q = toOuter * v;
    if ((q.array() < box.min.array()).any() || (q.array() > box.max.array()).any()) continue;
    const Vec3 w = innerPose * v;
    if (!pointInsideMesh(outer, outerPose, w)) continue;
    ++votedInside;
    const auto c = closestPointOnMesh(outer, outerPose, w);
    if (c.distance_mm > depth) {
      depth = c.distance_mm;
      innerPoint = w;
      outerPoint = c.point_mm;
    }
  }
}
PenetrationEstimate penetrationByVotes(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                                       int& votedInside) {
  PenetrationEstimate e;
  double depthA = 0, depthB = 0;
  Vec3 aIn, bSurf, bIn, aSurf;
  deepestVertexByVotes(a, X_WA, b, X_WB, depthA, aIn, bSurf, votedInside);
  deepestVertexByVotes(b, X_WB, a, X_WA, depthB, bIn, aSurf, votedInside);
  if (depthA <= 0 && depthB <= 0) return e;
  if (depthA >= depthB) {
    e.depth_mm = depthA;
    e.p_WCa_mm = aIn;
    e.p_WCb_mm = bSurf;
    e.nA_W = (bSurf - aIn).normalized();
  } else {
    e.depth_mm = depthB;
    e.p_WCa_mm = aSurf;
    e.p_WCb_mm = bIn;
    e.nA_W = (bIn - aSurf).normalized();
  }
  return e;
}

}  // namespace

class TestProximity : public QObject {
  Q_OBJECT
 private slots:
  void primitivesAreClosedAndOutward() {
    const auto box = computeMassProperties(makeBox(Vec3(2, 3, 4)));
    QVERIFY(box);
    QCOMPARE_LE(std::abs(box->volume_mm3 - 24.0), 1e-9);
    for (const TriangleMesh& m : {makeIcosphere(10, 3), makeUvSphere(10, 24, 12), makeCylinder(5, 10, 32),
                                  makeTorus(20, 5, 48, 24)}) {
      // Raw signed volume: positive only if every triangle faces outward.
      double v = 0;
      for (std::size_t i = 0; i < m.triangleCount(); ++i)
        v += m.triangleVertex(i, 0).dot(m.triangleVertex(i, 1).cross(m.triangleVertex(i, 2))) / 6.0;
      QVERIFY(v > 0);
    }
    QCOMPARE(makeIcosphere(1, 2).triangleCount(), std::size_t(320));
    const auto torus = makeTorus(20, 5, 256, 128);
    QCOMPARE(torus.triangleCount(), std::size_t(65536));
  }

  // Bvh::trianglesAtVertex: exactly the triangles holding the vertex, ascending; nothing for an unknown one.
  void vertexAdjacency() {
    for (const TriangleMesh& mesh : {makeIcosphere(10, 2), makeBox(Vec3(3, 4, 5)), makeCylinder(2, 6, 12)}) {
      const Bvh bvh(mesh);
      std::size_t total = 0;
      for (std::uint32_t v = 0; v < mesh.vertexCount(); ++v) {
        std::vector<std::uint32_t> expected;
        for (std::uint32_t t = 0; t < mesh.triangles.size(); ++t)
          if (mesh.triangles[t][0] == v || mesh.triangles[t][1] == v || mesh.triangles[t][2] == v) expected.push_back(t);
        const auto [first, last] = bvh.trianglesAtVertex(v);
        QCOMPARE(std::vector<std::uint32_t>(first, last), expected);
        total += expected.size();
      }
      QCOMPARE(total, 3 * mesh.triangles.size());
      const auto [none, noneEnd] = bvh.trianglesAtVertex(static_cast<std::uint32_t>(mesh.vertexCount()));
      QVERIFY(none == noneEnd);
    }
  }
  void triangleIntersection() {
    const TrianglePoints flat{Vec3(-1, -1, 0), Vec3(2, -1, 0), Vec3(-1, 2, 0)};
    const TrianglePoints crossing{Vec3(0, 0, -1), Vec3(0.2, 0, 1), Vec3(0, 0.2, 1)};
    QVERIFY(trianglesIntersect(flat, crossing));
    const TrianglePoints above{Vec3(0, 0, 1e-7), Vec3(0.2, 0, 1), Vec3(0, 0.2, 1)};
    QVERIFY(!trianglesIntersect(flat, above));
    const TrianglePoints touching{Vec3(0, 0, 0), Vec3(0.2, 0, 1), Vec3(0, 0.2, 1)};
    QVERIFY(trianglesIntersect(flat, touching));
    // Coplanar: overlapping and disjoint.
    const TrianglePoints coplanar{Vec3(0, 0, 0), Vec3(3, 0, 0), Vec3(0, 0.5, 0)};
    QVERIFY(trianglesIntersect(flat, coplanar));
    const TrianglePoints farCoplanar{Vec3(5, 5, 0), Vec3(6, 5, 0), Vec3(5, 6, 0)};
    QVERIFY(!trianglesIntersect(flat, farCoplanar));
    // Degenerate triangles never crash; a needle through the face intersects.
    const TrianglePoints needle{Vec3(0, 0, -1), Vec3(0, 0, 1), Vec3(0, 0, 0.5)};
    QVERIFY(trianglesIntersect(flat, needle));
    const TrianglePoints point{Vec3(0, 0, 3), Vec3(0, 0, 3), Vec3(0, 0, 3)};
    QVERIFY(!trianglesIntersect(flat, point));
    QCOMPARE_LE(std::abs(triangleDistance(flat, point).distance - 3.0), 1e-12);
  }

  void segmentAndPointClosest() {
    const auto s = closestSegmentSegment(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0, -1, 2), Vec3(0, 1, 2));
    QCOMPARE_LE(std::abs(s.distanceSquared - 4.0), 1e-12);
    QCOMPARE_LE(std::abs(s.s - 0.5), 1e-12);
    const auto p = closestPointOnTriangle(Vec3(0.2, 0.2, 5), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0));
    QCOMPARE(p.feature, TriangleFeature::Face);
    QVERIFY(p.point.isApprox(Vec3(0.2, 0.2, 0)));
    const auto v = closestPointOnTriangle(Vec3(-1, -1, 0), Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0));
    QCOMPARE(v.feature, TriangleFeature::Vertex0);
  }

  void convexHull() {
    std::vector<Vec2> pts{{0, 0}, {2, 0}, {2, 2}, {0, 2}, {1, 1}, {1, 0}, {0.5, 1.5}};
    auto hull = convexHull2d(pts);
    std::sort(hull.begin(), hull.end());
    QCOMPARE(hull, (std::vector<std::size_t>{0, 1, 2, 3}));
  }

  // A pad's contact points on a box face: the corners of a 26 × 38 rectangle and points on its edges, the edges
  // parallel to the axes. Round-off of a rigid motion shifts the edge points' x by a few 1e-14 either way, so
  // that ties in x come in any order: the hull is the four corners every time, and after any rotation too.
  void convexHullOfAxisAlignedEdges() {
    const std::vector<Vec2> base{{-13, 42},        {-13, 80}, {13, 42}, {13, 80}, {13, 61.714285714285715},
                                 {-13, 55.5},      {0, 42},   {0, 80},  {13, 70}};
    const std::vector<double> jitter{0, 3.6e-15, -3.6e-15, 7.1e-15, -1.4e-14};
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::size_t> pick(0, jitter.size() - 1);
    std::uniform_real_distribution<double> angle(-kPi, kPi);
    for (int trial = 0; trial < 200; ++trial) {
      const double a = trial < 100 ? 0.0 : angle(rng);  // axis-aligned first, then turned
      const Eigen::Rotation2Dd turn(a);
      std::vector<Vec2> pts;
      for (const Vec2& p : base) pts.push_back(turn * (p + Vec2(jitter[pick(rng)], jitter[pick(rng)])));
      auto hull = convexHull2d(pts);
      std::sort(hull.begin(), hull.end());
      QVERIFY2(hull == (std::vector<std::size_t>{0, 1, 2, 3}), qPrintable(QString("trial %1").arg(trial)));
    }
  }

  void collisionAtTinyGaps_data() {
    QTest::addColumn<int>("fit");
    QTest::newRow("aabb") << int(BoxFit::Aligned);
    QTest::newRow("obb") << int(BoxFit::Oriented);
  }
  void collisionAtTinyGaps() {
    QFETCH(int, fit);
    const Bvh base = slab(BoxFit(fit));
    const Bvh cube(makeBox(Vec3(10, 10, 10)), {BoxFit(fit), 2});
    QVERIFY(!meshesCollide(base, {}, cube, rotZ(0.3, Vec3(0, 0, 5 + 1e-6))));
    QVERIFY(meshesCollide(base, {}, cube, rotZ(0.3, Vec3(0, 0, 5 - 1e-6))));
    QVERIFY(meshesCollide(base, {}, cube, rotZ(0.3, Vec3(0, 0, 5))));  // touching counts
    QVERIFY(!meshesCollide(base, {}, cube, placedAt(0, 0, 20)));
    QVERIFY(meshesCollide(base, {}, cube, placedAt(0, 0, 0)));
  }

  void sphereOnPlane() {
    const Bvh base = slab();
    const Bvh sphere(makeUvSphere(10, 32, 32));
    for (double gap : {0.01, 0.05, 0.15}) {
      const Transform pose = placedAt(3, -2, 10 + gap);
      const auto d = meshDistance(base, {}, sphere, pose);
      QVERIFY(!d.colliding);
      QCOMPARE_LE(std::abs(d.distance_mm - gap), 1e-9);
      const auto c = meshContacts(base, {}, sphere, pose);
      QVERIFY(!c.colliding);
      QCOMPARE(c.points.size(), std::size_t(1));
      const ContactPoint& p = c.points.front();
      QVERIFY(p.p_WCb_mm.isApprox(Vec3(3, -2, gap), 1e-9));
      QVERIFY(p.p_WCa_mm.isApprox(Vec3(3, -2, 0), 1e-9));
      QVERIFY(p.nA_W.isApprox(-Vec3::UnitZ(), 1e-9));  // into the slab
      QVERIFY(p.nB_W.isApprox(Vec3::UnitZ(), 1e-9));   // into the sphere
      QCOMPARE_LE(std::abs(p.distance_mm - gap), 1e-9);
      const auto s = signedSeparation(base, {}, sphere, pose);
      QCOMPARE_LE(std::abs(s.separation_mm - gap), 1e-9);
    }
    // Beyond the threshold: no contacts.
    QVERIFY(meshContacts(base, {}, sphere, placedAt(0, 0, 10.25)).points.empty());
    // Penetration: the pole 0.5 mm deep.
    const auto s = signedSeparation(base, {}, sphere, placedAt(0, 0, 9.5));
    QVERIFY(s.colliding);
    QCOMPARE_LE(std::abs(s.separation_mm + 0.5), 1e-9);
    QVERIFY(s.nB_W.isApprox(Vec3::UnitZ(), 1e-9));
    QVERIFY(meshContacts(base, {}, sphere, placedAt(0, 0, 9.5)).colliding);
  }

  void boxOnBoxCompactsToCorners() {
    const Bvh base = slab();
    const Bvh cube(makeBox(Vec3(10, 10, 10)), {BoxFit::Oriented, 1});
    const Transform pose = rotZ(0.5, Vec3(1, 2, 5.05));
    const auto c = meshContacts(base, {}, cube, pose);
    QVERIFY(!c.colliding);
    QCOMPARE(c.points.size(), std::size_t(4));
    for (const auto& p : c.points) {
      QVERIFY(p.nB_W.isApprox(Vec3::UnitZ(), 1e-9));
      QCOMPARE_LE(std::abs(p.distance_mm - 0.05), 1e-9);
      // Every kept point is a bottom corner of the cube.
      const Vec3 local = pose.inverse() * p.p_WCb_mm;
      QVERIFY((local.cwiseAbs() - Vec3(5, 5, 5)).cwiseAbs().maxCoeff() < 1e-9);
    }
    // Without compaction there are more (edge crossings, shared vertices kept apart by > 3 mm).
    ContactQueryOptions loose;
    loose.compact = false;
    QVERIFY(meshContacts(base, {}, cube, pose, loose).points.size() >= 4);
  }

  void crossedEdges() {
    // Lower box: top is a ridge along x; upper box: bottom is a ridge along y; 0.1 mm apart.
    const TriangleMesh cube = makeBox(Vec3(10, 10, 10));
    const double h = 5 * std::sqrt(2.0);
    const Transform lower(Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitX())), Vec3(0, 0, -h));
    const Transform upper(Quat(Eigen::AngleAxisd(kPi / 4, Vec3::UnitY())), Vec3(0, 0, h + 0.1));
    const Bvh b(cube);
    const auto c = meshContacts(b, lower, b, upper);
    QVERIFY(!c.colliding);
    QCOMPARE(c.points.size(), std::size_t(1));
    QVERIFY(c.points[0].edgeEdge);
    QVERIFY(c.points[0].p_WCa_mm.isApprox(Vec3(0, 0, 0), 1e-9) || c.points[0].p_WCa_mm.norm() < 1e-9);
    QVERIFY(c.points[0].nA_W.isApprox(-Vec3::UnitZ(), 1e-9));
    QCOMPARE_LE(std::abs(meshDistance(b, lower, b, upper).distance_mm - 0.1), 1e-9);
  }

  void thinPlate() {
    // A plate thinner than the threshold: the far face is in range too but the near one wins.
    const TriangleMesh plate = makeBox(Vec3(40, 40, 0.1));
    const Bvh p(plate), sphere(makeUvSphere(5, 24, 24));
    const auto c = meshContacts(p, {}, sphere, placedAt(0, 0, 0.05 + 5.05));
    QCOMPARE(c.points.size(), std::size_t(1));
    QCOMPARE_LE(std::abs(c.points[0].distance_mm - 0.05), 1e-9);
    QVERIFY(c.points[0].nB_W.isApprox(Vec3::UnitZ(), 1e-9));
    // An open, zero-thickness plane works as well.
    const Bvh sheet(makePlane(40, 4));
    const auto s = meshContacts(sheet, {}, sphere, placedAt(0.3, 0.1, 5.1));
    QCOMPARE(s.points.size(), std::size_t(1));
    QVERIFY(s.points[0].nA_W.isApprox(-Vec3::UnitZ(), 1e-9));
  }

  void separationClosedForms() {
    // Two icospheres facing each other vertex to vertex: distance = centre distance − 2r exactly.
    const TriangleMesh ico = makeIcosphere(10, 4);
    const Bvh s(ico);
    const Vec3 axis = Vec3(0, 1, (1 + std::sqrt(5.0)) / 2).normalized();  // an icosahedron vertex direction
    for (double gap : {0.05, 1.0, 10.0}) {
      const auto d = meshDistance(s, {}, s, Transform::fromTranslation(axis * (20 + gap)));
      QCOMPARE_LE(std::abs(d.distance_mm - gap), 1e-9);
      QVERIFY(d.p_WCa_mm.isApprox(10 * axis, 1e-9));
    }
    // Arbitrary directions: within the tessellation sag of the analytic value.
    const Bvh fine(makeIcosphere(10, 5));
    const double sag = 0.01;
    for (const Vec3& dir : {Vec3(1, 0.3, -0.2), Vec3(-0.4, 1, 0.7)}) {
      const auto d = meshDistance(fine, {}, fine, Transform::fromTranslation(dir.normalized() * 23));
      QVERIFY(d.distance_mm >= 3 - 1e-9 && d.distance_mm <= 3 + 2 * sag);
    }
    // Sphere above a box corner: |c − corner| − r.
    const Bvh box(makeBox(Vec3(20, 20, 20)));
    const Vec3 corner(10, 10, 10), c = corner + Vec3(1, 2, 3).normalized() * 14;
    const auto d = meshDistance(box, {}, fine, Transform::fromTranslation(c));
    QVERIFY(d.distance_mm >= 4 - 1e-9 && d.distance_mm <= 4 + sag);
    QVERIFY(d.p_WCa_mm.isApprox(corner, 1e-9));
    // Sphere above a face, pole down: exact.
    const Bvh uv(makeUvSphere(10, 32, 16));
    QCOMPARE_LE(std::abs(meshDistance(box, {}, uv, placedAt(2, 3, 10 + 10 + 7)).distance_mm - 7), 1e-9);
  }

  void distanceMatchesBruteForce() {
    const TriangleMesh a = makeIcosphere(6, 1), b = makeTorus(8, 2, 12, 8);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (BoxFit fit : {BoxFit::Aligned, BoxFit::Oriented}) {
      const Bvh ba(a, {fit, 1}), bb(b, {fit, 3});
      for (int k = 0; k < 40; ++k) {
        const Transform pa(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                           Vec3(10 * u(rng), 10 * u(rng), 10 * u(rng)));
        const Transform pb(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                           Vec3(10 * u(rng), 10 * u(rng), 10 * u(rng)));
        const double expected = bruteForceDistance(a, pa, b, pb);
        const auto d = meshDistance(ba, pa, bb, pb);
        QCOMPARE_LE(std::abs(d.distance_mm - expected), 1e-9);
        QCOMPARE(meshesCollide(ba, pa, bb, pb), expected == 0);
        if (!d.colliding) QCOMPARE_LE(std::abs((d.p_WCa_mm - d.p_WCb_mm).norm() - expected), 1e-9);
        // The reported triangles (source mesh indices) hold the witness points and are that far apart.
        const auto worldTriangle = [](const TriangleMesh& m, const Transform& pose, std::uint32_t t) {
          const auto& f = m.triangles.at(t);
          return TrianglePoints{pose * m.vertices[f[0]], pose * m.vertices[f[1]], pose * m.vertices[f[2]]};
        };
        const TrianglePoints ta = worldTriangle(a, pa, d.triangleA), tb = worldTriangle(b, pb, d.triangleB);
        QCOMPARE_LE(closestPointOnTriangle(d.p_WCa_mm, ta[0], ta[1], ta[2]).distanceSquared, 1e-18);
        QCOMPARE_LE(closestPointOnTriangle(d.p_WCb_mm, tb[0], tb[1], tb[2]).distanceSquared, 1e-18);
        QCOMPARE_LE(std::abs(triangleDistance(ta, tb).distance - expected), 1e-9);
      }
    }
  }

  // meshSeparationBound (the pair screen's certificate; its node test is the single-precision compact gap less
  // its margin): never above the true distance, above the cap whenever it is not 0, and 0 only when the meshes
  // come within the cap — near the origin and 2 m from it (where the float margin is largest).
  void separationBoundIsCertified() {
    const TriangleMesh a = makeIcosphere(6, 1), b = makeTorus(8, 2, 12, 8);
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(-1, 1);
    int certified = 0, within = 0;
    for (BoxFit fit : {BoxFit::Aligned, BoxFit::Oriented}) {
      const Bvh ba(a, {fit, 1}), bb(b, {fit, 3});
      for (const double offset : {0.0, 2000.0}) {
        for (int k = 0; k < 60; ++k) {
          const Vec3 far = Vec3(offset, -0.5 * offset, 0.3 * offset);
          const Transform pa(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                             far + Vec3(12 * u(rng), 12 * u(rng), 12 * u(rng)));
          const Transform pb(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                             far + Vec3(12 * u(rng), 12 * u(rng), 12 * u(rng)));
          const double expected = bruteForceDistance(a, pa, b, pb);
          for (const double cap : {0.2, 1.0, 3.0}) {
            const double bound = meshSeparationBound(ba, pa, bb, pb, cap);
            QCOMPARE_LE(bound, expected + 1e-9);
            if (bound == 0) {
              QCOMPARE_LE(expected, cap + 1e-9);
              ++within;
            } else {
              QVERIFY(bound > cap);
              ++certified;
            }
          }
        }
      }
    }
    QVERIFY(certified > 50 && within > 50);
  }

  // The pruning bounds meshDistance relies on never exceed the true distance: the plane (slab) bound of a
  // triangle pair, including zero-area triangles whose stored normal is arbitrary, and the node spheres.
  void pruningBoundsAreLowerBounds() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    auto point = [&] { return Vec3(5 * u(rng), 5 * u(rng), 5 * u(rng)); };
    int tight = 0, tighter = 0;
    for (int k = 0; k < 5000; ++k) {
      TrianglePoints t1{point(), point(), point()}, t2{point(), point(), point()};
      if (k % 7 == 0) t1[2] = 0.5 * (t1[0] + t1[1]);   // collinear: zero area
      if (k % 11 == 0) t2[1] = t2[0];                  // repeated vertex
      if (k % 3 == 0) for (auto& v : t2) v += Vec3(0, 0, 12);  // mostly apart
      auto unitNormal = [&](const TrianglePoints& t) {
        const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
        return n.norm() > 1e-12 ? Vec3(n.normalized()) : Vec3(Vec3(u(rng), u(rng), u(rng)).normalized());
      };
      const Vec3 n1 = unitNormal(t1), n2 = unitNormal(t2);
      const double bound = triangleDistanceLowerBound(t1, n1, t2, n2);
      const double exact = triangleDistance(t1, t2).distance;
      QVERIFY2(bound <= exact + 1e-9, qPrintable(QString("bound %1 > distance %2").arg(bound).arg(exact)));
      if (exact > 1 && bound > 0.5 * exact) ++tight;
      // With the edge normals: still a lower bound, never looser, and tighter for pairs side by side.
      const double edged = triangleDistanceLowerBound(t1, n1, triangleEdgeNormals(t1), t2, n2, triangleEdgeNormals(t2));
      QVERIFY2(edged <= exact + 1e-9, qPrintable(QString("edge bound %1 > distance %2").arg(edged).arg(exact)));
      QVERIFY(edged >= bound - 1e-12);
      if (edged > bound + 1e-3) ++tighter;
      // The early-exit form decides exactly as the full bound, at thresholds just below, at and above it
      // and at each side's plane gap (where the plane test alone would decide).
      const auto m1 = triangleEdgeNormals(t1), m2 = triangleEdgeNormals(t2);
      const double planeGap1 = triangleDistanceLowerBound(t1, n1, t2, Vec3(n1));
      for (double threshold : {0.0, edged, std::nextafter(edged, 0.0), std::nextafter(edged, 1e9), 0.5 * edged,
                               planeGap1, std::nextafter(planeGap1, 0.0), bound, std::nextafter(bound, 0.0)})
        QCOMPARE(triangleDistanceExceeds(t1, n1, m1, t2, n2, m2, threshold), edged > threshold);
    }
    QVERIFY(tight > 500);  // and it is not a trivial 0
    QVERIFY(tighter > 500);
    // Coplanar neighbours across an edge: the plane bound is 0, the edge bound the true gap.
    const TrianglePoints left{Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};
    const TrianglePoints right{Vec3(3, 0, 0), Vec3(4, 0, 0), Vec3(3, 1, 0)};
    QCOMPARE(triangleDistanceLowerBound(left, Vec3::UnitZ(), right, Vec3::UnitZ()), 0.0);
    QCOMPARE_LE(std::abs(triangleDistanceLowerBound(left, Vec3::UnitZ(), triangleEdgeNormals(left), right,
                                                    Vec3::UnitZ(), triangleEdgeNormals(right)) -
                         triangleDistance(left, right).distance),
                1e-12);
    const TriangleMesh torus = makeTorus(8, 2, 24, 12);
    for (BoxFit fit : {BoxFit::Aligned, BoxFit::Oriented}) {
      const Bvh bvh(torus, {fit, 2});
      for (const BvhNode& n : bvh.nodes())
        for (std::uint32_t i = n.firstTriangle; i < n.firstTriangle + n.triangleCount; ++i)
          for (const Vec3& v : bvh.triangles()[i]) QVERIFY((v - n.box.center).norm() <= n.box.radius);
    }
  }

  // The distance search's float box gap (CompactBox.h) less its margin never exceeds the double face-axis
  // gap, itself a lower bound on the boxes' distance: boxes in every orientation, parallel and nearly
  // parallel, overlapping, touching and apart, near the origin and 2 m from it, as given and mapped from a
  // body frame in floats; and it stays within twice the margin of it (a looser bound would prune less).
  void compactBoxGapIsALowerBound() {
    std::mt19937 rng(31);
    std::uniform_real_distribution<double> u(-1, 1);
    auto rotation = [&](double angle) {
      return Quat(Eigen::AngleAxisd(angle * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())).toRotationMatrix();
    };
    int apart = 0, overlapping = 0;
    for (const double offset : {0.0, 60.0, 2000.0}) {
      const Vec3 origin = offset * Vec3(0.8, -0.5, 0.3);
      for (int k = 0; k < 20000; ++k) {
        BvhBox a, b;
        a.axes = rotation(3.2);
        b.axes = k % 4 == 0 ? a.axes : k % 4 == 1 ? Mat3(a.axes * rotation(1e-4)) : rotation(3.2);
        a.halfExtents = Vec3(20 * (u(rng) + 1.001), 20 * (u(rng) + 1.001), k % 3 == 0 ? 1e-9 : 5 * (u(rng) + 1.001));
        b.halfExtents = Vec3(10 * (u(rng) + 1.001), 3 * (u(rng) + 1.001), 10 * (u(rng) + 1.001));
        a.center = origin + Vec3(30 * u(rng), 30 * u(rng), 30 * u(rng));
        // b's centre at a random distance along a random direction or one of a's face axes; every 7th just
        // touching along it.
        const Vec3 dir = k % 5 == 0 ? Vec3(a.axes.col(k % 3)) : Vec3(u(rng), u(rng), u(rng)).normalized();
        const double reach = (a.halfExtents.array() * (a.axes.transpose() * dir).array().abs()).sum() +
                             (b.halfExtents.array() * (b.axes.transpose() * dir).array().abs()).sum();
        b.center = a.center + dir * (reach * (1 + (k % 7 == 0 ? 1e-6 : 0.3) * u(rng)));
        const double exact = detail::boxGapMapped(a, b.axes, b.center, b.halfExtents,
                                                  std::numeric_limits<double>::infinity(), false);
        const double scale = std::max(a.center.norm() + a.halfExtents.norm(), b.center.norm() + b.halfExtents.norm());
        const double margin = compactGapMargin(scale);
        const double fast = compactBoxGap(makeCompactBox(a.axes, a.center, a.halfExtents),
                                          makeCompactBox(b.axes, b.center, b.halfExtents)) - margin;
        const QString what = QString("offset %1, pair %2: float gap %3, exact %4")
                                 .arg(offset).arg(k).arg(fast, 0, 'g', 17).arg(exact, 0, 'g', 17);
        QVERIFY2(fast <= exact + 1e-12 * scale, qPrintable(what));
        QVERIFY2(fast >= exact - 2 * margin, qPrintable(what));
        // The same box b given in a body frame 1 m away and mapped by the pose in floats, as PairFrame does.
        const Mat3 R = rotation(3.2);
        const Vec3 t = origin + Vec3(1000 * u(rng), 1000 * u(rng), 1000 * u(rng));
        const Vec3 bodyCenter = R.transpose() * (b.center - t);
        const double mappedScale = std::max(a.center.norm() + a.halfExtents.norm(),
                                            t.norm() + bodyCenter.norm() + b.halfExtents.norm());
        const double mappedMargin = compactGapMargin(mappedScale);
        const CompactBox bodyBox = makeCompactBox(R.transpose() * b.axes, bodyCenter, b.halfExtents);
        const double mapped = compactBoxGap(makeCompactBox(a.axes, a.center, a.halfExtents),
                                            detail::mapCompactBox(bodyBox, detail::CompactMotion(R, t))) - mappedMargin;
        QVERIFY2(mapped <= exact + 1e-12 * mappedScale, qPrintable(what + QString(", mapped %1").arg(mapped, 0, 'g', 17)));
        QVERIFY2(mapped >= exact - 2 * mappedMargin, qPrintable(what + QString(", mapped %1").arg(mapped, 0, 'g', 17)));
        (exact > 0 ? apart : overlapping)++;
      }
    }
    qDebug("%d pairs apart, %d overlapping", apart, overlapping);
    QVERIFY(apart > 10000 && overlapping > 10000);
  }

  // compactBoxGapExceeds (the traversals' prune test) answers exactly `compactBoxGap − margin > limit`, at limits
  // on either side of that value and exactly at it, where a wrong early exit (b's sum, another lane order, the
  // limit without the margin) would answer otherwise.
  void compactGapExceedsIsTheGapTest() {
    std::mt19937 rng(57);
    std::uniform_real_distribution<double> u(-1, 1);
    auto rotation = [&]() {
      return Quat(Eigen::AngleAxisd(3.2 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())).toRotationMatrix();
    };
    int checked = 0, beyond = 0, apart = 0;
    for (const double offset : {0.0, 60.0, 2000.0}) {
      const Vec3 origin = offset * Vec3(0.8, -0.5, 0.3);
      for (int k = 0; k < 20000; ++k) {
        const Mat3 axesA = rotation(), axesB = k % 3 == 0 ? axesA : rotation();
        const Vec3 extA(20 * (u(rng) + 1.001), 5 * (u(rng) + 1.001), k % 4 == 0 ? 1e-9 : 8 * (u(rng) + 1.001));
        const Vec3 extB(10 * (u(rng) + 1.001), 3 * (u(rng) + 1.001), 10 * (u(rng) + 1.001));
        const Vec3 cA = origin + Vec3(30 * u(rng), 30 * u(rng), 30 * u(rng));
        const Vec3 cB = cA + (k % 2 == 0 ? 80.0 : 20.0) * Vec3(u(rng), u(rng), u(rng));
        const CompactBox a = makeCompactBox(axesA, cA, extA), b = makeCompactBox(axesB, cB, extB);
        const double margin = compactGapMargin(std::max(cA.norm() + extA.norm(), cB.norm() + extB.norm()));
        const double gap = static_cast<double>(compactBoxGap(a, b)) - margin;
        // Limits at the value, one step to either side of it, and elsewhere.
        for (const double base : {gap, 0.5 * gap, gap - 1.0, 0.0, 1e-6, 0.2})
          for (const double limit : {base, std::nextafter(base, -1e300), std::nextafter(base, 1e300)}) {
            const bool expected = gap > limit;
            QVERIFY2(compactBoxGapExceeds(a, b, margin, limit) == expected,
                     qPrintable(QString("offset %1, pair %2: gap %3, limit %4").arg(offset).arg(k)
                                    .arg(gap, 0, 'g', 17).arg(limit, 0, 'g', 17)));
            ++checked;
            beyond += expected ? 1 : 0;
          }
        apart += gap > 0 ? 1 : 0;
      }
    }
    qDebug("%d tests, %d beyond, %d pairs apart", checked, beyond, apart);
    QVERIFY(beyond > checked / 10 && beyond < 9 * checked / 10 && apart > 1000);
  }

  // Meshes 3 m from their body origin: the float boxes' margin grows with the coordinates and the answer
  // stays the exact one.
  void distanceFarFromTheOrigin() {
    TriangleMesh a = makeIcosphere(5, 2), b = makeTorus(12, 3, 16, 8);
    const Vec3 far(3000, -2000, 1500);
    a.transform(Mat3::Identity(), far);
    b.transform(Mat3::Identity(), -far);
    const Bvh ba(a), bb(b);
    std::mt19937 rng(41);
    std::uniform_real_distribution<double> u(-1, 1);
    DistanceWarmStart warm;
    for (int k = 0; k < 30; ++k) {
      const Transform pa = placedAt(-far.x(), -far.y(), -far.z());
      const Quat q(Eigen::AngleAxisd(0.3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()));
      // The torus's centre near the world origin, by the sphere.
      const Transform pb(q, q * far + Vec3(12 + 4 * u(rng), 2 * u(rng), 3 + 4 * u(rng)));
      const double expected = bruteForceDistance(a, pa, b, pb);
      const MeshDistance cold = meshDistance(ba, pa, bb, pb);
      const MeshDistance hot = meshDistance(ba, pa, bb, pb, warm);
      QCOMPARE_LE(std::abs(cold.distance_mm - expected), 1e-9);
      QCOMPARE(hot.distance_mm, cold.distance_mm);
      QVERIFY(hot.p_WCa_mm == cold.p_WCa_mm && hot.p_WCb_mm == cold.p_WCb_mm);
    }
  }

  void contactsMatchAnUnprunedTree() {
    // The contact query's box culls (single-precision node gaps less their rounding margin) must drop no pair
    // with a point within the threshold: every raw report (no merging, no compaction) equals the one of a tree
    // whose single leaf holds every triangle, so nothing is culled below the root. Random poses near touching.
    const TriangleMesh torus = makeTorus(15, 5, 24, 12);
    const TriangleMesh sphere = makeUvSphere(6, 16, 12);
    const Bvh torusTree(torus), sphereTree(sphere);
    const Bvh torusLeaf(torus, {BoxFit::Oriented, 1 << 20}), sphereLeaf(sphere, {BoxFit::Oriented, 1 << 20});
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    ContactQueryOptions raw;
    raw.duplicateRadius_mm = 0;
    raw.compact = false;
    int withPoints = 0;
    for (int k = 0; k < 60; ++k) {
      raw.threshold_mm = k % 3 == 0 ? 0.2 : k % 3 == 1 ? 1.0 : 3.0;
      // The sphere's centre near the torus tube's surface (distance 5 + 6 from the tube's centre circle).
      const double phi = kPi * u(rng), theta = kPi * u(rng);
      const Vec3 ring(15 * std::cos(phi), 15 * std::sin(phi), 0);
      const Vec3 out = Vec3(std::cos(phi) * std::cos(theta), std::sin(phi) * std::cos(theta), std::sin(theta));
      const Transform pose(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), 1).normalized())),
                           ring + out * (11.0 + 0.5 * raw.threshold_mm * (1 + u(rng))));
      const MeshContacts fast = meshContacts(torusTree, {}, sphereTree, pose, raw);
      const MeshContacts all = meshContacts(torusLeaf, {}, sphereLeaf, pose, raw);
      QCOMPARE(fast.colliding, all.colliding);
      if (fast.colliding) continue;
      auto key = [](const ContactPoint& c) { return std::tuple(c.p_WCa_mm.x(), c.p_WCa_mm.y(), c.p_WCa_mm.z(), c.p_WCb_mm.x()); };
      auto byKey = [&](const ContactPoint& x, const ContactPoint& y) { return key(x) < key(y); };
      std::vector<ContactPoint> a = fast.points, b = all.points;
      std::sort(a.begin(), a.end(), byKey);
      std::sort(b.begin(), b.end(), byKey);
      QCOMPARE(a.size(), b.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        QVERIFY((a[i].p_WCa_mm - b[i].p_WCa_mm).norm() < 1e-12 && (a[i].p_WCb_mm - b[i].p_WCb_mm).norm() < 1e-12);
        QCOMPARE(a[i].distance_mm, b[i].distance_mm);
      }
      withPoints += a.empty() ? 0 : 1;
    }
    QVERIFY2(withPoints >= 20, qPrintable(QString("only %1 poses with contact points").arg(withPoints)));
  }

  void degenerateAndCoincidentNeverCrash() {
    TriangleMesh bad;  // not finalized: a repeated index, a zero-area sliver, a point
    bad.vertices = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 0, 0), Vec3(0, 1, 0)};
    bad.triangles = {{0, 1, 2}, {0, 0, 3}, {1, 1, 1}, {0, 1, 3}};
    const Bvh b(bad);
    const Bvh cube(makeBox(Vec3(4, 4, 4)));
    for (const Transform& pose : {placedAt(0, 0, 0), placedAt(0, 0, 2.05), placedAt(0, 0, 2.0)}) {
      meshesCollide(b, pose, cube, {});
      const auto d = meshDistance(b, pose, cube, {});
      QVERIFY(std::isfinite(d.distance_mm));
      meshContacts(b, pose, cube, {});
      QVERIFY(std::isfinite(signedSeparation(b, pose, cube, {}).separation_mm));
    }
    // Coincident meshes.
    QVERIFY(meshesCollide(cube, {}, cube, {}));
    QCOMPARE(meshDistance(cube, {}, cube, {}).distance_mm, 0.0);
    QVERIFY(meshContacts(cube, {}, cube, {}).colliding);
    QVERIFY(std::isfinite(signedSeparation(cube, {}, cube, {}).separation_mm));
    // Empty meshes.
    const Bvh empty;
    QVERIFY(!meshesCollide(empty, {}, cube, {}));
    QVERIFY(!meshDistance(empty, {}, cube, {}).found());
    QVERIFY(meshContacts(cube, {}, empty, {}).points.empty());
  }

  // Either mesh may be the one mapped into the other's frame (the one with fewer nodes): swapping the
  // arguments swaps the witness points and keeps the distance; contacts keep their roles.
  void distanceIsSymmetricInTheMeshOrder() {
    const TriangleMesh small = makeIcosphere(4, 1), large = makeTorus(10, 3, 24, 12);
    const Bvh bs(small), bl(large);
    QVERIFY(bs.nodes().size() < bl.nodes().size());
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int k = 0; k < 30; ++k) {
      const Transform ps(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                         Vec3(12 * u(rng), 12 * u(rng), 8 * u(rng)));
      const double expected = bruteForceDistance(small, ps, large, {});
      const auto d1 = meshDistance(bs, ps, bl, {});
      const auto d2 = meshDistance(bl, {}, bs, ps);
      QCOMPARE_LE(std::abs(d1.distance_mm - expected), 1e-9);
      QCOMPARE_LE(std::abs(d2.distance_mm - expected), 1e-9);
      if (!d1.colliding) {
        QCOMPARE_LE((d1.p_WCa_mm - d2.p_WCb_mm).norm(), 1e-9);
        QCOMPARE_LE((d1.p_WCb_mm - d2.p_WCa_mm).norm(), 1e-9);
      }
      QCOMPARE(meshesCollide(bs, ps, bl, {}), expected == 0);
      QCOMPARE(meshesCollide(bl, {}, bs, ps), expected == 0);
    }
  }

  // A warm-started query returns exactly the cold answer (distance and witness points bit for bit) along a
  // random walk of small steps, through contact and collision, whichever mesh is mapped.
  void warmStartEqualsColdOnARandomWalk() {
    const TriangleMesh hand = makeIcosphere(5, 2), object = makeTorus(30, 8, 64, 24);
    const Bvh bh(hand), bo(object);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int order = 0; order < 2; ++order) {
      DistanceWarmStart warm;
      Transform pose(Quat::Identity(), Vec3(30, 0, 20));
      int colliding = 0, warmed = 0;
      for (int step = 0; step < 400; ++step) {
        const Vec3 aim = Vec3(30, 0, 14) - pose.translation();  // drift to touching the tube
        pose = Transform(Quat(Eigen::AngleAxisd(0.05 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                         0.4 * Vec3(u(rng), u(rng), u(rng)) + 0.01 * aim) *
               pose;
        if (warm.valid) ++warmed;
        const MeshDistance cold = order == 0 ? meshDistance(bh, pose, bo, {}) : meshDistance(bo, {}, bh, pose);
        const MeshDistance hot = order == 0 ? meshDistance(bh, pose, bo, {}, warm) : meshDistance(bo, {}, bh, pose, warm);
        QCOMPARE(hot.distance_mm, cold.distance_mm);
        QCOMPARE(hot.colliding, cold.colliding);
        QVERIFY(hot.p_WCa_mm == cold.p_WCa_mm);
        QVERIFY(hot.p_WCb_mm == cold.p_WCb_mm);
        if (cold.colliding) ++colliding;
        if (step % 50 == 0) {
          const double expected = order == 0 ? bruteForceDistance(hand, pose, object, {})
                                             : bruteForceDistance(object, {}, hand, pose);
          QCOMPARE_LE(std::abs(hot.distance_mm - expected), 1e-9);
        }
      }
      QVERIFY(colliding > 0 && colliding < 400);  // the walk touched the object and left it
      qDebug("order %d: %d colliding, %d warm-started", order, colliding, warmed);
      QVERIFY(warmed > 150);
    }
  }

  // A FiveFinger-like link: a box with a cylinder (its joint) overlapping one end — concave, its two parts
  // interpenetrating (a union of primitives, as the bundled hands' links).
  static TriangleMesh linkLikeMesh() {
    TriangleMesh m = makeBox(Vec3(14, 14, 16));
    m.transform(Mat3::Identity(), Vec3(-15, 0, 0));
    TriangleMesh joint = makeCylinder(7, 16, 24);  // along z
    m.append(joint, Mat3::Identity(), Vec3(-22, 0, 0));
    m.finalize();
    return m;
  }

  // MeshTopology: corner indices give the BVH's triangles, every triangle is listed at each of its corners,
  // and the hull climb finds the brute-force support (largest projection over all vertices) from any start.
  void meshTopologyMatchesTheTriangles() {
    const TriangleMesh meshes[] = {makeBox(Vec3(10, 20, 30)), makeCylinder(30, 120, 48), makeTorus(30, 8, 32, 12),
                                   linkLikeMesh(), makeIcosphere(14, 2)};
    std::mt19937 rng(3);
    std::normal_distribution<double> g(0, 1);
    for (const TriangleMesh& mesh : meshes) {
      const Bvh bvh(mesh);
      const MeshTopology t = makeMeshTopology(bvh);
      QCOMPARE(t.corners.size(), bvh.triangles().size());
      for (std::uint32_t i = 0; i < t.corners.size(); ++i)
        for (int k = 0; k < 3; ++k) {
          QVERIFY(bvh.vertices()[t.corners[i][k]] == bvh.triangles()[i][k]);
          const std::uint32_t v = t.corners[i][k];
          const auto first = t.vertexTriangles.begin() + t.vertexTriangleStart[v];
          const auto last = t.vertexTriangles.begin() + t.vertexTriangleStart[v + 1];
          QVERIFY(std::find(first, last, i) != last);
        }
      QCOMPARE(t.vertexTriangles.size(), 3 * t.corners.size());
      QVERIFY(t.hasHull());
      QCOMPARE(t.hullPoints.size(), t.hullVertices.size());
      for (std::uint32_t k = 0; k < t.hullVertices.size(); ++k) QCOMPARE(t.hullPosition[t.hullVertices[k]], std::int32_t(k));
      const double scale = bvh.coordinateScale();
      for (int trial = 0; trial < 400; ++trial) {
        const Vec3 d = Vec3(g(rng), g(rng), g(rng)).normalized();
        double brute = -std::numeric_limits<double>::infinity();
        for (const Vec3& v : bvh.vertices()) brute = std::max(brute, d.dot(v));
        const auto start = static_cast<std::uint32_t>(trial % t.hullVertices.size());
        const std::uint32_t k = t.climbSupport(d, start);
        QCOMPARE_LE(std::abs(d.dot(t.hullPoints[k]) - brute), 1e-9 * scale);
      }
    }
    // The link's box hides part of the joint cylinder: fewer hull vertices than vertices.
    const Bvh link(linkLikeMesh());
    const MeshTopology linkTopology = makeMeshTopology(link);
    QVERIFY(linkTopology.hullVertices.size() < link.vertices().size());
    // A flat mesh has no hull (supports then scan every vertex); distances still work.
    const Bvh plane(makePlane(50, 4));
    const MeshTopology planeTopology = makeMeshTopology(plane);
    QVERIFY(!planeTopology.hasHull());
    QCOMPARE(planeTopology.corners.size(), plane.triangles().size());
    DistanceWarmStart warm;
    for (int k = 0; k < 3; ++k) {
      const Transform pose(Quat(Eigen::AngleAxisd(0.3 * k, Vec3::UnitX())), Vec3(5 * k, 0, 20));
      const MeshDistance cold = meshDistance(plane, {}, link, pose);
      const MeshDistance hot = meshDistance(plane, planeTopology, {}, link, linkTopology, pose, warm);
      QCOMPARE(hot.distance_mm, cold.distance_mm);
      QVERIFY(hot.p_WCa_mm == cold.p_WCa_mm && hot.p_WCb_mm == cold.p_WCb_mm);
    }
  }

  // Annealing-like jumps (large random moves between queries) of a concave link around a cylinder: the
  // warm-started query (slab certificate from the hull climb and the vertex projections) returns the cold
  // answer bit for bit, whichever mesh is mapped.
  void warmStartEqualsColdOnRandomPoses() {
    const TriangleMesh link = linkLikeMesh(), can = makeCylinder(30, 120, 48);
    const Bvh bl(link), bc(can);
    const MeshTopology tl = makeMeshTopology(bl), tc = makeMeshTopology(bc);
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int order = 0; order < 2; ++order) {
      DistanceWarmStart warm;
      Transform pose(Quat::Identity(), Vec3(50, 0, 20));
      int apart = 0;
      for (int step = 0; step < 300; ++step) {
        const double jump = step % 5 == 0 ? 40.0 : 3.0;
        pose = Transform(Quat(Eigen::AngleAxisd((step % 5 == 0 ? 1.5 : 0.1) * u(rng),
                                                Vec3(u(rng), u(rng), u(rng)).normalized())),
                         Vec3::Zero()) *
               pose;
        pose = Transform(pose.rotation(), pose.translation() + jump * Vec3(u(rng), u(rng), u(rng)));
        // Keep the link near the can's side (20–70 mm from its axis).
        Vec3 t = pose.translation();
        const double radial = std::hypot(t.x(), t.y());
        if (radial < 20 || radial > 70) t.head<2>() *= 45.0 / std::max(radial, 1e-9);
        t.z() = std::clamp(t.z(), -20.0, 140.0);
        pose = Transform(pose.rotation(), t);
        const MeshDistance cold = order == 0 ? meshDistance(bl, pose, bc, {}) : meshDistance(bc, {}, bl, pose);
        const MeshDistance hot = order == 0 ? meshDistance(bl, tl, pose, bc, tc, {}, warm)
                                            : meshDistance(bc, tc, {}, bl, tl, pose, warm);
        QCOMPARE(hot.distance_mm, cold.distance_mm);
        QCOMPARE(hot.colliding, cold.colliding);
        QVERIFY(hot.p_WCa_mm == cold.p_WCa_mm);
        QVERIFY(hot.p_WCb_mm == cold.p_WCb_mm);
        if (!cold.colliding) ++apart;
      }
      QVERIFY(apart > 100);
    }
  }

  // Ties (parallel faces: many triangle pairs at the same distance) resolve the same whatever pair the warm
  // start holds, and a warm start from other meshes or an upper bound below the distance change nothing.
  void warmStartResolvesTiesCanonically() {
    const TriangleMesh box = makeBox(Vec3(10, 10, 10));
    const Bvh a(box), b(box);
    const Transform pb = placedAt(1, 2, 10.5);
    const MeshDistance cold = meshDistance(a, {}, b, pb);
    QCOMPARE_LE(std::abs(cold.distance_mm - 0.5), 1e-12);
    for (std::uint32_t i = 0; i < a.triangles().size(); ++i)
      for (std::uint32_t j = 0; j < b.triangles().size(); j += 3) {
        DistanceWarmStart warm{&a, &b, i, j, true};
        const MeshDistance hot = meshDistance(a, {}, b, pb, warm);
        QCOMPARE(hot.distance_mm, cold.distance_mm);
        QVERIFY(hot.p_WCa_mm == cold.p_WCa_mm && hot.p_WCb_mm == cold.p_WCb_mm);
      }
    DistanceWarmStart foreign{&b, &a, 1000000, 3, true};  // other meshes, out-of-range index: ignored
    QCOMPARE(meshDistance(a, {}, b, pb, foreign).distance_mm, cold.distance_mm);
    QVERIFY(foreign.valid && foreign.a == &a);
    QVERIFY(!meshDistance(a, {}, b, pb, foreign, 0.4).found());
    QVERIFY(!foreign.valid);
    QCOMPARE(meshDistance(a, {}, b, pb, foreign, 0.6).distance_mm, cold.distance_mm);
  }

  void pointQueries() {
    const Bvh cube(makeBox(Vec3(10, 10, 10)), {BoxFit::Oriented, 2});
    const Transform pose = rotZ(0.7, Vec3(5, 5, 5));
    QVERIFY(pointInsideMesh(cube, pose, Vec3(5, 5, 5)));
    QVERIFY(pointInsideMesh(cube, pose, pose * Vec3(4.9, -4.9, 4.9)));
    QVERIFY(!pointInsideMesh(cube, pose, pose * Vec3(5.1, 0, 0)));
    const auto c = closestPointOnMesh(cube, pose, pose * Vec3(8, 1, 2));
    QCOMPARE_LE(std::abs(c.distance_mm - 3), 1e-9);
    QVERIFY(c.point_mm.isApprox(pose * Vec3(5, 1, 2), 1e-9));
  }

  // The inside test against the torus's closed form: a non-convex mesh whose hole lies inside its bounding box,
  // posed off the axes; points nearer the surface than the tessellation's sagitta (< 0.014 mm here) are skipped.
  void pointInsideANonConvexMesh() {
    const double R_mm = 20, r_mm = 5;
    const Bvh torus(makeTorus(R_mm, r_mm, 96, 48), {BoxFit::Oriented, 4});
    const Transform X_WT(Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())), Vec3(3, -2, 7));
    std::mt19937 rng(39);
    std::uniform_real_distribution<double> u(-1, 1);
    int inside = 0, outside = 0, inHole = 0;
    for (int i = 0; i < 4000; ++i) {
      const Vec3 p_T(27 * u(rng), 27 * u(rng), 7 * u(rng));
      const double ring_mm = std::hypot(p_T.x(), p_T.y()) - R_mm;
      const double signed_mm = std::hypot(ring_mm, p_T.z()) - r_mm;  // < 0 inside the tube
      if (std::abs(signed_mm) < 0.05) continue;
      const bool expected = signed_mm < 0;
      QCOMPARE(pointInsideMesh(torus, X_WT, X_WT * p_T), expected);
      (expected ? inside : outside)++;
      if (ring_mm < -r_mm) ++inHole;
    }
    QCOMPARE_GT(inside, 500);
    QCOMPARE_GT(outside, 500);
    QCOMPARE_GT(inHole, 100);
  }

  // estimatePenetration votes once per component of the vertices joined by triangles far from the other mesh
  // (README.md §Penetration estimate); the result must be the per-vertex vote's, bit for bit. Pairs: a torus
  // (non-convex, its hole inside its box) through a box and a sphere, a sphere partly or wholly inside a box (then
  // one component, every vertex inside), a cylinder pushed 0.01–0.2 mm into a box (as a fingertip into the mug),
  // at random poses.
  void penetrationEstimateEqualsThePerVertexVote() {
    const Bvh torus(makeTorus(20, 5, 48, 24));
    const Bvh box(makeBox(Vec3(30, 30, 12)));
    const Bvh sphere(makeIcosphere(6, 3));
    const Bvh cylinder(makeCylinder(8, 30, 32));
    const Bvh bigBox(makeBox(Vec3(40, 40, 40)));
    struct Case {
      const Bvh* a;
      const Bvh* b;
      double spread_mm;  // B's centre within ± this of A's, per axis
    };
    const Case cases[] = {{&torus, &box, 18}, {&torus, &sphere, 24}, {&bigBox, &sphere, 16}, {&box, &cylinder, 0}};
    std::mt19937 rng(39);
    std::uniform_real_distribution<double> u(-1, 1);
    int deep = 0, wholly = 0, shallow = 0, votedInside = 0;  // how many cases of each kind
    for (const Case& c : cases) {
      const Bvh& a = *c.a;
      const Bvh& b = *c.b;
      for (int i = 0; i < 60; ++i) {
        const Transform X_WA(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                             Vec3(40 * u(rng), 40 * u(rng), 40 * u(rng)));
        Transform X_AB(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized())),
                       c.spread_mm * Vec3(u(rng), u(rng), u(rng)));
        if (c.spread_mm == 0) {
          // The cylinder lying on its side (axis along y, a row of vertices lowest) pushed 0.01–0.2 mm into the
          // box's top face (z = 6), turned about the face normal.
          const double depth_mm = 0.01 + 0.19 * (u(rng) + 1) / 2;
          X_AB = Transform(Quat(Eigen::AngleAxisd(3 * u(rng), Vec3::UnitZ())), Vec3(5 * u(rng), 5 * u(rng), 6 + 8 - depth_mm)) *
                 Transform(Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitX())), Vec3::Zero());
        }
        const Transform X_WB = X_WA * X_AB;
        int inside = 0;
        const PenetrationEstimate want = penetrationByVotes(a, X_WA, b, X_WB, inside);
        const PenetrationEstimate got = estimatePenetration(a, X_WA, b, X_WB);
        QCOMPARE(got.depth_mm, want.depth_mm);
        QVERIFY(got.p_WCa_mm == want.p_WCa_mm);
        QVERIFY(got.p_WCb_mm == want.p_WCb_mm);
        QVERIFY(got.nA_W == want.nA_W);
        votedInside += inside;
        if (want.depth_mm > 1) ++deep;
        if (want.depth_mm > 0 && want.depth_mm < 0.25) ++shallow;
        if (&b == &sphere && inside == static_cast<int>(sphere.vertices().size())) ++wholly;
      }
    }
    QCOMPARE_GT(deep, 40);
    QCOMPARE_GT(shallow, 30);
    QCOMPARE_GT(wholly, 3);
    QCOMPARE_GT(votedInside, 1000);
  }

  // Intersection witnesses (src/geometry/README.md §Contact points, "Intersection witnesses"): meshContacts and
  // signedSeparation with a witness carried from pose to pose give exactly what they give without one, along a
  // jittered, a wandering and a closing-then-opening sequence of a cylinder pressed into a box, one that alternates
  // between pressed into a larger box and wholly inside it (the estimate is positive there, the surfaces apart), and
  // with stale or foreign witnesses; the shortcuts are taken (counted).
  void witnessesGiveTheSameResults() {
    const Bvh boxSmall(makeBox(Vec3(30, 30, 12)));
    const Bvh bigBox(makeBox(Vec3(40, 40, 40)));
    const Bvh cylinder(makeCylinder(8, 30, 32));
    const auto samePoint = [](const ContactPoint& x, const ContactPoint& y) {
      return x.p_WCa_mm == y.p_WCa_mm && x.p_WCb_mm == y.p_WCb_mm && x.nA_W == y.nA_W && x.nB_W == y.nB_W &&
             x.distance_mm == y.distance_mm && x.edgeEdge == y.edgeEdge;
    };
    std::mt19937 rng(39);
    std::uniform_real_distribution<double> u(-1, 1);
    const Transform X_WA(Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized())), Vec3(40, -20, 10));
    // The cylinder on its side on the box's top face (z = 6): `depth_mm` into it (negative: apart), turned by
    // `turn` about the face normal, shifted by `shift` along the face.
    const auto pose = [&](double depth_mm, double turn, const Vec3& shift, double top_mm = 6) {
      return X_WA * Transform(Quat(Eigen::AngleAxisd(turn, Vec3::UnitZ())), shift + Vec3(0, 0, top_mm + 8 - depth_mm)) *
             Transform(Quat(Eigen::AngleAxisd(kPi / 2, Vec3::UnitX())), Vec3::Zero());
    };
    std::vector<std::vector<Transform>> sequences(4);
    for (int i = 0; i < 60; ++i)  // jittered around a pose pressed 0.05 mm in
      sequences[0].push_back(pose(0.05 + 0.04 * u(rng), 0.3 + 0.002 * u(rng), 0.1 * Vec3(u(rng), u(rng), 0)));
    double depth = 0.05, turn = 0.3;
    Vec3 shift = Vec3::Zero();
    for (int i = 0; i < 60; ++i) {  // wandering
      depth = std::clamp(depth + 0.02 * u(rng), -0.3, 0.2);
      turn += 0.01 * u(rng);
      shift += 0.05 * Vec3(u(rng), u(rng), 0);
      sequences[1].push_back(pose(depth, turn, shift));
    }
    for (int i = 0; i <= 60; ++i)  // closing from 0.3 mm apart to 0.2 mm in, then opening again
      sequences[2].push_back(pose(i <= 30 ? -0.3 + i * (0.5 / 30) : 0.2 - (i - 30) * (0.5 / 30), 0.3, Vec3::Zero()));
    for (int i = 0; i < 30; ++i)  // pressed 0.05 mm into the big box's top face (z = 20), or wholly inside it
      sequences[3].push_back(i % 3 == 2 ? pose(20 + u(rng), 0.3, Vec3(u(rng), u(rng), 0), 20)
                                        : pose(0.05 + 0.01 * u(rng), 0.3, Vec3::Zero(), 20));
    ContactQueryOptions options;
    int inside = 0;
    int contactShortcuts = 0, distanceShortcuts = 0, colliding = 0, apart = 0;
    for (std::size_t q = 0; q < sequences.size(); ++q) {
      const auto& sequence = sequences[q];
      const Bvh& box = q == 3 ? bigBox : boxSmall;
      IntersectionWitness contactWitness, distanceWitness;
      for (const Transform& X_WB : sequence) {
        const MeshContacts want = meshContacts(box, X_WA, cylinder, X_WB, options);
        const bool contactWasValid = contactWitness.valid;
        const MeshContacts got = meshContacts(box, X_WA, cylinder, X_WB, options, &contactWitness);
        QCOMPARE(got.colliding, want.colliding);
        QCOMPARE(got.points.size(), want.points.size());
        for (std::size_t k = 0; k < want.points.size(); ++k) QVERIFY(samePoint(got.points[k], want.points[k]));
        QCOMPARE(contactWitness.valid, want.colliding);
        if (contactWasValid && want.colliding) ++contactShortcuts;
        colliding += want.colliding ? 1 : 0;
        apart += want.colliding || !want.points.empty() ? 0 : 1;

        const SeparationResult cold = signedSeparation(box, X_WA, cylinder, X_WB);
        const bool distanceWasValid = distanceWitness.valid;
        const SeparationResult warm = signedSeparation(box, X_WA, cylinder, X_WB, &distanceWitness);
        QCOMPARE(warm.colliding, cold.colliding);
        QCOMPARE(warm.separation_mm, cold.separation_mm);
        QVERIFY(warm.p_WCa_mm == cold.p_WCa_mm && warm.p_WCb_mm == cold.p_WCb_mm);
        QVERIFY(warm.nA_W == cold.nA_W && warm.nB_W == cold.nB_W);
        if (distanceWasValid && cold.colliding && cold.separation_mm < 0) ++distanceShortcuts;
        if (q == 3 && !cold.colliding && cold.separation_mm > 1) ++inside;

        // Stale and foreign witnesses: out of range, and a pair of triangles picked at random.
        for (const IntersectionWitness& other :
             {IntersectionWitness{true, 1u << 30, 0}, IntersectionWitness{true, static_cast<std::uint32_t>(rng() % box.triangles().size()),
                                                                           static_cast<std::uint32_t>(rng() % cylinder.triangles().size())}}) {
          IntersectionWitness w = other;
          const MeshContacts again = meshContacts(box, X_WA, cylinder, X_WB, options, &w);
          QCOMPARE(again.colliding, want.colliding);
          QCOMPARE(again.points.size(), want.points.size());
          w = other;
          const SeparationResult s = signedSeparation(box, X_WA, cylinder, X_WB, &w);
          QCOMPARE(s.colliding, cold.colliding);
          QCOMPARE(s.separation_mm, cold.separation_mm);
          QVERIFY(s.p_WCa_mm == cold.p_WCa_mm && s.nA_W == cold.nA_W);
        }
      }
    }
    // Each kind of state met, and both shortcuts taken.
    QVERIFY2(colliding > 40 && apart > 5 && inside >= 10,
             qPrintable(QString("%1 colliding, %2 apart, %3 inside").arg(colliding).arg(apart).arg(inside)));
    QVERIFY2(contactShortcuts > 20 && distanceShortcuts > 20,
             qPrintable(QString("%1 contact, %2 distance shortcuts").arg(contactShortcuts).arg(distanceShortcuts)));
  }

  void bvhCacheSharesPerMesh() {
    clearBvhCache();
    auto m1 = std::make_shared<const TriangleMesh>(makeBox(Vec3(1, 1, 1)));
    auto m2 = std::make_shared<const TriangleMesh>(makeBox(Vec3(1, 1, 1)));
    const auto b1 = bvhFor(m1);
    QCOMPARE(bvhFor(m1).get(), b1.get());
    QVERIFY(bvhFor(m2).get() != b1.get());
    QCOMPARE(bvhCacheSize(), std::size_t(2));
    QVERIFY(bvhFor(nullptr)->empty());
  }

  // topologyFor: one topology per BVH, shared, equal to makeMeshTopology's; a second BVH of an equal mesh gets
  // its own, and a BVH freed and replaced never gets its predecessor's.
  void topologyCacheSharesPerBvh() {
    auto b1 = std::make_shared<const Bvh>(makeTorus(30, 8, 32, 12));
    const auto t1 = topologyFor(b1);
    QVERIFY(t1);
    QCOMPARE(topologyFor(b1).get(), t1.get());
    const MeshTopology direct = makeMeshTopology(*b1);
    QVERIFY(t1->corners == direct.corners && t1->vertexTriangles == direct.vertexTriangles);
    QVERIFY(t1->hullVertices == direct.hullVertices && t1->hullNeighbours == direct.hullNeighbours);
    auto b2 = std::make_shared<const Bvh>(makeTorus(30, 8, 32, 12));
    QVERIFY(topologyFor(b2).get() != t1.get());
    // The allocator often hands the freed BVH's address to the next one of the same size: the cache must see
    // that it is another BVH (a torus's topology for a box would fail here).
    b1.reset();
    auto b3 = std::make_shared<const Bvh>(makeBox(Vec3(1, 2, 3)));
    const auto t3 = topologyFor(b3);
    QVERIFY(t3.get() != t1.get());
    QCOMPARE(t3->corners.size(), b3->triangles().size());
    QVERIFY(!topologyFor(nullptr));
  }
};

QTEST_GUILESS_MAIN(TestProximity)
#include "tst_proximity.moc"
