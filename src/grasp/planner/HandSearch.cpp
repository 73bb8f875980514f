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

constexpr double kPiHere = 3.14159265358979323846;

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

}  // namespace

const char* toString(PositionSpace space) {
  switch (space) {
    case PositionSpace::AxisAngle: return "axis-angle";
    case PositionSpace::Approach: return "approach";
    case PositionSpace::Ellipsoid: return "ellipsoid";
    case PositionSpace::Complete: return "complete";
  }
  return "?";
}

const char* toString(EnergyKind energy) {
  switch (energy) {
    case EnergyKind::Contacts: return "contacts";
    case EnergyKind::PotentialQuality: return "potential-quality";
    case EnergyKind::GuidedPotentialQuality: return "guided-potential-quality";
    case EnergyKind::AutoGraspQuality: return "autograsp-quality";
    case EnergyKind::StrictAutoGrasp: return "strict-autograsp";
  }
  return "?";
}

std::vector<std::string> energyNames() {
  return {"contacts", "potential-quality", "guided-potential-quality", "autograsp-quality", "strict-autograsp"};
}

std::vector<std::string> positionSpaceNames() { return {"axis-angle", "approach", "ellipsoid", "complete"}; }

PositionSpace positionSpaceFromString(const std::string& name) {
  for (PositionSpace s : {PositionSpace::AxisAngle, PositionSpace::Approach, PositionSpace::Ellipsoid,
                          PositionSpace::Complete})
    if (name == toString(s)) return s;
  throw Error("unknown search space '" + name + "' (axis-angle, approach, ellipsoid, complete)");
}

EnergyKind energyFromString(const std::string& name) {
  for (EnergyKind k : {EnergyKind::Contacts, EnergyKind::PotentialQuality, EnergyKind::GuidedPotentialQuality,
                       EnergyKind::AutoGraspQuality, EnergyKind::StrictAutoGrasp})
    if (name == toString(k)) return k;
  throw Error("unknown energy '" + name +
              "' (contacts, potential-quality, guided-potential-quality, autograsp-quality, strict-autograsp)");
}

double HandProbe::alignment() const {
  const Vec3 d = q_W - p_W;
  const double dist = d.norm();
  return dist > 1e-12 ? n_W.dot(d / dist) : 1.0;
}

double contactsEnergyOf(const std::vector<HandProbe>& probes) {
  if (probes.empty()) return 0;
  double sum = 0;
  for (const HandProbe& p : probes) sum += p.distance() + 50.0 * (1.0 - p.alignment());
  return sum / static_cast<double>(probes.size());
}

double potentialScale(double distance_mm, double cosAngle) {
  if (cosAngle < 0.7 || distance_mm > 50.0) return 0.0;
  return std::cos(kPiHere * distance_mm / 50.0) + 1.0;
}

