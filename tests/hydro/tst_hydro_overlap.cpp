// The hydroelastic model on bodies that overlap (src/geometry/hydro/README.md §The contact model).
// A compliant sphere (R 10 mm, E 1 MPa) into the top face of a rigid box: the surface is that of the actual
// overlap, its force against V1, F = π·E·d²·(1 − 2d/(3R)), source "from overlap", no indentation; apart or only
// touching, the pair is pressed to the nominal force (source "pressed to force").
#include <QtTest>

#include <numeric>

#include "HydroTestBodies.h"
#include "contact/ContactDetection.h"
#include "core/Math.h"
#include "core/Progress.h"

using namespace sg;
using namespace sgtest;

namespace {

constexpr double kR = 10, kE = 1e6, kHint = 0.25;

// The rigid box is graspable 0 (top face z = 0), the compliant sphere obstacle 0 at `gap` above it (< 0: into it).
World sphereOnBox(double gap, double hint = kHint) {
  World w;
  Body box = primitiveBody("box", Box{Vec3::Constant(100)});
  box.kind = BodyKind::Graspable;
  box.material = "wood";
  w.addGraspable(box, Transform::fromTranslation(Vec3(0, 0, -50)));
  Body tip = compliant(primitiveBody("tip", Sphere{kR}), kE, hint);
  tip.material = "rubber";
  w.addObstacle(tip, Transform::fromTranslation(Vec3(0, 0, kR + gap)));
  return w;
}

double v1Force_N(double d) { return kPi * kE * d * d * (1 - 2 * d / (3 * kR)) * 1e-6; }

}  // namespace

class TstHydroOverlap : public QObject {
  Q_OBJECT
 private slots:
  // The tessellated sphere is inscribed, so its force is below V1's (one-sided, Drake's check). Its facets (edges
  // ℓ = 2πR/(4·2^L) on the equator at refinement level L, right triangles of circumradius ≤ ℓ/√2) lie within the
  // sagitta ℓ²/(4R) of the sphere, so the force is at least V1's at d less that. The model's surface is exactly
  // the one of the pair as placed.
  void overlapGivesTheSurfaceOfTheOverlap_data() {
    QTest::addColumn<double>("depth");
    for (double d : {0.05, 0.1, 0.2, 0.5, 1.0}) QTest::addRow("%g mm", d) << d;
  }
  void overlapGivesTheSurfaceOfTheOverlap() {
    QFETCH(double, depth);
    const World w = sphereOnBox(-depth);
    const Run r = evaluate(w);
    QCOMPARE(r.contacts.size(), std::size_t(1));
    QVERIFY(r.contacts[0].penetrating);
    QVERIFY(std::abs(r.contacts[0].depth_mm() - depth) < 1e-9);
    const HydroelasticModelResult& h = r.hydro();
    QCOMPARE(h.contacts.size(), std::size_t(1));
    QCOMPARE(h.surfaces.size(), std::size_t(1));
    QCOMPARE(h.surfaceOfContact[0], 0);
    QVERIFY(h.source[0] == SurfaceSource::Overlap);
    QCOMPARE(QString(toString(h.source[0])), QString("from overlap"));
    QCOMPARE(h.indentation_mm[0], 0.0);
    const ModelContact& m = h.contacts[0];
    QVERIFY2(m.note.empty(), m.note.c_str());
    QCOMPARE(m.kind, ContactKind::SoftFinger);
    const auto placed = hydroelasticContactSurface(w, w.state, BodyHandle{BodyHandle::Kind::Graspable, 0, {}},
                                                    BodyHandle{BodyHandle::Kind::Obstacle, 0, {}}, SurfaceOptions{});
    QVERIFY(placed);
    QCOMPARE(m.normalForce_N, placed->normalForce_N);
    QCOMPARE(m.patchArea_mm2, placed->area_mm2);
    const int level = std::max(0, static_cast<int>(std::ceil(std::log2(kPi / std::asin(kHint / (2 * kR))))) - 2);
    const double edge = 2 * kPi * kR / (4 << level), sagitta = edge * edge / (4 * kR);
    QCOMPARE(level, 6);
    const double want = v1Force_N(depth);
    QVERIFY2(m.normalForce_N < want && m.normalForce_N > v1Force_N(depth - sagitta),
             qPrintable(QString("F %1 N, V1 %2 N, V1 less the sagitta %3 N").arg(m.normalForce_N).arg(want).arg(v1Force_N(depth - sagitta))));
    // The disc of the overlap: area → π·d·(2R − d) from below, centred under the sphere.
    const double area = kPi * depth * (2 * kR - depth);
    QVERIFY2(m.patchArea_mm2 < area && m.patchArea_mm2 > 0.9 * area, qPrintable(QString::number(m.patchArea_mm2)));
    QVERIFY(h.surfaces[0].centreOfPressure_W_mm.head<2>().norm() < 1e-6);
  }

  // The error is the inscribed mesh's: ∝ hint² / d, so halving the hint divides it by about 4 (measured
  // 0.032·hint²/d at R 10 mm: 16 % / 4 % / 1 % at d 0.05 mm and hints 0.5 / 0.25 / 0.125 mm).
  void forceConvergesWithTheMesh() {
    for (double d : {0.05, 0.2}) {
      double last = 0;
      for (double hint : {0.5, 0.25, 0.125}) {
        const double err = (v1Force_N(d) - evaluate(sphereOnBox(-d, hint)).hydro().contacts[0].normalForce_N) / v1Force_N(d);
        QVERIFY(err > 0);
        if (last > 0) QVERIFY2(last / err > 3 && last / err < 5, qPrintable(QString("%1 then %2").arg(last).arg(err)));
        last = err;
      }
    }
  }

  // Apart (0.1 mm) and exactly touching (no overlap volume): pressed until the surface carries the nominal force.
  void apartOrTouchingIsPressedToTheForce() {
    for (double gap : {0.1, 0.0}) {
      ContactModelSettings settings;
      settings.soft.patch.normalForce_N = 2;
      const Run r = evaluate(sphereOnBox(gap), settings);
      QCOMPARE(r.contacts.size(), std::size_t(1));
      QCOMPARE(r.contacts[0].penetrating, gap == 0.0);
      const HydroelasticModelResult& h = r.hydro();
      QCOMPARE(h.surfaces.size(), std::size_t(1));
      QVERIFY(h.source[0] == SurfaceSource::PressedToForce);
      QCOMPARE(QString(toString(h.source[0])), QString("pressed to force"));
      QVERIFY(relErr(h.contacts[0].normalForce_N, 2.0) < 1e-3);
      QVERIFY(h.indentation_mm[0] > 0);
    }
  }

  // The nominal force does not change a surface from the overlap.
  void overlapIgnoresTheNominalForce() {
    ContactModelSettings settings;
    settings.soft.patch.normalForce_N = 50;
    const double a = evaluate(sphereOnBox(-0.2)).hydro().contacts[0].normalForce_N;
    const double b = evaluate(sphereOnBox(-0.2), settings).hydro().contacts[0].normalForce_N;
    QCOMPARE(a, b);
  }
};

QTEST_GUILESS_MAIN(TstHydroOverlap)
#include "tst_hydro_overlap.moc"
