// Coin nodes for soft contacts, worst-case wrenches and GWS hulls: their geometry, checked without a GL
// context (node fields and bounding boxes).
#include <QtTest>

#include <cmath>

#include <Inventor/SbBox.h>
#include <Inventor/SbViewportRegion.h>
#include <Inventor/actions/SoGetBoundingBoxAction.h>
#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoText2.h>
#include <Inventor/nodes/SoTransform.h>

#include "../support/SceneSearch.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/HullNodes.h"
#include "render/SoftPatchNodes.h"
#include "render/WrenchNodes.h"

using namespace sg;
using sgtest::Held;

namespace {

// Keeps a node alive for a test's scope.
template <class T>
T* findFirst(SoNode* root, const char* name = nullptr) {
  SoSearchAction search;
  search.setType(T::getClassTypeId());
  if (name) search.setName(name);
  search.setInterest(SoSearchAction::FIRST);
  search.apply(root);
  return search.getPath() ? static_cast<T*>(search.getPath()->getTail()) : nullptr;
}

SoNode* findNamed(SoNode* root, const char* name) {
  SoSearchAction search;
  search.setName(name);
  search.setInterest(SoSearchAction::FIRST);
  search.apply(root);
  return search.getPath() ? search.getPath()->getTail() : nullptr;
}

std::vector<Vec3> pointsOf(const SoCoordinate3* coords) {
  std::vector<Vec3> out;
  for (int i = 0; i < coords->point.getNum(); ++i) out.push_back(fromSb(coords->point[i]));
  return out;
}

SbBox3f boundsOf(SoNode* node) {
  SoGetBoundingBoxAction box(SbViewportRegion(100, 100));
  box.apply(node);
  return box.getBoundingBox();
}

// A contact frame at p with inward normal n (x chosen perpendicular).
Transform frameAt(const Vec3& p, const Vec3& n) {
  const Vec3 z = n.normalized();
  const Vec3 x = z.unitOrthogonal();
  Mat3 r;
  r.col(0) = x;
  r.col(1) = z.cross(x);
  r.col(2) = z;
  return Transform(Quat(r), p);
}

}  // namespace

class TstRenderQuality : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { initCoin(); }

  void patchVerticesLieOnTheParaboloid();
  void patchNodeCarriesTheContactFrame();
  void ellipseAxesHaveThePatchSemiAxes();
  void pointMarkersHoldEveryPoint();
  void forceArrowPointsAlongTheForce();
  void torqueArrowPointsAlongTheTorque();
  void zeroWrenchDrawsNoArrows();
  void hullNodeHasFacesEdgesAndLabelledAxes();
};

void TstRenderQuality::patchVerticesLieOnTheParaboloid() {
  ParaboloidPatch patch;
  patch.a = 0.05;
  patch.b = -0.02;
  patch.c = 0.03;
  patch.radius_mm = 7.5;
  const std::vector<Vec3> points = paraboloidPatchPoints(patch, 4, 12);
  QCOMPARE(points.size(), std::size_t(1 + 4 * 12));
  double maxRadius = 0;
  for (const Vec3& p : points) {
    QVERIFY(std::abs(p.z() - (patch.a * p.x() * p.x() + patch.b * p.y() * p.y() + patch.c * p.x() * p.y())) < 1e-12);
    maxRadius = std::max(maxRadius, std::hypot(p.x(), p.y()));
  }
  QVERIFY(std::abs(maxRadius - 7.5) < 1e-12);
  QVERIFY(points.front().isZero());

  // The node's coordinates are the same points (float precision) and its faces cover the disc.
  SoftPatchStyle style;
  style.rings = 4;
  style.segments = 12;
  Held node(makeParaboloidPatchNode(patch, style));
  auto* coords = findFirst<SoCoordinate3>(node.node);
  QVERIFY(coords);
  const std::vector<Vec3> drawn = pointsOf(coords);
  QCOMPARE(drawn.size(), points.size());
  for (std::size_t i = 0; i < drawn.size(); ++i) QVERIFY((drawn[i] - points[i]).norm() < 1e-5);
  auto* faces = findFirst<SoIndexedFaceSet>(node.node);
  QVERIFY(faces);
  // 12 centre triangles + 2·12 per ring gap (3 gaps), 4 indices each.
  QCOMPARE(faces->coordIndex.getNum(), (12 + 3 * 2 * 12) * 4);
  for (int i = 0; i < faces->coordIndex.getNum(); ++i) QVERIFY(faces->coordIndex[i] < coords->point.getNum());
}

