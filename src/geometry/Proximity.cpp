#include "geometry/Proximity.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "geometry/MeshTopology.h"
#include "geometry/ProximityTraversal.h"

namespace sg {

using detail::RelativePose;

bool meshesCollide(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB) {
  if (a.empty() || b.empty()) return false;
  detail::PairFrame frame(a, X_WA, b, X_WB);
  bool hit = false;
  detail::traverseNodePairs(
      frame, a, b, [&](std::uint32_t ia, std::uint32_t ib) { return frame.compactGapExceeds(ia, ib, 0); },
      [&](const BvhNode& A, const BvhNode& B) {
        for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j)
          for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i)
            if (trianglesIntersect(frame.triangleA(i), frame.triangleB(j))) return hit = true;
        return false;
      });
  return hit;
}

namespace {

// Branch and bound for the closest triangle pair (README.md §Proximity). The answer is canonical: the pair
// with the smallest computed distance, ties broken by the smaller (A, B) triangle indices, and subtrees
// are pruned only when their lower bound exceeds the best distance by more than the rounding of the bounds
// (`slack`). So the result does not depend on the traversal order nor on the starting bound: a warm start
// (DistanceWarmStart) returns exactly the cold answer. A colliding pair ends the search at once (the
// intersection point found first in the traversal order).
struct DistanceSearch {
  const Bvh& a;
  const Bvh& b;
  detail::PairFrame frame;
  double best;
  double slack;
  bool found = false, colliding = false;
  std::uint32_t bestA = 0, bestB = 0;
  Vec3 pointA = Vec3::Zero(), pointB = Vec3::Zero();  // working frame

  // The meshes' topologies (MeshTopology.h), when the caller has them: then the certificate gathers its
  // candidates from the vertices and climbs hulls for its supports, else it scans triangles and vertices.
  const MeshTopology* topologyA = nullptr;
  const MeshTopology* topologyB = nullptr;

  DistanceSearch(const Bvh& a_, const Transform& X_WA, const Bvh& b_, const Transform& X_WB, double upperBound)
      : a(a_), b(b_), frame(a_, X_WA, b_, X_WB), best(upperBound) {
    const double scale = a.nodes()[0].box.radius + b.nodes()[0].box.radius +
                         (X_WA.translation() - X_WB.translation()).norm() + 1.0;
    slack = 1e-12 * scale;
    certificateMargin = 1e-9 * scale;
  }
  double certificateMargin;  // the slab certificate's allowance for rounding (1000 × slack)
  // A candidate pair that its rectangles rule out costs ~20 instructions; the branch and bound that a failed
  // certificate falls back to visits ~1,000–4,000 node pairs (~100 instructions each) where faces meet faces.
  // So even 16,384 candidate pairs are the cheaper try (with 1024, a fingertip facing the can's flat top, 8 ×
  // 144 candidates, always fell back: README.md §Proximity).
  static constexpr std::size_t kMaxCertificatePairs = 16384;
  static constexpr int kHullIterations = 16;

  // The projections d·v of a mesh's vertices in its body frame, d = u in that frame; returns the offset that
  // makes offset + d·v the projection u·x in the working frame (a mapped mesh's x = R·v + t).
  double projectVertices(const Bvh& mesh, bool mapped, const Vec3& u, std::vector<double>& out) const {
    const Vec3 d = mapped ? Vec3(frame.relative().R.transpose() * u) : u;
    const auto& vertices = mesh.vertices();
    out.resize(vertices.size());
    for (std::size_t k = 0; k < vertices.size(); ++k) out[k] = d.dot(vertices[k]);
    return mapped ? u.dot(frame.relative().t) : 0.0;
  }

  // The largest (or smallest) of the projections.
  static double extremeOf(const std::vector<double>& projections, bool largest) {
    double extreme = largest ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    for (double p : projections) extreme = largest ? std::max(extreme, p) : std::min(extreme, p);
    return extreme;
  }

