#pragma once
// A world: obstacles, graspable bodies, robots, connections (arm → hand mounts), a camera and the
// material table (src/model/README.md §World). Plain data. The description (what things are) is in the vectors;
// `state` is the document's current WorldState (where things are, WorldState.h). Computations take the
// state they evaluate explicitly, so several states of one const World can be evaluated at once.
#include <optional>
#include <string>
#include <vector>

#include "model/Materials.h"
#include "model/Robot.h"
#include "model/WorldState.h"

namespace sg {

struct Connection {
  int parentRobot = 0;
  int parentChain = 0;
  int childRobot = 0;
  Transform offset;                  // child base w.r.t. the last link of the parent chain
  std::optional<Body> mount;         // optional mount body between flange and hand
};

struct Camera {
  Vec3 position_mm = Vec3::Zero();
  Quat orientation = Quat::Identity();  // Inventor SbRotation; files write qx qy qz qw (w last)
  double focalDistance_mm = 500;
};

// Names one body of a world: an obstacle or graspable by index, a robot body by robot index and BodyRef
// (chain -1 = palm), or a connection's mount by connection index.
struct BodyHandle {
  enum class Kind { Obstacle, Graspable, Robot, Mount };
  Kind kind = Kind::Obstacle;
  int index = 0;      // obstacle, graspable, robot or connection index
  BodyRef ref;        // robot bodies only
  bool operator==(const BodyHandle&) const = default;
};

struct World {
  std::string sourceFile;            // absolute path of the world XML, empty if built in memory
  std::vector<Body> obstacles;
  std::vector<Body> graspables;
  std::vector<Robot> robots;
  std::vector<Connection> connections;
  std::optional<Camera> camera;
  MaterialTable materials;
  WorldState state;                  // current poses, DOF values, break-away state (fits the vectors above)

  // Append a body or robot together with its state entry; return its index.
  int addObstacle(Body body, const Transform& X_WO = {});
  int addGraspable(Body body, const Transform& X_WG = {});
  int addRobot(Robot robot, const Transform& X_WP = {});       // DOF values at their defaults
  int addRobot(Robot robot, RobotState robotState);             // link poses are recomputed
  // Remove the last obstacle, graspable or robot and its state entry (no-op when there is none).
  void removeLastObstacle();
  void removeLastGraspable();
  void removeLastRobot();

  std::size_t bodyCount() const;
  // Every body: obstacles, graspables, robots (palm then links), mounts. Handles stay valid until
  // bodies are added or removed.
  std::vector<BodyHandle> bodyHandles() const;
  bool isValid(const BodyHandle& h) const;
  // Throws sg::Error for an invalid handle.
  const Body& body(const BodyHandle& h) const;
  Body& body(const BodyHandle& h);
  // "mug", "ThreeFinger/palm", "ThreeFinger/chain1/link0": readable and unique within the world.
  std::string bodyLabel(const BodyHandle& h) const;     // obstacles + graspables + every robot body (+ mounts)
  // Every load warning of the world's robots (Robot::loadWarnings) and bodies (Body::loadWarnings), each once,
  // in bodyHandles() order; robotLoadWarnings: those of robot `robot` and its bodies only.
  std::vector<std::string> loadWarnings() const;
  std::vector<std::string> robotLoadWarnings(int robot) const;
  // Moves child robots to their mounts in `state` (after a parent robot's DOFs or pose change).
  void updateConnections() { sg::updateConnections(*this, state); }
};

}  // namespace sg
