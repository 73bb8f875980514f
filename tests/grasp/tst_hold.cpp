// The grasp force optimisation (src/grasp/forces/FORCES.md): the ParallelJaw holding its box against gravity
// along the pads exactly when μ·E ≥ m·g (E the one DOF's effort, shared by both pads: 2μF ≥ mg with F = E/2 per
// pad), a frictionless grasp resisting no tangential load, mirror-symmetric forces for the symmetric grasp, the
// equilibrium residual, every force inside its friction set, every torque within its DOF's effort and equal to
// the hand Jacobianᵀ × the forces, the exact sets' t between the two polytopes' bounds, the polytopes' inradii
// against closed forms, and clear errors for bad input.
#include <QtTest>

#include <cmath>
#include <functional>
#include <map>

#include "core/Error.h"
#include "grasp/Analysis.h"
#include "grasp/forces/FrictionPolytope.h"
#include "grasp/forces/GraspForceOptimization.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

void expectError(const std::function<void()>& f, const QString& words) {
  try {
    f();
  } catch (const Error& e) {
    QVERIFY2(QString::fromStdString(e.what()).contains(words), e.what());
    return;
  }
  QFAIL(qPrintable("no error; expected one containing '" + words + "'"));
}

// worlds/paralleljaw_box.xml after auto-grasp (the jaws clamp the box's 50 mm faces), analysed under `model`.
struct Jaw {
  World world;
  AnalysisResult result;
  const GraspEvaluation& grasp() const { return result.evaluations.front(); }
  const Body& box() const { return world.graspables[0]; }
};

Jaw jawGrasp(const std::string& model = "point") {
  Jaw j;
  j.world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
  AnalysisRequest r;
  r.motion.fingers = FingerMotion::Close;
  r.contactModels = {model};
  r.measures.clear();
  NullProgress progress;
  j.result = runAnalysis(j.world, r, progress);
  return j;
}

// The object-frame axis along the pads: the one most nearly orthogonal to every contact normal (−1 when none is
// within 1e-9).
int padAxis(const Jaw& j) {
  const Mat3 R_OW = j.grasp().reference.objectPose.rotationMatrix().transpose();
  int best = -1;
  double bestTilt = 1e-9;
  for (int axis = 0; axis < 3; ++axis) {
    double tilt = 0;
    for (const ContactEvaluation& c : j.grasp().contacts) tilt = std::max(tilt, std::abs((R_OW * c.onObject().n_W)[axis]));
    if (tilt <= bestTilt) {
      bestTilt = tilt;
      best = axis;
    }
  }
  return best;
}

// Per pad (the pushing body), the sum of its contacts' forces and of their normal components.
struct PadSum {
  Vec3 force_W_N = Vec3::Zero();
  double normal_N = 0;
};
std::map<int, PadSum> padSums(const HoldDirection& d) {
  std::map<int, PadSum> out;
  for (const HoldContactForce& f : d.forces) {
    PadSum& p = out[f.pusher.ref.chain];
    p.force_W_N += f.force_W_N;
    p.normal_N += f.normal_N;
  }
  return out;
}

HoldLoad gravityAlong(int axis, double sign, double weight_N) {
  HoldLoad l;
  l.label = "test";
  l.force_O_N[axis] = sign * weight_N;
  return l;
}

