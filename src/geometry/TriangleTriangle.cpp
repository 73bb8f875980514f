#include "geometry/TriangleTriangle.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg {

namespace {

double clamp01(double x) { return x < 0 ? 0 : (x > 1 ? 1 : x); }

// Closest point on segment ab to p, with its parameter.
double closestOnSegment(const Vec3& p, const Vec3& a, const Vec3& b, Vec3& out) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double t = len2 > 0 ? clamp01((p - a).dot(ab) / len2) : 0.0;
  out = a + t * ab;
  return t;
}

TriangleFeature edgeFeature(int i) {
  return i == 0 ? TriangleFeature::Edge01 : (i == 1 ? TriangleFeature::Edge12 : TriangleFeature::Edge20);
}
TriangleFeature vertexFeature(int i) {
  return i == 0 ? TriangleFeature::Vertex0 : (i == 1 ? TriangleFeature::Vertex1 : TriangleFeature::Vertex2);
}

// Fallback for zero-area triangles: the best of the three edges.
PointTriangleResult closestOnEdges(const Vec3& p, const Vec3* v) {
  PointTriangleResult best;
  best.distanceSquared = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 3; ++i) {
    Vec3 q;
    const double t = closestOnSegment(p, v[i], v[(i + 1) % 3], q);
    const double d2 = (p - q).squaredNorm();
    if (d2 < best.distanceSquared) {
      best.distanceSquared = d2;
      best.point = q;
      best.feature = t <= 0 ? vertexFeature(i) : (t >= 1 ? vertexFeature((i + 1) % 3) : edgeFeature(i));
    }
  }
  return best;
}

}  // namespace

PointTriangleResult closestPointOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  PointTriangleResult r;
  auto done = [&](const Vec3& q, TriangleFeature f) {
    r.point = q;
    r.feature = f;
    r.distanceSquared = (p - q).squaredNorm();
    return r;
  };
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return done(a, TriangleFeature::Vertex0);
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return done(b, TriangleFeature::Vertex1);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0 && d1 - d3 > 0) return done(a + (d1 / (d1 - d3)) * ab, TriangleFeature::Edge01);
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return done(c, TriangleFeature::Vertex2);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0 && d2 - d6 > 0) return done(a + (d2 / (d2 - d6)) * ac, TriangleFeature::Edge20);
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0 && (d4 - d3) + (d5 - d6) > 0)
    return done(b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b), TriangleFeature::Edge12);
  const double denomSum = va + vb + vc;
  const double scale = ab.squaredNorm() * ac.squaredNorm();
  if (!(denomSum > 1e-14 * scale) || !std::isfinite(denomSum)) {
    const Vec3 v[3] = {a, b, c};
    return closestOnEdges(p, v);
  }
  const double v = vb / denomSum, w = vc / denomSum;
  return done(a + ab * v + ac * w, TriangleFeature::Face);
}

SegmentSegmentResult closestSegmentSegment(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
  SegmentSegmentResult r;
  const Vec3 d1 = q1 - p1, d2 = q2 - p2, rr = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(rr);
  const double eps = 1e-24;
  double s = 0, t = 0;
  if (a <= eps && e <= eps) {
    s = t = 0;
  } else if (a <= eps) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const double c = d1.dot(rr);
    if (e <= eps) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;
      // Parallel (denom ~ 0): any s works; pick 0 and let the clamps below fix t.
      s = denom > 1e-12 * a * e ? clamp01((b * f - c * e) / denom) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  r.s = s;
  r.t = t;
  r.pointOnFirst = p1 + d1 * s;
  r.pointOnSecond = p2 + d2 * t;
  r.distanceSquared = (r.pointOnFirst - r.pointOnSecond).squaredNorm();
  return r;
}

