#pragma once
// Support functions of grasp wrench sets (QUALITY.md "Support functions"): for a direction u (6-D, object
// frame, wrench coordinates [f; τ/ρ]) the value h(u) = max over the set of w·u and a point achieving it.
// Nothing here builds a hull or a Minkowski sum; every call is O(number of wrenches). Plain data, pure
// functions, no Qt, thread-safe.
//
// Lower-dimensional spaces (GwsSettings::dimensions): the support function of the projected set in a
// direction u of the subspace is h(u) with zeros in the unused coordinates — pass such a u; the solver in
// SupportEpsilon.h does that for you.
#include <vector>

#include "contact/Contact.h"
#include "grasp/ContactWrenches.h"

namespace sg {

// h(u) and one maximiser w (a point of the set with w·u = h).
struct SupportPoint {
  double h = 0;
  Vec6 w = Vec6::Zero();
};

// L1: W = conv(all wrenches of all contacts). Empty input: h = −∞ and w = 0 (the empty set).
SupportPoint supportL1(const std::vector<std::vector<Vec6>>& perContactWrenches, const Vec6& u);

// L∞: W = ⊕ᵢ conv({0} ∪ Wᵢ), h(u) = Σᵢ max(0, maxⱼ wᵢⱼ·u). Always contains the origin (h ≥ 0).
SupportPoint supportLInfinity(const std::vector<std::vector<Vec6>>& perContactWrenches, const Vec6& u);

// The exact (not linearised) friction set of one contact, unit normal force, object frame, origin O = the
// wrench reference point (the object's CoG). Wrenches are w = [f; (p_OC × f + τ_n·n)/ρ] with
//   f = n + μ(x·t1 + y·t2),  τ_n = μ·e_n·z,  x² + y² + z² ≤ 1,
// i.e. the circular cone (torsion_mm = 0) or Howe–Cutkosky's elliptic soft-finger limit surface
// (f_t/μ)² + (τ_n/(μ e_n))² ≤ 1 (torsion_mm = e_n > 0). μ = 0: the normal only. The linearised edges of
// FrictionEdges.h lie on this surface, so they give an inscribed polytope (QUALITY.md "Support functions").
struct ExactContactCone {
  Vec3 p_OC_mm = Vec3::Zero();  // contact point relative to the wrench origin (CoG), object frame
  Vec3 n_O = Vec3::UnitZ();     // unit normal into the object (direction of the normal force)
  Vec3 t1_O = Vec3::UnitX();    // unit tangents, (t1, t2, n) orthonormal
  Vec3 t2_O = Vec3::UnitY();
  double mu = 0;                // friction coefficient μ ≥ 0
  double torsion_mm = 0;        // e_n = τmax/(μN) of a soft contact; 0 = point contact
};

// The cone of an object-side contact record (world frame) with the same frame and tangents as
// contactWrenches(): p_OC = position − CoG, (t1, t2, n) = objectContactFrame's axes, all in the object frame.
ExactContactCone exactConeFor(const ContactSide& onObject, double mu, double torsion_mm,
                              const WrenchReference& reference);

// One contact: with a_k = u·[d_k; (p_OC × d_k)/ρ] (d_k = n, t1, t2) and a_3 = u_τ·n/ρ,
// h(u) = a_n + μ·√(a_1² + a_2² + e_n²·a_3²).
SupportPoint supportExactCone(const ExactContactCone& cone, double torqueScale_mm, const Vec6& u);
// L1 / L∞ combinations of exact cones (as supportL1 / supportLInfinity with each contact's set exact).
SupportPoint supportExactL1(const std::vector<ExactContactCone>& cones, double torqueScale_mm, const Vec6& u);
SupportPoint supportExactLInfinity(const std::vector<ExactContactCone>& cones, double torqueScale_mm,
                                   const Vec6& u);

}  // namespace sg
