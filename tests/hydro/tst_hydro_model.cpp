// The "hydroelastic" contact model (src/geometry/hydro/README.md §The contact model): compliant fingertips at
// grasp distance from a rigid block are evaluated at the indentation carrying the nominal force; normal force
// and torsional limit come from the surface (against V1/V1b), rigid pairs fall back to point contacts, and ε
// is computed under the model.
#include <QtTest>

#include <numeric>

#include "HydroTestBodies.h"
#include "contact/ContactDetection.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"

using namespace sg;
using namespace sgtest;

namespace {

constexpr double kR = 8, kE = 1e6, kHint = 0.5, kGap = 0.1;  // fingertip radius (mm), modulus (Pa), hint, gap (mm)

// A rigid 40 mm block (graspable 0), four compliant fingertips 0.1 mm from its ±x and ±y faces, and a rigid
// ball 0.1 mm under it.
World fingertipWorld() {
  World w;
  Body block = primitiveBody("block", Box{Vec3(40, 40, 40)});
  block.kind = BodyKind::Graspable;
  block.material = "rubber";
  w.addGraspable(block);
  for (const Vec3& dir : {Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0)}) {
    Body tip = compliant(primitiveBody("tip", Sphere{kR}), kE, kHint);
    tip.material = "rubber";
    w.addObstacle(tip, Transform::fromTranslation((20 + kR + kGap) * dir));
  }
  Body ball = primitiveBody("ball", Sphere{5});
  w.addObstacle(ball, Transform::fromTranslation(Vec3(0, 0, -(20 + 5 + kGap))));
  return w;
}

// V1 inverted: the depth at which a sphere (R, E) on a plane carries F, and its e_n = τmax/(μF).
double depthForForce(double F_N) {
  double lo = 0, hi = kR;
  for (int i = 0; i < 200; ++i) {
    const double d = 0.5 * (lo + hi);
    (kPi / 3 * kE * d * d * (3 - 2 * d / kR) * 1e-6 < F_N ? lo : hi) = d;
  }
  return 0.5 * (lo + hi);
}
double torsionPerFriction(double d) {
  const double R = kR, h = R - d, a = std::sqrt(d * (2 * R - d));
  const double I = a * a * a / 3 - (2 * R * R - h * h) * a / 8 + std::pow(h, 4) / (8 * R) * std::log((R + a) / h);
  return 2 * kPi * I / (kPi / 3 * d * d * (3 - 2 * d / R));
}

}  // namespace

class TstHydroModel : public QObject {
  Q_OBJECT
 private slots:
  void fingertipsCarryTheNominalForce();
  void triangulatedGivesTheSameContacts();
  void rigidPairsFallBack();
  void forceNotReachedIsANote();
  void badSettingsAreErrors();
  void epsilonUnderTheModel();
};

