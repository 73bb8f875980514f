// Contact glyphs of the render layer: one marker per contact, friction cones only where asked, cone geometry
// (apex at the contact, axis out of the cone's body along the normal line, half-angle atan μ, base ring on
// the contact frame's tangents), the highlight, the visibility switches, and picking a contact (ray picks
// through markers under a body, not through cones). No GL context needed.
#include <QtTest>

#include <cmath>

#include <Inventor/SoPickedPoint.h>
#include <Inventor/actions/SoGetBoundingBoxAction.h>
#include <Inventor/actions/SoRayPickAction.h>
#include <Inventor/nodes/SoCube.h>
#include <Inventor/nodes/SoOrthographicCamera.h>
#include <Inventor/nodes/SoPickStyle.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/CoinConvert.h"
#include "render/ContactNodes.h"

using namespace sg;

namespace {

// A contact at `p` between body 1 (normal n into it) and body 2 (normal −n into it).
Contact makeContactAt(const Vec3& p, const Vec3& n, double mu) {
  Contact c;
  c.side1.p_WC_mm = p;
  c.side1.n_W = n.normalized();
  c.side1.X_WC = contactFrame(p, c.side1.n_W);
  c.side2.p_WC_mm = p;
  c.side2.n_W = -n.normalized();
  c.side2.X_WC = contactFrame(p, c.side2.n_W);
  c.muStatic = mu;
  c.muKinetic = mu * 0.8;
  return c;
}

// The cone's points (apex, then the base ring) as the scene graph holds them.
std::vector<Vec3> conePoints(const ContactNodes& nodes, int i) {
  std::vector<Vec3> out;
  SoSeparator* cone = nodes.coneNode(i);
  for (int k = 0; cone && k < cone->getNumChildren(); ++k)
    if (cone->getChild(k)->isOfType(SoCoordinate3::getClassTypeId())) {
      const auto* coords = static_cast<SoCoordinate3*>(cone->getChild(k));
      for (int j = 0; j < coords->point.getNum(); ++j) out.push_back(fromSb(coords->point[j]));
    }
  return out;
}

SoMaterial* firstMaterial(SoSeparator* sep) {
  for (int k = 0; sep && k < sep->getNumChildren(); ++k)
    if (sep->getChild(k)->isOfType(SoMaterial::getClassTypeId())) return static_cast<SoMaterial*>(sep->getChild(k));
  return nullptr;
}

// Seen from above (orthographic, looking down −z, 0.4 mm per pixel on a 200×200 viewport centred on
// x = 10 mm): a "fingertip" box over x −5…25, y −5…5, z 10…20, and under the overlay's UNPICKABLE style
// (as in WorldScene) the contact glyphs.
struct PickScene {
  static constexpr float kMmPerPixel = 0.4f;
  SbViewportRegion viewport{200, 200};
  SoSeparator* root = new SoSeparator;

  explicit PickScene(ContactNodes& nodes) {
    root->ref();
    auto* camera = new SoOrthographicCamera;
    camera->position.setValue(10, 0, 100);
    camera->height = 200 * kMmPerPixel;
    camera->nearDistance = 1;
    camera->farDistance = 200;
    root->addChild(camera);
    auto* finger = new SoSeparator;
    auto* at = new SoTranslation;
    at->translation.setValue(10, 0, 15);
    finger->addChild(at);
    auto* box = new SoCube;
    box->width = 30;
    box->height = 10;
    box->depth = 10;
    finger->addChild(box);
    root->addChild(finger);
    auto* overlay = new SoSeparator;
    auto* unpickable = new SoPickStyle;
    unpickable->style = SoPickStyle::UNPICKABLE;
    overlay->addChild(unpickable);
    overlay->addChild(nodes.root());
    root->addChild(overlay);
  }
  ~PickScene() { root->unref(); }
  PickScene(const PickScene&) = delete;
  PickScene& operator=(const PickScene&) = delete;

  // The viewport pixel (bottom-left origin) over world point (x, y).
  SbVec2s pixel(double x_mm, double y_mm) const {
    return SbVec2s(static_cast<short>(std::lround(100 + (x_mm - 10) / kMmPerPixel)),
                   static_cast<short>(std::lround(100 + y_mm / kMmPerPixel)));
  }
  // The nearest hit's path (as a viewport's plain pick), ref'd, or nullptr.
  SoPath* nearestPath(double x_mm, double y_mm) const {
    SoRayPickAction action(viewport);
    action.setPoint(pixel(x_mm, y_mm));
    action.apply(root);
    const SoPickedPoint* pp = action.getPickedPoint();
    if (!pp) return nullptr;
    SoPath* path = pp->getPath()->copy();
    path->ref();
    return path;
  }
};

// Contact 0: a hand contact (on top) under the fingertip; 1: depth-tested, under the fingertip; 2:
// depth-tested, in the open. Each cone opens up towards the camera (μ 0.5: base radius 10 mm).
std::vector<ContactGlyph> pickGlyphs() {
  std::vector<ContactGlyph> glyphs;
  for (const Vec3& p : {Vec3(0, 0, 10), Vec3(15, 0, 10), Vec3(40, 0, 10)})
    glyphs.push_back(contactGlyph(makeContactAt(p, -Vec3::UnitZ(), 0.5), false));
  glyphs[0].onTop = true;
  return glyphs;
}

}  // namespace