  // The triangles of `mesh` with a corner at or beyond `cut` along u (projection ≥ cut for A, ≤ cut for B),
  // with the triangle's extreme corner projection; false when there are more than `limit`. With a topology
  // they are gathered from the vertices beyond the cut and the triangles around them, each once (stamps);
  // else every triangle's corners are projected.
  bool collect(const Bvh& mesh, const MeshTopology* topology, bool mapped, const Vec3& u,
               const std::vector<double>& projections, double offset, double cut, bool largest, std::size_t limit,
               std::vector<std::uint32_t>& stamps, std::vector<std::uint32_t>& candidates,
               std::vector<double>& extreme) {
    candidates.clear();
    extreme.clear();
    if (!topology) {
      const Vec3 d = mapped ? Vec3(frame.relative().R.transpose() * u) : u;
      const auto& triangles = mesh.triangles();
      for (std::uint32_t i = 0; i < triangles.size(); ++i) {
        const TrianglePoints& t = triangles[i];
        const double p0 = d.dot(t[0]), p1 = d.dot(t[1]), p2 = d.dot(t[2]);
        const double e = offset + (largest ? std::max(p0, std::max(p1, p2)) : std::min(p0, std::min(p1, p2)));
        if (largest ? e >= cut : e <= cut) {
          if (candidates.size() == limit) return false;
          candidates.push_back(i);
          extreme.push_back(e);
        }
      }
      return true;
    }
    auto& s = frame.scratch();
    if (stamps.size() < mesh.triangles().size()) stamps.resize(mesh.triangles().size(), 0u);
    if (++s.candidateGeneration == 0) {  // wrapped: no stale stamp may equal a new generation
      std::fill(s.candidateStampA.begin(), s.candidateStampA.end(), 0u);
      std::fill(s.candidateStampB.begin(), s.candidateStampB.end(), 0u);
      s.candidateGeneration = 1;
    }
    const std::uint32_t generation = s.candidateGeneration;
    // offset + max(corners) ≥ cut exactly when some corner has offset + p ≥ cut (adding offset is monotone).
    for (std::size_t v = 0; v < projections.size(); ++v) {
      const double p = offset + projections[v];
      if (largest ? !(p >= cut) : !(p <= cut)) continue;
      for (std::uint32_t k = topology->vertexTriangleStart[v]; k < topology->vertexTriangleStart[v + 1]; ++k) {
        const std::uint32_t i = topology->vertexTriangles[k];
        if (stamps[i] == generation) continue;
        stamps[i] = generation;
        if (candidates.size() == limit) return false;
        const auto& c = topology->corners[i];
        const double p0 = projections[c[0]], p1 = projections[c[1]], p2 = projections[c[2]];
        candidates.push_back(i);
        extreme.push_back(offset + (largest ? std::max(p0, std::max(p1, p2)) : std::min(p0, std::min(p1, p2))));
      }
    }
    return true;
  }

  // A vertex of a mesh farthest along u (largest u·x, or smallest), in the working frame: by climbing the
  // convex hull's edges from hull position `climb` (updated), or a scan of all vertices without a hull.
  Vec3 support(const Bvh& mesh, const MeshTopology* topology, bool mapped, const Vec3& u, bool largest,
               std::uint32_t& climb) const {
    const Vec3 d = mapped ? Vec3(frame.relative().R.transpose() * u) : u;
    if (topology && topology->hasHull()) {
      climb = topology->climbSupport(largest ? d : Vec3(-d), climb);
      const Vec3& p = topology->hullPoints[climb];
      return mapped ? frame.relative().apply(p) : p;
    }
    const auto& vertices = mesh.vertices();
    std::size_t arg = 0;
    double extreme = d.dot(vertices[0]);
    for (std::size_t k = 1; k < vertices.size(); ++k) {
      const double p = d.dot(vertices[k]);
      if (largest ? p > extreme : p < extreme) {
        extreme = p;
        arg = k;
      }
    }
    return mapped ? frame.relative().apply(vertices[arg]) : vertices[arg];
  }

  // Approximately the closest point to the origin of the convex hull of B − A (GJK-like, from z, a point of
  // it): the support point w of B − A along −v is added to a simplex of at most three points, whose nearest
  // face to the origin (closestPointOnTriangle) gives the next v and the next simplex; stopped when |v|
  // exceeds the lower bound along v by less than 10⁻⁴|v| + 10⁻³. Only a direction for the certificate, which
  // is sound for any direction.
  Vec3 hullPoint(const Vec3& z) const {
    const bool mapA = frame.mapsA();
    // Hull climbs start at the current best pair's corners (near the supports sought).
    std::uint32_t climbA = topologyA && topologyA->hasHull() ? topologyA->hullStartNear(bestA) : 0;
    std::uint32_t climbB = topologyB && topologyB->hasHull() ? topologyB->hullStartNear(bestB) : 0;
    Vec3 simplex[3] = {z, z, z};
    Vec3 v = z;
    for (int k = 0; k < kHullIterations; ++k) {
      const double vv = v.squaredNorm();
      if (!(vv > 0)) break;
      const Vec3 w = support(b, topologyB, !mapA, v, false, climbB) - support(a, topologyA, mapA, v, true, climbA);
      const double length = std::sqrt(vv);
      if (vv - v.dot(w) <= length * (1e-4 * length + 1e-3)) break;  // |v|·(|v| − lower bound along v)
      // The faces of the tetrahedron (simplex, w): the one nearest the origin (its interior holds the
      // origin only when the hulls overlap; then the current v is kept).
      const Vec3 points[4] = {simplex[0], simplex[1], simplex[2], w};
      // (The old face's nearest point is v itself.)
      static constexpr int kFaces[3][3] = {{0, 1, 3}, {1, 2, 3}, {2, 0, 3}};
      double bestSquared = vv;
      int bestFace = -1;
      for (int f = 0; f < 3; ++f) {
        const auto c = closestPointOnTriangle(Vec3::Zero(), points[kFaces[f][0]], points[kFaces[f][1]], points[kFaces[f][2]]);
        if (c.distanceSquared < bestSquared) {
          bestSquared = c.distanceSquared;
          bestFace = f;
          v = c.point;
        }
      }
      if (bestFace < 0) break;  // no progress
      for (int i = 0; i < 3; ++i) simplex[i] = points[kFaces[bestFace][i]];
    }
    return v;
  }

