#include "QualityOverlay.h"

#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>

#include "GraspAnalysis.h"
#include "render/GraspOverlay.h"

namespace sg::app {

QualityOverlay::QualityOverlay(GraspAnalysis* analysis, SoSeparator* overlayRoot, QObject* parent)
    : QObject(parent), analysis_(analysis), overlayRoot_(overlayRoot) {
  overlayRoot_->ref();
  switch_ = new SoSwitch;
  switch_->setName("qualityOverlay");
  switch_->ref();
  content_ = new SoSeparator;
  switch_->addChild(content_);
  switch_->whichChild = SO_SWITCH_ALL;
  options_.contacts = false;  // the ContactOverlay's
  overlayRoot_->addChild(switch_);
  connect(analysis_, &GraspAnalysis::updated, this, &QualityOverlay::rebuild);
  rebuild();
}

QualityOverlay::~QualityOverlay() {
  overlayRoot_->removeChild(switch_);
  switch_->unref();
  overlayRoot_->unref();
}

void QualityOverlay::setVisible(bool on) {
  visible_ = on;
  switch_->whichChild = on ? SO_SWITCH_ALL : SO_SWITCH_NONE;
  emit changed();
}

void QualityOverlay::setForceArrowsVisible(bool on) {
  if (options_.contactForces == on) return;
  options_.contactForces = on;
  rebuild();
}

std::vector<OverlayLegendEntry> QualityOverlay::legend() const {
  if (!visible_) return {};
  const auto& evaluation = analysis_->evaluation();
  return graspOverlayLegend(evaluation ? &*evaluation : nullptr, options_);
}

void QualityOverlay::rebuild() {
  content_->removeAllChildren();
  const auto& evaluation = analysis_->evaluation();
  counts_ = {};
  content_->addChild(makeEvaluationOverlayNode(evaluation ? &*evaluation : nullptr, options_, &counts_));
  emit changed();
}

}  // namespace sg::app