void TstRenderQuality::patchNodeCarriesTheContactFrame() {
  ParaboloidPatch patch;
  patch.frame = frameAt(Vec3(10, -20, 30), Vec3(0, 1, 1));
  patch.a = patch.b = 0.1;
  patch.radius_mm = 5;
  Held node(makeParaboloidPatchNode(patch));
  auto* xf = findFirst<SoTransform>(node.node);
  QVERIFY(xf);
  QVERIFY((fromSb(xf->translation.getValue()) - Vec3(10, -20, 30)).norm() < 1e-4);
  SbVec3f z;
  xf->rotation.getValue().multVec(SbVec3f(0, 0, 1), z);
  QVERIFY((fromSb(z) - Vec3(0, 1, 1).normalized()).norm() < 1e-5);
  // The drawn patch sits where the frame puts it: every patch point, mapped to the world, is inside the
  // node's world bounding box, and the box is no bigger than the patch.
  SbBox3f box = boundsOf(node.node);
  box.extendBy(SbBox3f(box.getMin() - SbVec3f(1e-3f, 1e-3f, 1e-3f), box.getMax() + SbVec3f(1e-3f, 1e-3f, 1e-3f)));
  for (const Vec3& p : paraboloidPatchPoints(patch, 6, 32)) QVERIFY(box.intersect(toSb(patch.frame * p)));
  float dx, dy, dz;
  box.getSize(dx, dy, dz);
  QVERIFY(std::max({dx, dy, dz}) < 2 * 5.0f + 0.01f);
}

void TstRenderQuality::ellipseAxesHaveThePatchSemiAxes() {
  ContactEllipse e;
  e.frame = frameAt(Vec3(1, 2, 3), Vec3(0, 0, -1));
  // World tangent axes (the frame's z is world −z, so any world xy direction is tangent).
  e.axisLong = Vec3(1, 1, 0).normalized();
  e.axisShort = Vec3(-1, 1, 0).normalized();
  e.semiLong_mm = 4.0;
  e.semiShort_mm = 1.5;
  const std::vector<Vec3> points = contactEllipsePoints(e, 64);
  QCOMPARE(points.size(), std::size_t(64));
  double alongLong = 0, alongShort = 0;
  for (const Vec3& local : points) {
    QVERIFY(std::abs(local.z()) < 1e-12);  // in the tangent plane
    const Vec3 world = e.frame * local - e.frame.translation();
    alongLong = std::max(alongLong, world.dot(e.axisLong));
    alongShort = std::max(alongShort, world.dot(e.axisShort));
    // On the ellipse: (u/a)² + (v/b)² = 1.
    const double u = world.dot(e.axisLong) / 4.0, v = world.dot(e.axisShort) / 1.5;
    QVERIFY(std::abs(u * u + v * v - 1) < 1e-9);
  }
  QVERIFY(std::abs(alongLong - 4.0) < 1e-9);
  QVERIFY(std::abs(alongShort - 1.5) < 1e-9);

  Held node(makeContactEllipseNode(e));
  auto* coords = findFirst<SoCoordinate3>(node.node);
  QVERIFY(coords);
  QCOMPARE(coords->point.getNum(), SoftPatchStyle{}.segments + 1);  // closed loop
  QVERIFY(coords->point[0] == coords->point[coords->point.getNum() - 1]);
  // In the world the loop spans 2·4 mm along the long axis about the contact point.
  const SbBox3f box = boundsOf(node.node);
  const Vec3 centre = fromSb(box.getCenter());
  QVERIFY((centre - Vec3(1, 2, 3)).norm() < 1e-3);
  float dx, dy, dz;
  box.getSize(dx, dy, dz);
  QVERIFY(std::abs(dz) < 1e-4);
  const double diagonalExtent = std::hypot(dx, dy);
  QVERIFY(diagonalExtent > 2 * 4.0 - 1e-3);
}

void TstRenderQuality::pointMarkersHoldEveryPoint() {
  const std::vector<Vec3> points = {{0, 0, 0}, {1, 2, 3}, {-4, 5, 6}};
  Held node(makePointMarkersNode(points));
  auto* coords = findFirst<SoCoordinate3>(node.node);
  QVERIFY(coords);
  const std::vector<Vec3> drawn = pointsOf(coords);
  QCOMPARE(drawn.size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i) QVERIFY((drawn[i] - points[i]).norm() < 1e-6);
}

