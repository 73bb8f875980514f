#include "geometry/ShapePairs.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "geometry/ContactAcceptance.h"
#include "geometry/ShapeCollision.h"
#include "geometry/ShapeQueries.h"
#include "geometry/ShapeTessellation.h"
#include "geometry/TriangleTriangle.h"

namespace sg {

namespace {

enum class PairKind { None, SphereShape, ShapeSphere, CapsuleCapsule, ConvexHalfSpace, HalfSpaceConvex, SphereMesh,
                      MeshSphere, CapsuleMesh, MeshCapsule, HalfSpaceMesh, MeshHalfSpace };

bool is(const PairSide& s, auto tag) {
  return s.primitive && std::holds_alternative<decltype(tag)>(s.primitive->shape);
}
bool supportable(const PairSide& s) {
  return s.primitive && !std::holds_alternative<HalfSpace>(s.primitive->shape);  // torus: its hull's support
}
bool meshOnly(const PairSide& s) { return !s.primitive && s.bvh && !s.bvh->empty(); }

PairKind kindOf(const PairSide& a, const PairSide& b) {
  if (is(a, Sphere{}) && b.primitive) return PairKind::SphereShape;
  if (is(b, Sphere{}) && a.primitive) return PairKind::ShapeSphere;
  if (is(a, Capsule{}) && is(b, Capsule{})) return PairKind::CapsuleCapsule;
  if (supportable(a) && is(b, HalfSpace{})) return PairKind::ConvexHalfSpace;
  if (is(a, HalfSpace{}) && supportable(b)) return PairKind::HalfSpaceConvex;
  if (is(a, Sphere{}) && meshOnly(b)) return PairKind::SphereMesh;
  if (meshOnly(a) && is(b, Sphere{})) return PairKind::MeshSphere;
  if (is(a, Capsule{}) && meshOnly(b)) return PairKind::CapsuleMesh;
  if (meshOnly(a) && is(b, Capsule{})) return PairKind::MeshCapsule;
  if (is(a, HalfSpace{}) && meshOnly(b)) return PairKind::HalfSpaceMesh;
  if (meshOnly(a) && is(b, HalfSpace{})) return PairKind::MeshHalfSpace;
  return PairKind::None;
}

Transform X_WS(const PairSide& s) { return s.X_WB * s.primitive->X_BS; }

// A closest pair as a contact point: point on A, point on B, unit normal into A (from B towards A).
ContactPoint makePoint(const Vec3& pA, const Vec3& pB, const Vec3& intoA, double distance) {
  ContactPoint c;
  c.p_WCa_mm = pA;
  c.p_WCb_mm = pB;
  c.nA_W = intoA;
  c.nB_W = -intoA;
  c.distance_mm = distance;
  return c;
}

SeparationResult toSeparation(const ContactPoint& c) {
  SeparationResult r;
  r.separation_mm = c.distance_mm;
  r.colliding = c.distance_mm <= 0;
  r.p_WCa_mm = c.p_WCa_mm;
  r.p_WCb_mm = c.p_WCb_mm;
  r.nA_W = c.nA_W;
  r.nB_W = c.nB_W;
  return r;
}

ContactPoint swapped(const ContactPoint& c) {
  ContactPoint s = c;
  std::swap(s.p_WCa_mm, s.p_WCb_mm);
  std::swap(s.nA_W, s.nB_W);
  return s;
}

// ---- sphere (A) against any primitive (B)
ContactPoint sphereShape(const PairSide& a, const PairSide& b) {
  const double r = std::get<Sphere>(a.primitive->shape).radius_mm;
  const Transform wa = X_WS(a), wb = X_WS(b);
  const Vec3 c_W = wa.translation();
  const auto proj = nearestSurfacePoint(b.primitive->shape, wb.inverse() * c_W);
  const Vec3 n_W = wb.applyToVector(proj.normal);  // outward of B = into A
  return makePoint(c_W - r * n_W, wb * proj.point_mm, n_W, proj.signedDistance_mm - r);
}

// ---- capsule against capsule
struct WorldSegment {
  Vec3 p, q;
  double r;
};
WorldSegment segmentOf(const PairSide& s) {
  const auto& c = std::get<Capsule>(s.primitive->shape);
  const Transform w = X_WS(s);
  return {w * Vec3(0, 0, -0.5 * c.length_mm), w * Vec3(0, 0, 0.5 * c.length_mm), c.radius_mm};
}
ContactPoint segmentPair(const WorldSegment& A, const WorldSegment& B, const Vec3& pa, const Vec3& pb) {
  Vec3 v = pa - pb;
  const double d = v.norm();
  Vec3 n;
  if (d > 1e-300) {
    n = v / d;
  } else {  // the axes cross: any direction perpendicular to both
    n = (A.q - A.p).cross(B.q - B.p);
    if (n.norm() < 1e-300) n = (A.q - A.p).cross(Vec3::UnitX());
    if (n.norm() < 1e-300) n = (A.q - A.p).cross(Vec3::UnitY());
    if (n.norm() < 1e-300) n = Vec3::UnitZ();
    n.normalize();
  }
  return makePoint(pa - A.r * n, pb + B.r * n, n, d - A.r - B.r);
}
ContactPoint capsuleCapsule(const PairSide& a, const PairSide& b) {
  const WorldSegment A = segmentOf(a), B = segmentOf(b);
  const auto ss = closestSegmentSegment(A.p, A.q, B.p, B.q);
  return segmentPair(A, B, ss.pointOnFirst, ss.pointOnSecond);
}
// The endpoint pairs (each endpoint against the other segment): line contacts of parallel capsules.
std::vector<ContactPoint> capsuleEndpoints(const PairSide& a, const PairSide& b) {
  const WorldSegment A = segmentOf(a), B = segmentOf(b);
  std::vector<ContactPoint> out;
  auto onSegment = [](const Vec3& x, const WorldSegment& s) {
    const Vec3 d = s.q - s.p;
    const double t = d.squaredNorm() > 0 ? std::clamp((x - s.p).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
    return Vec3(s.p + t * d);
  };
  for (const Vec3& x : {A.p, A.q}) out.push_back(segmentPair(A, B, x, onSegment(x, B)));
  for (const Vec3& x : {B.p, B.q}) out.push_back(segmentPair(A, B, onSegment(x, A), x));
  return out;
}

// ---- convex primitive (A) against half-space (B)
ContactPoint convexHalfSpace(const PairSide& a, const PairSide& b) {
  const Transform wa = X_WS(a), wb = X_WS(b);
  const Vec3 n_W = wb.applyToVector(Vec3::UnitZ());  // plane normal, into A
  const Vec3 s_W = wa * *supportPoint(a.primitive->shape, wa.inverse().applyToVector(-n_W));
  const double h = (s_W - wb.translation()).dot(n_W);
  return makePoint(s_W, s_W - h * n_W, n_W, h);
}
// Other points of A within the threshold of the plane: vertices of a coarse tessellation (on the exact
// surface: box corners, cylinder and cone rims, torus circles) and each capsule end's lowest point.
std::vector<ContactPoint> halfSpaceFeatures(const PairSide& a, const PairSide& b, double threshold) {
  const Transform wa = X_WS(a), wb = X_WS(b);
  const Vec3 n_W = wb.applyToVector(Vec3::UnitZ());
  std::vector<Vec3> candidates;
  TessellationOptions coarse;
  coarse.segments = 16;
  for (const Vec3& v : tessellateShape(a.primitive->shape, coarse).vertices) candidates.push_back(wa * v);
  if (const auto* c = std::get_if<Capsule>(&a.primitive->shape))
    for (double z : {-0.5 * c->length_mm, 0.5 * c->length_mm})
      candidates.push_back(wa * Vec3(0, 0, z) - c->radius_mm * n_W);
  std::vector<ContactPoint> out;
  for (const Vec3& p : candidates) {
    const double h = (p - wb.translation()).dot(n_W);
    if (h >= 0 && h <= threshold) out.push_back(makePoint(p, p - h * n_W, n_W, h));
  }
  return out;
}

// ---- sphere (A) against a mesh (B)
// Closest points of every triangle of B within `reach` of the world point c.
struct TriangleNear {
  Vec3 point_W_mm;
  double distance;
};
std::vector<TriangleNear> trianglesNear(const Bvh& bvh, const Transform& X_WM, const Vec3& c_W, double reach) {
  std::vector<TriangleNear> out;
  if (bvh.empty()) return out;
  const Vec3 c = X_WM.inverse() * c_W;
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const BvhNode& node = bvh.nodes()[stack.back()];
    stack.pop_back();
    const Vec3 local = node.box.axes.transpose() * (c - node.box.center);
    const double gap = (local.cwiseAbs() - node.box.halfExtents).cwiseMax(0.0).norm();
    if (gap > reach) continue;
    if (!node.isLeaf()) {
      stack.push_back(static_cast<std::uint32_t>(node.firstChild));
      stack.push_back(static_cast<std::uint32_t>(node.firstChild + 1));
      continue;
    }
    for (std::uint32_t i = node.firstTriangle; i < node.firstTriangle + node.triangleCount; ++i) {
      const auto& t = bvh.triangles()[i];
      const auto r = closestPointOnTriangle(c, t[0], t[1], t[2]);
      const double d = std::sqrt(r.distanceSquared);
      if (d <= reach) out.push_back({X_WM * r.point, d});
    }
  }
  return out;
}
ContactPoint sphereMeshPoint(const Vec3& c_W, double r, const Vec3& q_W_mm, double d, bool inside) {
  Vec3 n = d > 1e-300 ? Vec3((c_W - q_W_mm) / d) : Vec3::UnitZ();
  if (inside) n = -n;
  return makePoint(c_W - r * n, q_W_mm, n, (inside ? -d : d) - r);
}
ContactPoint sphereMesh(const PairSide& a, const PairSide& b) {
  const double r = std::get<Sphere>(a.primitive->shape).radius_mm;
  const Vec3 c_W = X_WS(a).translation();
  const MeshClosestPoint q = closestPointOnMesh(*b.bvh, b.X_WB, c_W);
  const bool inside = q.distance_mm < r && pointInsideMesh(*b.bvh, b.X_WB, c_W);
  return sphereMeshPoint(c_W, r, q.point_mm, q.distance_mm, inside);
}

// ---- capsule (A) against a mesh (B)
// Closest points of segment pq and triangle abc (exact): endpoints against the face, the segment against the
// three edges, and a crossing of the face.
struct SegmentTriangle {
  Vec3 onSegment, onTriangle;
  double distance;
};
SegmentTriangle segmentTriangle(const Vec3& p, const Vec3& q, const TrianglePoints& t) {
  SegmentTriangle best{p, p, std::numeric_limits<double>::infinity()};
  auto offer = [&](const Vec3& s, const Vec3& x) {
    const double d = (s - x).norm();
    if (d < best.distance) best = {s, x, d};
  };
  for (const Vec3& e : {p, q}) offer(e, closestPointOnTriangle(e, t[0], t[1], t[2]).point);
  for (int i = 0; i < 3; ++i) {
    const auto ss = closestSegmentSegment(p, q, t[i], t[(i + 1) % 3]);
    offer(ss.pointOnFirst, ss.pointOnSecond);
  }
  const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
  const double dp = n.dot(p - t[0]), dq = n.dot(q - t[0]);
  if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
    const Vec3 x = p + (dp / (dp - dq)) * (q - p);
    const auto onTri = closestPointOnTriangle(x, t[0], t[1], t[2]);
    offer(x, onTri.point);
  }
  return best;
}
// Every triangle of B whose closest point to the world segment is within `reach`, with that pair (world), and
// the pairs of the segment's ends with it when within reach.
std::vector<SegmentTriangle> trianglesNearSegment(const Bvh& bvh, const Transform& X_WM, const Vec3& p_W_mm,
                                                  const Vec3& q_W_mm, double reach) {
  std::vector<SegmentTriangle> out;
  if (bvh.empty()) return out;
  const Transform inv = X_WM.inverse();
  const Vec3 p = inv * p_W_mm, q = inv * q_W_mm, mid = 0.5 * (p + q);
  const double half = 0.5 * (q - p).norm();
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const BvhNode& node = bvh.nodes()[stack.back()];
    stack.pop_back();
    const Vec3 local = node.box.axes.transpose() * (mid - node.box.center);
    const double gap = (local.cwiseAbs() - node.box.halfExtents).cwiseMax(0.0).norm() - half;  // a lower bound
    if (gap > reach) continue;
    if (!node.isLeaf()) {
      stack.push_back(static_cast<std::uint32_t>(node.firstChild));
      stack.push_back(static_cast<std::uint32_t>(node.firstChild + 1));
      continue;
    }
    for (std::uint32_t i = node.firstTriangle; i < node.firstTriangle + node.triangleCount; ++i) {
      const TrianglePoints& t = bvh.triangles()[i];
      const SegmentTriangle st = segmentTriangle(p, q, t);
      if (st.distance > reach) continue;
      out.push_back({X_WM * st.onSegment, X_WM * st.onTriangle, st.distance});
      // The ends too: a segment lying along a face touches it all along, and its ends bound the contact.
      for (const Vec3& e : {p, q}) {
        const Vec3 x = closestPointOnTriangle(e, t[0], t[1], t[2]).point;
        const double d = (e - x).norm();
        if (d <= reach) out.push_back({X_WM * e, X_WM * x, d});
      }
    }
  }
  return out;
}
// The nearest triangle of B to the world segment within `reach` (distance ∞ when none), the pair
// trianglesNearSegment's list would give first among its smallest distances: the same traversal and the same
// segment–triangle pairs, pruning every node whose lower bound exceeds the best distance found so far (branch
// and bound). The ends' pairs that list adds are never nearer than their triangle's own pair (segmentTriangle
// offers the ends first), so they are not needed here.
//
// More lower bounds prune what cannot be nearer (src/geometry/README.md §Pair queries): a node by
// the box of the segment in the node's frame (never looser than the middle's distance less half the length) and
// a triangle by its bounding ball and its plane before the exact segment–triangle pair. A node or triangle is
// pruned only when its bound, less kPruneMargin_mm for the rounding of the exact pair, exceeds the best distance
// so far (or the reach), so it could not have been taken: the same traversal order, the same pair, number for number.
SegmentTriangle nearestTriangleToSegment(const Bvh& bvh, const Transform& X_WM, const Vec3& p_W_mm,
                                         const Vec3& q_W_mm, double reach) {
  constexpr double kPruneMargin_mm = 1e-9;
  SegmentTriangle best{p_W_mm, p_W_mm, std::numeric_limits<double>::infinity()};
  if (bvh.empty()) return best;
  const Transform inv = X_WM.inverse();
  const Vec3 p = inv * p_W_mm, q = inv * q_W_mm, mid = 0.5 * (p + q);
  const Vec3 pq = q - p;
  const double half = 0.5 * pq.norm();
  const double lengthSquared = pq.squaredNorm();
  SegmentTriangle local{p, p, std::numeric_limits<double>::infinity()};
  // The smaller of the reach and the best distance so far: what a node or triangle must get under.
  auto limit = [&] { return std::min(reach, local.distance) + kPruneMargin_mm; };
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const BvhNode& node = bvh.nodes()[stack.back()];
    stack.pop_back();
    const Vec3 inBox = node.box.axes.transpose() * (mid - node.box.center);
    const double gap = (inBox.cwiseAbs() - node.box.halfExtents).cwiseMax(0.0).norm() - half;  // a lower bound
    if (gap > reach || gap > local.distance) continue;
    // The segment's extent in the box frame, [inBox − e, inBox + e]: its gap to the box bounds the segment's.
    const Vec3 e = 0.5 * (node.box.axes.transpose() * pq).cwiseAbs();
    if ((inBox.cwiseAbs() - e - node.box.halfExtents).cwiseMax(0.0).norm() > limit()) continue;
    if (!node.isLeaf()) {
      stack.push_back(static_cast<std::uint32_t>(node.firstChild));
      stack.push_back(static_cast<std::uint32_t>(node.firstChild + 1));
      continue;
    }
    for (std::uint32_t i = node.firstTriangle; i < node.firstTriangle + node.triangleCount; ++i) {
      const TrianglePoints& t = bvh.triangles()[i];
      {
        // The ball about the centroid through the farthest corner, against the segment's nearest point to it.
        const Vec3 c = (t[0] + t[1] + t[2]) / 3.0;
        const double radius = std::sqrt(std::max({(t[0] - c).squaredNorm(), (t[1] - c).squaredNorm(),
                                                  (t[2] - c).squaredNorm()}));
        const double u = lengthSquared > 0 ? std::clamp((c - p).dot(pq) / lengthSquared, 0.0, 1.0) : 0.0;
        if ((c - (p + u * pq)).norm() - radius > limit()) continue;
        // Both ends strictly on one side of the triangle's plane: the segment is at least the nearer end's height away.
        const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
        const double nNorm = n.norm();
        const double hp = n.dot(p - t[0]), hq = n.dot(q - t[0]);
        if (nNorm > 0 && ((hp > 0 && hq > 0) || (hp < 0 && hq < 0)) &&
            std::min(std::abs(hp), std::abs(hq)) / nNorm > limit())
          continue;
      }
      const SegmentTriangle st = segmentTriangle(p, q, t);
      if (st.distance <= reach && st.distance < local.distance) local = st;
    }
  }
  if (std::isfinite(local.distance)) best = {X_WM * local.onSegment, X_WM * local.onTriangle, local.distance};
  return best;
}
ContactPoint capsuleMeshPoint(const SegmentTriangle& st, double r, const Vec3& axis) {
  Vec3 n;
  if (st.distance > 1e-300) {
    n = (st.onSegment - st.onTriangle) / st.distance;
  } else {  // the axis touches the mesh: any direction across the axis
    n = axis.cross(Vec3::UnitX());
    if (n.norm() < 1e-12) n = axis.cross(Vec3::UnitY());
    n.normalize();
  }
  return makePoint(st.onSegment - r * n, st.onTriangle, n, st.distance - r);
}
std::vector<ContactPoint> capsuleMeshPoints(const PairSide& a, const PairSide& b, double reachBeyondSurface) {
  const WorldSegment s = segmentOf(a);
  std::vector<ContactPoint> out;
  for (const auto& st : trianglesNearSegment(*b.bvh, b.X_WB, s.p, s.q, s.r + reachBeyondSurface))
    out.push_back(capsuleMeshPoint(st, s.r, s.q - s.p));
  return out;
}
// The closest pair: the nearest triangle found by widening the search until one is in reach.
ContactPoint capsuleMesh(const PairSide& a, const PairSide& b) {
  const WorldSegment s = segmentOf(a);
  const MeshClosestPoint toMid = closestPointOnMesh(*b.bvh, b.X_WB, 0.5 * (s.p + s.q));
  // The nearest triangle is within the distance from the segment's middle.
  SegmentTriangle best = nearestTriangleToSegment(*b.bvh, b.X_WB, s.p, s.q, toMid.distance_mm + 1e-9);
  if (!std::isfinite(best.distance)) best = {0.5 * (s.p + s.q), toMid.point_mm, toMid.distance_mm};
  return capsuleMeshPoint(best, s.r, s.q - s.p);
}

