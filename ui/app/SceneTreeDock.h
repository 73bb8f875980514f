#pragma once
// The scene tree: World → Robots (palm) → chains → links; Graspable bodies; Obstacles; Mounts.
// Selecting an item selects the body in the Document, and the Document's selection is mirrored here.
#include <QDockWidget>
#include <optional>

#include "model/World.h"

class QTreeWidget;
class QTreeWidgetItem;

namespace sg::app {

class Document;

class SceneTreeDock : public QDockWidget {
  Q_OBJECT
 public:
  explicit SceneTreeDock(Document* doc, QWidget* parent = nullptr);

  QTreeWidget* tree() const { return tree_; }
  QTreeWidgetItem* itemFor(const BodyHandle& handle) const;
  static std::optional<BodyHandle> handleOf(const QTreeWidgetItem* item);

 private:
  void rebuild();
  void showSelection();
  void onItemSelectionChanged();

  Document* doc_;
  QTreeWidget* tree_;
  bool updating_ = false;
};

}  // namespace sg::app
