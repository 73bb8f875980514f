#include "contact/ContactDetection.h"

#include "contact/PairContacts.h"
#include "geometry/BvhCache.h"
#include "geometry/ContactAcceptance.h"
#include "geometry/PenetrationContact.h"
#include "geometry/ProximityContacts.h"
#include "geometry/ShapeCollision.h"
#include "geometry/ShapePairs.h"

namespace sg {

namespace {

// A body's BVH and pose, and its exact primitive if it has one (pair queries use the closed forms when the
// pair has them, src/geometry/README.md §Pair queries).
struct PlacedBvh {
  std::shared_ptr<const Bvh> bvh;
  Transform pose;
  const Primitive* primitive = nullptr;
  PairSide side() const { return {primitive, bvh.get(), pose}; }
};
PlacedBvh placed(const World& world, const WorldState& state, const BodyHandle& h) {
  const Body& b = world.body(h);
  return {bvhFor(b.mesh), X_WB(state, h), b.primitive ? &*b.primitive : nullptr};
}

MeshDistance toDistance(const SeparationResult& r) {
  MeshDistance d;
  d.colliding = r.colliding;
  d.distance_mm = std::max(0.0, r.separation_mm);
  d.p_WCa_mm = r.p_WCa_mm;
  d.p_WCb_mm = r.p_WCb_mm;
  return d;
}

}  // namespace

bool pairCollides(const World& world, const WorldState& state, const BodyPair& pair) {
  const auto a = placed(world, state, pair.first), b = placed(world, state, pair.second);
  if (const auto exact = exactCollision(a.side(), b.side())) return *exact;
  return meshesCollide(*a.bvh, a.pose, *b.bvh, b.pose);
}

bool anyCollision(const World& world, const WorldState& state, const CollisionSettings& settings,
                  const std::vector<BodyHandle>& involving) {
  for (const auto& p : activePairs(world, settings, involving))
    if (pairCollides(world, state, p)) return true;
  return false;
}

std::vector<BodyPair> collidingPairs(const World& world, const WorldState& state, const CollisionSettings& settings,
                                     const std::vector<BodyHandle>& involving) {
  std::vector<BodyPair> out;
  for (const auto& p : activePairs(world, settings, involving))
    if (pairCollides(world, state, p)) out.push_back(p);
  return out;
}

Contact makeContact(const World& world, const BodyHandle& a, const BodyHandle& b, const ContactPoint& point) {
  const Body& ba = world.body(a);
  const Body& bb = world.body(b);
  Contact c;
  c.side1 = {a, point.p_WCa_mm, point.nA_W, contactFrame(point.p_WCa_mm, point.nA_W)};
  c.side2 = {b, point.p_WCb_mm, point.nB_W, contactFrame(point.p_WCb_mm, point.nB_W)};
  c.separation_mm = point.distance_mm;
  const auto ia = world.materials.indexOf(ba.material), ib = world.materials.indexOf(bb.material);
  if (ia && ib) {
    c.muStatic = world.materials.staticFriction(*ia, *ib);
    c.muKinetic = world.materials.kineticFriction(*ia, *ib);
  } else {  // unknown material name: the table's default for new materials
    c.muStatic = 0.5;
    c.muKinetic = 0.4;
  }
  return c;
}

std::optional<Contact> penetratingContact(const World& world, const BodyPair& pair, const PairSide& a,
                                          const PairSide& b, const ContactQueryOptions& options) {
  const auto p = penetrationContact(a, b, options);
  if (!p) return std::nullopt;
  Contact c = makeContact(world, pair.first, pair.second, *p);
  c.penetrating = true;
  return c;
}

PairQueryResult queryPair(const PairSide& a, const PairSide& b, const CollisionSettings& settings, bool keepRaw,
                          PairWitnesses* witnesses) {
  ContactQueryOptions options = settings.contacts;
  options.keepRawPoints = keepRaw;
  PairQueryResult r;
  const auto exact = exactContacts(a, b, settings.contacts);
  r.exact = exact.has_value();
  MeshContacts mc = exact ? *exact : meshContacts(*a.bvh, a.X_WB, *b.bvh, b.X_WB, options,
                                                         witnesses ? &witnesses->contacts : nullptr);
  if (mc.colliding) {
    r.penetrating = true;
    if (const auto p = penetrationContact(a, b, settings.contacts, witnesses ? &witnesses->distance : nullptr))
      r.points.push_back(*p);
    return r;
  }
  r.points = std::move(mc.points);
  r.rawPoints = std::move(mc.rawPoints);
  return r;
}

void appendPairContacts(const World& world, const BodyPair& pair, PairQueryResult& result, double threshold_mm,
                        std::vector<Contact>& out, std::vector<RawPairContacts>* raw, bool consume) {
  for (const auto& p : result.points) {
    out.push_back(makeContact(world, pair.first, pair.second, p));
    out.back().penetrating = result.penetrating;
  }
  if (raw && !result.penetrating && !result.exact && !result.points.empty())
    raw->push_back({pair, threshold_mm, consume ? std::move(result.rawPoints) : result.rawPoints});
}

std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs,
                                  const CollisionSettings& settings, std::vector<RawPairContacts>* raw) {
  std::vector<Contact> out;
  for (const auto& pair : pairs) {
    const auto a = placed(world, state, pair.first), b = placed(world, state, pair.second);
    PairQueryResult r = queryPair(a.side(), b.side(), settings, raw != nullptr);
    appendPairContacts(world, pair, r, settings.contacts.threshold_mm, out, raw, true);
  }
  return out;
}

