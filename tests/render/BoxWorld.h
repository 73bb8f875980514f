#pragma once
// Small worlds made in code for the render and viewport tests: axis-aligned box meshes.
#include <memory>

#include "model/World.h"

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

inline Body boxBody(const std::string& name, std::shared_ptr<const TriangleMesh> mesh, const Vec3& position_mm,
                    const std::string& material = "wood", BodyKind kind = BodyKind::Obstacle) {
  Body b;
  b.name = name;
  b.kind = kind;
  b.material = material;
  b.mesh = std::move(mesh);
  b.pose = Transform::fromTranslation(position_mm);
  return b;
}

// One obstacle, one graspable and a robot (palm + one chain of two links).
inline World smallWorld() {
  World w;
  auto box = boxMesh(40, 40, 40);
  w.obstacles.push_back(boxBody("table", boxMesh(200, 10, 200), Vec3(0, -50, 0)));
  w.graspables.push_back(boxBody("cube", box, Vec3(0, 0, 0), "rubber", BodyKind::Graspable));
  Robot r;
  r.name = "hand";
  r.palm = boxBody("palm", boxMesh(60, 20, 60), Vec3(0, 100, 0), "metal", BodyKind::Link);
  Chain c;
  Link l0, l1;
  l0.body = boxBody("link0", box, Vec3(30, 140, 0), "metal", BodyKind::Link);
  l1.body = boxBody("link1", box, Vec3(30, 190, 0), "metal", BodyKind::Link);
  c.links = {l0, l1};
  r.chains.push_back(c);
  w.robots.push_back(r);
  return w;
}

}  // namespace sg::test
