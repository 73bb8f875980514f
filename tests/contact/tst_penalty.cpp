// Penalty contact (src/contact/README.md §Penalty contact): the normal law against its closed form with the
// transition region, the stick-slip curve, the sensing outputs of a two-body world against hand-computed values,
// the squeeze's equilibrium on a parallel-jaw gripper (forces balance the DOF effort) and its motion variant,
// the "penalty" model's generic fields, bad input.
#include <QtTest>

#include <cmath>

#include "contact/models/PenaltyContactModel.h"
#include "contact/penalty/PenaltySensing.h"
#include "contact/penalty/Squeeze.h"
#include "core/Error.h"
#include "geometry/ShapeTessellation.h"
#include "model/Kinematics.h"
#include "model/WorldState.h"
#include "ModelRun.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

Body shapeBody(const std::string& name, BodyKind kind, const Shape& shape, const Transform& X_BS = {},
               const std::string& material = "wood") {
  const Primitive p{shape, X_BS};
  Body b;
  b.name = name;
  b.kind = kind;
  b.material = material;
  b.primitive = p;
  b.mesh = std::make_shared<const TriangleMesh>(tessellatePrimitive(p));
  return b;
}

// A parallel-jaw gripper: one prismatic DOF (effort `effort_N`, closing with velocity +1) drives two 10 mm
// jaws toward x = 0 from x = ∓40 (inner faces at x = ∓(40 − q)); the graspable is a 50×70×90 box centred at
// the origin, so the jaws touch it at q = 15. The palm sits 100 mm above, out of the way.
World parallelJaw(double q, double effort_N = 100) {
  World w;
  addGraspable(w, shapeBody("box", BodyKind::Graspable, Box{Vec3(50, 70, 90)}));
  Robot r;
  r.name = "jaw";
  r.palm = shapeBody("palm", BodyKind::Link, Box{Vec3(20, 20, 20)}, {}, "plastic");
  Dof d;
  d.defaultVelocity = 1.0;
  d.maxEffort = effort_N * 1e6;  // GraspIt!'s 1e-6 N
  r.dofs.push_back(d);
  for (int side = 0; side < 2; ++side) {
    const double s = side == 0 ? 1.0 : -1.0;
    Mat3 R;
    R.col(0) = Vec3(0, 1, 0);
    R.col(1) = Vec3(0, 0, s);
    R.col(2) = Vec3(s, 0, 0);  // the joint moves along z = ±x, toward the centre
    Chain c;
    c.base = Transform::fromMatrix(R, Vec3(-40 * s, 0, -100));
    c.joints.push_back(generalJoint(JointType::Prismatic, {}, Vec3::UnitZ(), {.dof = 0}, 0, 50));
    Link l;
    l.body = shapeBody("jaw" + std::to_string(side), BodyKind::Link, Box{Vec3(30, 30, 10)},
                       Transform::fromTranslation(Vec3(0, 0, -5)), "rubber");
    l.jointType = LinkJointType::Prismatic;
    c.links.push_back(std::move(l));
    r.chains.push_back(std::move(c));
  }
  computeDofRanges(r);
  addRobot(w, std::move(r), Transform::fromTranslation(Vec3(0, 0, 100)));
  setDofValues(w.robots[0], w.state.robots[0], {q});
  return w;
}

// d with s(d/w)·k·d = f inside the transition region, by bisection of the closed form.
double transitionDepth(double f, double k, double w) {
  double lo = 0, hi = w;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi), xi = mid / w;
    (k * mid * xi * xi * (3 - 2 * xi) < f ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

void expectError(const std::function<void()>& f, const QString& words) {
  try {
    f();
    QFAIL("no error");
  } catch (const Error& e) {
    QVERIFY2(QString::fromStdString(e.message()).contains(words), qPrintable(QString::fromStdString(e.message())));
  }
}

}  // namespace

