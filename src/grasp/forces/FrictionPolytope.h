#pragma once
// Polyhedral approximations of a contact's friction set for the grasp force optimisation (FORCES.md
// §Friction polytopes). A contact's exact set, per unit normal force and in normalised coordinates
// (x, y, z) = (f_t1/μ, f_t2/μ, τ_n/(μ e_n)), is the unit disc (point contact, z = 0) or the unit ball (the
// soft finger's elliptic limit surface, WrenchSupport.h ExactContactCone). The polytopes here are the convex
// hulls of points on that boundary, so they lie inside it; `inradius` r is the largest r with r·(disc or ball)
// inside the polytope, so scaling the polytope by 1/r encloses the exact set. Both facts carry over to every
// contact's real set, which is a linear image (diag(μ, μ, μ e_n)) of the normalised one.
#include <vector>

#include "core/Math.h"

namespace sg {

struct FrictionPolytope {
  std::vector<Vec3> points;  // (x, y, z) on the unit disc's circle (z = 0) or the unit sphere
  double inradius = 1;       // r: r·(exact set) ⊆ conv(points) ⊆ exact set
};

// The regular polygon of `edges` ≥ 3 vertices on the unit circle, starting at (1, 0): r = cos(π/edges).
FrictionPolytope discPolytope(int edges);

// Points on the unit sphere on latitudes k·90°/`latitudes` (k = −latitudes..latitudes), each ring with
// round(edges·cos φ) (at least 3, the poles 1) equally spaced longitudes; r from the hull's facets.
// edges ≥ 3, latitudes ≥ 1.
FrictionPolytope ballPolytope(int edges, int latitudes);

// The smallest distance from the origin to a facet plane of conv(points) (3-D, the origin inside): every
// plane through three of the points with all points on one side is a facet's. O(n⁴); for the few dozen
// points of a friction polytope.
double hullInradius(const std::vector<Vec3>& points);

}  // namespace sg