// Whether capsuleMesh(a, b) is colliding (distance ≤ 0), without finding the nearest triangle when the capsule is
// clear by more than kUnsure_mm: a triangle within the radius collides whatever capsuleMesh's reach (its nearest
// is then within the radius too, and its fallback, the middle's distance, is at least the nearest triangle's), and
// with none within radius + kUnsure_mm the middle is farther than the radius as well (rounding is ~1e-12 mm).
// Between the two, capsuleMesh decides.
bool capsuleMeshCollides(const PairSide& a, const PairSide& b) {
  constexpr double kUnsure_mm = 1e-6;
  const WorldSegment s = segmentOf(a);
  const SegmentTriangle near = nearestTriangleToSegment(*b.bvh, b.X_WB, s.p, s.q, s.r + kUnsure_mm);
  if (near.distance <= s.r) return true;
  if (!(near.distance <= s.r + kUnsure_mm)) return false;
  return capsuleMesh(a, b).distance_mm <= 0;
}

// ---- half-space (A) against a mesh (B): mesh vertices by height above the plane.
std::vector<ContactPoint> halfSpaceMeshPoints(const PairSide& a, const PairSide& b, double threshold, ContactPoint& lowest) {
  const Transform wa = X_WS(a);
  const Vec3 n_W = wa.applyToVector(Vec3::UnitZ());  // out of the half-space: into B
  std::vector<ContactPoint> out;
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3& v : b.bvh->vertices()) {
    const Vec3 p = b.X_WB * v;
    const double h = (p - wa.translation()).dot(n_W);
    const ContactPoint c = makePoint(p - h * n_W, p, -n_W, h);  // A = half-space: into A is −n
    if (h < best) {
      best = h;
      lowest = c;
    }
    if (h >= 0 && h <= threshold) out.push_back(c);
  }
  return out;
}