double potentialQualityEnergyOf(const std::vector<HandProbe>& probes) {
  constexpr int kEdges = 8;
  std::vector<Vec3> forces;
  int counted = 0;
  for (const HandProbe& p : probes) {
    const double sf = potentialScale(p.distance(), p.alignment());
    if (sf <= 0.25) continue;
    ++counted;
    const Vec3 n = p.n_W.normalized();
    if (p.mu <= 0) {
      forces.push_back(sf * n);
      continue;
    }
    const Quat frame = frameWithZ(n);
    const Vec3 t1 = frame * Vec3::UnitX(), t2 = frame * Vec3::UnitY();
    for (int k = 0; k < kEdges; ++k) {
      const double a = 2 * kPiHere * k / kEdges;
      forces.push_back(sf * (n + p.mu * (std::cos(a) * t1 + std::sin(a) * t2)));
    }
  }
  if (counted < 3) return 1.0;
  MatX points(3, static_cast<long>(forces.size()));
  for (std::size_t i = 0; i < forces.size(); ++i) points.col(static_cast<long>(i)) = forces[i];
  const WrenchHull hull = convexHull(points);
  if (!hull.ok() || hull.facets.empty()) return 1.0;
  double epsilon = std::numeric_limits<double>::infinity();
  for (const Hyperplane& f : hull.facets) epsilon = std::min(epsilon, -f.offset);
  return epsilon > 0 ? -epsilon : 1.0;
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
  return std::max(dt, 0.5 * angle / kPiHere);
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
      if (angle > kPiHere) { angle = 2 * kPiHere - angle; axis = -axis; }
      if (angle < 1e-12) axis = Vec3::UnitZ();
      v.push_back(var("tx", -250, 250, 150, false, t.x()));
      v.push_back(var("ty", -250, 250, 150, false, t.y()));
      v.push_back(var("tz", -250, 350, 150, false, t.z()));
      v.push_back(var("theta", 0, kPiHere, kPiHere / 5, false, std::acos(std::clamp(axis.z(), -1.0, 1.0))));
      v.push_back(var("phi", -kPiHere, kPiHere, kPiHere / 2, true, std::atan2(axis.y(), axis.x())));
      v.push_back(var("alpha", 0, kPiHere, kPiHere / 2, false, angle));
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
      v.push_back(var("beta", -kPiHere / 2, kPiHere / 2, kPiHere / 10, false, beta));
      v.push_back(var("gamma", -kPiHere, kPiHere, kPiHere / 5, true, gamma));
      v.push_back(var("tau", -kPiHere, kPiHere, kPiHere / 5, true, 0));
      v.push_back(var("dist", -50, 100, 50, false, t.norm() - p.norm()));
      break;
    }
    case PositionSpace::Approach:
      v.push_back(var("dist", -30, 200, 100, false, 0));
      v.push_back(var("wrist1", -kPiHere / 3, kPiHere / 3, kPiHere / 6, false, 0));
      v.push_back(var("wrist2", -kPiHere / 3, kPiHere / 3, kPiHere / 6, false, 0));
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

HandEvaluator::HandEvaluator(const World& world, const WorldState& start, const HandSearchSpace& space,
                             const EnergySettings& settings)
    : world_(world), start_(start), space_(space), settings_(settings), scratch_(start) {
  handBodies_ = robotBodies(world, space.robot);
  const Body& object = world.graspables.at(static_cast<std::size_t>(space.graspable));
  if (object.mesh && !object.mesh->empty()) objectBvh_ = bvhFor(object.mesh);
  const Robot& hand = world.robots[static_cast<std::size_t>(space.robot)];
  for (const BodyRef& ref : hand.bodyRefs()) {
    const Body& b = hand.body(ref);
    if (b.mesh && !b.mesh->empty()) links_.push_back({ref, bvhFor(b.mesh), b.mesh.get(), nullptr, {}});
  }
  auto sphereOf = [&](const BodyHandle& handle, const Bvh& bvh) {
    for (std::size_t k = 0; k < spheres_.size(); ++k)
      if (spheres_[k].body == handle) return static_cast<int>(k);
    const BvhBox& root = bvh.nodes().front().box;
    spheres_.push_back({handle, root.center, root.radius});
    return static_cast<int>(spheres_.size() - 1);
  };
  for (const BodyPair& p : activePairs(world, settings.analysis.collision, handBodies_)) {
    const Body& a = world.body(p.first);
    const Body& b = world.body(p.second);
    CollisionPair pair{p.first, p.second, bvhFor(a.mesh), bvhFor(b.mesh),
                       a.primitive ? &*a.primitive : nullptr, b.primitive ? &*b.primitive : nullptr};
    // A primitive's exact surface may bulge beyond its tessellation's BVH: those pairs are never skipped.
    if (!pair.primitiveA && !pair.primitiveB && pair.bvhA && pair.bvhB && !pair.bvhA->empty() && !pair.bvhB->empty()) {
      pair.sphereA = sphereOf(p.first, *pair.bvhA);
      pair.sphereB = sphereOf(p.second, *pair.bvhB);
    }
    collisionPairs_.push_back(std::move(pair));
  }
  sphereCenters_W_.resize(spheres_.size());
  // closingMissesObject bounds the bodies of links_ by their BVH balls. It applies only when those are the
  // only bodies whose contacts the energy counts: the grasp counts the object's contacts with every robot
  // body (QualitySettings::handContactsOnly; with it off, with every body), so this hand must be the world's
  // only robot, with no robot mounted on it; and when none of them (nor the object) is a primitive, whose
  // exact surface may bulge beyond its tessellation's ball.
  reachCheckable_ = !object.primitive && settings.analysis.quality.handContactsOnly && world.robots.size() == 1;
  for (const BodyHandle& h : handBodies_) {
    if (h.kind != BodyHandle::Kind::Robot || h.index != space.robot) reachCheckable_ = false;
    else if (hand.body(h.ref).primitive) reachCheckable_ = false;
  }
}

