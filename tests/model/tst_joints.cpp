// General joints (src/model): arbitrary origins and axes, fixed joints, coupled (mimic) joints and chains
// hanging off other chains' links, each against poses computed in closed form or by hand.
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "model/Kinematics.h"
#include "model/LinkPoseCache.h"

#include <random>

using namespace sg;

namespace {

constexpr double kTol_mm = 1e-9;
constexpr double kTolRot = 1e-12;

// Rotation by `angle` about unit `u` (Rodrigues): cos·I + sin·[u]× + (1 − cos)·u·uᵀ.
Mat3 rodrigues(const Vec3& u, double angle) {
  Mat3 K;
  K << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
  return std::cos(angle) * Mat3::Identity() + std::sin(angle) * K + (1 - std::cos(angle)) * u * u.transpose();
}

Mat4 homogeneous(const Mat3& R, const Vec3& p) {
  Mat4 T = Mat4::Identity();
  T.topLeftCorner<3, 3>() = R;
  T.topRightCorner<3, 1>() = p;
  return T;
}

bool samePose(const Transform& actual, const Mat4& expected) {
  const Mat4 A = actual.matrix();
  return (A.topRightCorner<3, 1>() - expected.topRightCorner<3, 1>()).norm() <= kTol_mm &&
         (A.topLeftCorner<3, 3>() - expected.topLeftCorner<3, 3>()).norm() <= kTolRot;
}

#define VERIFY_POSE(actual, expected)                                                              \
  QVERIFY2(samePose((actual), (expected)),                                                          \
           qPrintable(QString("got\n%1\nexpected\n%2").arg(toText((actual).matrix()), toText(expected))))

QString toText(const Mat4& m) {
  QString s;
  for (int r = 0; r < 3; ++r)
    s += QString("%1 %2 %3 | %4\n").arg(m(r, 0)).arg(m(r, 1)).arg(m(r, 2)).arg(m(r, 3));
  return s;
}

Link linkAfter(int lastJoint) {
  Link l;
  l.lastJoint = lastJoint;
  return l;
}

// A robot with `dofCount` DOFs (ranges ±10, replaced by computeDofRanges where joints limit them).
Robot robotWithDofs(int dofCount) {
  Robot r;
  r.name = "joints";
  r.dofs.resize(static_cast<std::size_t>(dofCount));
  for (auto& d : r.dofs) d.minValue = -10, d.maxValue = 10;
  return r;
}

Transform origin(const Vec3& p_mm, const Vec3& axis, double angle_rad) {
  return Transform(Quat(Eigen::AngleAxisd(angle_rad, axis.normalized())), p_mm);
}

// Four chains: a DH trunk, a branch off its link with a tilted general joint, a prismatic twig off the branch,
// and a finger of two coupled revolute joints (ratios 1 and 0.5, offsets) and a fixed one; DOFs 0–3.
Robot branchingRobot() {
  Robot r = robotWithDofs(4);
  Chain trunk;
  trunk.base = Transform::fromTranslation(Vec3(0, 0, 10));
  trunk.joints.push_back(fromDh({.a_mm = 30}, JointType::Revolute, {.dof = 0}, -kPi, kPi));
  trunk.links.push_back(linkAfter(0));
  Chain branch;
  branch.parent = BodyRef{0, 0};
  branch.base = Transform::fromTranslation(Vec3(5, 0, 0));
  Joint bj = generalJoint(JointType::Revolute, {}, Vec3(0.3, 0.2, 1), {.dof = 1}, -kPi, kPi);
  bj.X_JC = Transform::fromTranslation(Vec3(20, 0, 0));
  branch.joints.push_back(bj);
  branch.links.push_back(linkAfter(0));
  Chain twig;
  twig.parent = BodyRef{1, 0};
  twig.joints.push_back(generalJoint(JointType::Prismatic, {}, Vec3::UnitY(), {.dof = 2}, 0, 10));
  twig.links.push_back(linkAfter(0));
  Chain finger;
  for (const double ratio : {1.0, 0.5}) {
    Joint j = generalJoint(JointType::Revolute, {}, Vec3::UnitX(), {.dof = 3, .ratio = ratio, .offset = 0.1}, -3, 3);
    j.X_JC = Transform::fromTranslation(Vec3(0, 15, 0));
    finger.joints.push_back(j);
  }
  finger.joints.push_back(generalJoint(JointType::Fixed, Transform::fromTranslation(Vec3(0, 5, 0)), Vec3::UnitZ()));
  finger.links = {linkAfter(0), linkAfter(2)};
  r.chains = {trunk, branch, twig, finger};
  computeDofRanges(r);
  return r;
}

}  // namespace