namespace {

// Signed distances (scaled by |n|) of the vertices of `t` to the plane of `ref`, snapped to 0 when tiny.
void planeDistances(const TrianglePoints& ref, const Vec3& n, const TrianglePoints& t, double out[3]) {
  const double scale = n.norm() * std::max({(t[0] - ref[0]).norm(), (t[1] - ref[0]).norm(),
                                            (t[2] - ref[0]).norm(), 1e-300});
  for (int i = 0; i < 3; ++i) {
    out[i] = n.dot(t[i] - ref[0]);
    if (std::abs(out[i]) <= 1e-13 * scale) out[i] = 0;
  }
}

// The interval where triangle t (vertex projections p, plane distances d) crosses the other plane.
bool crossingInterval(const double p[3], const double d[3], double& lo, double& hi) {
  int alone;
  if (d[0] * d[1] > 0) alone = 2;
  else if (d[0] * d[2] > 0) alone = 1;
  else if (d[1] * d[2] > 0 || d[0] != 0) alone = 0;
  else if (d[1] != 0) alone = 1;
  else if (d[2] != 0) alone = 2;
  else return false;  // coplanar
  const int i1 = (alone + 1) % 3, i2 = (alone + 2) % 3;
  auto cross = [&](int a, int b) { return d[a] == d[b] ? p[a] : p[a] + (p[b] - p[a]) * d[a] / (d[a] - d[b]); };
  const double x1 = cross(alone, i1), x2 = cross(alone, i2);
  lo = std::min(x1, x2);
  hi = std::max(x1, x2);
  return true;
}

// 2-D helpers for the coplanar case.
double orient2(const Vec2& a, const Vec2& b, const Vec2& c) {
  return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
}
bool onSegment2(const Vec2& a, const Vec2& b, const Vec2& p) {
  return std::min(a.x(), b.x()) <= p.x() && p.x() <= std::max(a.x(), b.x()) && std::min(a.y(), b.y()) <= p.y() &&
         p.y() <= std::max(a.y(), b.y());
}
bool segmentsIntersect2(const Vec2& a, const Vec2& b, const Vec2& c, const Vec2& d) {
  const double o1 = orient2(a, b, c), o2 = orient2(a, b, d), o3 = orient2(c, d, a), o4 = orient2(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  return (o1 == 0 && onSegment2(a, b, c)) || (o2 == 0 && onSegment2(a, b, d)) || (o3 == 0 && onSegment2(c, d, a)) ||
         (o4 == 0 && onSegment2(c, d, b));
}
bool pointInTriangle2(const Vec2& p, const Vec2* t) {
  const double a = orient2(t[0], t[1], p), b = orient2(t[1], t[2], p), c = orient2(t[2], t[0], p);
  return (a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0);
}

bool coplanarIntersect(const TrianglePoints& t1, const TrianglePoints& t2, const Vec3& n) {
  int drop = 0;
  n.cwiseAbs().maxCoeff(&drop);
  const int i = (drop + 1) % 3, j = (drop + 2) % 3;
  Vec2 a[3], b[3];
  for (int k = 0; k < 3; ++k) {
    a[k] = Vec2(t1[k][i], t1[k][j]);
    b[k] = Vec2(t2[k][i], t2[k][j]);
  }
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l)
      if (segmentsIntersect2(a[k], a[(k + 1) % 3], b[l], b[(l + 1) % 3])) return true;
  return pointInTriangle2(a[0], b) || pointInTriangle2(b[0], a);
}

// Where segment pq crosses triangle t (non-coplanar), if it does.
bool segmentPiercesTriangle(const Vec3& p, const Vec3& q, const TrianglePoints& t, Vec3& hit) {
  const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]);
  const double dp = n.dot(p - t[0]), dq = n.dot(q - t[0]);
  if ((dp > 0 && dq > 0) || (dp < 0 && dq < 0) || dp == dq) return false;
  const Vec3 x = p + (q - p) * (dp / (dp - dq));
  const double a = n.dot((t[1] - t[0]).cross(x - t[0])), b = n.dot((t[2] - t[1]).cross(x - t[1])),
               c = n.dot((t[0] - t[2]).cross(x - t[2]));
  if ((a >= 0 && b >= 0 && c >= 0) || (a <= 0 && b <= 0 && c <= 0)) {
    hit = x;
    return true;
  }
  return false;
}

}  // namespace

bool trianglesIntersect(const TrianglePoints& t1, const TrianglePoints& t2) {
  const Vec3 n2 = (t2[1] - t2[0]).cross(t2[2] - t2[0]);
  const Vec3 n1 = (t1[1] - t1[0]).cross(t1[2] - t1[0]);
  const bool degenerate1 = !(n1.squaredNorm() > 0), degenerate2 = !(n2.squaredNorm() > 0);
  if (degenerate1 || degenerate2) {
    // Zero-area triangles: they meet the other one only where one of their edges does.
    Vec3 hit;
    for (int k = 0; k < 3; ++k) {
      if (degenerate1 && !degenerate2 && segmentPiercesTriangle(t1[k], t1[(k + 1) % 3], t2, hit)) return true;
      if (degenerate2 && !degenerate1 && segmentPiercesTriangle(t2[k], t2[(k + 1) % 3], t1, hit)) return true;
    }
    if (degenerate1 && degenerate2)
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l)
          if (closestSegmentSegment(t1[k], t1[(k + 1) % 3], t2[l], t2[(l + 1) % 3]).distanceSquared == 0) return true;
    return false;
  }
  double d1[3], d2[3];
  planeDistances(t2, n2, t1, d1);
  if ((d1[0] > 0 && d1[1] > 0 && d1[2] > 0) || (d1[0] < 0 && d1[1] < 0 && d1[2] < 0)) return false;
  planeDistances(t1, n1, t2, d2);
  if ((d2[0] > 0 && d2[1] > 0 && d2[2] > 0) || (d2[0] < 0 && d2[1] < 0 && d2[2] < 0)) return false;
  if (d1[0] == 0 && d1[1] == 0 && d1[2] == 0) return coplanarIntersect(t1, t2, n1);
  const Vec3 dir = n1.cross(n2);
  if (!(dir.squaredNorm() > 0)) return coplanarIntersect(t1, t2, n1);
  double p1[3], p2[3];
  for (int k = 0; k < 3; ++k) {
    p1[k] = dir.dot(t1[k]);
    p2[k] = dir.dot(t2[k]);
  }
  double lo1, hi1, lo2, hi2;
  if (!crossingInterval(p1, d1, lo1, hi1) || !crossingInterval(p2, d2, lo2, hi2)) return coplanarIntersect(t1, t2, n1);
  return !(hi1 < lo2 || hi2 < lo1);
}