// The checks every optimum must pass, computed from the forces, not from the solver's own bookkeeping.
void checkOptimum(const GraspEvaluation& grasp, const HoldResult& r, const HoldDirection& d) {
  QVERIFY(d.balanced);
  QCOMPARE(d.forces.size(), grasp.contacts.size());
  const Transform& X_WO = grasp.reference.objectPose;
  const Vec3 cog_W = X_WO * grasp.reference.cog_mm;
  const Mat3 R_WO = X_WO.rotationMatrix();
  Vec3 force = R_WO * d.load.force_O_N, moment = R_WO * d.load.torque_O_Nmm;
  double scale = d.load.force_O_N.norm() + d.load.torque_O_Nmm.norm() / grasp.reference.torqueScale_mm;
  for (std::size_t c = 0; c < d.forces.size(); ++c) {
    const HoldContactForce& f = d.forces[c];
    const ContactEvaluation& e = grasp.contacts[c];
    const Vec3 n = e.onObject().n_W;
    const double fn = f.force_W_N.dot(n);
    const double ft = (f.force_W_N - fn * n).norm();
    QVERIFY(fn >= -1e-9 * scale);
    // Inside the exact set: (f_t/μ)² + (τ/(μ e_n))² ≤ f_n² (a point contact: |f_t| ≤ μ f_n, frictionless: 0).
    const double torsionLimit = e.mu * (e.torsion_mm > 0 ? e.torsion_mm : 0.0);
    double use2 = 0;
    if (e.mu > 0) use2 += std::pow(ft / e.mu, 2);
    else QVERIFY(ft <= 1e-9 * scale);
    if (torsionLimit > 0) use2 += std::pow(f.torsion_Nmm / torsionLimit, 2);
    else QVERIFY(std::abs(f.torsion_Nmm) <= 1e-9 * scale);
    QVERIFY2(std::sqrt(use2) <= fn * (1 + 1e-9) + 1e-9 * scale, qPrintable(QString::number(std::sqrt(use2) / fn)));
    force += f.force_W_N;
    moment += (f.p_W_mm - cog_W).cross(f.force_W_N) + f.torsion_Nmm * n;
  }
  // Equilibrium.
  QVERIFY2(force.norm() <= 1e-7 * scale, qPrintable(QString::number(force.norm())));
  QVERIFY2(moment.norm() <= 1e-7 * scale * grasp.reference.torqueScale_mm, qPrintable(QString::number(moment.norm())));
  QVERIFY(d.residualForce_N <= 1e-7 * scale);
  // Torques within the efforts when held; t is the busiest DOF's share.
  double busiest = 0;
  for (std::size_t k = 0; k < r.dofs.size(); ++k) {
    if (r.dofs[k].effort > 0) busiest = std::max(busiest, std::abs(d.dofTorques[k]) / r.dofs[k].effort);
    if (d.held) QVERIFY(std::abs(d.dofTorques[k]) <= r.dofs[k].effort * (1 + 1e-9));
  }
  QVERIFY2(std::abs(busiest - d.effortRatio) <= 1e-7 * std::max(1.0, d.effortRatio),
           qPrintable(QString("%1 vs %2").arg(busiest).arg(d.effortRatio)));
  QVERIFY(d.effortRatioLower <= d.effortRatio * (1 + 1e-9) + 1e-12);
  QCOMPARE(d.held, d.effortRatio <= 1.0);
}

}  // namespace

class TstHold : public QObject {
  Q_OBJECT
 private slots:
  void polytopeInradii();
  void jawThreshold();
  void jawTorqueIsTheSumOfNormalForces();
  void jawForcesAreMirrorSymmetric();
  void frictionlessResistsNoTangentialLoad();
  void sixDirectionsOfTheDefaultWorld();
  void weightLoadsFromGrams();
  void badInput();
};

void TstHold::polytopeInradii() {
  // The octahedron's facets are at 1/√3; a regular polygon's edges at cos(π/m).
  const std::vector<Vec3> octahedron = {Vec3::UnitX(), -Vec3::UnitX(), Vec3::UnitY(), -Vec3::UnitY(),
                                        Vec3::UnitZ(), -Vec3::UnitZ()};
  QVERIFY(std::abs(hullInradius(octahedron) - 1 / std::sqrt(3.0)) < 1e-12);
  for (int m : {3, 8, 16}) {
    const FrictionPolytope d = discPolytope(m);
    QCOMPARE(int(d.points.size()), m);
    QVERIFY(std::abs(d.inradius - std::cos(kPi / m)) < 1e-15);
    // The edge midpoint between two neighbouring vertices is at the inradius.
    QVERIFY(std::abs((0.5 * (d.points[0] + d.points[1])).norm() - d.inradius) < 1e-12);
  }
  const FrictionPolytope b = ballPolytope(16, 3);
  for (const Vec3& p : b.points) QVERIFY(std::abs(p.norm() - 1) < 1e-12);
  QVERIFY(b.inradius > 0.9 && b.inradius < 1.0);
  // A finer sampling encloses more of the ball.
  QVERIFY(ballPolytope(32, 6).inradius > b.inradius);
  expectError([] { discPolytope(2); }, "at least 3 edges");
  expectError([] { ballPolytope(8, 0); }, "1 latitude");
}

