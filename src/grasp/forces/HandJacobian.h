#pragma once
// The hand Jacobian of a contact point (FORCES.md §Joint torques): per DOF of a robot, how fast a point fixed
// to one of its links moves and how fast that link turns per unit DOF rate, in world coordinates, from central
// differences of the forward kinematics (model/Kinematics.h linkPoses; coupled joints follow their DOF through
// its ratio, so a coupled DOF's column is the sum over its joints). The palm does not move with the DOFs: its
// columns are zero. A force F and moment M applied by the link at the point load DOF j with the generalised
// force τ_j = J_lin,j·F + J_ang,j·M (N·mm for a revolute DOF, N for a prismatic one).
#include <vector>

#include "model/Robot.h"
#include "model/WorldState.h"

namespace sg {

struct PointJacobian {
  std::vector<Vec3> linear;   // per DOF: ∂p_W/∂q_j, mm/rad (revolute) or mm/mm (prismatic)
  std::vector<Vec3> angular;  // per DOF: the link's angular velocity per unit rate, rad/rad or rad/mm
};

class HandJacobian {
 public:
  // Evaluates the kinematics at the state's DOF values ± a small step for every DOF (2·DOFs link-pose sets).
  HandJacobian(const Robot& robot, const RobotState& state);
  // The point p_W_mm attached to `link` (chain −1: the palm, zero columns). sg::Error for a bad reference.
  PointJacobian at(const BodyRef& link, const Vec3& p_W_mm) const;
  std::size_t dofCount() const { return plus_.size(); }

 private:
  const RobotState* state_;
  std::vector<std::vector<std::vector<Transform>>> plus_, minus_;  // [dof][chain][link]
  double step_ = 1e-6;  // rad or mm
};

}  // namespace sg
