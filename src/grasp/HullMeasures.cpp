// Volume of the L1 and L∞ grasp wrench spaces (QUALITY.md §Measures), read off the 6-D Qhull hull that
// ensureWrenchSpace builds once per evaluation and space. (ε comes from support functions: SupportMeasures.cpp.)
#include "grasp/HullMeasures.h"

#include "grasp/QualityMeasure.h"

#include <memory>

namespace sg {

namespace {

class HullMeasure final : public QualityMeasure {
 public:
  explicit HullMeasure(GwsType space) : space_(space) {}
  std::string name() const override { return std::string("volume-") + (space_ == GwsType::L1 ? "l1" : "linf"); }
  std::string label() const override { return std::string("Volume ") + (space_ == GwsType::L1 ? "L1" : "L∞"); }
  std::string description() const override {
    const std::string space = space_ == GwsType::L1 ? "L1 (sum of normal forces ≤ 1)" : "L∞ (each normal force ≤ 1)";
    std::string d = "volume of the " + space + " grasp wrench space (its Qhull hull)";
    if (space_ == GwsType::LInfinity) d += "; the hull of the Minkowski sum, not built over its point limit";
    return d;
  }
  // The L∞ hull of the Minkowski sum can take seconds.
  bool expensive() const override { return space_ == GwsType::LInfinity; }
  std::optional<GwsType> hullSpace() const override { return space_; }
  MeasureValue compute(GraspEvaluation& e, ProgressSink&) const override {
    ensureWrenchSpace(e, space_);
    const GraspWrenchSpace& gws = space_ == GwsType::L1 ? e.l1 : e.lInfinity;
    const GraspQuality& q = space_ == GwsType::L1 ? e.l1Quality : e.lInfinityQuality;
    MeasureValue v;
    v.value = q.volume;
    v.ok = q.hullStatus == HullStatus::Ok && !gws.limitExceeded;
    v.message = gws.limitExceeded ? gws.hull.message : q.message;
    return v;
  }

 private:
  GwsType space_;
};

}  // namespace

std::optional<GwsType> wrenchSpaceHull(const QualityMeasure& measure) {
  return measure.hullSpace();
}

std::unique_ptr<QualityMeasure> makeHullVolumeMeasure(GwsType space) {
  return std::make_unique<HullMeasure>(space);
}

}  // namespace sg
