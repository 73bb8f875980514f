#pragma once
// The bundled default world (ThreeFinger hand over the mug) with the hand approached and closed on the mug by the
// engine alone (no application): the grasp the engine suites analyse.
#include <string>

#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "TestPaths.h"

namespace sgtest {

// The world at `path` with its hand closed by the engine (approached first when `approach`), no contact model and
// no measure: as `softgrasp-cli validate --autograsp [--approach]` closes it.
inline sg::World closedHandWorld(const std::string& path, bool approach) {
  sg::World w = sg::loadWorld(path);
  sg::AnalysisRequest request;
  request.motion.approach = approach;
  request.motion.fingers = sg::FingerMotion::Close;
  request.contactModels.clear();
  request.measures.clear();
  sg::NullProgress progress;
  sg::runAnalysis(w, request, progress);
  return w;
}

inline sg::World graspedDefaultWorld() { return closedHandWorld(sg::test::inSourceTree("worlds/default.xml"), true); }

}  // namespace sgtest
