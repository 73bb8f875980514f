#pragma once
// Settings of collision and contact detection in a world: the contact threshold, duplicate radius,
// compaction, and the bodies and pairs a user switched off. Kept here, not in the model, so switching a
// body or a pair off never changes a saved world.
#include <utility>
#include <vector>

#include "geometry/ProximityContacts.h"
#include "model/World.h"

namespace sg {

struct CollisionSettings {
  ContactQueryOptions contacts;     // threshold 0.2 mm, duplicates within 3 mm, compaction on
  // Pairs of two static bodies (obstacles, which never move) are skipped unless this is set.
  bool checkStaticPairs = false;
  std::vector<std::pair<BodyHandle, BodyHandle>> userDisabledPairs;
  // Bodies the user switched off: they take part in no collision or contact check (with anything).
  std::vector<BodyHandle> disabledBodies;

  double threshold_mm() const { return contacts.threshold_mm; }
  void disablePair(const BodyHandle& a, const BodyHandle& b);
  void enablePair(const BodyHandle& a, const BodyHandle& b);
  bool isUserDisabled(const BodyHandle& a, const BodyHandle& b) const;

  void disableBody(const BodyHandle& body);
  void enableBody(const BodyHandle& body);
  bool isBodyDisabled(const BodyHandle& body) const;
};

}  // namespace sg
