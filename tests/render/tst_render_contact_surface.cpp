// Hydroelastic contact surfaces as Coin nodes (render/ContactSurfaceNodes.h) and in the grasp overlay and its
// legend (render/GraspOverlay.h, OverlayLegend.h), from hand-built surfaces: the colour map and units, per-vertex
// colours on one scale, the centre of pressure, the net-force arrow on the object, the options. No GL context.
#include <QtTest>

#include <algorithm>

#include <Inventor/actions/SoSearchAction.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTransform.h>
#include <Inventor/nodes/SoTranslation.h>

#include "../support/SceneSearch.h"
#include "../support/HydroSurfaces.h"
#include "grasp/GraspEvaluation.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/ContactSurfaceNodes.h"
#include "render/GraspOverlay.h"
#include "render/HydroelasticOverlay.h"
#include "render/ModelOverlays.h"
#include "render/OverlayLegend.h"

using namespace sg;
using sgtest::Held;
using sgtest::childOfType;
using sgtest::separatorsNamed;

namespace {

bool sameColour(const SbColor& c, const std::array<float, 3>& e, float tol = 1e-6f) {
  return std::abs(c[0] - e[0]) <= tol && std::abs(c[1] - e[1]) <= tol && std::abs(c[2] - e[2]) <= tol;
}

// Where the arrow separator "netForce" starts (its tail) and which way it points (makeArrowNode: +y turned).
void arrowOf(SoSeparator* netForce, Vec3& tail, Vec3& direction) {
  tail = fromSb(childOfType<SoTranslation>(netForce)->translation.getValue());
  auto* arrow = separatorsNamed(netForce, "netForceArrow").front();
  const SbRotation r = childOfType<SoTransform>(arrow)->rotation.getValue();
  SbVec3f d;
  r.multVec(SbVec3f(0, 1, 0), d);
  direction = fromSb(d).normalized();
}

GraspEvaluation evaluationWith(std::shared_ptr<const ContactModelResult> result) {
  GraspEvaluation e;
  e.contactModel = "hydroelastic";
  e.modelResult = std::move(result);
  return e;
}

}  // namespace

