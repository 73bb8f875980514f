#include "HoldForcesOverlay.h"

#include <cmath>

#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>

#include "Document.h"
#include "GraspAnalysis.h"
#include "core/Error.h"
#include "render/HoldForceNodes.h"

namespace sg::app {

HoldForcesOverlay::HoldForcesOverlay(Document* doc, GraspAnalysis* analysis, SoSeparator* overlayRoot, QObject* parent)
    : QObject(parent), doc_(doc), analysis_(analysis), overlayRoot_(overlayRoot) {
  overlayRoot_->ref();
  switch_ = new SoSwitch;
  switch_->setName("holdForcesOverlay");
  switch_->ref();
  content_ = new SoSeparator;
  switch_->addChild(content_);
  switch_->whichChild = SO_SWITCH_NONE;
  overlayRoot_->addChild(switch_);
  connect(analysis_, &GraspAnalysis::updated, this, &HoldForcesOverlay::rebuild);
}

HoldForcesOverlay::~HoldForcesOverlay() {
  overlayRoot_->removeChild(switch_);
  switch_->unref();
  overlayRoot_->unref();
}

void HoldForcesOverlay::setDirection(const QString& direction) {
  if (direction == direction_) return;
  direction_ = direction;
  rebuild();
}

void HoldForcesOverlay::rebuild() {
  content_->removeAllChildren();
  arrows_ = 0;
  shown_.clear();
  summary_.clear();
  switch_->whichChild = direction_.isEmpty() ? SO_SWITCH_NONE : SO_SWITCH_ALL;
  const auto& evaluation = analysis_->evaluation();
  const int graspable = analysis_->graspableIndex();
  if (direction_.isEmpty()) {
    emit changed();
    return;
  }
  if (!evaluation || graspable < 0 || evaluation->contacts.empty()) {
    summary_ = tr("Holding forces: no grasp (no contacts on a graspable body)");
    emit changed();
    return;
  }
  const World& world = doc_->world();
  try {
    const Body& object = world.graspables[static_cast<std::size_t>(graspable)];
    const HoldResult hold = analyzeHold(world, world.state, *evaluation, object, weightLoads(object, {"all"}));
    std::size_t pick = hold.worst >= 0 ? static_cast<std::size_t>(hold.worst) : 0;
    for (std::size_t k = 0; k < hold.directions.size(); ++k)
      if (QString::fromStdString(hold.directions[k].load.label) == direction_) pick = k;
    const HoldDirection& d = hold.directions[pick];
    shown_ = QString::fromStdString(d.load.label);
    content_->addChild(makeHoldForcesNode(d, {}, &arrows_));
    const QString which = direction_ == QLatin1String("worst") ? tr(" (worst)") : QString();
    if (!d.balanced)
      summary_ = tr("Holding forces, weight along %1%2: not held (no forces in the friction sets balance it)")
                     .arg(shown_, which);
    else
      summary_ = tr("Holding forces, weight along %1%2: %3, busiest DOF at %4 % of its effort")
                     .arg(shown_, which, d.held ? tr("held") : tr("not held"))
                     .arg(std::round(d.effortRatio * 1000) / 10);
  } catch (const Error& e) {
    summary_ = tr("Holding forces: %1").arg(QString::fromUtf8(e.what()));
  }
  emit changed();
}

}  // namespace sg::app
