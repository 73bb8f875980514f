#include "geometry/ShapeQueries.h"

#include <unsupported/Eigen/Polynomials>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/Decompositions.h"

namespace sg {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = 1e-300;

Vec3 perpendicularTo(const Vec3& n) {
  const Vec3 other = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return n.cross(other).normalized();
}

// Unit radial direction of p about the z axis (x when p is on the axis) and its radial distance.
Vec3 radialOf(const Vec3& p, double& rho) {
  rho = std::hypot(p.x(), p.y());
  return rho > kTiny ? Vec3(p.x() / rho, p.y() / rho, 0) : Vec3::UnitX();
}

double signOrPlus(double x) { return x < 0 ? -1.0 : 1.0; }

SurfaceCurvature curvature(double k1, const Vec3& d1, double k2, const Vec3& d2, const Vec3& point, const Vec3& n) {
  SurfaceCurvature c;
  c.point_mm = point;
  c.normal = n;
  if (k1 >= k2) {
    c.kMax_per_mm = k1;
    c.kMin_per_mm = k2;
    c.dirMax = d1.normalized();
  } else {
    c.kMax_per_mm = k2;
    c.kMin_per_mm = k1;
    c.dirMax = d2.normalized();
  }
  c.dirMin = n.cross(c.dirMax).normalized();
  return c;
}

SurfaceCurvature flatCurvature(const Vec3& point, const Vec3& n) {
  const Vec3 d = perpendicularTo(n);
  return curvature(0, d, 0, n.cross(d), point, n);
}

SurfaceCurvature umbilicCurvature(double k, const Vec3& point, const Vec3& n) {
  const Vec3 d = perpendicularTo(n);
  return curvature(k, d, k, n.cross(d), point, n);
}

// Curvature of an implicit surface f = 0 (f increasing outward) from its gradient and Hessian at the point:
// the shape operator tᵀ·H·t / |∇f| on the tangent plane.
SurfaceCurvature implicitCurvature(const Vec3& gradient, const Mat3& hessian, const Vec3& point) {
  const double g = gradient.norm();
  const Vec3 n = gradient / g;
  const Vec3 t1 = perpendicularTo(n), t2 = n.cross(t1);
  Eigen::Matrix2d m;
  m << t1.dot(hessian * t1), t1.dot(hessian * t2), t2.dot(hessian * t1), t2.dot(hessian * t2);
  m /= g;
  m(0, 1) = m(1, 0) = 0.5 * (m(0, 1) + m(1, 0));
  const SymmetricEigen2 eig = symmetricEigen(m);  // ascending
  const Eigen::Vector2d e1 = eig.vectors.col(1), e0 = eig.vectors.col(0);
  return curvature(eig.values(1), t1 * e1.x() + t2 * e1.y(), eig.values(0), t1 * e0.x() + t2 * e0.y(), point, n);
}

// Real roots of a·t² + b·t + c = 0 (a may be 0), ascending.
int solveQuadratic(double a, double b, double c, double roots[2]) {
  if (std::abs(a) < 1e-300 || std::abs(a) < 1e-14 * std::max(std::abs(b), std::abs(c))) {
    if (b == 0) return 0;
    roots[0] = -c / b;
    return 1;
  }
  const double disc = b * b - 4 * a * c;
  if (disc < 0) return 0;
  const double s = std::sqrt(disc);
  const double q = -0.5 * (b + (b >= 0 ? s : -s));  // no cancellation
  double r0 = q / a, r1 = q != 0 ? c / q : r0;
  if (r0 > r1) std::swap(r0, r1);
  roots[0] = r0;
  roots[1] = r1;
  return 2;
}

// Keeps the earliest hit with t ≥ 0.
struct HitKeeper {
  std::optional<RayHit> best;
  void offer(double t, const Vec3& point, const Vec3& normal) {
    if (!(t >= 0) || !std::isfinite(t)) return;
    if (!best || t < best->t) best = RayHit{t, point, normal.normalized()};
  }
};

// ---------------------------------------------------------------- sphere
SurfaceProjection nearest(const Sphere& s, const Vec3& p) {
  const double d = p.norm();
  const Vec3 n = d > kTiny ? Vec3(p / d) : Vec3::UnitX();
  return {s.radius_mm * n, n, d - s.radius_mm};
}
std::optional<RayHit> ray(const Sphere& s, const Vec3& o, const Vec3& d) {
  double t[2];
  HitKeeper k;
  const int n = solveQuadratic(d.squaredNorm(), 2 * o.dot(d), o.squaredNorm() - s.radius_mm * s.radius_mm, t);
  for (int i = 0; i < n; ++i) k.offer(t[i], o + t[i] * d, o + t[i] * d);
  return k.best;
}
std::optional<Vec3> support(const Sphere& s, const Vec3& d) { return Vec3(s.radius_mm * d.normalized()); }
SurfaceCurvature curv(const Sphere& s, const Vec3& p) {
  const auto q = nearest(s, p);
  return umbilicCurvature(1.0 / s.radius_mm, q.point_mm, q.normal);
}

// ---------------------------------------------------------------- ellipsoid
// Root s of F(s) = Σ (r_i z_i / (s + r_i))² − 1 by bisection to machine precision; r_last = 1. g = F(0).
template <int N>
double ellipsoidRoot(const std::array<double, N>& r, const std::array<double, N>& z, double g) {
  std::array<double, N> n;
  double nn = 0;
  for (int i = 0; i < N; ++i) {
    n[i] = r[i] * z[i];
    nn += n[i] * n[i];
  }
  double s0 = z[N - 1] - 1, s1 = g < 0 ? 0 : std::sqrt(nn) - 1, s = 0;
  for (int it = 0; it < 2200; ++it) {
    s = 0.5 * (s0 + s1);
    if (s == s0 || s == s1) break;
    double f = -1;
    for (int i = 0; i < N; ++i) {
      const double ratio = n[i] / (s + r[i]);
      f += ratio * ratio;
    }
    if (f > 0) s0 = s;
    else if (f < 0) s1 = s;
    else break;
  }
  return s;
}

// Nearest point of the ellipse x²/e0² + y²/e1² = 1 (e0 ≥ e1) to (y0, y1) with y0, y1 ≥ 0.
Eigen::Vector2d ellipseNearest(double e0, double e1, double y0, double y1) {
  if (y1 > 0) {
    if (y0 > 0) {
      const double z0 = y0 / e0, z1 = y1 / e1, g = z0 * z0 + z1 * z1 - 1;
      if (g == 0) return {y0, y1};
      const double r0 = (e0 / e1) * (e0 / e1);
      const double s = ellipsoidRoot<2>({r0, 1.0}, {z0, z1}, g);
      return {r0 * y0 / (s + r0), y1 / (s + 1)};
    }
    return {0, e1};
  }
  const double numer = e0 * y0, denom = e0 * e0 - e1 * e1;
  if (numer < denom) {
    const double x = numer / denom;
    return {e0 * x, e1 * std::sqrt(std::max(0.0, 1 - x * x))};
  }
  return {e0, 0};
}

// Nearest point of the ellipsoid with sorted semi-axes e0 ≥ e1 ≥ e2 to y ≥ 0 (componentwise).
Vec3 ellipsoidNearestSorted(const Vec3& e, const Vec3& y) {
  if (y.z() > 0) {
    if (y.y() > 0) {
      if (y.x() > 0) {
        const Vec3 z = y.cwiseQuotient(e);
        const double g = z.squaredNorm() - 1;
        if (g == 0) return y;
        const double r0 = (e.x() / e.z()) * (e.x() / e.z()), r1 = (e.y() / e.z()) * (e.y() / e.z());
        const double s = ellipsoidRoot<3>({r0, r1, 1.0}, {z.x(), z.y(), z.z()}, g);
        return {r0 * y.x() / (s + r0), r1 * y.y() / (s + r1), y.z() / (s + 1)};
      }
      const auto q = ellipseNearest(e.y(), e.z(), y.y(), y.z());
      return {0, q.x(), q.y()};
    }
    if (y.x() > 0) {
      const auto q = ellipseNearest(e.x(), e.z(), y.x(), y.z());
      return {q.x(), 0, q.y()};
    }
    return {0, 0, e.z()};
  }
  const double d0 = e.x() * e.x() - e.z() * e.z(), d1 = e.y() * e.y() - e.z() * e.z();
  const double n0 = e.x() * y.x(), n1 = e.y() * y.y();
  if (n0 < d0 && n1 < d1) {
    const double x0 = n0 / d0, x1 = n1 / d1, disc = 1 - x0 * x0 - x1 * x1;
    if (disc > 0) return {e.x() * x0, e.y() * x1, e.z() * std::sqrt(disc)};
  }
  const auto q = ellipseNearest(e.x(), e.y(), y.x(), y.y());
  return {q.x(), q.y(), 0};
}

Vec3 ellipsoidNormal(const Ellipsoid& s, const Vec3& q) {
  const Vec3 g = q.cwiseQuotient(s.semiAxes_mm.cwiseProduct(s.semiAxes_mm));
  const double n = g.norm();
  return n > kTiny ? Vec3(g / n) : Vec3::UnitZ();
}

SurfaceProjection nearest(const Ellipsoid& s, const Vec3& p) {
  std::array<int, 3> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int i, int j) { return s.semiAxes_mm[i] > s.semiAxes_mm[j]; });
  Vec3 e, y;
  for (int k = 0; k < 3; ++k) {
    e[k] = s.semiAxes_mm[order[k]];
    y[k] = std::abs(p[order[k]]);
  }
  const Vec3 xs = ellipsoidNearestSorted(e, y);
  Vec3 q;
  for (int k = 0; k < 3; ++k) q[order[k]] = signOrPlus(p[order[k]]) * xs[k];
  const bool inside = p.cwiseQuotient(s.semiAxes_mm).squaredNorm() <= 1;
  const double d = (p - q).norm();
  return {q, ellipsoidNormal(s, q), inside ? -d : d};
}
std::optional<RayHit> ray(const Ellipsoid& s, const Vec3& o, const Vec3& d) {
  // A unit sphere in coordinates scaled by the semi-axes.
  const Vec3 os = o.cwiseQuotient(s.semiAxes_mm), ds = d.cwiseQuotient(s.semiAxes_mm);
  double t[2];
  HitKeeper k;
  const int n = solveQuadratic(ds.squaredNorm(), 2 * os.dot(ds), os.squaredNorm() - 1, t);
  for (int i = 0; i < n; ++i) k.offer(t[i], o + t[i] * d, ellipsoidNormal(s, o + t[i] * d));
  return k.best;
}
std::optional<Vec3> support(const Ellipsoid& s, const Vec3& d) {
  const Vec3 a2d = s.semiAxes_mm.cwiseProduct(s.semiAxes_mm).cwiseProduct(d);
  return Vec3(a2d / s.semiAxes_mm.cwiseProduct(d).norm());
}
SurfaceCurvature curv(const Ellipsoid& s, const Vec3& p) {
  const Vec3 q = nearest(s, p).point_mm;
  const Vec3 inv2 = s.semiAxes_mm.cwiseProduct(s.semiAxes_mm).cwiseInverse();
  return implicitCurvature(q.cwiseProduct(inv2), inv2.asDiagonal(), q);
}

