#include "SceneTreeDock.h"

#include <QFileInfo>
#include <QSignalBlocker>
#include <QTreeWidget>

#include "Document.h"

namespace sg::app {

namespace {
constexpr int kHandleRole = Qt::UserRole + 1;

QVariant encode(const BodyHandle& h) {
  return QVariantList{static_cast<int>(h.kind), h.index, h.ref.chain, h.ref.link};
}

QTreeWidgetItem* addBodyItem(QTreeWidgetItem* parent, const QString& text, const BodyHandle& h) {
  auto* item = new QTreeWidgetItem(parent, QStringList{text});
  item->setData(0, kHandleRole, encode(h));
  return item;
}

QTreeWidgetItem* addGroupItem(QTreeWidgetItem* parent, const QString& text) {
  auto* item = new QTreeWidgetItem(parent, QStringList{text});
  item->setFlags(Qt::ItemIsEnabled);  // a heading, not selectable
  return item;
}
}  // namespace

SceneTreeDock::SceneTreeDock(Document* doc, QWidget* parent)
    : QDockWidget(tr("Scene"), parent), doc_(doc), tree_(new QTreeWidget(this)) {
  setObjectName("SceneTreeDock");
  tree_->setObjectName("sceneTree");
  tree_->setHeaderHidden(true);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  setWidget(tree_);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind kind) {
    if (kind == ChangeKind::Structure) rebuild();
  });
  connect(doc_, &Document::filePathChanged, this, &SceneTreeDock::rebuild);
  connect(doc_, &Document::selectionChanged, this, &SceneTreeDock::showSelection);
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &SceneTreeDock::onItemSelectionChanged);
  rebuild();
}

std::optional<BodyHandle> SceneTreeDock::handleOf(const QTreeWidgetItem* item) {
  if (!item) return std::nullopt;
  const QVariantList v = item->data(0, kHandleRole).toList();
  if (v.size() != 4) return std::nullopt;
  BodyHandle h;
  h.kind = static_cast<BodyHandle::Kind>(v[0].toInt());
  h.index = v[1].toInt();
  h.ref = BodyRef{v[2].toInt(), v[3].toInt()};
  return h;
}

QTreeWidgetItem* SceneTreeDock::itemFor(const BodyHandle& handle) const {
  for (QTreeWidgetItemIterator it(tree_); *it; ++it)
    if (handleOf(*it) == handle) return *it;
  return nullptr;
}

void SceneTreeDock::rebuild() {
  const QSignalBlocker block(tree_);
  tree_->clear();
  const World& w = doc_->world();
  using K = BodyHandle::Kind;
  const QString worldName =
      doc_->filePath().isEmpty() ? tr("World (unsaved)") : QFileInfo(doc_->filePath()).fileName();
  auto* root = new QTreeWidgetItem(tree_, QStringList{worldName});
  root->setFlags(Qt::ItemIsEnabled);

  auto* robots = addGroupItem(root, tr("Robots"));
  for (int r = 0; r < static_cast<int>(w.robots.size()); ++r) {
    const Robot& robot = w.robots[r];
    auto* robotItem = addBodyItem(robots, QString::fromStdString(robot.name), {K::Robot, r, {-1, 0}});
    for (int c = 0; c < static_cast<int>(robot.chains.size()); ++c) {
      auto* chainItem = addGroupItem(robotItem, tr("chain %1").arg(c));
      for (int l = 0; l < static_cast<int>(robot.chains[c].links.size()); ++l) {
        const std::string& name = robot.chains[c].links[l].body.name;
        addBodyItem(chainItem, name.empty() ? tr("link %1").arg(l) : QString::fromStdString(name),
                    {K::Robot, r, {c, l}});
      }
    }
  }
  auto* graspables = addGroupItem(root, tr("Graspable bodies"));
  for (int i = 0; i < static_cast<int>(w.graspables.size()); ++i)
    addBodyItem(graspables, QString::fromStdString(w.graspables[i].name), {K::Graspable, i, {}});
  auto* obstacles = addGroupItem(root, tr("Obstacles"));
  for (int i = 0; i < static_cast<int>(w.obstacles.size()); ++i)
    addBodyItem(obstacles, QString::fromStdString(w.obstacles[i].name), {K::Obstacle, i, {}});
  bool anyMount = false;
  for (const auto& c : w.connections) anyMount = anyMount || c.mount.has_value();
  if (anyMount) {
    auto* mounts = addGroupItem(root, tr("Mounts"));
    for (int i = 0; i < static_cast<int>(w.connections.size()); ++i)
      if (w.connections[i].mount)
        addBodyItem(mounts, QString::fromStdString(w.bodyLabel({K::Mount, i, {}})), {K::Mount, i, {}});
  }
  tree_->expandAll();
  showSelection();
}

void SceneTreeDock::showSelection() {
  const QSignalBlocker block(tree_);
  const auto& sel = doc_->selection();
  QTreeWidgetItem* item = sel ? itemFor(*sel) : nullptr;
  tree_->clearSelection();
  if (item) {
    item->setSelected(true);
    tree_->setCurrentItem(item);
    tree_->scrollToItem(item);
  }
}

void SceneTreeDock::onItemSelectionChanged() {
  const auto items = tree_->selectedItems();
  doc_->setSelection(items.isEmpty() ? std::nullopt : handleOf(items.first()));
}

}  // namespace sg::app
