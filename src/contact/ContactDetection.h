#pragma once
// World-level collision and contact queries (src/contact/README.md §Detection): any
// collision, the colliding pairs, all contacts (as Contact records with friction from the material
// table), the distance between two bodies and per-pair sensing outputs. BVHs come from BvhCache.
// Every query reads poses from the WorldState it is given (WorldState.h), never from the World, so threads
// may query different states of one const World at once; the overloads without a state use world.state.
#include <optional>
#include <vector>

#include "contact/CollisionFilter.h"
#include "contact/Contact.h"
#include "geometry/Proximity.h"
#include "geometry/ShapePairs.h"

namespace sg {

// True if any allowed pair (restricted to pairs involving `involving`, when given) interpenetrates.
bool anyCollision(const World& world, const WorldState& state, const CollisionSettings& settings = {},
                  const std::vector<BodyHandle>& involving = {});
std::vector<BodyPair> collidingPairs(const World& world, const WorldState& state,
                                     const CollisionSettings& settings = {},
                                     const std::vector<BodyHandle>& involving = {});
bool pairCollides(const World& world, const WorldState& state, const BodyPair& pair);

// The contact points of one mesh–mesh body pair before duplicate removal and compaction
// (MeshContacts::rawPoints), world frame. touchingRegions (TouchingPoint.h) reads them instead of querying
// the pair again with a smaller threshold.
struct RawPairContacts {
  BodyPair pair;                     // side 1, side 2: as in the pair's Contact records
  double threshold_mm = 0;           // the query's threshold: every point closer than it is here
  std::vector<ContactPoint> points;  // generation order, normals fixed
};

// Every contact of the world: pairs closer than the threshold give their contact points; a pair that touches
// or interpenetrates gives one contact at its deepest point, flagged `penetrating`, separation = −depth
// (penetratingContact; src/contact/README.md §Touching and overlapping pairs). Side 1 of each contact is the first body of its pair in World::bodyHandles() order. With
// `raw`, the raw points of every mesh–mesh pair that gave contacts are appended to it.
std::vector<Contact> findAllContacts(const World& world, const WorldState& state,
                                     const CollisionSettings& settings = {},
                                     std::vector<RawPairContacts>* raw = nullptr);
// Contacts of the allowed pairs involving any of `bodies`.
std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyHandle>& bodies,
                                  const CollisionSettings& settings = {});
// Contacts of the given pairs (not filtered again); `raw` as for findAllContacts.
std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs,
                                  const CollisionSettings& settings, std::vector<RawPairContacts>* raw = nullptr);

// The contact of a pair placed as `a`, `b` that touches or interpenetrates (geometry/PenetrationContact.h) as a
// Contact record flagged `penetrating`; nullopt when the pair is apart. findContacts and PairScreen use it.
std::optional<Contact> penetratingContact(const World& world, const BodyPair& pair, const PairSide& a,
                                          const PairSide& b, const ContactQueryOptions& options);

// A Contact record for one contact point of a pair: frames and μ from the material table. What the contact
// transmits (frictionless, point, soft finger, ...) is the contact model's decision (ContactModel.h).
Contact makeContact(const World& world, const BodyHandle& a, const BodyHandle& b, const ContactPoint& point);

// Minimum distance between two bodies (0 and colliding when they interpenetrate; ∞ without geometry).
MeshDistance bodyDistance(const World& world, const WorldState& state, const BodyHandle& a, const BodyHandle& b);
// The smallest distance over the pairs (∞ for none); stops early at 0.
double minimumDistance(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs);

// Sensing outputs of one body pair (src/contact/README.md §Sensing outputs).
struct PairSensing {
  bool contact = false;          // the Contact Signal: separation ≤ threshold (or colliding)
  bool colliding = false;
  double separation_mm = 0;      // minimum distance; negative = penetration-depth estimate
  // Contact frames (world) at the witness points, z = inward normal; when colliding, at the deepest point as
  // findContacts reports it (penetratingContact).
  Transform frameA, frameB;
};
PairSensing sensePair(const World& world, const WorldState& state, const BodyHandle& a, const BodyHandle& b,
                      const CollisionSettings& settings = {});

// --- the same queries on the world's current state (world.state) ---

inline bool anyCollision(const World& world, const CollisionSettings& settings = {},
                         const std::vector<BodyHandle>& involving = {}) {
  return anyCollision(world, world.state, settings, involving);
}
inline std::vector<BodyPair> collidingPairs(const World& world, const CollisionSettings& settings = {},
                                            const std::vector<BodyHandle>& involving = {}) {
  return collidingPairs(world, world.state, settings, involving);
}
inline bool pairCollides(const World& world, const BodyPair& pair) { return pairCollides(world, world.state, pair); }
inline std::vector<Contact> findAllContacts(const World& world, const CollisionSettings& settings = {}) {
  return findAllContacts(world, world.state, settings);
}
inline std::vector<Contact> findContacts(const World& world, const std::vector<BodyHandle>& bodies,
                                         const CollisionSettings& settings = {}) {
  return findContacts(world, world.state, bodies, settings);
}
inline std::vector<Contact> findContacts(const World& world, const std::vector<BodyPair>& pairs,
                                         const CollisionSettings& settings) {
  return findContacts(world, world.state, pairs, settings);
}
inline MeshDistance bodyDistance(const World& world, const BodyHandle& a, const BodyHandle& b) {
  return bodyDistance(world, world.state, a, b);
}
inline double minimumDistance(const World& world, const std::vector<BodyPair>& pairs) {
  return minimumDistance(world, world.state, pairs);
}
inline PairSensing sensePair(const World& world, const BodyHandle& a, const BodyHandle& b,
                             const CollisionSettings& settings = {}) {
  return sensePair(world, world.state, a, b, settings);
}

}  // namespace sg
