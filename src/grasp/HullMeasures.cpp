// ε and volume of the L1 and L∞ grasp wrench spaces (QUALITY.md §Measures), read off the 6-D hull that
// ensureWrenchSpace builds once per evaluation and space.
#include "grasp/QualityMeasure.h"

#include <memory>

namespace sg {

namespace {

class HullMeasure final : public QualityMeasure {
 public:
  HullMeasure(GwsType space, bool volume) : space_(space), volume_(volume) {}
  std::string name() const override {
    return std::string(volume_ ? "volume-" : "epsilon-") + (space_ == GwsType::L1 ? "l1" : "linf");
  }
  std::string label() const override {
    return std::string(volume_ ? "Volume " : "ε ") + (space_ == GwsType::L1 ? "L1" : "L∞");
  }
  std::string description() const override {
    const std::string space = space_ == GwsType::L1 ? "L1 (sum of normal forces ≤ 1)" : "L∞ (each normal force ≤ 1)";
    return volume_ ? "volume of the " + space + " grasp wrench space"
                   : "Ferrari–Canny ε of the " + space + " grasp wrench space: the distance from the origin to "
                     "its nearest facet (negative outside)";
  }
  bool expensive() const override { return space_ == GwsType::LInfinity; }
  MeasureValue compute(GraspEvaluation& e, ProgressSink&) const override {
    ensureWrenchSpace(e, space_);
    const GraspWrenchSpace& gws = space_ == GwsType::L1 ? e.l1 : e.lInfinity;
    const GraspQuality& q = space_ == GwsType::L1 ? e.l1Quality : e.lInfinityQuality;
    MeasureValue v;
    v.value = volume_ ? q.volume : q.epsilon;
    v.ok = q.hullStatus == HullStatus::Ok && !gws.limitExceeded;
    v.message = gws.limitExceeded ? gws.hull.message : q.message;
    return v;
  }

 private:
  GwsType space_;
  bool volume_;
};

}  // namespace

std::unique_ptr<QualityMeasure> makeHullMeasure(GwsType space, bool volume) {
  return std::make_unique<HullMeasure>(space, volume);
}

}  // namespace sg