void TstHold::jawThreshold() {
  // Held when μE ≥ mg, i.e. 2μF ≥ mg for F = E/2 per pad; the 16-gon has vertices along both pad axes, so for
  // gravity along an axis the polytope's t is the exact one, t = mg/(μE).
  Jaw j = jawGrasp("point");
  QVERIFY(j.grasp().contacts.size() >= 2);  // face on face: several contacts per pad
  const int axis = padAxis(j);
  QVERIFY(axis >= 0);
  const double mu = j.grasp().contacts[0].mu;
  QVERIFY(mu > 0);
  for (const ContactEvaluation& c : j.grasp().contacts) QCOMPARE(c.mu, mu);
  const double E_N = j.world.robots[0].dofs[0].maxEffort * 1e-6;
  for (double ratio : {1.25, 2.0, 0.5, 0.25}) {  // 2μF / mg: held with margin, held, not held (2μF ≤ mg/2)
    const double weight_N = mu * E_N / ratio;
    for (double sign : {1.0, -1.0}) {
      const HoldResult r = analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {gravityAlong(axis, sign, weight_N)});
      QCOMPARE(r.directions.size(), std::size_t(1));
      const HoldDirection& d = r.directions[0];
      checkOptimum(j.grasp(), r, d);
      QCOMPARE(d.held, ratio >= 1.0);
      QVERIFY2(std::abs(d.effortRatio - 1 / ratio) < 1e-7, qPrintable(QString::number(d.effortRatio)));
      QVERIFY(std::abs(d.margin - (1 - 1 / ratio)) < 1e-7);
      QVERIFY(std::abs(d.loadFactor - ratio) < 1e-6 * ratio);
      // The circumscribed polygon lets the friction reach μ/cos(π/16).
      QVERIFY(std::abs(d.effortRatioLower - std::cos(kPi / 16) / ratio) < 1e-7);
    }
  }
}

void TstHold::jawTorqueIsTheSumOfNormalForces() {
  // Each jaw moves 1 mm into the box per mm of the DOF, so the DOF's force is the sum of the normal forces; a
  // load pushing the box into one jaw is taken by that jaw alone.
  Jaw j = jawGrasp("point");
  const Mat3 R_OW = j.grasp().reference.objectPose.rotationMatrix().transpose();
  const Vec3 n0_O = R_OW * j.grasp().contacts[0].onObject().n_W;
  const int pad0 = j.grasp().contacts[0].objectIsSide1 ? j.grasp().contacts[0].contact.side2.body.ref.chain
                                                        : j.grasp().contacts[0].contact.side1.body.ref.chain;
  HoldLoad push;
  push.label = "push";
  push.force_O_N = -3.0 * n0_O;  // pushes the box against contact 0's pad
  const int axis = padAxis(j);
  QVERIFY(axis >= 0);
  const HoldResult r = analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {push, gravityAlong(axis, 1, 2.0)});
  QCOMPARE(r.dofs.size(), std::size_t(1));
  QVERIFY(r.dofs[0].prismatic);
  for (const HoldDirection& d : r.directions) {
    checkOptimum(j.grasp(), r, d);
    double sumNormal = 0;
    for (const HoldContactForce& f : d.forces) sumNormal += f.normal_N;
    QVERIFY2(std::abs(d.dofTorques[0] - sumNormal) < 1e-6 * sumNormal, qPrintable(QString::number(d.dofTorques[0])));
  }
  const std::map<int, PadSum> pads = padSums(r.directions[0]);
  QCOMPARE(pads.size(), std::size_t(2));
  for (const auto& [chain, sum] : pads) QVERIFY(std::abs(sum.normal_N - (chain == pad0 ? 3.0 : 0.0)) < 1e-9);
}

