// Roll, pitch and yaw (core/RollPitchYaw.h): analytic rotations, round trips both ways, gimbal lock.
#include <QtTest>

#include "core/RollPitchYaw.h"
#include "core/Transform.h"

using namespace sg;

namespace {

// The rotation by axis and angle, through Transform (not through the code under test).
Quat about(const Vec3& axis, double angle_rad) { return Transform::fromAxisAngle(axis, angle_rad).rotation(); }

bool sameRotation(const Quat& a, const Quat& b, double tol = 1e-12) { return a.angularDistance(b) < tol; }

}  // namespace

class TestRollPitchYaw : public QObject {
  Q_OBJECT
 private slots:
  void singleAxes() {
    QVERIFY(rollPitchYaw(about(Vec3::UnitX(), kPi / 6)).isApprox(Vec3(kPi / 6, 0, 0), 1e-12));
    QVERIFY(rollPitchYaw(about(Vec3::UnitY(), -kPi / 4)).isApprox(Vec3(0, -kPi / 4, 0), 1e-12));
    QVERIFY(rollPitchYaw(about(Vec3::UnitZ(), kPi / 2)).isApprox(Vec3(0, 0, kPi / 2), 1e-12));
    QVERIFY(rollPitchYaw(Quat::Identity()).isZero(0));
    // The other direction: each angle turns about its own fixed axis.
    QVERIFY(sameRotation(fromRollPitchYaw(Vec3(0.3, 0, 0)), about(Vec3::UnitX(), 0.3)));
    QVERIFY(sameRotation(fromRollPitchYaw(Vec3(0, 0.3, 0)), about(Vec3::UnitY(), 0.3)));
    QVERIFY(sameRotation(fromRollPitchYaw(Vec3(0, 0, 0.3)), about(Vec3::UnitZ(), 0.3)));
  }

  void orderIsYawAfterPitchAfterRoll() {
    // R = Rz(yaw)·Ry(pitch)·Rx(roll): roll 90° sends y to z, which yaw 90° leaves; x stays under roll, yaw turns it to y.
    const Quat q = fromRollPitchYaw(Vec3(kPi / 2, 0, kPi / 2));
    QVERIFY((q * Vec3::UnitY()).isApprox(Vec3::UnitZ(), 1e-12));
    QVERIFY((q * Vec3::UnitX()).isApprox(Vec3::UnitY(), 1e-12));
    QVERIFY(sameRotation(q, about(Vec3::UnitZ(), kPi / 2) * about(Vec3::UnitX(), kPi / 2)));
  }

  void roundTrips() {
    for (const Vec3& rpy : {Vec3(0.1, -0.4, 2.0), Vec3(-0.3, 0.2, -0.5), Vec3(0, 0, -kPi / 6), Vec3(3.0, 1.2, -3.0),
                            Vec3(-0.01, 0.02, -0.03), Vec3(-3.1, -1.5, 3.1)})
      QVERIFY(rollPitchYaw(fromRollPitchYaw(rpy)).isApprox(rpy, 1e-12));
    // From a rotation: back to the same rotation, angles in their ranges.
    for (const Quat& q : {about(Vec3(1, 2, 3).normalized(), 2.5), about(Vec3(-1, 0.5, 0.1).normalized(), -1.0),
                          Quat(0.1, 0.7, -0.2, 0.3).normalized()}) {
      const Vec3 rpy = rollPitchYaw(q);
      QVERIFY(std::abs(rpy[1]) <= kPi / 2);
      QVERIFY(std::abs(rpy[0]) <= kPi && std::abs(rpy[2]) <= kPi);
      QVERIFY(sameRotation(fromRollPitchYaw(rpy), q));
    }
    // Not normalised: read as its unit quaternion.
    const Quat scaled(2.0 * about(Vec3::UnitZ(), 0.5).coeffs());
    QVERIFY(rollPitchYaw(scaled).isApprox(Vec3(0, 0, 0.5), 1e-12));
  }

  void gimbalLock() {
    // Pitch +90°: only yaw − roll is defined; roll is reported 0 and yaw carries yaw − roll.
    const Quat up = fromRollPitchYaw(Vec3(0.4, kPi / 2, 0.1));
    const Vec3 a = rollPitchYaw(up);
    QCOMPARE(a[0], 0.0);
    QVERIFY(std::abs(a[1] - kPi / 2) < 1e-6);
    QVERIFY(std::abs(a[2] - (0.1 - 0.4)) < 1e-6);
    QVERIFY(sameRotation(fromRollPitchYaw(a), up, 1e-6));
    // Pitch −90°: yaw + roll.
    const Quat down = fromRollPitchYaw(Vec3(0.4, -kPi / 2, 0.1));
    const Vec3 b = rollPitchYaw(down);
    QCOMPARE(b[0], 0.0);
    QVERIFY(std::abs(b[1] + kPi / 2) < 1e-6);
    QVERIFY(std::abs(b[2] - (0.1 + 0.4)) < 1e-6);
    QVERIFY(sameRotation(fromRollPitchYaw(b), down, 1e-6));
  }
};

QTEST_APPLESS_MAIN(TestRollPitchYaw)
#include "tst_roll_pitch_yaw.moc"
