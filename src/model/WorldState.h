#pragma once
// Where things are, apart from what they are (src/model/README.md §Description and state). A World (World.h)
// describes bodies, robots and connections: geometry, kinematics, materials. A WorldState says where they
// are: the pose of each obstacle and graspable, per robot the palm pose, DOF values and break-away clutch
// state, and the poses derived from those by forward kinematics (links, mounted robots, mounts).
// Plain data: copying a state is cheap (no meshes), so a thread can evaluate its own state of one const World.
// Frames: W world, P palm (robot base), L link, M mount.
#include <vector>

#include "core/Transform.h"

namespace sg {

struct Robot;
struct BodyRef;
struct World;
struct BodyHandle;

// Break-away clutch state of one joint (break-away DOFs only): when active, the joint stays where the DOF
// value `dofValue` puts it while the DOF itself keeps moving.
struct JointBreakAway {
  bool active = false;
  double dofValue = 0;                       // rad or mm
  bool operator==(const JointBreakAway&) const = default;
};

using BreakAwayState = std::vector<std::vector<JointBreakAway>>;  // [chain][joint]

struct RobotState {
  Transform X_WP;                            // palm (robot base) in world
  std::vector<double> dofValues;             // rad or mm, one per DOF
  BreakAwayState breakAway;                  // [chain][joint]; missing entries = not in break-away
  // Derived by forwardKinematics from the three above: link poses in world, [chain][link].
  std::vector<std::vector<Transform>> X_WL;

  // True when pose, DOF values and break-away state are equal (the derived poses follow from them).
  bool sameMotionState(const RobotState& other) const;
};

struct WorldState {
  std::vector<Transform> X_WO;               // obstacles, by index
  std::vector<Transform> X_WG;               // graspables, by index
  std::vector<RobotState> robots;            // by robot index
  // Derived by updateConnections: mount bodies in world, by connection index (identity without a mount).
  std::vector<Transform> X_WM;
};

// --- robots ---

// DOF values at their defaults (clamped), no break-away, palm at X_WP; link poses computed.
RobotState defaultRobotState(const Robot& robot, const Transform& X_WP = {});
// Recomputes X_WL from X_WP, dofValues and breakAway (Kinematics.h linkPoses). Throws sg::Error for a bad
// chain tree.
void forwardKinematics(const Robot& robot, RobotState& state);
// Sets the DOF values (clamped to the ranges) and recomputes the link poses.
void setDofValues(const Robot& robot, RobotState& state, const std::vector<double>& dofValues);
// Sets the palm pose and recomputes the link poses.
void setRobotPose(const Robot& robot, RobotState& state, const Transform& X_WP);
// Break-away state of one joint (not in break-away when the state has no entry for it).
JointBreakAway breakAwayOf(const RobotState& state, std::size_t chain, std::size_t joint);
// Pose of a robot body in world: the palm (chain -1) or a link. Throws sg::Error when out of range.
const Transform& X_WB(const RobotState& state, const BodyRef& ref);

// --- worlds ---

// Pose in world of any body of the world. Throws sg::Error for an invalid handle or a state that does
// not fit the world.
const Transform& X_WB(const WorldState& state, const BodyHandle& body);
// Mutable pose of an obstacle, graspable or mount (robot bodies follow from their RobotState: sg::Error).
Transform& X_WB(WorldState& state, const BodyHandle& body);
// Moves child robots (and mounts) to the flanges of their parent robots (after a parent's DOFs or pose
// change), in connection order.
void updateConnections(const World& world, WorldState& state);
// Forward kinematics of every robot, then updateConnections.
void updatePoses(const World& world, WorldState& state);
// Sizes `state` to `world`: missing bodies at identity, missing robots at defaultRobotState, extra entries
// dropped; then updatePoses.
void fitState(const World& world, WorldState& state);
// True when `state` has an entry for every body and robot of `world` (and per robot one value per DOF).
bool fits(const World& world, const WorldState& state);
// Throws sg::Error unless fits(world, state). Engine entry points taking a state call it.
void requireFits(const World& world, const WorldState& state);

}  // namespace sg
