#include "model/Kinematics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/Error.h"

namespace sg {

Transform dhTransform(double theta, double d, double a, double alpha) {
  const Quat qz(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
  const Quat qx(Eigen::AngleAxisd(alpha, Vec3::UnitX()));
  // Rz(θ)·Tz(d)·Tx(a)·Rx(α): translation = d·z + Rz(θ)·(a·x).
  return {qz * qx, Vec3(0, 0, d) + qz * Vec3(a, 0, 0)};
}

Joint fromDh(const DhParameters& dh, JointType type, const DofExpression& expr, double minValue, double maxValue) {
  Joint j;
  j.type = type;
  j.axis = Vec3::UnitZ();
  j.X_JC = dhTransform(dh.theta_rad, dh.d_mm, dh.a_mm, dh.alpha_rad);
  j.expr = expr;
  if (type == JointType::Fixed) j.expr.dof = -1;
  j.minValue = minValue;
  j.maxValue = maxValue;
  j.dh = dh;
  return j;
}

Joint generalJoint(JointType type, const Transform& X_PJ, const Vec3& axis, const DofExpression& expr,
                   double minValue, double maxValue) {
  Joint j;
  j.type = type;
  j.X_PJ = X_PJ;
  j.axis = axis.normalized();
  j.expr = expr;
  if (type == JointType::Fixed) j.expr.dof = -1;
  j.minValue = minValue;
  j.maxValue = maxValue;
  return j;
}

DhParameters dhAt(const DhParameters& dh, JointType type, double q) {
  DhParameters out = dh;
  if (type == JointType::Revolute) out.theta_rad += q;
  if (type == JointType::Prismatic) out.d_mm += q;
  return out;
}

Transform jointMotion(const Joint& joint, double q) {
  switch (joint.type) {
    case JointType::Revolute: return Transform::fromRotation(Quat(Eigen::AngleAxisd(q, joint.axis)));
    case JointType::Prismatic: return Transform::fromTranslation(q * joint.axis);
    case JointType::Fixed: break;
  }
  return {};
}

Transform jointTransform(const Joint& joint, double q) { return joint.X_PJ * jointMotion(joint, q) * joint.X_JC; }

double jointValue(const Joint& joint, const std::vector<double>& dofValues, const JointBreakAway& breakAway) {
  double q = breakAway.active ? breakAway.dofValue
                               : (joint.expr.dof >= 0 && joint.expr.dof < static_cast<int>(dofValues.size())
                                      ? dofValues[joint.expr.dof]
                                      : 0.0);
  return joint.expr.ratio * q;
}

double jointMotionValue(const Joint& joint, const std::vector<double>& dofValues, const JointBreakAway& breakAway) {
  return joint.type == JointType::Fixed ? 0.0 : jointValue(joint, dofValues, breakAway) + joint.expr.offset;
}

void computeDofRanges(Robot& robot) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> lo(robot.dofs.size(), -inf), hi(robot.dofs.size(), inf);
  std::vector<int> revolute(robot.dofs.size(), 0), prismatic(robot.dofs.size(), 0);
  for (const auto& chain : robot.chains)
    for (const auto& j : chain.joints) {
      const int k = j.expr.dof;
      if (j.type == JointType::Fixed || k < 0 || k >= static_cast<int>(robot.dofs.size()) || j.expr.ratio == 0)
        continue;
      double a = j.minValue / j.expr.ratio, b = j.maxValue / j.expr.ratio;
      if (a > b) std::swap(a, b);
      lo[k] = std::max(lo[k], a);
      hi[k] = std::min(hi[k], b);
      (j.type == JointType::Prismatic ? prismatic : revolute)[k]++;
    }
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) {
    if (std::isfinite(lo[k])) robot.dofs[k].minValue = lo[k];
    if (std::isfinite(hi[k])) robot.dofs[k].maxValue = hi[k];
    robot.dofs[k].prismatic = prismatic[k] > 0 && revolute[k] == 0;
  }
}

std::vector<double> clampToRanges(const Robot& robot, std::vector<double> v) {
  v.resize(robot.dofs.size(), 0.0);
  for (std::size_t k = 0; k < v.size(); ++k)
    v[k] = std::clamp(v[k], robot.dofs[k].minValue, std::max(robot.dofs[k].minValue, robot.dofs[k].maxValue));
  return v;
}

