#pragma once
// The penalty contact law of a spatial contact-force block (src/contact/README.md §Penalty contact), in the
// project's units: penetration d in mm, rates in mm/s, forces in N.
//   normal:   f_n = s(d/w)·(k·d + c·ḋ), s(ξ) = 3ξ² − 2ξ³ on [0, 1] (0 below, 1 above): smooth, monotone, zero
//             slope at both ends; full stiffness and damping once d ≥ w (the transition region width);
//             optionally clamped at 0 (no pull while the bodies separate fast).
//   friction: f_f = μ_eff(|v_t|)·f_n against the tangential slip v_t, μ_eff rising smoothly from 0 at rest to
//             μs at the critical velocity v_c, then falling smoothly to μk at 3·v_c and staying there
//             (S(ξ) = 10ξ³ − 15ξ⁴ + 6ξ⁵: μs·S(u) for u = |v|/v_c ≤ 1, μs − (μs − μk)·S((u − 1)/2) up to u = 3).
#include "core/Math.h"

namespace sg {

struct PenaltySettings {
  double stiffness_N_per_mm = 1e3;      // k (1e6 N/m)
  double damping_N_s_per_mm = 1.0;      // c (1e3 N/(m/s))
  double transitionWidth_mm = 0.1;      // w (1e-4 m)
  double criticalVelocity_mm_per_s = 1; // v_c (1e-3 m/s)
  bool clampNormalForce = true;         // f_n ← max(f_n, 0)
  double contactThreshold_mm = 0.2;     // pairs closer than this take part in a squeeze (first contact)
};
// Throws sg::Error naming the setting unless k > 0, c ≥ 0, w ≥ 0, v_c > 0, threshold ≥ 0 (all finite).
void checkPenaltySettings(const PenaltySettings& settings);

double penaltyTransition(double xi);  // s(ξ) above, clamped to [0, 1]
// f_n (N) for penetration d (mm, > 0 overlapping) and penetration rate ḋ (mm/s).
double penaltyNormalForce_N(double penetration_mm, double rate_mm_per_s, const PenaltySettings& settings);
// ∂f_n/∂d at ḋ = 0 (N/mm): k·(s + s'·d/w).
double penaltyNormalStiffness_N_per_mm(double penetration_mm, const PenaltySettings& settings);
// μ_eff for slip speed |v| (mm/s).
double stickSlipMu(double speed_mm_per_s, double muStatic, double muKinetic, double criticalVelocity_mm_per_s);
// The friction force (N) on a body slipping with tangential velocity v_t (mm/s) relative to the other one.
Vec3 stickSlipFriction_N(const Vec3& slip_mm_per_s, double normalForce_N, double muStatic, double muKinetic,
                         double criticalVelocity_mm_per_s);

}  // namespace sg
