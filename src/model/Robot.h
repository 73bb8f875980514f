#pragma once
// A robot (hand or arm) as GraspIt! describes it: a palm, DOFs, chains (a tree) of joints driven by coupled
// DOF expressions, links, approach direction, eigengrasps and virtual contacts (README.md §Robot).
// Angles are radians at run time, lengths mm. Plain data describing what the robot is; where it is (palm
// pose, DOF values, break-away state, link poses) is a RobotState (WorldState.h). Kinematics is in Kinematics.h.
#include <optional>
#include <string>
#include <vector>

#include "model/Body.h"

namespace sg {

enum class DofType { Rigid, BreakAway, Compliant };  // XML "r", "b", "c"

struct Dof {
  DofType type = DofType::Rigid;
  double defaultVelocity = 0;       // auto-grasp direction/speed; 0 = not moved by auto-grasp
  double defaultValue = 0;          // rad (revolute) or mm (prismatic); not converted for prismatic DOFs
  double maxEffort = 0, kp = 0, kd = 0, draggerScale = 0;
  double breakAwayTorque = 0;       // as written in the file (GraspIt! multiplies by 1e3)
  double minValue = 0, maxValue = 0;  // range from the joint limits (see computeDofRanges)
  bool prismatic = false;           // true if the DOF drives only prismatic joints
};

enum class JointType { Revolute, Prismatic, Fixed };

// jointValue = ratio × dofValue (GraspIt!'s joint value; URDF mimic: multiplier). The joint moves by
// q = jointValue + offset (rad or mm): a DH expression's offset, URDF mimic's offset.
struct DofExpression {
  int dof = 0;                       // -1: driven by no DOF (fixed joints)
  double ratio = 1.0;
  double offset = 0.0;
};

// DH parameters as a GraspIt! file gives them. For the variable one (theta of a revolute joint, d of a
// prismatic one) this is the constant part the motion q is added to (0 in GraspIt! files).
struct DhParameters {
  double theta_rad = 0, d_mm = 0, a_mm = 0, alpha_rad = 0;
  bool operator==(const DhParameters&) const = default;
};

// A general joint (URDF-like): previous frame P → joint frame J (X_PJ), motion about/along `axis` in J by
// q, then J after the motion → child frame C (X_JC). Frame after the joint = P · X_PJ · Motion(axis, q) · X_JC.
// Build DH joints with fromDh (Kinematics.h); URDF joints have X_JC = identity.
struct Joint {
  JointType type = JointType::Revolute;
  Transform X_PJ;                    // previous joint's child frame (or chain base) -> joint frame
  Vec3 axis = Vec3::UnitZ();         // unit; rotation axis (revolute) or direction (prismatic), joint frame
  Transform X_JC;                    // joint frame after the motion -> child frame
  DofExpression expr;
  double minValue = 0, maxValue = 0;  // limits on jointValue (rad or mm), offset excluded as in GraspIt!
  std::optional<DhParameters> dh;    // the DH parameters it was built from, if any (kept for writing)
  double viscousFriction = 0, coulombFriction = 0, springStiffness = 0, restValue = 0;
};

enum class LinkJointType { Revolute, Prismatic, Universal, Ball };

struct Link {
  Body body;
  LinkJointType jointType = LinkJointType::Revolute;
  int lastJoint = 0;                 // index of the last joint preceding this link in its chain
  bool collisionOff = false;         // collisionRule="Off"
};

struct BodyRef {                     // names a robot body: chain -1 = palm
  int chain = -1;
  int link = 0;
  bool operator==(const BodyRef&) const = default;
};

struct Chain {
  // The body the chain hangs off: none (or chain -1) = the palm; otherwise a link of an earlier chain
  // (parent chains come before their children), which makes branching fingers representable.
  std::optional<BodyRef> parent;
  Transform base;                    // parent body frame -> chain base frame
  std::vector<Joint> joints;         // in order; each one's previous frame is the one before it
  std::vector<Link> links;
};

struct EigenGrasp {
  double eigenValue = 0.5;
  VecX direction;                    // unit length, one entry per DOF
  std::optional<double> minAmplitude, maxAmplitude;  // <Limits>
};

struct EigenGraspSet {
  std::vector<EigenGrasp> grasps;
  VecX origin;                       // DOF-space origin
  VecX norm;                         // per-DOF scale (default all 1)
  bool hasOrigin = false;
  std::string sourceFile;
  bool empty() const { return grasps.empty(); }
};

struct VirtualContact {
  int chain = -1;                    // -1 = palm
  int link = 0;
  std::vector<Vec6> frictionEdges;   // (fx, fy, 0, 0, 0, τz) in the contact frame
  Vec3 location_mm = Vec3::Zero();   // link frame
  Transform frame;                   // contact frame in the link frame
  Vec3 normal = Vec3::UnitZ();       // outward, link frame
  double mu = 0;
};

struct ApproachDirection {
  Vec3 reference_mm = Vec3::Zero();
  Vec3 direction = Vec3::UnitZ();
};

struct Robot {
  std::string name;                  // file stem
  std::string type = "Hand";         // the XML type attribute
  std::string dbName;
  std::string sourceFile;            // absolute path of the robot XML (as a world names it: io/FileHistory.h)

  Body palm;
  std::vector<Dof> dofs;
  std::vector<Chain> chains;
  std::optional<Transform> approach; // approachTran in palm coordinates (z = approach direction)
  EigenGraspSet eigengrasps;
  std::vector<VirtualContact> virtualContacts;
  std::vector<std::pair<BodyRef, BodyRef>> disabledPairs;  // <disableCollision> and OverlappingPair rules
  // What the loader worked around instead of failing (e.g. a named eigengrasp or virtual-contact file that
  // does not exist, as in some shipped GraspIt! hands): one "file:line: problem" line each.
  std::vector<std::string> loadWarnings;

  std::size_t dofCount() const { return dofs.size(); }
  std::size_t linkCount() const;
  // The body for a reference; chain -1 is the palm. Throws sg::Error when out of range.
  const Body& body(const BodyRef& ref) const;
  Body& body(const BodyRef& ref);
  // Every body of the robot: palm first, then links chain by chain.
  std::vector<BodyRef> bodyRefs() const;
};

}  // namespace sg
