#include "grasp/forces/HandJacobian.h"

#include "core/Error.h"
#include "model/Kinematics.h"

namespace sg {

HandJacobian::HandJacobian(const Robot& robot, const RobotState& state) : state_(&state) {
  const std::size_t n = robot.dofCount();
  plus_.resize(n);
  minus_.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> q = state.dofValues;
    q[j] += step_;
    plus_[j] = linkPoses(robot, state.X_WP, q, state.breakAway);
    q[j] -= 2 * step_;
    minus_[j] = linkPoses(robot, state.X_WP, q, state.breakAway);
  }
}

PointJacobian HandJacobian::at(const BodyRef& link, const Vec3& p_W_mm) const {
  PointJacobian out;
  out.linear.assign(plus_.size(), Vec3::Zero());
  out.angular.assign(plus_.size(), Vec3::Zero());
  if (link.chain < 0) return out;
  const auto ch = static_cast<std::size_t>(link.chain), li = static_cast<std::size_t>(link.link);
  if (ch >= state_->X_WL.size() || li >= state_->X_WL[ch].size())
    throw Error("hand Jacobian: no link " + std::to_string(link.link) + " in chain " + std::to_string(link.chain));
  const Vec3 p_L = state_->X_WL[ch][li].inverse() * p_W_mm;
  for (std::size_t j = 0; j < plus_.size(); ++j) {
    const Transform& a = plus_[j][ch][li];
    const Transform& b = minus_[j][ch][li];
    out.linear[j] = (a * p_L - b * p_L) / (2 * step_);
    // R_a·R_bᵀ ≈ I + [ω·2h]×: the rotation vector of the relative rotation over the two steps.
    const Eigen::AngleAxisd rel(a.rotation() * b.rotation().inverse());
    out.angular[j] = rel.axis() * rel.angle() / (2 * step_);
  }
  return out;
}

}  // namespace sg
