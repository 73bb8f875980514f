#include "contact/CollisionFilter.h"

#include <algorithm>

namespace sg {

namespace {

using HandleKind = BodyHandle::Kind;

bool hasGeometry(const Body& b) { return b.mesh && !b.mesh->empty(); }

// Rules internal to one robot (both handles are bodies of robot `r`).
bool robotPairAllowed(const Robot& robot, const BodyRef& a, const BodyRef& b) {
  if (a.chain >= 0 && a.chain == b.chain) return false;  // links of one chain
  if (a.chain < 0 && b.chain >= 0 && b.link == 0) return false;  // palm vs first links
  if (b.chain < 0 && a.chain >= 0 && a.link == 0) return false;
  for (const auto& [x, y] : robot.disabledPairs)
    if ((x == a && y == b) || (x == b && y == a)) return false;
  return true;
}

bool collisionOff(const World& w, const BodyHandle& h) {
  if (h.kind != HandleKind::Robot || h.ref.chain < 0) return false;
  return w.robots[h.index].chains[h.ref.chain].links[h.ref.link].collisionOff;
}

// A mounted hand touches its arm's flange link and its mount by construction.
bool mountPairAllowed(const World& w, const BodyHandle& a, const BodyHandle& b) {
  for (int i = 0; i < static_cast<int>(w.connections.size()); ++i) {
    const Connection& c = w.connections[i];
    const BodyHandle childPalm{HandleKind::Robot, c.childRobot, {-1, 0}};
    BodyHandle flange{HandleKind::Robot, c.parentRobot, {c.parentChain, 0}};
    if (c.parentRobot >= 0 && c.parentRobot < static_cast<int>(w.robots.size()) && c.parentChain >= 0 &&
        c.parentChain < static_cast<int>(w.robots[c.parentRobot].chains.size())) {
      const auto& links = w.robots[c.parentRobot].chains[c.parentChain].links;
      flange.ref.link = links.empty() ? 0 : static_cast<int>(links.size()) - 1;
      if (links.empty()) flange.ref = {-1, 0};
    }
    const BodyHandle mount{HandleKind::Mount, i, {}};
    auto is = [&](const BodyHandle& x, const BodyHandle& y) { return (a == x && b == y) || (a == y && b == x); };
    if (is(childPalm, flange) || is(childPalm, mount) || is(flange, mount)) return false;
  }
  return true;
}

}  // namespace

bool collisionAllowed(const World& world, const BodyHandle& a, const BodyHandle& b, const CollisionSettings& s) {
  if (a == b || !world.isValid(a) || !world.isValid(b)) return false;
  const Body& ba = world.body(a);
  const Body& bb = world.body(b);
  if (!ba.collisionEnabled || !bb.collisionEnabled) return false;
  if (collisionOff(world, a) || collisionOff(world, b)) return false;
  if (s.isBodyDisabled(a) || s.isBodyDisabled(b)) return false;
  if (!s.checkStaticPairs && a.kind == HandleKind::Obstacle && b.kind == HandleKind::Obstacle) return false;
  if (a.kind == HandleKind::Robot && b.kind == HandleKind::Robot && a.index == b.index &&
      !robotPairAllowed(world.robots[a.index], a.ref, b.ref))
    return false;
  if (!mountPairAllowed(world, a, b)) return false;
  return !s.isUserDisabled(a, b);
}

std::vector<BodyPair> activePairs(const World& world, const CollisionSettings& settings,
                                  const std::vector<BodyHandle>& involving) {
  std::vector<BodyHandle> all;
  for (const auto& h : world.bodyHandles())
    if (hasGeometry(world.body(h))) all.push_back(h);
  auto listed = [&](const BodyHandle& h) { return std::find(involving.begin(), involving.end(), h) != involving.end(); };
  std::vector<BodyPair> pairs;
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      if (!involving.empty() && !listed(all[i]) && !listed(all[j])) continue;
      if (collisionAllowed(world, all[i], all[j], settings)) pairs.emplace_back(all[i], all[j]);
    }
  return pairs;
}

namespace {
void collectRobotBodies(const World& world, int robot, bool includeMounted, std::vector<int>& visited,
                        std::vector<BodyHandle>& out) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size())) return;
  if (std::find(visited.begin(), visited.end(), robot) != visited.end()) return;  // cyclic connections
  visited.push_back(robot);
  for (const auto& ref : world.robots[robot].bodyRefs()) out.push_back({HandleKind::Robot, robot, ref});
  if (!includeMounted) return;
  for (int i = 0; i < static_cast<int>(world.connections.size()); ++i) {
    const Connection& c = world.connections[i];
    if (c.parentRobot != robot) continue;
    if (c.mount) out.push_back({HandleKind::Mount, i, {}});
    collectRobotBodies(world, c.childRobot, true, visited, out);
  }
}
}  // namespace

std::vector<BodyHandle> robotBodies(const World& world, int robot, bool includeMounted) {
  std::vector<BodyHandle> out;
  std::vector<int> visited;
  collectRobotBodies(world, robot, includeMounted, visited, out);
  return out;
}

}  // namespace sg
