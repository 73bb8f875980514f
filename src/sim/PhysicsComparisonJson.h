#pragma once
// The softgrasp.physics-prediction document (docs/schemas/physics-prediction.schema.json) of a comparePhysics
// result: what `softgrasp-cli compare --against-physics --json` prints and the application's Measures vs Physics
// window saves, so both write one format and version (kPhysicsPredictionFormat). ui/shared/
// PhysicsPredictionTable.h reads it back.
#include <string>
#include <vector>

#include "core/Json.h"
#include "sim/PhysicsComparison.h"

namespace sg::sim {

// The whole document, tagged {"format", "version"} first. `files` names the worlds in the order comparePhysics
// had them (samples[].file indexes it); `warnings` are the worlds' load warnings, one line each. The run's
// parameters (seeds, iterations, keep, trial settings, success score) come from `request`.
Json physicsComparisonJson(const PhysicsComparison& comparison, const PhysicsComparisonRequest& request,
                           const std::vector<std::string>& files, const std::vector<std::string>& warnings);

}  // namespace sg::sim
