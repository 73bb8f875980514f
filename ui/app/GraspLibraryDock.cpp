#include "GraspLibraryDock.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "Document.h"
#include "FeatureTools.h"
#include "GraspCommands.h"
#include "GraspLibraryModel.h"
#include "MainWindow.h"
#include "SceneTreeDock.h"
#include "ViewportPanel.h"
#include "contact/ContactModel.h"
#include "core/Error.h"
#include "core/Parse.h"
#include "grasp/QualityMeasure.h"
#include "grasp/planner/GraspList.h"
#include "render/SceneBuilder.h"
#include "store/GraspListRun.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

namespace {

// The index of the robot named `name` (-1: none).
int robotNamed(const World& world, const std::string& name) {
  for (std::size_t i = 0; i < world.robots.size(); ++i)
    if (world.robots[i].name == name) return static_cast<int>(i);
  return -1;
}

// The index of the graspable whose label (World::bodyLabel, as grasp lists name it) is `label` (-1: none).
int graspableLabelled(const World& world, const std::string& label) {
  for (std::size_t i = 0; i < world.graspables.size(); ++i)
    if (world.bodyLabel(BodyHandle{BodyHandle::Kind::Graspable, static_cast<int>(i), {}}) == label)
      return static_cast<int>(i);
  return -1;
}

}  // namespace

GraspLibraryDock::GraspLibraryDock(MainWindow* window)
    : QDockWidget(tr("Grasp Library"), window), window_(window), doc_(window->document()) {
  setObjectName("graspLibraryDock");
  buildUi();
  // Any edit (Apply included) or another world: the viewport shows the Document again.
  connect(doc_, &Document::worldChanged, this, [this] {
    if (!preview_) return;
    preview_.reset();
    if (ViewportPanel* panel = window_->viewportPanel()) panel->viewport()->update();
  });
  connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (!visible) clearPreview();
  });
}

GraspLibraryDock::~GraspLibraryDock() = default;

