// The registry's list of quality measures, in the order the quality dock and the CLI show them. A new
// measure adds its factory here: declaration and list entry.
#include "grasp/QualityMeasure.h"

#include <memory>

namespace sg {

std::unique_ptr<QualityMeasure> makeHullMeasure(GwsType space, bool volume);  // HullMeasures.cpp
std::unique_ptr<QualityMeasure> makeMinSingularValueMeasure();                 // GraspMatrixMeasure.cpp

std::vector<std::unique_ptr<QualityMeasure>> makeBuiltinQualityMeasures() {
  std::vector<std::unique_ptr<QualityMeasure>> m;
  m.push_back(makeHullMeasure(GwsType::L1, false));
  m.push_back(makeHullMeasure(GwsType::L1, true));
  m.push_back(makeHullMeasure(GwsType::LInfinity, false));
  m.push_back(makeHullMeasure(GwsType::LInfinity, true));
  m.push_back(makeMinSingularValueMeasure());
  return m;
}

}  // namespace sg
