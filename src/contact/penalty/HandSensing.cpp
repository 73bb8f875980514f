#include "contact/penalty/HandSensing.h"

#include <string>

#include "contact/CollisionFilter.h"
#include "core/Error.h"

namespace sg {

HandSensing senseHand(const World& world, WorldState& state, int robot, const PenaltySettings& penalty,
                      const std::optional<SqueezeSettings>& squeeze) {
  checkPenaltySettings(penalty);
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()))
    throw Error("sensing: no robot " + std::to_string(robot) + " in the world (it has " +
                std::to_string(world.robots.size()) + ")");
  HandSensing out;
  if (squeeze) out.squeeze = squeezeHand(world, state, robot, *squeeze);
  for (const auto& [a, b] : activePairs(world, CollisionSettings{}, robotBodies(world, robot, false))) {
    const bool aIsHand = a.kind == BodyHandle::Kind::Robot && a.index == robot;
    const BodyHandle& hand = aIsHand ? a : b;
    const BodyHandle& other = aIsHand ? b : a;
    if (other.kind == BodyHandle::Kind::Robot && other.index == robot) continue;  // self pairs: no sensor
    HandSensingRow row{hand, other, {}};
    bool squeezed = false;
    if (out.squeeze)
      for (const SqueezeContact& c : out.squeeze->contacts)
        if (c.sensing.contact.side1.body == hand && c.sensing.contact.side2.body == other) {
          row.sensing = c.sensing;
          squeezed = true;
        }
    if (!squeezed) row.sensing = sensePenaltyPair(world, state, hand, other, squeeze ? squeeze->penalty : penalty);
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace sg
