#pragma once
// The bundled default world (ThreeFinger hand over the mug) with the hand approached and closed on the mug by the
// engine alone (no application): the grasp the engine suites analyse.
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "TestPaths.h"

namespace sgtest {

inline sg::World graspedDefaultWorld() {
  sg::World w = sg::loadWorld(sg::test::inSourceTree("worlds/default.xml"));
  sg::AnalysisRequest request;
  request.motion.approach = true;
  request.motion.fingers = sg::FingerMotion::Close;
  request.contactModels.clear();
  request.measures.clear();
  sg::NullProgress progress;
  sg::runAnalysis(w, request, progress);
  return w;
}

}  // namespace sgtest
