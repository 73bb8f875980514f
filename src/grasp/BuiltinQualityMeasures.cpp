// The registry's list of quality measures, in the order the quality dock and the CLI show them. A new
// measure adds its factory here: declaration and list entry.
#include "grasp/QualityMeasure.h"

#include <memory>

namespace sg {

std::unique_ptr<QualityMeasure> makeSupportEpsilonMeasure(EpsilonSet set);     // SupportMeasures.cpp
std::unique_ptr<QualityMeasure> makeHullVolumeMeasure(GwsType space);         // HullMeasures.cpp
std::unique_ptr<QualityMeasure> makeMinSingularValueMeasure();                 // GraspMatrixMeasure.cpp

std::vector<std::unique_ptr<QualityMeasure>> makeBuiltinQualityMeasures() {
  std::vector<std::unique_ptr<QualityMeasure>> m;
  m.push_back(makeSupportEpsilonMeasure(EpsilonSet::L1));
  m.push_back(makeHullVolumeMeasure(GwsType::L1));
  m.push_back(makeSupportEpsilonMeasure(EpsilonSet::LInfinity));
  m.push_back(makeHullVolumeMeasure(GwsType::LInfinity));
  m.push_back(makeSupportEpsilonMeasure(EpsilonSet::ExactL1));
  m.push_back(makeMinSingularValueMeasure());
  return m;
}

}  // namespace sg