bool HandEvaluator::handCollides() const {
  // As anyCollision(world, state, settings, handBodies) (ContactDetection.cpp: pairCollides), without looking
  // up the pairs and BVHs on every call, and skipping mesh pairs whose BVH root spheres are apart by more
  // than the rounding of this world-frame test (meshesCollide prunes those at its root: the same answer).
  for (std::size_t k = 0; k < spheres_.size(); ++k)
    sphereCenters_W_[k] = X_WB(scratch_, spheres_[k].body) * spheres_[k].center_B;
  for (const CollisionPair& p : collisionPairs_) {
    if (p.sphereA >= 0) {
      const Vec3& cA = sphereCenters_W_[static_cast<std::size_t>(p.sphereA)];
      const Vec3& cB = sphereCenters_W_[static_cast<std::size_t>(p.sphereB)];
      const double rA = spheres_[static_cast<std::size_t>(p.sphereA)].radius_mm;
      const double rB = spheres_[static_cast<std::size_t>(p.sphereB)].radius_mm;
      if (ballGapLowerBound(cA, rA, cB, rB) > 0) continue;
    }
    const PairSide a{p.primitiveA, p.bvhA.get(), X_WB(scratch_, p.a)};
    const PairSide b{p.primitiveB, p.bvhB.get(), X_WB(scratch_, p.b)};
    if (const auto exact = exactSeparation(a, b)) {
      if (exact->colliding) return true;
    } else if (meshesCollide(*p.bvhA, a.X_WB, *p.bvhB, b.X_WB)) {
      return true;
    }
  }
  return false;
}

bool HandEvaluator::place(const std::vector<double>& x) {
  RobotState& rs = scratch_.robots[static_cast<std::size_t>(space_.robot)];
  rs = start_.robots[static_cast<std::size_t>(space_.robot)];  // also resets break-away state
  const Robot& hand = world_.robots[static_cast<std::size_t>(space_.robot)];
  rs.X_WP = space_.palmPose(x);
  std::vector<double> dofs = space_.dofValues(world_, x);
  if (dofs.empty()) dofs = rs.dofValues;
  setDofValues(hand, rs, dofs);  // clamps, recomputes link poses
  updateConnections(world_, scratch_);
  return !handCollides();
}

std::optional<double> HandEvaluator::energy(const std::vector<double>& x, AcceptanceTest& test) {
  if (settings_.kind != EnergyKind::Contacts) return energy(x);
  if (!place(x)) return std::nullopt;
  return contactsEnergy(test);
}

std::optional<double> HandEvaluator::energy(const std::vector<double>& x) {
  if (!place(x)) return std::nullopt;
  switch (settings_.kind) {
    case EnergyKind::Contacts: return contactsEnergy();
    case EnergyKind::PotentialQuality: return potentialQualityEnergy();
    case EnergyKind::GuidedPotentialQuality: {
      const std::vector<HandProbe> p = probes();
      const double potential = potentialQualityEnergyOf(p);
      return potential <= 0 ? potential : contactsEnergyOf(p);
    }
    case EnergyKind::AutoGraspQuality: return autoGraspQualityEnergy();
    case EnergyKind::StrictAutoGrasp: return strictAutoGraspEnergy();
  }
  return std::nullopt;
}

void HandEvaluator::close() {
  if (settings_.kind == EnergyKind::StrictAutoGrasp) {
    approachForStrictEnergy();
  }
  AutoGraspSettings ag = settings_.autoGrasp;
  ag.motion.collision = settings_.analysis.collision;
  autoGrasp(world_, scratch_, space_.robot, ag);
}

