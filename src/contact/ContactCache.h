#pragma once
// Per-pair reuse of contact queries across consecutive updates (src/contact/README.md §Contact cache): while the
// hand is dragged, a pair whose two bodies did not move (the mug on the table; under a fixed palm, the links of
// a chain whose DOFs did not change) gives the same contacts as last time, and a pair whose bodies moved less
// than its certified separation allows (links far from the table, from each other) certainly has none. Owned by
// the caller and kept between calls, like EpsilonWarmStarts (GraspEvaluation.h); one caller thread at a time.
#include <memory>
#include <vector>

#include "contact/ContactDetection.h"

namespace sg {

class ContactCache {
 public:
  ContactCache();
  ~ContactCache();
  ContactCache(ContactCache&&) noexcept;
  ContactCache& operator=(ContactCache&&) noexcept;
  ContactCache(const ContactCache&) = delete;
  ContactCache& operator=(const ContactCache&) = delete;

  void clear();
  // Of the last findContacts call with this cache, parallel to its pairs: true where the pair's contacts were
  // reused instead of queried.
  const std::vector<bool>& reusedInLastCall() const;
  // Of the last call, parallel to its pairs: true where a moved pair was not queried because its certified
  // distance bound, less how far its bodies can have moved since, still exceeded the threshold (no contacts).
  const std::vector<bool>& certifiedApartInLastCall() const;

  struct Impl;

 private:
  friend std::vector<Contact> findContacts(const World&, const WorldState&, const std::vector<BodyPair>&,
                                           const CollisionSettings&, ContactCache&, std::vector<RawPairContacts>*);
  std::unique_ptr<Impl> impl_;
};

// findContacts (ContactDetection.h) of the given pairs, reusing a pair's last result when nothing it depends on
// changed: both bodies' poses (bit for bit), their geometry (the same mesh object, the same primitive), the
// query options and whether raw points are asked for. A pair with the same geometry and options that was
// certified apart (a lower bound on its distance at reference poses) is not queried while that bound, less the
// largest motion of its bodies since, stays above the threshold plus 10⁻³ mm. The result is bit-identical to
// the uncached call; materials (μ) are read afresh every call.
std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs,
                                  const CollisionSettings& settings, ContactCache& cache,
                                  std::vector<RawPairContacts>* raw = nullptr);

}  // namespace sg