class TestPenalty : public QObject {
  Q_OBJECT
 private slots:
  void normalForceClosedForm() {
    PenaltySettings s;  // k = 1000 N/mm, c = 1 N·s/mm, w = 0.1 mm
    QCOMPARE(penaltyNormalForce_N(0, 5, s), 0.0);
    QCOMPARE(penaltyNormalForce_N(-0.3, 5, s), 0.0);
    // Halfway through the transition s = 3/4 − 2/8 = 1/2.
    QVERIFY(std::abs(penaltyNormalForce_N(0.05, 0, s) - 0.5 * 1000 * 0.05) < 1e-12);
    QVERIFY(std::abs(penaltyNormalForce_N(0.05, 2, s) - 0.5 * (50 + 2)) < 1e-12);
    // ξ = 0.2: s = 0.12 − 0.016 = 0.104.
    QVERIFY(std::abs(penaltyNormalForce_N(0.02, 0, s) - 0.104 * 20) < 1e-12);
    // Past the transition: full stiffness and damping.
    QVERIFY(std::abs(penaltyNormalForce_N(0.3, 4, s) - (300 + 4)) < 1e-12);
    // Pulling apart fast: negative, clamped to 0 unless told otherwise.
    QCOMPARE(penaltyNormalForce_N(0.3, -500, s), 0.0);
    PenaltySettings raw = s;
    raw.clampNormalForce = false;
    QVERIFY(std::abs(penaltyNormalForce_N(0.3, -500, raw) + 200) < 1e-12);
    // Smooth at both ends of the transition (value and slope), monotone in between.
    QVERIFY(std::abs(penaltyNormalForce_N(0.1 - 1e-9, 0, s) - penaltyNormalForce_N(0.1 + 1e-9, 0, s)) < 1e-5);
    QVERIFY(penaltyNormalStiffness_N_per_mm(1e-9, s) < 1e-3);
    QVERIFY(std::abs(penaltyNormalStiffness_N_per_mm(0.1 - 1e-12, s) - 1000) < 1e-6);
    double previous = 0;
    for (int i = 1; i <= 200; ++i) {
      const double d = 0.15 * i / 200, f = penaltyNormalForce_N(d, 0, s);
      QVERIFY(f >= previous);
      previous = f;
      const double h = 1e-7, fd = (penaltyNormalForce_N(d + h, 0, s) - penaltyNormalForce_N(d - h, 0, s)) / (2 * h);
      QVERIFY(std::abs(fd - penaltyNormalStiffness_N_per_mm(d, s)) < 1e-4 * 1000);
    }
    // Without a transition region: the plain spring-damper.
    PenaltySettings sharp = s;
    sharp.transitionWidth_mm = 0;
    QVERIFY(std::abs(penaltyNormalForce_N(0.02, 1, sharp) - 21) < 1e-12);
  }

  void stickSlipCurve() {
    const double muS = 0.6, muK = 0.4, vc = 2;
    QCOMPARE(stickSlipMu(0, muS, muK, vc), 0.0);
    QVERIFY(std::abs(stickSlipMu(vc, muS, muK, vc) - muS) < 1e-15);
    QVERIFY(std::abs(stickSlipMu(0.5 * vc, muS, muK, vc) - 0.5 * muS) < 1e-15);      // S(½) = ½
    QVERIFY(std::abs(stickSlipMu(2 * vc, muS, muK, vc) - 0.5 * (muS + muK)) < 1e-15);  // halfway down
    QVERIFY(std::abs(stickSlipMu(3 * vc, muS, muK, vc) - muK) < 1e-15);
    QCOMPARE(stickSlipMu(50 * vc, muS, muK, vc), muK);
    // Rising to the peak at v_c, then falling: the highest friction near, not at, rest.
    for (int i = 1; i < 300; ++i) {
      const double v = 3 * vc * i / 300, a = stickSlipMu(v, muS, muK, vc), b = stickSlipMu(v + 0.01, muS, muK, vc);
      if (v + 0.01 <= vc) QVERIFY(b > a);
      if (v >= vc && v + 0.01 <= 3 * vc) QVERIFY(b < a);
    }
    // The force opposes the slip.
    const Vec3 f = stickSlipFriction_N(Vec3(0, -4, 0), 10, muS, muK, vc);
    QVERIFY((f - Vec3(0, 0.5 * (muS + muK) * 10, 0)).norm() < 1e-12);
    QVERIFY(stickSlipFriction_N(Vec3::Zero(), 10, muS, muK, vc).isZero());
  }

