#pragma once
// The parameters of a physics trial (README.md §Trial protocol). Units: seconds, mm, degrees, m/s².
#include <string>
#include <vector>

#include "core/Math.h"

namespace sg::sim {

// One of the six pull directions, an axis of the object's frame (README.md §Trial protocol).
struct PullDirection {
  int axis = 0;     // 0 x, 1 y, 2 z
  int sign = 1;     // +1 or -1
  std::string name() const;  // "x+", "z-"
  Vec3 unit_O() const;       // in the object frame
  bool operator==(const PullDirection&) const = default;
};

// The six directions in the order x+, x-, y+, y-, z+, z-.
std::vector<PullDirection> allDirections();
// "all", or a comma-separated list of "x+", "z-", ...; throws sg::Error naming the bad item.
std::vector<PullDirection> parseDirections(const std::string& text);

struct TrialSettings {
  double settle_s = 0.3;            // DOFs close with their effort, no load on the object
  double duration_s = 1.0;          // per direction: the object's weight pulls along the direction
  double gravity_mps2 = 9.81;
  double timestep_s = 0.002;        // MuJoCo's default; 4 ms is faster and flips marginal grasps (README.md §Timestep)
  double sampleInterval_s = 0.01;   // recorded trajectory: one sample per interval
  double heldDisplacement_mm = 10;  // a direction holds while the object stays within these of its settled pose
  double heldRotation_deg = 15;
  double impratio = 10;             // MuJoCo's friction-to-normal impedance ratio (elliptic cones slip less)
  double poisson = 0.5;             // Poisson's ratio of soft bodies (Hertz E*, README.md §Softness)
  std::vector<PullDirection> directions = allDirections();
  // Speed only, not a protocol parameter (not in the JSON): the exact box test in front of MuJoCo's narrow phase
  // (CollisionPrefilter.h). Off gives the same trajectory bit for bit, more slowly: the cross-checks' reference.
  bool collisionPrefilter = true;
  // Speed only, not in the JSON: the geom pairs MuJoCo tests are listed before each step (PairList.h) instead of
  // its broad phase and geom-pair loop. Off gives the same trajectory bit for bit, more slowly.
  bool pairList = true;
  // Model choice for speed, not in the JSON: mesh pieces that are tessellated spheres and cylinders collide as
  // MuJoCo primitives (README.md §Geometry); off keeps them meshes (cuboids are boxes either way). Not exact: the
  // primitive is up to 3 % of its radius outside the piece's faces; benchmarks compare the verdicts both ways.
  bool tessellatedPrimitives = true;
  // Model choice for speed, not in the JSON: a sphere against a convex mesh piece collides by its exact closed form
  // (SphereHullCollision.h) instead of MuJoCo's MPR, whose depth and normal are iterative approximations (README.md
  // §Exact sphere–mesh contact). Not bit for bit the same trajectory; off is MuJoCo's own narrow phase.
  bool exactSphereMesh = true;
};

// Throws sg::Error naming the first setting that is not finite or out of its range.
void validateTrialSettings(const TrialSettings& settings);

}  // namespace sg::sim
