#pragma once
// Sensing outputs of a penalty contact (src/contact/README.md §Penalty contact), per body pair as a spatial
// contact-force block lists them: separation distance, contact signal, normal and frictional force vectors
// (and magnitudes), the contact points and contact frames on both bodies. One contact point per pair: the
// pair's minimum-distance witness points (exact for primitives; the mesh estimate otherwise).
#include "contact/Contact.h"
#include "contact/penalty/PenaltyLaw.h"

namespace sg {

struct PenaltySensing {
  // Side 1 = body 1 of the pair, side 2 = body 2: witness points, inward normals, contact frames (z = inward
  // normal, GraspIt!'s frame), separation (< 0: penetration), μs and μk from the material table.
  Contact contact;
  bool signal = false;                       // the contact signal: separation ≤ 0 (the penalty is active)
  double penetration_mm = 0;                 // max(−separation, 0)
  double penetrationRate_mm_per_s = 0;       // ḋ = (v2 − v1)·n1
  Vec3 slip_W_mm_per_s = Vec3::Zero();       // body 1's tangential velocity relative to body 2
  double muEffective = 0;                    // μ_eff(|slip|)
  double normalForce_N = 0, frictionForce_N = 0;          // magnitudes
  Vec3 normalForce_W_N = Vec3::Zero();       // on body 1 by body 2 (body 2 gets the opposite), along n1
  Vec3 frictionForce_W_N = Vec3::Zero();     // on body 1 by body 2, against the slip
};

// The outputs for a contact record and the velocities (mm/s, world) of body 1's and body 2's material points
// at their witness points.
PenaltySensing penaltySensing(const Contact& contact, const Vec3& v1_mm_per_s, const Vec3& v2_mm_per_s,
                              const PenaltySettings& settings);

// One pair as placed in `state`. Velocities by finite difference: `ahead` is the same world dt_s later (null:
// both at rest). Throws sg::Error for invalid settings or a non-positive dt with `ahead`.
PenaltySensing sensePenaltyPair(const World& world, const WorldState& state, const BodyHandle& body1,
                                const BodyHandle& body2, const PenaltySettings& settings,
                                const WorldState* ahead = nullptr, double dt_s = 0);

}  // namespace sg