void HandEvaluator::approachForStrictEnergy() {
  RobotState& rs = scratch_.robots[static_cast<std::size_t>(space_.robot)];
  const Transform placed = rs.X_WP;
  MotionSettings motion;
  motion.collision = settings_.analysis.collision;
  const MotionResult r = approachToContact(world_, scratch_, space_.robot, kStrictApproach_mm, motion);
  bool palmContact = false;
  for (const Contact& c : r.contacts)
    for (const ContactSide* side : {&c.side1, &c.side2})
      if (side->body.kind == BodyHandle::Kind::Robot && side->body.index == space_.robot && side->body.ref.chain < 0)
        palmContact = true;
  if (!palmContact && !(rs.X_WP.matrix() == placed.matrix())) {
    // No palm contact: back to the placed pose (links follow the palm).
    const Robot& hand = world_.robots[static_cast<std::size_t>(space_.robot)];
    rs.X_WP = placed;
    const std::vector<double> dofs = rs.dofValues;
    setDofValues(hand, rs, dofs);
    updateConnections(world_, scratch_);
  }
}

AnalysisResult HandEvaluator::analyseClosedGrasp() {
  close();
  AnalysisRequest request = settings_.analysis;
  request.motion = {};
  request.graspable = space_.graspable;
  request.measures.clear();
  request.contactModels.resize(1);
  request.contactScope = ContactScope::Grasp;  // the energies read the grasp only (not, e.g., the table's contacts)
  NullProgress quiet;
  return analyzeGrasp(world_, scratch_, request, quiet);
}

double HandEvaluator::strictAutoGraspEnergy() {
  AnalysisResult result = analyseClosedGrasp();
  if (result.evaluations.empty()) return kStrictNoGrasp;
  GraspEvaluation& evaluation = result.evaluations.front();
  NullProgress quiet;
  computeMeasures(evaluation, {"epsilon-l1", "volume-l1"}, quiet);
  const MeasureValue* eps = evaluation.measure("epsilon-l1");
  const MeasureValue* vol = evaluation.measure("volume-l1");
  const double epsilon = eps && eps->ok ? std::max(eps->value, 0.0) : 0.0;
  const double volume = vol && vol->ok ? vol->value : 0.0;
  const double e = -(30.0 * volume + 100.0 * epsilon);
  return e == 0.0 ? kStrictNoGrasp : e;
}

std::size_t HandEvaluator::probeCount() const {
  if (!objectBvh_) return 0;
  const Robot& hand = world_.robots[static_cast<std::size_t>(space_.robot)];
  return settings_.presetContacts && !hand.virtualContacts.empty() ? hand.virtualContacts.size() : links_.size();
}

std::optional<HandProbe> HandEvaluator::probeAt(std::size_t k) {
  const Robot& hand = world_.robots[static_cast<std::size_t>(space_.robot)];
  const Body& object = world_.graspables[static_cast<std::size_t>(space_.graspable)];
  const RobotState& rs = scratch_.robots[static_cast<std::size_t>(space_.robot)];
  const Transform& X_WG = scratch_.X_WG[static_cast<std::size_t>(space_.graspable)];
  HandProbe p;
  if (settings_.presetContacts && !hand.virtualContacts.empty()) {
    const VirtualContact& vc = hand.virtualContacts[k];
    const Transform& X_WL = X_WB(rs, BodyRef{vc.chain, vc.link});
    p.p_W = X_WL * vc.location_mm;
    p.n_W = X_WL.applyToVector(vc.normal).normalized();
    p.q_W = closestPointOnMesh(*objectBvh_, X_WG, p.p_W).point_mm;
    p.mu = vc.mu;
    return p;
  }
  if (!objectTopology_) {
    objectTopology_ = std::make_shared<const MeshTopology>(makeMeshTopology(*objectBvh_));
    for (LinkProbe& link : links_) link.topology = std::make_shared<const MeshTopology>(makeMeshTopology(*link.bvh));
  }
  LinkProbe& link = links_[k];
  const Transform& X_WL = X_WB(rs, link.ref);
  const MeshDistance d = meshDistance(*link.bvh, *link.topology, X_WL, *objectBvh_, *objectTopology_, X_WG, link.warm);
  if (!d.found()) return std::nullopt;
  p.p_W = d.pointA_mm;
  p.q_W = d.pointB_mm;
  // The normal of the link's triangle in the closest pair (the canonical one when the witness point is
  // shared by several triangles).
  p.n_W = X_WL.applyToVector(link.mesh->faceNormals.at(d.triangleA));
  p.mu = world_.materials.staticFriction(hand.body(link.ref).material, object.material);
  return p;
}

