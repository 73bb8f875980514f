#pragma once
// The penalty contact model's results (src/contact/README.md §Penalty contact; registered as "penalty" in
// BuiltinContactModels.cpp): each contact's normal force from a torque squeeze of the hand that touches it.
#include <vector>

#include "contact/ContactModel.h"
#include "contact/penalty/Squeeze.h"

namespace sg {

struct PenaltyContactResult : ContactModelResult {
  // Parallel to `contacts`: the squeeze's sensing outputs for the contact's body pair (a record at rest with
  // zero force when no hand link is in the pair).
  std::vector<PenaltySensing> sensing;
  std::vector<SqueezeResult> squeezes;  // one per robot squeezed

  // The contact's sensing outputs ("sensing": penetration, slip, μ_eff, normal and friction force).
  Json describeContact(std::size_t i) const override;
  // "squeezes": per squeezed robot its DOFs before and after, efforts, contact loads, convergence, notes.
  Json describe() const override;
};

}  // namespace sg
