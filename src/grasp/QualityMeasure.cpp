#include "grasp/QualityMeasure.h"
#include "grasp/EpsilonCold.h"

#include <memory>
#include <optional>
#include <utility>

#include "core/Error.h"
#include "core/Progress.h"

namespace sg {

std::vector<std::unique_ptr<QualityMeasure>> makeBuiltinQualityMeasures();  // BuiltinQualityMeasures.cpp

namespace {

struct Registry {
  std::vector<std::unique_ptr<QualityMeasure>> owned = makeBuiltinQualityMeasures();
  std::vector<const QualityMeasure*> measures;
  Registry() {
    for (const auto& m : owned) measures.push_back(m.get());
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

const std::vector<const QualityMeasure*>& qualityMeasures() { return registry().measures; }

const QualityMeasure* findQualityMeasure(std::string_view name) {
  for (const QualityMeasure* m : qualityMeasures())
    if (m->name() == name) return m;
  return nullptr;
}

std::vector<std::string> qualityMeasureNames() {
  std::vector<std::string> out;
  for (const QualityMeasure* m : qualityMeasures()) out.push_back(m->name());
  return out;
}

void resolveEpsilonCold(GraspEvaluation& e) {
  e.warmStart = nullptr;
  bool any = false;
  const std::pair<std::optional<SupportEpsilon>*, EpsilonSet> slots[] = {
      {&e.l1Support, EpsilonSet::L1}, {&e.lInfinitySupport, EpsilonSet::LInfinity}, {&e.exactSupport, EpsilonSet::ExactL1}};
  for (const auto& [slot, set] : slots)
    if (*slot && (*slot)->warmStarted) {
      slot->reset();
      (void)ensureSupportEpsilon(e, set);
      any = true;
    }
  if (!any) return;
  NullProgress none;
  for (MeasureValue& v : e.measures) {
    if (!v.bounds) continue;  // only the ε measures carry bounds (MeasureValue::bounds, GraspEvaluation.h)
    const QualityMeasure* m = findQualityMeasure(v.measure);
    if (!m) continue;
    MeasureValue cold = m->compute(e, none);
    cold.measure = v.measure;
    v = std::move(cold);
  }
}

void computeMeasures(GraspEvaluation& e, const std::vector<std::string>& names, ProgressSink& progress) {
  for (std::size_t k = 0; k < names.size(); ++k) {
    const std::string& name = names[k];
    const QualityMeasure* m = findQualityMeasure(name);
    if (!m) throw Error("unknown quality measure '" + name + "'");
    // Each measure its own slice of the bar, so progress only moves forward (core/Progress.h).
    const double n = static_cast<double>(names.size());
    SubProgress sub(progress, static_cast<double>(k) / n, static_cast<double>(k + 1) / n);
    MeasureValue v = m->compute(e, sub);
    v.measure = name;
    std::erase_if(e.measures, [&](const MeasureValue& old) { return old.measure == name; });
    e.measures.push_back(std::move(v));
  }
}

}  // namespace sg
