#pragma once
// A warm-started evaluation solved again cold, for a live view that is warm and an export that must be the CLI's:
// src/grasp/QUALITY.md §Live warm and export cold
// Kept out of QualityMeasure.h, which most of the engine and the application include.

#include "grasp/GraspEvaluation.h"

namespace sg {

// The support-function ε of `evaluation` that were warm-started, solved again cold, and every measure that carries
// ε bounds recomputed in its place (the list keeps its order): the values, bounds and iteration counts of a cold
// analysis, the CLI's. The other measures are kept. A no-op when no ε was warm-started.
void resolveEpsilonCold(GraspEvaluation& evaluation);

}  // namespace sg