class TstRenderContacts : public QObject {
  Q_OBJECT

 private slots:
  void coneGeometryFollowsTheContact() {
    const Vec3 p(10, -20, 35), n = Vec3(1, 2, -0.5).normalized();
    const double mu = 0.5;
    const Contact c = makeContactAt(p, n, mu);
    const FrictionCone on1 = frictionCone(contactGlyph(c, false));
    QVERIFY(on1.apex_mm.isApprox(p));
    QVERIFY(on1.axis.isApprox(-n, 1e-12));  // opens out of body 1, towards body 2
    QCOMPARE(on1.height_mm, 20.0);
    QVERIFY(std::abs(on1.halfAngle_rad - std::atan(mu)) < 1e-12);
    QVERIFY(std::abs(on1.baseRadius_mm() - 10.0) < 1e-9);  // μ × CONE_HEIGHT
    const FrictionCone on2 = frictionCone(contactGlyph(c, true), 12.0);
    QVERIFY(on2.axis.isApprox(n, 1e-12));
    QCOMPARE(on2.height_mm, 12.0);
    QVERIFY(std::abs(on2.baseRadius_mm() - 6.0) < 1e-9);
  }

  void oneMarkerPerContactConesWhereAsked() {
    ContactNodes nodes;
    QVERIFY(nodes.root());
    std::vector<ContactGlyph> glyphs;
    for (int i = 0; i < 3; ++i) glyphs.push_back(contactGlyph(makeContactAt(Vec3(30.0 * i, 0, 0), Vec3::UnitZ(), 0.4), false));
    glyphs[1].showCone = false;  // a soft contact shows its patch elsewhere
    glyphs[2].onTop = true;      // a hand's contact: drawn over the bodies
    nodes.setContacts(glyphs);
    QCOMPARE(nodes.contactCount(), 3);
    QVERIFY(nodes.depthTestedMarkers()->findChild(nodes.markerNode(0)) >= 0);
    QVERIFY(nodes.depthTestedMarkers()->findChild(nodes.markerNode(1)) >= 0);
    QVERIFY(nodes.onTopMarkers()->findChild(nodes.markerNode(2)) >= 0);
    QCOMPARE(nodes.onTopMarkers()->getNumChildren(), 2);  // the depth-buffer switch and one marker
    QVERIFY(nodes.onTopMarkers()->getChild(0)->isOfType(SoDepthBuffer::getClassTypeId()));
    QVERIFY(!static_cast<SoDepthBuffer*>(nodes.onTopMarkers()->getChild(0))->test.getValue());
    QCOMPARE(nodes.coneCount(), 2);
    QVERIFY(nodes.coneNode(0) && !nodes.coneNode(1) && nodes.coneNode(2));
    for (int i = 0; i < 3; ++i) {
      QVERIFY(nodes.markerNode(i));
      // The marker sits at its contact.
      const auto* t = static_cast<SoTranslation*>(nodes.markerNode(i)->getChild(0));
      QVERIFY(fromSb(t->translation.getValue()).isApprox(Vec3(30.0 * i, 0, 0), 1e-6));
    }
    // Replacing the contacts replaces the glyphs (nothing left over).
    nodes.setContacts({glyphs[0]});
    QCOMPARE(nodes.contactCount(), 1);
    QCOMPARE(nodes.coneCount(), 1);
    QCOMPARE(nodes.onTopMarkers()->getNumChildren(), 1);
    QCOMPARE(nodes.depthTestedMarkers()->getNumChildren(), 1);
    nodes.setContacts({});
    QCOMPARE(nodes.coneCount(), 0);
    SoGetBoundingBoxAction bbox(SbViewportRegion(100, 100));
    bbox.apply(nodes.root());
    QVERIFY(bbox.getBoundingBox().isEmpty());
  }

