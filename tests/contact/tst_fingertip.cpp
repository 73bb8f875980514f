// The soft fingertip with the DEFAULT settings (the soft-finger model, the osculating jet, the touching
// point): a soft sphere R = 10 mm (Coin's Sphere tessellation: 1,680 triangles), E = 1.5 MPa, under the nominal
// N = 5 N with GraspIt!'s layer h = 3 mm, on a flat rigid face gives δ = 0.564 mm, a = b = 3.36 mm,
// e_n = 1.79 mm within 1 %.
//
// The expected values follow from the model (src/contact/README.md §Soft finger, SoftPatch.h):
//  * relative curvature (combineParaboloids): sphere κ = 1/R both ways + plane κ = 0 ⇒ R' = R'' = R;
//  * elastic layer: p = (E/h)(δ − x²/2R'' − y²/2R') over the ellipse, N = π E δ² √(R'R'')/h
//      ⇒ δ = √(N h / (E π √(R'R''))) = √(N h / (E π R));
//  * semi-axes where p = 0: a = √(2δR''), b = √(2δR') ⇒ a = b = √(2δR);
//  * torsional limit of a paraboloidal pressure on a circle of radius √(ab): e_n = (8/15)·√(ab) = (8/15)·a.
// With N = 5 N, h = 3 mm, E = 1.5 N/mm², R = 10 mm: δ = √(15/(15π)) = 1/√π mm = 0.5642 mm,
// a = √(20/√π) = 3.359 mm, e_n = 1.792 mm.
#include <QtTest>

#include <cmath>

#include "ModelRun.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

constexpr double kR_mm = 10, kE_Pa = 1.5e6;

struct Expected {
  double delta = 0, a = 0, torsion = 0;
};

Expected fromTheModel(const SoftPatchSettings& s) {
  const double E = kE_Pa * 1e-6;  // N/mm²
  const double R1 = kR_mm, R2 = kR_mm;  // R' = R'' = R: a sphere on a plane
  Expected x;
  x.delta = std::sqrt(s.normalForce_N * s.layerThickness_mm / (E * kPi * std::sqrt(R1 * R2)));
  x.a = std::sqrt(2 * x.delta * R2);
  const double b = std::sqrt(2 * x.delta * R1);
  x.torsion = 8.0 / 15.0 * std::sqrt(x.a * b);
  return x;
}

// A soft UV sphere (poles on ±z) with its lower pole `gap` above a rigid box whose top face is z = 0.
World fingertipOnTable(double gap) {
  World w;
  addGraspable(w, makeBody("table", BodyKind::Graspable, makeBox(Vec3(80, 80, 20)),
                           Transform::fromTranslation(Vec3(0, 0, -10))));
  addObstacle(w, makeBody("fingertip", BodyKind::Obstacle, makeUvSphere(kR_mm, 40, 22),
                          Transform::fromTranslation(Vec3(0, 0, kR_mm + gap)), kE_Pa));
  return w;
}

}  // namespace

class TestFingertip : public QObject {
  Q_OBJECT
 private slots:
  void expectedValuesAreTheIssuesNumbers() {
    const SoftPatchSettings defaults;
    QCOMPARE(defaults.normalForce_N, 5.0);
    QCOMPARE(defaults.layerThickness_mm, 3.0);
    const Expected x = fromTheModel(defaults);
    // The issue's numbers, to the digits it quotes (and δ = 1/√π mm exactly for these inputs).
    QVERIFY(std::abs(x.delta - 1 / std::sqrt(kPi)) < 1e-12);
    QVERIFY(std::abs(x.delta - 0.564) < 0.0005);
    QVERIFY(std::abs(x.a - 3.36) < 0.005);
    QVERIFY(std::abs(x.torsion - 1.79) < 0.005);
  }

  void defaultSettingsWithinOnePercent_data() {
    QTest::addColumn<double>("gap");
    QTest::newRow("0.05 mm") << 0.05;
    QTest::newRow("0.15 mm") << 0.15;
  }
  void defaultSettingsWithinOnePercent() {
    QFETCH(double, gap);
    const World w = fingertipOnTable(gap);
    QCOMPARE(w.obstacles[0].mesh->triangles.size(), std::size_t(1680));
    const ContactModelSettings defaults;
    QCOMPARE(defaults.soft.fit.estimator, CurvatureEstimator::OsculatingJet);
    const ModelRun run = runModel(w, defaultContactModel().name(), defaults);
    QCOMPARE(run.result->contacts.size(), std::size_t(1));
    const ModelContact& m = run.result->contacts.front();
    QCOMPARE(m.kind, ContactKind::SoftFinger);
    const SoftContactResult* soft = softContactResult(run.result.get(), 0);
    QVERIFY(soft);
    const Expected x = fromTheModel(defaults.soft.patch);
    const SoftPatch& p = soft->patch;
    const QString got = QString("δ %1 mm (%2 %), a %3 / b %4 mm (%5 / %6 %), e_n %7 mm (%8 %)")
                            .arg(p.penetration_mm, 0, 'f', 4).arg(100 * (p.penetration_mm / x.delta - 1), 0, 'f', 3)
                            .arg(p.semiAxisLong_mm, 0, 'f', 4).arg(p.semiAxisShort_mm, 0, 'f', 4)
                            .arg(100 * (p.semiAxisLong_mm / x.a - 1), 0, 'f', 3)
                            .arg(100 * (p.semiAxisShort_mm / x.a - 1), 0, 'f', 3)
                            .arg(m.torsion_mm, 0, 'f', 4).arg(100 * (m.torsion_mm / x.torsion - 1), 0, 'f', 3);
    qInfo("gap %g mm: %s", gap, qPrintable(got));
    QVERIFY2(relErr(p.penetration_mm, x.delta) < 0.01, qPrintable(got));
    QVERIFY2(relErr(p.semiAxisLong_mm, x.a) < 0.01, qPrintable(got));
    QVERIFY2(relErr(p.semiAxisShort_mm, x.a) < 0.01, qPrintable(got));
    QVERIFY2(relErr(m.torsion_mm, x.torsion) < 0.01, qPrintable(got));
    QVERIFY(!p.flatReplaced);
    // The soft contact sits at the sphere's pole.
    QVERIFY((sideOn(m.contact, obstacleHandle(0)).p_WC_mm - Vec3(0, 0, gap)).norm() < 1e-9);
  }

  // GraspIt!'s paraboloid, selected explicitly, is what the default replaced: its 3.5 mm fit on a R = 10 mm
  // sphere overestimates the curvature by a few percent (≈ 3r²/(16R²)) and misses the 1 % target.
  void graspItFitMissesTheTarget() {
    const World w = fingertipOnTable(0.05);
    ContactModelSettings graspIt;
    graspIt.soft.fit.estimator = CurvatureEstimator::GraspItParaboloid;
    const ModelRun run = runModel(w, "soft-finger", graspIt);
    const SoftContactResult* soft = softContactResult(run.result.get(), 0);
    QVERIFY(soft);
    const Expected x = fromTheModel(graspIt.soft.patch);
    qInfo("GraspIt! fit: δ %+.2f %%, e_n %+.2f %%", 100 * (soft->patch.penetration_mm / x.delta - 1),
          100 * (run.result->contacts[0].torsion_mm / x.torsion - 1));
    QCOMPARE(soft->fit1.estimator, CurvatureEstimator::GraspItParaboloid);
    QVERIFY(relErr(soft->patch.penetration_mm, x.delta) > 0.01);
  }
};

QTEST_GUILESS_MAIN(TestFingertip)
#include "tst_fingertip.moc"
