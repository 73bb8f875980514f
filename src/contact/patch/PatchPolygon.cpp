#include "contact/patch/PatchPolygon.h"

#include <algorithm>
#include <cmath>


namespace sg {

namespace {

double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// ∫ sec³ written in t = tan φ: ½(t·√(1 + t²) + asinh t).
double secCubedIntegral(double t) { return 0.5 * (t * std::sqrt(1 + t * t) + std::asinh(t)); }

// ∫|r| dA over the triangle (0, a, b), signed by its orientation: polar coordinates about the origin, the edge
// a→b at distance h, ρ(φ) = h / cos φ from its foot: ∫ρ³/3 dφ = (h³/3)·[F(tan φ)].
double triangleFirstMoment(const Vec2& a, const Vec2& b) {
  const Vec2 edge = b - a;
  const double len = edge.norm();
  if (len <= 0) return 0;
  const double signedTwiceArea = cross2(a, b);
  const double h = std::abs(signedTwiceArea) / len;
  if (h <= 1e-15) return 0;
  const Vec2 e = edge / len;
  const double ta = a.dot(e) / h, tb = b.dot(e) / h;
  const double value = h * h * h / 3.0 * (secCubedIntegral(tb) - secCubedIntegral(ta));
  return signedTwiceArea >= 0 ? value : -value;
}

// ∫|x − c| ds over the segment a→b.
double segmentFirstMoment(const Vec2& a, const Vec2& b, const Vec2& c) {
  const double len = (b - a).norm();
  if (len <= 0) return 0;
  const Vec2 e = (b - a) / len;
  const double h = std::abs(cross2(e, c - a));
  const double ta = (a - c).dot(e), tb = (b - c).dot(e);
  auto F = [h](double t) {
    return h > 1e-15 ? 0.5 * (t * std::hypot(h, t) + h * h * std::asinh(t / h)) : 0.5 * t * std::abs(t);
  };
  return F(tb) - F(ta);
}

// Keeps the part of `subject` (a convex polygon, a segment or a point) left of the directed line p→q.
Polygon2 clipByHalfPlane(const Polygon2& subject, const Vec2& p, const Vec2& q, double tolerance) {
  const Vec2 dir = q - p;
  const double len = dir.norm();
  auto side = [&](const Vec2& x) { return cross2(dir, x - p) / len; };  // signed distance, > 0 left
  Polygon2 out;
  const std::size_t n = subject.size();
  if (n == 1) {
    if (side(subject[0]) >= -tolerance) out.push_back(subject[0]);
    return out;
  }
  const bool closed = n >= 3;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2& a = subject[i];
    const double sa = side(a);
    if (sa >= -tolerance) out.push_back(a);
    if (!closed && i + 1 == n) break;
    const Vec2& b = subject[(i + 1) % n];
    const double sb = side(b);
    if ((sa < -tolerance && sb > tolerance) || (sa > tolerance && sb < -tolerance))
      out.push_back(a + (sa / (sa - sb)) * (b - a));
  }
  return out;
}

Polygon2 dedupe(const Polygon2& points, double tolerance) {
  Polygon2 out;
  for (const Vec2& p : points)
    if (out.empty() || (p - out.back()).norm() > tolerance) out.push_back(p);
  while (out.size() > 1 && (out.front() - out.back()).norm() <= tolerance) out.pop_back();
  return out;
}

}  // namespace

Polygon2 convexHullPolygon(const std::vector<Vec2>& input) {
  // Points snapped to 1e-11 mm and made unique (meshes give many copies of a corner a few ulps apart), then
  // Andrew's monotone chain dropping collinear points.
  std::vector<Vec2> pts;
  pts.reserve(input.size());
  for (const Vec2& p : input) pts.emplace_back(std::round(p.x() * 1e11) * 1e-11, std::round(p.y() * 1e11) * 1e-11);
  std::sort(pts.begin(), pts.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return pts;
  double scale = 0;
  for (const Vec2& p : pts) scale = std::max(scale, p.cwiseAbs().maxCoeff());
  const double eps = 1e-12 * std::max(1.0, scale * scale);
  auto turn = [](const Vec2& o, const Vec2& a, const Vec2& b) { return cross2(a - o, b - o); };
  Polygon2 hull(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && turn(hull[k - 2], hull[k - 1], pts[i]) <= eps) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, lower = k + 1; i-- > 0;) {
    while (k >= lower && turn(hull[k - 2], hull[k - 1], pts[i]) <= eps) --k;
    hull[k++] = pts[i];
  }
  hull.resize(k > 1 ? k - 1 : k);
  return hull;
}

