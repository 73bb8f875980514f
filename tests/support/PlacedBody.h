#pragma once
// Test helpers for building worlds: a body together with where it is (Body holds no pose; the pose lives in
// World::state, src/model/WorldState.h), and adders that append a body or robot with its state entry.
#include <utility>

#include "model/World.h"

namespace sgtest {

struct PlacedBody {
  sg::Body body;
  sg::Transform X_WB;                // pose in world
};

inline int addObstacle(sg::World& w, PlacedBody p) { return w.addObstacle(std::move(p.body), p.X_WB); }
inline int addObstacle(sg::World& w, sg::Body b, const sg::Transform& X_WO = {}) { return w.addObstacle(std::move(b), X_WO); }
inline int addGraspable(sg::World& w, PlacedBody p) { return w.addGraspable(std::move(p.body), p.X_WB); }
inline int addGraspable(sg::World& w, sg::Body b, const sg::Transform& X_WG = {}) { return w.addGraspable(std::move(b), X_WG); }
inline int addRobot(sg::World& w, sg::Robot r, const sg::Transform& X_WP = {}) { return w.addRobot(std::move(r), X_WP); }

}  // namespace sgtest
