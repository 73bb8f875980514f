#pragma once
// Contact wrenches on the grasped object (src/grasp/QUALITY.md §Wrench spaces). For each friction edge
// (FrictionEdges.h) and a unit normal force, in the OBJECT frame with the object's centre of mass as origin:
//   f = n + μ(e0·t_x + e1·t_y)
//   τ = ((p − cog) × f + μ·e5·n) / ρ
// n, t_x, t_y: the inward normal and tangents of the object-side contact frame (objectContactFrame); ρ the torque scale (mm), by
// default the object's max radius, which makes torques dimensionless and ε scale-invariant.
#include <vector>

#include "contact/Contact.h"
#include "model/Body.h"

namespace sg {

struct WrenchReference {
  Transform objectPose;            // world frame
  Vec3 cog_mm = Vec3::Zero();      // object (body) frame
  double torqueScale_mm = 1.0;     // ρ > 0
};

// The reference for a graspable body at pose X_WO: that pose, its CoG, and ρ = userLength_mm if > 0, else the body's
// maxRadius_mm (computed from the mesh when the body has none). Throws sg::Error if ρ ends up <= 0.
WrenchReference wrenchReferenceFor(const Body& object, const Transform& X_WO, double userLength_mm = 0);

// The object-side contact frame in OBJECT coordinates (GraspIt!'s rule, src/contact/README.md §Detection): the
// position and inward normal are first expressed in the object frame, then contactFrame() picks the tangents
// from that normal (t_x = n_O × x̂_O normalised, ...). So the friction edges are fixed to the object and ε
// does not change when the whole world is moved rigidly (a world-frame rule would turn the tangents with it).
Transform objectContactFrame(const ContactSide& onObject, const Transform& X_WO);

// Wrenches (fx, fy, fz, τx, τy, τz) of one contact, object-side record `onObject` (world frame), one per edge.
std::vector<Vec6> contactWrenches(const ContactSide& onObject, double mu, const std::vector<Vec6>& edges,
                                  const WrenchReference& reference);

}  // namespace sg
