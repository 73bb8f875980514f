#include "contact/penalty/PenaltyLaw.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg {

namespace {

double step5(double x) {
  x = std::clamp(x, 0.0, 1.0);
  return x * x * x * (10 - 15 * x + 6 * x * x);
}

void require(bool ok, const std::string& what, double value) {
  if (!ok || !std::isfinite(value)) throw Error("penalty contact: " + what + ", found " + formatDouble(value));
}

}  // namespace

void checkPenaltySettings(const PenaltySettings& s) {
  require(s.stiffness_N_per_mm > 0, "stiffness must be > 0 N/mm", s.stiffness_N_per_mm);
  require(s.damping_N_s_per_mm >= 0, "damping must be ≥ 0 N·s/mm", s.damping_N_s_per_mm);
  require(s.transitionWidth_mm >= 0, "transition region width must be ≥ 0 mm", s.transitionWidth_mm);
  require(s.criticalVelocity_mm_per_s > 0, "critical velocity must be > 0 mm/s", s.criticalVelocity_mm_per_s);
  require(s.contactThreshold_mm >= 0, "contact threshold must be ≥ 0 mm", s.contactThreshold_mm);
}

double penaltyTransition(double xi) {
  xi = std::clamp(xi, 0.0, 1.0);
  return xi * xi * (3 - 2 * xi);
}

double penaltyNormalForce_N(double d, double rate, const PenaltySettings& s) {
  if (d <= 0) return 0;
  const double smooth = s.transitionWidth_mm > 0 ? penaltyTransition(d / s.transitionWidth_mm) : 1.0;
  const double f = smooth * (s.stiffness_N_per_mm * d + s.damping_N_s_per_mm * rate);
  return s.clampNormalForce ? std::max(f, 0.0) : f;
}

double penaltyNormalStiffness_N_per_mm(double d, const PenaltySettings& s) {
  if (d <= 0) return 0;
  const double w = s.transitionWidth_mm;
  if (w <= 0 || d >= w) return s.stiffness_N_per_mm;
  const double xi = d / w;
  const double smooth = xi * xi * (3 - 2 * xi), slope = 6 * xi * (1 - xi) / w;
  return s.stiffness_N_per_mm * (smooth + slope * d);
}

double stickSlipMu(double speed, double muS, double muK, double vc) {
  const double u = std::abs(speed) / vc;
  if (u <= 1) return muS * step5(u);
  if (u <= 3) return muS - (muS - muK) * step5((u - 1) / 2);
  return muK;
}

Vec3 stickSlipFriction_N(const Vec3& slip, double fn, double muS, double muK, double vc) {
  const double speed = slip.norm();
  if (speed <= 0 || fn <= 0) return Vec3::Zero();
  return -stickSlipMu(speed, muS, muK, vc) * fn * slip / speed;
}

}  // namespace sg
