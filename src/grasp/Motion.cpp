#include "grasp/Motion.h"

#include <algorithm>
#include <cmath>

#include "contact/ContactDetection.h"
#include "contact/ContactMotion.h"
#include "core/Error.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

bool anyPairCollides(const World& world, const std::vector<BodyPair>& pairs) {
  return std::any_of(pairs.begin(), pairs.end(), [&](const BodyPair& p) { return pairCollides(world, p); });
}

std::vector<BodyPair> pairsColliding(const World& world, const std::vector<BodyPair>& pairs) {
  std::vector<BodyPair> out;
  for (const auto& p : pairs)
    if (pairCollides(world, p)) out.push_back(p);
  return out;
}

std::vector<Transform> posesOf(const World& world, const std::vector<BodyHandle>& bodies) {
  std::vector<Transform> out;
  for (const auto& h : bodies) out.push_back(world.body(h).pose);
  return out;
}

Transform interpolate(const Transform& a, const Transform& b, double t) {
  return {a.rotation().slerp(t, b.rotation()), (1 - t) * a.translation() + t * b.translation()};
}

}  // namespace

double bisectToContact(World& world, const std::function<void(double)>& apply, const std::vector<BodyPair>& pairs,
                       double lo, double hi, const CollisionSettings& settings, std::vector<BodyPair>* collided) {
  const std::vector<BodyPair> hits = pairsColliding(world, pairs);
  if (collided) *collided = hits;
  const double target = 0.5 * settings.threshold_mm();
  if (!(std::isfinite(lo) && std::isfinite(hi)))
    throw Error("bisection to contact did not converge: the motion parameter is not finite");
  for (int step = 0; step < kMaxBisectionSteps; ++step) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;  // parameter resolution exhausted
    apply(mid);
    if (anyPairCollides(world, pairs)) {
      hi = mid;
      continue;
    }
    if (minimumDistance(world, hits) <= target) return mid;
    lo = mid;
  }
  apply(lo);
  return lo;
}

void requireFinitePoses(const World& world, const std::vector<BodyHandle>& bodies, const std::string& what) {
  for (const auto& h : bodies) {
    const Transform& p = world.body(h).pose;
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

MotionResult moveAlongPath(World& world, const PathMotion& path, const MotionSettings& settings) {
  MotionResult result;
  const auto pairs = activePairs(world, settings.collision, path.moving);
  if (anyPairCollides(world, pairs)) {
    result.outcome = MotionOutcome::StartInCollision;
    result.fraction = 0;
    return result;
  }
  const int steps = std::max(1, path.steps);
  // Existing contacts that oppose the first step refuse the whole motion.
  const auto contacts = findContacts(world, pairs, settings.collision);
  if (!contacts.empty()) {
    const auto from = posesOf(world, path.moving);
    path.apply(1.0 / steps);
    const auto to = posesOf(world, path.moving);
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
    if (k == 1) requireFinitePoses(world, path.moving, "motion");
    if (!anyPairCollides(world, pairs)) {
      freeT = t;
      continue;
    }
    result.fraction = bisectToContact(world, path.apply, pairs, freeT, t, settings.collision);
    result.outcome = MotionOutcome::Contact;
    result.contacts = findContacts(world, pairs, settings.collision);
    return result;
  }
  result.contacts = findContacts(world, pairs, settings.collision);
  return result;
}

void requireRobot(const World& world, int robot) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()))
    throw Error("the world has no robot " + std::to_string(robot) + " (it has " + std::to_string(world.robots.size()) + ")");
}

MotionResult moveBodyTo(World& world, const BodyHandle& body, const Transform& target, const MotionSettings& settings) {
  if (!world.isValid(body)) throw Error("moveBodyTo: no such body in the world");
  if (body.kind == BodyHandle::Kind::Robot)
    throw Error("moveBodyTo: " + world.bodyLabel(body) + " belongs to a robot; move the robot with moveRobotTo");
  const Transform start = world.body(body).pose;
  PathMotion path;
  path.moving = {body};
  path.steps = stepsBetween(start, target, settings);
  path.apply = [&world, body, start, target](double t) { world.body(body).pose = interpolate(start, target, t); };
  return moveAlongPath(world, path, settings);
}

MotionResult moveRobotTo(World& world, int robot, const Transform& target, const MotionSettings& settings) {
  requireRobot(world, robot);
  const Transform start = world.robots.at(robot).pose;
  PathMotion path;
  path.moving = robotBodies(world, robot);
  path.steps = stepsBetween(start, target, settings);
  path.apply = [&world, robot, start, target](double t) {
    setRobotPose(world.robots[robot], interpolate(start, target, t));
    world.updateConnections();
  };
  return moveAlongPath(world, path, settings);
}

Vec3 approachDirection(const Robot& robot) {
  const Vec3 inPalm = robot.approach ? robot.approach->applyToVector(Vec3::UnitZ()) : Vec3::UnitZ();
  return robot.pose.applyToVector(inPalm);
}

MotionResult approachToContact(World& world, int robot, double distance_mm, const MotionSettings& settings) {
  requireRobot(world, robot);
  const Robot& r = world.robots.at(robot);
  const Transform target = Transform::fromTranslation(approachDirection(r) * distance_mm) * r.pose;
  return moveRobotTo(world, robot, target, settings);
}

MotionResult findInitialContact(World& world, int robot, double distance_mm, const MotionSettings& settings) {
  requireRobot(world, robot);
  const auto pairs = activePairs(world, settings.collision, robotBodies(world, robot));
  if (!(std::isfinite(distance_mm) && approachDirection(world.robots.at(robot)).allFinite()))
    throw Error("approach did not converge: the approach distance or direction is not finite");
  requireFinitePoses(world, robotBodies(world, robot), "approach");
  for (int i = 0; i < 20 && anyPairCollides(world, pairs); ++i) {
    Robot& r = world.robots[robot];
    setRobotPose(r, Transform::fromTranslation(-approachDirection(r) * (0.5 * distance_mm)) * r.pose);
    world.updateConnections();
  }
  return approachToContact(world, robot, distance_mm, settings);
}

}  // namespace sg
