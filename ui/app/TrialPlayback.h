#pragma once
// Draws one recorded instant of a physics trial (src/sim/README.md §Result) in the viewport without touching the
// model: the scene's body transforms are set from a COPY of the state the trial started from, with the hand's
// DOF values and the object's pose of the sample, and the per-body contact forces are drawn as arrows
// (render/TrialForceNodes.h) under the scene's overlay root. end() puts the live state back and removes the
// arrows. The document, its undo stack and its state never change through playback.
#include "model/World.h"
#include "render/TrialForceNodes.h"
#include "sim/PhysicsTrial.h"

class SoSeparator;

namespace sg {
class WorldScene;
}  // namespace sg

namespace sg::app {

// `base` (the state the trial ran on) with the sample's DOF values for the trial's robot and its graspable at
// X_WP·X_PO; robot link poses and connections recomputed.
WorldState trialSampleState(const World& world, const WorldState& base, const sim::TrialResult& result,
                            const sim::TrialSample& sample);
// One arrow per hand body in contact with the object, from the sample's link forces.
std::vector<TrialForceArrow> trialForceArrows(const sim::TrialSample& sample);

class TrialPlayback {
 public:
  explicit TrialPlayback(WorldScene* scene);
  ~TrialPlayback();
  TrialPlayback(const TrialPlayback&) = delete;
  TrialPlayback& operator=(const TrialPlayback&) = delete;

  // Poses the scene's bodies as the sample has them and draws its forces.
  void show(const World& world, const WorldState& base, const sim::TrialResult& result, const sim::TrialSample& sample);
  // Back to the live state (`world.state`), no arrows. Does nothing when nothing is shown.
  void end(const World& world);
  bool active() const { return active_; }
  // The state last shown (tests); meaningful while active().
  const WorldState& shownState() const { return shown_; }
  // The overlay node holding the arrows (ref'd; child of the scene's overlay root while active).
  SoSeparator* overlay() const { return overlay_; }

 private:
  WorldScene* scene_;
  SoSeparator* overlay_;
  WorldState shown_;
  bool active_ = false;
};

}  // namespace sg::app
