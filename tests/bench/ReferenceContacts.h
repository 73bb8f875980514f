#pragma once
// The reference for "contact points within a threshold" (FCL has no such query): every (A, B) triangle pair
// whose world boxes are within the threshold, enumerated without a hierarchy, each pair tested for intersection and
// then given the vertex–face and edge–edge points of src/geometry/README.md §Contact points steps 1–3. What it
// checks in SoftGrasp's meshContacts is the pruning (node culls, the per-pair and per-feature culls) and the
// working frame: the raw points (MeshContacts::rawPoints) must be the same set. The per-pair rules use the same
// closest-point primitives (geometry/TriangleTriangle.h), so a bug in those is not what this catches.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/Transform.h"
#include "geometry/ProximityContacts.h"
#include "geometry/TriangleMesh.h"
#include "geometry/TriangleTriangle.h"

namespace sg::bench {

struct WorldTriangles {
  std::vector<TrianglePoints> triangles;
  std::vector<Vec3> lo, hi;  // axis-aligned boxes, world
  Vec3 allLo = Vec3::Zero(), allHi = Vec3::Zero();
};

inline WorldTriangles worldTriangles(const TriangleMesh& mesh, const Transform& X_WM) {
  WorldTriangles w;
  w.allLo = Vec3::Constant(std::numeric_limits<double>::infinity());
  w.allHi = -w.allLo;
  for (const auto& t : mesh.triangles) {
    const TrianglePoints p{X_WM * mesh.vertices[t[0]], X_WM * mesh.vertices[t[1]], X_WM * mesh.vertices[t[2]]};
    w.triangles.push_back(p);
    w.lo.push_back(p[0].cwiseMin(p[1]).cwiseMin(p[2]));
    w.hi.push_back(p[0].cwiseMax(p[1]).cwiseMax(p[2]));
    w.allLo = w.allLo.cwiseMin(w.lo.back());
    w.allHi = w.allHi.cwiseMax(w.hi.back());
  }
  return w;
}

// Boxes farther apart than `gap` along some axis (a lower bound on the distance of anything inside them).
inline bool boxesFartherThan(const Vec3& loA, const Vec3& hiA, const Vec3& loB, const Vec3& hiB, double gap) {
  return ((loB - hiA).array() > gap).any() || ((loA - hiB).array() > gap).any();
}

struct ReferenceContactResult {
  bool colliding = false;
  std::vector<ContactPoint> raw;  // world; p_WCa on A, p_WCb on B; normals not set
};

// Steps 2–3 of §Contact points for one non-intersecting pair, in the world frame.
inline void referencePairPoints(const TrianglePoints& ta, const TrianglePoints& tb, double threshold,
                                std::vector<ContactPoint>& out) {
  const double thr2 = threshold * threshold;
  auto add = [&](const Vec3& pa, const Vec3& pb, double d2, bool edgeEdge) {
    ContactPoint c;
    c.p_WCa_mm = pa;
    c.p_WCb_mm = pb;
    c.distance_mm = std::sqrt(d2);
    c.edgeEdge = edgeEdge;
    out.push_back(c);
  };
  for (int k = 0; k < 3; ++k) {  // vertices of B against A's triangle
    const auto r = closestPointOnTriangle(tb[k], ta[0], ta[1], ta[2]);
    if (r.distanceSquared < thr2) add(r.point, tb[k], r.distanceSquared, false);
  }
  for (int k = 0; k < 3; ++k) {  // vertices of A against B's triangle, unless the closest point is a vertex of B
    const auto r = closestPointOnTriangle(ta[k], tb[0], tb[1], tb[2]);
    if (!isVertexFeature(r.feature) && r.distanceSquared < thr2) add(ta[k], r.point, r.distanceSquared, false);
  }
  const double eps = 1e-9;  // edge–edge: closest points interior to both edges
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const auto s = closestSegmentSegment(ta[k], ta[(k + 1) % 3], tb[l], tb[(l + 1) % 3]);
      if (s.distanceSquared < thr2 && s.s > eps && s.s < 1 - eps && s.t > eps && s.t < 1 - eps)
        add(s.pointOnFirst, s.pointOnSecond, s.distanceSquared, true);
    }
}

// Every pair of A's triangles (placed by X_WA) and B's (already in the world) within the threshold. B's boxes are
// first filtered by A's overall box (a linear scan, no tree).
inline ReferenceContactResult referenceContacts(const TriangleMesh& a, const Transform& X_WA, const WorldTriangles& b,
                                                double threshold) {
  ReferenceContactResult result;
  const WorldTriangles wa = worldTriangles(a, X_WA);
  std::vector<std::size_t> near;
  for (std::size_t j = 0; j < b.triangles.size(); ++j)
    if (!boxesFartherThan(wa.allLo, wa.allHi, b.lo[j], b.hi[j], threshold)) near.push_back(j);
  for (std::size_t i = 0; i < wa.triangles.size(); ++i)
    for (std::size_t j : near) {
      if (boxesFartherThan(wa.lo[i], wa.hi[i], b.lo[j], b.hi[j], threshold)) continue;
      if (trianglesIntersect(wa.triangles[i], b.triangles[j])) {
        result.colliding = true;
        result.raw.clear();
        return result;
      }
      referencePairPoints(wa.triangles[i], b.triangles[j], threshold, result.raw);
    }
  return result;
}

// How two raw contact sets compare: points matched one to one (both surface points within `tolerance_mm`), and
// the rest, split into ties (a point at the threshold to within `tolerance_mm`, or the same two surface points
// reported through another feature — the same geometry whichever side of a rounding tie a computation falls)
// and true mismatches.
struct ContactSetComparison {
  std::size_t matched = 0, ties = 0, mismatched = 0;
};

inline ContactSetComparison compareContactSets(const std::vector<ContactPoint>& x, const std::vector<ContactPoint>& y,
                                               double threshold, double tolerance_mm) {
  auto same = [&](const ContactPoint& p, const ContactPoint& q, double tol) {
    return (p.p_WCa_mm - q.p_WCa_mm).cwiseAbs().maxCoeff() <= tol &&
           (p.p_WCb_mm - q.p_WCb_mm).cwiseAbs().maxCoeff() <= tol;
  };
  std::vector<bool> usedY(y.size(), false), matchedX(x.size(), false);
  ContactSetComparison c;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < y.size(); ++j)
      if (!usedY[j] && x[i].edgeEdge == y[j].edgeEdge && same(x[i], y[j], tolerance_mm)) {
        usedY[j] = matchedX[i] = true;
        ++c.matched;
        break;
      }
  auto classify = [&](const ContactPoint& p, const std::vector<ContactPoint>& other) {
    const bool atThreshold = std::abs(p.distance_mm - threshold) <= tolerance_mm;
    const bool sameGeometry =
        std::any_of(other.begin(), other.end(), [&](const ContactPoint& q) { return same(p, q, 1e3 * tolerance_mm); });
    (atThreshold || sameGeometry ? c.ties : c.mismatched) += 1;
  };
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!matchedX[i]) classify(x[i], y);
  for (std::size_t j = 0; j < y.size(); ++j)
    if (!usedY[j]) classify(y[j], x);
  return c;
}

}  // namespace sg::bench
