#include "geometry/ProximityContacts.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "geometry/ContactAcceptance.h"
#include "geometry/ProximityTraversal.h"

namespace sg {


namespace {

// The smallest threshold with which a witness is used: far above the round-off of trianglesIntersect and of the
// culls' lower bounds (a few ε × the coordinate scale, ContactAcceptance.h), so an intersecting witness can
// never lie beyond a cull.
constexpr double kWitnessMinThreshold_mm = 1e-3;

// Inward normal on A for a pair whose points (nearly) coincide: from the face normals of the triangles.
Vec3 fallbackNormalA(const Vec3& outwardA, const Vec3& outwardB, bool faceOnA, bool faceOnB) {
  if (faceOnA && !faceOnB) return -outwardA;
  if (faceOnB && !faceOnA) return outwardB;
  const Vec3 n = outwardB - outwardA;
  return n.norm() > 1e-12 ? Vec3(n.normalized()) : Vec3(-outwardA);
}

struct TrianglePairContacts {
  const TrianglePoints& ta;  // both in one frame
  const TrianglePoints& tb;
  Vec3 normalA, normalB;     // outward, the same frame
  double threshold;
  std::vector<ContactPoint>& out;

  void add(const Vec3& pa, const Vec3& pb, double dist, bool edgeEdge, bool faceOnA, bool faceOnB) {
    ContactPoint c;
    c.p_WCa_mm = pa;
    c.p_WCb_mm = pb;
    c.distance_mm = dist;
    c.edgeEdge = edgeEdge;
    const Vec3 d = pa - pb;
    c.nA_W = dist > 1e-9 ? Vec3(d / d.norm()) : fallbackNormalA(normalA, normalB, faceOnA, faceOnB);
    c.nB_W = -c.nA_W;
    out.push_back(c);
  }

  // Farther apart than the threshold along a coordinate axis (a lower bound on their distance): such features
  // cannot be accepted, and their exact closest points are not computed.
  bool boxesApart(const Vec3& loA, const Vec3& hiA, const Vec3& loB, const Vec3& hiB) const {
    return ((loB - hiA).array() > threshold).any() || ((loA - hiB).array() > threshold).any();
  }

  void run() {
    const double thr2 = threshold * threshold;
    const Vec3 loA = ta[0].cwiseMin(ta[1]).cwiseMin(ta[2]), hiA = ta[0].cwiseMax(ta[1]).cwiseMax(ta[2]);
    const Vec3 loB = tb[0].cwiseMin(tb[1]).cwiseMin(tb[2]), hiB = tb[0].cwiseMax(tb[1]).cwiseMax(tb[2]);
    // Vertices of B against A's triangle.
    for (int k = 0; k < 3; ++k) {
      if (boxesApart(loA, hiA, tb[k], tb[k])) continue;
      const auto r = closestPointOnTriangle(tb[k], ta[0], ta[1], ta[2]);
      if (r.distanceSquared < thr2) add(r.point, tb[k], std::sqrt(r.distanceSquared), false, true, false);
    }
    // Vertices of A against B's triangle, unless the closest point is a vertex of B (already reported).
    for (int k = 0; k < 3; ++k) {
      if (boxesApart(ta[k], ta[k], loB, hiB)) continue;
      const auto r = closestPointOnTriangle(ta[k], tb[0], tb[1], tb[2]);
      if (isVertexFeature(r.feature)) continue;
      if (r.distanceSquared < thr2) add(ta[k], r.point, std::sqrt(r.distanceSquared), false, false, true);
    }
    // Edge–edge pairs whose closest points are interior to both edges.
    const double eps = 1e-9;
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < 3; ++l) {
        const Vec3 &a0 = ta[k], &a1 = ta[(k + 1) % 3], &b0 = tb[l], &b1 = tb[(l + 1) % 3];
        if (boxesApart(a0.cwiseMin(a1), a0.cwiseMax(a1), b0.cwiseMin(b1), b0.cwiseMax(b1))) continue;
        const auto s = closestSegmentSegment(a0, a1, b0, b1);
        if (s.distanceSquared >= thr2) continue;
        if (s.s <= eps || s.s >= 1 - eps || s.t <= eps || s.t >= 1 - eps) continue;
        add(s.pointOnFirst, s.pointOnSecond, std::sqrt(s.distanceSquared), true, false, false);
      }
  }
};

}  // namespace

