// ε of the L1, L∞ and exact-cone sets from support functions (QUALITY.md "ε from support functions"): no hull
// and no Minkowski sum is built. Each value carries its certified bounds, the weakest direction and the number
// of support queries (MeasureValue::bounds).
#include "core/NumberFormat.h"
#include "grasp/QualityMeasure.h"

#include <memory>

namespace sg {

namespace {

std::string formatGap(double gap) { return formatGeneral(gap, 3); }

// Why a grasp that is not force closure has ε L∞ = 0 rather than a negative value (QUALITY.md "One sign rule").
constexpr const char* kLInfinityHoldsOrigin =
    "not force closure: the origin is on the boundary of the L∞ space (every contact may push with 0, so the "
    "space always holds the origin): ε L∞ = −distance = 0";

// The measure's value from a solver result: ε when converged (or certain to be no force closure), the certified
// lower bound when the budget ran out (with the gap in the message); ok = false only when there is no value
// (no contacts, invalid input). One sign rule for every set: ε > 0 inside, −dist(0, W) outside, 0 on the
// boundary (a flat set that holds the origin).
MeasureValue measureValueOf(const SupportEpsilon& r, EpsilonSet set) {
  MeasureValue v;
  MeasureBounds b;
  b.lower = r.lowerBound;
  b.upper = r.upperBound;
  b.iterations = r.iterations;
  b.status = toString(r.status);
  b.weakestDirection = r.weakestDirection;
  b.converged = r.status == SupportEpsilonStatus::Converged;
  v.bounds = b;
  switch (r.status) {
    case SupportEpsilonStatus::Converged:
    case SupportEpsilonStatus::StoppedEarly:
      v.value = r.epsilon;
      v.ok = true;
      if (!r.forceClosure)
        v.message = r.status == SupportEpsilonStatus::StoppedEarly ? "not force closure"
                    : set == EpsilonSet::LInfinity && r.originInside ? kLInfinityHoldsOrigin
                    : r.originInside ? "not force closure: the origin is on the boundary of the set"
                                     : "not force closure: ε = −(distance from the origin to the set)";
      if (r.message.find("fewer dimensions") != std::string::npos) v.message += " (" + r.message + ")";
      break;
    case SupportEpsilonStatus::NotConverged:
      v.value = r.lowerBound;
      v.ok = true;
      v.message = "not converged after " + std::to_string(r.iterations) + " support queries: the value is the "
                  "certified lower bound, gap " + formatGap(r.upperBound - r.lowerBound) + " (upper bound " +
                  formatGap(r.upperBound) + ")";
      if (!r.message.empty() && r.message != toString(r.status)) v.message += "; " + r.message;
      break;
    case SupportEpsilonStatus::Flat:  // the origin in a set without interior: on its boundary, ε = 0
      v.value = 0;
      v.ok = true;
      v.message = (set == EpsilonSet::LInfinity ? std::string(kLInfinityHoldsOrigin)
                                                : std::string("not force closure: the origin is on the boundary of the set")) +
                  " (" + (r.message.empty() ? toString(r.status) : r.message) + ")";
      break;
    case SupportEpsilonStatus::Empty:
    case SupportEpsilonStatus::InvalidInput:
      v.value = r.epsilon;  // 0
      v.ok = false;
      v.message = r.message.empty() ? toString(r.status) : r.message;
      break;
  }
  return v;
}

class SupportEpsilonMeasure final : public QualityMeasure {
 public:
  explicit SupportEpsilonMeasure(EpsilonSet set) : set_(set) {}
  std::string name() const override {
    switch (set_) {
      case EpsilonSet::L1: return "epsilon-l1";
      case EpsilonSet::LInfinity: return "epsilon-linf";
      case EpsilonSet::ExactL1: return "epsilon-exact";
    }
    return {};
  }
  std::string label() const override {
    switch (set_) {
      case EpsilonSet::L1: return "ε L1";
      case EpsilonSet::LInfinity: return "ε L∞";
      case EpsilonSet::ExactL1: return "ε exact cones";
    }
    return {};
  }
  std::string description() const override {
    const std::string how = ": the distance from the origin to the boundary of the set (negative outside: minus "
                            "the distance to the set), computed from its support function with certified "
                            "lower and upper bounds";
    switch (set_) {
      case EpsilonSet::L1: return "Ferrari–Canny ε of the L1 grasp wrench space (sum of normal forces ≤ 1)" + how;
      case EpsilonSet::LInfinity:
        return "Ferrari–Canny ε of the L∞ grasp wrench space (each normal force ≤ 1)" + how;
      case EpsilonSet::ExactL1:
        return "ε of the L1 space of the exact friction sets (circular cones; elliptic soft-finger limit "
               "surfaces) instead of their linearised edges; never below ε L1" + how;
    }
    return {};
  }
  MeasureValue compute(GraspEvaluation& e, ProgressSink&) const override {
    return measureValueOf(ensureSupportEpsilon(e, set_), set_);
  }

 private:
  EpsilonSet set_;
};

}  // namespace

std::unique_ptr<QualityMeasure> makeSupportEpsilonMeasure(EpsilonSet set) {
  return std::make_unique<SupportEpsilonMeasure>(set);
}

}  // namespace sg
