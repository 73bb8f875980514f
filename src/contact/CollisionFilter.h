#pragma once
// Which body pairs of a world may collide (src/contact/README.md §Active pairs):
// never a body with itself, links of one chain with each other, the palm with the first link of each
// chain, a robot's <disableCollision>/OverlappingPair rules, links with collisionRule="Off", bodies with
// collisionEnabled = false, bodies the user switched off (CollisionSettings::disabledBodies), a mounted
// hand's palm with its arm's last link and mount, user-disabled pairs, and (by default) two obstacles.
#include <utility>
#include <vector>

#include "contact/CollisionSettings.h"

namespace sg {

using BodyPair = std::pair<BodyHandle, BodyHandle>;

bool collisionAllowed(const World& world, const BodyHandle& a, const BodyHandle& b, const CollisionSettings& settings);

// Every allowed pair of bodies that have geometry. With `involving` non-empty, only pairs with at
// least one body from that list.
std::vector<BodyPair> activePairs(const World& world, const CollisionSettings& settings,
                                  const std::vector<BodyHandle>& involving = {});

// Every body of robot `robot` (palm, links), plus the bodies of robots mounted on it (recursively) and
// their mounts: the bodies that move when the robot's pose changes.
std::vector<BodyHandle> robotBodies(const World& world, int robot, bool includeMounted = true);

}  // namespace sg