namespace {

// Gap between the slab (along unit n) holding `own` and the half-space holding `other`: ≤ 0 when the
// slab does not separate them. Exact slab offsets keep the bound valid for a degenerate `own`.
double slabGap(const TrianglePoints& own, const Vec3& n, const TrianglePoints& other) {
  const double o0 = n.dot(own[0]), o1 = n.dot(own[1]), o2 = n.dot(own[2]);
  const double x0 = n.dot(other[0]), x1 = n.dot(other[1]), x2 = n.dot(other[2]);
  const double ownLo = std::min({o0, o1, o2}), ownHi = std::max({o0, o1, o2});
  const double otherLo = std::min({x0, x1, x2}), otherHi = std::max({x0, x1, x2});
  return std::max(otherLo - ownHi, ownLo - otherHi);
}

}  // namespace

double triangleDistanceLowerBound(const TrianglePoints& t1, const Vec3& n1, const TrianglePoints& t2, const Vec3& n2) {
  return std::max({0.0, slabGap(t1, n1, t2), slabGap(t2, n2, t1)});
}

std::array<Vec3, 3> triangleEdgeNormals(const TrianglePoints& t) {
  std::array<Vec3, 3> m{Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
  const Vec3 c = (t[1] - t[0]).cross(t[2] - t[0]);
  const double longest2 = std::max({(t[1] - t[0]).squaredNorm(), (t[2] - t[1]).squaredNorm(), (t[0] - t[2]).squaredNorm()});
  const double twiceArea = c.norm();
  if (!(twiceArea > 1e-6 * longest2)) return m;
  const Vec3 n = c / twiceArea;
  for (int k = 0; k < 3; ++k) m[k] = (t[(k + 1) % 3] - t[k]).cross(n).normalized();
  return m;
}

namespace {

// One triangle's side of the tightened bound from its plane gap g (≥ 0): in quadrature with the largest gap
// outside one of its edges.
double sideBound(const TrianglePoints& own, double g, const std::array<Vec3, 3>& m, const TrianglePoints& other) {
  double lateral = 0;
  for (int k = 0; k < 3; ++k) {
    const double x = std::min({m[k].dot(other[0] - own[k]), m[k].dot(other[1] - own[k]), m[k].dot(other[2] - own[k])});
    lateral = std::max(lateral, x);
  }
  return lateral > 0 ? std::sqrt(g * g + lateral * lateral) : g;
}

}  // namespace

double triangleDistanceLowerBound(const TrianglePoints& t1, const Vec3& n1, const std::array<Vec3, 3>& m1,
                                  const TrianglePoints& t2, const Vec3& n2, const std::array<Vec3, 3>& m2) {
  return std::max(sideBound(t1, std::max(0.0, slabGap(t1, n1, t2)), m1, t2),
                  sideBound(t2, std::max(0.0, slabGap(t2, n2, t1)), m2, t1));
}

bool triangleDistanceExceeds(const TrianglePoints& t1, const Vec3& n1, const std::array<Vec3, 3>& m1,
                             const TrianglePoints& t2, const Vec3& n2, const std::array<Vec3, 3>& m2, double threshold) {
  // √(g² + l²) ≥ g holds in rounded arithmetic too (√fl(g²) = g), so these exits agree with the full bound.
  const double g1 = std::max(0.0, slabGap(t1, n1, t2));
  if (g1 > threshold) return true;
  const double g2 = std::max(0.0, slabGap(t2, n2, t1));
  if (g2 > threshold) return true;
  return sideBound(t1, g1, m1, t2) > threshold || sideBound(t2, g2, m2, t1) > threshold;
}

namespace {

// True when every vertex of `t` lies on the far side of the plane through `p` normal to `v` (v·(x − p) ≤ 0,
// within rounding): then a candidate pair (p on one triangle, p + v on the other) whose connecting vector v
// has both triangles on its own side is the closest pair (the slab between them separates the triangles).
bool behind(const TrianglePoints& t, const Vec3& p, const Vec3& v, double tolerance) {
  return v.dot(t[0] - p) <= tolerance && v.dot(t[1] - p) <= tolerance && v.dot(t[2] - p) <= tolerance;
}

}  // namespace

TriangleDistanceResult triangleDistance(const TrianglePoints& t1, const TrianglePoints& t2) {
  TriangleDistanceResult r;
  // Fast path (as in PQP's TriDist): a vertex–face or edge–edge candidate whose connecting vector separates
  // the triangles is the answer, and disjoint triangles cannot intersect. Most far pairs stop here.
  const double size2 = std::max({(t1[1] - t1[0]).squaredNorm(), (t1[2] - t1[0]).squaredNorm(),
                                 (t2[1] - t2[0]).squaredNorm(), (t2[2] - t2[0]).squaredNorm()});
  auto certified = [&](const Vec3& p1, const Vec3& p2) {
    const Vec3 v = p2 - p1;
    const double v2 = v.squaredNorm();
    if (!(v2 > 1e-20 * size2)) return false;  // touching or too close to tell: take the full path
    const double tolerance = 1e-12 * std::sqrt(v2 * size2);
    if (!behind(t1, p1, v, tolerance) || !behind(t2, p2, -v, tolerance)) return false;
    r.distance = std::sqrt(v2);
    r.pointOnFirst = p1;
    r.pointOnSecond = p2;
    return true;
  };
  // Vertex–face candidates, each triangle's vertices from the one farthest toward the other triangle (along
  // the centroids' offset): a certified vertex is its triangle's extreme toward the other, so the first try
  // usually settles it (callgrind, bench_plan --search on FiveFinger: ~2× fewer closest-point calls).
  const Vec3 toward = (t2[0] + t2[1] + t2[2]) - (t1[0] + t1[1] + t1[2]);
  const auto order = [&toward](const TrianglePoints& t, double sign) {
    const double p0 = sign * toward.dot(t[0]), p1 = sign * toward.dot(t[1]), p2 = sign * toward.dot(t[2]);
    std::array<int, 3> o{0, 1, 2};
    if (p1 > p0) std::swap(o[0], o[1]);
    const double first = std::max(p0, p1), second = std::min(p0, p1);
    if (p2 > second) {
      o[2] = o[1];
      o[1] = 2;
      if (p2 > first) std::swap(o[0], o[1]);
    }
    return o;
  };
  const std::array<int, 3> o1 = order(t1, 1.0), o2 = order(t2, -1.0);
  for (int i = 0; i < 3; ++i) {
    const int k = o1[i], l = o2[i];
    if (certified(t1[k], closestPointOnTriangle(t1[k], t2[0], t2[1], t2[2]).point)) return r;
    if (certified(closestPointOnTriangle(t2[l], t1[0], t1[1], t1[2]).point, t2[l])) return r;
  }
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const auto s = closestSegmentSegment(t1[k], t1[(k + 1) % 3], t2[l], t2[(l + 1) % 3]);
      if (certified(s.pointOnFirst, s.pointOnSecond)) return r;
    }

  // Full path: intersecting, touching or nearly degenerate pairs.
  if (trianglesIntersect(t1, t2)) {
    r.intersecting = true;
    r.distance = 0;
    Vec3 hit;
    for (int k = 0; k < 3; ++k) {
      if (segmentPiercesTriangle(t1[k], t1[(k + 1) % 3], t2, hit) ||
          segmentPiercesTriangle(t2[k], t2[(k + 1) % 3], t1, hit)) {
        r.pointOnFirst = r.pointOnSecond = hit;
        return r;
      }
    }
    // Coplanar overlap: a vertex inside the other triangle or an edge crossing; closest pair is exact enough.
  }
  double best = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      const auto s = closestSegmentSegment(t1[k], t1[(k + 1) % 3], t2[l], t2[(l + 1) % 3]);
      if (s.distanceSquared < best) {
        best = s.distanceSquared;
        r.pointOnFirst = s.pointOnFirst;
        r.pointOnSecond = s.pointOnSecond;
      }
    }
  for (int k = 0; k < 3; ++k) {
    const auto a = closestPointOnTriangle(t1[k], t2[0], t2[1], t2[2]);
    if (a.distanceSquared < best) {
      best = a.distanceSquared;
      r.pointOnFirst = t1[k];
      r.pointOnSecond = a.point;
    }
    const auto b = closestPointOnTriangle(t2[k], t1[0], t1[1], t1[2]);
    if (b.distanceSquared < best) {
      best = b.distanceSquared;
      r.pointOnFirst = b.point;
      r.pointOnSecond = t2[k];
    }
  }
  r.distance = r.intersecting ? 0.0 : std::sqrt(best);
  return r;
}

}  // namespace sg