class TestJoints : public QObject {
  Q_OBJECT
 private slots:
  // A revolute joint about a tilted axis with an arbitrary origin and child offset.
  void revoluteAboutTiltedAxis() {
    const Vec3 u = Vec3(1, 2, 2) / 3.0;
    const Transform X_PJ = origin(Vec3(10, -5, 3), Vec3(1, 0, 0), degToRad(30));
    const Transform X_JC = Transform::fromTranslation(Vec3(0, 0, 7));
    Robot r = robotWithDofs(1);
    RobotState s;
    s.X_WP = origin(Vec3(100, 50, -20), Vec3(0, 1, 1), 0.4);
    Chain c;
    c.base = Transform::fromTranslation(Vec3(1, 2, 3));
    Joint j = generalJoint(JointType::Revolute, X_PJ, Vec3(1, 2, 2), {.dof = 0}, -2, 2);
    j.X_JC = X_JC;
    c.joints.push_back(j);
    c.links.push_back(linkAfter(0));
    r.chains.push_back(c);
    computeDofRanges(r);
    QCOMPARE(r.dofs[0].minValue, -2.0);
    QVERIFY((r.chains[0].joints[0].axis - u).norm() < 1e-15);
    for (const double q : {-1.7, -0.3, 0.0, 0.9, 1.95}) {
      setDofValues(r, s, {q});
      const Mat4 expected = s.X_WP.matrix() * c.base.matrix() * X_PJ.matrix() *
                            homogeneous(rodrigues(u, q), Vec3::Zero()) * X_JC.matrix();
      VERIFY_POSE(s.X_WL[0][0], expected);
    }
  }

  // A prismatic joint along a diagonal, origin rotated and shifted.
  void prismaticAlongDiagonal() {
    const Vec3 u = Vec3(1, 1, 1) / std::sqrt(3.0);
    const Transform X_PJ = origin(Vec3(0, 4, 0), Vec3(0, 0, 1), degToRad(45));
    Robot r = robotWithDofs(1);
    RobotState s;
    Chain c;
    c.joints.push_back(generalJoint(JointType::Prismatic, X_PJ, Vec3(2, 2, 2), {.dof = 0}, 0, 50));
    c.links.push_back(linkAfter(0));
    r.chains.push_back(c);
    computeDofRanges(r);
    QVERIFY(r.dofs[0].prismatic);
    for (const double q : {0.0, 12.5, 50.0}) {
      setDofValues(r, s, {q});
      // Rotation unchanged; origin moves q mm along the axis as seen in the joint frame.
      const Mat4 expected = X_PJ.matrix() * homogeneous(Mat3::Identity(), q * u);
      VERIFY_POSE(s.X_WL[0][0], expected);
      const Vec3 moved = s.X_WL[0][0].translation() - X_PJ.translation();
      QVERIFY(std::abs(moved.norm() - q) < kTol_mm);
    }
  }

