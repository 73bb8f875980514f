#include "TrialPlayback.h"

#include <Inventor/nodes/SoSeparator.h>

#include "render/SceneBuilder.h"

namespace sg::app {

WorldState trialSampleState(const World& world, const WorldState& base, const sim::TrialResult& result,
                            const sim::TrialSample& sample) {
  WorldState state = base;
  if (result.robot >= 0 && static_cast<std::size_t>(result.robot) < world.robots.size() && !sample.dofValues.empty())
    setDofValues(world.robots[static_cast<std::size_t>(result.robot)],
                 state.robots[static_cast<std::size_t>(result.robot)], sample.dofValues);
  if (result.graspable >= 0 && static_cast<std::size_t>(result.graspable) < state.X_WG.size())
    state.X_WG[static_cast<std::size_t>(result.graspable)] = result.X_WP * sample.X_PO;  // X_PO: palm frame
  updateConnections(world, state);
  return state;
}

std::vector<TrialForceArrow> trialForceArrows(const sim::TrialSample& sample) {
  std::vector<TrialForceArrow> arrows;
  for (const sim::LinkContactSample& link : sample.links)
    if (link.contacts > 0) arrows.push_back({link.p_W_mm, link.force_W_N});
  return arrows;
}

TrialPlayback::TrialPlayback(WorldScene* scene) : scene_(scene), overlay_(new SoSeparator) {
  overlay_->ref();
  overlay_->setName("trialPlayback");
}

TrialPlayback::~TrialPlayback() {
  if (active_ && scene_) scene_->overlayRoot()->removeChild(overlay_);
  overlay_->unref();
}

void TrialPlayback::show(const World& world, const WorldState& base, const sim::TrialResult& result,
                         const sim::TrialSample& sample) {
  shown_ = trialSampleState(world, base, result, sample);
  overlay_->removeAllChildren();
  overlay_->addChild(makeTrialForceArrowsNode(trialForceArrows(sample)));
  if (scene_) {
    scene_->updatePoses(world, shown_);
    if (scene_->overlayRoot()->findChild(overlay_) < 0) scene_->overlayRoot()->addChild(overlay_);
  }
  active_ = true;
}

void TrialPlayback::end(const World& world) {
  if (!active_) return;
  active_ = false;
  overlay_->removeAllChildren();
  if (scene_) {
    scene_->overlayRoot()->removeChild(overlay_);
    scene_->updatePoses(world);
  }
}

}  // namespace sg::app
