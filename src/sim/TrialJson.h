#pragma once
// JSON of physics trials (docs/schemas/validation.schema.json; README.md §Result): the summary a front end
// prints per grasp, per direction held/displacement/rotation and the score. Trajectories stay in TrialResult
// (a player reads them from there).
#include "core/JsonFormat.h"
#include "sim/PhysicsTrial.h"

namespace sg::sim {

inline const JsonFormat kValidationFormat{"validation", 1};

// {"settle_s", "duration_s", "gravity_mps2", "timestep_s", "heldDisplacement_mm", "heldRotation_deg",
//  "impratio", "poisson", "directions": ["x+", ...]}
Json trialSettingsJson(const TrialSettings& settings);

// {"score", "held", "tried", "settleDisplacement_mm", "objectPieces", "objectVolumeError",
//  "directions": [{"direction", "held", "displacement_mm", "rotation_deg", "finalDisplacement_mm", "diverged",
//  "peakContactForce_N", "peakSlip_mm_s"}]}
Json trialSummaryJson(const TrialResult& result);

}  // namespace sg::sim