// ---------------------------------------------------------------- cylinder
SurfaceProjection nearest(const Cylinder& s, const Vec3& p) {
  double rho;
  const Vec3 u = radialOf(p, rho);
  const double r = s.radius_mm, h = 0.5 * s.height_mm, sz = signOrPlus(p.z());
  const double dr = rho - r, dz = std::abs(p.z()) - h;
  if (dr > 0 || dz > 0) {
    const Vec3 q = std::min(rho, r) * u + std::clamp(p.z(), -h, h) * Vec3::UnitZ();
    const double d = (p - q).norm();
    Vec3 n = dr > 0 && dz > 0 ? Vec3((p - q) / d) : (dr > 0 ? u : Vec3(sz * Vec3::UnitZ()));
    return {q, n, d};
  }
  if (dr >= dz) return {Vec3(r * u + p.z() * Vec3::UnitZ()), u, dr};
  return {Vec3(rho * u + sz * h * Vec3::UnitZ()), sz * Vec3::UnitZ(), dz};
}
std::optional<RayHit> ray(const Cylinder& s, const Vec3& o, const Vec3& d) {
  const double r = s.radius_mm, h = 0.5 * s.height_mm;
  HitKeeper k;
  double t[2];
  const int n = solveQuadratic(d.x() * d.x() + d.y() * d.y(), 2 * (o.x() * d.x() + o.y() * d.y()),
                               o.x() * o.x() + o.y() * o.y() - r * r, t);
  for (int i = 0; i < n; ++i) {
    const Vec3 q = o + t[i] * d;
    if (std::abs(q.z()) <= h) k.offer(t[i], q, Vec3(q.x(), q.y(), 0));
  }
  if (d.z() != 0)
    for (double zc : {-h, h}) {
      const double tc = (zc - o.z()) / d.z();
      const Vec3 q = o + tc * d;
      if (q.x() * q.x() + q.y() * q.y() <= r * r) k.offer(tc, Vec3(q.x(), q.y(), zc), signOrPlus(zc) * Vec3::UnitZ());
    }
  return k.best;
}
std::optional<Vec3> support(const Cylinder& s, const Vec3& d) {
  double rho;
  const Vec3 u = radialOf(d, rho);
  return Vec3((rho > kTiny ? s.radius_mm : 0.0) * u + signOrPlus(d.z()) * 0.5 * s.height_mm * Vec3::UnitZ());
}
SurfaceCurvature curv(const Cylinder& s, const Vec3& p) {
  const auto q = nearest(s, p);
  if (std::abs(q.normal.z()) >= std::sqrt(0.5)) return flatCurvature(q.point_mm, q.normal);
  double rho;
  const Vec3 u = radialOf(q.point_mm, rho);
  return curvature(1.0 / s.radius_mm, Vec3::UnitZ().cross(u), 0.0, Vec3::UnitZ(), q.point_mm, u);
}