void TstRenderQuality::forceArrowPointsAlongTheForce() {
  const Vec3 origin(100, 50, -20), force(0.3, -0.4, 0.0);
  WrenchArrowStyle style;
  Held node(makeWrenchArrowsNode(origin, force, Vec3::Zero(), style));
  SoNode* arrow = findNamed(node.node, "forceArrow");
  QVERIFY(arrow);
  QVERIFY(!findNamed(node.node, "torqueArrow"));
  auto* xf = findFirst<SoTransform>(arrow);
  SbVec3f y;
  xf->rotation.getValue().multVec(SbVec3f(0, 1, 0), y);
  QVERIFY((fromSb(y) - force.normalized()).norm() < 1e-5);
  // The arrow's bounding box runs from the origin along the force, length ∝ |f|.
  const double length = wrenchArrowLength_mm(force.norm(), style);
  QVERIFY(std::abs(length - 0.5 * style.length_mm_per_unit) < 1e-9);
  const Vec3 centre = fromSb(boundsOf(node.node).getCenter());
  const Vec3 offset = centre - origin;
  QVERIFY(std::abs(offset.norm() - length / 2) < 1.0);
  QVERIFY(offset.normalized().dot(force.normalized()) > 0.999);
}

void TstRenderQuality::torqueArrowPointsAlongTheTorque() {
  const Vec3 torque(0, 0, -0.02);  // tiny: drawn at the minimum length
  WrenchArrowStyle style;
  Held node(makeWrenchArrowsNode(Vec3::Zero(), Vec3::Zero(), torque, style));
  QVERIFY(!findNamed(node.node, "forceArrow"));
  SoNode* arrow = findNamed(node.node, "torqueArrow");
  QVERIFY(arrow);
  const SbBox3f box = boundsOf(node.node);
  QVERIFY(box.getMax()[2] < 1e-3);                                   // all below the origin
  QVERIFY(std::abs(box.getMin()[2] + style.minLength_mm) < 1e-3);   // minimum length reached
}

void TstRenderQuality::zeroWrenchDrawsNoArrows() {
  Held node(makeWrenchArrowsNode(Vec3(1, 2, 3), Vec3::Zero(), Vec3::Zero()));
  QVERIFY(!findNamed(node.node, "forceArrow"));
  QVERIFY(!findNamed(node.node, "torqueArrow"));
  QCOMPARE(wrenchArrowLength_mm(0.0), 0.0);
}

void TstRenderQuality::hullNodeHasFacesEdgesAndLabelledAxes() {
  // A tetrahedron around the origin.
  const std::vector<Vec3> v = {{1, 0, 0}, {0, 1, 0}, {-1, -1, 0}, {0, 0, 2}};
  const std::vector<std::array<int, 3>> t = {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}, {0, 2, 1}};
  Held node(makeHullNode(v, t, {"fx", "fy", "tz"}));
  SoNode* faces = findNamed(node.node, "hullFaces");
  QVERIFY(faces);
  auto* coords = findFirst<SoCoordinate3>(faces);
  QCOMPARE(coords->point.getNum(), 4);
  auto* set = findFirst<SoIndexedFaceSet>(faces);
  QCOMPARE(set->coordIndex.getNum(), 16);
  QCOMPARE(set->coordIndex[4 * 3 + 1], 2);  // the last triangle {0, 2, 1}
  QVERIFY(findNamed(node.node, "hullEdges"));
  QVERIFY(findNamed(node.node, "hullOrigin"));
  SoNode* axes = findNamed(node.node, "hullAxes");
  QVERIFY(axes);
  SoSearchAction texts;
  texts.setType(SoText2::getClassTypeId());
  texts.setInterest(SoSearchAction::ALL);
  texts.apply(axes);
  QCOMPARE(texts.getPaths().getLength(), 3);
  QStringList labels;
  for (int i = 0; i < 3; ++i)
    labels << QString::fromLatin1(static_cast<SoText2*>(texts.getPaths()[i]->getTail())->string[0].getString());
  QCOMPARE(labels, QStringList({"fx", "fy", "tz"}));
  // Axes reach beyond the hull: 1.25 × the largest coordinate (2).
  QCOMPARE(hullAxisLength(v), 2.5);
  const SbBox3f box = boundsOf(axes);
  QVERIFY(box.getMax()[2] >= 2.5f - 1e-4f);

  // An empty hull still shows the axes (unit length) and no faces.
  Held empty(makeHullNode({}, {}, {"a", "b", "c"}));
  QVERIFY(!findNamed(empty.node, "hullFaces"));
  QVERIFY(findNamed(empty.node, "hullAxes"));
  QCOMPARE(hullAxisLength({}), 1.0);
}

QTEST_GUILESS_MAIN(TstRenderQuality)
#include "tst_render_quality.moc"
