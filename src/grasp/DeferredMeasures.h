#pragma once
// Measures computed later (QUALITY.md §Measures computed later). Every ε comes from support functions within
// analyzeGrasp; what reads a Qhull hull — the L1 and L∞ wrench spaces' hulls, their quality and the measures
// that read them (HullMeasures.h: volume-l1, volume-linf), the GWS projection — takes milliseconds (L1) to
// seconds (the L∞ Minkowski sum). An interactive front end asks analyzeGrasp for the immediate measures only
// and builds the hulls afterwards, off its GUI thread; a script calls computeDeferredMeasures and has them at
// once. The steps:
//   1. deferredHull(evaluation, type): the job's inputs, copied out of the evaluation (its own wrenches, in its
//      order, its GwsSettings with any gravity term), so the job does not depend on the world or evaluation;
//   2. markHullPending(evaluation, type): placeholders (no hull, "being built") until the result arrives;
//   3. computeDeferredHull(job, progress): buildGws + evaluateQuality, on any thread;
//   4. mergeDeferredHull(evaluation, result): the hull and its quality stored, *Built set, and every registered
//      measure that reads that hull computed from it (the hull is not built again).
#include <string>
#include <vector>

#include "core/Progress.h"
#include "grasp/GraspEvaluation.h"

namespace sg {

struct DeferredHull {
  GwsType type = GwsType::LInfinity;
  std::vector<std::vector<Vec6>> perContactWrenches;  // object frame, torques / ρ (GraspEvaluation's)
  GwsSettings gws;
  double forceClosureTolerance = 1e-9;
};

struct DeferredHullResult {
  GwsType type = GwsType::LInfinity;
  GraspWrenchSpace space;
  GraspQuality quality;
  std::string error;  // non-empty: the build threw (space and quality then default)
};

// The registered measures analyzeGrasp can compute at once (none reads a hull; none is expensive()).
std::vector<std::string> immediateMeasureNames();
// The registered measures that read the hull of `type` (computed by mergeDeferredHull).
std::vector<std::string> deferredMeasureNames(GwsType type);

DeferredHull deferredHull(const GraspEvaluation& evaluation, GwsType type);
// Until the result arrives: the space of `type` without a hull, it and its quality saying "<space> GWS: being
// built"; *Built false.
void markHullPending(GraspEvaluation& evaluation, GwsType type);
// A failure (sg::Error, Qhull's exceptions) is returned in `error`. A cancel request, polled between the steps
// (the hull itself cannot be interrupted), throws Cancelled.
DeferredHullResult computeDeferredHull(const DeferredHull& job, ProgressSink& progress);
// A failed build marks the space and its quality Failed with the error as their message; the measures reading
// it then report that.
void mergeDeferredHull(GraspEvaluation& evaluation, const DeferredHullResult& result);

// Steps 1, 3 and 4 for each of `types` in order, on the calling thread: the synchronous path. Progress is split
// evenly over the types; Cancelled propagates (the hulls merged so far stay).
void computeDeferredMeasures(GraspEvaluation& evaluation, const std::vector<GwsType>& types, ProgressSink& progress);

}  // namespace sg
