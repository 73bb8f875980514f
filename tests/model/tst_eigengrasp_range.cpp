// Eigengrasp amplitude ranges (model/EigenGraspMap.h: eigenAmplitudeRange, eigengraspsUsable) on DOF boxes
// whose ranges are worked out by hand.
#include <QtTest>

#include <stdexcept>

#include "model/EigenGraspMap.h"

using namespace sg;

namespace {

// Two revolute DOFs, ranges [0, 2] and [-1, 3] (the origin defaults to their middles, (1, 1)), one eigengrasp.
Robot boxRobot(const Vec2& direction) {
  Robot r;
  r.dofs.resize(2);
  r.dofs[0].minValue = 0;
  r.dofs[0].maxValue = 2;
  r.dofs[1].minValue = -1;
  r.dofs[1].maxValue = 3;
  EigenGrasp g;
  g.direction = VecX(2);
  g.direction << direction[0], direction[1];
  r.eigengrasps.grasps.push_back(g);
  return r;
}

void compareRange(const std::pair<double, double>& got, double lo, double hi) {
  QVERIFY2(std::abs(got.first - lo) < 1e-12 && std::abs(got.second - hi) < 1e-12,
           qPrintable(QString("(%1, %2), expected (%3, %4)").arg(got.first).arg(got.second).arg(lo).arg(hi)));
}

}  // namespace

class TestEigengraspRange : public QObject {
  Q_OBJECT
 private slots:
  void boxBoundsTheAmplitude() {
    // DOF 0 moves 0.6 per unit amplitude from 1 within [0, 2]: |a| ≤ 1/0.6; DOF 1 moves 0.8 from 1 within
    // [-1, 3]: |a| ≤ 2/0.8. The tighter one wins.
    compareRange(eigenAmplitudeRange(boxRobot({0.6, 0.8}), 0), -1.0 / 0.6, 1.0 / 0.6);
    // The sign of the direction does not change the interval.
    compareRange(eigenAmplitudeRange(boxRobot({-0.6, 0.8}), 0), -1.0 / 0.6, 1.0 / 0.6);
  }

  void originAndNormShiftAndScaleIt() {
    Robot r = boxRobot({0.6, 0.8});
    r.eigengrasps.origin = VecX(2);
    r.eigengrasps.origin << 0.5, 2.0;
    r.eigengrasps.hasOrigin = true;
    // DOF 0: (0 − 0.5)/0.6 … (2 − 0.5)/0.6; DOF 1: (−1 − 2)/0.8 … (3 − 2)/0.8.
    compareRange(eigenAmplitudeRange(r, 0), -0.5 / 0.6, 1.0 / 0.8);
    // At the top of the range DOF 1 sits on its maximum, DOF 0 inside its range.
    const std::vector<double> x = amplitudesToDofs(r, {1.0 / 0.8});
    QVERIFY(std::abs(x[1] - 3.0) < 1e-12);
    QVERIFY(x[0] > 0 && x[0] < 2);
    // A per-DOF scale multiplies each DOF's step: 0.6·2 and 0.8·0.5 (origin back to the middles).
    r.eigengrasps.hasOrigin = false;
    r.eigengrasps.norm = VecX(2);
    r.eigengrasps.norm << 2.0, 0.5;
    compareRange(eigenAmplitudeRange(r, 0), -1.0 / 1.2, 1.0 / 1.2);
  }

  void limitsWinWhenValid() {
    Robot r = boxRobot({0.6, 0.8});
    r.eigengrasps.grasps[0].minAmplitude = -0.5;
    r.eigengrasps.grasps[0].maxAmplitude = 0.7;
    compareRange(eigenAmplitudeRange(r, 0), -0.5, 0.7);
    // An empty interval in the file is ignored: the box decides.
    r.eigengrasps.grasps[0].maxAmplitude = -0.5;
    compareRange(eigenAmplitudeRange(r, 0), -1.0 / 0.6, 1.0 / 0.6);
    // Only one limit given: the box decides too.
    r.eigengrasps.grasps[0].maxAmplitude.reset();
    compareRange(eigenAmplitudeRange(r, 0), -1.0 / 0.6, 1.0 / 0.6);
  }

  void unboundedDirections() {
    // A DOF the eigengrasp does not move does not bound it: only DOF 0 (half-width 1, step 1).
    compareRange(eigenAmplitudeRange(boxRobot({1.0, 0.0}), 0), -1.0, 1.0);
    compareRange(eigenAmplitudeRange(boxRobot({0.0, 0.5}), 0), -4.0, 4.0);
    // Nothing moves at all: the fallback (−1, 1).
    compareRange(eigenAmplitudeRange(boxRobot({0.0, 0.0}), 0), -1.0, 1.0);
    // A DOF with an empty range (min = max at the origin) leaves no interval: the fallback too.
    Robot stuck = boxRobot({0.6, 0.8});
    stuck.dofs[0].maxValue = 0;
    stuck.eigengrasps.origin = VecX::Zero(2);
    stuck.eigengrasps.hasOrigin = true;
    compareRange(eigenAmplitudeRange(stuck, 0), -1.0, 1.0);
  }

  void badIndexThrows() {
    const Robot r = boxRobot({0.6, 0.8});
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, eigenAmplitudeRange(r, 1));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, eigenAmplitudeRange(r, -1));
  }

  void usability() {
    Robot r = boxRobot({0.6, 0.8});
    QVERIFY(eigengraspsUsable(r));
    r.eigengrasps.grasps[0].direction = VecX::Ones(3);  // one entry too many
    QVERIFY(!eigengraspsUsable(r));
    r.eigengrasps.grasps.clear();
    QVERIFY(!eigengraspsUsable(r));
    Robot noDofs;
    noDofs.eigengrasps = boxRobot({0.6, 0.8}).eigengrasps;
    QVERIFY(!eigengraspsUsable(noDofs));
  }
};

QTEST_APPLESS_MAIN(TestEigengraspRange)
#include "tst_eigengrasp_range.moc"