  // The bounding rectangles, in the plane ⟂ u (axes e1, e2: lo1, hi1, lo2, hi2), of the parts of the
  // candidate triangles that can be within `stop` of the other mesh: for A the part with u·x ≥ hB − stop, for
  // B the part with u·x ≤ hA + stop (`cut`; `keepAbove` says which side), since the other mesh lies entirely
  // beyond its own plane. A triangle touching the extreme plane at one corner then contributes little more than
  // that corner, where its whole bounding rectangle would overlap most of the other side's. The clipped
  // part's corners and edge crossings are rounded, so the rectangle grows by `margin` (and the cut moves out
  // by it); a triangle with no part left gets an empty rectangle (+∞, −∞), which no pair passes.
  void candidateRectangles(const Bvh& mesh, bool mapped, const Vec3& u, const Vec3& e1, const Vec3& e2,
                           bool keepAbove, double cut, double margin, const std::vector<std::uint32_t>& candidates,
                           std::vector<std::array<double, 4>>& out) const {
    const Mat3& R = frame.relative().R;
    const Vec3 d0 = mapped ? Vec3(R.transpose() * u) : u;
    const Vec3 d1 = mapped ? Vec3(R.transpose() * e1) : e1;
    const Vec3 d2 = mapped ? Vec3(R.transpose() * e2) : e2;
    const Vec3& t = frame.relative().t;
    const double o0 = mapped ? u.dot(t) : 0.0, o1 = mapped ? e1.dot(t) : 0.0, o2 = mapped ? e2.dot(t) : 0.0;
    const double side = keepAbove ? 1.0 : -1.0;
    const double level = side * (cut - o0) - margin;  // keep side·(d0·v) ≥ level
    constexpr double kInf = std::numeric_limits<double>::infinity();
    out.resize(candidates.size());
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      const TrianglePoints& tri = mesh.triangles()[candidates[k]];
      double h[3], x[3], y[3];
      for (int c = 0; c < 3; ++c) {
        h[c] = side * d0.dot(tri[c]) - level;  // ≥ 0: kept
        x[c] = d1.dot(tri[c]);
        y[c] = d2.dot(tri[c]);
      }
      double lo1 = kInf, hi1 = -kInf, lo2 = kInf, hi2 = -kInf;
      const auto include = [&](double px, double py) {
        lo1 = std::min(lo1, px);
        hi1 = std::max(hi1, px);
        lo2 = std::min(lo2, py);
        hi2 = std::max(hi2, py);
      };
      for (int c = 0; c < 3; ++c) {
        const int n = c == 2 ? 0 : c + 1;
        if (h[c] >= 0) include(x[c], y[c]);
        if ((h[c] >= 0) != (h[n] >= 0)) {  // the edge crosses the cut (h[c] ≠ h[n])
          const double s = h[c] / (h[c] - h[n]);
          include(x[c] + s * (x[n] - x[c]), y[c] + s * (y[n] - y[c]));
        }
      }
      if (lo1 > hi1) {
        out[k] = {kInf, -kInf, kInf, -kInf};
        continue;
      }
      out[k] = {o1 + lo1 - margin, o1 + hi1 + margin, o2 + lo2 - margin, o2 + hi2 + margin};
    }
  }

  // Evaluates every pair of candidate triangles that is not in the band `done` (corner projections within
  // `done` of both planes: evaluated by the previous stage) and whose lower bound
  // √(gap along u² + gap of the rectangles ⟂ u²) does not rule it out; false when one intersects. No
  // triangleDistanceLowerBound first, as the search's leaves have: four in five candidate pairs pass it, so it
  // cost more than the exact distances it saved (callgrind, bench_plan --search on FiveFinger). A pair it
  // would rule out is farther than the best pair, so evaluating it changes nothing. (Evaluating the pairs
  // nearest bound first was tried too: 8 % fewer exact distances, no fewer instructions.)
  bool considerCandidates(double hA, double hB, double done) {
    auto& s = frame.scratch();
    for (std::size_t jj = 0; jj < s.candidatesB.size(); ++jj) {
      const bool doneB = s.extremeB[jj] <= hB + done;
      const auto& rb = s.rectanglesB[jj];
      for (std::size_t ii = 0; ii < s.candidatesA.size(); ++ii) {
        if (doneB && s.extremeA[ii] >= hA - done) continue;
        const auto& ra = s.rectanglesA[ii];
        const double gu = std::max(0.0, s.extremeB[jj] - s.extremeA[ii]);
        const double g1 = std::max(0.0, std::max(ra[0] - rb[1], rb[0] - ra[1]));
        const double g2 = std::max(0.0, std::max(ra[2] - rb[3], rb[2] - ra[3]));
        const double stop = best + certificateMargin;
        if (gu * gu + g1 * g1 + g2 * g2 > stop * stop) continue;
        if (!consider(s.candidatesA[ii], s.candidatesB[jj], false)) return false;
      }
    }
    return true;
  }

