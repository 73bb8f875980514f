// Exact pair queries (src/geometry/ShapePairs.h) against hand values and against the same query on fine
// tessellations (Proximity.h): distance, witness points, normals, contacts within the threshold.
#include <QtTest>

#include <cmath>
#include <limits>
#include <random>
#include <utility>

#include "core/Decompositions.h"
#include "geometry/Primitives.h"
#include "geometry/ShapeCollision.h"
#include "geometry/ShapePairs.h"
#include "geometry/ShapeQueries.h"
#include "geometry/ShapeTessellation.h"
#include "geometry/TriangleTriangle.h"

using namespace sg;

namespace {

constexpr double kTol = 1e-9;

struct Placed {
  Primitive primitive;
  Transform X_WB;
  Bvh bvh;
  Placed(Shape s, const Transform& pose, int segments = 128)
      : primitive{std::move(s), Transform::identity()}, X_WB(pose),
        bvh(tessellatePrimitive(primitive, TessellationOptions{segments, 2000})) {}
  PairSide side() const { return {&primitive, &bvh, X_WB}; }
  PairSide meshSide() const { return {nullptr, &bvh, X_WB}; }
};

Transform pose(const Vec3& t, const Vec3& axis = Vec3::UnitZ(), double angle = 0) {
  return Transform(Quat(Eigen::AngleAxisd(angle, axis.normalized())), t);
}

// Checks the exact separation against a hand value, its witness points against their surfaces, and against
// the tessellations' distance: inscribed tessellations are never closer, and within `meshTol`.
void checkPair(const Placed& a, const Placed& b, double expected, double meshTol) {
  const auto r = exactSeparation(a.side(), b.side());
  QVERIFY(r);
  QVERIFY2(std::abs(r->separation_mm - expected) < 1e-9,
           qPrintable(QString("exact %1, expected %2").arg(r->separation_mm, 0, 'g', 15).arg(expected, 0, 'g', 15)));
  QVERIFY(std::abs((r->p_WCa_mm - r->p_WCb_mm).norm() - std::abs(expected)) < 1e-9);
  QVERIFY(std::abs(signedDistance(a.primitive.shape, a.X_WB.inverse() * r->p_WCa_mm)) < 1e-9);
  QVERIFY(std::abs(signedDistance(b.primitive.shape, b.X_WB.inverse() * r->p_WCb_mm)) < 1e-9);
  QVERIFY(std::abs(r->nA_W.norm() - 1) < kTol && (r->nA_W + r->nB_W).norm() < kTol);
  if (expected > 1e-6) QVERIFY(((r->p_WCa_mm - r->p_WCb_mm).normalized() - r->nA_W).norm() < 1e-9);
  QCOMPARE(r->colliding, expected <= 0);
  if (expected > 0) {
    const MeshDistance m = meshDistance(a.bvh, a.X_WB, b.bvh, b.X_WB);
    QVERIFY2(m.distance_mm >= expected - 1e-9 && m.distance_mm - expected < meshTol,
             qPrintable(QString("mesh %1, exact %2").arg(m.distance_mm, 0, 'g', 12).arg(expected, 0, 'g', 12)));
  }
}

// The capsules of the capsule–mesh cases: the exact query reads only the capsule's primitive (kindOf in
// src/geometry/ShapePairs.cpp: a capsule side with a mesh side is CapsuleMesh), and the checks compare it with
// the brute force below, which reads the primitive too. Their tessellation is there because every side carries
// one, so a coarse one: 128 segments for each of 600 capsules was ~80 % of the suite's CPU time (tests/BUILD_TIME.md §ctest).
constexpr int kCapsuleSegments = 8;

// Brute force: the distance from segment pq to triangle abc's closest points to the two ends and to its three edges
// (a segment through the triangle's interior is the caller's case).
double segmentToTriangleBoundary(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  double nearest = std::numeric_limits<double>::infinity();
  for (const Vec3& e : {p, q}) nearest = std::min(nearest, (e - closestPointOnTriangle(e, a, b, c).point).norm());
  for (const auto& [e0, e1] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}})
    nearest = std::min(nearest, std::sqrt(closestSegmentSegment(p, q, e0, e1).distanceSquared));
  return nearest;
}

}  // namespace

