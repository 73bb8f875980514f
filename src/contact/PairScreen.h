#pragma once
// Collision and contact queries of one fixed list of body pairs, asked again and again at nearby states (the
// closing loop of a DOF motion, src/grasp/MOTION.md §DOF motion). Every answer is exactly what pairCollides /
// findContacts (ContactDetection.h) give for the same pairs and state; the screen only skips work that cannot
// change it (src/contact/README.md §Pair screening):
//  * a pair whose two poses are bit for bit those of its last query reuses that query's answers;
//  * a pair keeps a lower bound on its distance, measured at reference poses of its bodies. At a new state the
//    bound drops by how far the bodies can have moved since: each body's largest point displacement (over a
//    ball holding its geometry: the centre's displacement plus 2·sin(θ/2)·radius), or, when that is not enough,
//    the same for the relative motion of one body in the other's frame. While the bound stays above the
//    contact threshold plus a margin, the pair
//    can neither collide nor have a contact, and is not queried. When the bound runs out, a new bound is
//    certified a little beyond the threshold (meshSeparationBound, geometry/SeparationBound.h: about one
//    collision test) or measured by the pair's closed form. A pair that stays within reach of the threshold
//    runs the pair tests directly for a few queries before the next try.
// Not thread-safe: one screen per motion (it reads, never writes, the World and the states).
#include <limits>
#include <memory>
#include <vector>

#include "contact/CollisionFilter.h"
#include "contact/CollisionSettings.h"
#include "contact/Contact.h"
#include "geometry/Bvh.h"
#include "model/WorldState.h"

namespace sg {

class PairScreen {
 public:
  PairScreen(const World& world, std::vector<BodyPair> pairs, const CollisionSettings& settings);

  const std::vector<BodyPair>& pairs() const { return pairs_; }
  // == any pairCollides(world, state, p) over the pairs.
  bool anyCollides(const WorldState& state);
  // == the pairs p with pairCollides(world, state, p), in list order.
  std::vector<BodyPair> colliding(const WorldState& state);
  // == findContacts(world, state, pairs, settings).
  std::vector<Contact> contacts(const WorldState& state);

  // What the screen did, for benchmarks: per pair query, reused / skipped by the bound / measured / run.
  struct Counts {
    long reused = 0, skipped = 0, measured = 0, tested = 0;
  };
  const Counts& counts() const { return counts_; }

 private:
  // A ball (body frame) holding everything the pair queries may use of a body (mesh and primitive), for the
  // motion bound; unbounded for a half-space.
  struct Ball {
    Vec3 center = Vec3::Zero();
    double radius_mm = 0;
    bool unbounded = false;
  };
  struct Entry {
    BodyPair pair;
    std::shared_ptr<const Bvh> bvhA, bvhB;
    const Primitive* primitiveA = nullptr;
    const Primitive* primitiveB = nullptr;
    Ball ballA, ballB;
    bool exact = false;  // the pair has a closed form (ShapePairs.h)
    // The distance bound: at poses refA, refB the pair was at least `lower_mm` apart. With them, for the
    // motion bound: the balls' centres in the world and each in the other body's frame, and the relative
    // rotation q_AB = q_A* q_B, all at the reference poses.
    bool bounded = false;
    Transform refA, refB;
    Vec3 refCenterA_W = Vec3::Zero(), refCenterB_W = Vec3::Zero();
    Vec3 refCenterB_A = Vec3::Zero(), refCenterA_B = Vec3::Zero();
    Quat refRotationAB = Quat::Identity();
    double odometerA_mm = 0, odometerB_mm = 0;  // the bodies' odometers at the reference
    double lower_mm = 0;
    long measuredAtCall = 0;  // movingCalls_ when the bound was last measured
    bool relativeFirst = false;  // the relative motion bound settled the pair's last query (movedSinceReference)
    double lookahead_mm = -1;  // the next certificate's reach beyond the threshold
    int failures = 0;         // certificates failed in a row (the pair was within the cap)
    int plainLeft = 0;        // queries to run the pair tests without trying a certificate
    // The answers at poses memoA, memoB.
    bool memo = false;
    Transform memoA, memoB;
    int collides = -1;  // −1: not known at the memo poses
    bool contactsKnown = false;
    std::vector<Contact> contacts;
    int bodyA = 0, bodyB = 0;  // indices into bodies_
  };
  // Per entry, in list order, what the calls' first test reads (16 bytes, not the whole Entry): the pair is
  // farther than the threshold while odometer[a] + odometer[b] < quietBelow_mm (the odometer test of `far`,
  // rearranged: L − ((a − a₀) + (b − b₀)) > limit); −∞ while the entry has no such bound.
  struct Quiet {
    int bodyA = 0, bodyB = 0;
    double quietBelow_mm = -std::numeric_limits<double>::infinity();
  };
  // Whether entry k is quiet at this call's poses (counted as skipped).
  bool skipQuiet(std::size_t k) {
    const Quiet& q = quiet_[k];
    if (!(odometer_mm_[q.bodyA] + odometer_mm_[q.bodyB] < q.quietBelow_mm)) return false;
    ++counts_.skipped;
    return true;
  }
  // Brings the memo to the current poses: keeps it when they are the memo's poses (returns false), else drops
  // the stale answers and returns true if the pair is certainly farther apart than the threshold (then the memo
  // holds "no collision, no contacts").
  bool far(Entry& e, const Transform& X_WA, const Transform& X_WB);
  bool collides(Entry& e);
  const std::vector<Contact>& contactsOf(Entry& e);
  // Looks up the pose of every body of the pairs in `state` and its ball's centre in the world (once per
  // call, not once per pair).
  void resolvePoses(const WorldState& state);
  // The motion bound of the pair since its reference poses (mm): how far any point of one body's ball can
  // have come toward the other's (README.md §Pair screening), from the bodies' own motions or from the relative
  // motion, tried in the order that settled the pair last time; every bound is computed (the smallest
  // returned) only when the first does not bring the distance bound above `limit_mm`.
  double movedSinceReference(Entry& e, double limit_mm) const;
  void setReference(Entry& e);
  // The bodies' odometer readings less those at the pair's reference: at least their motion since (∞ when
  // unknown).
  double odometerMoved(const Entry& e) const;
  double measure(Entry& e, const Transform& X_WA, const Transform& X_WB, double cap_mm);

  const World& world_;
  std::vector<BodyPair> pairs_;
  CollisionSettings settings_;
  std::vector<Entry> entries_;
  std::vector<Quiet> quiet_;               // parallel to entries_
  long movingCalls_ = 0;                   // calls in which some body had moved since the call before
  std::vector<BodyHandle> bodies_;         // the distinct bodies of the pairs
  std::vector<const Transform*> poses_;    // their poses in the state of the current call
  std::vector<Ball> balls_;                // their balls (body frame)
  std::vector<Vec3> centers_W_;            // their balls' centres in the world, in the current call
  // Per body, the sum over calls of how far any point of its ball moved since the call before (∞ once a
  // half-space moved): the motion since a pair's reference is at most the difference of the odometer readings,
  // so most pair queries cost a subtraction (README.md §Pair screening).
  std::vector<double> odometer_mm_;
  std::vector<Transform> lastPoses_;       // their poses in the previous call
  std::vector<Vec3> lastCenters_W_;        // their balls' centres in the world in the previous call
  bool posesSeen_ = false;
  Counts counts_;
};

}  // namespace sg
