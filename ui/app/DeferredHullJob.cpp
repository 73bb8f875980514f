#include "DeferredHullJob.h"

#include <utility>

namespace sg::app {

JobRunner::Job deferredHullJob(DeferredHull hull) {
  return [hull = std::move(hull)](ProgressSink& progress) -> std::any { return computeDeferredHull(hull, progress); };
}

const DeferredHullResult* deferredHullResult(const std::any& result) {
  return JobRunner::resultAs<DeferredHullResult>(result);
}

}  // namespace sg::app
