#include "contact/penalty/Squeeze.h"

#include <algorithm>
#include <cmath>

#include "contact/CollisionFilter.h"
#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "model/Kinematics.h"
#include "model/WorldState.h"

namespace sg {

namespace {

constexpr double kEffortUnit = 1e-6;     // GraspIt!'s maxEffort unit: 1e-6 N·mm (revolute), 1e-6 N (prismatic)
constexpr double kJacobianStep = 1e-6;   // rad or mm, central differences
constexpr double kMaxStep = 0.1;         // rad or mm per Newton step

// ∫0^d f_n at rest: k·(3y⁴/(4w²) − 2y⁵/(5w³)) over the transition (y = min(d, w)), k(d² − w²)/2 beyond.
double penaltyEnergy(double d, const PenaltySettings& s) {
  if (d <= 0) return 0;
  const double k = s.stiffness_N_per_mm, w = s.transitionWidth_mm;
  if (w <= 0) return 0.5 * k * d * d;
  const double y = std::min(d, w);
  double e = k * (0.75 * std::pow(y, 4) / (w * w) - 0.4 * std::pow(y, 5) / (w * w * w));
  if (d > w) e += 0.5 * k * (d * d - w * w);
  return e;
}

struct Problem {
  MatX G;            // contacts × active DOFs: ∂d/∂q
  VecX s0;           // separations at the touching state
  VecX tau, lo, hi;  // per active DOF
  const PenaltySettings* law = nullptr;

  VecX depth(const VecX& x) const { return G * x - s0; }
  double energy(const VecX& x) const {
    const VecX d = depth(x);
    double e = -tau.dot(x);
    for (Eigen::Index c = 0; c < d.size(); ++c) e += penaltyEnergy(d[c], *law);
    return e;
  }
  VecX forces(const VecX& x) const {
    const VecX d = depth(x);
    VecX f(d.size());
    for (Eigen::Index c = 0; c < d.size(); ++c) f[c] = penaltyNormalForce_N(d[c], 0, *law);
    return f;
  }
};

// Projected damped Newton on the convex energy; returns the iteration count, `converged` set.
int solveEquilibrium(const Problem& p, VecX& x, int maxIterations, bool& converged) {
  const Eigen::Index n = x.size();
  const double tol = 1e-10 * (1 + p.tau.cwiseAbs().maxCoeff());
  converged = false;
  for (int it = 0; it < maxIterations; ++it) {
    const VecX d = p.depth(x);
    VecX f(d.size()), df(d.size());
    for (Eigen::Index c = 0; c < d.size(); ++c) {
      f[c] = penaltyNormalForce_N(d[c], 0, *p.law);
      df[c] = penaltyNormalStiffness_N_per_mm(d[c], *p.law);
    }
    const VecX grad = p.G.transpose() * f - p.tau;
    std::vector<Eigen::Index> free;
    double worst = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const bool atLo = x[j] <= p.lo[j] + 1e-15 && grad[j] > 0, atHi = x[j] >= p.hi[j] - 1e-15 && grad[j] < 0;
      if (atLo || atHi) continue;
      free.push_back(j);
      worst = std::max(worst, std::abs(grad[j]));
    }
    if (worst <= tol) {
      converged = true;
      return it;
    }
    const MatX H = p.G.transpose() * df.asDiagonal() * p.G;
    const Eigen::Index m = static_cast<Eigen::Index>(free.size());
    MatX Hf(m, m);
    VecX gf(m);
    for (Eigen::Index a = 0; a < m; ++a) {
      gf[a] = grad[free[a]];
      for (Eigen::Index b = 0; b < m; ++b) Hf(a, b) = H(free[a], free[b]);
    }
    const double damping = 1e-9 * (1 + Hf.diagonal().cwiseAbs().maxCoeff());
    VecX step = (Hf + damping * MatX::Identity(m, m)).ldlt().solve(-gf);
    if (!step.allFinite()) step = -gf;
    const double big = step.cwiseAbs().maxCoeff();
    if (big > kMaxStep) step *= kMaxStep / big;
    VecX full = VecX::Zero(n);
    for (Eigen::Index a = 0; a < m; ++a) full[free[a]] = step[a];
    const double e0 = p.energy(x), slope = grad.dot(full);
    double alpha = 1;
    VecX next = x;
    for (int k = 0; k < 60; ++k, alpha *= 0.5) {
      next = (x + alpha * full).cwiseMax(p.lo).cwiseMin(p.hi);
      if (p.energy(next) <= e0 + 1e-4 * alpha * std::min(slope, 0.0)) break;
    }
    if ((next - x).cwiseAbs().maxCoeff() <= 1e-15) {  // no progress possible: as good as it gets
      converged = worst <= 1e-6 * (1 + p.tau.cwiseAbs().maxCoeff());
      return it + 1;
    }
    x = next;
  }
  return maxIterations;
}

}  // namespace