MeshContacts meshContacts(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                          const ContactQueryOptions& options, IntersectionWitness* witness) {
  MeshContacts result;
  if (a.empty() || b.empty() || !(options.threshold_mm > 0)) return result;
  const BvhBox& ra = a.nodes().front().box;
  const BvhBox& rb = b.nodes().front().box;
  const Vec3 cA_W = X_WA * ra.center, cB_W = X_WB * rb.center;
  // Every cull and test below uses the threshold with its round-off margin (ContactAcceptance.h).
  const double threshold =
      acceptedContactThreshold_mm(options.threshold_mm, ballPairScale_mm(cA_W, ra.radius, cB_W, rb.radius));
  // Root balls farther apart than the threshold: nothing to find, and the frame's set-up is most of the cost
  // of a query that its root pair would end.
  if (ballGapLowerBound(cA_W, ra.radius, cB_W, rb.radius) > threshold) return result;
  detail::PairFrame frame(a, X_WA, b, X_WB);
  if (witness) {
    // The traversal below ends as colliding at the first intersecting triangle pair it meets, with no points,
    // and it meets every intersecting pair unless it stops earlier at another: its culls skip only node and
    // triangle pairs with a certified lower bound on their distance above the threshold, and triangles that
    // trianglesIntersect calls intersecting are within round-off of touching, far below a threshold of at least
    // kWitnessMinThreshold_mm. So an intersecting witness, tested on the same working-frame triangles the
    // traversal would test, gives the traversal's result (README.md §Contact points, "Intersection witnesses").
    const bool usable = witness->valid && !options.acceptIntersecting &&
                        options.threshold_mm >= kWitnessMinThreshold_mm &&
                        witness->triangleA < a.triangles().size() && witness->triangleB < b.triangles().size();
    if (usable && trianglesIntersect(frame.triangleA(witness->triangleA), frame.triangleB(witness->triangleB))) {
      result.colliding = true;
      return result;
    }
    witness->valid = false;
  }
  std::vector<ContactPoint> raw;  // the working frame until the end
  detail::traverseNodePairs(
      frame, a, b, [&](std::uint32_t ia, std::uint32_t ib) { return frame.compactGapExceeds(ia, ib, threshold); },
      [&](const BvhNode& A, const BvhNode& B) {
        for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j) {
          const TrianglePoints& tb = frame.triangleB(j);
          for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i) {
            // Farther apart than the threshold (so not intersecting either): no vertex–face or edge–edge pair
            // of these triangles can be accepted.
            if (frame.triangleBeyond(i, j, threshold)) continue;
            const TrianglePoints& ta = frame.triangleA(i);
            if (!options.acceptIntersecting && trianglesIntersect(ta, tb)) {
              if (witness) *witness = {true, i, j};
              return result.colliding = true;
            }
            TrianglePairContacts{ta, tb, frame.normalA(i), frame.normalB(j), threshold, raw}.run();
          }
        }
        return false;
      });
  if (result.colliding || raw.empty()) return result;  // nothing within the threshold: nothing to map or merge
  const Transform& X_WF = frame.frameToWorld();
  const Mat3 R_WF = X_WF.rotationMatrix();
  for (auto& c : raw) {
    c.p_WCa_mm = X_WF * c.p_WCa_mm;
    c.p_WCb_mm = X_WF * c.p_WCb_mm;
    c.nA_W = R_WF * c.nA_W;
    c.nB_W = R_WF * c.nB_W;
  }
  if (options.keepRawPoints) {
    result.rawPoints = raw;
    fixContactNormals(result.rawPoints);
  }
  raw = removeDuplicateContacts(std::move(raw), options.duplicateRadius_mm);
  if (options.compact) raw = compactContacts(raw, options);
  fixContactNormals(raw);
  result.points = std::move(raw);
  return result;
}

