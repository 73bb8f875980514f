#include "grasp/Motion.h"

#include <algorithm>
#include <cmath>

#include "contact/ContactDetection.h"
#include "contact/ContactMotion.h"
#include "contact/PairScreen.h"
#include "core/Error.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

bool anyPairCollides(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs) {
  return std::any_of(pairs.begin(), pairs.end(), [&](const BodyPair& p) { return pairCollides(world, state, p); });
}

std::vector<BodyPair> pairsColliding(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs) {
  std::vector<BodyPair> out;
  for (const auto& p : pairs)
    if (pairCollides(world, state, p)) out.push_back(p);
  return out;
}

std::vector<Transform> posesOf(const WorldState& state, const std::vector<BodyHandle>& bodies) {
  std::vector<Transform> out;
  for (const auto& h : bodies) out.push_back(X_WB(state, h));
  return out;
}

Transform interpolate(const Transform& a, const Transform& b, double t) {
  return {a.rotation().slerp(t, b.rotation()), (1 - t) * a.translation() + t * b.translation()};
}

}  // namespace

namespace {

// bisectToContact over any pair tests: `colliding()` lists the colliding pairs at the current state,
// `anyCollides()` tells if one collides (the plain pair tests, or a PairScreen's: the same answers).
template <typename Colliding, typename AnyCollides>
double bisect(const World& world, WorldState& state, const std::function<void(double)>& apply, double lo, double hi,
              const CollisionSettings& settings, std::vector<BodyPair>* collided, Colliding colliding,
              AnyCollides anyCollides) {
  const std::vector<BodyPair> hits = colliding();
  if (collided) *collided = hits;
  const double target = 0.5 * settings.threshold_mm();
  if (!(std::isfinite(lo) && std::isfinite(hi)))
    throw Error("bisection to contact did not converge: the motion parameter is not finite");
  for (int step = 0; step < kMaxBisectionSteps; ++step) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;  // parameter resolution exhausted
    apply(mid);
    if (anyCollides()) {
      hi = mid;
      continue;
    }
    if (minimumDistance(world, state, hits) <= target) return mid;
    lo = mid;
  }
  apply(lo);
  return lo;
}

}  // namespace

double bisectToContact(const World& world, WorldState& state, const std::function<void(double)>& apply,
                       const std::vector<BodyPair>& pairs, double lo, double hi, const CollisionSettings& settings,
                       std::vector<BodyPair>* collided) {
  return bisect(
      world, state, apply, lo, hi, settings, collided, [&] { return pairsColliding(world, state, pairs); },
      [&] { return anyPairCollides(world, state, pairs); });
}

double bisectToContact(const World& world, WorldState& state, const std::function<void(double)>& apply,
                       PairScreen& screen, double lo, double hi, const CollisionSettings& settings,
                       std::vector<BodyPair>* collided) {
  return bisect(
      world, state, apply, lo, hi, settings, collided, [&] { return screen.colliding(state); },
      [&] { return screen.anyCollides(state); });
}

void requireFinitePoses(const World& world, const WorldState& state, const std::vector<BodyHandle>& bodies,
                        const std::string& what) {
  for (const auto& h : bodies) {
    const Transform& p = X_WB(state, h);
    if (!p.translation().allFinite() || !p.rotation().coeffs().allFinite())
      throw Error(what + " did not converge: the pose of " + world.bodyLabel(h) + " is not finite");
  }
}

int stepsBetween(const Transform& from, const Transform& to, const MotionSettings& s) {
  const double dist = (to.translation() - from.translation()).norm();
  const double angle = from.rotation().angularDistance(to.rotation());
  if (!std::isfinite(dist) || !std::isfinite(angle))
    throw Error("motion did not converge: the start or target pose is not finite");
  const double n = std::max({1.0, std::ceil(dist / std::max(1e-9, s.translationStep_mm)),
                             std::ceil(angle / std::max(1e-9, s.rotationStep_rad))});
  return static_cast<int>(std::min(n, 1e6));
}

