#pragma once
// Forward kinematics of GraspIt!-style robots: T = Rz(θ)·Tz(d)·Tx(a)·Rx(α) per joint,
// jointValue = ratio·dofValue, DH value = jointValue + offset (graspit-compat §1.2).
#include <vector>

#include "model/Robot.h"

namespace sg {

// The standard DH transform.
Transform dhTransform(double theta_rad, double d_mm, double a_mm, double alpha_rad);

// jointValue (rad or mm, offset excluded) of `joint` for the given DOF values; a joint in break-away
// uses its stored break-away DOF value instead.
double jointValue(const Joint& joint, const std::vector<double>& dofValues);

// Sets DOF ranges to the intersection over their joints of [min/ratio, max/ratio] (swapped for a
// negative ratio). A DOF no joint uses keeps its range. Also marks prismatic DOFs.
void computeDofRanges(Robot& robot);

// Clamps every DOF value into its range.
std::vector<double> clampToRanges(const Robot& robot, std::vector<double> dofValues);

// Poses (world frame) of every link, per chain, for the given DOF values and robot pose.
std::vector<std::vector<Transform>> linkPoses(const Robot& robot, const std::vector<double>& dofValues);

// Sets the DOF values (clamped) and updates palm and link body poses in place.
void setDofValues(Robot& robot, const std::vector<double>& dofValues);
// Re-derives palm and link poses from the robot pose and the current DOF values.
void updateLinkPoses(Robot& robot);
// Sets the robot's world pose and updates link poses.
void setRobotPose(Robot& robot, const Transform& pose);

std::vector<double> dofValues(const Robot& robot);

}  // namespace sg
