#pragma once
// The scene tree: World → Robots (palm) → chains → links; Graspable bodies; Obstacles; Mounts.
// Selecting an item selects the body in the Document, and the Document's selection is mirrored here.
// A body's context menu switches collisions (GraspAnalysis settings, never the saved world): "Collisions"
// (off: the body takes part in no collision or contact check) and, with another body selected,
// "Collisions with <selected>" for that pair. Bodies switched off are shown grey and italic; the tool tip
// names the bodies a body's pair switches exclude.
#include <QDockWidget>
#include <QPointer>
#include <memory>
#include <optional>

#include "model/World.h"

class QMenu;
class QTreeWidget;
class QTreeWidgetItem;

namespace sg::app {

class Document;
class GraspAnalysis;

class SceneTreeDock : public QDockWidget {
  Q_OBJECT
 public:
  // Uses the GraspAnalysis among `parent`'s children (the main window's), if there is one.
  explicit SceneTreeDock(Document* doc, QWidget* parent = nullptr);

  QTreeWidget* tree() const { return tree_; }
  QTreeWidgetItem* itemFor(const BodyHandle& handle) const;
  static std::optional<BodyHandle> handleOf(const QTreeWidgetItem* item);

  // The analysis whose collision settings the switches edit (null: no collision entries in the menu).
  void setAnalysis(GraspAnalysis* analysis);
  GraspAnalysis* analysis() const;

  // The context menu of `body`'s item: checkable actions "actionBodyCollisions" and, when another body
  // is selected, "actionPairCollisions"; toggling one applies it. Empty without an analysis.
  std::unique_ptr<QMenu> contextMenuFor(const BodyHandle& body);
  // The switches, applied through GraspAnalysis::setSettings (contacts, overlays and collision-stopped
  // edits follow). No-ops without an analysis.
  void setBodyCollisions(const BodyHandle& body, bool on);
  void setPairCollisions(const BodyHandle& a, const BodyHandle& b, bool on);
  // Whether the tree shows `handle`'s item as switched off.
  bool shownCollisionsOff(const BodyHandle& handle) const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rebuild();
  void showSelection();
  void onItemSelectionChanged();
  void showContextMenu(const QPoint& pos);
  void showCollisionSwitches();

  Document* doc_;
  QTreeWidget* tree_;
  QPointer<GraspAnalysis> analysis_;
  QMetaObject::Connection analysisConnection_;
  bool updating_ = false;
};

}  // namespace sg::app