  void coneNodesHaveApexAxisAndHalfAngle() {
    const Vec3 p(5, 6, 7), n = Vec3(0.3, -1, 0.2).normalized();
    const double mu = 0.8;
    const Contact c = makeContactAt(p, n, mu);
    ContactNodes nodes;
    nodes.setContacts({contactGlyph(c, false)});
    const std::vector<Vec3> pts = conePoints(nodes, 0);
    const int edges = nodes.style().coneEdges;
    QCOMPARE(edges, 8);
    QVERIFY(static_cast<int>(pts.size()) >= edges + 1);
    QVERIFY((pts[0] - p).norm() < 1e-4);  // apex
    const Vec3 axis = -n;
    Vec3 centre = Vec3::Zero();
    for (int k = 1; k <= edges; ++k) {
      const Vec3 d = pts[k] - pts[0];
      const double along = d.dot(axis), across = (d - along * axis).norm();
      QVERIFY2(std::abs(along - 20.0) < 1e-3, qPrintable(QString("edge %1 height %2").arg(k).arg(along)));
      QVERIFY(std::abs(std::atan2(across, along) - std::atan(mu)) < 1e-5);
      centre += pts[k];
    }
    centre /= edges;
    QVERIFY((centre - (p + 20.0 * axis)).norm() < 1e-3);  // the ring is centred on the normal line
    // Edge 0 lies along the contact frame's x axis (the analysis' first friction edge).
    const Vec3 x = c.side1.X_WC.rotation() * Vec3::UnitX();
    QVERIFY(((pts[1] - (p + 20.0 * axis)).normalized() - x).norm() < 1e-4);
    // Side faces: a fan of `edges` triangles from the apex.
    SoIndexedFaceSet* faces = nodes.coneFaces(0);
    QVERIFY(faces);
    QCOMPARE(faces->coordIndex.getNum(), 4 * edges);
    for (int k = 0; k < edges; ++k) QCOMPARE(faces->coordIndex[4 * k], 0);
    // The bounding box spans apex and base.
    SoGetBoundingBoxAction bbox(SbViewportRegion(100, 100));
    bbox.apply(nodes.root());
    const SbBox3f box = bbox.getBoundingBox();
    QVERIFY(box.intersect(toSb(p + 20.0 * axis)));
  }

  void frictionlessContactHasNoConeSurface() {
    ContactNodes nodes;
    nodes.setContacts({contactGlyph(makeContactAt(Vec3::Zero(), Vec3::UnitX(), 0.0), true)});
    QCOMPARE(nodes.coneCount(), 1);  // its normal line
    QVERIFY(!nodes.coneFaces(0));
    QCOMPARE(frictionCone(nodes.glyph(0)).baseRadius_mm(), 0.0);
  }

  void highlightMarksOneContact() {
    ContactNodes nodes;
    std::vector<ContactGlyph> glyphs;
    for (int i = 0; i < 3; ++i) glyphs.push_back(contactGlyph(makeContactAt(Vec3(0, 25.0 * i, 0), Vec3::UnitY(), 0.3), false));
    nodes.setContacts(glyphs);
    const SoMaterial* plain = firstMaterial(nodes.coneNode(2));
    QVERIFY(plain);
    const SbColor red = plain->diffuseColor[0];
    QVERIFY(!nodes.highlighted());
    SoSwitch* highlightSwitch = static_cast<SoSwitch*>(nodes.root()->getChild(nodes.root()->getNumChildren() - 1));
    QCOMPARE(highlightSwitch->whichChild.getValue(), SO_SWITCH_NONE);

    nodes.setHighlighted(2);
    QCOMPARE(nodes.highlighted(), std::optional<int>(2));
    QCOMPARE(highlightSwitch->whichChild.getValue(), SO_SWITCH_ALL);
    // The on-top marker sits at contact 2, and contact 2's cone changed colour; the others did not.
    SoTranslation* at = nullptr;
    for (int k = 0; k < nodes.highlightNode()->getNumChildren(); ++k)
      if (nodes.highlightNode()->getChild(k)->isOfType(SoTranslation::getClassTypeId()))
        at = static_cast<SoTranslation*>(nodes.highlightNode()->getChild(k));
    QVERIFY(at);
    QVERIFY(fromSb(at->translation.getValue()).isApprox(Vec3(0, 50, 0), 1e-6));
    QVERIFY(firstMaterial(nodes.coneNode(2))->diffuseColor[0] != red);
    QVERIFY(firstMaterial(nodes.coneNode(0))->diffuseColor[0] == red);

    nodes.setHighlighted(0);
    QVERIFY(firstMaterial(nodes.coneNode(2))->diffuseColor[0] == red);
    QVERIFY(firstMaterial(nodes.coneNode(0))->diffuseColor[0] != red);
    nodes.setHighlighted(7);  // out of range: nothing
    QVERIFY(!nodes.highlighted());
    QCOMPARE(highlightSwitch->whichChild.getValue(), SO_SWITCH_NONE);
    QVERIFY(firstMaterial(nodes.coneNode(0))->diffuseColor[0] == red);

    // Fewer contacts drop a highlight that no longer exists.
    nodes.setHighlighted(2);
    nodes.setContacts({glyphs[0]});
    QVERIFY(!nodes.highlighted());
    QCOMPARE(highlightSwitch->whichChild.getValue(), SO_SWITCH_NONE);
  }

