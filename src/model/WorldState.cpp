#include "model/WorldState.h"

#include <string>

#include "core/Error.h"
#include "model/Kinematics.h"
#include "model/World.h"

namespace sg {

namespace {

bool sameStatePose(const Transform& a, const Transform& b) {
  return a.rotation().coeffs() == b.rotation().coeffs() && a.translation() == b.translation();
}

}  // namespace

bool RobotState::sameMotionState(const RobotState& other) const {
  return sameStatePose(X_WP, other.X_WP) && dofValues == other.dofValues && breakAway == other.breakAway;
}

RobotState defaultRobotState(const Robot& robot, const Transform& X_WP) {
  RobotState s;
  s.X_WP = X_WP;
  std::vector<double> defaults;
  defaults.reserve(robot.dofs.size());
  for (const Dof& d : robot.dofs) defaults.push_back(d.defaultValue);
  s.dofValues = clampToRanges(robot, defaults);
  for (const Chain& chain : robot.chains) s.breakAway.emplace_back(chain.joints.size());
  forwardKinematics(robot, s);
  return s;
}

void forwardKinematics(const Robot& robot, RobotState& state) {
  state.X_WL = linkPoses(robot, state.X_WP, state.dofValues, state.breakAway);
}

void setDofValues(const Robot& robot, RobotState& state, const std::vector<double>& dofValues) {
  state.dofValues = clampToRanges(robot, dofValues);
  forwardKinematics(robot, state);
}

void setRobotPose(const Robot& robot, RobotState& state, const Transform& X_WP) {
  state.X_WP = X_WP;
  forwardKinematics(robot, state);
}

JointBreakAway breakAwayOf(const RobotState& state, std::size_t chain, std::size_t joint) {
  return chain < state.breakAway.size() && joint < state.breakAway[chain].size() ? state.breakAway[chain][joint]
                                                                                 : JointBreakAway{};
}

const Transform& X_WB(const RobotState& state, const BodyRef& ref) {
  if (ref.chain < 0) return state.X_WP;
  if (ref.chain >= static_cast<int>(state.X_WL.size()) || ref.link < 0 ||
      ref.link >= static_cast<int>(state.X_WL[ref.chain].size()))
    throw Error("robot state has no link " + std::to_string(ref.link) + " in chain " + std::to_string(ref.chain));
  return state.X_WL[ref.chain][ref.link];
}

namespace {

const Transform& at(const std::vector<Transform>& v, int i, const char* what) {
  if (i < 0 || i >= static_cast<int>(v.size()))
    throw Error(std::string("the world state has no ") + what + " " + std::to_string(i));
  return v[i];
}

}  // namespace

const Transform& X_WB(const WorldState& state, const BodyHandle& h) {
  using K = BodyHandle::Kind;
  switch (h.kind) {
    case K::Obstacle: return at(state.X_WO, h.index, "obstacle");
    case K::Graspable: return at(state.X_WG, h.index, "graspable");
    case K::Mount: return at(state.X_WM, h.index, "mount");
    case K::Robot: break;
  }
  if (h.index < 0 || h.index >= static_cast<int>(state.robots.size()))
    throw Error("the world state has no robot " + std::to_string(h.index));
  return X_WB(state.robots[h.index], h.ref);
}

Transform& X_WB(WorldState& state, const BodyHandle& h) {
  if (h.kind == BodyHandle::Kind::Robot)
    throw Error("a robot body's pose follows from its robot state (palm pose and DOF values)");
  return const_cast<Transform&>(X_WB(static_cast<const WorldState&>(state), h));
}

void updateConnections(const World& world, WorldState& state) {
  state.X_WM.resize(world.connections.size());
  for (std::size_t i = 0; i < world.connections.size(); ++i) {
    const Connection& c = world.connections[i];
    if (c.parentRobot < 0 || c.parentRobot >= static_cast<int>(world.robots.size()) || c.childRobot < 0 ||
        c.childRobot >= static_cast<int>(world.robots.size()) ||
        c.childRobot >= static_cast<int>(state.robots.size()) || c.parentRobot >= static_cast<int>(state.robots.size()))
      continue;
    const RobotState& parent = state.robots[c.parentRobot];
    if (c.parentChain < 0 || c.parentChain >= static_cast<int>(parent.X_WL.size())) continue;
    const auto& links = parent.X_WL[c.parentChain];
    const Transform flange = links.empty() ? parent.X_WP : links.back();
    if (c.mount) state.X_WM[i] = flange;
    setRobotPose(world.robots[c.childRobot], state.robots[c.childRobot], flange * c.offset);
  }
}

void updatePoses(const World& world, WorldState& state) {
  requireFits(world, state);
  for (std::size_t r = 0; r < world.robots.size(); ++r) forwardKinematics(world.robots[r], state.robots[r]);
  updateConnections(world, state);
}

void fitState(const World& world, WorldState& state) {
  state.X_WO.resize(world.obstacles.size());
  state.X_WG.resize(world.graspables.size());
  if (state.robots.size() > world.robots.size()) state.robots.resize(world.robots.size());
  for (std::size_t r = state.robots.size(); r < world.robots.size(); ++r)
    state.robots.push_back(defaultRobotState(world.robots[r]));
  for (std::size_t r = 0; r < world.robots.size(); ++r) {
    RobotState& s = state.robots[r];
    if (s.dofValues.size() != world.robots[r].dofs.size()) s.dofValues = clampToRanges(world.robots[r], s.dofValues);
  }
  state.X_WM.resize(world.connections.size());
  updatePoses(world, state);
}

void requireFits(const World& world, const WorldState& state) {
  if (!fits(world, state)) throw Error("the world state does not fit the world (bodies, robots or DOFs differ)");
}

bool fits(const World& world, const WorldState& state) {
  if (state.X_WO.size() != world.obstacles.size() || state.X_WG.size() != world.graspables.size() ||
      state.robots.size() != world.robots.size())
    return false;
  for (std::size_t r = 0; r < world.robots.size(); ++r)
    if (state.robots[r].dofValues.size() != world.robots[r].dofs.size()) return false;
  return true;
}

}  // namespace sg
