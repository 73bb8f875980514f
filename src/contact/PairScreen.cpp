#include "contact/PairScreen.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <variant>

#include "contact/ContactDetection.h"
#include "contact/MotionBound.h"
#include "geometry/BvhCache.h"
#include "geometry/Proximity.h"
#include "geometry/ProximityContacts.h"
#include "geometry/SeparationBound.h"
#include "geometry/ShapePairs.h"

namespace sg {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// Safety beyond the threshold (mm): a pair is skipped only when its bound exceeds threshold + this, which
// covers the rounding of the bound (displacements, the certified or measured distance: ~1e-10 mm) and the
// round-off margin the contact queries accept beyond the threshold (geometry/ContactAcceptance.h: 5.7e-14 of
// the scene's coordinate magnitude, below 1e-3 mm up to 1.7e10 mm) by far.
constexpr double kMargin_mm = 1e-3;
// How far beyond the threshold a bound is certified (mm; the cap of meshSeparationBound): enough for about
// kLookaheadQueries more queries at the speed the pair's last bound ran out with, within [min, max]; halved
// after a failed certificate. A larger cap certifies longer but makes the traversal descend further.
constexpr double kFirstLookahead_mm = 1;
constexpr double kMinLookahead_mm = 0.05;
constexpr double kMaxLookahead_mm = 3;
constexpr double kLookaheadQueries = 2;
// After a failed certificate (the pair is within the cap) the next 2^failures − 1 (at most kMaxPlainRun)
// queries of the pair run the pair tests directly.
constexpr int kMaxPlainRun = 8;

bool samePose(const Transform& a, const Transform& b) {
  return std::memcmp(a.rotation().coeffs().data(), b.rotation().coeffs().data(), 4 * sizeof(double)) == 0 &&
         std::memcmp(a.translation().data(), b.translation().data(), 3 * sizeof(double)) == 0;
}

}  // namespace

PairScreen::PairScreen(const World& world, std::vector<BodyPair> pairs, const CollisionSettings& settings)
    : world_(world), pairs_(std::move(pairs)), settings_(settings) {
  entries_.reserve(pairs_.size());
  for (const BodyPair& p : pairs_) {
    Entry e;
    e.pair = p;
    const Body& a = world.body(p.first);
    const Body& b = world.body(p.second);
    e.bvhA = bvhFor(a.mesh);
    e.bvhB = bvhFor(b.mesh);
    e.primitiveA = a.primitive ? &*a.primitive : nullptr;
    e.primitiveB = b.primitive ? &*b.primitive : nullptr;
    e.ballA = ballOf<Ball>(*e.bvhA, e.primitiveA);
    e.ballB = ballOf<Ball>(*e.bvhB, e.primitiveB);
    e.exact = hasExactPairQuery({e.primitiveA, e.bvhA.get(), {}}, {e.primitiveB, e.bvhB.get(), {}});
    auto indexOf = [&](const BodyHandle& h) {
      const auto it = std::find(bodies_.begin(), bodies_.end(), h);
      if (it != bodies_.end()) return static_cast<int>(it - bodies_.begin());
      bodies_.push_back(h);
      return static_cast<int>(bodies_.size()) - 1;
    };
    e.bodyA = indexOf(p.first);
    e.bodyB = indexOf(p.second);
    balls_.resize(bodies_.size());
    balls_[static_cast<std::size_t>(e.bodyA)] = e.ballA;
    balls_[static_cast<std::size_t>(e.bodyB)] = e.ballB;
    quiet_.push_back({e.bodyA, e.bodyB});
    entries_.push_back(std::move(e));
  }
}

double PairScreen::measure(Entry& e, const Transform& X_WA, const Transform& X_WB, double cap_mm) {
  ++counts_.measured;
  const PairSide a{e.primitiveA, e.bvhA.get(), X_WA}, b{e.primitiveB, e.bvhB.get(), X_WB};
  if (e.exact) {
    if (const auto r = exactSeparation(a, b)) return r->colliding ? 0.0 : std::max(0.0, r->separation_mm);
  }
  return meshSeparationBound(*e.bvhA, X_WA, *e.bvhB, X_WB, cap_mm);
}

