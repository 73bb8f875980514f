#include "model/World.h"

#include <algorithm>

#include "core/Error.h"
#include "model/Kinematics.h"

namespace sg {

std::size_t World::bodyCount() const {
  std::size_t n = obstacles.size() + graspables.size();
  for (const auto& r : robots) n += 1 + r.linkCount();
  for (const auto& c : connections) n += c.mount ? 1 : 0;
  return n;
}

int World::addObstacle(Body body, const Transform& X_WO) {
  obstacles.push_back(std::move(body));
  state.X_WO.resize(obstacles.size() - 1);
  state.X_WO.push_back(X_WO);
  return static_cast<int>(obstacles.size()) - 1;
}

int World::addGraspable(Body body, const Transform& X_WG) {
  graspables.push_back(std::move(body));
  state.X_WG.resize(graspables.size() - 1);
  state.X_WG.push_back(X_WG);
  return static_cast<int>(graspables.size()) - 1;
}

int World::addRobot(Robot robot, const Transform& X_WP) {
  RobotState s = defaultRobotState(robot, X_WP);
  return addRobot(std::move(robot), std::move(s));
}

int World::addRobot(Robot robot, RobotState robotState) {
  robotState.dofValues = clampToRanges(robot, robotState.dofValues);
  forwardKinematics(robot, robotState);
  robots.push_back(std::move(robot));
  fitState(*this, state);  // earlier robots keep their state; the new one takes its place
  state.robots.back() = std::move(robotState);
  updateConnections();
  return static_cast<int>(robots.size()) - 1;
}

void World::removeLastObstacle() {
  if (obstacles.empty()) return;
  obstacles.pop_back();
  state.X_WO.resize(obstacles.size());
}

void World::removeLastGraspable() {
  if (graspables.empty()) return;
  graspables.pop_back();
  state.X_WG.resize(graspables.size());
}

void World::removeLastRobot() {
  if (robots.empty()) return;
  robots.pop_back();
  state.robots.resize(robots.size());
  updateConnections();
}

}  // namespace sg

namespace sg {

std::vector<BodyHandle> World::bodyHandles() const {
  std::vector<BodyHandle> out;
  using K = BodyHandle::Kind;
  for (int i = 0; i < static_cast<int>(obstacles.size()); ++i) out.push_back({K::Obstacle, i, {}});
  for (int i = 0; i < static_cast<int>(graspables.size()); ++i) out.push_back({K::Graspable, i, {}});
  for (int r = 0; r < static_cast<int>(robots.size()); ++r)
    for (const auto& ref : robots[r].bodyRefs()) out.push_back({K::Robot, r, ref});
  for (int c = 0; c < static_cast<int>(connections.size()); ++c)
    if (connections[c].mount) out.push_back({K::Mount, c, {}});
  return out;
}

namespace {
void addOnce(std::vector<std::string>& out, const std::vector<std::string>& more) {
  for (const auto& w : more)
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);  // links often share a file
}
}  // namespace

std::vector<std::string> World::loadWarnings() const {
  std::vector<std::string> out;
  for (const Robot& r : robots) addOnce(out, r.loadWarnings);
  for (const BodyHandle& h : bodyHandles()) addOnce(out, body(h).loadWarnings);
  return out;
}

std::vector<std::string> World::robotLoadWarnings(int robot) const {
  std::vector<std::string> out;
  if (robot < 0 || robot >= static_cast<int>(robots.size())) return out;
  addOnce(out, robots[robot].loadWarnings);
  for (const auto& ref : robots[robot].bodyRefs()) addOnce(out, body({BodyHandle::Kind::Robot, robot, ref}).loadWarnings);
  return out;
}

bool World::isValid(const BodyHandle& h) const {
  using K = BodyHandle::Kind;
  switch (h.kind) {
    case K::Obstacle: return h.index >= 0 && h.index < static_cast<int>(obstacles.size());
    case K::Graspable: return h.index >= 0 && h.index < static_cast<int>(graspables.size());
    case K::Mount:
      return h.index >= 0 && h.index < static_cast<int>(connections.size()) && connections[h.index].mount.has_value();
    case K::Robot: {
      if (h.index < 0 || h.index >= static_cast<int>(robots.size())) return false;
      const Robot& r = robots[h.index];
      if (h.ref.chain < 0) return true;
      return h.ref.chain < static_cast<int>(r.chains.size()) && h.ref.link >= 0 &&
             h.ref.link < static_cast<int>(r.chains[h.ref.chain].links.size());
    }
  }
  return false;
}

const Body& World::body(const BodyHandle& h) const {
  if (!isValid(h)) throw Error("no such body in the world");
  using K = BodyHandle::Kind;
  switch (h.kind) {
    case K::Obstacle: return obstacles[h.index];
    case K::Graspable: return graspables[h.index];
    case K::Mount: return *connections[h.index].mount;
    case K::Robot: break;
  }
  return robots[h.index].body(h.ref);
}

Body& World::body(const BodyHandle& h) { return const_cast<Body&>(static_cast<const World&>(*this).body(h)); }

std::string World::bodyLabel(const BodyHandle& h) const {
  const Body& b = body(h);
  if (h.kind != BodyHandle::Kind::Robot) return b.name;
  const std::string& rn = robots[h.index].name;
  if (h.ref.chain < 0) return rn + "/palm";
  return rn + "/chain" + std::to_string(h.ref.chain) + "/link" + std::to_string(h.ref.link);
}

}  // namespace sg
