#include "model/Kinematics.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg {

Transform dhTransform(double theta, double d, double a, double alpha) {
  const Quat qz(Eigen::AngleAxisd(theta, Vec3::UnitZ()));
  const Quat qx(Eigen::AngleAxisd(alpha, Vec3::UnitX()));
  // Rz(θ)·Tz(d)·Tx(a)·Rx(α): translation = d·z + Rz(θ)·(a·x).
  return {qz * qx, Vec3(0, 0, d) + qz * Vec3(a, 0, 0)};
}

double jointValue(const Joint& joint, const std::vector<double>& dofValues) {
  double q = joint.inBreakAway ? joint.breakAwayDofValue
                               : (joint.expr.dof >= 0 && joint.expr.dof < static_cast<int>(dofValues.size())
                                      ? dofValues[joint.expr.dof]
                                      : 0.0);
  return joint.expr.ratio * q;
}

void computeDofRanges(Robot& robot) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> lo(robot.dofs.size(), -inf), hi(robot.dofs.size(), inf);
  std::vector<int> revolute(robot.dofs.size(), 0), prismatic(robot.dofs.size(), 0);
  for (const auto& chain : robot.chains)
    for (const auto& j : chain.joints) {
      const int k = j.expr.dof;
      if (k < 0 || k >= static_cast<int>(robot.dofs.size()) || j.expr.ratio == 0) continue;
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

std::vector<std::vector<Transform>> linkPoses(const Robot& robot, const std::vector<double>& dofValues) {
  std::vector<std::vector<Transform>> out;
  out.reserve(robot.chains.size());
  for (const auto& chain : robot.chains) {
    std::vector<Transform> jointFrames;  // frame after each joint
    Transform T = robot.pose * chain.base;
    for (const auto& j : chain.joints) {
      const double q = jointValue(j, dofValues);
      if (j.type == JointType::Revolute)
        T = T * dhTransform(q + j.expr.offset, j.d_mm, j.a_mm, j.alpha_rad);
      else
        T = T * dhTransform(j.theta_rad, q + j.expr.offset, j.a_mm, j.alpha_rad);
      jointFrames.push_back(T);
    }
    std::vector<Transform> poses;
    for (const auto& link : chain.links) {
      const int lj = link.lastJoint;
      poses.push_back(lj >= 0 && lj < static_cast<int>(jointFrames.size()) ? jointFrames[lj]
                                                                            : robot.pose * chain.base);
    }
    out.push_back(std::move(poses));
  }
  return out;
}

std::vector<double> dofValues(const Robot& robot) {
  std::vector<double> v;
  v.reserve(robot.dofs.size());
  for (const auto& d : robot.dofs) v.push_back(d.value);
  return v;
}

void updateLinkPoses(Robot& robot) {
  robot.palm.pose = robot.pose;
  const auto poses = linkPoses(robot, dofValues(robot));
  for (std::size_t c = 0; c < robot.chains.size(); ++c)
    for (std::size_t l = 0; l < robot.chains[c].links.size(); ++l) robot.chains[c].links[l].body.pose = poses[c][l];
}

void setDofValues(Robot& robot, const std::vector<double>& values) {
  const auto v = clampToRanges(robot, values);
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) robot.dofs[k].value = v[k];
  updateLinkPoses(robot);
}

void setRobotPose(Robot& robot, const Transform& pose) {
  robot.pose = pose;
  updateLinkPoses(robot);
}

}  // namespace sg
