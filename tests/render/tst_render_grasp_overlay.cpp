// The grasp overlay built from an engine analysis (render/GraspOverlay.h), the mapping the application's
// overlays and the headless screenshot share: on the bundled default world after Approach & Grasp (key G),
// one marker per contact, one cone surface per frictional contact, one patch per soft fit, one ellipse per
// soft contact and the worst-case wrench with force closure; one contact-force arrow per contact whose model
// gives a normal force, as long as that force times the scale, pushing on the object at its contact point; the
// legend of the arrows (render/OverlayLegend.h); the options switch each part off; the glyph rules (cone on the
// graspable, the hand's contacts on top). Checked on the graph, without a GL context.
#include <QtTest>

#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoCone.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoTransform.h>
#include <Inventor/nodes/SoTranslation.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSphere.h>

#include "../support/SceneSearch.h"
#include "contact/models/SoftFingerContactModel.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "render/CoinInit.h"
#include "render/GraspOverlay.h"
#include "render/OverlayLegend.h"
#include "../support/TestPaths.h"

using namespace sg;
using sgtest::Held;
using sgtest::childOfType;
using sgtest::separatorsNamed;

namespace {

// The default world (ThreeFinger hand over the mug) after the application's G: 30 mm approach, auto-grasp.
AnalysisResult graspDefaultWorld(const std::string& model = "soft-finger", double normalForce_N = 5.0) {
  World world = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
  AnalysisRequest request;
  request.quality.soft.patch.normalForce_N = normalForce_N;
  request.motion.approach = true;
  request.motion.approachDistance_mm = kApproachBeforeGrasp_mm;
  request.motion.fingers = FingerMotion::Close;
  request.contactModels = {model};
  NullProgress progress;
  return runAnalysis(world, request, progress);
}

Contact contactBetween(BodyHandle a, BodyHandle b, const Vec3& p, const Vec3& n, double mu) {
  Contact c;
  c.side1.body = a;
  c.side1.p_WC_mm = p;
  c.side1.n_W = n;
  c.side1.X_WC = contactFrame(p, n);
  c.side2.body = b;
  c.side2.p_WC_mm = p;
  c.side2.n_W = -n;
  c.side2.X_WC = contactFrame(p, -n);
  c.muStatic = mu;
  return c;
}

template <class T>
T* lastChildOfType(SoSeparator* sep) {
  for (int k = sep->getNumChildren() - 1; k >= 0; --k)
    if (sep->getChild(k)->isOfType(T::getClassTypeId())) return static_cast<T*>(sep->getChild(k));
  return nullptr;
}

// A contact-force arrow ("contactForce": a translation to its tail, then makeArrowNode's "contactForceArrow"):
// its tail (world), unit direction and length to the tip of its head.
struct DrawnArrow {
  Vec3 tail, direction;
  double length_mm = 0;
};
DrawnArrow drawnArrow(SoSeparator* contactForce) {
  DrawnArrow a;
  const SbVec3f t = childOfType<SoTranslation>(contactForce)->translation.getValue();
  a.tail = Vec3(t[0], t[1], t[2]);
  auto* arrow = childOfType<SoSeparator>(contactForce);
  SbVec3f d;
  childOfType<SoTransform>(arrow)->rotation.getValue().multVec(SbVec3f(0, 1, 0), d);
  a.direction = Vec3(d[0], d[1], d[2]);
  // The head is the last part: a cone centred half its height below the tip.
  auto* head = lastChildOfType<SoSeparator>(arrow);
  a.length_mm = childOfType<SoTranslation>(head)->translation.getValue()[1] + childOfType<SoCone>(head)->height.getValue() / 2;
  return a;
}

bool hasEntry(const std::vector<OverlayLegendEntry>& legend, const std::string& key, OverlayLegendEntry* out = nullptr) {
  for (const OverlayLegendEntry& e : legend)
    if (e.key == key) {
      if (out) *out = e;
      return true;
    }
  return false;
}

}  // namespace

class TstRenderGraspOverlay : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() { initCoin(); }
  void nodesOfAGraspedBundledWorld();
  void optionsSwitchPartsOff();
  void scaleEnlargesGlyphs();
  void pointModelDrawsNoPatches();
  void glyphRules();
  void contactForceArrowsShowTheModelsForce();
  void contactForceArrowsFollowTheForceSetting();
  void pointModelDrawsNoForceArrows();
  void legendExplainsTheArrowsDrawn();
};

