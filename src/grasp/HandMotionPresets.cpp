#include "grasp/HandMotionPresets.h"

namespace sg {

namespace {

HandMotionRequest motion(bool approach, double distance_mm, FingerMotion fingers) {
  HandMotionRequest r;
  r.approach = approach;
  r.approachDistance_mm = distance_mm;
  r.fingers = fingers;
  return r;
}

}  // namespace

const std::vector<HandMotionPresetEntry>& handMotionPresets() {
  static const std::vector<HandMotionPresetEntry> table{
      {HandMotionPreset::None, "none", motion(false, kApproachBeforeGrasp_mm, FingerMotion::Keep)},
      {HandMotionPreset::Approach, "approach", motion(true, kApproachBeforeGrasp_mm, FingerMotion::Keep)},
      {HandMotionPreset::ApproachToContact, "approach-to-contact",
       motion(true, kApproachToContact_mm, FingerMotion::Keep)},
      {HandMotionPreset::AutoGrasp, "auto-grasp", motion(false, kApproachBeforeGrasp_mm, FingerMotion::Close)},
      {HandMotionPreset::ApproachAndGrasp, "approach-and-grasp",
       motion(true, kApproachBeforeGrasp_mm, FingerMotion::Close)},
      {HandMotionPreset::AutoOpen, "auto-open", motion(false, kApproachBeforeGrasp_mm, FingerMotion::Open)},
  };
  return table;
}

HandMotionRequest presetMotion(HandMotionPreset preset) {
  for (const HandMotionPresetEntry& e : handMotionPresets())
    if (e.preset == preset) return e.request;
  return {};
}

HandMotionRequest switchesMotion(bool approach, FingerMotion fingers) {
  switch (fingers) {
    case FingerMotion::Keep:
      return presetMotion(approach ? HandMotionPreset::Approach : HandMotionPreset::None);
    case FingerMotion::Close:
      return presetMotion(approach ? HandMotionPreset::ApproachAndGrasp : HandMotionPreset::AutoGrasp);
    case FingerMotion::Open:
      break;
  }
  HandMotionRequest r = presetMotion(HandMotionPreset::AutoOpen);
  r.approach = approach;  // approach then auto-open: the same default distance
  return r;
}

}  // namespace sg
