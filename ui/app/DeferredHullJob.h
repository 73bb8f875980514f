#pragma once
// One deferred hull (src/grasp/DeferredMeasures.h: the L1 or the L∞ wrench space's Qhull hull and its quality)
// as a JobRunner job: the engine's computeDeferredHull on the runner's thread, its DeferredHullResult delivered
// with the runner's finished() signal. The job owns a copy of its inputs (DeferredHull), as JobRunner requires.
#include <any>

#include "JobRunner.h"
#include "grasp/DeferredMeasures.h"

namespace sg::app {

JobRunner::Job deferredHullJob(DeferredHull hull);
// The result of such a job, or null for anything else.
const DeferredHullResult* deferredHullResult(const std::any& result);

}  // namespace sg::app