std::vector<ContactPoint> removeDuplicateContacts(std::vector<ContactPoint> points, double radius) {
  // Greedy by increasing distance (vertex–face before edge–edge on ties): a report is kept unless a kept
  // one lies within `radius` on both bodies — the same survivors as "of two duplicates keep the closer".
  // Indices are sorted, not the 112-byte reports.
  std::vector<std::uint32_t> order(points.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t i, std::uint32_t j) {
    const ContactPoint& x = points[i];
    const ContactPoint& y = points[j];
    if (std::abs(x.distance_mm - y.distance_mm) > 1e-9) return x.distance_mm < y.distance_mm;
    return !x.edgeEdge && y.edgeEdge;
  });
  const double r2 = radius * radius;
  std::vector<ContactPoint> kept;
  for (std::uint32_t i : order) {
    const ContactPoint& p = points[i];
    const bool duplicate = std::any_of(kept.begin(), kept.end(), [&](const ContactPoint& k) {
      return (k.p_WCa_mm - p.p_WCa_mm).squaredNorm() < r2 && (k.p_WCb_mm - p.p_WCb_mm).squaredNorm() < r2;
    });
    if (!duplicate) kept.push_back(p);
  }
  return kept;
}

std::vector<std::size_t> convexHull2d(const std::vector<Vec2>& pts, double tolerance) {
  // Gift wrapping, by orientation alone. A monotone chain sorts the points by x first, and the points of an edge
  // parallel to y tie in x: round-off then orders them arbitrarily, which kept an edge's middle point or lost a
  // corner, so the compaction of a pad lying axis-aligned on a box face changed under a rigid motion of the
  // world (README.md §Contact points). Here each next vertex is the most clockwise point seen from the current
  // one, the farthest among those collinear with it within the tolerance, so middle points are never vertices.
  const std::size_t n = pts.size();
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  if (n < 3) return idx;
  auto cross = [&](std::size_t o, std::size_t a, std::size_t b) {
    return (pts[a] - pts[o]).x() * (pts[b] - pts[o]).y() - (pts[a] - pts[o]).y() * (pts[b] - pts[o]).x();
  };
  double scale = 0;
  for (const auto& p : pts) scale = std::max(scale, p.cwiseAbs().maxCoeff());
  const double eps = tolerance * std::max(1.0, scale * scale);
  // The lowest-x point (then lowest y) is a vertex: counter-clockwise from it, as the monotone chain did.
  const std::size_t start = *std::min_element(idx.begin(), idx.end(), [&](std::size_t i, std::size_t j) {
    return pts[i].x() < pts[j].x() || (pts[i].x() == pts[j].x() && pts[i].y() < pts[j].y());
  });
  std::vector<std::size_t> hull;
  std::vector<int> position(n, -1);  // where a point is in `hull`, −1 if not yet
  std::size_t p = start;
  while (position[p] < 0) {
    position[p] = static_cast<int>(hull.size());
    hull.push_back(p);
    std::size_t q = n;
    for (std::size_t r = 0; r < n; ++r) {
      if ((pts[r] - pts[p]).squaredNorm() == 0) continue;  // p itself and its duplicates
      if (q == n) {
        q = r;
        continue;
      }
      const double c = cross(p, q, r);
      const bool fartherAlong = std::abs(c) <= eps && (pts[r] - pts[p]).dot(pts[q] - pts[p]) > 0 &&
                                (pts[r] - pts[p]).squaredNorm() > (pts[q] - pts[p]).squaredNorm();
      if (c < -eps || fartherAlong) q = r;
    }
    if (q == n) return {start};  // every point coincides
    p = q;
  }
  // The wrap closes where it meets a vertex it already has: the hull is the cycle from there (the points before
  // it lay on an edge within the tolerance).
  hull.erase(hull.begin(), hull.begin() + position[p]);
  // A vertex that is no strict left turn within the tolerance lies on its neighbours' edge: dropped.
  for (bool dropped = true; dropped && hull.size() >= 3;) {
    dropped = false;
    for (std::size_t k = 0; k < hull.size() && hull.size() >= 3; ++k) {
      const std::size_t prev = hull[(k + hull.size() - 1) % hull.size()], next = hull[(k + 1) % hull.size()];
      if (cross(prev, hull[k], next) <= eps) {
        hull.erase(hull.begin() + static_cast<std::ptrdiff_t>(k));
        dropped = true;
        break;
      }
    }
  }
  return hull;
}

