// Contact patches (src/contact/README.md §Contact patches): box face on box face = their overlap rectangle
// (primitives and meshes), a box turned 45° = the regular octagon, a sphere on a plane = the regular polygon
// inscribed in the cap circle of radius √(2Rτ − τ²), the vertex bound, polygon closed forms, the "patch"
// model's generic fields, bad settings.
#include <QtTest>

#include <cmath>
#include <numbers>

#include "contact/ContactDetection.h"
#include "contact/models/PatchContactModel.h"
#include "contact/patch/ContactPatch.h"
#include "core/Error.h"
#include "geometry/ShapeTessellation.h"
#include "ModelRun.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

PlacedBody shapeBody(const std::string& name, BodyKind kind, const Shape& shape, const Transform& pose,
                     bool exact = true) {
  const Primitive p{shape, Transform::identity()};
  PlacedBody b = makeBody(name, kind, tessellatePrimitive(p), pose);
  if (exact) b.body.primitive = p;
  return b;
}

// The graspable 40×40×20 box with its top face at z = 0 and a 30×20×10 box resting 0.05 mm above it, shifted
// so that the footprints overlap in x ∈ [0, 20], y ∈ [−10, 10].
World boxOnBox(bool exact) {
  World w;
  addGraspable(w, shapeBody("base", BodyKind::Graspable, Box{Vec3(40, 40, 20)},
                            Transform::fromTranslation(Vec3(0, 0, -10)), exact));
  addObstacle(w, shapeBody("upper", BodyKind::Obstacle, Box{Vec3(30, 20, 10)},
                           Transform::fromTranslation(Vec3(15, 0, 5.05)), exact));
  return w;
}

// The contact to build patches from: the first detected one.
Contact firstContact(const World& w) {
  const auto contacts = findAllContacts(w);
  if (contacts.empty()) qFatal("no contact");
  return contacts.front();
}

bool isCounterClockwiseConvex(const Polygon2& p) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec2 a = p[(i + 1) % p.size()] - p[i], b = p[(i + 2) % p.size()] - p[(i + 1) % p.size()];
    if (a.x() * b.y() - a.y() * b.x() <= 0) return false;
  }
  return true;
}

// Every expected world point is a patch vertex (and the counts agree).
bool sameVertices(const ContactPatch& patch, const std::vector<Vec3>& want, double tol) {
  if (patch.size() != want.size()) return false;
  for (const Vec3& w : want) {
    bool found = false;
    for (std::size_t i = 0; i < patch.size(); ++i) found |= (patch.p_WV_mm(i) - w).norm() < tol;
    if (!found) return false;
  }
  return true;
}

}  // namespace

class TestPatch : public QObject {
  Q_OBJECT
 private slots:
  void boxFaceOnBoxFaceIsTheOverlapRectangle() {
    for (bool exact : {true, false}) {
      const World w = boxOnBox(exact);
      const Contact c = firstContact(w);
      const double z = 0.025;  // the contact plane halfway between the faces
      const ContactPatch patch = computeContactPatch(w, w.state, c);
      QVERIFY2(sameVertices(patch, {{0, -10, z}, {20, -10, z}, {20, 10, z}, {0, 10, z}}, 1e-9),
               exact ? "primitives" : "meshes");
      QVERIFY(isCounterClockwiseConvex(patch.polygon_P_mm));
      QVERIFY(std::abs(patch.area_mm2() - 400) < 1e-9);
      QVERIFY((patch.centroid_W_mm() - Vec3(10, 0, z)).norm() < 1e-9);
      QCOMPARE(QString(patch.shapeName()), QString("polygon"));
      QCOMPARE(patch.source1, exact ? SupportSetSource::Primitive : SupportSetSource::Mesh);
      // Witness points: p2 − p1 = d·n on every vertex, the lower one on the base's top face.
      QVERIFY(std::abs(patch.separation_mm - 0.05) < 1e-9);
      for (std::size_t i = 0; i < patch.size(); ++i) {
        const Vec3 gap = patch.pointOnSide2_W_mm(i) - patch.pointOnSide1_W_mm(i);
        QVERIFY((gap - 0.05 * patch.n_W()).norm() < 1e-12);
        const double lower = std::min(patch.pointOnSide1_W_mm(i).z(), patch.pointOnSide2_W_mm(i).z());
        QVERIFY(std::abs(lower) < 1e-9);
      }
      // Uniform pressure over a 20 mm square: mean distance from its centre s(√2 + asinh 1)/6.
      QVERIFY(std::abs(patch.meanRadius_mm() - 20 * (std::sqrt(2.0) + std::asinh(1.0)) / 6) < 1e-9);
    }
  }

