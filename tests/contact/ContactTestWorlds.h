#pragma once
// Worlds built in code for the contact and motion suites: a table, simple objects and a two-finger
// gripper (one revolute joint per finger, one rigid DOF each), plus a two-link break-away finger.
#include <memory>

#include "geometry/Primitives.h"
#include "model/Kinematics.h"
#include "model/World.h"
#include "../support/PlacedBody.h"

namespace sgtest {

using namespace sg;

inline std::shared_ptr<const TriangleMesh> shared(TriangleMesh m) {
  return std::make_shared<const TriangleMesh>(std::move(m));
}

// A mesh shifted so that its body origin is at `offset` from its centre.
inline std::shared_ptr<const TriangleMesh> shiftedBox(const Vec3& size, const Vec3& centre) {
  TriangleMesh m = makeBox(size);
  m.transform(Mat3::Identity(), centre);
  return shared(std::move(m));
}

inline PlacedBody makeBody(const std::string& name, std::shared_ptr<const TriangleMesh> mesh, const Transform& pose,
                           BodyKind kind, const std::string& material = "wood") {
  Body b;
  b.name = name;
  b.kind = kind;
  b.mesh = std::move(mesh);
  b.material = material;
  return {b, pose};
}

// A 200×200×10 mm table whose top is z = 0.
inline PlacedBody makeTable() {
  return makeBody("table", shiftedBox(Vec3(200, 200, 10), Vec3(0, 0, -5)), {}, BodyKind::Obstacle, "wood");
}

inline Link makeLink(const std::string& name, std::shared_ptr<const TriangleMesh> mesh, int lastJoint) {
  Link l;
  l.body = makeBody(name, std::move(mesh), {}, BodyKind::Link, "rubber").body;
  l.lastJoint = lastJoint;
  return l;
}

inline Joint revolute(int dof, double maxDeg, double a_mm = 0) {
  return fromDh({.a_mm = a_mm}, JointType::Revolute, {.dof = dof}, 0, degToRad(maxDeg));
}

// Palm 60×20×10 centred at the palm origin (top face z = 5); fingers 40 mm long rising along palm +z from
// x = ∓20, closing toward x = 0 for positive DOF values (one rigid DOF per finger, 0…90°).
inline Robot makeGripper() {
  Robot r;
  r.name = "gripper";
  r.palm = makeBody("palm", shared(makeBox(Vec3(60, 20, 10))), {}, BodyKind::Link, "plastic").body;
  r.approach = Transform::identity();
  for (int side = 0; side < 2; ++side) {
    Dof d;
    d.type = DofType::Rigid;
    d.defaultVelocity = 1.0;
    r.dofs.push_back(d);
    Chain c;
    const double s = side == 0 ? 1.0 : -1.0;  // left finger at x = −20 closes toward +x
    Mat3 R;
    R.col(0) = Vec3(0, 0, 1);      // finger extends along palm +z
    R.col(1) = Vec3(s, 0, 0);      // closing direction
    R.col(2) = Vec3(0, s, 0);      // joint axis
    c.base = Transform::fromMatrix(R, Vec3(-20 * s, 0, 5));
    c.joints.push_back(revolute(side, 90));
    // 40 mm long (x), 6 mm thick (y, the closing direction), 10 mm wide.
    c.links.push_back(makeLink("finger" + std::to_string(side), shiftedBox(Vec3(40, 6, 10), Vec3(21, 0, 0)), 0));
    r.chains.push_back(std::move(c));
  }
  computeDofRanges(r);
  return r;
}

// One chain of two 20 mm links on a small base, both joints driven by one break-away DOF (ratio 1),
// closing toward +x of the palm; the palm is the 10 mm cube at the origin.
inline Robot makeBreakAwayFinger() {
  Robot r;
  r.name = "clutch";
  r.palm = makeBody("palm", shared(makeBox(Vec3(10, 10, 10))), {}, BodyKind::Link, "plastic").body;
  Dof d;
  d.type = DofType::BreakAway;
  d.defaultVelocity = 1.0;
  r.dofs.push_back(d);
  Chain c;
  Mat3 R;
  R.col(0) = Vec3(0, 0, 1);
  R.col(1) = Vec3(1, 0, 0);
  R.col(2) = Vec3(0, 1, 0);
  c.base = Transform::fromMatrix(R, Vec3(0, 0, 5));
  c.joints.push_back(revolute(0, 90, 20));
  c.joints.push_back(revolute(0, 90, 20));
  // Each link lies along x from −19.5 to −0.5 in the frame after its joint (frame origin at the link tip).
  c.links.push_back(makeLink("proximal", shiftedBox(Vec3(19, 4, 8), Vec3(-10, 0, 0)), 0));
  c.links.push_back(makeLink("distal", shiftedBox(Vec3(19, 4, 8), Vec3(-10, 0, 0)), 1));
  r.chains.push_back(std::move(c));
  computeDofRanges(r);
  return r;
}

}  // namespace sgtest
