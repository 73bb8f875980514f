#pragma once
// Moving bodies and robots with collision stopping (MOTION.md §Rigid motion, §Approach). A motion is split into
// bounded steps; when a step collides, the parameter is bisected back between the last free state and
// the colliding one until the colliding pairs are closer than threshold/2 but not touching, contacts are
// found there and the motion ends. Existing contacts that oppose the first step refuse the motion.
// Motions move a WorldState (WorldState.h) of a const World; the overloads taking a World& move world.state.
#include <functional>
#include <vector>

#include "contact/CollisionFilter.h"
#include "contact/Contact.h"

namespace sg {

class PairScreen;  // contact/PairScreen.h

struct MotionSettings {
  CollisionSettings collision;
  double translationStep_mm = 10.0;     // 50 × THRESHOLD, as GraspIt!'s dragging and approach
  double rotationStep_rad = kPi / 36;   // 5°
};

enum class MotionOutcome {
  Reached,           // the target was reached without collision
  Contact,           // stopped in contact, bodies within (0, threshold/2] of each other
  Blocked,           // existing contacts oppose the motion: nothing moved
  StartInCollision,  // the start state already interpenetrates: nothing moved (an "interpolation error")
};

struct MotionResult {
  MotionOutcome outcome = MotionOutcome::Reached;
  double fraction = 1.0;              // of the requested motion that was performed
  std::vector<Contact> contacts;      // contacts of the moving bodies at the end
  bool converged = true;              // false: an iteration bound stopped the motion early
  bool madeContact() const { return outcome == MotionOutcome::Contact; }
};

// A state along a path: apply(t) puts the moving bodies at parameter t ∈ [0, 1] in the state being moved.
struct PathMotion {
  std::function<void(double)> apply;
  std::vector<BodyHandle> moving;     // bodies whose pose depends on t
  int steps = 1;                      // equal steps in t
};

// The generic mover: steps along the path (path.apply moves `state`), bisects at a collision, finds contacts
// at the end.
MotionResult moveAlongPath(const World& world, WorldState& state, const PathMotion& path,
                           const MotionSettings& settings = {});

// Bisects t between `freeT` (no collision) and `collidingT` (`state` is at that parameter) until the
// pairs colliding at `collidingT` are within (0, threshold/2]. Leaves `state` at the returned t (apply moves
// it). `pairs` are the allowed pairs of the moving bodies. `collided`, if given, receives the pairs that
// collided at `collidingT`.
double bisectToContact(const World& world, WorldState& state, const std::function<void(double)>& apply,
                       const std::vector<BodyPair>& pairs, double freeT, double collidingT,
                       const CollisionSettings& settings, std::vector<BodyPair>* collided = nullptr);
// The same with the pair tests of a PairScreen over those pairs (the same answers, less work).
double bisectToContact(const World& world, WorldState& state, const std::function<void(double)>& apply,
                       PairScreen& screen, double freeT, double collidingT, const CollisionSettings& settings,
                       std::vector<BodyPair>* collided = nullptr);

// Throws sg::Error "<what> did not converge: ... not finite" unless every pose of `bodies` is finite (NaN
// guard of the iterative motions: a NaN pose makes every collision test false and every loop aimless).
void requireFinitePoses(const World& world, const WorldState& state, const std::vector<BodyHandle>& bodies,
                        const std::string& what);

// At most this many bisection steps (a double has 52 bits of mantissa; more can never help).
constexpr int kMaxBisectionSteps = 200;

// Number of steps so that each moves at most the translation and rotation steps of `settings`.
int stepsBetween(const Transform& from, const Transform& to, const MotionSettings& settings);

// Throws sg::Error unless `robot` indexes a robot of the world.
void requireRobot(const World& world, int robot);

// A body (obstacle, graspable or mount; sg::Error for a robot body) or a whole robot (with what is mounted on it) to a target pose;
// translation linear, rotation slerp.
MotionResult moveBodyTo(const World& world, WorldState& state, const BodyHandle& body, const Transform& target,
                        const MotionSettings& settings = {});
MotionResult moveRobotTo(const World& world, WorldState& state, int robot, const Transform& target,
                         const MotionSettings& settings = {});

// The hand's approach direction in the world: the z axis of approachTran (palm frame; identity when the
// robot names none) rotated by the palm pose.
Vec3 approachDirection(const Robot& robot, const RobotState& state);
// Moves the palm `distance_mm` along the approach direction (MOTION.md §Approach); madeContact() tells if it touched.
MotionResult approachToContact(const World& world, WorldState& state, int robot, double distance_mm,
                               const MotionSettings& settings = {});
// While in collision, backs off distance/2 along the approach direction (at most 20 times), then
// approaches up to `distance_mm`.
MotionResult findInitialContact(const World& world, WorldState& state, int robot, double distance_mm,
                                const MotionSettings& settings = {});

// --- the same motions of the world's current state (world.state) ---

inline MotionResult moveAlongPath(World& world, const PathMotion& path, const MotionSettings& settings = {}) {
  return moveAlongPath(world, world.state, path, settings);
}
inline MotionResult moveBodyTo(World& world, const BodyHandle& body, const Transform& target,
                               const MotionSettings& settings = {}) {
  return moveBodyTo(world, world.state, body, target, settings);
}
inline MotionResult moveRobotTo(World& world, int robot, const Transform& target, const MotionSettings& settings = {}) {
  return moveRobotTo(world, world.state, robot, target, settings);
}
inline MotionResult approachToContact(World& world, int robot, double distance_mm,
                                      const MotionSettings& settings = {}) {
  return approachToContact(world, world.state, robot, distance_mm, settings);
}
inline MotionResult findInitialContact(World& world, int robot, double distance_mm,
                                       const MotionSettings& settings = {}) {
  return findInitialContact(world, world.state, robot, distance_mm, settings);
}

}  // namespace sg