  // A fixed joint carries the link rigidly, is driven by no DOF and does not limit any DOF range.
  void fixedJoint() {
    const Transform X_PJ = origin(Vec3(3, 0, 9), Vec3(1, 1, 0), degToRad(60));
    Robot r = robotWithDofs(1);
    RobotState s;
    Chain c;
    c.base = Transform::fromTranslation(Vec3(0, 0, 5));
    c.joints.push_back(generalJoint(JointType::Revolute, {}, Vec3::UnitZ(), {.dof = 0}, -1, 1));
    c.joints.push_back(generalJoint(JointType::Fixed, X_PJ, Vec3::UnitX(), {.dof = 0}, 5, 6));
    c.links.push_back(linkAfter(0));
    c.links.push_back(linkAfter(1));
    r.chains.push_back(c);
    QCOMPARE(r.chains[0].joints[1].expr.dof, -1);
    computeDofRanges(r);
    QCOMPARE(r.dofs[0].minValue, -1.0);  // the fixed joint's [5, 6] plays no part
    QCOMPARE(r.dofs[0].maxValue, 1.0);
    for (const double q : {-0.8, 0.0, 0.6}) {
      setDofValues(r, s, {q});
      QCOMPARE(jointMotionValue(r.chains[0].joints[1], {q}), 0.0);
      const Mat4 proximal = c.base.matrix() * homogeneous(rodrigues(Vec3::UnitZ(), q), Vec3::Zero());
      VERIFY_POSE(s.X_WL[0][0], proximal);
      VERIFY_POSE(s.X_WL[0][1], Mat4(proximal * X_PJ.matrix()));
    }
  }

  // A mimic joint: q1 = −0.5·d0 + 0.1 about x, behind a joint driven by d0 about z.
  void coupledMimicJoint() {
    Robot r = robotWithDofs(1);
    RobotState s;
    Chain c;
    c.joints.push_back(generalJoint(JointType::Revolute, {}, Vec3::UnitZ(), {.dof = 0}, -1.5, 1.5));
    // Limits on jointValue = −0.5·d0 (offset excluded): [−0.5, 1] → d0 ∈ [−2, 1].
    c.joints.push_back(generalJoint(JointType::Revolute, Transform::fromTranslation(Vec3(20, 0, 0)), Vec3::UnitX(),
                                    {.dof = 0, .ratio = -0.5, .offset = 0.1}, -0.5, 1.0));
    c.links.push_back(linkAfter(1));
    r.chains.push_back(c);
    computeDofRanges(r);
    QCOMPARE(r.dofs[0].minValue, -1.5);
    QCOMPARE(r.dofs[0].maxValue, 1.0);
    for (const double d0 : {-1.4, -0.2, 0.0, 0.7, 1.0}) {
      setDofValues(r, s, {d0});
      const Joint& mimic = r.chains[0].joints[1];
      QVERIFY(std::abs(jointValue(mimic, {d0}) - (-0.5 * d0)) < 1e-15);
      QVERIFY(std::abs(jointMotionValue(mimic, {d0}) - (-0.5 * d0 + 0.1)) < 1e-15);
      const Mat4 expected = homogeneous(rodrigues(Vec3::UnitZ(), d0), Vec3::Zero()) *
                            homogeneous(rodrigues(Vec3::UnitX(), -0.5 * d0 + 0.1), Vec3(20, 0, 0));
      VERIFY_POSE(s.X_WL[0][0], expected);
    }
  }

