#include "GraspMotions.h"

namespace sg::app {

HandMotionRequest approachMotion() {
  HandMotionRequest m;
  m.approach = true;
  m.approachDistance_mm = kApproachToContact_mm;
  return m;
}

HandMotionRequest autoGraspMotion() {
  HandMotionRequest m;
  m.fingers = FingerMotion::Close;
  return m;
}

HandMotionRequest approachAndGraspMotion() {
  HandMotionRequest m;
  m.approach = true;
  m.approachDistance_mm = kApproachBeforeGrasp_mm;
  m.fingers = FingerMotion::Close;
  return m;
}

HandMotionRequest autoOpenMotion() {
  HandMotionRequest m;
  m.fingers = FingerMotion::Open;
  return m;
}

HandMotionRequest menuMotion(bool approach, bool autoGrasp) {
  if (approach && autoGrasp) return approachAndGraspMotion();
  if (approach) return approachMotion();
  if (autoGrasp) return autoGraspMotion();
  return {};
}

}  // namespace sg::app
