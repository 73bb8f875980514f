#include "contact/QuadricRelativeCurvature.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sg {

double RelativeCurvature::radiusMin_mm() const {
  return kappaMax_per_mm > 0 ? 1.0 / kappaMax_per_mm : std::numeric_limits<double>::infinity();
}
double RelativeCurvature::radiusMax_mm() const {
  return kappaMin_per_mm > 0 ? 1.0 / kappaMin_per_mm : std::numeric_limits<double>::infinity();
}

namespace {
// A unit tangent: v projected onto the plane ⟂ n; any tangent if v is (nearly) parallel to n.
Vec3 tangentDirection(const Vec3& v, const Vec3& n) {
  Vec3 t = v - v.dot(n) * n;
  if (t.norm() < 1e-12) {
    t = n.cross(Vec3::UnitX());
    if (t.norm() < 1e-9) t = n.cross(Vec3::UnitZ());
  }
  return t.normalized();
}
}  // namespace

RelativeCurvature combineParaboloids(double k1max, double k1min, const Vec3& x1In, double k2max, double k2min,
                                     const Vec3& x2In, const Vec3& normal) {
  const Vec3 n = normal.normalized();
  const Vec3 x1 = tangentDirection(x1In, n);
  const Vec3 y1 = n.cross(x1);
  const Vec3 x2 = tangentDirection(x2In, n);
  // Angle from x1 to x2 about n. Only 2w enters, so flipping x2 (or the normal) changes nothing.
  const double w = std::atan2(x2.dot(y1), x2.dot(x1));
  const double d1 = k1max - k1min, d2 = k2max - k2min;
  const double sum = (k1max + k1min) + (k2max + k2min);
  const double disc = std::sqrt(std::max(0.0, d1 * d1 + d2 * d2 + 2 * d1 * d2 * std::cos(2 * w)));
  RelativeCurvature out;
  out.kappaMax_per_mm = 0.5 * (sum + disc);
  out.kappaMin_per_mm = 0.5 * (sum - disc);
  // Direction of κmax: the eigenvector of the summed Hessians, rotated from x1 by α.
  const double alpha = 0.5 * std::atan2(d2 * std::sin(2 * w), d1 + d2 * std::cos(2 * w));
  out.directionMax = (std::cos(alpha) * x1 + std::sin(alpha) * y1).normalized();
  out.directionMin = n.cross(out.directionMax);
  return out;
}

RelativeCurvature relativeCurvature(const PrincipalCurvatures& b1, const PrincipalCurvatures& b2, const Vec3& normal1,
                                    ConcaveRule rule) {
  auto k = [rule](double kappa) { return rule == ConcaveRule::TreatAsFlat ? std::max(0.0, kappa) : kappa; };
  // Clamping can reorder max/min; keep them ordered with their directions.
  double k1a = k(b1.kappaMax_per_mm), k1b = k(b1.kappaMin_per_mm);
  Vec3 x1 = b1.directionMax;
  if (k1b > k1a) { std::swap(k1a, k1b); x1 = b1.directionMin; }
  double k2a = k(b2.kappaMax_per_mm), k2b = k(b2.kappaMin_per_mm);
  Vec3 x2 = b2.directionMax;
  if (k2b > k2a) { std::swap(k2a, k2b); x2 = b2.directionMin; }
  return combineParaboloids(k1a, k1b, x1, k2a, k2b, x2, normal1);
}

}  // namespace sg
