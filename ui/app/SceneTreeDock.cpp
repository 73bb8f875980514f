#include "SceneTreeDock.h"

#include <QEvent>
#include <QFileInfo>
#include <QMenu>
#include <QSignalBlocker>
#include <QStringList>
#include <QTreeWidget>

#include "Document.h"
#include "GraspAnalysis.h"

namespace sg::app {

namespace {
constexpr int kHandleRole = Qt::UserRole + 1;
constexpr int kCollisionsOffRole = Qt::UserRole + 2;  // bool: the body's collisions are switched off

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
  setMinimumWidth(160);  // names and values stay readable when the window is small
  tree_->setObjectName("sceneTree");
  tree_->setHeaderHidden(true);
  tree_->setSelectionMode(QAbstractItemView::SingleSelection);
  setWidget(tree_);
  tree_->viewport()->installEventFilter(this);  // keeps the selected row in view when the dock shrinks
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind kind) {
    if (kind == ChangeKind::Structure) rebuild();
  });
  connect(doc_, &Document::filePathChanged, this, &SceneTreeDock::rebuild);
  connect(doc_, &Document::selectionChanged, this, &SceneTreeDock::showSelection);
  connect(tree_, &QTreeWidget::itemSelectionChanged, this, &SceneTreeDock::onItemSelectionChanged);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(tree_, &QWidget::customContextMenuRequested, this, &SceneTreeDock::showContextMenu);
  rebuild();
  if (parent) setAnalysis(parent->findChild<GraspAnalysis*>(QString(), Qt::FindDirectChildrenOnly));
}

void SceneTreeDock::setAnalysis(GraspAnalysis* analysis) {
  disconnect(analysisConnection_);
  analysis_ = analysis;
  // Settings changes recompute the analysis: refresh the marks then.
  if (analysis_)
    analysisConnection_ = connect(analysis_, &GraspAnalysis::updated, this, &SceneTreeDock::showCollisionSwitches);
  showCollisionSwitches();
}

GraspAnalysis* SceneTreeDock::analysis() const { return analysis_; }

std::unique_ptr<QMenu> SceneTreeDock::contextMenuFor(const BodyHandle& body) {
  auto menu = std::make_unique<QMenu>(this);
  if (!analysis_ || !doc_->world().isValid(body)) return menu;
  const CollisionSettings& collision = analysis_->settings().collision;
  QAction* bodyAction = menu->addAction(tr("Collisions"));
  bodyAction->setObjectName("actionBodyCollisions");
  bodyAction->setCheckable(true);
  bodyAction->setChecked(!collision.isBodyDisabled(body));
  bodyAction->setToolTip(tr("Off: the body takes part in no collision or contact check"));
  connect(bodyAction, &QAction::toggled, this, [this, body](bool on) { setBodyCollisions(body, on); });
  const std::optional<BodyHandle> sel = doc_->selection();
  if (sel && *sel != body && doc_->world().isValid(*sel)) {
    const BodyHandle other = *sel;
    QAction* pairAction =
        menu->addAction(tr("Collisions with %1").arg(QString::fromStdString(doc_->world().bodyLabel(other))));
    pairAction->setObjectName("actionPairCollisions");
    pairAction->setCheckable(true);
    pairAction->setChecked(!collision.isUserDisabled(body, other));
    connect(pairAction, &QAction::toggled, this,
            [this, body, other](bool on) { setPairCollisions(body, other, on); });
  }
  return menu;
}

void SceneTreeDock::setBodyCollisions(const BodyHandle& body, bool on) {
  if (!analysis_) return;
  AnalysisSettings settings = analysis_->settings();
  if (on == !settings.collision.isBodyDisabled(body)) return;
  if (on)
    settings.collision.enableBody(body);
  else
    settings.collision.disableBody(body);
  analysis_->setSettings(settings);  // recomputes: updated() refreshes the marks
}

void SceneTreeDock::setPairCollisions(const BodyHandle& a, const BodyHandle& b, bool on) {
  if (!analysis_ || a == b) return;
  AnalysisSettings settings = analysis_->settings();
  if (on == !settings.collision.isUserDisabled(a, b)) return;
  if (on)
    settings.collision.enablePair(a, b);
  else
    settings.collision.disablePair(a, b);
  analysis_->setSettings(settings);
}

bool SceneTreeDock::shownCollisionsOff(const BodyHandle& handle) const {
  const QTreeWidgetItem* item = itemFor(handle);
  return item && item->data(0, kCollisionsOffRole).toBool();
}

void SceneTreeDock::showContextMenu(const QPoint& pos) {
  const std::optional<BodyHandle> body = handleOf(tree_->itemAt(pos));
  if (!body) return;
  const std::unique_ptr<QMenu> menu = contextMenuFor(*body);
  if (!menu->isEmpty()) menu->exec(tree_->viewport()->mapToGlobal(pos));
}

void SceneTreeDock::showCollisionSwitches() {
  const World& w = doc_->world();
  static const CollisionSettings kNone;
  const CollisionSettings& collision = analysis_ ? analysis_->settings().collision : kNone;
  for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
    const std::optional<BodyHandle> h = handleOf(*it);
    if (!h) continue;
    const bool off = collision.isBodyDisabled(*h);
    QStringList excluded;  // the other ends of this body's switched-off pairs
    for (const auto& [a, b] : collision.userDisabledPairs) {
      const BodyHandle* other = a == *h ? &b : b == *h ? &a : nullptr;
      if (other && w.isValid(*other)) excluded << QString::fromStdString(w.bodyLabel(*other));
    }
    if ((*it)->data(0, kCollisionsOffRole).toBool() != off) {
      (*it)->setData(0, kCollisionsOffRole, off);
      QFont font = (*it)->font(0);
      font.setItalic(off);
      (*it)->setFont(0, font);
      (*it)->setForeground(0, off ? tree_->palette().brush(QPalette::Disabled, QPalette::Text) : QBrush());
    }
    QStringList tip;
    if (off) tip << tr("Collisions off");
    if (!excluded.isEmpty()) tip << tr("No collisions with: %1").arg(excluded.join(QStringLiteral(", ")));
    (*it)->setToolTip(0, tip.join(QLatin1Char('\n')));
  }
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
      // One naming everywhere: the items spell World::bodyLabel's parts ("chain0", "link2", as
      // Properties, Contacts, the inspector and the CLI do); the name in the model file is in the tooltip.
      auto* chainItem = addGroupItem(robotItem, QStringLiteral("chain%1").arg(c));
      for (int l = 0; l < static_cast<int>(robot.chains[c].links.size()); ++l) {
        const BodyHandle h{K::Robot, r, {c, l}};
        auto* item = addBodyItem(chainItem, QStringLiteral("link%1").arg(l), h);
        const std::string& name = robot.chains[c].links[l].body.name;
        QString tip = QString::fromStdString(w.bodyLabel(h));
        if (!name.empty()) tip += tr("\nname in the model file: %1").arg(QString::fromStdString(name));
        item->setToolTip(0, tip);
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
  showCollisionSwitches();
  showSelection();
}

bool SceneTreeDock::eventFilter(QObject* watched, QEvent* event) {
  // After the layout settles: a smaller window must not hide the selected body's row.
  if (watched == tree_->viewport() && event->type() == QEvent::Resize)
    if (QTreeWidgetItem* item = tree_->currentItem(); item && item->isSelected())
      QMetaObject::invokeMethod(this, [this] {
        if (QTreeWidgetItem* current = tree_->currentItem(); current && current->isSelected()) tree_->scrollToItem(current);
      }, Qt::QueuedConnection);
  return QDockWidget::eventFilter(watched, event);
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