double HandEvaluator::probeFloor(std::size_t k) const {
  const BvhBox& object = objectBvh_->nodes().front().box;
  const Vec3 c_W = scratch_.X_WG[static_cast<std::size_t>(space_.graspable)] * object.center;
  const Robot& hand = world_.robots[static_cast<std::size_t>(space_.robot)];
  const RobotState& rs = scratch_.robots[static_cast<std::size_t>(space_.robot)];
  Vec3 p_W;
  double radius = 0;  // a virtual contact is a point
  if (settings_.presetContacts && !hand.virtualContacts.empty()) {
    const VirtualContact& vc = hand.virtualContacts[k];
    p_W = X_WB(rs, BodyRef{vc.chain, vc.link}) * vc.location_mm;
  } else {
    const BvhBox& link = links_[k].bvh->nodes().front().box;
    p_W = X_WB(rs, links_[k].ref) * link.center;
    radius = link.radius;
  }
  return std::max(0.0, ballGapLowerBound(p_W, radius, c_W, object.radius));
}

std::vector<HandProbe> HandEvaluator::probes() {
  std::vector<HandProbe> out;
  const std::size_t n = probeCount();
  for (std::size_t k = 0; k < n; ++k)
    if (auto p = probeAt(k)) out.push_back(*p);
  return out;
}

double HandEvaluator::contactsEnergy(AcceptanceTest& test) {
  // PLANNER.md §Annealing, "Stopping an energy early": probes in the order of their last terms, largest
  // first; after each, the terms so far bound the energy from below (every term is ≥ 0, to rounding), and
  // once the test rejects that bound the rest is not computed. A full evaluation sums in probe order, so its
  // value is the same number as contactsEnergy().
  const std::size_t n = probeCount();
  if (lastTerms_.size() != n) lastTerms_.assign(n, 0.0);
  probeOrder_.resize(n);
  for (std::size_t k = 0; k < n; ++k) probeOrder_[k] = k;
  std::stable_sort(probeOrder_.begin(), probeOrder_.end(),
                   [&](std::size_t a, std::size_t b) { return lastTerms_[a] > lastTerms_[b]; });
  probeSlots_.assign(n, std::nullopt);
  // A probe not yet computed adds at least its bounding-sphere gap to the object (≥ 0).
  probeFloors_.resize(n);
  double floors = 0;
  for (std::size_t k = 0; k < n; ++k) floors += probeFloors_[k] = probeFloor(k);
  // The energy is Σ/N' with N' ≤ n probes found; the margin covers the rounding of the sums and terms a few
  // ulps below 0 (an alignment a little above 1).
  const auto bound = [n](double sum) {
    return (sum - 1e-9 * (std::abs(sum) + static_cast<double>(n))) / static_cast<double>(n);
  };
  if (floors > 0 && test.rejects(bound(floors))) return std::numeric_limits<double>::infinity();
  double partial = 0;
  for (std::size_t r = 0; r < n; ++r) {
    const std::size_t k = probeOrder_[r];
    probeSlots_[k] = probeAt(k);
    floors -= probeFloors_[k];
    if (!probeSlots_[k]) continue;
    const double term = probeSlots_[k]->distance() + 50.0 * (1.0 - probeSlots_[k]->alignment());
    lastTerms_[k] = term;
    partial += term;
    if (r + 1 < n && test.rejects(bound(partial + std::max(0.0, floors)))) return std::numeric_limits<double>::infinity();
  }
  std::vector<HandProbe> found;
  for (auto& slot : probeSlots_)
    if (slot) found.push_back(*slot);
  return contactsEnergyOf(found);
}

double HandEvaluator::contactsEnergy() { return contactsEnergyOf(probes()); }

double HandEvaluator::potentialQualityEnergy() { return potentialQualityEnergyOf(probes()); }