void TstHold::jawForcesAreMirrorSymmetric() {
  // The box sits centred between the pads: under gravity along the pads the two forces mirror each other
  // through the plane between the jaws (opposite normal parts, equal tangential parts), also with soft fingers.
  for (const std::string model : {"point", "soft-finger"}) {
    // Several contacts per pad share a pad's force in no unique way; each pad's total is unique.
    Jaw j = jawGrasp(model);
    const int axis = padAxis(j);
    QVERIFY(axis >= 0);
    const HoldResult r = analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {gravityAlong(axis, -1, 1.5)});
    const HoldDirection& d = r.directions[0];
    checkOptimum(j.grasp(), r, d);
    const std::map<int, PadSum> pads = padSums(d);
    QCOMPARE(pads.size(), std::size_t(2));
    const Vec3 n = j.grasp().contacts[0].onObject().n_W;  // the mirror plane's normal
    const Vec3 a = pads.begin()->second.force_W_N, b = pads.rbegin()->second.force_W_N;
    const Vec3 mirrored = b - 2 * b.dot(n) * n;
    QVERIFY2((a - mirrored).norm() < 1e-7, qPrintable(QString::fromStdString(model)));
    QVERIFY(std::abs(pads.begin()->second.normal_N - pads.rbegin()->second.normal_N) < 1e-7);
    const Mat3 R_WO = j.grasp().reference.objectPose.rotationMatrix();
    const Vec3 down_W = R_WO.col(axis);  // each pad carries half the weight along the pads
    QVERIFY(std::abs(a.dot(down_W) - 0.75) < 1e-7);
    QVERIFY(std::abs(b.dot(down_W) - 0.75) < 1e-7);
  }
}

void TstHold::frictionlessResistsNoTangentialLoad() {
  Jaw j = jawGrasp("frictionless");
  const int axis = padAxis(j);
  QVERIFY(axis >= 0);
  for (double sign : {1.0, -1.0}) {
    const HoldResult r = analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {gravityAlong(axis, sign, 0.1)});
    QVERIFY(!r.directions[0].balanced);
    QVERIFY(!r.directions[0].held);
    QVERIFY(std::isinf(r.directions[0].effortRatio));
    QVERIFY(r.directions[0].forces.empty());
  }
  // Along the normal the pads still push back.
  const Vec3 n0_O = j.grasp().reference.objectPose.rotationMatrix().transpose() * j.grasp().contacts[0].onObject().n_W;
  HoldLoad push;
  push.force_O_N = -n0_O;
  const HoldResult r = analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {push});
  checkOptimum(j.grasp(), r, r.directions[0]);
  QVERIFY(r.directions[0].held);
}