  // A branching finger: chain 1 hangs off chain 0's link, chain 2 off chain 1's; poses worked out by hand.
  void branchingTree() {
    Robot r = robotWithDofs(3);
    RobotState s;
    s.X_WP = Transform::fromTranslation(Vec3(0, 0, 100));
    Chain trunk;  // palm → (0, 0, 10), DH joint about z, a = 30
    trunk.base = Transform::fromTranslation(Vec3(0, 0, 10));
    trunk.joints.push_back(fromDh({.a_mm = 30}, JointType::Revolute, {.dof = 0}, -kPi, kPi));
    trunk.links.push_back(linkAfter(0));
    Chain branch;  // trunk link → (5, 0, 0), about z, child 20 mm further along x
    branch.parent = BodyRef{0, 0};
    branch.base = Transform::fromTranslation(Vec3(5, 0, 0));
    Joint bj = generalJoint(JointType::Revolute, {}, Vec3::UnitZ(), {.dof = 1}, -kPi, kPi);
    bj.X_JC = Transform::fromTranslation(Vec3(20, 0, 0));
    branch.joints.push_back(bj);
    branch.links.push_back(linkAfter(0));
    Chain twig;  // branch link → slides along its y
    twig.parent = BodyRef{1, 0};
    twig.joints.push_back(generalJoint(JointType::Prismatic, {}, Vec3::UnitY(), {.dof = 2}, 0, 10));
    twig.links.push_back(linkAfter(0));
    r.chains = {trunk, branch, twig};
    computeDofRanges(r);
    setDofValues(r, s, {kPi / 2, kPi / 2, 4});
    // Trunk link: (0,0,110) + Rz(90°)(30,0,0) = (0,30,110), rotated 90° about z.
    // Branch base: (0,30,110) + Rz(90°)(5,0,0) = (0,35,110); its joint turns to 180°; child at
    // (0,35,110) + Rz(180°)(20,0,0) = (−20,35,110). Twig: 4 mm along the branch's y = −y → (−20,31,110).
    const Mat3 Rz90 = rodrigues(Vec3::UnitZ(), kPi / 2), Rz180 = rodrigues(Vec3::UnitZ(), kPi);
    VERIFY_POSE(s.X_WL[0][0], homogeneous(Rz90, Vec3(0, 30, 110)));
    VERIFY_POSE(s.X_WL[1][0], homogeneous(Rz180, Vec3(-20, 35, 110)));
    VERIFY_POSE(s.X_WL[2][0], homogeneous(Rz180, Vec3(-20, 31, 110)));
    // Moving only the trunk DOF carries both children with it.
    setDofValues(r, s, {0, kPi / 2, 4});
    VERIFY_POSE(s.X_WL[0][0], homogeneous(Mat3::Identity(), Vec3(30, 0, 110)));
    VERIFY_POSE(s.X_WL[1][0], homogeneous(Rz90, Vec3(35, 20, 110)));
    VERIFY_POSE(s.X_WL[2][0], homogeneous(Rz90, Vec3(31, 20, 110)));
    QCOMPARE(r.dofs[2].maxValue, 10.0);
  }