void TstHydroModel::fingertipsCarryTheNominalForce() {
  const World w = fingertipWorld();
  ContactModelSettings settings;
  settings.soft.patch.normalForce_N = 3;
  const Run run = evaluate(w, settings);
  QCOMPARE(run.contacts.size(), std::size_t(5));
  const HydroelasticModelResult& h = run.hydro();
  QCOMPARE(h.contacts.size(), std::size_t(5));
  QCOMPARE(h.surfaceOfContact.size(), h.contacts.size());
  QCOMPARE(h.surfaces.size(), std::size_t(4));
  QCOMPARE(h.indentation_mm.size(), h.surfaces.size());
  const double d = depthForForce(3), en = torsionPerFriction(d);
  int soft = 0;
  for (std::size_t i = 0; i < h.contacts.size(); ++i) {
    const ModelContact& m = h.contacts[i];
    if (h.surfaceOfContact[i] < 0) continue;
    ++soft;
    const ContactSurface& s = h.surfaces[static_cast<std::size_t>(h.surfaceOfContact[i])];
    QCOMPARE(m.kind, ContactKind::SoftFinger);
    QVERIFY(m.note.empty());
    QVERIFY(relErr(m.normalForce_N, 3) < 1e-3);
    QCOMPARE(m.normalForce_N, s.normalForce_N);
    QCOMPARE(m.patchShape, std::string("surface"));
    QCOMPARE(m.patchArea_mm2, s.area_mm2);
    QCOMPARE(m.peakPressure_Pa, s.peakPressure_Pa);
    QVERIFY(m.patchOutline_W_mm.size() >= 8);
    // Against V1/V1b at the same force (mesh-dependent, the fingertip's tessellation is inscribed).
    QVERIFY2(relErr(m.torsion_mm, en) < 0.02, qPrintable(QString("%1 vs %2").arg(m.torsion_mm).arg(en)));
    QVERIFY(relErr(m.maxTorsionalFriction_Nmm, m.mu * m.normalForce_N * m.torsion_mm) < 1e-12);
    const double depth = h.indentation_mm[static_cast<std::size_t>(h.surfaceOfContact[i])];
    QVERIFY2(depth > d && depth < 1.05 * d, qPrintable(QString("%1 vs %2").arg(depth).arg(d)));
    QCOMPARE(m.frictionEdges.size(), std::size_t(20));  // the soft-finger rings
    // The graspable (rigid, N) is pushed by the fingertip: force on M points away from the block.
    const Vec3 away = (s.centreOfPressure_W_mm - Vec3::Zero()).normalized();
    QVERIFY(s.force_W_N.normalized().dot(away) > 0.999);
    QCOMPARE(s.bodyN, static_cast<int>(w.obstacles.size()));  // body handles: obstacles, then graspables
    // The description (ContactModelResult::describeContact): the contact's surface and where its force
    // comes from (apart fingertips: pressed to the nominal force).
    const Json c = h.describeContact(i);
    QCOMPARE(c.at("surface", "").number(""), static_cast<double>(h.surfaceOfContact[i]));
    QCOMPARE(c.at("surfaceSource", "").string(""), std::string("pressed to force"));
  }
  QCOMPARE(soft, 4);
  // The model-wide description: every surface with its source, indentation, totals and polygons, in Pa, N, mm.
  const Json described = h.describe();
  const auto& surfaces = described.at("surfaces", "").items("");
  QCOMPARE(surfaces.size(), h.surfaces.size());
  for (std::size_t k = 0; k < surfaces.size(); ++k) {
    const Json& s = surfaces[k];
    QVERIFY(relErr(s.at("normalForce_N", "").number(""), 3) < 1e-3);  // the nominal force it was pressed to
    QCOMPARE(s.at("area_mm2", "").number(""), h.surfaces[k].area_mm2);
    QCOMPARE(s.at("peakPressure_Pa", "").number(""), h.surfaces[k].peakPressure_Pa);
    QVERIFY(s.at("indentation_mm", "").number("") > d);
    QCOMPARE(s.at("source", "").string(""), std::string("pressed to force"));
    const auto& polygons = s.at("polygons", "").items("");
    QCOMPARE(polygons.size(), h.surfaces[k].polygons.size());
    QCOMPARE(static_cast<std::size_t>(s.at("polygonCount", "").number("")), polygons.size());
    // Σ polygon areas = the surface's area; every pressure ≤ the peak.
    double area = 0;
    for (const Json& poly : polygons) {
      area += poly.at("area_mm2", "").number("");
      for (const Json& p : poly.at("pressures_Pa", "").items("")) QVERIFY(p.number("") <= h.surfaces[k].peakPressure_Pa);
      QCOMPARE(poly.at("vertices_mm", "").items("").size(), poly.at("pressures_Pa", "").items("").size());
    }
    QVERIFY(relErr(area, h.surfaces[k].area_mm2) < 1e-9);
  }
}