bool PairScreen::far(Entry& e, const Transform& X_WA, const Transform& X_WB) {
  if (e.memo && samePose(e.memoA, X_WA) && samePose(e.memoB, X_WB)) {
    ++counts_.reused;
    return false;  // the answers known at these poses are in the memo
  }
  e.memo = true;
  e.memoA = X_WA;
  e.memoB = X_WB;
  e.collides = -1;
  e.contactsKnown = false;
  e.contacts.clear();
  const double limit = settings_.threshold_mm() + kMargin_mm;
  Quiet& q = quiet_[static_cast<std::size_t>(&e - entries_.data())];
  if (e.bounded) {
    // The odometers first (a subtraction); the bound from the poses themselves when they do not suffice.
    double moved = odometerMoved(e);
    if (!(e.lower_mm - moved > limit)) moved = std::min(moved, movedSinceReference(e, limit));
    if (e.lower_mm - moved > limit) {
      ++counts_.skipped;
      e.collides = 0;
      e.contactsKnown = true;
      return true;
    }
    e.bounded = false;
    q.quietBelow_mm = -kInf;
    const long queries = std::max(1L, movingCalls_ - e.measuredAtCall);
    if (e.lower_mm > limit && std::isfinite(moved))  // a certificate ran out: how fast the pair closed in
      e.lookahead_mm = std::clamp(kLookaheadQueries * moved / static_cast<double>(queries), kMinLookahead_mm,
                                  kMaxLookahead_mm);
  }
  if (e.plainLeft > 0) {
    --e.plainLeft;
    return false;
  }
  setReference(e);
  e.measuredAtCall = movingCalls_;
  if (e.lookahead_mm < 0) e.lookahead_mm = kFirstLookahead_mm;
  e.lower_mm = measure(e, X_WA, X_WB, limit + e.lookahead_mm);
  if (e.lower_mm > limit) {
    q.quietBelow_mm = e.lower_mm - limit + e.odometerA_mm + e.odometerB_mm;
    e.failures = 0;
    e.collides = 0;
    e.contactsKnown = true;
    return true;
  }
  e.bounded = false;  // the bound measured is within reach: no use for the next query
  e.failures = std::min(e.failures + 1, 4);
  e.plainLeft = std::min(kMaxPlainRun, (1 << e.failures) - 1);
  e.lookahead_mm = std::max(kMinLookahead_mm, 0.5 * e.lookahead_mm);
  return false;
}

void PairScreen::resolvePoses(const WorldState& state) {
  const std::size_t n = bodies_.size();
  poses_.resize(n);
  odometer_mm_.resize(n, 0.0);
  lastPoses_.resize(n);
  lastCenters_W_.swap(centers_W_);  // both keep their capacity: no allocation per call
  centers_W_.resize(n);
  bool moved = false;
  for (std::size_t i = 0; i < n; ++i) {
    poses_[i] = &X_WB(state, bodies_[i]);
    centers_W_[i] = *poses_[i] * balls_[i].center;
    if (posesSeen_ && !samePose(lastPoses_[i], *poses_[i])) {
      moved = true;
      const double step = balls_[i].unbounded
                              ? kInf
                              : maxDisplacement((centers_W_[i] - lastCenters_W_[i]).norm(),
                                                sinHalfAngle(lastPoses_[i].rotation(), poses_[i]->rotation()),
                                                balls_[i].radius_mm);
      odometer_mm_[i] += step;
    }
    lastPoses_[i] = *poses_[i];
  }
  if (moved) ++movingCalls_;
  posesSeen_ = true;
}

double PairScreen::odometerMoved(const Entry& e) const {
  // Exact when neither body moved (the readings are equal); an unbounded reading never gives a bound.
  const double a = odometer_mm_[e.bodyA], b = odometer_mm_[e.bodyB];
  if (!std::isfinite(a) || !std::isfinite(b)) return kInf;
  return (a - e.odometerA_mm) + (b - e.odometerB_mm);
}

void PairScreen::setReference(Entry& e) {
  const Transform& X_WA = *poses_[e.bodyA];
  const Transform& X_WB = *poses_[e.bodyB];
  e.bounded = true;
  e.refA = X_WA;
  e.refB = X_WB;
  e.odometerA_mm = odometer_mm_[e.bodyA];
  e.odometerB_mm = odometer_mm_[e.bodyB];
  e.refCenterA_W = centers_W_[e.bodyA];
  e.refCenterB_W = centers_W_[e.bodyB];
  e.refCenterB_A = X_WA.rotation().conjugate() * (e.refCenterB_W - X_WA.translation());
  e.refCenterA_B = X_WB.rotation().conjugate() * (e.refCenterA_W - X_WB.translation());
  e.refRotationAB = X_WA.rotation().conjugate() * X_WB.rotation();
}