  // LinkPoseCache (incremental forward kinematics) gives linkPoses' poses bit for bit after random changes of
  // some DOFs, the break-away state and the palm pose, on a tree (trunk, branch off it, twig off the branch,
  // and a coupled two-joint finger), and reuses the frames of joints whose inputs did not change.
  void linkPoseCacheMatchesLinkPoses() {
    Robot r = branchingRobot();
    LinkPoseCache cache(r);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Transform X_WP = Transform::fromTranslation(Vec3(0, 0, 100));
    std::vector<double> dofs = {0.1, 0.2, 3, 0.4};
    BreakAwayState breakAway(r.chains.size());
    for (std::size_t c = 0; c < r.chains.size(); ++c) breakAway[c].resize(r.chains[c].joints.size());
    auto same = [](const Transform& a, const Transform& b) {
      return a.rotation().coeffs() == b.rotation().coeffs() && a.translation() == b.translation();
    };
    for (int step = 0; step < 400; ++step) {
      const int what = static_cast<int>(unit(rng) * 10);
      if (what < 6) {  // one DOF or none
        const int k = static_cast<int>(unit(rng) * 5);
        if (k < 4) dofs[k] += 0.05 * (unit(rng) - 0.5);
      } else if (what < 8) {  // every DOF
        for (double& d : dofs) d = 2 * unit(rng) - 1;
      } else if (what == 8) {  // the finger's second joint enters or leaves break-away
        breakAway[3][1] = {!breakAway[3][1].active, dofs[3]};
      } else {
        X_WP = X_WP * Transform::fromAxisAngle(Vec3(unit(rng), unit(rng), 1).normalized(), 0.1 * unit(rng));
      }
      const auto& cached = cache.poses(X_WP, dofs, breakAway);
      const auto fresh = linkPoses(r, X_WP, dofs, breakAway);
      QCOMPARE(cached.size(), fresh.size());
      for (std::size_t c = 0; c < fresh.size(); ++c) {
        QCOMPARE(cached[c].size(), fresh[c].size());
        for (std::size_t l = 0; l < fresh[c].size(); ++l)
          QVERIFY2(same(cached[c][l], fresh[c][l]), qPrintable(QString("step %1 chain %2 link %3").arg(step).arg(c).arg(l)));
      }
      // Nothing changed since the last call: nothing recomputed.
      const long computed = cache.computed();
      cache.poses(X_WP, dofs, breakAway);
      QCOMPARE(cache.computed(), computed);
    }
    // The same inputs twice: every joint frame reused.
    const long computed = cache.computed(), reused = cache.reused();
    cache.poses(X_WP, dofs, breakAway);
    QCOMPARE(cache.computed(), computed);
    QCOMPARE(cache.reused(), reused + 6);
    // Only the finger's DOF moves: the other chains' three frames are reused, the finger's three recomputed.
    dofs[3] += 0.01;
    cache.poses(X_WP, dofs, breakAway);
    QCOMPARE(cache.computed(), computed + 3);
    QCOMPARE(cache.reused(), reused + 6 + 3);
    // The branch's DOF: the branch and the twig hanging off it, not the trunk.
    dofs[1] += 0.01;
    cache.poses(X_WP, dofs, breakAway);
    QCOMPARE(cache.computed(), computed + 3 + 2);
    // A state: update() == forwardKinematics.
    RobotState s = defaultRobotState(r, X_WP);
    s.dofValues = dofs;
    s.breakAway = breakAway;
    cache.update(s);
    RobotState t = s;
    forwardKinematics(r, t);
    for (std::size_t c = 0; c < t.X_WL.size(); ++c)
      for (std::size_t l = 0; l < t.X_WL[c].size(); ++l) QVERIFY(same(s.X_WL[c][l], t.X_WL[c][l]));
    // A bad chain tree is refused up front.
    r.chains[0].parent = BodyRef{2, 0};
    QVERIFY_THROWS_EXCEPTION(Error, LinkPoseCache{r});
  }