  void pickFindsMarkersUnderBodies() {
    ContactNodes nodes;
    nodes.setContacts(pickGlyphs());
    PickScene scene(nodes);
    auto pick = [&](double x, double y) { return nodes.pickContact(scene.root, scene.viewport, scene.pixel(x, y)); };
    // The on-top marker under the fingertip: the ray's nearest hit is the fingertip, the marker is found behind it.
    SoPath* nearest = scene.nearestPath(0, 0);
    QVERIFY(nearest);
    QVERIFY(!nodes.contactForPath(nearest));
    nearest->unref();
    QCOMPARE(pick(0, 0), std::optional<int>(0));
    QCOMPARE(pick(0, 1.5), std::optional<int>(0));  // anywhere on its 2 mm sphere
    // A few pixels beside it (the sphere is 5 px wide here: 2.8 mm is 2 px off its outline) still picks it,
    // farther does not.
    QCOMPARE(pick(0, 2.8), std::optional<int>(0));
    QCOMPARE(pick(-2.8, 0), std::optional<int>(0));
    QVERIFY(!pick(0, 4.4));
    QVERIFY(!pick(15, 2.8));  // no such slack for a depth-tested marker under a body
    // A depth-tested marker is hidden by the fingertip, as it is drawn.
    QVERIFY(!pick(15, 0));
    // One in the open is the nearest hit itself, despite the overlay's UNPICKABLE style.
    nearest = scene.nearestPath(40, 0);
    QVERIFY(nearest);
    QCOMPARE(nodes.contactForPath(nearest), std::optional<int>(2));
    nearest->unref();
    QCOMPARE(pick(40, 0), std::optional<int>(2));
    // The fingertip away from any marker, and a cone away from its marker, pick no contact; the cone is
    // not even hit (clicks go to the bodies under it).
    QVERIFY(!pick(8, 0));
    QVERIFY(!pick(46, 0));
    QVERIFY(scene.nearestPath(46, 0) == nullptr);
    QVERIFY(!nodes.contactForPath(nullptr));
  }

  void pickFollowsHighlightAndVisibility() {
    ContactNodes nodes;
    nodes.setContacts(pickGlyphs());
    PickScene scene(nodes);
    auto pick = [&](double x, double y) { return nodes.pickContact(scene.root, scene.viewport, scene.pixel(x, y)); };
    // The highlight is drawn over everything: the highlighted contact is picked under the fingertip too,
    // within the highlight's 4 mm radius.
    nodes.setHighlighted(1);
    QCOMPARE(pick(15, 0), std::optional<int>(1));
    QCOMPARE(pick(15, 3.5), std::optional<int>(1));
    nodes.setHighlighted(std::nullopt);
    QVERIFY(!pick(15, 3.5));
    // Hidden markers are not picked.
    nodes.setMarkersVisible(false);
    QVERIFY(!pick(0, 0));
    QVERIFY(!pick(0, 2.8));
    QVERIFY(!pick(40, 0));
    nodes.setMarkersVisible(true);
    // New contacts map to their new indices; the old marker nodes are gone.
    std::vector<ContactGlyph> glyphs = pickGlyphs();
    std::swap(glyphs[0], glyphs[2]);
    nodes.setContacts(glyphs);
    QCOMPARE(pick(40, 0), std::optional<int>(0));
    QCOMPARE(pick(0, 0), std::optional<int>(2));
  }

  void visibilitySwitches() {
    ContactNodes nodes;
    nodes.setContacts({contactGlyph(makeContactAt(Vec3::Zero(), Vec3::UnitZ(), 0.5), false)});
    QVERIFY(nodes.markersVisible() && nodes.conesVisible());
    nodes.setConesVisible(false);
    QVERIFY(!nodes.conesVisible() && nodes.markersVisible());
    SoGetBoundingBoxAction bbox(SbViewportRegion(100, 100));
    bbox.apply(nodes.root());
    QVERIFY(bbox.getBoundingBox().getMax()[2] < 5.0f);  // only the marker is left: no 20 mm cone
    nodes.setMarkersVisible(false);
    bbox.apply(nodes.root());
    QVERIFY(bbox.getBoundingBox().isEmpty());
    nodes.setConesVisible(true);
    bbox.apply(nodes.root());
    QVERIFY(bbox.getBoundingBox().getMin()[2] < -19.0f);  // cone opens out of body 1, along −z
  }
};

QTEST_GUILESS_MAIN(TstRenderContacts)
#include "tst_render_contacts.moc"