void TstRenderGraspOverlay::nodesOfAGraspedBundledWorld() {
  const AnalysisResult result = graspDefaultWorld();
  const GraspEvaluation* e = result.primary();
  QVERIFY(e);
  int soft = 0, frictional = 0;
  for (std::size_t i = 0; i < e->contacts.size(); ++i) soft += softContactResult(e->modelResult.get(), i) != nullptr;
  for (const Contact& c : result.contacts) frictional += c.muStatic > 0;
  QVERIFY2(result.contacts.size() >= 3, "G should leave the three fingers on the mug");
  QVERIFY(soft >= 3);
  QVERIFY(e->l1Quality.forceClosure);

  GraspOverlayCounts counts;
  Held root(makeGraspOverlayNode(result, {}, &counts));
  const int contacts = static_cast<int>(result.contacts.size());
  // One marker (a sphere) per contact.
  const auto markers = separatorsNamed(root.node, "contactMarker");
  QCOMPARE(static_cast<int>(markers.size()), contacts);
  for (SoSeparator* m : markers) QVERIFY(childOfType<SoSphere>(m));
  // One cone per contact; a surface on each frictional one.
  const auto cones = separatorsNamed(root.node, "frictionCone");
  QCOMPARE(static_cast<int>(cones.size()), contacts);
  int surfaces = 0;
  for (SoSeparator* c : cones) surfaces += childOfType<SoIndexedFaceSet>(c) != nullptr;
  QCOMPARE(surfaces, frictional);
  // One patch per soft fit (both sides), one ellipse per soft contact, one worst-case wrench.
  QCOMPARE(static_cast<int>(separatorsNamed(root.node, "softPatch").size()), 2 * soft);
  QCOMPARE(static_cast<int>(separatorsNamed(root.node, "contactEllipse").size()), soft);
  QCOMPARE(static_cast<int>(separatorsNamed(root.node, "worstCaseWrench").size()), 1);
  // The counts say the same.
  QCOMPARE(counts.markers, contacts);
  QCOMPARE(counts.frictionCones, frictional);
  QCOMPARE(counts.patches, 2 * soft);
  QCOMPARE(counts.ellipses, soft);
  QVERIFY(counts.worstCaseWrench);
}

void TstRenderGraspOverlay::optionsSwitchPartsOff() {
  const AnalysisResult result = graspDefaultWorld();
  GraspOverlayOptions noCones;
  noCones.frictionCones = false;
  GraspOverlayCounts counts;
  Held a(makeGraspOverlayNode(result, noCones, &counts));
  QCOMPARE(separatorsNamed(a.node, "frictionCone").size(), std::size_t{0});
  QCOMPARE(separatorsNamed(a.node, "contactMarker").size(), result.contacts.size());
  QCOMPARE(counts.frictionCones, 0);

  GraspOverlayOptions evaluationOnly;
  evaluationOnly.contacts = false;
  Held b(makeGraspOverlayNode(result, evaluationOnly, &counts));
  QCOMPARE(separatorsNamed(b.node, "contactMarker").size(), std::size_t{0});
  QCOMPARE(separatorsNamed(b.node, "frictionCone").size(), std::size_t{0});
  QVERIFY(!separatorsNamed(b.node, "softPatch").empty());
  QCOMPARE(counts.markers, 0);

  GraspOverlayOptions contactsOnly;
  contactsOnly.softPatches = false;
  contactsOnly.worstCaseWrench = false;
  Held c(makeGraspOverlayNode(result, contactsOnly, &counts));
  QCOMPARE(separatorsNamed(c.node, "softPatch").size(), std::size_t{0});
  QCOMPARE(separatorsNamed(c.node, "contactEllipse").size(), std::size_t{0});
  QCOMPARE(separatorsNamed(c.node, "worstCaseWrench").size(), std::size_t{0});
  QCOMPARE(counts.patches, 0);
  QVERIFY(!counts.worstCaseWrench);

  // Without an evaluation only the contacts are drawn.
  Held d(makeGraspOverlayNode(result.contacts, nullptr, {}, &counts));
  QCOMPARE(separatorsNamed(d.node, "contactMarker").size(), result.contacts.size());
  QCOMPARE(separatorsNamed(d.node, "softPatch").size(), std::size_t{0});
  QVERIFY(!counts.worstCaseWrench);
}

void TstRenderGraspOverlay::scaleEnlargesGlyphs() {
  const AnalysisResult result = graspDefaultWorld();
  GraspOverlayOptions big;
  big.scale = 2.5;
  Held normal(makeGraspOverlayNode(result));
  Held scaled(makeGraspOverlayNode(result, big));
  const float r1 = childOfType<SoSphere>(separatorsNamed(normal.node, "contactMarker").front())->radius.getValue();
  const float r2 = childOfType<SoSphere>(separatorsNamed(scaled.node, "contactMarker").front())->radius.getValue();
  QCOMPARE(r2, 2.5f * r1);
  QCOMPARE(contactGlyphStyle(big).coneHeight_mm, 2.5 * kFrictionConeHeight_mm);
  QCOMPARE(wrenchArrowStyle(big).length_mm_per_unit, 2.5 * WrenchArrowStyle{}.length_mm_per_unit);
}

