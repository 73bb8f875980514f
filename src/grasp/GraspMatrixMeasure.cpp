// σ_min of the grasp matrix (GraspMatrix.h; QUALITY.md §Grasp matrix): how close the grasp is to losing the
// ability to resist some wrench direction (Li and Sastry's smallest-singular-value measure). No hull needed.
#include "grasp/GraspMatrix.h"
#include "grasp/QualityMeasure.h"

#include <memory>

namespace sg {

namespace {

class MinSingularValueMeasure final : public QualityMeasure {
 public:
  std::string name() const override { return "min-singular-value"; }
  std::string label() const override { return "σmin(G)"; }
  std::string description() const override {
    return "smallest singular value of the grasp matrix (object frame, torques / ρ): 0 when some wrench "
           "cannot be produced by the contacts at all";
  }
  MeasureValue compute(GraspEvaluation& e, ProgressSink&) const override {
    const MatX G = graspMatrix(e);
    MeasureValue v;
    v.value = minSingularValue(G);
    v.ok = true;
    if (G.cols() < 6) v.message = "fewer than six transmitted force components: rank below 6";
    return v;
  }
};

}  // namespace

std::unique_ptr<QualityMeasure> makeMinSingularValueMeasure() { return std::make_unique<MinSingularValueMeasure>(); }

}  // namespace sg
