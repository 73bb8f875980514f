// consumer WORLD: the ThreeFinger hand of WORLD approached and closed (as softgrasp-cli quality --approach
// --autograsp), then ε L1 of the soft-finger grasp, printed as "epsilon-l1 VALUE" and "forceClosure 0|1".
// Built against the installed engine only (tests/install/consumer/CMakeLists.txt). Exit 0 when the analysis
// ran and found force closure with a positive ε, 1 otherwise.
#include <cstdio>
#include <exception>

#include "core/NumberFormat.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "grasp/HandMotionPresets.h"
#include "io/ModelIO.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer WORLD\n");
    return 2;
  }
  try {
    sg::World world = sg::loadWorld(argv[1]);
    sg::AnalysisRequest request;
    request.motion = sg::switchesMotion(true, sg::FingerMotion::Close);
    request.measures = {"epsilon-l1"};
    sg::NullProgress progress;
    const sg::AnalysisResult result = sg::runAnalysis(world, request, progress);
    const sg::GraspEvaluation* grasp = result.primary();
    const sg::MeasureValue* epsilon = grasp ? grasp->measure("epsilon-l1") : nullptr;
    if (!epsilon || !epsilon->ok) {
      std::fprintf(stderr, "consumer: no epsilon-l1 for %s\n", argv[1]);
      return 1;
    }
    std::printf("epsilon-l1 %s\nforceClosure %d\n", sg::formatDouble(epsilon->value).c_str(),
                grasp->forceClosure() ? 1 : 0);
    return grasp->forceClosure() && epsilon->value > 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