void checkChainTree(const Robot& robot) {
  for (std::size_t c = 0; c < robot.chains.size(); ++c) {
    const auto& parent = robot.chains[c].parent;
    if (!parent || parent->chain < 0) continue;
    if (parent->chain >= static_cast<int>(c) || parent->link < 0 ||
        parent->link >= static_cast<int>(robot.chains[parent->chain].links.size()))
      throw Error("robot '" + robot.name + "': chain " + std::to_string(c) + " hangs off chain " +
                  std::to_string(parent->chain) + " link " + std::to_string(parent->link) +
                  ", which is not a link of an earlier chain");
  }
}

namespace {

// linkPoses, and with `origins_W` each joint frame's origin on the way (jointOrigins).
std::vector<std::vector<Transform>> chainFrames(const Robot& robot, const Transform& X_WP,
                                                const std::vector<double>& dofValues, const BreakAwayState& breakAway,
                                                std::vector<std::vector<Vec3>>* origins_W) {
  checkChainTree(robot);
  std::vector<std::vector<Transform>> out;
  out.reserve(robot.chains.size());
  if (origins_W) origins_W->assign(robot.chains.size(), {});
  for (std::size_t c = 0; c < robot.chains.size(); ++c) {
    const Chain& chain = robot.chains[c];
    const auto& parent = chain.parent;
    // Parents come first, so their link poses are already in `out`.
    const Transform X_WB = (parent && parent->chain >= 0 ? out[parent->chain][parent->link] : X_WP) * chain.base;
    std::vector<Transform> jointFrames;  // frame after each joint
    Transform X_WF = X_WB;
    for (std::size_t k = 0; k < chain.joints.size(); ++k) {
      const Joint& j = chain.joints[k];
      const JointBreakAway ba = c < breakAway.size() && k < breakAway[c].size() ? breakAway[c][k] : JointBreakAway{};
      if (origins_W) (*origins_W)[c].push_back((X_WF * j.X_PJ).translation());
      X_WF = X_WF * jointTransform(j, jointMotionValue(j, dofValues, ba));
      jointFrames.push_back(X_WF);
    }
    std::vector<Transform> poses;
    for (const auto& link : chain.links) {
      const int lj = link.lastJoint;
      poses.push_back(lj >= 0 && lj < static_cast<int>(jointFrames.size()) ? jointFrames[lj] : X_WB);
    }
    out.push_back(std::move(poses));
  }
  return out;
}

}  // namespace

std::vector<std::vector<Transform>> linkPoses(const Robot& robot, const Transform& X_WP,
                                              const std::vector<double>& dofValues, const BreakAwayState& breakAway) {
  return chainFrames(robot, X_WP, dofValues, breakAway, nullptr);
}

std::vector<std::vector<Vec3>> jointOrigins(const Robot& robot, const Transform& X_WP,
                                            const std::vector<double>& dofValues, const BreakAwayState& breakAway) {
  std::vector<std::vector<Vec3>> origins;
  chainFrames(robot, X_WP, dofValues, breakAway, &origins);
  return origins;
}

double linkBallReach(const Robot& robot, const std::vector<std::vector<Vec3>>& origins_W, const BodyRef& link,
                     const Vec3& p_W_mm, double r_mm, const std::vector<std::vector<double>>& jointTravel) {
  // Move the joints one at a time from the palm outward: when joint i turns by Δ, the joints after it still
  // hold their old values, so the ball is where it is now relative to joint i, and each of its points moves
  // by at most |Δ| · (its distance from the axis) ≤ |Δ| · (|p − origin_i| + r) (a prismatic joint: |Δ|).
  double reach = 0;
  BodyRef at = link;
  while (at.chain >= 0) {
    const Chain& chain = robot.chains.at(static_cast<std::size_t>(at.chain));
    const int last = chain.links.at(static_cast<std::size_t>(at.link)).lastJoint;
    for (int k = 0; k <= last && k < static_cast<int>(chain.joints.size()); ++k) {
      const Joint& j = chain.joints[static_cast<std::size_t>(k)];
      const double travel = jointTravel.at(static_cast<std::size_t>(at.chain)).at(static_cast<std::size_t>(k));
      if (j.type == JointType::Revolute)
        reach += travel * ((p_W_mm - origins_W[static_cast<std::size_t>(at.chain)][static_cast<std::size_t>(k)]).norm() + r_mm);
      else if (j.type == JointType::Prismatic)
        reach += travel;
    }
    if (!chain.parent || chain.parent->chain < 0) break;
    at = *chain.parent;
  }
  return reach;
}

}  // namespace sg