ContactPoint closestPair(PairKind kind, const PairSide& a, const PairSide& b) {
  switch (kind) {
    case PairKind::SphereShape: return sphereShape(a, b);
    case PairKind::ShapeSphere: return swapped(sphereShape(b, a));
    case PairKind::CapsuleCapsule: return capsuleCapsule(a, b);
    case PairKind::ConvexHalfSpace: return convexHalfSpace(a, b);
    case PairKind::HalfSpaceConvex: return swapped(convexHalfSpace(b, a));
    case PairKind::SphereMesh: return sphereMesh(a, b);
    case PairKind::MeshSphere: return swapped(sphereMesh(b, a));
    case PairKind::CapsuleMesh: return capsuleMesh(a, b);
    case PairKind::MeshCapsule: return swapped(capsuleMesh(b, a));
    case PairKind::HalfSpaceMesh: {
      ContactPoint lowest;
      halfSpaceMeshPoints(a, b, -1, lowest);
      return lowest;
    }
    case PairKind::MeshHalfSpace: {
      ContactPoint lowest;
      halfSpaceMeshPoints(b, a, -1, lowest);
      return swapped(lowest);
    }
    case PairKind::None: break;
  }
  return {};
}

}  // namespace

bool hasExactPairQuery(const PairSide& a, const PairSide& b) { return kindOf(a, b) != PairKind::None; }