bool HandEvaluator::closingMissesObject() const {
  // PLANNER.md §Energies, "auto-grasp quality": auto-grasp moves each DOF from its value toward its limit (or
  // not at all), so each joint's motion changes by at most |ratio| × that DOF's travel, and the palm stays.
  // If every body's ball, grown by its reach over those travels (model/README.md §Reach bound), stays farther
  // than the contact threshold from the object's ball, no closing can end with a contact on the object.
  if (!objectBvh_ || !reachCheckable_) return false;
  const Robot& hand = world_.robots[static_cast<std::size_t>(space_.robot)];
  const RobotState& rs = scratch_.robots[static_cast<std::size_t>(space_.robot)];
  std::vector<double> dofTravel(hand.dofs.size(), 0.0);
  for (std::size_t d = 0; d < hand.dofs.size(); ++d) {
    const double v = hand.dofs[d].defaultVelocity * settings_.autoGrasp.speedFactor;
    if (std::abs(v) * kAutoGraspTimeStep > 0)
      dofTravel[d] = std::abs((v >= 0 ? hand.dofs[d].maxValue : hand.dofs[d].minValue) - rs.dofValues[d]);
  }
  std::vector<std::vector<double>> jointTravel(hand.chains.size());
  for (std::size_t c = 0; c < hand.chains.size(); ++c)
    for (const Joint& j : hand.chains[c].joints) {
      const bool driven = j.type != JointType::Fixed && j.expr.dof >= 0 && j.expr.dof < static_cast<int>(dofTravel.size());
      jointTravel[c].push_back(driven ? std::abs(j.expr.ratio) * dofTravel[static_cast<std::size_t>(j.expr.dof)] : 0.0);
    }
  const std::vector<std::vector<Vec3>> origins = jointOrigins(hand, rs.X_WP, rs.dofValues, rs.breakAway);
  const BvhBox& objectBall = objectBvh_->nodes().front().box;
  const Transform& X_WG = scratch_.X_WG[static_cast<std::size_t>(space_.graspable)];
  const Vec3 c_WO = X_WG * objectBall.center;
  const double threshold = settings_.analysis.collision.threshold_mm();
  for (const LinkProbe& body : links_) {  // every body of the hand with geometry (the constructor checked)
    const BvhBox& ball = body.bvh->nodes().front().box;
    const Vec3 c_W = X_WB(rs, body.ref) * ball.center;
    const double reach = body.ref.chain < 0 ? 0.0 : linkBallReach(hand, origins, body.ref, c_W, ball.radius, jointTravel);
    if (ballGapLowerBound(c_W, ball.radius + reach, c_WO, objectBall.radius) > threshold) continue;
    // The balls overlap: no point of the object's surface (its nearest, a ball of radius 0) within the grown
    // ball and the threshold will do too (contacts are between the surfaces).
    const Vec3 q_W = closestPointOnMesh(*objectBvh_, X_WG, c_W).point_mm;
    if (!(ballGapLowerBound(c_W, ball.radius + reach, q_W, 0.0) > threshold)) return false;
  }
  return true;
}

double HandEvaluator::autoGraspQualityEnergy() {
  // No body can reach the object while the hand closes: no contact on it, so the energy below is 1 − 0.1 · 0.
  if (closingMissesObject()) return 1.0;
  AnalysisResult result = analyseClosedGrasp();
  GraspEvaluation* evaluation = result.evaluations.empty() ? nullptr : &result.evaluations.front();
  const std::size_t contacts = evaluation ? evaluation->contacts.size() : 0;
  // Not force closure: 1 − 0.1·min(contacts, 9) ∈ (0, 1] — above every force-closure energy (≤ 0), and
  // more contacts on the object rank better.
  const double notForceClosure = 1.0 - 0.1 * static_cast<double>(std::min<std::size_t>(contacts, 9));
  if (!evaluation || contacts < 2) return notForceClosure;
  SupportEpsilonSettings es = supportEpsilonSettingsFor(evaluation->gws, evaluation->forceClosureTolerance);
  es.stopWhenNotForceClosure = true;
  const SupportEpsilon eps = l1EpsilonFromSupport(evaluation->perContactWrenches(), es);
  if (!eps.forceClosure) return notForceClosure;
  double quality = eps.epsilon;
  if (settings_.measure != "epsilon-l1") {
    NullProgress quiet;
    computeMeasures(*evaluation, {settings_.measure}, quiet);
    const MeasureValue* m = evaluation->measure(settings_.measure);
    quality = m && m->ok ? m->value : 0.0;
  }
  return -100.0 * quality;
}

}  // namespace sg::planner
