#pragma once
// The interpenetrating body pairs of a world (README.md §Sensing outputs): every allowed pair that collides, with
// its penetration-depth estimate, deepest first. A world loaded that way, or bodies moved with collision
// checking off, is in an illegal state (src/geometry/README.md): such pairs give no ordinary contacts, so the
// application draws them red and names them, and `softgrasp-cli info` warns about them.
#include <string>
#include <vector>

#include "contact/CollisionSettings.h"
#include "model/World.h"

namespace sg {

struct Interpenetration {
  BodyHandle body1, body2;  // as collidingPairs orders them
  double depth_mm = 0;      // > 0 normally; 0 when the pair only touches
};

// Throws what collidingPairs / sensePair throw (sg::Error for a body without usable geometry).
std::vector<Interpenetration> findInterpenetrations(const World& world, const WorldState& state,
                                                    const CollisionSettings& settings = {});
inline std::vector<Interpenetration> findInterpenetrations(const World& world, const CollisionSettings& settings = {}) {
  return findInterpenetrations(world, world.state, settings);
}

// "A <-> B 8.20 mm deep" (World::bodyLabel names, depth to 0.01 mm as the application shows it).
std::string describe(const World& world, const Interpenetration& pair);

}  // namespace sg