MotionResult moveAlongPath(const World& world, WorldState& state, const PathMotion& path,
                           const MotionSettings& settings) {
  requireFits(world, state);
  MotionResult result;
  const auto pairs = activePairs(world, settings.collision, path.moving);
  if (anyPairCollides(world, state, pairs)) {
    result.outcome = MotionOutcome::StartInCollision;
    result.fraction = 0;
    return result;
  }
  const int steps = std::max(1, path.steps);
  // Existing contacts that oppose the first step refuse the whole motion.
  const auto contacts = findContacts(world, state, pairs, settings.collision);
  if (!contacts.empty()) {
    const auto from = posesOf(state, path.moving);
    path.apply(1.0 / steps);
    const auto to = posesOf(state, path.moving);
    path.apply(0.0);
    if (anyContactPreventsMotion(contacts, path.moving, from, to)) {
      result.outcome = MotionOutcome::Blocked;
      result.fraction = 0;
      result.contacts = contacts;
      return result;
    }
  }
  double freeT = 0;
  for (int k = 1; k <= steps; ++k) {
    const double t = static_cast<double>(k) / steps;
    path.apply(t);
    if (k == 1) requireFinitePoses(world, state, path.moving, "motion");
    if (!anyPairCollides(world, state, pairs)) {
      freeT = t;
      continue;
    }
    result.fraction = bisectToContact(world, state, path.apply, pairs, freeT, t, settings.collision);
    result.outcome = MotionOutcome::Contact;
    result.contacts = findContacts(world, state, pairs, settings.collision);
    return result;
  }
  result.contacts = findContacts(world, state, pairs, settings.collision);
  return result;
}

void requireRobot(const World& world, int robot) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()))
    throw Error("the world has no robot " + std::to_string(robot) + " (it has " + std::to_string(world.robots.size()) + ")");
}

MotionResult moveBodyTo(const World& world, WorldState& state, const BodyHandle& body, const Transform& target,
                        const MotionSettings& settings) {
  if (!world.isValid(body)) throw Error("moveBodyTo: no such body in the world");
  if (body.kind == BodyHandle::Kind::Robot)
    throw Error("moveBodyTo: " + world.bodyLabel(body) + " belongs to a robot; move the robot with moveRobotTo");
  const Transform start = X_WB(state, body);
  PathMotion path;
  path.moving = {body};
  path.steps = stepsBetween(start, target, settings);
  path.apply = [&state, body, start, target](double t) { X_WB(state, body) = interpolate(start, target, t); };
  return moveAlongPath(world, state, path, settings);
}

MotionResult moveRobotTo(const World& world, WorldState& state, int robot, const Transform& target,
                         const MotionSettings& settings) {
  requireRobot(world, robot);
  const Transform start = state.robots.at(robot).X_WP;
  PathMotion path;
  path.moving = robotBodies(world, robot);
  path.steps = stepsBetween(start, target, settings);
  path.apply = [&world, &state, robot, start, target](double t) {
    setRobotPose(world.robots[robot], state.robots[robot], interpolate(start, target, t));
    updateConnections(world, state);
  };
  return moveAlongPath(world, state, path, settings);
}

Vec3 approachDirection(const Robot& robot, const RobotState& state) {
  const Vec3 inPalm = robot.approach ? robot.approach->applyToVector(Vec3::UnitZ()) : Vec3::UnitZ();
  return state.X_WP.applyToVector(inPalm);
}

MotionResult approachToContact(const World& world, WorldState& state, int robot, double distance_mm,
                               const MotionSettings& settings) {
  requireRobot(world, robot);
  const Robot& r = world.robots.at(robot);
  const RobotState& rs = state.robots.at(robot);
  const Transform target = Transform::fromTranslation(approachDirection(r, rs) * distance_mm) * rs.X_WP;
  return moveRobotTo(world, state, robot, target, settings);
}

MotionResult findInitialContact(const World& world, WorldState& state, int robot, double distance_mm,
                                const MotionSettings& settings) {
  requireRobot(world, robot);
  const auto pairs = activePairs(world, settings.collision, robotBodies(world, robot));
  if (!(std::isfinite(distance_mm) && approachDirection(world.robots.at(robot), state.robots.at(robot)).allFinite()))
    throw Error("approach did not converge: the approach distance or direction is not finite");
  requireFinitePoses(world, state, robotBodies(world, robot), "approach");
  for (int i = 0; i < 20 && anyPairCollides(world, state, pairs); ++i) {
    const Robot& r = world.robots[robot];
    RobotState& rs = state.robots.at(robot);
    setRobotPose(r, rs, Transform::fromTranslation(-approachDirection(r, rs) * (0.5 * distance_mm)) * rs.X_WP);
    updateConnections(world, state);
  }
  return approachToContact(world, state, robot, distance_mm, settings);
}

}  // namespace sg
