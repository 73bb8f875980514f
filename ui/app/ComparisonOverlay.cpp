#include "ComparisonOverlay.h"

#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>

#include "ComparisonDock.h"
#include "render/PatchOutlineNodes.h"

namespace sg::app {

ComparisonOverlay::ComparisonOverlay(ComparisonDock* dock, SoSeparator* overlayRoot, QObject* parent)
    : QObject(parent), dock_(dock), overlayRoot_(overlayRoot), switch_(new SoSwitch) {
  overlayRoot_->ref();
  switch_->ref();
  switch_->setName("comparisonSwitch");
  overlayRoot_->addChild(switch_);
  connect(dock_, &ComparisonDock::comparisonChanged, this, &ComparisonOverlay::rebuild);
  connect(dock_, &ComparisonDock::overlayModelsChanged, this, &ComparisonOverlay::rebuild);
  connect(dock_, &QDockWidget::visibilityChanged, this, &ComparisonOverlay::rebuild);
  rebuild();
}

ComparisonOverlay::~ComparisonOverlay() {
  const int at = overlayRoot_->findChild(switch_);
  if (at >= 0) overlayRoot_->removeChild(at);
  switch_->unref();
  overlayRoot_->unref();
}

bool ComparisonOverlay::isShown() const { return switch_->whichChild.getValue() == SO_SWITCH_ALL; }

void ComparisonOverlay::rebuild() {
  switch_->removeAllChildren();
  outlines_ = 0;
  legend_.clear();
  const ModelComparison* comparison = dock_->comparison();
  std::vector<std::string> models;
  for (const QString& m : dock_->overlayModels()) models.push_back(m.toStdString());
  // Nothing in the scene or the legend until the dock is up and a model's checkbox asks for its outlines.
  const bool shown = comparison && dock_->isVisible() && !models.empty();
  if (shown) {
    const std::vector<ModelPatchOutlines> outlines = comparisonPatchOutlines(*comparison, models);
    for (const ModelPatchOutlines& m : outlines) outlines_ += static_cast<int>(m.outlines_W_mm.size());
    switch_->addChild(makePatchOutlinesNode(outlines));
    legend_ = patchOutlinesLegend(outlines);
  }
  switch_->whichChild = shown ? SO_SWITCH_ALL : SO_SWITCH_NONE;
  emit changed();
}

}  // namespace sg::app