  // The slab certificate (README.md §Proximity). For a unit direction u, A lies in u·x ≤ hA and B in
  // u·x ≥ hB (vertex projections). A triangle of A whose corners all project below hA − τ is at least
  // g + τ (g = hB − hA) from every point of B, and likewise a triangle of B above hB + τ from A. So once
  // the pairs of the remaining "candidate" triangles are evaluated (as run() evaluates leaves) and the best
  // distance is below g + τ by the rounding margin, no other pair can be the canonical answer or tie with it:
  // the result is exactly run()'s. u: toward the hulls' closest points (hullPoint, from the best pair so
  // far); τ first just above the hull distance's slack (right for convex meshes), then, if the best pair is
  // farther (a concave region, an unfinished iteration), best − g. False (nothing settled, the best pair may
  // have improved) when the candidates are too many or a candidate pair intersects (`colliding`).
  bool certify() {
    if (!found || colliding || !(best > 0)) return false;
    const Vec3 z = hullPoint(pointB - pointA);
    const double zLength = z.norm();
    if (!(zLength > 0)) return false;
    const Vec3 u = z / zLength;
    auto& s = frame.scratch();
    const bool mapA = frame.mapsA();
    const double offsetA = projectVertices(a, mapA, u, s.projectionsA);
    const double offsetB = projectVertices(b, !mapA, u, s.projectionsB);
    const double hA = offsetA + extremeOf(s.projectionsA, true);
    const double hB = offsetB + extremeOf(s.projectionsB, false);
    const double g = hB - hA;
    if (!(g > 0)) return false;
    const Vec3 e1 = u.unitOrthogonal(), e2 = u.cross(e1);
    double done = -1;  // the band of corner projections whose pairs are evaluated (none yet)
    for (int stage = 0; stage < 2; ++stage) {
      const double tau = (stage == 0 ? std::max(0.0, zLength - g) + 1e-6 * zLength : best - g) + 2 * certificateMargin;
      if (!collect(a, topologyA, mapA, u, s.projectionsA, offsetA, hA - tau, true, kMaxCertificatePairs,
                   s.candidateStampA, s.candidatesA, s.extremeA) ||
          !collect(b, topologyB, !mapA, u, s.projectionsB, offsetB, hB + tau, false, kMaxCertificatePairs,
                   s.candidateStampB, s.candidatesB, s.extremeB) ||
          s.candidatesA.size() * s.candidatesB.size() > kMaxCertificatePairs)
        return false;
      // Only the parts of the candidates within `stop` of the other side's plane can hold a pair within
      // `stop` (best only falls while the candidates are evaluated).
      const double stop = best + certificateMargin;
      candidateRectangles(a, mapA, u, e1, e2, true, hB - stop, certificateMargin, s.candidatesA, s.rectanglesA);
      candidateRectangles(b, !mapA, u, e1, e2, false, hA + stop, certificateMargin, s.candidatesB, s.rectanglesB);
      if (!considerCandidates(hA, hB, done)) return false;
      if (best <= g + tau - certificateMargin) return true;
      done = tau;
    }
    return false;
  }

  // Evaluates triangle pair (i, j); false once a colliding pair ends the search.
  bool consider(std::uint32_t i, std::uint32_t j, bool useLowerBound) {
    const TrianglePoints& ta = frame.triangleA(i);
    const TrianglePoints& tb = frame.triangleB(j);
    if (useLowerBound && frame.triangleBeyond(i, j, best + slack)) return true;
    const auto d = triangleDistance(ta, tb);
    const bool better = !found ? d.distance <= best
                               : (d.distance < best || (d.distance == best && (i < bestA || (i == bestA && j < bestB))));
    if (better || d.intersecting) {
      best = d.distance;
      bestA = i;
      bestB = j;
      pointA = d.pointOnFirst;
      pointB = d.pointOnSecond;
      found = true;
      if (d.intersecting) {
        colliding = true;
        best = 0;
        return false;
      }
    }
    return true;
  }