  // A chain may only hang off a link of an earlier chain.
  // jointOrigins: each joint frame's origin lies on its axis, so turning a revolute joint alone leaves its
  // origin where it is. linkBallReach (model/README.md §Reach bound): no point of a link's ball moves farther
  // than the bound when the DOFs move within their travels, on the branching robot (DH, tilted, prismatic,
  // coupled and fixed joints, chains off links), in random states and moves.
  void linkBallReachBoundsEveryMove() {
    const Robot r = branchingRobot();
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const Transform X_WP = origin(Vec3(3, -4, 50), Vec3(1, 2, 3), 0.7);
    int tight = 0, checked = 0;
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<double> dofs(r.dofs.size()), travel(r.dofs.size()), moved(r.dofs.size());
      for (std::size_t d = 0; d < dofs.size(); ++d) {
        const Dof& dof = r.dofs[d];
        dofs[d] = dof.minValue + unit(rng) * (dof.maxValue - dof.minValue);
        travel[d] = trial % 4 == 0 ? 0.0 : unit(rng) * 0.3 * (dof.maxValue - dof.minValue);
      }
      const auto origins = jointOrigins(r, X_WP, dofs);
      const auto poses = linkPoses(r, X_WP, dofs);
      // The revolute joints' origins stay put when only that joint turns.
      if (trial % 10 == 0) {
        std::vector<double> turned = dofs;
        turned[0] = std::clamp(turned[0] + 0.5, r.dofs[0].minValue, r.dofs[0].maxValue);
        QVERIFY((jointOrigins(r, X_WP, turned)[0][0] - origins[0][0]).norm() <= kTol_mm);
      }
      std::vector<std::vector<double>> jointTravel(r.chains.size());
      for (std::size_t c = 0; c < r.chains.size(); ++c)
        for (const Joint& j : r.chains[c].joints)
          jointTravel[c].push_back(j.type == JointType::Fixed || j.expr.dof < 0
                                       ? 0.0 : std::abs(j.expr.ratio) * travel[static_cast<std::size_t>(j.expr.dof)]);
      for (std::size_t d = 0; d < dofs.size(); ++d)
        moved[d] = std::clamp(dofs[d] + (2 * unit(rng) - 1) * travel[d], r.dofs[d].minValue, r.dofs[d].maxValue);
      const auto movedPoses = linkPoses(r, X_WP, moved);
      for (std::size_t c = 0; c < r.chains.size(); ++c)
        for (std::size_t l = 0; l < r.chains[c].links.size(); ++l) {
          const Vec3 center_L(10 * unit(rng) - 5, 10 * unit(rng) - 5, 10 * unit(rng) - 5);
          const double radius = 8 * unit(rng);
          const BodyRef ref{static_cast<int>(c), static_cast<int>(l)};
          const double reach = linkBallReach(r, origins, ref, poses[c][l] * center_L, radius, jointTravel);
          for (int k = 0; k < 8; ++k) {  // points on the ball's surface and its centre
            Vec3 offset = Vec3::Zero();
            if (k > 0) offset = Vec3(unit(rng) - 0.5, unit(rng) - 0.5, unit(rng) - 0.5).normalized() * radius;
            const double moved_mm = (movedPoses[c][l] * (center_L + offset) - poses[c][l] * (center_L + offset)).norm();
            QVERIFY2(moved_mm <= reach + 1e-9, qPrintable(QString("link %1/%2 moved %3 > reach %4").arg(c).arg(l).arg(moved_mm).arg(reach)));
            ++checked;
            tight += moved_mm > 0.3 * reach;
          }
        }
    }
    QVERIFY(checked > 5000);
    QVERIFY(tight > 100);  // the bound is not vacuous: many moves come within a factor 3 of it
  }

  void badTreeIsAnError() {
    Robot r = robotWithDofs(1);
    Chain a, b;
    a.joints.push_back(generalJoint(JointType::Revolute, {}, Vec3::UnitZ(), {.dof = 0}, -1, 1));
    a.links.push_back(linkAfter(0));
    b = a;
    a.parent = BodyRef{1, 0};  // a later chain
    r.chains = {a, b};
    QVERIFY_THROWS_EXCEPTION(Error, checkChainTree(r));
    QVERIFY_THROWS_EXCEPTION(Error, linkPoses(r, {}, {0.0}));
    r.chains[0].parent = BodyRef{-1, 0};  // the palm, spelled as a body reference
    r.chains[1].parent = BodyRef{0, 3};   // no such link
    QVERIFY_THROWS_EXCEPTION(Error, checkChainTree(r));
    r.chains[1].parent = BodyRef{0, 0};
    checkChainTree(r);
  }

  // A RobotState carries the break-away clutch: a joint in break-away stays where its stored DOF value puts it
  // while the DOF (and the other joints it drives) move on; the link poses follow in forward kinematics.
  void breakAwayStateHoldsTheJoint() {
    Robot r = robotWithDofs(1);
    Chain c;  // two revolute joints about z, both driven by d0 (ratio 1 and 2), 10 mm links along x
    for (const double ratio : {1.0, 2.0}) {
      Joint j = generalJoint(JointType::Revolute, {}, Vec3::UnitZ(), {.dof = 0, .ratio = ratio}, -3, 3);
      j.X_JC = Transform::fromTranslation(Vec3(10, 0, 0));
      c.joints.push_back(j);
    }
    c.links = {linkAfter(0), linkAfter(1)};
    r.chains.push_back(c);
    computeDofRanges(r);
    RobotState s = defaultRobotState(r, Transform::fromTranslation(Vec3(0, 0, 5)));
    QCOMPARE(s.breakAway.size(), std::size_t(1));
    QCOMPARE(s.breakAway[0].size(), std::size_t(2));
    QVERIFY(!s.breakAway[0][0].active && !s.breakAway[0][1].active);
    // Joint 0 breaks away at d0 = 0.3 and the DOF goes on to 0.5: joint 0 stays at 0.3 rad, joint 1 follows
    // to 2·0.5 = 1.0 rad about the frame after joint 0.
    const Mat3 R = rodrigues(Vec3::UnitZ(), 0.3);
    setDofValues(r, s, {0.3});
    s.breakAway[0][0] = {true, 0.3};
    setDofValues(r, s, {0.5});
    QCOMPARE(s.dofValues[0], 0.5);
    QCOMPARE(jointValue(r.chains[0].joints[0], s.dofValues, breakAwayOf(s, 0, 0)), 0.3);
    QCOMPARE(jointValue(r.chains[0].joints[1], s.dofValues, breakAwayOf(s, 0, 1)), 1.0);
    const Vec3 p0 = Vec3(0, 0, 5) + R * Vec3(10, 0, 0);
    VERIFY_POSE(s.X_WL[0][0], homogeneous(R, p0));
    const Mat3 R01 = R * rodrigues(Vec3::UnitZ(), 1.0);
    VERIFY_POSE(s.X_WL[0][1], homogeneous(R01, Vec3(p0 + R01 * Vec3(10, 0, 0))));
    // Without the clutch state the same DOF value puts joint 0 at 0.5.
    const auto engaged = linkPoses(r, s.X_WP, s.dofValues);
    const Mat3 R5 = rodrigues(Vec3::UnitZ(), 0.5);
    VERIFY_POSE(engaged[0][0], homogeneous(R5, Vec3(Vec3(0, 0, 5) + R5 * Vec3(10, 0, 0))));
    // The state and the link poses of a robot body: palm = X_WP.
    QVERIFY(X_WB(s, BodyRef{-1, 0}).isApprox(s.X_WP, 0));
    QVERIFY(X_WB(s, BodyRef{0, 1}).isApprox(s.X_WL[0][1], 0));
    QVERIFY_THROWS_EXCEPTION(Error, X_WB(s, BodyRef{0, 2}));
  }

  // fromDh: Rz(θ0 + q)·Tz(d)·Tx(a)·Rx(α) for revolute, Rz(θ)·Tz(d0 + q)·Tx(a)·Rx(α) for prismatic.
  void fromDhMatchesDhTransform() {
    const DhParameters dh{.theta_rad = 0.3, .d_mm = 7, .a_mm = -12, .alpha_rad = -1.1};
    const Joint rev = fromDh(dh, JointType::Revolute, {.dof = 0, .ratio = 2, .offset = 0.25});
    const Joint pri = fromDh(dh, JointType::Prismatic, {.dof = 0, .ratio = 2, .offset = 0.25});
    const Joint fix = fromDh(dh, JointType::Fixed, {.dof = 0});
    QCOMPARE(fix.expr.dof, -1);
    for (const double dof : {-0.6, 0.0, 1.3}) {
      const double q = 2 * dof + 0.25;
      QVERIFY(jointTransform(rev, jointMotionValue(rev, {dof}))
                  .isApprox(dhTransform(0.3 + q, 7, -12, -1.1), 1e-12));
      QVERIFY(jointTransform(pri, jointMotionValue(pri, {dof}))
                  .isApprox(dhTransform(0.3, 7 + q, -12, -1.1), 1e-12));
      QVERIFY(jointTransform(fix, jointMotionValue(fix, {dof})).isApprox(dhTransform(0.3, 7, -12, -1.1), 1e-12));
      QCOMPARE(dhAt(dh, JointType::Revolute, q).theta_rad, 0.3 + q);
      QCOMPARE(dhAt(dh, JointType::Prismatic, q).d_mm, 7 + q);
    }
  }
};

QTEST_GUILESS_MAIN(TestJoints)
#include "tst_joints.moc"