class TestShapePairs : public QObject {
  Q_OBJECT
 private slots:
  void sphereSphere() {
    checkPair(Placed(Sphere{10}, pose({0, 0, 0})), Placed(Sphere{5}, pose({20, 5, -3})),
              std::sqrt(400 + 25 + 9) - 15, 0.02);
    checkPair(Placed(Sphere{10}, pose({0, 0, 0})), Placed(Sphere{5}, pose({12, 0, 0})), -3, 0);  // overlap 3 mm
  }
  void sphereHalfSpace() {
    checkPair(Placed(Sphere{10}, pose({3, 4, 10.5})), Placed(HalfSpace{}, pose({0, 0, 0})), 0.5, 0.02);
    // A tilted plane through (0, 0, 2) with normal n.
    const Vec3 n = Vec3(1, 1, 2).normalized();
    const Transform tilt(rotationBetween(Vec3::UnitZ(), n), Vec3(0, 0, 2));
    const Vec3 c(5, -3, 20);
    checkPair(Placed(HalfSpace{}, tilt), Placed(Sphere{4}, pose(c)), (c - Vec3(0, 0, 2)).dot(n) - 4, 0.05);
  }
  void sphereBox() {
    const Placed box(Box{Vec3(10, 10, 10)}, pose({0, 0, 0}));
    checkPair(Placed(Sphere{5}, pose({0, 0, 20})), box, 10, 1e-6);                          // over a face
    checkPair(Placed(Sphere{5}, pose({10, 10, 10})), box, std::sqrt(75.0) - 5, 0.01);       // over a corner
    checkPair(Placed(Sphere{5}, pose({10, 0, 10})), box, std::sqrt(50.0) - 5, 0.01);        // over an edge
    checkPair(Placed(Sphere{5}, pose({0, 0, 3})), box, -7, 0);                               // centre inside
    // Rotated box: the same distance in its frame.
    const Transform X = pose({1, 2, 3}, Vec3(1, -1, 2), 0.8);
    checkPair(Placed(Sphere{5}, Transform::fromTranslation(X * Vec3(10, 10, 10))), Placed(Box{Vec3(10, 10, 10)}, X),
              std::sqrt(75.0) - 5, 0.01);
  }
  void sphereCapsuleAndOthers() {
    checkPair(Placed(Sphere{3}, pose({10, 0, 2})), Placed(Capsule{4, 10}, pose({0, 0, 0})), 3, 0.01);
    checkPair(Placed(Sphere{3}, pose({0, 0, 20})), Placed(Capsule{4, 10}, pose({0, 0, 0})), 8, 0.01);
    checkPair(Placed(Sphere{3}, pose({0, 0, 30})), Placed(Cylinder{5, 20}, pose({0, 0, 0})), 17, 1e-6);
    checkPair(Placed(Sphere{2}, pose({40, 0, 0})), Placed(Torus{20, 5}, pose({0, 0, 0})), 13, 0.02);
    checkPair(Placed(Sphere{2}, pose({0, 0, 30})), Placed(Ellipsoid{Vec3(10, 8, 6)}, pose({0, 0, 0})), 22, 0.01);
  }
  void capsuleCapsule() {
    // Crossed at right angles 10 mm apart (axes), radii 2 and 3.
    checkPair(Placed(Capsule{2, 20}, pose({0, 0, 0}, Vec3::UnitY(), kPi / 2)),
              Placed(Capsule{3, 20}, pose({0, 0, 10}, Vec3::UnitX(), kPi / 2)), 5, 0.01);
    // Parallel, side by side.
    checkPair(Placed(Capsule{2, 20}, pose({0, 0, 0})), Placed(Capsule{3, 10}, pose({6, 0, 0})), 1, 0.01);
    // End to end.
    checkPair(Placed(Capsule{2, 20}, pose({0, 0, 0})), Placed(Capsule{3, 10}, pose({0, 0, 30})), 30 - 10 - 5 - 5, 0.01);
  }
  void convexHalfSpace() {
    const Placed ground(HalfSpace{}, pose({0, 0, 0}));
    // A box tilted about x by 30° whose centre is 20 mm up: lowest corner at 20 − (5 cos30 + 5 sin30)... sizes 10.
    const double c = std::cos(kPi / 6), s = std::sin(kPi / 6);
    checkPair(Placed(Box{Vec3(10, 10, 10)}, pose({0, 0, 20}, Vec3::UnitX(), kPi / 6)), ground, 20 - 5 * c - 5 * s, 1e-6);
    // Ellipsoid under a rotation: lowest point at height z0 − √(nᵀ·R·A²·Rᵀ·n).
    const Transform X = pose({0, 0, 30}, Vec3(1, 2, 0), 0.6);
    const Vec3 a(12, 7, 4);
    const Vec3 nS = X.rotationMatrix().transpose() * Vec3::UnitZ();
    checkPair(Placed(Ellipsoid{a}, X), ground, 30 - a.cwiseProduct(nS).norm(), 0.02);
    checkPair(Placed(Cylinder{5, 20}, pose({0, 0, 6}, Vec3::UnitX(), kPi / 2)), ground, 1, 1e-6);  // lying on its side
    checkPair(Placed(Cone{6, 14}, pose({0, 0, 10})), ground, 3, 1e-6);
    checkPair(Placed(Capsule{3, 10}, pose({0, 0, 4}, Vec3::UnitY(), kPi / 2)), ground, 1, 0.01);
    checkPair(Placed(Torus{20, 5}, pose({0, 0, 6})), ground, 1, 0.02);
    checkPair(Placed(Torus{20, 5}, pose({0, 0, 4})), ground, -1, 0);
  }
  void sphereAndHalfSpaceAgainstMeshes() {
    // The other side a plain mesh: an icosphere and a box. Exact for the mesh (hand values on the box).
    const Placed box(Box{Vec3(20, 20, 20)}, pose({0, 0, 0}));
    Placed sphere(Sphere{5}, pose({0, 0, 18}));
    auto r = exactSeparation(sphere.side(), box.meshSide());
    QVERIFY(r && std::abs(r->separation_mm - 3) < kTol && !r->colliding);
    QVERIFY((r->p_WCb_mm - Vec3(0, 0, 10)).norm() < kTol && (r->p_WCa_mm - Vec3(0, 0, 13)).norm() < kTol);
    r = exactSeparation(box.meshSide(), sphere.side());
    QVERIFY(r && std::abs(r->separation_mm - 3) < kTol && (r->nA_W + Vec3::UnitZ()).norm() < kTol);
    sphere = Placed(Sphere{5}, pose({0, 0, 12}));
    r = exactSeparation(sphere.side(), box.meshSide());
    QVERIFY(r && r->colliding && std::abs(r->separation_mm + 3) < kTol);
    const Placed ground(HalfSpace{}, pose({0, 0, -10.25}));
    r = exactSeparation(ground.side(), box.meshSide());
    QVERIFY(r && std::abs(r->separation_mm - 0.25) < kTol);
    // A capsule over the mesh box: level (hand value), tilted (its lower end), crossing an edge.
    r = exactSeparation(Placed(Capsule{2, 16}, pose({3, 1, 15}, Vec3::UnitY(), kPi / 2)).side(), box.meshSide());
    QVERIFY(r && std::abs(r->separation_mm - 3) < kTol && std::abs(r->p_WCb_mm.z() - 10) < kTol);
    const Placed tilted(Capsule{2, 16}, pose({0, 0, 20}, Vec3::UnitY(), kPi / 3));
    r = exactSeparation(box.meshSide(), tilted.side());
    QVERIFY(r && std::abs(r->separation_mm - (20 - 8 * std::cos(kPi / 3) - 2 - 10)) < kTol);
    QVERIFY(std::abs(signedDistance(tilted.primitive.shape, tilted.X_WB.inverse() * r->p_WCb_mm)) < kTol);
    const MeshDistance md = meshDistance(tilted.bvh, tilted.X_WB, box.bvh, box.X_WB);
    QVERIFY(md.distance_mm >= r->separation_mm - kTol && md.distance_mm - r->separation_mm < 0.02);
    const Placed acrossEdge(Capsule{1, 40}, pose({14, 0, 14}, Vec3::UnitX(), kPi / 2));  // along y, off the edge
    r = exactSeparation(acrossEdge.side(), box.meshSide());
    QVERIFY(r && std::abs(r->separation_mm - (std::sqrt(32.0) - 1)) < kTol);
    r = exactSeparation(Placed(Capsule{2, 16}, pose({0, 0, 11}, Vec3::UnitY(), kPi / 2)).side(), box.meshSide());
    QVERIFY(r && r->colliding && std::abs(r->separation_mm + 1) < kTol);
    // Pairs without a closed form fall back to the meshes.
    QVERIFY(!exactSeparation(box.side(), box.side()));
    QVERIFY(!exactSeparation(box.meshSide(), box.meshSide()));
    QVERIFY(!hasExactPairQuery(Placed(Cylinder{1, 2}, {}).side(), box.meshSide()));
  }
  // Capsule–mesh separation (a branch-and-bound search for the nearest triangle) against every triangle of the
  // mesh: the axis segment's distance to each triangle from its ends against the face and the segment against
  // the three edges (the axis never crosses the surface here: it stays outside the torus's bounding ball).
  void capsuleMeshSeparationMatchesEveryTriangle() {
    const Placed torus(Torus{20, 5}, pose({1, 2, 3}, Vec3(1, 2, 3), 0.4), 48);
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(-1, 1);
    int checked = 0;
    for (int k = 0; k < 200; ++k) {
      const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
      const Vec3 axis = Vec3(u(rng), u(rng), u(rng)).normalized();
      const double radius = 1 + u(rng) * 0.5, length = 10 + 8 * u(rng);
      const Vec3 c = torus.X_WB.translation() + (26 + 0.5 * length + 10 * (1 + u(rng))) * dir;
      const Placed capsule(Capsule{radius, length}, Transform(rotationBetween(Vec3::UnitZ(), axis), c),
                           kCapsuleSegments);
      const auto r = exactSeparation(capsule.side(), torus.meshSide());
      QVERIFY(r);
      const Vec3 p = c - 0.5 * length * axis, q = c + 0.5 * length * axis;
      double nearest = std::numeric_limits<double>::infinity();
      for (const TrianglePoints& t : torus.bvh.triangles()) {
        const Vec3 a = torus.X_WB * t[0], b = torus.X_WB * t[1], cc = torus.X_WB * t[2];
        nearest = std::min(nearest, segmentToTriangleBoundary(p, q, a, b, cc));
      }
      QVERIFY2(std::abs(r->separation_mm - (nearest - radius)) < 1e-9,
               qPrintable(QString("%1 vs %2").arg(r->separation_mm, 0, 'g', 17).arg(nearest - radius, 0, 'g', 17)));
      ++checked;
    }
    QCOMPARE(checked, 200);
  }