double PairScreen::movedSinceReference(Entry& e, double limit_mm) const {
  const Transform& X_WA = *poses_[e.bodyA];
  const Transform& X_WB = *poses_[e.bodyB];
  const Vec3& cA_W = centers_W_[e.bodyA];
  const Vec3& cB_W = centers_W_[e.bodyB];
  const auto enough = [&](double moved) { return e.lower_mm - moved > limit_mm; };
  // Each body's own motion since the reference: 0 for a body that stayed, unbounded for a moved half-space.
  const auto ownOf = [](const Ball& ball, const Transform& ref, const Transform& X, const Vec3& c_W, const Vec3& ref_W) {
    if (samePose(ref, X)) return 0.0;
    if (ball.unbounded) return kInf;
    return maxDisplacement((c_W - ref_W).norm(), sinHalfAngle(ref.rotation(), X.rotation()), ball.radius_mm);
  };
  const auto own = [&] {
    return ownOf(e.ballA, e.refA, X_WA, cA_W, e.refCenterA_W) + ownOf(e.ballB, e.refB, X_WB, cB_W, e.refCenterB_W);
  };
  // The relative motion (the distance depends on it only; fingers closing side by side barely move relative
  // to each other): B's ball in A's frame or A's in B's. Both turn by the angle between the reference and the
  // current relative rotation q_A* q_B.
  const auto relativeTurn = [&] {
    return sinHalfAngle(e.refRotationAB, X_WA.rotation().conjugate() * X_WB.rotation());
  };
  const auto inA = [&](double sinHalf) {
    if (e.ballB.unbounded) return kInf;
    const Vec3 cB_A = X_WA.rotation().conjugate() * (cB_W - X_WA.translation());
    return maxDisplacement((cB_A - e.refCenterB_A).norm(), sinHalf, e.ballB.radius_mm);
  };
  const auto inB = [&](double sinHalf) {
    if (e.ballA.unbounded) return kInf;
    const Vec3 cA_B = X_WB.rotation().conjugate() * (cA_W - X_WB.translation());
    return maxDisplacement((cA_B - e.refCenterA_B).norm(), sinHalf, e.ballA.radius_mm);
  };
  // Which bound settles a pair tends to stay the same from one query to the next: the one that did last time
  // is tried first, and the others only when it does not suffice (then all of them, the smallest kept). Of the
  // relative bounds, the smaller ball's first (its rotation term is the smaller).
  const bool ownFirst = !e.relativeFirst;
  double ownMoved = kInf;
  if (ownFirst) {
    ownMoved = own();
    if (enough(ownMoved)) return ownMoved;
  }
  const double turn = relativeTurn();
  const bool aSmaller = !e.ballA.unbounded && (e.ballB.unbounded || e.ballA.radius_mm <= e.ballB.radius_mm);
  double relative = aSmaller ? inB(turn) : inA(turn);
  if (!enough(relative)) relative = std::min(relative, aSmaller ? inA(turn) : inB(turn));
  e.relativeFirst = enough(relative);
  if (e.relativeFirst) return std::min(ownMoved, relative);
  if (!ownFirst) ownMoved = own();
  return std::min(ownMoved, relative);
}

bool PairScreen::collides(Entry& e) {
  const Transform& X_WA = *poses_[e.bodyA];
  const Transform& X_WBb = *poses_[e.bodyB];
  if (far(e, X_WA, X_WBb) || e.collides >= 0) return e.collides == 1;
  ++counts_.tested;
  // pairCollides (ContactDetection.cpp) with the entry's BVHs: no look-ups.
  const PairSide a{e.primitiveA, e.bvhA.get(), X_WA}, b{e.primitiveB, e.bvhB.get(), X_WBb};
  const auto exact = exactSeparation(a, b);
  e.collides = (exact ? exact->colliding : meshesCollide(*e.bvhA, X_WA, *e.bvhB, X_WBb)) ? 1 : 0;
  return e.collides == 1;
}

const std::vector<Contact>& PairScreen::contactsOf(Entry& e) {
  const Transform& X_WA = *poses_[e.bodyA];
  const Transform& X_WBb = *poses_[e.bodyB];
  if (far(e, X_WA, X_WBb) || e.contactsKnown) return e.contacts;
  ++counts_.tested;
  // findContacts (ContactDetection.cpp) of this pair with the entry's BVHs.
  const PairSide a{e.primitiveA, e.bvhA.get(), X_WA}, b{e.primitiveB, e.bvhB.get(), X_WBb};
  const auto exact = exactContacts(a, b, settings_.contacts);
  const MeshContacts mc = exact ? *exact : meshContacts(*e.bvhA, X_WA, *e.bvhB, X_WBb, settings_.contacts);
  e.contacts.clear();
  if (!mc.colliding)
    for (const auto& p : mc.points) e.contacts.push_back(makeContact(world_, e.pair.first, e.pair.second, p));
  else if (auto c = penetratingContact(world_, e.pair, a, b, settings_.contacts))
    e.contacts.push_back(std::move(*c));
  e.contactsKnown = true;
  return e.contacts;
}

// Each loop tests the compact odometer bound first (`skipQuiet`): most pairs stop there, without touching their
// Entry (its memo is left as it is: its answers still hold at its own poses).
bool PairScreen::anyCollides(const WorldState& state) {
  resolvePoses(state);
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    if (skipQuiet(k)) continue;
    if (collides(entries_[k])) return true;
  }
  return false;
}

std::vector<BodyPair> PairScreen::colliding(const WorldState& state) {
  resolvePoses(state);
  std::vector<BodyPair> out;
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    if (skipQuiet(k)) continue;
    if (collides(entries_[k])) out.push_back(entries_[k].pair);
  }
  return out;
}

std::vector<Contact> PairScreen::contacts(const WorldState& state) {
  resolvePoses(state);
  std::vector<Contact> out;
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    if (skipQuiet(k)) continue;
    const auto& c = contactsOf(entries_[k]);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

}  // namespace sg