  void turnedBoxGivesTheRegularOctagon() {
    // Coal's case: two s = 10 squares, one turned 45°: the octagon of area 2(√2 − 1)s², vertices (s/2)/cos(π/8)
    // from the axis.
    World lower;
    addGraspable(lower, shapeBody("base", BodyKind::Graspable, Box{Vec3(10, 10, 20)},
                                  Transform::fromTranslation(Vec3(0, 0, -10))));
    addObstacle(lower, shapeBody("upper", BodyKind::Obstacle, Box{Vec3(10, 10, 10)},
                                 Transform(Quat(Eigen::AngleAxisd(std::numbers::pi / 4, Vec3::UnitZ())),
                                           Vec3(0, 0, 5.05))));
    const ContactPatch patch = computeContactPatch(lower, lower.state, firstContact(lower));
    QCOMPARE(patch.size(), std::size_t(8));
    QVERIFY(isCounterClockwiseConvex(patch.polygon_P_mm));
    QVERIFY(std::abs(patch.area_mm2() - 2 * (std::sqrt(2.0) - 1) * 100) < 1e-8);
    for (std::size_t i = 0; i < 8; ++i) {
      const Vec3 p = patch.p_WV_mm(i);
      QVERIFY(std::abs(std::hypot(p.x(), p.y()) - 5 / std::cos(std::numbers::pi / 8)) < 1e-9);
    }
  }

  void sphereOnAPlaneIsTheInscribedRegularPolygon() {
    const double R = 10, tol = 0.1, r = std::sqrt(2 * R * tol - tol * tol);
    ContactPatchSettings settings;
    settings.tolerance_mm = tol;
    for (int plane = 0; plane < 3; ++plane) {  // a half-space, an exact box, a mesh box
      World w;
      if (plane == 0) addGraspable(w, shapeBody("floor", BodyKind::Graspable, HalfSpace{}, {}));
      else
        addGraspable(w, shapeBody("floor", BodyKind::Graspable, Box{Vec3(100, 100, 20)},
                                  Transform::fromTranslation(Vec3(0, 0, -10)), plane == 1));
      addObstacle(w, shapeBody("ball", BodyKind::Obstacle, Sphere{R}, Transform::fromTranslation(Vec3(3, -2, 10.04))));
      const ContactPatch patch = computeContactPatch(w, w.state, firstContact(w), settings);
      QCOMPARE(patch.size(), std::size_t(settings.curvedSamples));
      QVERIFY(isCounterClockwiseConvex(patch.polygon_P_mm));
      const Vec3 centre(3, -2, 0.02);
      for (std::size_t i = 0; i < patch.size(); ++i) {
        QVERIFY2(std::abs((patch.p_WV_mm(i) - centre).norm() - r) < 1e-7, qPrintable(QString::number(plane)));
        // Neighbours 30° apart: a regular 12-gon.
        const Vec3 a = patch.p_WV_mm(i) - centre, b = patch.p_WV_mm((i + 1) % patch.size()) - centre;
        QVERIFY(std::abs(std::acos(a.normalized().dot(b.normalized())) - std::numbers::pi / 6) < 1e-6);
      }
      QVERIFY(std::abs(patch.area_mm2() - 6 * r * r * std::sin(std::numbers::pi / 6)) < 1e-6);
      QVERIFY((patch.centroid_W_mm() - centre).norm() < 1e-7);
    }
  }

  void vertexCountIsBounded() {
    World w;
    addGraspable(w, shapeBody("floor", BodyKind::Graspable, HalfSpace{}, {}));
    addObstacle(w, shapeBody("ball", BodyKind::Obstacle, Sphere{10}, Transform::fromTranslation(Vec3(0, 0, 10.01))));
    ContactPatchSettings settings;
    settings.curvedSamples = 32;
    settings.maxVertices = 8;
    const Contact c = firstContact(w);
    const ContactPatch full = computeContactPatch(w, w.state, c, {.tolerance_mm = 0.1, .curvedSamples = 32, .maxVertices = 64});
    const ContactPatch bounded = computeContactPatch(w, w.state, c, settings);
    QCOMPARE(full.size(), std::size_t(32));
    QCOMPARE(bounded.size(), std::size_t(8));
    QVERIFY(isCounterClockwiseConvex(bounded.polygon_P_mm));
    // The survivors are vertices of the 32-gon; their octagon loses little area: at most the regular octagon
    // inscribed in the same circle (the largest 8-gon on it), and more than 95 % of that.
    for (const Vec2& v : bounded.polygon_P_mm) {
      bool found = false;
      for (const Vec2& u : full.polygon_P_mm) found |= (u - v).norm() < 1e-12;
      QVERIFY(found);
    }
    const double r2 = full.polygon_P_mm[0].squaredNorm(), octagon = 2 * std::sqrt(2.0) * r2;
    QVERIFY(bounded.area_mm2() <= octagon * (1 + 1e-9));
    QVERIFY(bounded.area_mm2() > 0.95 * octagon);
  }