class TestRenderContactSurface : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { initCoin(); }

  void colourMapAndUnits() {
    QVERIFY(pressureColour(0) == (std::array<float, 3>{0.10f, 0.20f, 0.80f}));
    QVERIFY(pressureColour(1) == (std::array<float, 3>{0.85f, 0.05f, 0.05f}));
    const auto cyan = pressureColour(1.0 / 3), yellow = pressureColour(2.0 / 3), mid = pressureColour(0.5);
    QVERIFY(std::abs(cyan[1] - 0.70f) < 1e-6 && std::abs(yellow[0] - 1.0f) < 1e-6);
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(mid[k] - 0.5f * (cyan[k] + yellow[k])) < 1e-6);
    QVERIFY(pressureColour(-3) == pressureColour(0));  // clamped
    QVERIFY(pressureColour(7) == pressureColour(1));
    QVERIFY(pressureColour(std::nan("")) == pressureColour(0));
    const auto ramp = pressureColourRamp(5);
    QCOMPARE(ramp.size(), std::size_t(5));
    QVERIFY(ramp.front() == pressureColour(0) && ramp.back() == pressureColour(1) && ramp[2] == mid);
    // One unit for every pressure, 3 significant digits and no exponent however large.
    QCOMPARE(QString(kPressureUnit.name), QString("kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(42345)), QString("42.3 kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(2.5e6)), QString("2500 kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(1.5e6)), QString("1500 kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(250)), QString("0.25 kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(3000)), QString("3 kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(0)), QString("0 kPa"));
    QCOMPARE(QString::fromStdString(formatPressure(-12340)), QString("-12.3 kPa"));
  }

  void polygonsCarryPressureColours() {
    const ContactSurface s = test::rampSquare(40e3);
    Held root(makeContactSurfaceNode(s));
    auto polys = separatorsNamed(root.node, "pressurePolygons");
    QCOMPARE(polys.size(), std::size_t(1));
    auto* coords = childOfType<SoCoordinate3>(polys[0]);
    auto* material = childOfType<SoMaterial>(polys[0]);
    auto* faces = childOfType<SoIndexedFaceSet>(polys[0]);
    QVERIFY(coords && material && faces);
    QCOMPARE(coords->point.getNum(), 16);
    QCOMPARE(material->diffuseColor.getNum(), 16);
    QCOMPARE(faces->coordIndex.getNum(), 4 * 5);  // four quads, each ended by -1
    int i = 0;
    for (const ContactPolygon& poly : s.polygons)
      for (std::size_t k = 0; k < poly.p_WV_mm.size(); ++k, ++i) {
        QVERIFY((fromSb(coords->point[i]) - poly.p_WV_mm[k]).norm() < 1e-5);
        QVERIFY(sameColour(material->diffuseColor[i], pressureColour(poly.pressure_Pa[k] / 40e3)));
      }
    // One scale for several surfaces: with p_max = 80 kPa this surface's peak is mid-scale.
    ContactSurfaceStyle style;
    style.maxPressure_Pa = 80e3;
    Held scaled(makeContactSurfaceNode(s, style));
    auto* m2 = childOfType<SoMaterial>(separatorsNamed(scaled.node, "pressurePolygons")[0]);
    QVERIFY(sameColour(m2->diffuseColor[2], pressureColour(0.125)));  // x = -5: 10 kPa
    QVERIFY(sameColour(m2->diffuseColor[14], pressureColour(0.5)));   // x = +10: 40 kPa
    // An empty surface draws nothing.
    Held empty(makeContactSurfaceNode(ContactSurface{}));
    QCOMPARE(static_cast<SoSeparator*>(empty.node)->getNumChildren(), 0);
  }

  void centreOfPressureAndNetForce() {
    const ContactSurface s = test::rampSquare(40e3, 5, 2);  // centred on x = 5, plane z = 2: force 8 N on M (+z)
    Held root(makeContactSurfaceNode(s));
    auto cop = separatorsNamed(root.node, "centreOfPressure");
    QCOMPARE(cop.size(), std::size_t(1));
    QVERIFY((fromSb(childOfType<SoTranslation>(cop[0])->translation.getValue()) - Vec3(5 + 10.0 / 3, 0, 2)).norm() < 1e-5);
    auto arrows = separatorsNamed(root.node, "netForce");
    QCOMPARE(arrows.size(), std::size_t(1));
    Vec3 tail, direction;
    arrowOf(arrows[0], tail, direction);
    // 8 N at 5 mm per N: 40 mm long, along +z, its tip on the centre of pressure.
    QVERIFY((direction - Vec3::UnitZ()).norm() < 1e-6);
    QVERIFY((tail + 40 * direction - s.centreOfPressure_W_mm).norm() < 1e-4);
    // The force on N is the opposite one; the arrow scale follows the style.
    ContactSurfaceStyle onN;
    onN.forceOnN = true;
    onN.forceArrow_mm_per_N = 2;
    Held flipped(makeContactSurfaceNode(s, onN));
    arrowOf(separatorsNamed(flipped.node, "netForce")[0], tail, direction);
    QVERIFY((direction + Vec3::UnitZ()).norm() < 1e-6);
    QVERIFY((tail + 16 * direction - s.centreOfPressure_W_mm).norm() < 1e-4);
    ContactSurfaceStyle noArrow;
    noArrow.netForce = false;
    Held bare(makeContactSurfaceNode(s, noArrow));
    QVERIFY(separatorsNamed(bare.node, "netForce").empty());
    QCOMPARE(separatorsNamed(bare.node, "centreOfPressure").size(), std::size_t(1));
  }

  void overlayDrawsTheHydroelasticModelsSurfaces() {
    auto result = test::hydroResult({test::rampSquare(40e3), ContactSurface{}, test::rampSquare(80e3, 50)});
    // A contact whose force comes from surface 2, on an object below it (inward normal -z): the object is N.
    ModelContact mc;
    mc.contact.side1.n_W = -Vec3::UnitZ();
    mc.contact.side2.n_W = Vec3::UnitZ();
    mc.objectIsSide1 = true;
    result->contacts.push_back(mc);
    result->surfaceOfContact = {2};
    QVERIFY(objectIsBodyN(*result, 2));
    QVERIFY(objectIsBodyN(*result, 0));  // no contact: N by default
    result->contacts[0].objectIsSide1 = false;  // the object above (inward normal +z): it is M
    QVERIFY(!objectIsBodyN(*result, 2));
    result->contacts[0].objectIsSide1 = true;
    QCOMPARE(highestPeakPressure_Pa(*result), 80e3);

    const GraspEvaluation e = evaluationWith(result);
    QVERIFY(hydroelasticResult(e) == result.get());
    GraspOverlayCounts counts;
    Held overlay(makeEvaluationOverlayNode(&e, {}, &counts));
    QCOMPARE(counts.contactSurfaces, 2);  // the empty one is skipped
    auto surfaces = separatorsNamed(overlay.node, "contactSurface");
    QCOMPARE(surfaces.size(), std::size_t(2));
    // One scale: the 40 kPa surface's peak vertex is mid-map.
    auto* m = childOfType<SoMaterial>(separatorsNamed(surfaces[0], "pressurePolygons")[0]);
    QVERIFY(sameColour(m->diffuseColor[14], pressureColour(0.5)));
    // The arrow of surface 2 pushes on the object (N, below): -z.
    Vec3 tail, direction;
    arrowOf(separatorsNamed(surfaces[1], "netForce")[0], tail, direction);
    QVERIFY((direction + Vec3::UnitZ()).norm() < 1e-6);

    GraspOverlayOptions off;
    off.contactSurfaces = false;
    Held none(makeEvaluationOverlayNode(&e, off, &counts));
    QCOMPARE(counts.contactSurfaces, 0);
    QVERIFY(separatorsNamed(none.node, "contactSurface").empty());
    GraspOverlayOptions noForces;
    noForces.contactForces = false;
    Held noArrows(makeEvaluationOverlayNode(&e, noForces, &counts));
    QCOMPARE(counts.contactSurfaces, 2);
    QVERIFY(separatorsNamed(noArrows.node, "netForce").empty());
    // Another model's result: no surfaces.
    const GraspEvaluation other = evaluationWith(std::make_shared<ContactModelResult>());
    QVERIFY(!hydroelasticResult(other));
    Held plain(makeEvaluationOverlayNode(&other, {}, &counts));
    QCOMPARE(counts.contactSurfaces, 0);
  }

  void legendHasAColourBarInKpa() {
    const GraspEvaluation e = evaluationWith(test::hydroResult({test::rampSquare(40e3), test::rampSquare(80e3, 50)}));
    auto legend = graspOverlayLegend(&e);
    const auto find = [](const std::vector<OverlayLegendEntry>& entries, const char* key) -> const OverlayLegendEntry* {
      for (const auto& entry : entries)
        if (entry.key == key) return &entry;
      return nullptr;
    };
    const OverlayLegendEntry* pressure = find(legend, "contactPressure");
    QVERIFY(pressure);
    QVERIFY2(pressure->text.find("0 – 80 kPa") != std::string::npos, pressure->text.c_str());
    QVERIFY(pressure->colourRamp.size() >= 2);
    QVERIFY(pressure->colourRamp.front() == pressureColour(0) && pressure->colourRamp.back() == pressureColour(1));
    const OverlayLegendEntry* force = find(legend, "surfaceForce");
    QVERIFY(force);
    QVERIFY2(force->text.find("8–16 N") != std::string::npos, force->text.c_str());  // 40 and 80 kPa over 400 mm²
    QVERIFY(force->colourRamp.empty());
    QCOMPARE(pressure->compactText, std::string("Pressure 0 – 80 kPa"));
    // A peak of 2 MPa reads in kPa too: one pressure unit in every view.
    const GraspEvaluation stiff = evaluationWith(test::hydroResult({test::rampSquare(2e6)}));
    legend = graspOverlayLegend(&stiff);
    QVERIFY(find(legend, "contactPressure"));
    QVERIFY2(find(legend, "contactPressure")->text.find("0 – 2000 kPa") != std::string::npos,
             find(legend, "contactPressure")->text.c_str());
    // Switched off, or another model: no entries.
    GraspOverlayOptions off;
    off.contactSurfaces = false;
    QVERIFY(!find(graspOverlayLegend(&e, off), "contactPressure"));
    GraspOverlayOptions noForces;
    noForces.contactForces = false;
    QVERIFY(find(graspOverlayLegend(&e, noForces), "contactPressure"));
    QVERIFY(!find(graspOverlayLegend(&e, noForces), "surfaceForce"));
    const GraspEvaluation other = evaluationWith(std::make_shared<ContactModelResult>());
    QVERIFY(!find(graspOverlayLegend(&other), "contactPressure"));
  }

  // The registry of model drawings (render/ModelOverlays.h): the hydroelastic drawing is the one registered under
  // its name; a drawing registered for a new model is drawn, gives force arrows and legend rows, under that name only.
  void modelDrawingsComeFromTheRegistry() {
    QVERIFY(findModelOverlay("hydroelastic") && findModelOverlay("hydroelastic")->draw);
    QVERIFY(findModelOverlay("soft-finger") && findModelOverlay("hertz"));
    QVERIFY(!findModelOverlay("point"));  // generic glyphs only
    ModelOverlay mine;
    mine.draw = [](SoSeparator* parent, const GraspEvaluation&, const GraspOverlayOptions&, GraspOverlayCounts& counts) {
      auto* node = new SoSeparator;
      node->setName("overlayTestDrawing");
      parent->addChild(node);
      ++counts.patches;
    };
    mine.normalForce_N = [](const GraspEvaluation&, std::size_t i) { return i == 0 ? 2.0 : 0.0; };
    mine.legend = [](const GraspEvaluation& e, const GraspOverlayOptions&, std::vector<OverlayLegendEntry>& entries) {
      entries.push_back({"overlayTest", {1, 0, 1}, false, "drawn for " + e.contactModel, {}, {}});
    };
    registerModelOverlay("overlay-test", mine);
    GraspEvaluation e;
    e.contactModel = "overlay-test";
    e.modelResult = std::make_shared<ContactModelResult>();
    e.contacts.resize(2);
    e.contacts[0].contact.side1.n_W = Vec3::UnitZ();
    GraspOverlayCounts counts;
    Held overlay(makeEvaluationOverlayNode(&e, {}, &counts));
    QCOMPARE(separatorsNamed(overlay.node, "overlayTestDrawing").size(), std::size_t(1));
    QCOMPARE(counts.patches, 1);
    QCOMPARE(counts.forceArrows, 1);  // contact 0's 2 N, the generic arrow
    QCOMPARE(modelNormalForce_N(e, 0), 2.0);
    const auto legend = graspOverlayLegend(&e);
    const bool hasRow = std::any_of(legend.begin(), legend.end(), [](const OverlayLegendEntry& entry) {
      return entry.key == "overlayTest" && entry.text == "drawn for overlay-test";
    });
    QVERIFY(hasRow);
    QVERIFY(std::any_of(legend.begin(), legend.end(), [](const OverlayLegendEntry& entry) { return entry.key == "contactForce"; }));
    // The same evaluation under another name: none of it.
    e.contactModel = "point";
    Held plain(makeEvaluationOverlayNode(&e, {}, &counts));
    QVERIFY(separatorsNamed(plain.node, "overlayTestDrawing").empty());
    QCOMPARE(counts.forceArrows, 0);
  }
};

QTEST_GUILESS_MAIN(TestRenderContactSurface)
#include "tst_render_contact_surface.moc"
