#pragma once
// A robot (hand or arm) as GraspIt! describes it: a palm, DOFs, chains of DH joints driven by coupled DOF
// expressions, links, approach direction, eigengrasps and virtual contacts (graspit-compat §1.2–§1.4).
// Angles are radians at run time, lengths mm. Plain data; kinematics is in Kinematics.h.
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
  double value = 0;                 // current value, rad or mm
  double minValue = 0, maxValue = 0;  // range from the joint limits (see computeDofRanges)
  bool prismatic = false;           // true if the DOF drives only prismatic joints
};

enum class JointType { Revolute, Prismatic };

// jointValue = ratio × dofValue; DH parameter = jointValue + offset (rad or mm).
struct DofExpression {
  int dof = 0;
  double ratio = 1.0;
  double offset = 0.0;
};

struct Joint {
  JointType type = JointType::Revolute;
  DofExpression expr;
  // The fixed DH parameters; the variable one (theta for revolute, d for prismatic) comes from expr.
  double theta_rad = 0, d_mm = 0, a_mm = 0, alpha_rad = 0;
  double minValue = 0, maxValue = 0;  // limits on jointValue (rad or mm), offset excluded
  double viscousFriction = 0, coulombFriction = 0, springStiffness = 0, restValue = 0;
  // Break-away clutch state (break-away DOFs only): when set, this joint stays at the DOF value
  // `breakAwayDofValue` while the DOF itself keeps moving.
  bool inBreakAway = false;
  double breakAwayDofValue = 0;
};

enum class LinkJointType { Revolute, Prismatic, Universal, Ball };

struct Link {
  Body body;
  LinkJointType jointType = LinkJointType::Revolute;
  int lastJoint = 0;                 // index of the last joint preceding this link in its chain
  bool collisionOff = false;         // collisionRule="Off"
  std::string fileAsWritten;         // link body file as named in the robot XML
};

struct Chain {
  Transform base;                    // palm frame -> chain base frame
  std::vector<Joint> joints;
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

struct BodyRef {                     // names a robot body: chain -1 = palm
  int chain = -1;
  int link = 0;
  bool operator==(const BodyRef&) const = default;
};

struct ApproachDirection {
  Vec3 reference_mm = Vec3::Zero();
  Vec3 direction = Vec3::UnitZ();
};

struct Robot {
  std::string name;                  // file stem
  std::string type = "Hand";         // the XML type attribute
  std::string dbName;
  std::string sourceFile;            // absolute path of the robot XML
  std::string fileAsWritten;         // as named in the world file

  Body palm;
  std::vector<Dof> dofs;
  std::vector<Chain> chains;
  Transform pose;                    // world pose of the palm/base
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