  void sensingTwoBodies() {
    // A R = 10 mm ball pressed 0.05 mm into the top face (z = 0) of a box, moving at (2, 0, −0.5) mm/s.
    World w;
    addGraspable(w, shapeBody("block", BodyKind::Graspable, Box{Vec3(100, 100, 20)}, {}, "wood"));
    X_WB(w.state, graspableHandle(0)) = Transform::fromTranslation(Vec3(0, 0, -10));
    addObstacle(w, shapeBody("ball", BodyKind::Obstacle, Sphere{10}, {}, "rubber"));
    X_WB(w.state, obstacleHandle(0)) = Transform::fromTranslation(Vec3(4, 1, 9.95));
    WorldState ahead = w.state;
    const double dt = 0.01;
    X_WB(ahead, obstacleHandle(0)) = Transform::fromTranslation(Vec3(4, 1, 9.95) + dt * Vec3(2, 0, -0.5));
    PenaltySettings s;  // k = 1000, c = 1, w = 0.1, v_c = 1
    const PenaltySensing out = sensePenaltyPair(w, w.state, obstacleHandle(0), graspableHandle(0), s, &ahead, dt);
    const Contact& c = out.contact;
    QVERIFY(std::abs(c.separation_mm + 0.05) < 1e-9);
    QVERIFY(out.signal);
    QVERIFY(std::abs(out.penetration_mm - 0.05) < 1e-9);
    QVERIFY(std::abs(out.penetrationRate_mm_per_s - 0.5) < 1e-6);
    QVERIFY((out.slip_W_mm_per_s - Vec3(2, 0, 0)).norm() < 1e-6);
    // Contact points and frames: the ball's lowest point and the face point under it, z = inward normals.
    QVERIFY((c.side1.p_WC_mm - Vec3(4, 1, -0.05)).norm() < 1e-9);
    QVERIFY((c.side2.p_WC_mm - Vec3(4, 1, 0)).norm() < 1e-9);
    QVERIFY((c.side1.X_WC.applyToVector(Vec3::UnitZ()) - Vec3::UnitZ()).norm() < 1e-12);
    QVERIFY((c.side2.X_WC.applyToVector(Vec3::UnitZ()) + Vec3::UnitZ()).norm() < 1e-12);
    QVERIFY((c.side1.X_WC.translation() - c.side1.p_WC_mm).norm() < 1e-12);
    // Forces on the ball: s(½)·(k·0.05 + c·0.5) = 25.25 N up; friction μ(2 v_c) = (μs + μk)/2 of it, against +x.
    const auto ia = w.materials.indexOf("rubber"), ib = w.materials.indexOf("wood");
    QVERIFY(ia && ib);
    const double muS = w.materials.staticFriction(*ia, *ib), muK = w.materials.kineticFriction(*ia, *ib);
    QCOMPARE(c.muStatic, muS);
    const double fn = 0.5 * (1000 * 0.05 + 0.5);
    QVERIFY(std::abs(out.normalForce_N - fn) < 1e-5);
    QVERIFY((out.normalForce_W_N - Vec3(0, 0, fn)).norm() < 1e-5);
    const double mu = muS - (muS - muK) * 0.5;
    QVERIFY(std::abs(out.muEffective - mu) < 1e-6);
    QVERIFY((out.frictionForce_W_N - Vec3(-mu * fn, 0, 0)).norm() < 1e-5);
    QVERIFY(std::abs(out.frictionForce_N - mu * fn) < 1e-5);
    // At rest, 0.3 mm apart: no signal, no force.
    X_WB(w.state, obstacleHandle(0)) = Transform::fromTranslation(Vec3(4, 1, 10.3));
    const PenaltySensing apart = sensePenaltyPair(w, w.state, obstacleHandle(0), graspableHandle(0), s);
    QVERIFY(!apart.signal && std::abs(apart.contact.separation_mm - 0.3) < 1e-9);
    QCOMPARE(apart.normalForce_N, 0.0);
    QVERIFY(apart.frictionForce_W_N.isZero());
  }

