#pragma once
// Forward kinematics of robots made of general joints (Robot.h): frame after a joint =
// previous frame · X_PJ · Motion(axis, q) · X_JC, q = ratio·dofValue + offset. GraspIt!'s DH joints
// (T = Rz(θ)·Tz(d)·Tx(a)·Rx(α), DH variable = jointValue + offset, src/model/README.md §DH joints) are built by fromDh.
#include <vector>

#include "model/Robot.h"
#include "model/WorldState.h"

namespace sg {

// The standard DH transform.
Transform dhTransform(double theta_rad, double d_mm, double a_mm, double alpha_rad);

// A joint equivalent to the DH transform Rz(θ)·Tz(d)·Tx(a)·Rx(α) whose variable parameter (θ for
// revolute, d for prismatic) is dh's value + q; a fixed joint is the constant DH transform. Since
// Rz(θ0 + q) = Rz(q)·Rz(θ0) and Tz commutes with Rz: X_PJ = I, axis z, X_JC = the DH transform at q = 0.
// Keeps `dh` on the joint for writers and reports.
Joint fromDh(const DhParameters& dh, JointType type, const DofExpression& expr, double minValue = 0,
             double maxValue = 0);

// A joint from its URDF-like parts (X_JC = identity): `axis` is normalised; a fixed joint is driven by no
// DOF (expr.dof = -1).
Joint generalJoint(JointType type, const Transform& X_PJ, const Vec3& axis, const DofExpression& expr = {},
                   double minValue = 0, double maxValue = 0);

// The DH parameters of a DH-built joint at motion q: the variable one holds its current value.
DhParameters dhAt(const DhParameters& dh, JointType type, double q);

// Motion(axis, q): rotation by q rad about the axis (revolute), translation by q mm along it (prismatic),
// identity (fixed).
Transform jointMotion(const Joint& joint, double q);
// X_PJ · Motion(axis, q) · X_JC: previous frame -> frame after the joint.
Transform jointTransform(const Joint& joint, double q);

// jointValue (rad or mm, offset excluded) of `joint` for the given DOF values; a joint in break-away
// (breakAway.active) uses its break-away DOF value instead.
double jointValue(const Joint& joint, const std::vector<double>& dofValues, const JointBreakAway& breakAway = {});
// The motion q = jointValue + offset (0 for a fixed joint).
double jointMotionValue(const Joint& joint, const std::vector<double>& dofValues,
                        const JointBreakAway& breakAway = {});

// Sets DOF ranges to the intersection over their joints of [min/ratio, max/ratio] (swapped for a
// negative ratio). A DOF no joint uses keeps its range. Also marks prismatic DOFs.
void computeDofRanges(Robot& robot);

// Clamps every DOF value into its range.
std::vector<double> clampToRanges(const Robot& robot, std::vector<double> dofValues);

// Throws sg::Error unless every chain's parent is the palm or a link of an earlier chain.
void checkChainTree(const Robot& robot);

// Poses in world of every link, per chain, for the palm pose X_WP, the DOF values and the break-away state
// ([chain][joint]; missing entries are not in break-away). A chain hanging off a link starts from that
// link's pose. Throws sg::Error for a bad chain tree (checkChainTree). RobotState keeps these
// (WorldState.h forwardKinematics).
std::vector<std::vector<Transform>> linkPoses(const Robot& robot, const Transform& X_WP,
                                              const std::vector<double>& dofValues,
                                              const BreakAwayState& breakAway = {});

// Per chain, each joint's origin in world (mm): the origin of its joint frame, (frame before it) · X_PJ, a
// point on its axis; for the same arguments as linkPoses.
std::vector<std::vector<Vec3>> jointOrigins(const Robot& robot, const Transform& X_WP,
                                            const std::vector<double>& dofValues,
                                            const BreakAwayState& breakAway = {});

// Reach bound (model/README.md §Reach bound): how far (mm) any point of a ball attached to link `link` (centre
// p_W_mm in world, radius r_mm) can move when every joint's motion changes by at most jointTravel[chain][joint]
// (rad or mm) from the state that `origins_W` (jointOrigins) describes, the palm fixed, in any combination:
// the sum over the joints from the palm to the link of travel × (|p_W_mm − origin| + r_mm) for a revolute joint,
// travel for a prismatic one.
double linkBallReach(const Robot& robot, const std::vector<std::vector<Vec3>>& origins_W, const BodyRef& link,
                     const Vec3& p_W_mm, double r_mm, const std::vector<std::vector<double>>& jointTravel);

}  // namespace sg