  // On the compact nodes (CompactBox.h): float boxes, face axes only, less the rounding margin. Depth first,
  // the nearer child pair next: it is taken at once rather than pushed and popped (the same order).
  void run() {
    auto& stack = frame.scratch().distanceStack;
    stack.clear();
    const double root = std::max(0.0, frame.compactGap(0, 0));
    if (root > best + slack) return;
    detail::MappingScratch::DistanceItem item{0, 0, root};
    for (;;) {
      const CompactNode& A = frame.compactA(item.a);
      const CompactNode& B = frame.compactB(item.b);
      bool descend = false;
      if (A.isLeaf() && B.isLeaf()) {
        const std::uint32_t firstA = A.firstTriangle(), firstB = B.firstTriangle();
        for (std::uint32_t j = firstB; j < firstB + B.count; ++j)
          for (std::uint32_t i = firstA; i < firstA + A.count; ++i)
            if (!consider(i, j, true)) return;
      } else {
        // Split the inner node with the larger bounding sphere (splitFirstByRadius).
        detail::MappingScratch::DistanceItem c1, c2;
        if (!A.isLeaf() && (B.isLeaf() || A.radius >= B.radius)) {
          c1 = {static_cast<std::uint32_t>(A.child), item.b, 0};
          c2 = {static_cast<std::uint32_t>(A.child + 1), item.b, 0};
        } else {
          c1 = {item.a, static_cast<std::uint32_t>(B.child), 0};
          c2 = {item.a, static_cast<std::uint32_t>(B.child + 1), 0};
        }
        const double stop = best + slack;
        // A child pair's triangles are among its parent pair's, so the parent's bound holds for it too.
        c1.lowerBound = std::max(item.lowerBound, frame.compactGap(c1.a, c1.b));
        c2.lowerBound = std::max(item.lowerBound, frame.compactGap(c2.a, c2.b));
        if (c1.lowerBound < c2.lowerBound) std::swap(c1, c2);  // c2: the nearer pair, visited next
        if (c1.lowerBound <= stop) stack.push_back(c1);
        if (c2.lowerBound <= stop) {
          item = c2;
          descend = true;
        }
      }
      if (descend) continue;
      do {  // the next pending pair still within reach of the best distance
        if (stack.empty()) return;
        item = stack.back();
        stack.pop_back();
      } while (item.lowerBound > best + slack);
    }
  }

  MeshDistance result() const {
    MeshDistance r;
    if (!found) return r;
    r.colliding = colliding;
    r.distance_mm = colliding ? 0.0 : best;
    r.triangleA = a.sourceIndex()[bestA];
    r.triangleB = b.sourceIndex()[bestB];
    r.p_WCa_mm = frame.frameToWorld() * pointA;
    r.p_WCb_mm = frame.frameToWorld() * pointB;
    return r;
  }
};

}  // namespace

MeshDistance meshDistance(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                          double upperBound) {
  if (a.empty() || b.empty()) return {};
  DistanceSearch search(a, X_WA, b, X_WB, upperBound);
  search.run();
  return search.result();
}

namespace {

MeshDistance warmDistance(const Bvh& a, const MeshTopology* topologyA, const Transform& X_WA, const Bvh& b,
                          const MeshTopology* topologyB, const Transform& X_WB, DistanceWarmStart& warm,
                          double upperBound) {
  if (a.empty() || b.empty()) return {};
  const bool usable = warm.valid && warm.a == &a && warm.b == &b && warm.triangleA < a.triangles().size() &&
                      warm.triangleB < b.triangles().size();
  MeshDistance r;
  {
    DistanceSearch search(a, X_WA, b, X_WB, upperBound);
    search.topologyA = topologyA;
    search.topologyB = topologyB;
    // The last closest pair at the new poses: its distance is the starting bound. A colliding start would
    // end the search at that pair, not at the cold search's first intersection: then search cold.
    if (!usable || search.consider(warm.triangleA, warm.triangleB, false)) {
      // Usually the slab certificate settles the answer; else branch and bound from the best bound found.
      if (!usable || !search.certify()) {
        if (!search.colliding) search.run();
      }
      if (!search.colliding) {
        r = search.result();
        warm.a = &a;
        warm.b = &b;
        warm.valid = search.found;
        warm.triangleA = search.bestA;
        warm.triangleB = search.bestB;
        return r;
      }
      if (!usable) {
        warm.valid = false;
        return search.result();
      }
    }
  }
  // Colliding after a warm start: the cold search gives the canonical intersection point.
  warm.valid = false;
  return meshDistance(a, X_WA, b, X_WB, upperBound);
}

}  // namespace

MeshDistance meshDistance(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                          DistanceWarmStart& warm, double upperBound) {
  return warmDistance(a, nullptr, X_WA, b, nullptr, X_WB, warm, upperBound);
}

MeshDistance meshDistance(const Bvh& a, const MeshTopology& topologyA, const Transform& X_WA, const Bvh& b,
                          const MeshTopology& topologyB, const Transform& X_WB, DistanceWarmStart& warm,
                          double upperBound) {
  // A topology of other meshes would index out of range: such a pair takes the plain path.
  const bool fits = topologyA.corners.size() == a.triangles().size() && topologyB.corners.size() == b.triangles().size() &&
                    topologyA.vertexTriangleStart.size() == a.vertices().size() + 1 &&
                    topologyB.vertexTriangleStart.size() == b.vertices().size() + 1;
  return warmDistance(a, fits ? &topologyA : nullptr, X_WA, b, fits ? &topologyB : nullptr, X_WB, warm, upperBound);
}

