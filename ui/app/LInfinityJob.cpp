#include "LInfinityJob.h"

#include <exception>

namespace sg::app {

LInfinityResult buildLInfinity(const LInfinityJob& job, ProgressSink& progress) {
  LInfinityResult r;
  r.generation = job.generation;
  try {
    throwIfCancelled(progress);
    progress.report(0, "building the L-infinity wrench space");
    r.space = buildLInfinityGws(job.perContactWrenches, job.gws);
    throwIfCancelled(progress);
    // The hull is the bulk of the work; the quality only reads its facets.
    progress.report(0.9, "evaluating the L-infinity quality");
    r.quality = evaluateQuality(r.space, job.forceClosureTolerance);
    progress.report(1, "L-infinity quality done");
  } catch (const Cancelled&) {
    throw;  // not a failure: the runner reports it as cancelled
  } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
    r.space = GraspWrenchSpace{};
    r.space.type = GwsType::LInfinity;
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
