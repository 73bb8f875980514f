#pragma once
// Small worlds made in code for the render and viewport tests: axis-aligned box meshes.
#include <memory>

#include "model/Kinematics.h"
#include "model/World.h"
#include "../support/PlacedBody.h"

namespace sg::test {

// Closed box mesh centred on the origin, size (sx, sy, sz) mm, counter-clockwise seen from outside.
inline std::shared_ptr<TriangleMesh> boxMesh(double sx, double sy, double sz) {
  auto mesh = std::make_shared<TriangleMesh>();
  for (int i = 0; i < 8; ++i)
    mesh->vertices.emplace_back((i & 1 ? 0.5 : -0.5) * sx, (i & 2 ? 0.5 : -0.5) * sy, (i & 4 ? 0.5 : -0.5) * sz);
  // Vertex i: bit0 = +x, bit1 = +y, bit2 = +z.
  mesh->triangles = {{0, 2, 3}, {0, 3, 1},   // −z
                     {4, 5, 7}, {4, 7, 6},   // +z
                     {0, 1, 5}, {0, 5, 4},   // −y
                     {2, 6, 7}, {2, 7, 3},   // +y
                     {0, 4, 6}, {0, 6, 2},   // −x
                     {1, 3, 7}, {1, 7, 5}};  // +x
  mesh->finalize();
  return mesh;
}

inline sgtest::PlacedBody boxBody(const std::string& name, std::shared_ptr<const TriangleMesh> mesh,
                                  const Vec3& position_mm, const std::string& material = "wood",
                                  BodyKind kind = BodyKind::Obstacle) {
  Body b;
  b.name = name;
  b.kind = kind;
  b.material = material;
  b.mesh = std::move(mesh);
  return {b, Transform::fromTranslation(position_mm)};
}

// One obstacle, one graspable and a robot (palm + one chain of two links).
inline World smallWorld() {
  World w;
  auto box = boxMesh(40, 40, 40);
  sgtest::addObstacle(w, boxBody("table", boxMesh(200, 10, 200), Vec3(0, -50, 0)));
  sgtest::addGraspable(w, boxBody("cube", box, Vec3(0, 0, 0), "rubber", BodyKind::Graspable));
  Robot r;
  r.name = "hand";
  r.palm = boxBody("palm", boxMesh(60, 20, 60), Vec3(0, 0, 0), "metal", BodyKind::Link).body;
  // Palm at (0, 100, 0); two fixed joints put link0 at (30, 140, 0) and link1 at (30, 190, 0).
  Chain c;
  c.base = Transform::fromTranslation(Vec3(30, 40, 0));
  c.joints = {generalJoint(JointType::Fixed, {}, Vec3::UnitZ()),
              generalJoint(JointType::Fixed, Transform::fromTranslation(Vec3(0, 50, 0)), Vec3::UnitZ())};
  Link l0, l1;
  l0.body = boxBody("link0", box, Vec3::Zero(), "metal", BodyKind::Link).body;
  l1.body = boxBody("link1", box, Vec3::Zero(), "metal", BodyKind::Link).body;
  l0.lastJoint = 0;
  l1.lastJoint = 1;
  c.links = {l0, l1};
  r.chains.push_back(c);
  w.addRobot(r, Transform::fromTranslation(Vec3(0, 100, 0)));
  return w;
}

}  // namespace sg::test