namespace {

double pointBoxDistance(const BvhBox& box, const Vec3& p) {
  const Vec3 q = box.axes.transpose() * (p - box.center);
  return (q.cwiseAbs() - box.halfExtents).cwiseMax(0.0).norm();
}

// Number of triangles a ray (origin o, direction d, body frame) crosses at t > 0.
// `stack`: the caller's scratch (one allocation for many rays).
int rayCrossings(const Bvh& mesh, const Vec3& o, const Vec3& d, std::vector<std::uint32_t>& stack) {
  int hits = 0;
  stack.assign(1, 0);
  while (!stack.empty()) {
    const BvhNode& n = mesh.nodes()[stack.back()];
    stack.pop_back();
    // Slab test in the box frame.
    const Vec3 lo = n.box.axes.transpose() * (o - n.box.center);
    const Vec3 ld = n.box.axes.transpose() * d;
    double tmin = 0, tmax = std::numeric_limits<double>::infinity();
    bool miss = false;
    for (int k = 0; k < 3 && !miss; ++k) {
      if (std::abs(ld[k]) < 1e-300) {
        if (std::abs(lo[k]) > n.box.halfExtents[k]) miss = true;
        continue;
      }
      double t1 = (-n.box.halfExtents[k] - lo[k]) / ld[k], t2 = (n.box.halfExtents[k] - lo[k]) / ld[k];
      if (t1 > t2) std::swap(t1, t2);
      tmin = std::max(tmin, t1);
      tmax = std::min(tmax, t2);
      if (tmin > tmax) miss = true;
    }
    if (miss) continue;
    if (!n.isLeaf()) {
      stack.push_back(n.firstChild);
      stack.push_back(n.firstChild + 1);
      continue;
    }
    for (std::uint32_t i = n.firstTriangle; i < n.firstTriangle + n.triangleCount; ++i) {
      // Möller–Trumbore.
      const auto& t = mesh.triangles()[i];
      const Vec3 e1 = t[1] - t[0], e2 = t[2] - t[0];
      const Vec3 pv = d.cross(e2);
      const double det = e1.dot(pv);
      if (std::abs(det) < 1e-300) continue;
      const Vec3 tv = o - t[0];
      const double u = tv.dot(pv) / det;
      if (u < 0 || u > 1) continue;
      const Vec3 qv = tv.cross(e1);
      const double v = d.dot(qv) / det;
      if (v < 0 || u + v > 1) continue;
      if (e2.dot(qv) / det > 0) ++hits;
    }
  }
  return hits;
}

}  // namespace

MeshClosestPoint closestPointOnMesh(const Bvh& mesh, const Transform& X_WM, const Vec3& p_WQ_mm) {
  MeshClosestPoint result;
  if (mesh.empty()) return result;
  const Vec3 p = X_WM.inverse() * p_WQ_mm;
  double best = std::numeric_limits<double>::infinity();
  struct Item {
    std::uint32_t node;
    double lowerBound;
  };
  std::vector<Item> stack{{0, pointBoxDistance(mesh.nodes()[0].box, p)}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (item.lowerBound >= best) continue;
    const BvhNode& n = mesh.nodes()[item.node];
    if (n.isLeaf()) {
      for (std::uint32_t i = n.firstTriangle; i < n.firstTriangle + n.triangleCount; ++i) {
        const auto& t = mesh.triangles()[i];
        const auto c = closestPointOnTriangle(p, t[0], t[1], t[2]);
        if (c.distanceSquared < best * best) {
          best = std::sqrt(c.distanceSquared);
          result.point_mm = X_WM * c.point;
          result.triangle = mesh.sourceIndex()[i];
        }
      }
      continue;
    }
    Item c1{static_cast<std::uint32_t>(n.firstChild), pointBoxDistance(mesh.nodes()[n.firstChild].box, p)};
    Item c2{static_cast<std::uint32_t>(n.firstChild + 1), pointBoxDistance(mesh.nodes()[n.firstChild + 1].box, p)};
    if (c1.lowerBound < c2.lowerBound) std::swap(c1, c2);
    stack.push_back(c1);
    stack.push_back(c2);
  }
  result.distance_mm = best;
  return result;
}