void GraspLibraryDock::buildUi() {
  auto* body = new QWidget;
  auto* layout = new QVBoxLayout(body);

  auto* openRow = new QHBoxLayout;
  url_ = new QLineEdit;
  url_->setObjectName("libraryUrl");
  url_->setPlaceholderText(tr("grasps.db, sqlite:///path or postgresql://user@host/db"));
  url_->setToolTip(tr("A SQLite file or a database URL (src/store/README.md §URLs)"));
  connect(url_, &QLineEdit::returnPressed, this, [this] { openDatabase(url_->text()); });
  auto* browse = new QPushButton(tr("File…"));
  browse->setObjectName("libraryBrowse");
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Grasp Database"), {},
                                                      tr("SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"));
    if (!path.isEmpty()) openDatabase(path);
  });
  auto* open = new QPushButton(tr("Open"));
  open->setObjectName("libraryOpen");
  connect(open, &QPushButton::clicked, this, [this] { openDatabase(url_->text()); });
  openRow->addWidget(url_, 1);
  openRow->addWidget(browse);
  openRow->addWidget(open);
  layout->addLayout(openRow);

  auto* filters = new QFormLayout;
  robot_ = new QLineEdit;
  robot_->setObjectName("libraryRobot");
  robot_->setPlaceholderText(tr("any"));
  object_ = new QLineEdit;
  object_->setObjectName("libraryObject");
  object_->setPlaceholderText(tr("any"));
  contactModel_ = new QComboBox;
  contactModel_->setObjectName("libraryContactModel");
  contactModel_->addItem(tr("each grasp's primary"), QString());
  for (const ContactModel* m : contactModels())
    contactModel_->addItem(QString::fromStdString(m->name()), QString::fromStdString(m->name()));
  measure_ = new QComboBox;
  measure_->setObjectName("libraryMeasure");
  measure_->addItem(tr("none"), QString());
  for (const std::string& m : qualityMeasureNames())
    measure_->addItem(QString::fromStdString(m), QString::fromStdString(m));
  measure_->setCurrentIndex(std::max(0, measure_->findData(QStringLiteral("epsilon-l1"))));
  minValue_ = new QLineEdit;
  minValue_->setObjectName("libraryMinValue");
  minValue_->setPlaceholderText(tr("no threshold"));
  forceClosure_ = new QCheckBox(tr("force closure only"));
  forceClosure_->setObjectName("libraryForceClosure");
  limit_ = new QSpinBox;
  limit_->setObjectName("libraryLimit");
  limit_->setRange(0, 1000000);
  limit_->setValue(1000);
  limit_->setSpecialValueText(tr("all"));
  limit_->setToolTip(tr("At most this many grasps, best by the measure first (0: all)"));
  filters->addRow(tr("Robot"), robot_);
  filters->addRow(tr("Object"), object_);
  filters->addRow(tr("Contact model"), contactModel_);
  filters->addRow(tr("Measure"), measure_);
  filters->addRow(tr("Measure ≥"), minValue_);
  filters->addRow(QString(), forceClosure_);
  filters->addRow(tr("Limit"), limit_);
  layout->addLayout(filters);
  for (QLineEdit* edit : {robot_, object_, minValue_})
    connect(edit, &QLineEdit::returnPressed, this, [this] { refresh(); });

  model_ = new GraspLibraryModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(GraspLibraryModel::kSortRole);
  table_ = new QTableView;
  table_->setObjectName("libraryTable");
  table_->setModel(proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->setSortingEnabled(true);
  table_->sortByColumn(GraspLibraryModel::kValue, Qt::DescendingOrder);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] { onCurrentChanged(); });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { onCurrentChanged(); });
  layout->addWidget(table_, 1);

  auto* buttons = new QHBoxLayout;
  auto* search = new QPushButton(tr("Search"));
  search->setObjectName("librarySearch");
  connect(search, &QPushButton::clicked, this, [this] { refresh(); });
  auto* apply = new QPushButton(tr("Apply"));
  apply->setObjectName("libraryApply");
  apply->setToolTip(tr("Set the hand to the selected grasp (one undo step)"));
  connect(apply, &QPushButton::clicked, this, [this] { applySelected(); });
  auto* exportButton = new QPushButton(tr("Export…"));
  exportButton->setObjectName("libraryExport");
  exportButton->setToolTip(tr("Save the selected grasps as a grasp list (JSON)"));
  connect(exportButton, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Grasps"), {}, tr("Grasp lists (*.json)"));
    if (!path.isEmpty()) exportSelection(path);
  });
  buttons->addWidget(search);
  buttons->addStretch(1);
  buttons->addWidget(apply);
  buttons->addWidget(exportButton);
  layout->addLayout(buttons);

  status_ = new QLabel(tr("No database open"));
  status_->setObjectName("libraryStatus");
  status_->setWordWrap(true);
  layout->addWidget(status_);
  // Scrolled, so the column it shares with the scene tree and the planner keeps its width and height.
  auto* scroll = new QScrollArea;
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidget(body);
  setWidget(scroll);
}

QString GraspLibraryDock::databaseUrl() const {
  return store_ ? QString::fromStdString(store_->url()) : QString();
}

QString GraspLibraryDock::statusText() const { return status_->text(); }

void GraspLibraryDock::setStatus(const QString& text) { status_->setText(text); }

bool GraspLibraryDock::openDatabase(const QString& url) {
  const QString trimmed = url.trimmed();
  if (trimmed.isEmpty()) {
    setStatus(tr("Give a SQLite file or a database URL"));
    return false;
  }
  std::unique_ptr<store::GraspStore> opened;
  try {
    opened = store::GraspStore::open(trimmed.toStdString(), store::OpenMode::ReadOnly);
  } catch (const std::exception& e) {
    setStatus(tr("Cannot open %1: %2").arg(trimmed, QString::fromUtf8(e.what())));
    return false;
  }
  clearPreview();
  store_ = std::move(opened);
  url_->setText(trimmed);
  return refresh();
}