  void torqueSqueezeBalancesTheEffort() {
    for (double gap : {0.01, 0.04}) {  // touching meshes count as colliding: a gap as auto-grasp leaves
      World w = parallelJaw(15 - gap);
      SqueezeSettings s;  // torque, k = 1000, w = 0.1
      const SqueezeResult r = squeezeHand(w, w.state, 0, s);
      QVERIFY(r.converged);
      QCOMPARE(r.contacts.size(), std::size_t(2));
      QVERIFY(std::abs(r.effort[0] - 100) < 1e-12);
      // Each jaw takes half the effort; the depth solves s(d/w)·k·d = 50 N (inside the transition).
      const double d = transitionDepth(50, 1000, 0.1);
      double sum = 0;
      for (const SqueezeContact& c : r.contacts) {
        QVERIFY(std::abs(c.jacobian[0] - 1) < 1e-6);  // each jaw moves 1 mm into the box per mm of DOF
        QVERIFY(std::abs(c.sensing.normalForce_N - 50) < 1e-6);
        QVERIFY(std::abs(c.sensing.penetration_mm - d) < 1e-8);
        QVERIFY(c.sensing.signal);
        QVERIFY(c.sensing.frictionForce_W_N.norm() < 1e-9);  // the jaws move straight into the faces
        // The force on the jaw points out of the box (along its face normal, away from the centre).
        QVERIFY(std::abs(c.sensing.normalForce_W_N.x()) > 49.9);
        QVERIFY(c.sensing.normalForce_W_N.x() * c.sensing.contact.side1.p_WC_mm.x() > 0);
        sum += c.sensing.normalForce_N * c.jacobian[0];
      }
      QVERIFY(std::abs(sum - 100) < 1e-6);
      QVERIFY(std::abs(r.contactLoad[0] - 100) < 1e-6);
      // The DOF moved through the gap and the penetration; the state holds it.
      QVERIFY(std::abs(r.dofAfter[0] - (15 - gap + gap + d)) < 1e-8);
      QCOMPARE(w.state.robots[0].dofValues[0], r.dofAfter[0]);
    }
    // Twice the effort: 100 N per jaw, past the transition: d = 100/k.
    World w = parallelJaw(14.99, 200);
    const SqueezeResult r = squeezeHand(w, w.state, 0, {});
    for (const SqueezeContact& c : r.contacts) QVERIFY(std::abs(c.sensing.penetration_mm - 0.1) < 1e-8);
  }

  void motionSqueezeGivesTheMotionsPenetration() {
    World w = parallelJaw(14.99);
    SqueezeSettings s;
    s.mode = SqueezeMode::Motion;
    s.extraPrismatic_mm = 0.07;  // 0.01 closes the gap, 0.06 mm into each face
    const SqueezeResult r = squeezeHand(w, w.state, 0, s);
    QCOMPARE(r.contacts.size(), std::size_t(2));
    for (const SqueezeContact& c : r.contacts) {
      QVERIFY(std::abs(c.sensing.penetration_mm - 0.06) < 1e-8);
      QVERIFY(std::abs(c.sensing.normalForce_N - penaltyNormalForce_N(0.06, 0, s.penalty)) < 1e-6);
      QVERIFY(std::abs(c.sensing.contact.separation_mm + 0.06) < 1e-8);
    }
    QVERIFY(std::abs(r.dofAfter[0] - 15.06) < 1e-12);
  }