namespace {
// pointInsideMesh in the mesh's frame, `stack` the rays' scratch.
bool pointInsideLocal(const Bvh& mesh, const Vec3& p, std::vector<std::uint32_t>& stack) {
  if (!mesh.bounds().empty() && ((p.array() < mesh.bounds().min.array()).any() ||
                                 (p.array() > mesh.bounds().max.array()).any()))
    return false;
  // Irrational-looking directions make hitting an edge or vertex exactly unlikely; vote over three. The third
  // ray decides only when the first two disagree (the same majority, most points cost two rays).
  static const Vec3 dirs[3] = {Vec3(0.5773502, 0.5773503, 0.5773501).normalized(),
                               Vec3(-0.3141593, 0.8660254, -0.2718282).normalized(),
                               Vec3(0.7071068, -0.4142136, -0.5772157).normalized()};
  const bool first = rayCrossings(mesh, p, dirs[0], stack) % 2 != 0;
  const bool second = rayCrossings(mesh, p, dirs[1], stack) % 2 != 0;
  if (first == second) return first;
  return rayCrossings(mesh, p, dirs[2], stack) % 2 != 0;
}
}  // namespace

bool pointInsideMesh(const Bvh& mesh, const Transform& X_WM, const Vec3& p_WQ_mm) {
  if (mesh.empty()) return false;
  std::vector<std::uint32_t> stack;
  return pointInsideLocal(mesh, X_WM.inverse() * p_WQ_mm, stack);
}

namespace {

// Triangles closer than this to the other mesh (by their BVH leaves' certified gap) may have an edge crossing
// its surface; any other edge joins two vertices on the same side of it (README.md §Penetration estimate).
constexpr double kNearGap_mm = 1e-6;

// Scratch of one estimate, reused by the thread's next one (no allocation per update once warm).
struct PenetrationScratch {
  std::vector<std::uint8_t> nearA, nearB;  // per source triangle: within kNearGap_mm of the other mesh
  std::vector<std::uint32_t> parent;       // union–find over the inner mesh's vertices
  std::vector<std::int8_t> side;           // per component root: −1 not known yet, 0 outside, 1 inside
  std::vector<std::uint8_t> inBox;         // per inner vertex: inside the outer mesh's box
  std::vector<std::uint32_t> stack;        // the rays' scratch
};
thread_local PenetrationScratch penetrationScratch;

// Marks the source triangles of `a` and `b` whose BVH leaves come within kNearGap_mm of a leaf of the other.
void markNearTriangles(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                       std::vector<std::uint8_t>& nearA, std::vector<std::uint8_t>& nearB) {
  nearA.assign(a.sourceTriangles().size(), 0);
  nearB.assign(b.sourceTriangles().size(), 0);
  detail::PairFrame frame(a, X_WA, b, X_WB);
  detail::traverseNodePairs(
      frame, a, b, [&](std::uint32_t ia, std::uint32_t ib) { return frame.compactGapExceeds(ia, ib, kNearGap_mm); },
      [&](const BvhNode& A, const BvhNode& B) {
        for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i) nearA[a.sourceIndex()[i]] = 1;
        for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j) nearB[b.sourceIndex()[j]] = 1;
        return false;
      });
}

std::uint32_t findRoot(std::vector<std::uint32_t>& parent, std::uint32_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

// Deepest vertex of `inner` inside `outer`, measured to outer's surface (world frame). `near`: inner's source
// triangles that may cross outer's surface (markNearTriangles). The vertices joined by the edges of the other
// triangles form components on one side of outer's surface each: a component with a vertex outside outer's
// box is outside, any other takes the ray vote (pointInsideMesh's) of its first vertex in the box.
void deepestVertex(const Bvh& inner, const Transform& innerPose, const Bvh& outer, const Transform& outerPose,
                   const std::vector<std::uint8_t>& near, PenetrationScratch& s, double& depth, Vec3& innerPoint,
                   Vec3& outerPoint) {
  if (outer.empty()) return;
  const Transform outerInverse = outerPose.inverse();
  const Transform toOuter = outerInverse * innerPose;
  const AlignedBox& box = outer.bounds();
  const std::vector<Vec3>& vertices = inner.vertices();
  const auto n = static_cast<std::uint32_t>(vertices.size());
  s.parent.resize(n);
  s.side.resize(n);
  s.inBox.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    const Vec3 q = toOuter * vertices[v];
    s.parent[v] = v;
    s.inBox[v] = !((q.array() < box.min.array()).any() || (q.array() > box.max.array()).any());
    s.side[v] = s.inBox[v] ? -1 : 0;  // a vertex outside the box is outside
  }
  const auto& triangles = inner.sourceTriangles();
  const auto unite = [&](std::uint32_t x, std::uint32_t y) {
    if (x >= n || y >= n) return;
    x = findRoot(s.parent, x);
    y = findRoot(s.parent, y);
    if (x == y) return;
    if (y < x) std::swap(x, y);
    s.parent[y] = x;
    if (s.side[y] == 0) s.side[x] = 0;  // no vote yet: a component with a vertex outside the box is outside
  };
  // Only the components of vertices in the box matter: the edges of their far triangles.
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!s.inBox[v]) continue;  // its triangles that matter have a corner in the box, which visits them
    const auto [first, last] = inner.trianglesAtVertex(v);
    for (const std::uint32_t* t = first; t != last; ++t) {
      if (*t >= triangles.size() || near[*t]) continue;
      const auto& c = triangles[*t];
      unite(c[0], c[1]);
      unite(c[1], c[2]);
    }
  }
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!s.inBox[v]) continue;
    const std::uint32_t root = findRoot(s.parent, v);
    const Vec3 w = innerPose * vertices[v];
    // The inside test of pointInsideMesh with the inverse pose computed once: the same point, bit for bit.
    if (s.side[root] < 0) s.side[root] = pointInsideLocal(outer, outerInverse * w, s.stack) ? 1 : 0;
    if (s.side[root] == 0) continue;
    const auto c = closestPointOnMesh(outer, outerPose, w);
    if (c.distance_mm > depth) {
      depth = c.distance_mm;
      innerPoint = w;
      outerPoint = c.point_mm;
    }
  }
}
}  // namespace