// ---------------------------------------------------------------- cone
struct Segment2 {
  Eigen::Vector2d a, b;
};
// Closest point on a 2-D segment and its parameter.
Eigen::Vector2d closestOnSegment(const Segment2& s, const Eigen::Vector2d& p) {
  const Eigen::Vector2d ab = s.b - s.a;
  const double t = std::clamp((p - s.a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
  return s.a + t * ab;
}
// The cone's outward slant normal in (ρ, z).
Eigen::Vector2d coneSlantNormal(const Cone& s) {
  return Eigen::Vector2d(s.height_mm, s.radius_mm).normalized();
}
SurfaceProjection nearest(const Cone& s, const Vec3& p) {
  double rho;
  const Vec3 u = radialOf(p, rho);
  const double R = s.radius_mm, H = s.height_mm, h = 0.5 * H;
  const Eigen::Vector2d q2(rho, p.z());
  const Segment2 base{{0, -h}, {R, -h}}, slant{{R, -h}, {0, h}};
  const Eigen::Vector2d cb = closestOnSegment(base, q2), cs = closestOnSegment(slant, q2);
  const double db = (q2 - cb).norm(), ds = (q2 - cs).norm();
  const bool useBase = db < ds;
  const Eigen::Vector2d c = useBase ? cb : cs;
  const double d = useBase ? db : ds;
  const Eigen::Vector2d nSlant = coneSlantNormal(s);
  const Eigen::Vector2d faceNormal = useBase ? Eigen::Vector2d(0, -1) : nSlant;
  const bool inside = p.z() >= -h && p.z() <= h && rho <= R * (h - p.z()) / H;
  const Vec3 q = c.x() * u + c.y() * Vec3::UnitZ();
  Vec3 n = faceNormal.x() * u + faceNormal.y() * Vec3::UnitZ();
  if (!inside && d > 1e-12 * (R + H)) n = (p - q) / d;
  return {q, n, inside ? -d : d};
}
std::optional<RayHit> ray(const Cone& s, const Vec3& o, const Vec3& d) {
  const double R = s.radius_mm, H = s.height_mm, h = 0.5 * H, k = R / H;
  const Eigen::Vector2d nSlant = coneSlantNormal(s);
  HitKeeper hits;
  const double w0 = h - o.z();
  double t[2];
  const int n = solveQuadratic(d.x() * d.x() + d.y() * d.y() - k * k * d.z() * d.z(),
                               2 * (o.x() * d.x() + o.y() * d.y() + k * k * w0 * d.z()),
                               o.x() * o.x() + o.y() * o.y() - k * k * w0 * w0, t);
  for (int i = 0; i < n; ++i) {
    const Vec3 q = o + t[i] * d;
    if (q.z() < -h || q.z() > h) continue;
    double rho;
    const Vec3 u = radialOf(q, rho);
    hits.offer(t[i], q, nSlant.x() * u + nSlant.y() * Vec3::UnitZ());
  }
  if (d.z() != 0) {
    const double tb = (-h - o.z()) / d.z();
    const Vec3 q = o + tb * d;
    if (q.x() * q.x() + q.y() * q.y() <= R * R) hits.offer(tb, Vec3(q.x(), q.y(), -h), -Vec3::UnitZ());
  }
  return hits.best;
}
std::optional<Vec3> support(const Cone& s, const Vec3& d) {
  double rho;
  const Vec3 u = radialOf(d, rho);
  const double h = 0.5 * s.height_mm;
  const Vec3 apex(0, 0, h), rim = (rho > kTiny ? s.radius_mm : 0.0) * u - h * Vec3::UnitZ();
  return d.dot(apex) >= d.dot(rim) ? apex : rim;
}
SurfaceCurvature curv(const Cone& s, const Vec3& p) {
  const auto q = nearest(s, p);
  const Eigen::Vector2d nSlant = coneSlantNormal(s);
  double rho;
  const Vec3 u = radialOf(q.point_mm, rho);
  const Vec3 slantNormal = nSlant.x() * u + nSlant.y() * Vec3::UnitZ();
  // Which face: the one whose normal is closer to the returned normal. The apex has no finite curvature:
  // reported flat, as the base rim's edge is reported by its face.
  const bool baseFace = q.normal.dot(-Vec3::UnitZ()) > q.normal.dot(slantNormal);
  if (baseFace) return flatCurvature(q.point_mm, -Vec3::UnitZ());
  if (rho < 1e-12 * s.radius_mm) return flatCurvature(q.point_mm, slantNormal);
  // Meusnier: the parallel circle of radius ρ has normal curvature n_ρ / ρ; the generator is straight.
  const Vec3 azimuth = Vec3::UnitZ().cross(u);
  return curvature(nSlant.x() / rho, azimuth, 0.0, slantNormal.cross(azimuth), q.point_mm, slantNormal);
}

// ---------------------------------------------------------------- box
SurfaceProjection nearest(const Box& s, const Vec3& p) {
  const Vec3 e = s.halfExtents_mm();
  const Vec3 excess = p.cwiseAbs() - e;
  if ((excess.array() > 0).any()) {
    const Vec3 q = p.cwiseMax(-e).cwiseMin(e);
    const double d = (p - q).norm();
    return {q, Vec3((p - q) / d), d};
  }
  int i;
  const double depth = excess.maxCoeff(&i);
  Vec3 q = p, n = Vec3::Zero();
  q[i] = signOrPlus(p[i]) * e[i];
  n[i] = signOrPlus(p[i]);
  return {q, n, depth};
}
std::optional<RayHit> ray(const Box& s, const Vec3& o, const Vec3& d) {
  const Vec3 e = s.halfExtents_mm();
  double tIn = -kInf, tOut = kInf;
  int axisIn = -1, axisOut = -1;
  for (int i = 0; i < 3; ++i) {
    if (d[i] == 0) {
      if (std::abs(o[i]) > e[i]) return std::nullopt;
      continue;
    }
    double t0 = (-e[i] - o[i]) / d[i], t1 = (e[i] - o[i]) / d[i];
    if (t0 > t1) std::swap(t0, t1);
    if (t0 > tIn) { tIn = t0; axisIn = i; }
    if (t1 < tOut) { tOut = t1; axisOut = i; }
  }
  if (tIn > tOut || tOut < 0 || axisOut < 0) return std::nullopt;
  const bool entering = tIn >= 0 && axisIn >= 0;
  const double t = entering ? tIn : tOut;
  const int axis = entering ? axisIn : axisOut;
  Vec3 q = o + t * d, n = Vec3::Zero();
  n[axis] = entering ? -signOrPlus(d[axis]) : signOrPlus(d[axis]);
  q[axis] = n[axis] * e[axis];
  return RayHit{t, q, n};
}
std::optional<Vec3> support(const Box& s, const Vec3& d) {
  const Vec3 e = s.halfExtents_mm();
  return Vec3(signOrPlus(d.x()) * e.x(), signOrPlus(d.y()) * e.y(), signOrPlus(d.z()) * e.z());
}
SurfaceCurvature curv(const Box& s, const Vec3& p) {
  const auto q = nearest(s, p);
  int i;
  q.normal.cwiseAbs().maxCoeff(&i);
  Vec3 n = Vec3::Zero();
  n[i] = signOrPlus(q.normal[i]);
  Vec3 t = Vec3::Zero();
  t[(i + 1) % 3] = 1;
  return curvature(0, t, 0, n.cross(t), q.point_mm, n);
}

// ---------------------------------------------------------------- torus
SurfaceProjection nearest(const Torus& s, const Vec3& p) {
  double rho;
  const Vec3 u = radialOf(p, rho);
  const Vec3 c = s.majorRadius_mm * u, v = p - c;
  const double dv = v.norm();
  const Vec3 n = dv > kTiny ? Vec3(v / dv) : u;
  return {Vec3(c + s.minorRadius_mm * n), n, dv - s.minorRadius_mm};
}
std::optional<RayHit> ray(const Torus& s, const Vec3& o, const Vec3& dIn) {
  const double len = dIn.norm();
  if (!(len > 0)) return std::nullopt;
  const Vec3 d = dIn / len;
  const double R = s.majorRadius_mm, r = s.minorRadius_mm;
  // (|x|² + R² − r²)² = 4R²(x² + y²) along x = o + t·d (|d| = 1): a quartic in t.
  const double m = o.dot(d), q = o.squaredNorm() + R * R - r * r;
  const double dxy2 = d.x() * d.x() + d.y() * d.y(), odxy = o.x() * d.x() + o.y() * d.y();
  const double oxy2 = o.x() * o.x() + o.y() * o.y();
  Eigen::Matrix<double, 5, 1> c;  // ascending powers
  c << q * q - 4 * R * R * oxy2, 4 * m * q - 8 * R * R * odxy, 4 * m * m + 2 * q - 4 * R * R * dxy2, 4 * m, 1;
  auto f = [&](double t) { return (((c(4) * t + c(3)) * t + c(2)) * t + c(1)) * t + c(0); };
  auto df = [&](double t) { return ((4 * c(4) * t + 3 * c(3)) * t + 2 * c(2)) * t + c(1); };
  Eigen::PolynomialSolver<double, 4> solver(c);
  HitKeeper hits;
  const double scale = R + r;
  for (const auto& z : solver.roots()) {
    if (std::abs(z.imag()) > 1e-4 * scale) continue;
    double t = z.real();
    for (int it = 0; it < 8; ++it) {  // polish
      const double g = df(t);
      if (g == 0) break;
      const double step = f(t) / g;
      t -= step;
      if (std::abs(step) < 1e-15 * scale) break;
    }
    const Vec3 x = o + t * d;
    const auto pr = nearest(s, x);
    if (std::abs(pr.signedDistance_mm) > 1e-7 * scale) continue;
    hits.offer(t, x, pr.normal);
  }
  if (hits.best) hits.best->t /= len;
  return hits.best;
}
std::optional<Vec3> support(const Torus& s, const Vec3& d) {
  double rho;
  const Vec3 u = radialOf(d, rho);
  return Vec3(s.majorRadius_mm * u + s.minorRadius_mm * d.normalized());
}
SurfaceCurvature curv(const Torus& s, const Vec3& p) {
  const auto q = nearest(s, p);
  double rho;
  const Vec3 u = radialOf(q.point_mm, rho);
  const double nRho = q.normal.dot(u);
  const Vec3 azimuth = Vec3::UnitZ().cross(u);
  // Tube direction: 1/r. Parallel circle (radius R + r·n_ρ): Meusnier, n_ρ / (R + r·n_ρ).
  return curvature(1.0 / s.minorRadius_mm, q.normal.cross(azimuth), nRho / (s.majorRadius_mm + s.minorRadius_mm * nRho),
                   azimuth, q.point_mm, q.normal);
}

// ---------------------------------------------------------------- capsule
SurfaceProjection nearest(const Capsule& s, const Vec3& p) {
  const double h = 0.5 * s.length_mm;
  const Vec3 c(0, 0, std::clamp(p.z(), -h, h));
  const Vec3 v = p - c;
  const double dv = v.norm();
  Vec3 n;
  if (dv > kTiny) {
    n = v / dv;
  } else {
    double rho;
    n = radialOf(p, rho);
  }
  return {Vec3(c + s.radius_mm * n), n, dv - s.radius_mm};
}
std::optional<RayHit> ray(const Capsule& s, const Vec3& o, const Vec3& d) {
  const double r = s.radius_mm, h = 0.5 * s.length_mm;
  HitKeeper hits;
  double t[2];
  int n = solveQuadratic(d.x() * d.x() + d.y() * d.y(), 2 * (o.x() * d.x() + o.y() * d.y()),
                         o.x() * o.x() + o.y() * o.y() - r * r, t);
  for (int i = 0; i < n; ++i) {
    const Vec3 q = o + t[i] * d;
    if (std::abs(q.z()) <= h) hits.offer(t[i], q, Vec3(q.x(), q.y(), 0));
  }
  for (double zc : {-h, h}) {
    const Vec3 oc = o - Vec3(0, 0, zc);
    n = solveQuadratic(d.squaredNorm(), 2 * oc.dot(d), oc.squaredNorm() - r * r, t);
    for (int i = 0; i < n; ++i) {
      const Vec3 q = o + t[i] * d;
      if ((zc > 0 && q.z() >= h) || (zc < 0 && q.z() <= -h)) hits.offer(t[i], q, q - Vec3(0, 0, zc));
    }
  }
  return hits.best;
}
std::optional<Vec3> support(const Capsule& s, const Vec3& d) {
  return Vec3(signOrPlus(d.z()) * 0.5 * s.length_mm * Vec3::UnitZ() + s.radius_mm * d.normalized());
}
SurfaceCurvature curv(const Capsule& s, const Vec3& p) {
  const auto q = nearest(s, p);
  const double h = 0.5 * s.length_mm;
  const double zc = q.point_mm.z() - s.radius_mm * q.normal.z();  // the axis point
  if (std::abs(zc) < h && std::abs(q.normal.z()) < 1e-12) {
    const Vec3 azimuth = Vec3::UnitZ().cross(q.normal);
    return curvature(1.0 / s.radius_mm, azimuth, 0.0, Vec3::UnitZ(), q.point_mm, q.normal);
  }
  return umbilicCurvature(1.0 / s.radius_mm, q.point_mm, q.normal);
}

// ---------------------------------------------------------------- half-space
SurfaceProjection nearest(const HalfSpace&, const Vec3& p) { return {Vec3(p.x(), p.y(), 0), Vec3::UnitZ(), p.z()}; }
std::optional<RayHit> ray(const HalfSpace&, const Vec3& o, const Vec3& d) {
  if (d.z() == 0) return std::nullopt;
  const double t = -o.z() / d.z();
  if (t < 0) return std::nullopt;
  const Vec3 q = o + t * d;
  return RayHit{t, Vec3(q.x(), q.y(), 0), Vec3::UnitZ()};
}
std::optional<Vec3> support(const HalfSpace&, const Vec3&) { return std::nullopt; }
SurfaceCurvature curv(const HalfSpace& s, const Vec3& p) {
  return curvature(0, Vec3::UnitX(), 0, Vec3::UnitY(), nearest(s, p).point_mm, Vec3::UnitZ());
}

}  // namespace

SurfaceProjection nearestSurfacePoint(const Shape& s, const Vec3& p) {
  return std::visit([&](const auto& shape) { return nearest(shape, p); }, s);
}
double signedDistance(const Shape& s, const Vec3& p) { return nearestSurfacePoint(s, p).signedDistance_mm; }
Vec3 outwardNormal(const Shape& s, const Vec3& p) { return nearestSurfacePoint(s, p).normal; }
bool containsPoint(const Shape& s, const Vec3& p) { return signedDistance(s, p) <= 0; }

std::optional<RayHit> intersectRay(const Shape& s, const Vec3& o, const Vec3& d) {
  if (!(d.squaredNorm() > 0) || !d.allFinite() || !o.allFinite()) return std::nullopt;
  return std::visit([&](const auto& shape) { return ray(shape, o, d); }, s);
}

std::optional<Vec3> supportPoint(const Shape& s, const Vec3& d) {
  if (!(d.squaredNorm() > 0) || !d.allFinite()) return std::nullopt;
  return std::visit([&](const auto& shape) { return support(shape, d); }, s);
}

SurfaceCurvature surfaceCurvature(const Shape& s, const Vec3& p) {
  return std::visit([&](const auto& shape) { return curv(shape, p); }, s);
}

BoundingSphere boundingSphere(const Shape& s) {
  struct V {
    double operator()(const Sphere& x) const { return x.radius_mm; }
    double operator()(const Ellipsoid& x) const { return x.semiAxes_mm.maxCoeff(); }
    double operator()(const Cylinder& x) const { return std::hypot(x.radius_mm, 0.5 * x.height_mm); }
    double operator()(const Cone& x) const { return std::hypot(x.radius_mm, 0.5 * x.height_mm); }
    double operator()(const Box& x) const { return x.halfExtents_mm().norm(); }
    double operator()(const Torus& x) const { return x.majorRadius_mm + x.minorRadius_mm; }
    double operator()(const Capsule& x) const { return 0.5 * x.length_mm + x.radius_mm; }
    double operator()(const HalfSpace&) const { return kInf; }
  };
  return {Vec3::Zero(), std::visit(V{}, s)};
}

}  // namespace sg
