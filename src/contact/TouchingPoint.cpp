#include "contact/TouchingPoint.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "geometry/BvhCache.h"
#include "geometry/ContactAcceptance.h"
#include "geometry/ProximityContacts.h"

namespace sg {

namespace {

bool sameTouchingPair(const Contact& a, const Contact& b) {
  return a.side1.body == b.side1.body && a.side2.body == b.side2.body;
}

bool hasMesh(const World& world, const BodyHandle& h) {
  return world.isValid(h) && world.body(h).mesh && !world.body(h).mesh->triangles.empty();
}

// Union–find over raw points: components of the single-linkage graph (side-1 points closer than `link`).
std::vector<int> components(const std::vector<ContactPoint>& raw, double link) {
  std::vector<int> parent(raw.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int i) {
    while (parent[static_cast<std::size_t>(i)] != i) {
      parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
      i = parent[static_cast<std::size_t>(i)];
    }
    return i;
  };
  const double link2 = link * link;
  for (std::size_t i = 0; i < raw.size(); ++i)
    for (std::size_t j = i + 1; j < raw.size(); ++j)
      if ((raw[i].p_WCa_mm - raw[j].p_WCa_mm).squaredNorm() < link2) {
        const int a = find(static_cast<int>(i)), b = find(static_cast<int>(j));
        if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
      }
  std::vector<int> out(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) out[i] = find(static_cast<int>(i));
  return out;
}

// The representative of the raw points `members`: the smallest distance; among ties, nearest their centroid.
std::size_t representative(const std::vector<ContactPoint>& raw, const std::vector<std::size_t>& members,
                           double tie) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t m : members) best = std::min(best, raw[m].distance_mm);
  std::vector<std::size_t> tied;
  Vec3 centroid = Vec3::Zero();
  for (std::size_t m : members)
    if (raw[m].distance_mm <= best + tie) {
      tied.push_back(m);
      centroid += raw[m].p_WCa_mm;
    }
  centroid /= static_cast<double>(tied.size());
  return *std::min_element(tied.begin(), tied.end(), [&](std::size_t x, std::size_t y) {
    return (raw[x].p_WCa_mm - centroid).squaredNorm() < (raw[y].p_WCa_mm - centroid).squaredNorm();
  });
}

// The regions of one body pair's contacts (`indices` into `contacts`).
// The pair's raw points closer than `threshold_mm`, duplicate radius 0, no compaction: from the detection's raw
// points when it kept them at a threshold at least as large, else a query.
MeshContacts rawContacts(const World& world, const WorldState& state, const BodyHandle& a, const BodyHandle& b,
                         double threshold_mm, const std::vector<RawPairContacts>* kept) {
  const std::shared_ptr<const Bvh> bvhA = bvhFor(world.body(a).mesh), bvhB = bvhFor(world.body(b).mesh);
  const Transform X_WA = X_WB(state, a), X_WBb = X_WB(state, b);
  if (kept)
    for (const RawPairContacts& r : *kept) {
      if (!(r.pair.first == a && r.pair.second == b) || !(r.threshold_mm >= threshold_mm)) continue;
      // The query's own test is squared distance < (threshold + its round-off margin)², with the margin of the
      // pair's scale (geometry/ContactAcceptance.h); on the stored distances that is d < the same accepted
      // threshold except within an ulp of it.
      const double accepted = acceptedContactThreshold_mm(threshold_mm, contactScale_mm(*bvhA, X_WA, *bvhB, X_WBb));
      MeshContacts mc;
      for (const ContactPoint& p : r.points)
        if (p.distance_mm < accepted) mc.points.push_back(p);
      mc.points = removeDuplicateContacts(std::move(mc.points), 0);  // the query's order (by distance)
      return mc;
    }
  ContactQueryOptions raw;
  raw.threshold_mm = threshold_mm;
  raw.duplicateRadius_mm = 0;  // keep every report ("closer than 0" never holds)
  raw.compact = false;
  return meshContacts(*bvhA, X_WA, *bvhB, X_WBb, raw);
}

void regionsOfPair(const World& world, const WorldState& state, const std::vector<Contact>& contacts,
                   const std::vector<int>& indices, const TouchingPointSettings& s,
                   const std::vector<RawPairContacts>* kept, std::vector<TouchingRegion>& out) {
  auto keepAsIs = [&] {
    for (int i : indices) out.push_back({contacts[static_cast<std::size_t>(i)], {i}, 0});
  };
  const Contact& first = contacts[static_cast<std::size_t>(indices.front())];
  const BodyHandle a = first.side1.body, b = first.side2.body;
  if (!hasMesh(world, a) || !hasMesh(world, b)) return keepAsIs();

  // Every region's minimum is at most the separation of any of its contacts: the largest separation bounds
  // the raw points needed (a hair more, so that the contacts' own points are among them).
  double maxSeparation = 0;
  for (int i : indices) maxSeparation = std::max(maxSeparation, contacts[static_cast<std::size_t>(i)].separation_mm);
  const MeshContacts mc = rawContacts(world, state, a, b, maxSeparation + 1e-6, kept);
  if (mc.colliding || mc.points.empty()) return keepAsIs();

  const std::vector<int> component = components(mc.points, s.regionLinkDistance_mm);
  // Each contact joins the region of its nearest raw point (its own point is one of them).
  std::vector<int> regionOfContact;
  for (int i : indices) {
    const Vec3& p = contacts[static_cast<std::size_t>(i)].side1.p_WC_mm;
    std::size_t nearest = 0;
    for (std::size_t k = 1; k < mc.points.size(); ++k)
      if ((mc.points[k].p_WCa_mm - p).squaredNorm() < (mc.points[nearest].p_WCa_mm - p).squaredNorm()) nearest = k;
    regionOfContact.push_back(component[nearest]);
  }
  std::vector<int> done;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const int region = regionOfContact[k];
    if (std::find(done.begin(), done.end(), region) != done.end()) continue;
    done.push_back(region);
    TouchingRegion r;
    for (std::size_t j = k; j < indices.size(); ++j)
      if (regionOfContact[j] == region) r.sourceContacts.push_back(indices[j]);
    std::vector<std::size_t> members;
    for (std::size_t m = 0; m < mc.points.size(); ++m)
      if (component[m] == region) members.push_back(m);
    r.rawPointCount = static_cast<int>(members.size());
    r.contact = makeContact(world, a, b, mc.points[representative(mc.points, members, s.tieTolerance_mm)]);
    out.push_back(std::move(r));
  }
}

}  // namespace

std::vector<TouchingRegion> touchingRegions(const World& world, const WorldState& state,
                                            const std::vector<Contact>& contacts, const TouchingPointSettings& s,
                                            const std::vector<RawPairContacts>* raw) {
  if (!(s.regionLinkDistance_mm > 0)) throw Error("touching points: the region link distance must be positive");
  if (!(s.tieTolerance_mm >= 0)) throw Error("touching points: the tie tolerance must not be negative");
  std::vector<TouchingRegion> out;
  std::vector<bool> seen(contacts.size(), false);
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    if (seen[i]) continue;
    std::vector<int> pair;
    for (std::size_t j = i; j < contacts.size(); ++j)
      if (!seen[j] && sameTouchingPair(contacts[i], contacts[j])) {
        pair.push_back(static_cast<int>(j));
        seen[j] = true;
      }
    regionsOfPair(world, state, contacts, pair, s, raw, out);
  }
  std::stable_sort(out.begin(), out.end(), [](const TouchingRegion& x, const TouchingRegion& y) {
    return x.sourceContacts.front() < y.sourceContacts.front();
  });
  return out;
}

}  // namespace sg