PenetrationEstimate estimatePenetration(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB) {
  PenetrationEstimate e;
  PenetrationScratch& s = penetrationScratch;
  if (!a.empty() && !b.empty()) {
    markNearTriangles(a, X_WA, b, X_WB, s.nearA, s.nearB);
  } else {
    s.nearA.assign(a.sourceTriangles().size(), 1);
    s.nearB.assign(b.sourceTriangles().size(), 1);
  }
  double depthA = 0, depthB = 0;
  Vec3 aIn, bSurf, bIn, aSurf;
  deepestVertex(a, X_WA, b, X_WB, s.nearA, s, depthA, aIn, bSurf);  // vertices of A inside B
  deepestVertex(b, X_WB, a, X_WA, s.nearB, s, depthB, bIn, aSurf);  // vertices of B inside A
  if (depthA <= 0 && depthB <= 0) return e;
  if (depthA >= depthB) {
    e.depth_mm = depthA;
    e.p_WCa_mm = aIn;
    e.p_WCb_mm = bSurf;
    e.nA_W = (bSurf - aIn).normalized();  // moving A's vertex to B's surface separates them
  } else {
    e.depth_mm = depthB;
    e.p_WCa_mm = aSurf;
    e.p_WCb_mm = bIn;
    e.nA_W = (bIn - aSurf).normalized();
  }
  return e;
}

SeparationResult signedSeparation(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB,
                                  IntersectionWitness* witness) {
  SeparationResult r;
  const auto fromEstimate = [&](const PenetrationEstimate& p) {
    r.separation_mm = -p.depth_mm;
    if (p.depth_mm > 0) {
      r.p_WCa_mm = p.p_WCa_mm;
      r.p_WCb_mm = p.p_WCb_mm;
      r.nA_W = p.nA_W;
    }
    r.nB_W = -r.nA_W;
  };
  std::optional<PenetrationEstimate> estimate;
  if (witness && witness->valid && !a.empty() && !b.empty() && witness->triangleA < a.triangles().size() &&
      witness->triangleB < b.triangles().size()) {
    // The distance search ends as colliding at the first pair triangleDistance calls intersecting, and it reaches
    // every such pair unless it stops earlier at another: it prunes only node and triangle pairs whose certified
    // lower bound exceeds the best distance (≥ 0) plus its slack, and a pair called intersecting is within
    // round-off of touching. So an intersecting witness, tested on the working-frame triangles the search would
    // test, means the search answers colliding. Its points are then replaced by the estimate's when the estimate
    // is positive; else they are needed, and the search runs.
    bool intersects = false;
    {
      detail::PairFrame frame(a, X_WA, b, X_WB);
      intersects = triangleDistance(frame.triangleA(witness->triangleA), frame.triangleB(witness->triangleB)).intersecting;
    }
    if (intersects) {
      estimate = estimatePenetration(a, X_WA, b, X_WB);
      if (estimate->depth_mm > 0) {
        r.colliding = true;
        fromEstimate(*estimate);
        return r;
      }
    }
  }
  MeshDistance d;
  if (!a.empty() && !b.empty()) {
    DistanceSearch search(a, X_WA, b, X_WB, std::numeric_limits<double>::infinity());
    search.run();
    d = search.result();  // meshDistance(a, X_WA, b, X_WB)
    if (witness) *witness = {search.colliding, search.bestA, search.bestB};
  } else if (witness) {
    witness->valid = false;
  }
  if (!d.found()) return r;
  r.p_WCa_mm = d.p_WCa_mm;
  r.p_WCb_mm = d.p_WCb_mm;
  r.colliding = d.colliding;
  if (!d.colliding) {
    r.separation_mm = d.distance_mm;
    const Vec3 diff = d.p_WCa_mm - d.p_WCb_mm;
    if (diff.norm() > 1e-12) r.nA_W = diff.normalized();
    r.nB_W = -r.nA_W;
  } else {
    fromEstimate(estimate ? *estimate : estimatePenetration(a, X_WA, b, X_WB));
  }
  return r;
}

}  // namespace sg