void TstHydroModel::triangulatedGivesTheSameContacts() {
  // The model's surfaces fanned into triangles (the CLI's --triangulated) keep their totals.
  const Run run = evaluate(fingertipWorld());
  for (ContactSurface s : run.hydro().surfaces) {
    const ContactSurface polygons = s;
    triangulateContactSurface(s);
    QVERIFY(s.triangulated && s.polygons.size() > polygons.polygons.size());
    finishContactSurface(s, SurfaceOptions{});  // recomputes the totals from the triangles
    QVERIFY(relErr(s.area_mm2, polygons.area_mm2) < 1e-9);
    QVERIFY(relErr(s.normalForce_N, polygons.normalForce_N) < 1e-9);
    QVERIFY((s.centreOfPressure_W_mm - polygons.centreOfPressure_W_mm).norm() < 1e-8);
  }
}

void TstHydroModel::rigidPairsFallBack() {
  const Run run = evaluate(fingertipWorld());
  const HydroelasticModelResult& h = run.hydro();
  int fallbacks = 0;
  for (std::size_t i = 0; i < h.contacts.size(); ++i) {
    if (h.surfaceOfContact[i] >= 0) continue;
    ++fallbacks;
    QCOMPARE(h.contacts[i].kind, ContactKind::PointWithFriction);
    QVERIFY(QString::fromStdString(h.contacts[i].note).contains("no compliant body"));
    QVERIFY(h.contacts[i].patchShape.empty());
  }
  QCOMPARE(fallbacks, 1);
}

void TstHydroModel::forceNotReachedIsANote() {
  ContactModelSettings settings;
  settings.soft.patch.normalForce_N = 1e5;  // far beyond what 10 mm of indentation gives
  const Run run = evaluate(fingertipWorld(), settings);
  const HydroelasticModelResult& h = run.hydro();
  for (std::size_t i = 0; i < h.contacts.size(); ++i) {
    if (h.surfaceOfContact[i] < 0) continue;
    QVERIFY(QString::fromStdString(h.contacts[i].note).contains("nominal"));
    QVERIFY(h.contacts[i].normalForce_N > 5 && h.contacts[i].normalForce_N < 1e5);
    QCOMPARE(h.contacts[i].kind, ContactKind::SoftFinger);
  }
}

void TstHydroModel::badSettingsAreErrors() {
  const World w = fingertipWorld();
  ContactModelSettings s;
  s.soft.patch.normalForce_N = 0;
  QVERIFY_THROWS_EXCEPTION(Error, evaluate(w, s));
  // A fingertip that cannot be made compliant falls back with the reason.
  World bad = fingertipWorld();
  bad.obstacles[0].hydroelastic->modulus_Pa = -5;
  const Run run = evaluate(bad);
  bool noted = false;
  for (const ModelContact& m : run.hydro().contacts)
    noted = noted || QString::fromStdString(m.note).contains("modulus");
  QVERIFY(noted);
}

void TstHydroModel::epsilonUnderTheModel() {
  const World w = fingertipWorld();
  AnalysisRequest request;
  request.contactModels = {"hydroelastic", "point"};
  request.measures = {"epsilon-l1"};
  request.quality.handContactsOnly = false;  // the fingertips are obstacles here
  NullProgress progress;
  const AnalysisResult r = analyzeGrasp(w, request, progress);
  QCOMPARE(r.evaluations.size(), std::size_t(2));
  const MeasureValue* hydro = r.evaluation("hydroelastic")->measure("epsilon-l1");
  const MeasureValue* point = r.evaluation("point")->measure("epsilon-l1");
  QVERIFY(hydro && hydro->ok && point && point->ok);
  QVERIFY(hydro->value > 0);
  // Soft-finger edges contain the point pyramid's and add torsion: the hull can only grow.
  QVERIFY(hydro->value >= point->value - 1e-9);
  QVERIFY(dynamic_cast<const HydroelasticModelResult*>(r.evaluation("hydroelastic")->modelResult.get()));
}

QTEST_GUILESS_MAIN(TstHydroModel)
#include "tst_hydro_model.moc"