std::vector<ContactPoint> compactContacts(const std::vector<ContactPoint>& points, const ContactQueryOptions& opt) {
  // Group by body-A normal.
  std::vector<std::vector<ContactPoint>> groups;
  for (const auto& p : points) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.front().nA_W.dot(p.nA_W) > opt.normalGroupCosine; });
    if (it == groups.end()) groups.push_back({p});
    else it->push_back(p);
  }
  std::vector<ContactPoint> out;
  const double spacing2 = opt.minPointSpacing_mm * opt.minPointSpacing_mm;
  for (auto& g : groups) {
    std::vector<ContactPoint> spread;
    for (const auto& p : g)
      if (std::none_of(spread.begin(), spread.end(),
                       [&](const ContactPoint& q) { return (q.p_WCa_mm - p.p_WCa_mm).squaredNorm() < spacing2; }))
        spread.push_back(p);
    if (spread.size() <= 2) {
      out.insert(out.end(), spread.begin(), spread.end());
      continue;
    }
    // Collinear within tolerance: keep the two extremes.
    const Vec3 p0 = spread.front().p_WCa_mm;
    std::size_t far = 0;
    for (std::size_t i = 1; i < spread.size(); ++i)
      if ((spread[i].p_WCa_mm - p0).squaredNorm() > (spread[far].p_WCa_mm - p0).squaredNorm()) far = i;
    const Vec3 u = (spread[far].p_WCa_mm - p0).normalized();
    const bool collinear = std::all_of(spread.begin(), spread.end(), [&](const ContactPoint& c) {
      return (c.p_WCa_mm - p0).cross(u).norm() < opt.collinearTolerance_mm;
    });
    if (collinear) {
      auto [lo, hi] = std::minmax_element(spread.begin(), spread.end(), [&](const ContactPoint& x, const ContactPoint& y) {
        return (x.p_WCa_mm - p0).dot(u) < (y.p_WCa_mm - p0).dot(u);
      });
      out.push_back(*lo);
      out.push_back(*hi);
      continue;
    }
    // Project into the plane across the group normal and keep the hull vertices.
    const Vec3 n = spread.front().nA_W;
    Vec3 e1 = n.unitOrthogonal();
    const Vec3 e2 = n.cross(e1);
    std::vector<Vec2> flat;
    for (const auto& c : spread) flat.emplace_back((c.p_WCa_mm - p0).dot(e1), (c.p_WCa_mm - p0).dot(e2));
    for (std::size_t i : convexHull2d(flat)) out.push_back(spread[i]);
  }
  return out;
}

void fixContactNormals(std::vector<ContactPoint>& points) {
  for (auto& c : points) {
    const Vec3 d = c.p_WCb_mm - c.p_WCa_mm;
    if (d.squaredNorm() <= 1e-18) continue;  // coincident points: the normals came from the faces (add)
    if (d.dot(c.nA_W) > 0) c.nA_W = -c.nA_W;
    if (d.dot(c.nB_W) < 0) c.nB_W = -c.nB_W;
  }
}

}  // namespace sg
