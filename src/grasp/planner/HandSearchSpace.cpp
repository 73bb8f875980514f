// The hand search space (HandSearch.h, PLANNER.md §Search state): GraspIt!'s position spaces and the posture
// mapped to a palm pose and DOF values, the state distance, and the space of a hand's configuration. The
// energies evaluated on it are in HandEnergy.cpp.
#include "grasp/planner/HandSearch.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/CollisionFilter.h"
#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "core/Math.h"
#include "geometry/BvhCache.h"
#include "geometry/MeshTopology.h"
#include "geometry/Proximity.h"
#include "geometry/ShapePairs.h"
#include "grasp/AutoGrasp.h"
#include "grasp/QualityMeasure.h"
#include "grasp/SupportEpsilon.h"
#include "grasp/WrenchHull.h"
#include "grasp/Motion.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"

namespace sg::planner {

namespace {

// Ellipsoid space semi-axes (GraspIt!'s defaults), mm.
constexpr double kEllipsoidA_mm = 80, kEllipsoidB_mm = 80, kEllipsoidC_mm = 160;

SearchVariable var(const char* name, double lo, double hi, double jump, bool circular, double value) {
  SearchVariable v;
  v.name = name;
  v.min = lo;
  v.max = hi;
  v.maxJump = jump;
  v.circular = circular;
  v.value = std::clamp(value, lo, hi);
  return v;
}

Transform rotation(const Vec3& axis, double angle) { return Transform::fromAxisAngle(axis.normalized(), angle); }

}  // namespace

// A frame whose z axis is `z` (unit), x chosen deterministically.
Quat frameWithZ(const Vec3& z) {
  const Vec3 helper = std::abs(z.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 y = z.cross(helper).normalized();
  const Vec3 x = y.cross(z);
  Mat3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = z;
  return Quat(R);
}

const char* toString(PositionSpace space) {
  switch (space) {
    case PositionSpace::AxisAngle: return "axis-angle";
    case PositionSpace::Approach: return "approach";
    case PositionSpace::Ellipsoid: return "ellipsoid";
    case PositionSpace::Complete: return "complete";
  }
  return "?";
}

std::vector<std::string> positionSpaceNames() { return {"axis-angle", "approach", "ellipsoid", "complete"}; }

PositionSpace positionSpaceFromString(const std::string& name) {
  for (PositionSpace s : {PositionSpace::AxisAngle, PositionSpace::Approach, PositionSpace::Ellipsoid,
                          PositionSpace::Complete})
    if (name == toString(s)) return s;
  throw Error("unknown search space '" + name + "' (axis-angle, approach, ellipsoid, complete)");
}

Transform HandSearchSpace::approachFrame(const std::vector<double>& x) const {
  switch (position) {
    case PositionSpace::AxisAngle: {
      const double theta = x[3], phi = x[4], alpha = x[5];
      const Vec3 axis(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
      return X_WR * Transform::fromTranslation(Vec3(x[0], x[1], x[2])) * rotation(axis, alpha);
    }
    case PositionSpace::Complete: {
      Quat q(x[3], x[4], x[5], x[6]);
      if (q.norm() < 1e-12) q = Quat::Identity();
      return X_WR * Transform(q.normalized(), Vec3(x[0], x[1], x[2]));
    }
    case PositionSpace::Ellipsoid: {
      const double beta = x[0], gamma = x[1], tau = x[2], dist = x[3];
      const Vec3 p(kEllipsoidA_mm * std::cos(beta) * std::cos(gamma), kEllipsoidB_mm * std::cos(beta) * std::sin(gamma),
                   kEllipsoidC_mm * std::sin(beta));
      const Vec3 n = Vec3(p.x() / (kEllipsoidA_mm * kEllipsoidA_mm), p.y() / (kEllipsoidB_mm * kEllipsoidB_mm),
                          p.z() / (kEllipsoidC_mm * kEllipsoidC_mm)).normalized();
      const Transform onSurface(frameWithZ(-n), p + dist * n);
      return X_WR * onSurface * rotation(Vec3::UnitZ(), tau);
    }
    case PositionSpace::Approach: {
      const double dist = x[0], a1 = x[1], a2 = x[2];
      return X_WA0 * rotation(Vec3::UnitX(), a1) * rotation(Vec3::UnitY(), a2) *
             Transform::fromTranslation(Vec3(0, 0, -dist));
    }
  }
  return {};
}

std::vector<double> HandSearchSpace::dofValues(const World& world, const std::vector<double>& x) const {
  const Robot& hand = world.robots.at(static_cast<std::size_t>(robot));
  std::vector<double> values(x.begin() + static_cast<long>(positionCount), x.end());
  if (values.empty()) return {};
  return this->posture == PostureSpace::Eigen ? amplitudesToDofs(hand, values) : values;
}

double HandSearchSpace::distance(const std::vector<double>& a, const std::vector<double>& b) const {
  const Transform A = approachFrame(a), B = approachFrame(b);
  const double dt = (A.translation() - B.translation()).norm() / distanceScale_mm;
  const double angle = A.rotation().angularDistance(B.rotation());
  return std::max(dt, 0.5 * angle / kPi);
}

HandSearchSpace makeSearchSpace(const World& world, const WorldState& state, int robot, int graspable,
                                PositionSpace position) {
  if (robot < 0 || robot >= static_cast<int>(world.robots.size()))
    throw Error("the world has no robot with index " + std::to_string(robot));
  if (graspable < 0 || graspable >= static_cast<int>(world.graspables.size()))
    throw Error("the world has no graspable body with index " + std::to_string(graspable));
  requireFits(world, state);
  const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
  const Body& object = world.graspables[static_cast<std::size_t>(graspable)];
  const RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
  HandSearchSpace s;
  s.robot = robot;
  s.graspable = graspable;
  s.position = position;
  const Transform& X_WG = state.X_WG[static_cast<std::size_t>(graspable)];
  s.X_WR = X_WG * Transform::fromTranslation(object.cog_mm);
  s.X_PA = hand.approach.value_or(Transform{});
  s.X_WA0 = rs.X_WP * s.X_PA;
  s.distanceScale_mm = object.maxRadius_mm > 0 ? object.maxRadius_mm : 200.0;
  const Transform X_RA = s.X_WR.inverse() * s.X_WA0;
  const Vec3 t = X_RA.translation();
  auto& v = s.variables;
  switch (position) {
    case PositionSpace::AxisAngle: {
      Eigen::AngleAxisd aa(X_RA.rotation());
      Vec3 axis = aa.axis();
      double angle = aa.angle();
      if (angle > kPi) { angle = 2 * kPi - angle; axis = -axis; }
      if (angle < 1e-12) axis = Vec3::UnitZ();
      v.push_back(var("tx", -250, 250, 150, false, t.x()));
      v.push_back(var("ty", -250, 250, 150, false, t.y()));
      v.push_back(var("tz", -250, 350, 150, false, t.z()));
      v.push_back(var("theta", 0, kPi, kPi / 5, false, std::acos(std::clamp(axis.z(), -1.0, 1.0))));
      v.push_back(var("phi", -kPi, kPi, kPi / 2, true, std::atan2(axis.y(), axis.x())));
      v.push_back(var("alpha", 0, kPi, kPi / 2, false, angle));
      break;
    }
    case PositionSpace::Complete: {
      const Quat q = X_RA.rotation();
      v.push_back(var("tx", -250, 250, 100, false, t.x()));
      v.push_back(var("ty", -250, 250, 100, false, t.y()));
      v.push_back(var("tz", -250, 250, 100, false, t.z()));
      v.push_back(var("qw", -5, 5, 1, false, q.w()));
      v.push_back(var("qx", -5, 5, 1, false, q.x()));
      v.push_back(var("qy", -5, 5, 1, false, q.y()));
      v.push_back(var("qz", -5, 5, 1, false, q.z()));
      break;
    }
    case PositionSpace::Ellipsoid: {
      const Vec3 d = t.norm() > 1e-9 ? Vec3(t.normalized()) : Vec3::UnitZ();
      const double beta = std::asin(std::clamp(d.z(), -1.0, 1.0)), gamma = std::atan2(d.y(), d.x());
      const Vec3 p(kEllipsoidA_mm * std::cos(beta) * std::cos(gamma), kEllipsoidB_mm * std::cos(beta) * std::sin(gamma),
                   kEllipsoidC_mm * std::sin(beta));
      v.push_back(var("beta", -kPi / 2, kPi / 2, kPi / 10, false, beta));
      v.push_back(var("gamma", -kPi, kPi, kPi / 5, true, gamma));
      v.push_back(var("tau", -kPi, kPi, kPi / 5, true, 0));
      v.push_back(var("dist", -50, 100, 50, false, t.norm() - p.norm()));
      break;
    }
    case PositionSpace::Approach:
      v.push_back(var("dist", -30, 200, 100, false, 0));
      v.push_back(var("wrist1", -kPi / 3, kPi / 3, kPi / 6, false, 0));
      v.push_back(var("wrist2", -kPi / 3, kPi / 3, kPi / 6, false, 0));
      break;
  }
  s.positionCount = v.size();
  if (!hand.eigengrasps.empty()) {
    s.posture = PostureSpace::Eigen;
    const std::vector<double> a = dofsToAmplitudes(hand, rs.dofValues);
    for (std::size_t i = 0; i < hand.eigengrasps.grasps.size(); ++i) {
      const EigenGrasp& g = hand.eigengrasps.grasps[i];
      const double lo = g.minAmplitude.value_or(-4.0), hi = g.maxAmplitude.value_or(4.0);
      const std::string name = "eg" + std::to_string(i);
      v.push_back(var(name.c_str(), lo, hi, (hi - lo) / 4, false, a[i]));
    }
  } else {
    s.posture = PostureSpace::Dof;
    for (std::size_t i = 0; i < hand.dofs.size(); ++i) {
      const Dof& d = hand.dofs[i];
      const std::string name = "dof" + std::to_string(i);
      v.push_back(var(name.c_str(), d.minValue, d.maxValue, (d.maxValue - d.minValue) / 2, false, rs.dofValues[i]));
    }
  }
  return s;
}

}  // namespace sg::planner