  // The collision test (exactCollision, which stops short of the nearest triangle when the capsule is clear)
  // against the separation's answer and against every triangle, capsules placed across the torus's surface:
  // clear of it, touching within a fraction of a millimetre, and crossing it (the face crossing counts as 0).
  void capsuleMeshCollisionMatchesSeparation() {
    const Placed torus(Torus{20, 5}, pose({1, 2, 3}, Vec3(1, 2, 3), 0.4), 48);
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> u(-1, 1);
    int colliding = 0, clear = 0;
    for (int k = 0; k < 400; ++k) {
      // A point of the tube's centre circle, then out along a random direction by the tube radius and a gap.
      const double phi = 3.2 * u(rng);
      const Vec3 onCircle = torus.X_WB * Vec3(20 * std::cos(phi), 20 * std::sin(phi), 0);
      const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
      const Vec3 axis = Vec3(u(rng), u(rng), u(rng)).normalized();
      const double radius = 1 + 0.5 * u(rng), length = 6 + 4 * u(rng);
      const Vec3 c = onCircle + (5 + radius + 3 * u(rng)) * dir;
      const Placed capsule(Capsule{radius, length}, Transform(rotationBetween(Vec3::UnitZ(), axis), c),
                           kCapsuleSegments);
      const auto separation = exactSeparation(capsule.side(), torus.meshSide());
      const auto collision = exactCollision(capsule.side(), torus.meshSide());
      const auto swapped = exactCollision(torus.meshSide(), capsule.side());
      QVERIFY(separation && collision && swapped);
      QCOMPARE(*collision, separation->colliding);
      QCOMPARE(*swapped, separation->colliding);
      const Vec3 p = c - 0.5 * length * axis, q = c + 0.5 * length * axis;
      double nearest = std::numeric_limits<double>::infinity();
      for (const TrianglePoints& t : torus.bvh.triangles()) {
        const Vec3 a = torus.X_WB * t[0], b = torus.X_WB * t[1], cc = torus.X_WB * t[2];
        nearest = std::min(nearest, segmentToTriangleBoundary(p, q, a, b, cc));
        const Vec3 n = (b - a).cross(cc - a);
        const double hp = n.dot(p - a), hq = n.dot(q - a);
        if ((hp < 0 && hq > 0) || (hp > 0 && hq < 0)) {
          const Vec3 x = p + (hp / (hp - hq)) * (q - p);
          nearest = std::min(nearest, (x - closestPointOnTriangle(x, a, b, cc).point).norm());
        }
      }
      // Away from the rounding of touching, the answer is the every-triangle one.
      if (std::abs(nearest - radius) > 1e-9) QCOMPARE(*collision, nearest < radius);
      (*collision ? colliding : clear) += 1;
    }
    QVERIFY2(colliding > 50 && clear > 50, qPrintable(QString("%1 colliding, %2 clear").arg(colliding).arg(clear)));
  }

