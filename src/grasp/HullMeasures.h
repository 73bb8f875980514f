#pragma once
// Which registered quality measures read a Qhull wrench space (the volumes, HullMeasures.cpp). Building such a
// hull takes milliseconds (L1) to seconds (the L∞ Minkowski sum), so the application computes these measures off
// the GUI thread (ui/app/GraspAnalysis.h); every ε comes from support functions and needs none.
#include <optional>

#include "grasp/GraspWrenchSpace.h"

namespace sg {

class QualityMeasure;

// The space whose hull the measure reads (volume-l1: L1, volume-linf: L∞); nullopt for every other measure.
std::optional<GwsType> wrenchSpaceHull(const QualityMeasure& measure);

}  // namespace sg