  void polygonClosedForms() {
    // A 256-gon of radius 3 approaches the disc: mean distance 2a/3.
    Polygon2 disc;
    for (int k = 0; k < 256; ++k) disc.emplace_back(3 * std::cos(2 * std::numbers::pi * k / 256), 3 * std::sin(2 * std::numbers::pi * k / 256));
    QVERIFY(std::abs(polygonMeanDistance(disc, Vec2::Zero()) - 2.0) < 1e-3);
    // A segment of length 4 about its midpoint: L/4; about an end: L/2.
    const Polygon2 seg{{-2, 0}, {2, 0}};
    QVERIFY(std::abs(polygonMeanDistance(seg, Vec2::Zero()) - 1.0) < 1e-12);
    QVERIFY(std::abs(polygonMeanDistance(seg, Vec2(-2, 0)) - 2.0) < 1e-12);
    // Two overlapping collinear segments give their common part; crossing ones their crossing point.
    const Polygon2 common = intersectConvex(seg, {{1, 0}, {5, 0}});
    QCOMPARE(common.size(), std::size_t(2));
    QVERIFY(std::abs(std::abs(common[1].x() - common[0].x()) - 1) < 1e-12);
    const Polygon2 cross = intersectConvex(seg, {{0.5, -1}, {0.5, 1}});
    QCOMPARE(cross.size(), std::size_t(1));
    QVERIFY((cross[0] - Vec2(0.5, 0)).norm() < 1e-12);
    // A segment clipped by a square.
    const Polygon2 square{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    const Polygon2 clipped = intersectConvex(seg, square);
    QCOMPARE(clipped.size(), std::size_t(2));
    QVERIFY(std::abs((clipped[1] - clipped[0]).norm() - 2) < 1e-12);
    QVERIFY(intersectConvex(square, {{3, 3}, {4, 3}, {4, 4}}).empty());
  }

  void patchModelFillsTheGenericFields() {
    const World w = boxOnBox(true);
    ContactModelSettings settings;
    const ModelRun run = runModel(w, "patch", settings);
    const auto* result = dynamic_cast<const PatchContactResult*>(run.result.get());
    QVERIFY(result);
    QCOMPARE(result->contacts.size(), std::size_t(1));  // one touching region
    QCOMPARE(result->patches.size(), std::size_t(1));
    const ModelContact& m = result->contacts[0];
    QCOMPARE(m.sourceContacts.size(), run.detected.size());  // every detected corner belongs to it
    QCOMPARE(QString::fromStdString(m.patchShape), QString("polygon"));
    QVERIFY(std::abs(m.patchArea_mm2 - 400) < 1e-9);
    QCOMPARE(m.normalForce_N, settings.soft.patch.normalForce_N);
    QVERIFY(std::abs(m.peakPressure_Pa - m.normalForce_N / 400e-6) < 1e-6);
    QCOMPARE(m.kind, ContactKind::SoftFinger);
    const double meanRadius = 20 * (std::sqrt(2.0) + std::asinh(1.0)) / 6;
    QVERIFY(std::abs(m.torsion_mm - meanRadius) < 1e-9);
    // The description: the 20 mm square polygon, its area, mean radius and vertices in world mm.
    const Json d = result->describeContact(0);
    QCOMPARE(d.at("shape", "").string(""), std::string("polygon"));
    QCOMPARE(d.at("vertexCount", "").number(""), 4.0);
    QVERIFY(std::abs(d.at("area_mm2", "").number("") - 400) < 1e-9);
    QVERIFY(std::abs(d.at("meanRadius_mm", "").number("") - meanRadius) < 1e-9);
    QCOMPARE(d.at("vertices_mm", "").items("").size(), std::size_t(4));
    for (const Json& v : d.at("vertices_mm", "").items("")) QCOMPARE(v.items("").size(), std::size_t(3));
    QVERIFY(std::abs(std::abs(d.at("normal", "").items("")[2].number("")) - 1) < 1e-9);
    QVERIFY(result->describeContact(5).members("").empty());  // out of range: nothing
    QVERIFY(std::abs(m.maxTorsionalFriction_Nmm - m.mu * m.normalForce_N * meanRadius) < 1e-9);
    QCOMPARE(m.patchOutline_W_mm.size(), std::size_t(4));
    // The contact acts at the centroid; the outline runs counter-clockwise seen from outside the object (the
    // base, normal +z): positive signed area about +z.
    QVERIFY((m.onObject().p_WC_mm - Vec3(10, 0, 0)).norm() < 1e-9);
    double twiceArea = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const Vec3& a = m.patchOutline_W_mm[i];
      const Vec3& b = m.patchOutline_W_mm[(i + 1) % 4];
      twiceArea += a.x() * b.y() - a.y() * b.x();
    }
    QVERIFY(std::abs(0.5 * twiceArea - 400) < 1e-9);
  }

  void badSettingsAreErrors() {
    const World w = boxOnBox(true);
    const Contact c = firstContact(w);
    for (const ContactPatchSettings& s : {ContactPatchSettings{.tolerance_mm = -1},
                                          ContactPatchSettings{.curvedSamples = 2},
                                          ContactPatchSettings{.maxVertices = 2},
                                          ContactPatchSettings{.regionLinkDistance_mm = 0}}) {
      try {
        computeContactPatch(w, w.state, c, s);
        QFAIL("no error");
      } catch (const Error& e) {
        QVERIFY(QString::fromStdString(e.message()).contains("contact patch"));
      }
    }
  }
};

QTEST_APPLESS_MAIN(TestPatch)
#include "tst_patch.moc"
