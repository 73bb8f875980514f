#pragma once
// A grasp wrench space's Qhull hull and its quality as one job for the JobRunner — the L∞ space (the default) or
// the L1 space (`type`, for volume-l1 and the L1 projection): the inputs are a copy of an evaluation's per-contact
// wrenches, so the job does not depend on the model it came from.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Progress.h"
#include "grasp/GraspQuality.h"
#include "grasp/GraspWrenchSpace.h"

namespace sg::app {

struct LInfinityJob {
  std::uint64_t generation = 0;                       // the owner's model generation
  std::vector<std::vector<Vec6>> perContactWrenches;  // object frame, torques / ρ (as evaluateGrasp)
  GwsSettings gws;
  double forceClosureTolerance = 1e-9;
  GwsType type = GwsType::LInfinity;                  // the space built
};

struct LInfinityResult {
  std::uint64_t generation = 0;
  GraspWrenchSpace space;
  GraspQuality quality;
  std::string error;  // non-empty: the build threw (space/quality default)
};

// buildGws(job.type, ...) + evaluateQuality. A failure is returned in `error`; a cancel request (polled between
// the steps: the hull itself cannot be interrupted) throws Cancelled.
LInfinityResult buildLInfinity(const LInfinityJob& job, ProgressSink& progress);
// Synchronous, never cancelled.
LInfinityResult buildLInfinity(const LInfinityJob& job);

}  // namespace sg::app
