#include "contact/HertzContact.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "core/Math.h"

namespace sg {

double ellipticK(double m) {
  double a = 1.0, g = std::sqrt(1.0 - m);
  for (int i = 0; i < 60 && std::abs(a - g) > 1e-16 * a; ++i) {
    const double an = 0.5 * (a + g);
    g = std::sqrt(a * g);
    a = an;
  }
  return kPi / (2.0 * a);
}

double ellipticE(double m) {
  // AGM with the accumulated sum of 2^(n-1) c_n² (Abramowitz & Stegun 17.6).
  double a = 1.0, g = std::sqrt(1.0 - m), c2sum = 0.5 * m, pow2 = 0.5;
  for (int i = 0; i < 60; ++i) {
    const double c = 0.5 * (a - g);
    const double an = 0.5 * (a + g);
    g = std::sqrt(a * g);
    a = an;
    pow2 *= 2.0;
    c2sum += pow2 * c * c;
    if (std::abs(c) < 1e-17) break;
  }
  return (kPi / (2.0 * a)) * (1.0 - c2sum);
}

double hertzEffectiveModulus_Pa(std::optional<double> e1, double nu1, std::optional<double> e2, double nu2) {
  double inv = 0;
  if (e1 && *e1 > 0) inv += (1 - nu1 * nu1) / *e1;
  if (e2 && *e2 > 0) inv += (1 - nu2 * nu2) / *e2;
  if (inv <= 0) throw Error("Hertz contact needs at least one elastic body (a Young's modulus > 0)");
  return 1.0 / inv;
}

namespace {
// Johnson's ratio B/A as a function of m = e².
double curvatureRatio(double m) {
  const double K = ellipticK(m), E = ellipticE(m);
  return (E / (1.0 - m) - K) / (K - E);
}
}  // namespace

HertzEllipse hertzEllipse(double rSmall, double rLarge, double N, double eStar_Pa) {
  if (!(rSmall > 0) || !(rLarge > 0) || !(N >= 0) || !(eStar_Pa > 0) || !std::isfinite(rSmall) ||
      !std::isfinite(rLarge))
    throw Error("Hertz contact needs finite positive radii, a non-negative force and a positive modulus");
  if (rSmall > rLarge) std::swap(rSmall, rLarge);
  const double eStar = eStar_Pa * 1e-6;  // N/mm²
  const double A = 0.5 / rLarge, B = 0.5 / rSmall;  // gap h = A x² + B y², A <= B
  HertzEllipse out;
  const double ratio = B / A;
  if (ratio < 1 + 1e-9) {
    const double R = 1.0 / (A + B);
    const double a = std::cbrt(3.0 * N * R / (4.0 * eStar));
    out.semiAxisLong_mm = out.semiAxisShort_mm = a;
    out.approach_mm = a * a / R;
  } else {
    // Bisection on t = −ln(1 − m): the ratio grows monotonically from 1 (t = 0) to ∞.
    double lo = 0, hi = 1;
    while (curvatureRatio(-std::expm1(-hi)) < ratio && hi < 700) hi *= 2;
    for (int i = 0; i < 200; ++i) {
      const double mid = 0.5 * (lo + hi);
      (curvatureRatio(-std::expm1(-mid)) < ratio ? lo : hi) = mid;
    }
    const double m = -std::expm1(-0.5 * (lo + hi));
    const double K = ellipticK(m), E = ellipticE(m);
    // From A = p0 b (K − E)/(E* e² a²) and P = (2/3) π a b p0:
    const double a = std::cbrt(3.0 * N * (K - E) / (2.0 * kPi * A * eStar * m));
    const double b = a * std::sqrt(1.0 - m);
    out.semiAxisLong_mm = a;
    out.semiAxisShort_mm = b;
    out.eccentricitySquared = m;
    const double p0 = (a * b > 0) ? 3.0 * N / (2.0 * kPi * a * b) : 0.0;  // N/mm²
    out.approach_mm = p0 * b * K / eStar;
  }
  const double area = kPi * out.semiAxisLong_mm * out.semiAxisShort_mm;
  out.maxPressure_Pa = area > 0 ? 1.5 * N / area * 1e6 : 0.0;
  return out;
}

HertzEllipse hertzEllipse(const RelativeCurvature& gap, double N, double eStar_Pa) {
  if (gap.conforming() || !(gap.kappaMax_per_mm > 0))
    throw Error("Hertz contact needs a gap curving away in both directions (the surfaces conform)");
  return hertzEllipse(gap.radiusMin_mm(), gap.radiusMax_mm(), N, eStar_Pa);
}

double hertzForceAtApproach_N(double rSmall, double rLarge, double approach_mm, double eStar_Pa) {
  if (!(approach_mm > 0)) return 0.0;
  const HertzEllipse unit = hertzEllipse(rSmall, rLarge, 1.0, eStar_Pa);
  return std::pow(approach_mm / unit.approach_mm, 1.5);
}

double hertzCircularForce_N(double radius_mm, double approach_mm, double eStar_Pa) {
  return 4.0 / 3.0 * eStar_Pa * 1e-6 * std::sqrt(radius_mm) * std::pow(std::max(0.0, approach_mm), 1.5);
}

}  // namespace sg