void TstRenderGraspOverlay::pointModelDrawsNoPatches() {
  const AnalysisResult result = graspDefaultWorld("point");
  GraspOverlayCounts counts;
  Held root(makeGraspOverlayNode(result, {}, &counts));
  QVERIFY(!result.contacts.empty());
  QCOMPARE(separatorsNamed(root.node, "contactMarker").size(), result.contacts.size());
  QCOMPARE(separatorsNamed(root.node, "softPatch").size(), std::size_t{0});
  QCOMPARE(counts.ellipses, 0);
}

void TstRenderGraspOverlay::glyphRules() {
  const BodyHandle object{BodyHandle::Kind::Graspable, 0, {}};
  const BodyHandle finger{BodyHandle::Kind::Robot, 0, {0, 1}};
  const BodyHandle table{BodyHandle::Kind::Obstacle, 0, {}};
  const Vec3 p(1, 2, 3), n = Vec3::UnitZ();
  const std::vector<Contact> contacts = {contactBetween(finger, object, p, n, 0.5),
                                         contactBetween(object, table, p, n, 0.3),
                                         contactBetween(table, finger, p, n, 0.0)};
  const std::vector<ContactGlyph> glyphs = contactGlyphs(contacts);
  QCOMPARE(glyphs.size(), std::size_t{3});
  // The cone stands on the graspable: side 2 of the first contact, side 1 of the second.
  QVERIFY((glyphs[0].frame.rotation() * Vec3::UnitZ()).isApprox(-n));
  QVERIFY((glyphs[1].frame.rotation() * Vec3::UnitZ()).isApprox(n));
  QVERIFY((glyphs[2].frame.rotation() * Vec3::UnitZ()).isApprox(n));  // no graspable: side 1
  // The hand's contacts are drawn over the bodies.
  QVERIFY(glyphs[0].onTop);
  QVERIFY(!glyphs[1].onTop);
  QVERIFY(glyphs[2].onTop);
  QCOMPARE(glyphs[1].mu, 0.3);
  GraspOverlayCounts counts;
  Held root(makeGraspOverlayNode(contacts, nullptr, {}, &counts));
  QCOMPARE(counts.markers, 3);
  QCOMPARE(counts.frictionCones, 2);  // the frictionless contact shows its normal line only
}

void TstRenderGraspOverlay::contactForceArrowsShowTheModelsForce() {
  const AnalysisResult result = graspDefaultWorld();
  const GraspEvaluation* e = result.primary();
  QVERIFY(e);
  GraspOverlayCounts counts;
  Held root(makeGraspOverlayNode(result, {}, &counts));
  const auto arrows = separatorsNamed(root.node, "contactForce");
  // One arrow per soft contact (the soft-finger model's nominal 5 N), none for the others.
  std::vector<std::size_t> withForce;
  for (std::size_t i = 0; i < e->contacts.size(); ++i) {
    QCOMPARE(modelNormalForce_N(*e, i) > 0, softContactResult(e->modelResult.get(), i) != nullptr);
    if (modelNormalForce_N(*e, i) > 0) withForce.push_back(i);
  }
  QVERIFY(withForce.size() >= 3);
  QCOMPARE(arrows.size(), withForce.size());
  QCOMPARE(counts.forceArrows, static_cast<int>(withForce.size()));
  for (std::size_t k = 0; k < arrows.size(); ++k) {
    const ContactEvaluation& ce = e->contacts[withForce[k]];
    const double force_N = modelNormalForce_N(*e, withForce[k]);
    QCOMPARE(force_N, 5.0);
    const DrawnArrow a = drawnArrow(arrows[k]);
    // 5 mm per N, pushing on the object along its inward normal, the head's tip at the contact point.
    QVERIFY2(std::abs(a.length_mm - 25.0) < 1e-3, qPrintable(QString::number(a.length_mm)));
    QVERIFY((a.direction - ce.onObject().n_W).norm() < 1e-5);
    QVERIFY((a.tail + a.length_mm * a.direction - ce.onObject().p_WC_mm).norm() < 1e-3);
  }
  // The scale option multiplies the length; the option switches them off.
  GraspOverlayOptions big;
  big.scale = 2.0;
  Held scaled(makeGraspOverlayNode(result, big));
  QVERIFY(std::abs(drawnArrow(separatorsNamed(scaled.node, "contactForce").front()).length_mm - 50.0) < 1e-3);
  GraspOverlayOptions off;
  off.contactForces = false;
  Held none(makeGraspOverlayNode(result, off, &counts));
  QCOMPARE(separatorsNamed(none.node, "contactForce").size(), std::size_t{0});
  QCOMPARE(counts.forceArrows, 0);
}

