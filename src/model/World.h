#pragma once
// A world: obstacles, graspable bodies, robots, connections (arm → hand mounts), a camera and the
// material table (graspit-compat §1.5). Plain data.
#include <optional>
#include <string>
#include <vector>

#include "model/Materials.h"
#include "model/Robot.h"

namespace sg {

struct Connection {
  int parentRobot = 0;
  int parentChain = 0;
  int childRobot = 0;
  Transform offset;                  // child base w.r.t. the last link of the parent chain
  std::optional<Body> mount;         // optional mount body between flange and hand
  std::string mountFileAsWritten;
};

struct Camera {
  Vec3 position_mm = Vec3::Zero();
  Quat orientation = Quat::Identity();  // Inventor SbRotation; files write qx qy qz qw (w last)
  double focalDistance_mm = 500;
};

struct World {
  std::string sourceFile;            // absolute path of the world XML, empty if built in memory
  std::vector<Body> obstacles;
  std::vector<Body> graspables;
  std::vector<Robot> robots;
  std::vector<Connection> connections;
  std::optional<Camera> camera;
  MaterialTable materials;

  std::size_t bodyCount() const;     // obstacles + graspables + every robot body (+ mounts)
  // Moves child robots to their mounts (after a parent robot's DOFs or pose change).
  void updateConnections();
};

}  // namespace sg
