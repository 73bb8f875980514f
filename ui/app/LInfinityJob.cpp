#include "LInfinityJob.h"

#include <exception>

namespace sg::app {

LInfinityResult buildLInfinity(const LInfinityJob& job, ProgressSink& progress) {
  LInfinityResult r;
  r.generation = job.generation;
  try {
    throwIfCancelled(progress);
    const bool l1 = job.type == GwsType::L1;
    progress.report(0, l1 ? "building the L1 wrench space" : "building the L-infinity wrench space");
    r.space = buildGws(job.type, job.perContactWrenches, job.gws);
    throwIfCancelled(progress);
    // The hull is the bulk of the work; the quality only reads its facets.
    progress.report(0.9, "evaluating the quality");
    r.quality = evaluateQuality(r.space, job.forceClosureTolerance);
    progress.report(1, "quality done");
  } catch (const Cancelled&) {
    throw;  // not a failure: the runner reports it as cancelled
  } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
    r.space = GraspWrenchSpace{};
    r.space.type = job.type;
    r.quality = GraspQuality{};
    r.error = e.what();
  }
  return r;
}

LInfinityResult buildLInfinity(const LInfinityJob& job) {
  NullProgress none;
  return buildLInfinity(job, none);
}

}  // namespace sg::app
