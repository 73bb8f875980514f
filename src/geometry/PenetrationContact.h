#pragma once
// The one contact point of a pair that touches or interpenetrates (README.md §Touching and overlapping pairs):
// its deepest point, with separation = −depth (0 when the bodies only touch). World frame, mm; normals inward,
// as in ProximityContacts.h.
#include <optional>

#include "geometry/ShapePairs.h"

namespace sg {

// nullopt when the pair neither touches nor overlaps (or has no geometry). Exact for pairs with a closed form
// (ShapePairs.h); for meshes the deepest vertex of either mesh inside the other (estimatePenetration), and
// where no vertex is inside, the closest report of the pair's triangles within options.threshold_mm: at depth 0
// with the faces' normals when its points coincide (the meshes only touch), else crossing edges, at depth = the
// distance between the edges, normals reversed.
// `witness`: the pair's distance-query witness kept between calls (signedSeparation); the same result without it.
std::optional<ContactPoint> penetrationContact(const PairSide& a, const PairSide& b, const ContactQueryOptions& options,
                                               IntersectionWitness* witness = nullptr);

// The same from a signed separation that is colliding (exactSeparation, signedSeparation).
ContactPoint penetrationPoint(const SeparationResult& r);

}  // namespace sg
