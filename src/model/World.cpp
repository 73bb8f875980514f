#include "model/World.h"

#include "model/Kinematics.h"

namespace sg {

std::size_t World::bodyCount() const {
  std::size_t n = obstacles.size() + graspables.size();
  for (const auto& r : robots) n += 1 + r.linkCount();
  for (const auto& c : connections) n += c.mount ? 1 : 0;
  return n;
}

void World::updateConnections() {
  for (auto& c : connections) {
    if (c.parentRobot < 0 || c.parentRobot >= static_cast<int>(robots.size()) || c.childRobot < 0 ||
        c.childRobot >= static_cast<int>(robots.size()))
      continue;
    const Robot& parent = robots[c.parentRobot];
    if (c.parentChain < 0 || c.parentChain >= static_cast<int>(parent.chains.size())) continue;
    const auto& links = parent.chains[c.parentChain].links;
    const Transform flange = links.empty() ? parent.pose : links.back().body.pose;
    if (c.mount) c.mount->pose = flange;
    setRobotPose(robots[c.childRobot], flange * c.offset);
  }
}

}  // namespace sg
