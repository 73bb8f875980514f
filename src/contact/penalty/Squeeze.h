#pragma once
// The squeeze step (src/contact/README.md §Squeeze): close a hand past first contact and find the quasi-static
// penalty contact at every pair of one of its links with another body, either
//   Torque: each DOF that auto-grasp closes pushes with its effort (Dof::maxEffort, GraspIt!'s 1e-6 N·mm or
//           1e-6 N) in its closing direction, and the DOF change Δq balances it: τ_j = Σ_c f_n,c·∂d_c/∂q_j
//           (the penalty normal forces through the contact Jacobian; the minimum of the convex energy
//           Σ_c Φ(d_c) − τ·Δq, Φ' = f_n, by damped Newton, DOFs kept in their ranges); or
//   Motion: each closing DOF moves by a set extra amount (one for revolute, one for prismatic DOFs) and the
//           penetrations are what that motion produces.
// Penetrations are first order in Δq at the touching state: d_c = −s_c + Σ_j (∂p_c/∂q_j)·n_c Δq_j, with s_c the
// pair's separation, p_c the link's witness point and n_c the normal out of the link (numerical Jacobian of
// the forward kinematics). Other bodies stay where they are. The reported forces are those at rest (ḋ = 0);
// the friction is evaluated for the slip of the link's point while the DOFs close at their default velocities
// (the slide the friction opposes as the grip builds up; 0 for a jaw moving straight into a face).
#include <string>
#include <vector>

#include "contact/penalty/PenaltySensing.h"

namespace sg {

enum class SqueezeMode { Torque, Motion };

struct SqueezeSettings {
  SqueezeMode mode = SqueezeMode::Torque;
  double extraRevolute_rad = 0;  // Motion: how far each closing revolute DOF moves on, ≥ 0
  double extraPrismatic_mm = 0;  // Motion: how far each closing prismatic DOF moves on, ≥ 0
  PenaltySettings penalty;
  int maxIterations = 200;
};

struct SqueezeContact {
  PenaltySensing sensing;               // at the squeezed state; side 1 = the hand's link
  std::vector<double> jacobian;         // ∂d/∂q_j per DOF (mm/rad or mm/mm)
  double initialSeparation_mm = 0;      // s_c at the touching state
};

struct SqueezeResult {
  std::vector<double> dofBefore, dofAfter;  // rad or mm
  std::vector<double> effort;               // generalised force each DOF applies (N·mm or N; 0: not driven)
  std::vector<double> contactLoad;          // Σ_c f_n,c·∂d_c/∂q_j: what the contacts push back with
  std::vector<SqueezeContact> contacts;
  bool converged = true;
  int iterations = 0;
  std::vector<std::string> notes;           // DOFs left alone, limits reached, ...
};

// A Motion squeeze from the one number both front ends take (the Sensing dock's field, the CLI's
// --squeeze-motion DEG): that many degrees for each closing revolute DOF, the same number of millimetres for
// each prismatic one.
SqueezeSettings motionSqueeze(double extra_deg_or_mm, const PenaltySettings& penalty = {});

// Squeezes robot `robot` in `state` (its DOF values are set to the result; link poses recomputed). Throws
// sg::Error for an invalid robot index or settings.
SqueezeResult squeezeHand(const World& world, WorldState& state, int robot, const SqueezeSettings& settings);

const char* toString(SqueezeMode mode);  // "torque", "motion"

}  // namespace sg