void TstHold::sixDirectionsOfTheDefaultWorld() {
  // The bundled default world after approach and auto-grasp under the soft-finger model: every direction's
  // optimum passes the checks, and the worst direction is the one with the largest t.
  World w = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
  AnalysisRequest req;
  req.motion.approach = true;
  req.motion.fingers = FingerMotion::Close;
  req.measures.clear();
  NullProgress progress;
  const AnalysisResult a = runAnalysis(w, req, progress);
  const GraspEvaluation& g = a.evaluations.front();
  QVERIFY(g.contacts.size() >= 2);
  const Body& object = w.graspables[static_cast<std::size_t>(a.graspable)];
  const HoldResult r = analyzeHold(w, w.state, g, object, weightLoads(object, {"all"}));
  QCOMPARE(r.directions.size(), std::size_t(6));
  QVERIFY(std::abs(r.weight_N - object.mass_g * 1e-3 * 9.81) < 1e-12);
  int worst = 0;
  for (std::size_t k = 0; k < r.directions.size(); ++k) {
    const HoldDirection& d = r.directions[k];
    if (d.balanced) checkOptimum(g, r, d);
    if (d.effortRatio > r.directions[static_cast<std::size_t>(worst)].effortRatio) worst = static_cast<int>(k);
  }
  QCOMPARE(r.worst, worst);
  // Finer polytopes bracket the same exact t: each run's lower bound is below the other's t.
  HoldSettings fine;
  fine.tangentEdges = 32;
  fine.torsionLatitudes = 5;
  const HoldResult f = analyzeHold(w, w.state, g, object, weightLoads(object, {"all"}), fine);
  QCOMPARE(f.pointEdges, 32);
  QVERIFY(f.softInradius > r.softInradius && f.pointInradius > r.pointInradius);
  for (std::size_t k = 0; k < r.directions.size(); ++k) {
    if (!r.directions[k].balanced) continue;
    checkOptimum(g, f, f.directions[k]);
    QVERIFY(f.directions[k].effortRatioLower <= r.directions[k].effortRatio * (1 + 1e-9));
    QVERIFY(r.directions[k].effortRatioLower <= f.directions[k].effortRatio * (1 + 1e-9));
  }
  // Deterministic: the same input gives the same numbers.
  const HoldResult again = analyzeHold(w, w.state, g, object, weightLoads(object, {"all"}));
  for (std::size_t k = 0; k < r.directions.size(); ++k) {
    QCOMPARE(again.directions[k].effortRatio, r.directions[k].effortRatio);
    for (std::size_t c = 0; c < r.directions[k].forces.size(); ++c)
      QVERIFY(again.directions[k].forces[c].force_W_N == r.directions[k].forces[c].force_W_N);
  }
}

void TstHold::weightLoadsFromGrams() {
  Body b;
  b.mass_g = 250;
  const std::vector<HoldLoad> all = weightLoads(b, {"all"});
  QCOMPARE(all.size(), std::size_t(6));
  QCOMPARE(all[0].label, std::string("x+"));
  QVERIFY((all[0].force_O_N - Vec3(0.25 * 9.81, 0, 0)).norm() < 1e-15);
  QVERIFY((all[5].force_O_N - Vec3(0, 0, -0.25 * 9.81)).norm() < 1e-15);
  const std::vector<HoldLoad> two = weightLoads(b, {"z-", "y+"}, 10.0);
  QCOMPARE(two[0].force_O_N.z(), -2.5);
  QCOMPARE(two[1].force_O_N.y(), 2.5);
  expectError([&] { weightLoads(b, {"w+"}); }, "unknown direction 'w+'");
  b.mass_g = 0;
  expectError([&] { weightLoads(b, {"all"}); }, "no positive mass");
  b.mass_g = std::nan("");
  expectError([&] { weightLoads(b, {"all"}); }, "no positive mass");
}

void TstHold::badInput() {
  Jaw j = jawGrasp("point");
  // No contacts.
  GraspEvaluation empty = j.grasp();
  empty.contacts.clear();
  expectError([&] { analyzeHold(j.world, j.world.state, empty, j.box(), weightLoads(j.box(), {"all"})); }, "no contacts");
  // A NaN wrench.
  HoldLoad nan;
  nan.label = "wrench";
  nan.torque_O_Nmm.y() = std::nan("");
  expectError([&] { analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {nan}); }, "'wrench' is not finite");
  // A hand without effort.
  World noEffort = j.world;
  noEffort.robots[0].dofs[0].maxEffort = 0;
  expectError([&] { analyzeHold(noEffort, noEffort.state, j.grasp(), j.box(), {gravityAlong(0, 1, 1)}); },
              "has no maxEffort");
  // Bad settings.
  HoldSettings s;
  s.tangentEdges = 2;
  expectError([&] { analyzeHold(j.world, j.world.state, j.grasp(), j.box(), {gravityAlong(0, 1, 1)}, s); },
              "bad settings");
}

QTEST_APPLESS_MAIN(TstHold)
#include "tst_hold.moc"
