#pragma once
// softgrasp-cli compare WORLD --against-physics [--world FILE]... (src/sim/README.md §Measures against physics):
// plan each world with a few seeds, run the physics trial on every kept grasp and report per contact model and
// measure the ROC AUC and Spearman correlation against the trial score.
#include <vector>

#include "OptionParser.h"

namespace sg::cli {

// compare's options that only --against-physics takes (--world, --seeds, --iterations, --threads, --duration,
// --success-score).
std::vector<OptionSpec> againstPhysicsOptions();

int runCompareAgainstPhysics(const ParsedArgs& args);

}  // namespace sg::cli
