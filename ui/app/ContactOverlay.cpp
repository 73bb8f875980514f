#include "ContactOverlay.h"

#include <Inventor/SbViewportRegion.h>
#include <Inventor/nodes/SoCamera.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoSwitch.h>

#include <algorithm>
#include <cmath>

#include "GraspAnalysis.h"
#include "ViewportPanel.h"
#include "render/CameraMotion.h"
#include "render/ContactNodes.h"
#include "render/GraspOverlay.h"
#include "render/SceneBuilder.h"
#include "render/StandardView.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

namespace {
// A click this close to a hand contact's marker (a few pixels wide at ordinary zoom) picks it.
constexpr double kMarkerSlack_px = 4.0;
}  // namespace

ContactOverlay::ContactOverlay(GraspAnalysis* analysis, ViewportPanel* panel, QObject* parent)
    : QObject(parent), analysis_(analysis), panel_(panel), nodes_(std::make_unique<ContactNodes>()) {
  setObjectName("ContactOverlay");
  switch_ = new SoSwitch;
  switch_->ref();
  switch_->setName("contactOverlay");
  switch_->addChild(nodes_->root());
  switch_->whichChild = SO_SWITCH_ALL;
  if (panel_ && panel_->scene()) panel_->scene()->overlayRoot()->addChild(switch_);
  if (panel_) panel_->setClickHandler([this](QPoint pos) { return selectContactAt(pos); });
  connect(analysis_, &GraspAnalysis::updated, this, &ContactOverlay::rebuild);
  connect(analysis_, &GraspAnalysis::selectedContactChanged, this, &ContactOverlay::updateHighlight);
  rebuild();
}

ContactOverlay::~ContactOverlay() {
  // The panel (and its scene) may be gone already when the main window closes.
  if (panel_) panel_->setClickHandler({});
  if (panel_ && panel_->scene()) {
    SoSeparator* overlay = panel_->scene()->overlayRoot();
    if (overlay->findChild(switch_) >= 0) overlay->removeChild(switch_);
  }
  switch_->unref();
}

void ContactOverlay::rebuild() {
  nodes_->setContacts(contactGlyphs(analysis_->contacts()));  // the screenshot's mapping too
  if (panel_ && panel_->scene()) {  // interpenetrating bodies drawn red, as GraspIt! does
    std::vector<BodyHandle> colliding;
    for (const Interpenetration& p : analysis_->interpenetrations()) {
      colliding.push_back(p.body1);
      colliding.push_back(p.body2);
    }
    panel_->scene()->setColliding(colliding);
  }
  updateHighlight();
}

void ContactOverlay::updateHighlight() {
  nodes_->setHighlighted(analysis_->selectedContact());
  redraw();
}

void ContactOverlay::redraw() {
  if (panel_ && panel_->viewport()) panel_->viewport()->update();
}

void ContactOverlay::setContactsVisible(bool on) {
  contactsVisible_ = on;
  switch_->whichChild = on ? SO_SWITCH_ALL : SO_SWITCH_NONE;
  redraw();
}

void ContactOverlay::setConesVisible(bool on) {
  nodes_->setConesVisible(on);
  redraw();
}

std::optional<int> ContactOverlay::contactAt(QPoint pos) const {
  if (!contactsVisible_ || !panel_ || !panel_->viewport() || !panel_->scene()) return std::nullopt;
  ui::CoinViewport* view = panel_->viewport();
  SoCamera* camera = view->camera();
  // The viewport's own pick stops at the nearest hit; this one looks along the whole ray, through the
  // camera and the world scene (the dragger is not in it).
  auto* scene = new SoSeparator;
  scene->ref();
  scene->addChild(camera);
  scene->addChild(panel_->scene()->root());
  // Coin device pixels, bottom-left origin, as the viewport converts its events.
  const qreal dpr = view->devicePixelRatioF();
  const SbViewportRegion region(static_cast<short>(std::max(1.0, std::round(view->width() * dpr))),
                                static_cast<short>(std::max(1.0, std::round(view->height() * dpr))));
  const SbVec2s pixel(static_cast<short>(std::lround(pos.x() * dpr)),
                      static_cast<short>(std::lround((view->height() - 1 - pos.y()) * dpr)));
  if (const auto box = sceneBoundingBox(scene, region)) fitClippingPlanes(camera, *box);  // the ray's extent
  const std::optional<int> picked =
      nodes_->pickContact(scene, region, pixel, static_cast<float>(kMarkerSlack_px * dpr));
  scene->unref();
  return picked;
}

bool ContactOverlay::selectContactAt(QPoint pos) {
  const std::optional<int> picked = contactAt(pos);
  if (!picked) return false;
  analysis_->setSelectedContact(picked);
  return true;
}

bool ContactOverlay::conesVisible() const { return nodes_->conesVisible(); }

}  // namespace sg::app
