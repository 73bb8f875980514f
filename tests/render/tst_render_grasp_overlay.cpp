// The grasp overlay built from an engine analysis (render/GraspOverlay.h), the mapping the application's
// overlays and the headless screenshot share: on the bundled default world after Approach & Grasp (key G),
// one marker per contact, one cone surface per frictional contact, one patch per soft fit, one ellipse per
// soft contact and the worst-case wrench with force closure; the options switch each part off; the glyph
// rules (cone on the graspable, the hand's contacts on top). Checked on the graph, without a GL context.
#include <QtTest>

#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSphere.h>

#include "contact/models/SoftFingerContactModel.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "render/CoinInit.h"
#include "render/GraspOverlay.h"

using namespace sg;

namespace {

struct Held {
  explicit Held(SoNode* n) : node(n) { node->ref(); }
  ~Held() { node->unref(); }
  SoNode* node;
};

// Separators named `name` that a render traversal reaches (switched-off children are not searched).
std::vector<SoSeparator*> drawn(SoNode* root, const char* name) {
  SoSearchAction search;
  search.setType(SoSeparator::getClassTypeId());
  search.setName(name);
  search.setInterest(SoSearchAction::ALL);
  search.apply(root);
  std::vector<SoSeparator*> out;
  const SoPathList& paths = search.getPaths();
  for (int i = 0; i < paths.getLength(); ++i) out.push_back(static_cast<SoSeparator*>(paths[i]->getTail()));
  return out;
}

template <class T>
T* childOfType(SoSeparator* sep) {
  for (int k = 0; k < sep->getNumChildren(); ++k)
    if (sep->getChild(k)->isOfType(T::getClassTypeId())) return static_cast<T*>(sep->getChild(k));
  return nullptr;
}

// The default world (ThreeFinger hand over the mug) after the application's G: 30 mm approach, auto-grasp.
AnalysisResult graspDefaultWorld(const std::string& model = "soft-finger") {
  World world = loadWorld(SG_SOURCE_DIR "/worlds/default.xml");
  AnalysisRequest request;
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
  const auto markers = drawn(root.node, "contactMarker");
  QCOMPARE(static_cast<int>(markers.size()), contacts);
  for (SoSeparator* m : markers) QVERIFY(childOfType<SoSphere>(m));
  // One cone per contact; a surface on each frictional one.
  const auto cones = drawn(root.node, "frictionCone");
  QCOMPARE(static_cast<int>(cones.size()), contacts);
  int surfaces = 0;
  for (SoSeparator* c : cones) surfaces += childOfType<SoIndexedFaceSet>(c) != nullptr;
  QCOMPARE(surfaces, frictional);
  // One patch per soft fit (both sides), one ellipse per soft contact, one worst-case wrench.
  QCOMPARE(static_cast<int>(drawn(root.node, "softPatch").size()), 2 * soft);
  QCOMPARE(static_cast<int>(drawn(root.node, "contactEllipse").size()), soft);
  QCOMPARE(static_cast<int>(drawn(root.node, "worstCaseWrench").size()), 1);
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
  QCOMPARE(drawn(a.node, "frictionCone").size(), std::size_t{0});
  QCOMPARE(drawn(a.node, "contactMarker").size(), result.contacts.size());
  QCOMPARE(counts.frictionCones, 0);

  GraspOverlayOptions evaluationOnly;
  evaluationOnly.contacts = false;
  Held b(makeGraspOverlayNode(result, evaluationOnly, &counts));
  QCOMPARE(drawn(b.node, "contactMarker").size(), std::size_t{0});
  QCOMPARE(drawn(b.node, "frictionCone").size(), std::size_t{0});
  QVERIFY(!drawn(b.node, "softPatch").empty());
  QCOMPARE(counts.markers, 0);

  GraspOverlayOptions contactsOnly;
  contactsOnly.softPatches = false;
  contactsOnly.worstCaseWrench = false;
  Held c(makeGraspOverlayNode(result, contactsOnly, &counts));
  QCOMPARE(drawn(c.node, "softPatch").size(), std::size_t{0});
  QCOMPARE(drawn(c.node, "contactEllipse").size(), std::size_t{0});
  QCOMPARE(drawn(c.node, "worstCaseWrench").size(), std::size_t{0});
  QCOMPARE(counts.patches, 0);
  QVERIFY(!counts.worstCaseWrench);

  // Without an evaluation only the contacts are drawn.
  Held d(makeGraspOverlayNode(result.contacts, nullptr, {}, &counts));
  QCOMPARE(drawn(d.node, "contactMarker").size(), result.contacts.size());
  QCOMPARE(drawn(d.node, "softPatch").size(), std::size_t{0});
  QVERIFY(!counts.worstCaseWrench);
}

void TstRenderGraspOverlay::scaleEnlargesGlyphs() {
  const AnalysisResult result = graspDefaultWorld();
  GraspOverlayOptions big;
  big.scale = 2.5;
  Held normal(makeGraspOverlayNode(result));
  Held scaled(makeGraspOverlayNode(result, big));
  const float r1 = childOfType<SoSphere>(drawn(normal.node, "contactMarker").front())->radius.getValue();
  const float r2 = childOfType<SoSphere>(drawn(scaled.node, "contactMarker").front())->radius.getValue();
  QCOMPARE(r2, 2.5f * r1);
  QCOMPARE(contactGlyphStyle(big).coneHeight_mm, 2.5 * kFrictionConeHeight_mm);
  QCOMPARE(wrenchArrowStyle(big).length_mm_per_unit, 2.5 * WrenchArrowStyle{}.length_mm_per_unit);
}

void TstRenderGraspOverlay::pointModelDrawsNoPatches() {
  const AnalysisResult result = graspDefaultWorld("point");
  GraspOverlayCounts counts;
  Held root(makeGraspOverlayNode(result, {}, &counts));
  QVERIFY(!result.contacts.empty());
  QCOMPARE(drawn(root.node, "contactMarker").size(), result.contacts.size());
  QCOMPARE(drawn(root.node, "softPatch").size(), std::size_t{0});
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

QTEST_MAIN(TstRenderGraspOverlay)
#include "tst_render_grasp_overlay.moc"
