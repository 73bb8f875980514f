#pragma once
// The grasp force optimisation's result as JSON (FORCES.md §Output; docs/schemas/hold.schema.json's
// `models[]`): the polytopes, the loaded DOFs with their efforts, per load its outcome, the joint torques and
// every contact's force. Non-finite numbers (t of a load no forces balance) are written as null.
#include "core/Json.h"
#include "grasp/forces/GraspForceOptimization.h"

namespace sg {

Json holdJson(const World& world, const HoldResult& result);

}  // namespace sg
