// The hand energies (HandSearch.h, PLANNER.md §Energies): the contacts and potential-quality energies of a
// hand's probes and HandEvaluator, which places the hand at a search state of its space (HandSearchSpace.cpp)
// on a per-thread WorldState and evaluates the request's energy there.
#include "grasp/planner/HandSearch.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact/CollisionFilter.h"
#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "core/Math.h"
#include "geometry/BvhCache.h"
#include "geometry/ContactAcceptance.h"
#include "geometry/MeshTopology.h"
#include "geometry/Proximity.h"
#include "geometry/ShapeCollision.h"
#include "geometry/ShapePairs.h"
#include "geometry/TopologyCache.h"
#include "grasp/AutoGrasp.h"
#include "grasp/QualityMeasure.h"
#include "grasp/SupportEpsilon.h"
#include "grasp/WrenchHull.h"
#include "grasp/Motion.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"

namespace sg::planner {

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

EnergyKind energyFromString(const std::string& name) {
  for (EnergyKind k : {EnergyKind::Contacts, EnergyKind::PotentialQuality, EnergyKind::GuidedPotentialQuality,
                       EnergyKind::AutoGraspQuality, EnergyKind::StrictAutoGrasp})
    if (name == toString(k)) return k;
  throw Error("unknown energy '" + name +
              "' (contacts, potential-quality, guided-potential-quality, autograsp-quality, strict-autograsp)");
}

double HandProbe::alignment() const {
  const Vec3 d = q_W_mm - p_W_mm;
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
  return std::cos(kPi * distance_mm / 50.0) + 1.0;
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
      const double a = 2 * kPi * k / kEdges;
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
    if (const auto exact = exactCollision(a, b)) {
      if (*exact) return true;
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

std::optional<Vec3> HandEvaluator::centringShift(double maxGap_mm) const {
  if (!objectBvh_) return std::nullopt;
  const RobotState& rs = scratch_.robots[static_cast<std::size_t>(space_.robot)];
  const Transform& X_WG = scratch_.X_WG[static_cast<std::size_t>(space_.graspable)];
  const double threshold = settings_.analysis.collision.threshold_mm();
  double touching_mm = std::numeric_limits<double>::infinity();
  double missing_mm = std::numeric_limits<double>::infinity();
  Vec3 u_W = Vec3::Zero();
  for (const LinkProbe& link : links_) {
    if (link.ref.chain < 0) continue;  // the closing moves the links; the palm stays
    const MeshDistance d = meshDistance(*link.bvh, X_WB(rs, link.ref), *objectBvh_, X_WG, maxGap_mm);
    if (!d.found()) continue;
    // Touching as detection accepts it (its round-off margin, geometry/ContactAcceptance.h).
    const double scale = contactScale_mm(*link.bvh, X_WB(rs, link.ref), *objectBvh_, X_WG);
    if (d.distance_mm <= acceptedContactThreshold_mm(threshold, scale)) {
      touching_mm = std::min(touching_mm, d.distance_mm);
    } else if (d.distance_mm < missing_mm) {
      missing_mm = d.distance_mm;
      u_W = (d.p_WCb_mm - d.p_WCa_mm) / d.distance_mm;
    }
  }
  if (!std::isfinite(touching_mm) || !std::isfinite(missing_mm)) return std::nullopt;
  return Vec3(0.5 * (missing_mm - touching_mm) * u_W);
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

AnalysisResult HandEvaluator::analyzeClosedGrasp() {
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
  AnalysisResult result = analyzeClosedGrasp();
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
    p.p_W_mm = X_WL * vc.location_mm;
    p.n_W = X_WL.applyToVector(vc.normal).normalized();
    p.q_W_mm = closestPointOnMesh(*objectBvh_, X_WG, p.p_W_mm).point_mm;
    p.mu = vc.mu;
    return p;
  }
  if (!objectTopology_) {
    // Shared by every evaluator (the search's per thread and the final stage's): built once per mesh.
    objectTopology_ = topologyFor(objectBvh_);
    for (LinkProbe& link : links_) link.topology = topologyFor(link.bvh);
  }
  LinkProbe& link = links_[k];
  const Transform& X_WL = X_WB(rs, link.ref);
  const MeshDistance d = meshDistance(*link.bvh, *link.topology, X_WL, *objectBvh_, *objectTopology_, X_WG, link.warm);
  if (!d.found()) return std::nullopt;
  p.p_W_mm = d.p_WCa_mm;
  p.q_W_mm = d.p_WCb_mm;
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
  Vec3 p_W_mm;
  double radius = 0;  // a virtual contact is a point
  if (settings_.presetContacts && !hand.virtualContacts.empty()) {
    const VirtualContact& vc = hand.virtualContacts[k];
    p_W_mm = X_WB(rs, BodyRef{vc.chain, vc.link}) * vc.location_mm;
  } else {
    const BvhBox& link = links_[k].bvh->nodes().front().box;
    p_W_mm = X_WB(rs, links_[k].ref) * link.center;
    radius = link.radius;
  }
  return std::max(0.0, ballGapLowerBound(p_W_mm, radius, c_W, object.radius));
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
    // The threshold as detection accepts it at any state the closing can reach: the margin of the grown ball's
    // scale bounds the margin of the link's own ball wherever it ends (geometry/ContactAcceptance.h).
    const double accepted =
        acceptedContactThreshold_mm(threshold, ballPairScale_mm(c_W, ball.radius + reach, c_WO, objectBall.radius));
    if (ballGapLowerBound(c_W, ball.radius + reach, c_WO, objectBall.radius) > accepted) continue;
    // The balls overlap: no point of the object's surface (its nearest, a ball of radius 0) within the grown
    // ball and the threshold will do too (contacts are between the surfaces).
    const Vec3 q_W_mm = closestPointOnMesh(*objectBvh_, X_WG, c_W).point_mm;
    if (!(ballGapLowerBound(c_W, ball.radius + reach, q_W_mm, 0.0) > accepted)) return false;
  }
  return true;
}

double HandEvaluator::autoGraspQualityEnergy() {
  // No body can reach the object while the hand closes: no contact on it, so the energy below is 1 − 0.1 · 0.
  lastScoreClosed_ = false;
  lastContactCentroid_W_.reset();
  lastContactNormalAxis_W_.reset();
  if (closingMissesObject()) return 1.0;
  AnalysisResult result = analyzeClosedGrasp();
  lastScoreClosed_ = true;
  GraspEvaluation* evaluation = result.evaluations.empty() ? nullptr : &result.evaluations.front();
  const std::size_t contacts = evaluation ? evaluation->contacts.size() : 0;
  if (contacts > 0) {
    Vec3 sum = Vec3::Zero();
    Mat3 scatter = Mat3::Zero();
    for (const ContactEvaluation& c : evaluation->contacts) {
      sum += c.onObject().p_WC_mm;
      scatter += c.onObject().n_W * c.onObject().n_W.transpose();
    }
    lastContactCentroid_W_ = Vec3(sum / static_cast<double>(contacts));
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(scatter);  // eigenvalues ascending
    lastContactNormalAxis_W_ = Vec3(eigen.eigenvectors().col(2).normalized());
  }
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