std::vector<Contact> findAllContacts(const World& world, const WorldState& state, const CollisionSettings& settings,
                                     std::vector<RawPairContacts>* raw) {
  return findContacts(world, state, activePairs(world, settings), settings, raw);
}

std::vector<Contact> findContacts(const World& world, const WorldState& state, const std::vector<BodyHandle>& bodies,
                                  const CollisionSettings& settings) {
  if (bodies.empty()) return {};
  return findContacts(world, state, activePairs(world, settings, bodies), settings);
}

MeshDistance bodyDistance(const World& world, const WorldState& state, const BodyHandle& ha, const BodyHandle& hb) {
  const auto a = placed(world, state, ha), b = placed(world, state, hb);
  if (const auto exact = exactSeparation(a.side(), b.side())) return toDistance(*exact);
  return meshDistance(*a.bvh, a.pose, *b.bvh, b.pose);
}

double minimumDistance(const World& world, const WorldState& state, const std::vector<BodyPair>& pairs) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& [ha, hb] : pairs) {
    const auto a = placed(world, state, ha), b = placed(world, state, hb);
    const auto exact = exactSeparation(a.side(), b.side());
    const MeshDistance d = exact ? toDistance(*exact) : meshDistance(*a.bvh, a.pose, *b.bvh, b.pose, best);
    if (d.found() && d.distance_mm < best) best = d.distance_mm;
    if (best <= 0) break;
  }
  return best;
}

PairSensing sensePair(const World& world, const WorldState& state, const BodyHandle& ha, const BodyHandle& hb,
                      const CollisionSettings& settings) {
  PairSensing s;
  const auto a = placed(world, state, ha), b = placed(world, state, hb);
  const auto exact = exactSeparation(a.side(), b.side());
  const SeparationResult r = exact ? *exact : signedSeparation(*a.bvh, a.pose, *b.bvh, b.pose);
  s.colliding = r.colliding;
  s.separation_mm = r.separation_mm;
  // Within the threshold as detection accepts it (its round-off margin, geometry/ContactAcceptance.h).
  const double accepted = acceptedContactThreshold_mm(settings.threshold_mm(), contactScale_mm(a.side(), b.side()));
  s.contact = r.colliding || (settings.threshold_mm() > 0 && r.separation_mm <= accepted);
  s.frameA = contactFrame(r.p_WCa_mm, r.nA_W);
  s.frameB = contactFrame(r.p_WCb_mm, r.nB_W);
  if (r.colliding)  // the deepest point and its normals as findContacts reports them (touching meshes included)
    if (const auto p = penetrationContact(a.side(), b.side(), settings.contacts)) {
      s.separation_mm = p->distance_mm;
      s.frameA = contactFrame(p->p_WCa_mm, p->nA_W);
      s.frameB = contactFrame(p->p_WCb_mm, p->nB_W);
    }
  return s;
}

}  // namespace sg
