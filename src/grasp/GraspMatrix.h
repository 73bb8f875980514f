#pragma once
// The grasp matrix G (QUALITY.md §Grasp matrix): the linear map from the contacts' transmitted force
// components to the net wrench on the object (object frame, origin at the centre of mass, torques / ρ like
// every wrench here). Per contact, in its object-side contact frame (n inward normal, t_x, t_y tangents, p the
// contact point): a frictionless contact transmits f_n (column [n; p×n/ρ]); a point contact with friction adds
// the tangential components ([t; p×t/ρ]); a soft finger adds a torque about the normal ([0; n/ρ]). μ does not
// enter G (it bounds the components, not the map).
#include "grasp/GraspEvaluation.h"

namespace sg {

// 6 × Σ columns, contacts in evaluation order.
MatX graspMatrix(const GraspEvaluation& evaluation);

// The smallest of G's six singular values (0 when G's rank is below 6: some wrench cannot be produced at all).
double minSingularValue(const MatX& graspMatrix);

}  // namespace sg
