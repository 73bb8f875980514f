#pragma once
// A contact between two bodies of a world, as found by the proximity engine (src/contact/README.md §Detection).
// Plain data. Positions and normals are in the world frame (mm); each normal points INTO its own body
// (the direction of the force the other body applies to it). Contact models (soft finger, Hertz, ...)
// read these records and produce their own results; they never modify them.
#include <algorithm>
#include <vector>

#include "core/Transform.h"
#include "model/World.h"

namespace sg {

// What one contact became under a contact model (ContactModel.h): the shape of its friction edges.
enum class ContactKind { Frictionless, PointWithFriction, SoftFinger };

// One body's side of a contact. Frames: W world, C this side's contact frame.
struct ContactSide {
  BodyHandle body;
  Vec3 p_WC_mm = Vec3::Zero();      // the contact point on this body's surface, in world
  Vec3 n_W = Vec3::UnitZ();         // unit normal into this body, in world
  // Contact frame C in world: origin = p_WC_mm, z = n_W; x = normalise(n × (1,0,0)) (n × (0,0,1) when n is
  // parallel to x), y = n × x (GraspIt!'s convention).
  Transform X_WC;
};

struct Contact {
  ContactSide side1, side2;
  double separation_mm = 0;         // signed distance between the witness points; negative = penetration
  // The pair touches or interpenetrates (README.md §Touching and overlapping pairs): the record is the pair's
  // one contact at its deepest point, separation_mm = −depth (0 when the bodies only touch).
  bool penetrating = false;
  double muStatic = 0, muKinetic = 0;

  double depth_mm() const { return penetrating ? std::max(0.0, -separation_mm) : 0.0; }
};

// GraspIt!'s contact frame for a position and inward normal (world frame).
Transform contactFrame(const Vec3& position_mm, const Vec3& inwardNormal);

}  // namespace sg