  void motionSqueezeFromOneNumber() {
    // The front ends' one number: degrees for revolute DOFs, the same number of mm for prismatic ones.
    PenaltySettings stiff;
    stiff.stiffness_N_per_mm = 2e3;
    const SqueezeSettings s = motionSqueeze(2.5, stiff);
    QCOMPARE(s.mode, SqueezeMode::Motion);
    QVERIFY(std::abs(s.extraRevolute_rad - 2.5 * kPi / 180) < 1e-15);
    QCOMPARE(s.extraPrismatic_mm, 2.5);
    QCOMPARE(s.penalty.stiffness_N_per_mm, 2e3);
    QVERIFY(std::abs(motionSqueeze(180).extraRevolute_rad - kPi) < 1e-15);
    QCOMPARE(motionSqueeze(0).extraRevolute_rad, 0.0);
    // On the prismatic jaw it squeezes as the hand-made settings above: 0.06 mm into each face.
    World w = parallelJaw(14.99);
    const SqueezeResult r = squeezeHand(w, w.state, 0, motionSqueeze(0.07));
    QCOMPARE(r.contacts.size(), std::size_t(2));
    for (const SqueezeContact& c : r.contacts) QVERIFY(std::abs(c.sensing.penetration_mm - 0.06) < 1e-8);
    // A negative amount stays the engine's error.
    World again = parallelJaw(14.99);
    expectError([&] { squeezeHand(again, again.state, 0, motionSqueeze(-1)); }, "extra DOF motion");
  }

  void penaltyModelUsesTheSqueezeForces() {
    const World w = parallelJaw(14.99);
    const ModelRun run = runModel(w, "penalty");
    const auto* result = dynamic_cast<const PenaltyContactResult*>(run.result.get());
    QVERIFY(result);
    QCOMPARE(result->contacts.size(), std::size_t(2));  // one per jaw–box pair
    std::size_t sources = 0;
    for (const ModelContact& m : result->contacts) {
      QVERIFY(std::abs(m.normalForce_N - 50) < 1e-6);
      QCOMPARE(m.kind, ContactKind::PointWithFriction);
      QCOMPARE(m.patchArea_mm2, 0.0);
      QVERIFY(m.patchShape.empty());
      sources += m.sourceContacts.size();
    }
    QCOMPARE(sources, run.detected.size());
    QCOMPARE(result->sensing.size(), result->contacts.size());
    // The description: each contact's sensing (50 N per jaw: half the prismatic DOF's 100 N effort) and the
    // squeeze (one robot, its effort balanced by the contacts' load).
    for (std::size_t i = 0; i < result->contacts.size(); ++i) {
      const Json described = result->describeContact(i);
      const Json& sensing = described.at("sensing", "");
      QVERIFY(std::abs(sensing.at("normalForce_N", "").number("") - 50) < 1e-6);
      QVERIFY(sensing.at("signal", "").boolean(""));
      QVERIFY(sensing.at("penetration_mm", "").number("") > 0);
    }
    const Json model = result->describe();
    const auto& squeezes = model.at("squeezes", "").items("");
    QCOMPARE(squeezes.size(), std::size_t(1));
    QVERIFY(std::abs(squeezes[0].at("effort", "").items("")[0].number("") - 100) < 1e-12);
    QVERIFY(std::abs(squeezes[0].at("contactLoad", "").items("")[0].number("") - 100) < 1e-6);
    QCOMPARE(squeezes[0].at("contactCount", "").number(""), 2.0);
  }

  void badInputIsAnError() {
    World w = parallelJaw(15);
    expectError([&] { squeezeHand(w, w.state, 3, {}); }, "no robot 3");
    SqueezeSettings negative;
    negative.mode = SqueezeMode::Motion;
    negative.extraRevolute_rad = -1;
    expectError([&] { squeezeHand(w, w.state, 0, negative); }, "extra DOF motion");
    SqueezeSettings soft;
    soft.penalty.stiffness_N_per_mm = 0;
    expectError([&] { squeezeHand(w, w.state, 0, soft); }, "stiffness");
    PenaltySettings slow;
    slow.criticalVelocity_mm_per_s = 0;
    expectError([&] { penaltyNormalForce_N(0.1, 0, slow); (void)penaltySensing({}, Vec3::Zero(), Vec3::Zero(), slow); },
                "critical velocity");
    WorldState ahead = w.state;
    expectError([&] { sensePenaltyPair(w, w.state, graspableHandle(0), graspableHandle(0), {}, &ahead, 0); },
                "time step");
  }
};

QTEST_APPLESS_MAIN(TestPenalty)
#include "tst_penalty.moc"
