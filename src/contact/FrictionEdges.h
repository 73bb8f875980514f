#pragma once
// Friction edges: the linearised friction cone / soft-finger limit surface of one contact
// (src/contact/README.md §Friction edges).
//
// An edge is a 6-vector (fx, fy, 0, 0, 0, τz) in the contact frame for a UNIT normal force, friction
// coefficient not applied (GraspIt!'s layout, also the <friction_edge> text of virtual contacts). The
// contact wrench of an edge is  f = n + μ(fx·t_x + fy·t_y),  τ_n = μ·τz  (ContactWrenches.h), so the edges
// sample the limit surface  (f_t / μN)² + (τ_n / (μ N e_n))² = 1  (Howe–Cutkosky's ellipse, e_n in mm).
#include <vector>

#include "contact/Contact.h"
#include "core/Math.h"

namespace sg {

// `directions` samples equally spaced in longitude θ_j = 2πj/directions on one latitude φ (degrees).
struct FrictionRing {
  double latitude_deg = 0;
  int directions = 8;
};

struct FrictionEdgeSettings {
  int pointContactEdges = 8;  // m-edge pyramid for a point contact with friction (GraspIt!: 8)
  // Soft contact: GraspIt!'s 20 edges, {1, 5, 8, 5, 1} directions on latitudes {90, 45, 0, −45, −90}°.
  std::vector<FrictionRing> softRings = {{90, 1}, {45, 5}, {0, 8}, {-45, 5}, {-90, 1}};
};

// Samples the ellipsoid with semi-axes (e0, e1, e2) = (tangent x, tangent y, torsion): each direction
// d = (cos θ cos φ, sin θ cos φ, sin φ) scaled onto the surface. Rings in order, θ from 0.
std::vector<Vec6> sampleFrictionEllipsoid(const Vec3& semiAxes, const std::vector<FrictionRing>& rings);

// The range of direction counts the settings accept (a pyramid needs 3 edges; 64 is plenty for any ε).
inline constexpr int kMinFrictionDirections = 3, kMaxFrictionDirections = 64;

// Soft limit-surface sampling from one number, the directions on the equator m (clamped to the range above):
// GraspIt!'s ring pattern {1, 5, 8, 5, 1} on latitudes {90, 45, 0, −45, −90}° scaled to
// {1, round(5m/8), m, round(5m/8), 1} (at least 3 on the ±45° rings).
std::vector<FrictionRing> softRingsWithEquator(int equatorDirections);
// The equator directions of a ring list (the ring at latitude 0; 8 if there is none).
int equatorDirectionsOf(const std::vector<FrictionRing>& rings);

// m unit tangents at 2πk/m (a point contact's pyramid).
std::vector<Vec6> pointContactEdges(int m);
// The soft-finger edges for torsional semi-axis e_n = τmax/(μN) in mm (SoftPatch::torsionPerFriction_mm).
std::vector<Vec6> softContactEdges(double torsion_mm, const FrictionEdgeSettings& settings = {});
// A frictionless contact: one zero edge, i.e. its only wrench is the normal.
std::vector<Vec6> frictionlessEdges();

// Edges for a contact's friction type (torsion_mm is used for SoftFinger only).
std::vector<Vec6> frictionEdgesFor(ContactKind kind, double torsion_mm, const FrictionEdgeSettings& settings = {});

}  // namespace sg