store::GraspQuery GraspLibraryDock::query() const {
  store::GraspQuery q;
  q.robot = robot_->text().trimmed().toStdString();
  q.object = object_->text().trimmed().toStdString();
  q.contactModel = contactModel_->currentData().toString().toStdString();
  q.measure = measure_->currentData().toString().toStdString();
  const QString threshold = minValue_->text().trimmed();
  if (!threshold.isEmpty()) {
    const auto value = parseDouble(threshold.toStdString());
    if (!value) throw Error("the threshold \"" + threshold.toStdString() + "\" is not a number");
    if (q.measure.empty()) throw Error("a threshold needs a measure");
    q.minValue = *value;
  }
  if (forceClosure_->isChecked()) q.forceClosure = true;
  q.order = q.measure.empty() ? store::GraspQuery::Order::Row : store::GraspQuery::Order::Measure;
  q.limit = limit_->value();
  return q;
}

bool GraspLibraryDock::refresh() {
  if (!store_) {
    setStatus(tr("No database open"));
    return false;
  }
  std::vector<store::GraspRow> rows;
  store::GraspQuery q;
  try {
    q = query();
    store_->query(q, [&rows](const store::GraspRow& r) { rows.push_back(r); });
  } catch (const std::exception& e) {
    setStatus(tr("Query failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  clearPreview();
  const auto count = rows.size();
  model_->setRows(std::move(rows), QString::fromStdString(q.measure));
  setStatus(tr("%1: %n grasp(s)", nullptr, static_cast<int>(count)).arg(databaseUrl()));
  return true;
}

void GraspLibraryDock::selectRow(int viewRow) {
  if (viewRow < 0 || viewRow >= proxy_->rowCount()) {
    table_->selectionModel()->clear();
    return;
  }
  table_->selectRow(viewRow);
}

int GraspLibraryDock::currentSourceRow() const {
  const QModelIndexList rows = table_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return -1;
  const QModelIndex current = table_->selectionModel()->currentIndex();
  // The current row when it is selected (the one the user clicked last), else the first selected one.
  const QModelIndex pick = current.isValid() && table_->selectionModel()->isRowSelected(current.row(), {})
                               ? current
                               : rows.front();
  return proxy_->mapToSource(pick).row();
}

std::vector<store::GraspRow> GraspLibraryDock::selectedGrasps() const {
  QModelIndexList rows = table_->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
  std::vector<store::GraspRow> out;
  for (const QModelIndex& r : rows) out.push_back(model_->grasp(proxy_->mapToSource(r).row()));
  return out;
}

std::optional<WorldState> GraspLibraryDock::stateWithGrasp(const store::GraspRow& row, QString& why) const {
  const World& world = doc_->world();
  const int robot = robotNamed(world, row.robot);
  if (robot < 0) {
    why = tr("This world has no robot %1").arg(QString::fromStdString(row.robot));
    return std::nullopt;
  }
  const int object = graspableLabelled(world, row.object);
  if (object < 0) {
    why = tr("This world has no object %1").arg(QString::fromStdString(row.object));
    return std::nullopt;
  }
  const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
  if (row.grasp.dofs.size() != hand.dofCount()) {
    why = tr("The grasp has %1 DOF values, %2 has %3")
              .arg(row.grasp.dofs.size())
              .arg(QString::fromStdString(hand.name))
              .arg(hand.dofCount());
    return std::nullopt;
  }
  WorldState state = world.state;
  RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
  try {  // the grasp is in the object's frame; its joints in break-away too (PLANNER.md §Grasp list file)
    planner::applyHandConfiguration(
        hand, rs, {state.X_WG[static_cast<std::size_t>(object)] * row.grasp.X_OP, row.grasp.dofs, row.grasp.breakAway});
  } catch (const Error& e) {
    why = tr("The grasp does not fit %1: %2").arg(QString::fromStdString(hand.name), QString::fromUtf8(e.what()));
    return std::nullopt;
  }
  updateConnections(world, state);
  return state;
}

void GraspLibraryDock::onCurrentChanged() {
  const int row = currentSourceRow();
  if (row < 0) {
    clearPreview();
    return;
  }
  QString why;
  std::optional<WorldState> state = stateWithGrasp(model_->grasp(row), why);
  if (!state) {
    clearPreview();
    setStatus(why);
    return;
  }
  preview_ = std::move(state);
  if (ViewportPanel* panel = window_->viewportPanel()) {
    panel->scene()->updatePoses(doc_->world(), *preview_);
    panel->viewport()->update();
  }
  setStatus(tr("Previewing grasp %1 (not applied)").arg(model_->grasp(row).id));
}

void GraspLibraryDock::clearPreview() {
  if (!preview_) return;
  preview_.reset();
  if (ViewportPanel* panel = window_->viewportPanel()) {
    panel->scene()->updatePoses(doc_->world());
    panel->viewport()->update();
  }
}

bool GraspLibraryDock::applySelected() {
  const int row = currentSourceRow();
  if (row < 0) {
    setStatus(tr("Select a grasp to apply"));
    return false;
  }
  const store::GraspRow& grasp = model_->grasp(row);
  QString why;
  const std::optional<WorldState> after = stateWithGrasp(grasp, why);
  if (!after) {
    setStatus(why);
    return false;
  }
  auto* command = new SetRobotStatesCommand(doc_, *after, tr("Apply Library Grasp %1").arg(grasp.id));
  clearPreview();
  if (command->isEmpty()) {
    delete command;
    setStatus(tr("The hand is already at grasp %1").arg(grasp.id));
    return true;
  }
  doc_->push(command);
  setStatus(tr("Applied grasp %1").arg(grasp.id));
  return true;
}

bool GraspLibraryDock::exportSelection(const QString& path) {
  const std::vector<store::GraspRow> rows = selectedGrasps();
  if (rows.empty()) {
    setStatus(tr("Select the grasps to export"));
    return false;
  }
  const World& world = doc_->world();
  const int robot = robotNamed(world, rows.front().robot);
  const int object = graspableLabelled(world, rows.front().object);
  // On the open world's object when it has one of that name; otherwise the list stays in the object's frame.
  const Transform X_WO = object >= 0 ? world.state.X_WG[static_cast<std::size_t>(object)] : Transform();
  try {
    const planner::GraspList list = store::graspListFromRows(rows, X_WO, std::max(robot, 0), std::max(object, 0));
    planner::saveGraspList(list, path.toStdString());
  } catch (const std::exception& e) {
    setStatus(tr("Export failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  setStatus(tr("Exported %n grasp(s) to %1", nullptr, static_cast<int>(rows.size())).arg(path));
  return true;
}

void installGraspLibraryTools(MainWindow* window) {
  auto* dock = new GraspLibraryDock(window);
  // A tab behind the scene tree, as the Planner: the default layout of the other docks stays as it was; Grasp >
  // Grasp Library brings it forward.
  window->addDock(dock, Qt::LeftDockWidgetArea);
  window->tabifyDockWidget(window->sceneTreeDock(), dock);
  window->sceneTreeDock()->raise();
  QAction* action = window->graspMenu()->addAction(GraspLibraryDock::tr("Grasp &Library…"));
  action->setObjectName("actionGraspLibrary");
  action->setStatusTip(GraspLibraryDock::tr("Browse a grasp database: filter, preview, apply and export grasps"));
  QObject::connect(action, &QAction::triggered, dock, [dock] {
    dock->show();
    dock->raise();
  });
}

}  // namespace sg::app