double polygonArea(const Polygon2& polygon) {
  if (polygon.size() < 3) return 0;
  double twice = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i) twice += cross2(polygon[i], polygon[(i + 1) % polygon.size()]);
  return 0.5 * twice;
}

Vec2 polygonCentroid(const Polygon2& polygon) {
  if (polygon.empty()) return Vec2::Zero();
  if (polygon.size() < 3) return 0.5 * (polygon.front() + polygon.back());
  const double area = polygonArea(polygon);
  Vec2 sum = Vec2::Zero();
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Vec2& a = polygon[i];
    const Vec2& b = polygon[(i + 1) % polygon.size()];
    sum += cross2(a, b) * (a + b);
  }
  if (std::abs(area) <= 1e-300) return polygon.front();
  return sum / (6.0 * area);
}

double polygonMeanDistance(const Polygon2& polygon, const Vec2& c) {
  if (polygon.size() < 2) return polygon.empty() ? 0.0 : (polygon[0] - c).norm();
  if (polygon.size() == 2) {
    const double len = (polygon[1] - polygon[0]).norm();
    return len > 0 ? segmentFirstMoment(polygon[0], polygon[1], c) / len : (polygon[0] - c).norm();
  }
  const double area = polygonArea(polygon);
  if (area <= 0) return 0;
  double moment = 0;
  for (std::size_t i = 0; i < polygon.size(); ++i)
    moment += triangleFirstMoment(polygon[i] - c, polygon[(i + 1) % polygon.size()] - c);
  return moment / area;
}

Polygon2 intersectConvex(const Polygon2& a, const Polygon2& b, double tolerance) {
  if (a.empty() || b.empty()) return {};
  if (a.size() < b.size() && a.size() < 3) return intersectConvex(b, a, tolerance);
  // Now b is the smaller set, or both are polygons: clip b by a when a is a polygon.
  if (a.size() >= 3) {
    Polygon2 out = b;
    for (std::size_t i = 0; i < a.size() && !out.empty(); ++i)
      out = dedupe(clipByHalfPlane(out, a[i], a[(i + 1) % a.size()], tolerance), tolerance);
    return out.size() >= 3 ? convexHullPolygon(out) : out;
  }
  // Both are segments or points.
  if (a.size() == 1 || b.size() == 1) {
    const Vec2& p = (b.size() == 1 ? b : a)[0];
    const Polygon2& other = b.size() == 1 ? a : b;
    if (other.size() == 1) return (p - other[0]).norm() <= tolerance ? Polygon2{p} : Polygon2{};
    const Vec2 e = other[1] - other[0];
    const double t = (p - other[0]).dot(e) / e.squaredNorm();
    const double off = std::abs(cross2(e.normalized(), p - other[0]));
    return (off <= tolerance && t >= -1e-12 && t <= 1 + 1e-12) ? Polygon2{p} : Polygon2{};
  }
  const Vec2 da = a[1] - a[0], db = b[1] - b[0];
  const double denom = cross2(da, db);
  const double lineGap = std::abs(cross2(da.normalized(), b[0] - a[0]));
  if (std::abs(denom) <= 1e-12 * da.norm() * db.norm()) {  // parallel
    if (lineGap > tolerance) return {};
    const Vec2 e = da.normalized();
    const double a0 = 0, a1 = da.norm();
    double b0 = (b[0] - a[0]).dot(e), b1 = (b[1] - a[0]).dot(e);
    if (b0 > b1) std::swap(b0, b1);
    const double lo = std::max(a0, b0), hi = std::min(a1, b1);
    if (hi < lo - tolerance) return {};
    if (hi - lo <= tolerance) return {a[0] + 0.5 * (lo + hi) * e};
    return {a[0] + lo * e, a[0] + hi * e};
  }
  const double t = cross2(b[0] - a[0], db) / denom, u = cross2(b[0] - a[0], da) / denom;
  if (t < -1e-12 || t > 1 + 1e-12 || u < -1e-12 || u > 1 + 1e-12) return {};
  return {a[0] + t * da};
}

Polygon2 reducePolygon(Polygon2 polygon, std::size_t maxVertices) {
  maxVertices = std::max<std::size_t>(maxVertices, 3);
  while (polygon.size() > maxVertices) {
    const std::size_t n = polygon.size();
    std::size_t best = 0;
    double bestLoss = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      const Vec2& prev = polygon[(i + n - 1) % n];
      const Vec2& next = polygon[(i + 1) % n];
      const double loss = std::abs(cross2(polygon[i] - prev, next - prev));
      if (loss < bestLoss) bestLoss = loss, best = i;
    }
    polygon.erase(polygon.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return polygon;
}

}  // namespace sg
