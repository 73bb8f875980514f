#pragma once
// The collision answer of the exact pair queries (ShapePairs.h) on its own: cheaper than the separation where the
// nearest pair need not be found. Defined in ShapePairs.cpp, which holds the pair queries it shares.
#include <optional>

#include "geometry/ShapePairs.h"

namespace sg {

// exactSeparation(a, b)->colliding, the same answer (nullopt where there is no exact query); capsule–mesh searches
// only within the radius + 1e-6 mm (src/geometry/README.md §Pair queries).
std::optional<bool> exactCollision(const PairSide& a, const PairSide& b);

}  // namespace sg
