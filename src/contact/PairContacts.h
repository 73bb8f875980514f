#pragma once
// One pair's contact query, split into the query and the Contact records it gives, so that findContacts
// (ContactDetection.cpp) and its cached form (ContactCache.cpp) share both halves and give the same bits.
#include <vector>

#include "contact/ContactDetection.h"

namespace sg {

// What the geometry query of one pair found: its points (world frame), or the one deepest point of a pair that
// touches or interpenetrates (`penetrating`, PenetrationContact.h; no point when the penetration query finds
// none); with raw points asked for, a mesh–mesh pair's raw points.
struct PairQueryResult {
  bool penetrating = false;
  bool exact = false;  // closed-form pair (ShapePairs.h): no raw points
  std::vector<ContactPoint> points;
  std::vector<ContactPoint> rawPoints;
};

// A pair's intersection witnesses kept between calls: of the contact query (meshContacts) and of the distance
// query of its penetration estimate (signedSeparation). The result is the same with or without them.
struct PairWitnesses {
  IntersectionWitness contacts, distance;
};

PairQueryResult queryPair(const PairSide& a, const PairSide& b, const CollisionSettings& settings, bool keepRaw,
                          PairWitnesses* witnesses = nullptr);

// Appends the pair's Contact records (frames and μ from the material table, read now) to `out`, and its raw
// points to `raw` (when given) for a mesh–mesh pair that gave contacts: copied, or moved when `consume`.
void appendPairContacts(const World& world, const BodyPair& pair, PairQueryResult& result, double threshold_mm,
                        std::vector<Contact>& out, std::vector<RawPairContacts>* raw, bool consume);

}  // namespace sg
