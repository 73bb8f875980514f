#pragma once
// Exact pair queries for bodies whose geometry is an analytic primitive (README.md §Pair queries): closed
// forms where they exist, else nullopt and the caller uses the meshes (Proximity.h, ProximityContacts.h).
// Pairs with a closed form:
//   sphere – any primitive        centre against the other's exact nearest point
//   capsule – capsule             segment–segment closest points
//   convex primitive – half-space support point along the plane normal (torus: its convex hull's, exact too)
//   sphere – mesh                 centre against the mesh's triangles (exact for the mesh)
//   capsule – mesh                axis segment against the mesh's triangles (exact for the mesh)
//   half-space – mesh             the mesh's lowest vertex (exact for the mesh)
// World frame, mm; normals are inward (into their own body), as in ProximityContacts.h.
#include <optional>

#include "geometry/Bvh.h"
#include "geometry/Proximity.h"
#include "geometry/ProximityContacts.h"
#include "geometry/Shapes.h"

namespace sg {

// One side of a pair: the body's primitive (null for a plain mesh body) and/or its mesh BVH, placed by the
// body pose X_WB. The primitive is in the body frame (Primitive::X_BS).
struct PairSide {
  const Primitive* primitive = nullptr;
  const Bvh* bvh = nullptr;
  Transform X_WB;
};

// Whether the pair has a closed form (then the functions below give a value).
bool hasExactPairQuery(const PairSide& a, const PairSide& b);

// Signed separation (negative = penetration depth, exact for primitive pairs; for sphere–mesh the sphere's
// depth below the nearest triangle, for capsule–mesh the axis's), witness points and inward normals. colliding = separation ≤ 0, as
// touching meshes collide.
std::optional<SeparationResult> exactSeparation(const PairSide& a, const PairSide& b);

// Contact points within options.threshold_mm: the exact closest pair, plus, where the touching set is not a
// single point (a box face, a cylinder rim, a capsule or mesh lying flat), the other support features within
// the threshold; then duplicate removal, compaction and the normal check as for meshes.
std::optional<MeshContacts> exactContacts(const PairSide& a, const PairSide& b, const ContactQueryOptions& options);

}  // namespace sg
