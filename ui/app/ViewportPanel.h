#pragma once
// Connects the Document to the 3-D view: keeps a WorldScene in step with the model (poses → updatePoses,
// structure/properties → rebuild), turns viewport clicks into selections, and turns dragger motion into
// pose commands (one undo step per drag). A click is first offered to the click handler (the contact
// overlay: a click on a contact marker selects that contact), then picks a body. The scene is only ever a
// view: the model changes through commands, and the scene follows the Document's signals.
#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

#include "core/Transform.h"
#include "viewport/CoinViewport.h"

namespace sg {
class WorldScene;
}  // namespace sg

namespace sg::app {

class Document;

class ViewportPanel : public QObject {
  Q_OBJECT
 public:
  // `viewport` is owned by its widget parent; the panel owns the scene.
  ViewportPanel(Document* doc, ui::CoinViewport* viewport, QObject* parent = nullptr);
  ~ViewportPanel() override;

  ui::CoinViewport* viewport() const { return viewport_; }
  WorldScene* scene() const { return scene_.get(); }

  // Frames a freshly opened world: its saved camera if it has one, else View All.
  void frameWorld();

  // Tried first on every click (widget pixels): returns true when it took the click, and then no body
  // is picked. Empty: none.
  using ClickHandler = std::function<bool(QPoint)>;
  void setClickHandler(ClickHandler handler) { clickHandler_ = std::move(handler); }

 private:
  void onWorldChanged(int kind);
  void onSelectionChanged();
  void onClicked(QPoint pos);
  void onDraggerMoved(const Transform& pose, bool released);
  void syncDragger();

  Document* doc_;
  QPointer<ui::CoinViewport> viewport_;  // may be destroyed first (sibling in the main window)
  std::unique_ptr<WorldScene> scene_;
  ClickHandler clickHandler_;
  int dragGesture_ = 0;         // non-zero while the dragger is being dragged
  bool movingDragger_ = false;  // we are moving the dragger to follow the model: ignore its signals
};

}  // namespace sg::app
