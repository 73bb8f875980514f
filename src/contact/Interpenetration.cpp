#include "contact/Interpenetration.h"

#include <algorithm>

#include "contact/ContactDetection.h"
#include "core/NumberFormat.h"

namespace sg {

std::vector<Interpenetration> findInterpenetrations(const World& world, const WorldState& state,
                                                    const CollisionSettings& settings) {
  std::vector<Interpenetration> out;
  for (const auto& [a, b] : collidingPairs(world, state, settings)) {
    const PairSensing s = sensePair(world, state, a, b, settings);
    out.push_back({a, b, std::max(0.0, -s.separation_mm)});
  }
  // Stable: pairs of equal depth keep collidingPairs' order, so the list does not flicker between updates.
  std::stable_sort(out.begin(), out.end(),
                   [](const Interpenetration& x, const Interpenetration& y) { return x.depth_mm > y.depth_mm; });
  return out;
}

std::string describe(const World& world, const Interpenetration& pair) {
  auto label = [&](const BodyHandle& h) { return world.isValid(h) ? world.bodyLabel(h) : std::string("?"); };
  return label(pair.body1) + " <-> " + label(pair.body2) + " " + formatFixed(pair.depth_mm, 2) + " mm deep";
}

}  // namespace sg
