#include "ViewportPanel.h"

#include <Inventor/SoPath.h>
#include <Inventor/nodes/SoSeparator.h>

#include "CollisionStoppedEdits.h"
#include "Commands.h"
#include "Document.h"
#include "render/SceneBuilder.h"
#include "render/StandardView.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

ViewportPanel::ViewportPanel(Document* doc, ui::CoinViewport* viewport, QObject* parent)
    : QObject(parent), doc_(doc), viewport_(viewport), scene_(std::make_unique<WorldScene>(doc->world())) {
  viewport_->setSceneGraph(scene_->root());
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind k) { onWorldChanged(static_cast<int>(k)); });
  connect(doc_, &Document::selectionChanged, this, &ViewportPanel::onSelectionChanged);
  connect(viewport_, &ui::CoinViewport::clicked, this, [this](QPoint pos) { onClicked(pos); });
  connect(viewport_, &ui::CoinViewport::draggerMoved, this,
          [this](const Transform& pose) { onDraggerMoved(pose, false); });
  connect(viewport_, &ui::CoinViewport::draggerReleased, this,
          [this](const Transform& pose) { onDraggerMoved(pose, true); });
}

ViewportPanel::~ViewportPanel() {
  if (viewport_) viewport_->setSceneGraph(nullptr);
}

void ViewportPanel::frameWorld() {
  if (const auto& cam = doc_->world().camera)
    applyWorldCamera(viewport_->camera(), *cam);
  else
    viewport_->viewAll();
  viewport_->update();
}

void ViewportPanel::onWorldChanged(int kind) {
  switch (static_cast<ChangeKind>(kind)) {
    case ChangeKind::Poses:
    case ChangeKind::Dofs:
      scene_->updatePoses(doc_->world());
      break;
    case ChangeKind::Properties:  // colours depend on the material
    case ChangeKind::Structure:
      scene_->rebuild(doc_->world());
      scene_->setSelected(doc_->selection());
      break;
  }
  syncDragger();
  viewport_->update();
}

void ViewportPanel::onSelectionChanged() {
  scene_->setSelected(doc_->selection());
  if (isMovable(doc_->selection())) {
    const QSignalBlocker block(viewport_);  // attaching is not a user drag
    viewport_->attachDragger(movablePose(doc_->world(), *doc_->selection()));
  } else if (viewport_->hasDragger()) {
    viewport_->detachDragger();
  }
  viewport_->update();
}

void ViewportPanel::syncDragger() {
  if (dragGesture_ != 0 || !viewport_->hasDragger()) return;
  if (!isMovable(doc_->selection())) {
    viewport_->detachDragger();
    return;
  }
  const Transform pose = movablePose(doc_->world(), *doc_->selection());
  if (viewport_->draggerPose().isApprox(pose, 1e-6)) return;
  movingDragger_ = true;
  viewport_->setDraggerPose(pose);
  movingDragger_ = false;
}

void ViewportPanel::onClicked(QPoint pos) {
  if (clickHandler_ && clickHandler_(pos)) return;
  SoPath* path = viewport_->pickPath(pos);
  std::optional<BodyHandle> picked;
  if (path) {
    picked = scene_->bodyForPath(path);
    path->unref();
  }
  doc_->setSelection(picked);
}

void ViewportPanel::onDraggerMoved(const Transform& pose, bool released) {
  if (movingDragger_) return;
  const auto& sel = doc_->selection();
  if (!isMovable(sel)) return;
  if (dragGesture_ == 0) dragGesture_ = doc_->beginGesture();
  const int gesture = dragGesture_;
  if (released) dragGesture_ = 0;
  if (movablePose(doc_->world(), *sel).isApprox(pose, 1e-9)) return;
  const int robot = robotIndexOf(sel);
  if (auto* edits = CollisionStoppedEdits::of(doc_)) {  // stops at contact when collision checking is on
    if (robot >= 0)
      edits->moveRobot(robot, pose, gesture);
    else
      edits->moveBody(*sel, pose, gesture);
    if (released) syncDragger();  // back onto the model where the motion stopped
  } else if (robot >= 0) {
    doc_->push(new SetRobotPoseCommand(doc_, robot, pose, gesture));
  } else {
    doc_->push(new SetBodyPoseCommand(doc_, *sel, pose, gesture));
  }
}

}  // namespace sg::app
