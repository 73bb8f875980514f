#pragma once
// Grasp quality measures through one registry (src/grasp/QUALITY.md §Measures). A measure reads a model's
// GraspEvaluation (contacts, wrenches, lazily computed support-function ε's and Qhull wrench spaces) and gives one
// number (with certified bounds for the iterative ε's). Adding a measure =
// one implementation + one line in BuiltinQualityMeasures.cpp; the quality dock, the CLI's text and JSON list
// whatever is registered.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Progress.h"
#include "grasp/GraspEvaluation.h"

namespace sg {

class QualityMeasure {
 public:
  virtual ~QualityMeasure() = default;
  // Stable key for the CLI, JSON and stored settings: "epsilon-l1", "volume-linf", "min-singular-value".
  virtual std::string name() const = 0;
  // Shown in the application and the CLI's text ("ε L1").
  virtual std::string label() const = 0;
  virtual std::string description() const = 0;
  // True when it can take seconds (the L∞ hull of a Minkowski sum): the application computes it off the GUI thread.
  virtual bool expensive() const { return false; }
  // The wrench space whose Qhull hull the measure reads (the volumes: HullMeasures.h), or nullopt (every ε).
  virtual std::optional<GwsType> hullSpace() const { return std::nullopt; }
  // Computes the value; may compute the evaluation's support ε (ensureSupportEpsilon) or build its hulls
  // (ensureWrenchSpace, volumes only). Throws only on
  // programming errors: a value that cannot be had is ok = false with a message.
  virtual MeasureValue compute(GraspEvaluation& evaluation, ProgressSink& progress) const = 0;
};

const std::vector<const QualityMeasure*>& qualityMeasures();
const QualityMeasure* findQualityMeasure(std::string_view name);
// Every registered measure's name, in registry order (what the CLI computes by default).
std::vector<std::string> qualityMeasureNames();

// Computes the named measures into evaluation.measures (replacing earlier values of the same measures).
// sg::Error for an unknown name.
void computeMeasures(GraspEvaluation& evaluation, const std::vector<std::string>& names, ProgressSink& progress);

}  // namespace sg