std::optional<SeparationResult> exactSeparation(const PairSide& a, const PairSide& b) {
  const PairKind kind = kindOf(a, b);
  if (kind == PairKind::None) return std::nullopt;
  return toSeparation(closestPair(kind, a, b));
}

std::optional<bool> exactCollision(const PairSide& a, const PairSide& b) {
  const PairKind kind = kindOf(a, b);
  if (kind == PairKind::CapsuleMesh) return capsuleMeshCollides(a, b);
  if (kind == PairKind::MeshCapsule) return capsuleMeshCollides(b, a);
  if (kind == PairKind::None) return std::nullopt;
  return toSeparation(closestPair(kind, a, b)).colliding;
}

std::optional<MeshContacts> exactContacts(const PairSide& a, const PairSide& b, const ContactQueryOptions& options) {
  const PairKind kind = kindOf(a, b);
  if (kind == PairKind::None) return std::nullopt;
  MeshContacts out;
  const ContactPoint closest = closestPair(kind, a, b);
  if (closest.distance_mm <= 0) {
    out.colliding = true;
    return out;
  }
  if (!(options.threshold_mm > 0)) return out;  // no threshold, no margin either (as meshContacts)
  // The threshold with its round-off margin (ContactAcceptance.h), for the closest pair and every feature.
  const double threshold = acceptedContactThreshold_mm(options.threshold_mm, contactScale_mm(a, b));
  if (closest.distance_mm > threshold) return out;
  std::vector<ContactPoint> points{closest};
  auto addWithin = [&](const std::vector<ContactPoint>& more, bool swap) {
    for (const auto& c : more)
      if (c.distance_mm > 0 && c.distance_mm <= threshold) points.push_back(swap ? swapped(c) : c);
  };
  switch (kind) {
    case PairKind::CapsuleCapsule: addWithin(capsuleEndpoints(a, b), false); break;
    case PairKind::ConvexHalfSpace: addWithin(halfSpaceFeatures(a, b, threshold), false); break;
    case PairKind::HalfSpaceConvex: addWithin(halfSpaceFeatures(b, a, threshold), true); break;
    case PairKind::SphereMesh:
    case PairKind::MeshSphere: {
      const bool sphereIsA = kind == PairKind::SphereMesh;
      const PairSide& s = sphereIsA ? a : b;
      const PairSide& m = sphereIsA ? b : a;
      const double r = std::get<Sphere>(s.primitive->shape).radius_mm;
      const Vec3 c_W = X_WS(s).translation();
      std::vector<ContactPoint> more;
      for (const auto& t : trianglesNear(*m.bvh, m.X_WB, c_W, r + threshold))
        more.push_back(sphereMeshPoint(c_W, r, t.point_W_mm, t.distance, false));
      addWithin(more, !sphereIsA);
      break;
    }
    case PairKind::CapsuleMesh: addWithin(capsuleMeshPoints(a, b, threshold), false); break;
    case PairKind::MeshCapsule: addWithin(capsuleMeshPoints(b, a, threshold), true); break;
    case PairKind::HalfSpaceMesh: {
      ContactPoint lowest;
      addWithin(halfSpaceMeshPoints(a, b, threshold, lowest), false);
      break;
    }
    case PairKind::MeshHalfSpace: {
      ContactPoint lowest;
      addWithin(halfSpaceMeshPoints(b, a, threshold, lowest), true);
      break;
    }
    default: break;
  }
  // The closest pair first, so duplicate removal keeps it (ties keep the earlier report).
  points = removeDuplicateContacts(std::move(points), options.duplicateRadius_mm);
  if (options.compact) points = compactContacts(points, options);
  fixContactNormals(points);
  out.points = std::move(points);
  return out;
}

}  // namespace sg