  void randomSpherePairsMatchTessellations() {
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-1, 1);
    const std::vector<Shape> others = {Ellipsoid{Vec3(12, 7, 4)}, Cylinder{5, 16}, Cone{6, 14}, Box{Vec3(10, 6, 4)},
                                       Torus{20, 5}, Capsule{4, 12}};
    // One sphere, tessellated once and placed 36 times (the tessellation is in the body frame).
    Placed a(Sphere{3}, Transform::identity(), 64);
    for (const Shape& other : others) {
      const Placed b(other, pose({u(rng), u(rng), u(rng)}, Vec3(u(rng), u(rng), 1), u(rng)), 256);
      for (int i = 0; i < 6; ++i) {
        const Vec3 dir = Vec3(u(rng), u(rng), u(rng)).normalized();
        a.X_WB = pose(b.X_WB.translation() + 40 * dir);
        const auto r = exactSeparation(a.side(), b.side());
        QVERIFY(r && r->separation_mm > 0);
        const MeshDistance m = meshDistance(a.bvh, a.X_WB, b.bvh, b.X_WB);
        QVERIFY2(m.distance_mm >= r->separation_mm - 1e-9 && m.distance_mm - r->separation_mm < 0.02,
                 qPrintable(QString("%1: mesh %2 exact %3").arg(shapeTypeName(other)).arg(m.distance_mm).arg(r->separation_mm)));
      }
    }
  }
  void contactsWithinThreshold() {
    ContactQueryOptions o;  // 0.2 mm
    const Placed ground(HalfSpace{}, pose({0, 0, 0}));
    // A box resting 0.1 mm above the plane: its four bottom corners.
    auto mc = exactContacts(Placed(Box{Vec3(10, 20, 30)}, pose({0, 0, 15.1})).side(), ground.side(), o);
    QVERIFY(mc && !mc->colliding);
    QCOMPARE(mc->points.size(), std::size_t(4));
    for (const auto& p : mc->points) {
      QVERIFY(std::abs(p.distance_mm - 0.1) < kTol && std::abs(p.p_WCa_mm.z() - 0.1) < kTol);
      QVERIFY((p.nA_W - Vec3::UnitZ()).norm() < kTol && (p.nB_W + Vec3::UnitZ()).norm() < kTol);
    }
    // A sphere: one point, at the pole.
    mc = exactContacts(ground.side(), Placed(Sphere{10}, pose({1, 2, 10.05})).side(), o);
    QVERIFY(mc && mc->points.size() == 1);
    QVERIFY((mc->points[0].p_WCa_mm - Vec3(1, 2, 0)).norm() < kTol && (mc->points[0].p_WCb_mm - Vec3(1, 2, 0.05)).norm() < kTol);
    QVERIFY((mc->points[0].nA_W + Vec3::UnitZ()).norm() < kTol);
    // A cylinder lying on its side: a line contact, its two ends.
    mc = exactContacts(Placed(Cylinder{5, 40}, pose({0, 0, 5.1}, Vec3::UnitX(), kPi / 2)).side(), ground.side(), o);
    QVERIFY(mc && mc->points.size() == 2);
    QVERIFY(std::abs(std::abs(mc->points[0].p_WCa_mm.y() - mc->points[1].p_WCa_mm.y()) - 40) < kTol);
    // Parallel capsules: both ends of the overlap.
    mc = exactContacts(Placed(Capsule{2, 20}, pose({0, 0, 0})).side(), Placed(Capsule{3, 10}, pose({5.1, 0, 0})).side(), o);
    QVERIFY(mc && mc->points.size() == 2);
    // Too far, and interpenetrating.
    mc = exactContacts(Placed(Sphere{10}, pose({0, 0, 10.5})).side(), ground.side(), o);
    QVERIFY(mc && mc->points.empty() && !mc->colliding);
    mc = exactContacts(Placed(Sphere{10}, pose({0, 0, 9.5})).side(), ground.side(), o);
    QVERIFY(mc && mc->colliding && mc->points.empty());
    // A sphere over a mesh box's face: one point under the centre.
    const Placed box(Box{Vec3(20, 20, 20)}, pose({0, 0, 0}));
    mc = exactContacts(Placed(Sphere{5}, pose({1, 1, 15.1})).side(), box.meshSide(), o);
    QVERIFY(mc && mc->points.size() == 1 && (mc->points[0].p_WCb_mm - Vec3(1, 1, 10)).norm() < kTol);
    // A capsule lying 0.1 mm above a mesh box's face: a line contact, both ends.
    mc = exactContacts(Placed(Capsule{2, 16}, pose({0, 0, 12.1}, Vec3::UnitY(), kPi / 2)).side(), box.meshSide(), o);
    QVERIFY(mc && mc->points.size() == 2);
    for (const auto& p : mc->points) QVERIFY(std::abs(p.distance_mm - 0.1) < kTol && std::abs(std::abs(p.p_WCa_mm.x()) - 8) < kTol);
    // A mesh box 0.1 mm above the plane: its four bottom vertices.
    mc = exactContacts(Placed(Box{Vec3(20, 20, 20)}, pose({0, 0, 10.1})).meshSide(), ground.side(), o);
    QVERIFY(mc && mc->points.size() == 4);
  }
};

QTEST_GUILESS_MAIN(TestShapePairs)
#include "tst_shape_pairs.moc"
