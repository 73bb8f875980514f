#include "grasp/DeferredMeasures.h"

#include <exception>

#include "grasp/HullMeasures.h"
#include "grasp/QualityMeasure.h"

namespace sg {

namespace {

const char* spaceName(GwsType type) { return type == GwsType::L1 ? "L1" : "L-infinity"; }

GraspWrenchSpace& spaceOf(GraspEvaluation& e, GwsType type) { return type == GwsType::L1 ? e.l1 : e.lInfinity; }
GraspQuality& qualityOf(GraspEvaluation& e, GwsType type) {
  return type == GwsType::L1 ? e.l1Quality : e.lInfinityQuality;
}
bool& builtOf(GraspEvaluation& e, GwsType type) { return type == GwsType::L1 ? e.l1Built : e.lInfinityBuilt; }

}  // namespace

std::vector<std::string> immediateMeasureNames() {
  std::vector<std::string> names;
  for (const QualityMeasure* m : qualityMeasures())
    if (!m->expensive() && !wrenchSpaceHull(*m)) names.push_back(m->name());
  return names;
}

std::vector<std::string> deferredMeasureNames(GwsType type) {
  std::vector<std::string> names;
  for (const QualityMeasure* m : qualityMeasures())
    if (wrenchSpaceHull(*m) == type) names.push_back(m->name());
  return names;
}

DeferredHull deferredHull(const GraspEvaluation& evaluation, GwsType type) {
  DeferredHull job;
  job.type = type;
  job.perContactWrenches = evaluation.perContactWrenches();
  job.gws = evaluation.gws;
  job.forceClosureTolerance = evaluation.forceClosureTolerance;
  return job;
}

void markHullPending(GraspEvaluation& evaluation, GwsType type) {
  const std::string message = std::string(spaceName(type)) + " GWS: being built";
  GraspWrenchSpace& space = spaceOf(evaluation, type);
  const std::array<bool, 6> dimensions = evaluation.gws.dimensions;
  space = GraspWrenchSpace{};
  space.type = type;
  space.dimensions = dimensions;
  space.hull.message = message;
  GraspQuality& quality = qualityOf(evaluation, type);
  quality = GraspQuality{};
  quality.message = message;
  builtOf(evaluation, type) = false;
}

DeferredHullResult computeDeferredHull(const DeferredHull& job, ProgressSink& progress) {
  DeferredHullResult r;
  r.type = job.type;
  try {
    throwIfCancelled(progress);
    progress.report(0, std::string("building the ") + spaceName(job.type) + " wrench space");
    r.space = buildGws(job.type, job.perContactWrenches, job.gws);
    throwIfCancelled(progress);
    // The hull is the bulk of the work; the quality only reads its facets.
    progress.report(0.9, "evaluating the quality");
    r.quality = evaluateQuality(r.space, job.forceClosureTolerance);
    progress.report(1, "quality done");
  } catch (const Cancelled&) {
    throw;  // not a failure
  } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
    r.space = GraspWrenchSpace{};
    r.space.type = job.type;
    r.quality = GraspQuality{};
    r.error = e.what();
  }
  return r;
}

void mergeDeferredHull(GraspEvaluation& evaluation, const DeferredHullResult& result) {
  GraspWrenchSpace& space = spaceOf(evaluation, result.type);
  GraspQuality& quality = qualityOf(evaluation, result.type);
  space = result.space;
  quality = result.quality;
  if (!result.error.empty()) {
    space.hull.status = HullStatus::Failed;
    space.hull.message = result.error;
    quality.hullStatus = HullStatus::Failed;
    quality.message = result.error;
  }
  builtOf(evaluation, result.type) = true;  // so the measures below read it instead of building it again
  NullProgress none;
  computeMeasures(evaluation, deferredMeasureNames(result.type), none);
}

void computeDeferredMeasures(GraspEvaluation& evaluation, const std::vector<GwsType>& types, ProgressSink& progress) {
  const double n = static_cast<double>(types.size());
  for (std::size_t i = 0; i < types.size(); ++i) {
    SubProgress part(progress, static_cast<double>(i) / n, static_cast<double>(i + 1) / n);
    mergeDeferredHull(evaluation, computeDeferredHull(deferredHull(evaluation, types[i]), part));
  }
}

}  // namespace sg