void TstRenderGraspOverlay::contactForceArrowsFollowTheForceSetting() {
  const AnalysisResult result = graspDefaultWorld("hertz", 12.0);
  const GraspEvaluation* e = result.primary();
  QVERIFY(e);
  Held root(makeGraspOverlayNode(result));
  const auto arrows = separatorsNamed(root.node, "contactForce");
  QVERIFY(arrows.size() >= 3);
  for (SoSeparator* a : arrows) QVERIFY(std::abs(drawnArrow(a).length_mm - 12.0 * kForceArrow_mm_per_N) < 1e-3);
  OverlayLegendEntry entry;
  QVERIFY(hasEntry(graspOverlayLegend(e), "contactForce", &entry));
  QVERIFY2(entry.text.find("12 N") != std::string::npos && entry.text.find("hertz") != std::string::npos, entry.text.c_str());
}

void TstRenderGraspOverlay::pointModelDrawsNoForceArrows() {
  const AnalysisResult result = graspDefaultWorld("point");  // per unit normal force: no force to draw
  GraspOverlayCounts counts;
  Held root(makeGraspOverlayNode(result, {}, &counts));
  QCOMPARE(separatorsNamed(root.node, "contactForce").size(), std::size_t{0});
  QCOMPARE(counts.forceArrows, 0);
  QVERIFY(!hasEntry(graspOverlayLegend(result.primary()), "contactForce"));
}

void TstRenderGraspOverlay::legendExplainsTheArrowsDrawn() {
  const AnalysisResult result = graspDefaultWorld();
  const GraspEvaluation* e = result.primary();
  QVERIFY(e && e->l1Support && e->l1Support->forceClosure);
  const std::vector<OverlayLegendEntry> legend = graspOverlayLegend(e);
  OverlayLegendEntry force, wrenchForce, wrenchTorque;
  QVERIFY(hasEntry(legend, "contactForce", &force));
  QVERIFY2(force.text.find("5 N") != std::string::npos && force.text.find("5 mm per N") != std::string::npos,
           force.text.c_str());
  QVERIFY(force.colour == kForceArrowColour);
  // The worst-case wrench: its magnitudes (3 significant digits) and the arrows' scale.
  const Vec6 w = e->l1Support->worstCaseWrench;
  char f[32], t[32];
  std::snprintf(f, sizeof f, "%.3g", w.head<3>().norm());
  std::snprintf(t, sizeof t, "%.3g", w.tail<3>().norm());
  QVERIFY(hasEntry(legend, "worstCaseForce", &wrenchForce));
  QVERIFY2(wrenchForce.text.find(std::string("|f| = ") + f) != std::string::npos, wrenchForce.text.c_str());
  QVERIFY2(wrenchForce.text.find("200 mm per unit") != std::string::npos, wrenchForce.text.c_str());
  QVERIFY(wrenchForce.colour == WrenchArrowStyle{}.forceColour);
  QVERIFY(hasEntry(legend, "worstCaseTorque", &wrenchTorque));
  QVERIFY2(wrenchTorque.text.find(std::string("= ") + t) != std::string::npos, wrenchTorque.text.c_str());
  QVERIFY(wrenchTorque.doubleHead);
  // One entry per kind of arrow drawn: none for parts switched off, none without an evaluation.
  GraspOverlayOptions noWrench;
  noWrench.worstCaseWrench = false;
  const auto withoutWrench = graspOverlayLegend(e, noWrench);
  QVERIFY(hasEntry(withoutWrench, "contactForce") && !hasEntry(withoutWrench, "worstCaseForce") &&
          !hasEntry(withoutWrench, "worstCaseTorque"));
  GraspOverlayOptions noForces;
  noForces.contactForces = false;
  QVERIFY(!hasEntry(graspOverlayLegend(e, noForces), "contactForce"));
  QVERIFY(graspOverlayLegend(nullptr).empty());
  // A scaled overlay says its scale.
  GraspOverlayOptions big;
  big.scale = 2.0;
  QVERIFY(hasEntry(graspOverlayLegend(e, big), "contactForce", &force));
  QVERIFY2(force.text.find("10 mm per N") != std::string::npos, force.text.c_str());
}

QTEST_MAIN(TstRenderGraspOverlay)
#include "tst_render_grasp_overlay.moc"
