#pragma once
// A small world built in memory for the UI tests: a two-DOF, two-link planar finger robot, a graspable box
// and an obstacle slab. Nothing is read from disk.
#include <memory>

#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"
#include "model/World.h"
#include "../support/PlacedBody.h"

namespace sg::test {

// An axis-aligned box centred on the origin (mm).
inline std::shared_ptr<const TriangleMesh> boxMesh(const Vec3& size) {
  auto m = std::make_shared<TriangleMesh>();
  const Vec3 h = size / 2;
  for (int i = 0; i < 8; ++i) m->vertices.emplace_back(i & 1 ? h.x() : -h.x(), i & 2 ? h.y() : -h.y(), i & 4 ? h.z() : -h.z());
  const std::uint32_t f[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                  {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  for (const auto& t : f) m->triangles.push_back({t[0], t[1], t[2]});
  m->finalize();
  return m;
}

inline sgtest::PlacedBody makeBody(const std::string& name, BodyKind kind, const Vec3& size, const Vec3& position) {
  Body b;
  b.name = name;
  b.kind = kind;
  b.mesh = boxMesh(size);
  b.maxRadius_mm = size.norm() / 2;
  return {b, Transform::fromTranslation(position)};
}

// Robot "Finger": palm box at the robot pose; one chain along x with two revolute joints about z
// (0..90°), a = 40 mm each; link k hangs after joint k.
inline Robot makeFingerRobot() {
  Robot r;
  r.name = "Finger";
  r.palm = makeBody("palm", BodyKind::Link, Vec3(30, 30, 20), Vec3::Zero()).body;
  r.dofs.resize(2);
  Chain chain;
  chain.base = Transform::fromTranslation(Vec3(15, 0, 0));
  for (int k = 0; k < 2; ++k) {
    chain.joints.push_back(fromDh({.a_mm = 40}, JointType::Revolute, {.dof = k}, 0, degToRad(90)));
    Link link;
    link.body = makeBody("link" + std::to_string(k), BodyKind::Link, Vec3(40, 10, 10), Vec3::Zero()).body;
    link.lastJoint = k;
    chain.links.push_back(link);
  }
  r.chains.push_back(chain);
  computeDofRanges(r);
  r.eigengrasps = identityEigenGrasps(r);
  return r;  // DOF defaults 0: a World places it with both joints at 0
}

inline World makeTestWorld() {
  World w;
  w.addRobot(makeFingerRobot());
  sgtest::addGraspable(w, makeBody("box", BodyKind::Graspable, Vec3(40, 40, 40), Vec3(100, 0, 0)));
  sgtest::addObstacle(w, makeBody("table", BodyKind::Obstacle, Vec3(400, 400, 10), Vec3(0, 0, -60)));
  return w;
}

}  // namespace sg::test
