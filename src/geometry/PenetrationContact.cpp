#include "geometry/PenetrationContact.h"

#include <algorithm>

namespace sg {

ContactPoint penetrationPoint(const SeparationResult& r) {
  ContactPoint c;
  c.p_WCa_mm = r.p_WCa_mm;
  c.p_WCb_mm = r.p_WCb_mm;
  c.nA_W = r.nA_W;
  c.nB_W = r.nB_W;
  c.distance_mm = std::min(0.0, r.separation_mm);  // a closed form may give −0 or round-off above 0 when touching
  return c;
}

std::optional<ContactPoint> penetrationContact(const PairSide& a, const PairSide& b, const ContactQueryOptions& options,
                                               IntersectionWitness* witness) {
  if (const auto exact = exactSeparation(a, b)) {
    if (!exact->colliding) return std::nullopt;
    return penetrationPoint(*exact);
  }
  if (!a.bvh || !b.bvh || a.bvh->empty() || b.bvh->empty()) return std::nullopt;
  const SeparationResult r = signedSeparation(*a.bvh, a.X_WB, *b.bvh, b.X_WB, witness);
  if (!r.colliding) return std::nullopt;
  if (r.separation_mm < 0) return penetrationPoint(r);
  // No vertex inside the other mesh (touching, or edges crossing): the closest vertex–face or edge–edge report
  // of the pair's triangles, not the default normal of a zero-length witness.
  ContactQueryOptions touching = options;
  touching.acceptIntersecting = true;
  touching.compact = false;
  touching.keepRawPoints = false;
  touching.threshold_mm = std::max(options.threshold_mm, 1e-6);
  const MeshContacts mc = meshContacts(*a.bvh, a.X_WB, *b.bvh, b.X_WB, touching);
  if (mc.points.empty()) return penetrationPoint(r);
  ContactPoint best = *std::min_element(mc.points.begin(), mc.points.end(), [](const ContactPoint& x, const ContactPoint& y) {
    return x.distance_mm < y.distance_mm;
  });
  if (best.distance_mm > 1e-9) {
    // Features of a colliding pair this close with no vertex inside: crossing edges. They separate by moving
    // apart along the line between their points, the other way round from the apart convention, by that distance.
    std::swap(best.nA_W, best.nB_W);
    best.distance_mm = -best.distance_mm;
  } else {
    best.distance_mm = 0;  // touching: the report's normals come from the faces (ProximityContacts.cpp, add)
  }
  return best;
}

}  // namespace sg