SqueezeSettings motionSqueeze(double extra_deg_or_mm, const PenaltySettings& penalty) {
  SqueezeSettings s;
  s.mode = SqueezeMode::Motion;
  s.extraRevolute_rad = degToRad(extra_deg_or_mm);
  s.extraPrismatic_mm = extra_deg_or_mm;
  s.penalty = penalty;
  return s;
}

const char* toString(SqueezeMode mode) { return mode == SqueezeMode::Torque ? "torque" : "motion"; }

// ~140 lines kept whole: the steps of one linearised squeeze (contacts, Jacobians, Δq, forces) share their arrays.
SqueezeResult squeezeHand(const World& world, WorldState& state, int robot, const SqueezeSettings& settings) {
  checkPenaltySettings(settings.penalty);
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()) ||
      robot >= static_cast<int>(state.robots.size()))
    throw Error("squeeze: no robot " + std::to_string(robot) + " in the world (it has " +
                std::to_string(world.robots.size()) + ")");
  for (double extra : {settings.extraRevolute_rad, settings.extraPrismatic_mm})
    if (!(extra >= 0) || !std::isfinite(extra))
      throw Error("squeeze: the extra DOF motion must be a finite number ≥ 0, found " + formatDouble(extra));
  if (settings.maxIterations < 1) throw Error("squeeze: the iteration bound must be ≥ 1");
  const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
  RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
  const std::size_t nDof = hand.dofCount();
  SqueezeResult out;
  out.dofBefore = rs.dofValues;
  out.effort.assign(nDof, 0.0);
  out.contactLoad.assign(nDof, 0.0);

  // First contacts: every pair of one of the hand's bodies with another body, within the threshold.
  struct Touch {
    Contact contact;
    BodyRef link;
  };
  std::vector<Touch> touches;
  for (const auto& [a, b] : activePairs(world, CollisionSettings{}, robotBodies(world, robot, false))) {
    const bool aIsHand = a.kind == BodyHandle::Kind::Robot && a.index == robot;
    const BodyHandle& mine = aIsHand ? a : b;
    const BodyHandle& other = aIsHand ? b : a;
    if (other.kind == BodyHandle::Kind::Robot && other.index == robot) continue;
    const PenaltySensing s = sensePenaltyPair(world, state, mine, other, settings.penalty);
    if (s.contact.separation_mm > settings.penalty.contactThreshold_mm) continue;
    touches.push_back({s.contact, mine.ref});
  }

  // Contact Jacobians: ∂p/∂q_j of each link's witness point by central differences of the kinematics.
  std::vector<std::vector<std::vector<Transform>>> plus(nDof), minus(nDof);
  for (std::size_t j = 0; j < nDof; ++j) {
    std::vector<double> q = rs.dofValues;
    q[j] += kJacobianStep;
    plus[j] = linkPoses(hand, rs.X_WP, q, rs.breakAway);
    q[j] -= 2 * kJacobianStep;
    minus[j] = linkPoses(hand, rs.X_WP, q, rs.breakAway);
  }
  const std::size_t nc = touches.size();
  std::vector<std::vector<Vec3>> dp(nc, std::vector<Vec3>(nDof, Vec3::Zero()));
  for (std::size_t c = 0; c < nc; ++c) {
    const BodyRef& ref = touches[c].link;
    if (ref.chain < 0) continue;  // the palm does not move with the DOFs
    const auto ch = static_cast<std::size_t>(ref.chain), li = static_cast<std::size_t>(ref.link);
    const Vec3 p_L = rs.X_WL[ch][li].inverse() * touches[c].contact.side1.p_WC_mm;
    for (std::size_t j = 0; j < nDof; ++j)
      dp[c][j] = (plus[j][ch][li] * p_L - minus[j][ch][li] * p_L) / (2 * kJacobianStep);
  }
  MatX J = MatX::Zero(static_cast<Eigen::Index>(nc), static_cast<Eigen::Index>(nDof));
  for (std::size_t c = 0; c < nc; ++c)
    for (std::size_t j = 0; j < nDof; ++j)
      J(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) = -dp[c][j].dot(touches[c].contact.side1.n_W);

  // The DOF change.
  VecX dq = VecX::Zero(static_cast<Eigen::Index>(nDof));
  std::vector<std::size_t> active;
  for (std::size_t j = 0; j < nDof; ++j) {
    const Dof& dof = hand.dofs[j];
    if (dof.defaultVelocity == 0) continue;
    const double dir = dof.defaultVelocity > 0 ? 1.0 : -1.0;
    const bool resisted = nc > 0 && J.col(static_cast<Eigen::Index>(j)).cwiseAbs().maxCoeff() > 1e-12;
    if (settings.mode == SqueezeMode::Motion) {
      const double extra = dof.prismatic ? settings.extraPrismatic_mm : settings.extraRevolute_rad;
      dq[static_cast<Eigen::Index>(j)] =
          std::clamp(rs.dofValues[j] + dir * extra, dof.minValue, dof.maxValue) - rs.dofValues[j];
      continue;
    }
    out.effort[j] = dir * dof.maxEffort * kEffortUnit;
    if (!resisted) {
      out.notes.push_back("DOF " + std::to_string(j) + ": no contact resists it; left where it is");
      continue;
    }
    active.push_back(j);
  }
  if (settings.mode == SqueezeMode::Torque && !active.empty()) {
    Problem p;
    p.law = &settings.penalty;
    const auto na = static_cast<Eigen::Index>(active.size());
    p.G = MatX(static_cast<Eigen::Index>(nc), na);
    p.tau = VecX(na);
    p.lo = VecX(na);
    p.hi = VecX(na);
    p.s0 = VecX(static_cast<Eigen::Index>(nc));
    for (std::size_t c = 0; c < nc; ++c) p.s0[static_cast<Eigen::Index>(c)] = touches[c].contact.separation_mm;
    for (Eigen::Index a = 0; a < na; ++a) {
      const std::size_t j = active[static_cast<std::size_t>(a)];
      p.G.col(a) = J.col(static_cast<Eigen::Index>(j));
      p.tau[a] = out.effort[j];
      p.lo[a] = std::min(0.0, hand.dofs[j].minValue - rs.dofValues[j]);
      p.hi[a] = std::max(0.0, hand.dofs[j].maxValue - rs.dofValues[j]);
    }
    VecX x = VecX::Zero(na);
    out.iterations = solveEquilibrium(p, x, settings.maxIterations, out.converged);
    for (Eigen::Index a = 0; a < na; ++a) {
      const std::size_t j = active[static_cast<std::size_t>(a)];
      dq[static_cast<Eigen::Index>(j)] = x[a];
      if (x[a] <= p.lo[a] + 1e-12 || x[a] >= p.hi[a] - 1e-12)
        out.notes.push_back("DOF " + std::to_string(j) + " reached its limit: the limit takes the rest of its effort");
    }
    if (!out.converged) out.notes.push_back("the equilibrium did not converge in " + std::to_string(out.iterations) +
                                            " iterations");
  }

  // The squeezed state and each contact's forces (first order in Δq).
  std::vector<double> q1 = rs.dofValues;
  for (std::size_t j = 0; j < nDof; ++j) q1[j] += dq[static_cast<Eigen::Index>(j)];
  setDofValues(hand, rs, q1);
  updateConnections(world, state);
  out.dofAfter = rs.dofValues;
  for (std::size_t c = 0; c < nc; ++c) {
    Contact k = touches[c].contact;
    Vec3 move = Vec3::Zero(), closing = Vec3::Zero();
    for (std::size_t j = 0; j < nDof; ++j) {
      move += dp[c][j] * dq[static_cast<Eigen::Index>(j)];
      closing += dp[c][j] * hand.dofs[j].defaultVelocity;
    }
    const Vec3 n1 = k.side1.n_W;
    k.separation_mm -= J.row(static_cast<Eigen::Index>(c)).dot(dq);
    k.side1.p_WC_mm += move;
    k.side1.X_WC = contactFrame(k.side1.p_WC_mm, k.side1.n_W);
    const Vec3 slip = closing - closing.dot(n1) * n1;  // at rest along the normal
    SqueezeContact sc;
    sc.sensing = penaltySensing(k, slip, Vec3::Zero(), settings.penalty);
    sc.initialSeparation_mm = touches[c].contact.separation_mm;
    for (std::size_t j = 0; j < nDof; ++j) {
      sc.jacobian.push_back(J(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)));
      out.contactLoad[j] += sc.sensing.normalForce_N * sc.jacobian.back();
    }
    out.contacts.push_back(std::move(sc));
  }
  return out;
}

}  // namespace sg
