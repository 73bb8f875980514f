#include "PlannerDock.h"

#include <QAction>
#include <QButtonGroup>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>

#include "Document.h"
#include "GraspActions.h"
#include "GraspAnalysis.h"
#include "GraspCommands.h"
#include "MainWindow.h"
#include "PlannerChart.h"
#include "PlannerResultsTable.h"
#include "PlannerSettingsPanel.h"
#include "SceneTreeDock.h"
#include "ViewportPanel.h"
#include "WrappingRow.h"
#include "core/Error.h"
#include "grasp/planner/GraspCapture.h"
#include "model/Kinematics.h"
#include "render/SceneBuilder.h"
#include "store/GraspListRun.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

using namespace sg::planner;

namespace {

constexpr int kTick_ms = 100;  // live view poll

// The dock's content: QScrollArea sizes a resizable widget with height-for-width to its preferred height (here
// the table's and plot's, so it scrolled at once); this one reports none, and is sized to the viewport.
class WithoutHeightForWidth : public QWidget {
 public:
  bool hasHeightForWidth() const override { return false; }
};

}  // namespace

PlannerDock::PlannerDock(MainWindow* window)
    : QDockWidget(tr("Planner"), window), window_(window), doc_(window->document()) {
  setObjectName("plannerDock");
  buildUi();
  tick_.setInterval(kTick_ms);
  connect(&tick_, &QTimer::timeout, this, &PlannerDock::onTick);
  connect(doc_, &Document::worldReplaced, this, &PlannerDock::onWorldReplaced);
  connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &PlannerDock::followUndoStack);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind kind) {
    if (running_ && run_->kind() == PlannerRun::Kind::Online && (kind == ChangeKind::Poses || kind == ChangeKind::Dofs))
      onlineFollowHand();
    preview_.reset();  // the viewport follows the Document again
    if (kind == ChangeKind::Structure && !running_) rebuildVariables();
  });
  rebuildVariables();
  updateButtons();
}

// The runs (running or retired) cancel and join their threads as they go.
PlannerDock::~PlannerDock() = default;

void PlannerDock::buildUi() {
  // Settings: the first tab, in their own scroll area, so Start / Cancel (above) and the results (below) never
  // scroll out of sight however short the dock is.
  settings_ = new PlannerSettingsPanel;
  connect(settings_, &PlannerSettingsPanel::inputRefused, this, [this](const QString& message) {
    setStatus(message);
    refusedInput_ = message;
  });
  connect(settings_, &PlannerSettingsPanel::inputChanged, this, [this] { refusedInput_.clear(); });
  connect(settings_, &PlannerSettingsPanel::spaceChanged, this, [this] {
    if (!running_) rebuildVariables();
  });
  auto* settingsScroll = new QScrollArea;
  settingsScroll->setObjectName("plannerSettingsScroll");
  settingsScroll->setWidgetResizable(true);
  settingsScroll->setWidget(settings_);

  // Run control, always on top (wrapping in a narrow dock), then the tabs and the results in a splitter.
  auto* body = new WithoutHeightForWidth;
  auto* layout = new QVBoxLayout(body);
  // Tight margins and spacing: at 800×600 the dock shares its column with Properties and every pixel of its
  // minimum height counts against the window's.
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(3);
  buildRunControls(layout);
  chart_ = new PlannerChart;
  tabs_ = new QTabWidget;
  tabs_->setObjectName("plannerTabs");
  tabs_->setDocumentMode(true);  // no frame: a few pixels more for the plot on small screens
  tabs_->addTab(settingsScroll, tr("Settings"));
  tabs_->addTab(chart_, tr("Plot"));

  // Settings/plot above the results; the user moves the handle, neither side can be squeezed away.
  splitter_ = new QSplitter(Qt::Vertical);
  splitter_->setObjectName("plannerSplitter");
  splitter_->setChildrenCollapsible(false);
  splitter_->setHandleWidth(4);
  splitter_->addWidget(tabs_);
  splitter_->addWidget(buildResultsPanel());
  splitter_->setStretchFactor(0, 1);
  splitter_->setStretchFactor(1, 1);
  layout->addWidget(splitter_, 1);
  // The whole in a scroll area that only scrolls when the dock is shorter than all of the above (its minimum
  // would otherwise hold the Scene tab it shares a place with, and the window, at this height even when hidden);
  // makeRoom gives it the height when it is brought forward.
  auto* holder = new QWidget;
  auto* holderLayout = new QVBoxLayout(holder);
  holderLayout->setContentsMargins(0, 0, 0, 0);
  holderLayout->addWidget(body);
  auto* scroll = new QScrollArea;
  scroll->setObjectName("plannerScroll");
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setWidgetResizable(true);
  scroll->setWidget(holder);
  setWidget(scroll);
}

QWidget* PlannerDock::buildRunControls(QVBoxLayout* layout) {
  auto* buttons = new WrappingRow;
  buttons->setObjectName("plannerRunButtons");
  auto button = [&](const QString& text, const char* name, auto slot) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    connect(b, &QPushButton::clicked, this, slot);
    buttons->addWidget(b);
    return b;
  };
  startButton_ = button(tr("Start"), "plannerStartButton", [this] { start(); });
  pauseButton_ = button(tr("Pause"), "plannerPauseButton", [this] { pause(); });
  resetButton_ = button(tr("Reset"), "plannerResetButton", [this] { reset(); });
  cancelButton_ = button(tr("Cancel"), "plannerCancelButton", [this] { cancel(); });
  cancelButton_->setToolTip(tr("Stop the search and list what it found (Esc)"));
  layout->addWidget(buttons);
  progress_ = new QProgressBar;
  progress_->setObjectName("plannerProgress");
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(true);
  layout->addWidget(progress_);
  status_ = new QLabel;
  status_->setObjectName("plannerStatusLabel");
  status_->setWordWrap(true);
  // Two lines, whatever the message: a long one in a narrow dock must not squeeze the plot and the table below
  // their minimums (the dock cannot grow at 800×600); its whole text is the tooltip.
  status_->setFixedHeight(2 * status_->fontMetrics().lineSpacing() + 2);
  QSizePolicy fixed = status_->sizePolicy();  // and no height-for-width: the scroll area below would follow it
  fixed.setHeightForWidth(false);
  status_->setSizePolicy(fixed);
  status_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  layout->addWidget(status_);
  return buttons;
}

QWidget* PlannerDock::buildResultsPanel() {
  auto* resultsPanel = new QWidget;
  auto* resultsLayout = new QVBoxLayout(resultsPanel);
  resultsLayout->setContentsMargins(0, 0, 0, 0);
  resultsLayout->setSpacing(2);
  results_ = new PlannerResultsTable;
  connect(results_, &PlannerResultsTable::graspSelected, this, [this](int index) {
    if (index != current_) selectGrasp(index);
  });
  resultsLayout->addWidget(results_, 1);

  // Apply, browsing and the list's actions in one tool-bar row; what does not fit goes behind its » button, so a
  // short or narrow dock keeps the table's rows. Apply comes first: it is what a found grasp is for.
  auto* bar = new QToolBar;
  bar->setObjectName("plannerResultsBar");
  auto barButton = [&](const QString& text, const char* name, const QString& tip, auto slot) {
    auto* b = new QPushButton(text);
    b->setObjectName(name);
    b->setToolTip(tip);
    connect(b, &QPushButton::clicked, this, slot);
    bar->addWidget(b);
    return b;
  };
  applyButton_ = barButton(tr("Apply"), "plannerApplyButton", tr("Put the hand in the shown grasp (one undo step)"),
                           [this] { applyCurrent(); });
  barButton(QStringLiteral("<"), "plannerPreviousButton", tr("The grasp above in the table"), [this] { showPrevious(); });
  barButton(tr("Best"), "plannerBestButton", tr("The grasp with the lowest energy"), [this] { showBest(); });
  barButton(QStringLiteral(">"), "plannerNextButton", tr("The grasp below in the table"), [this] { showNext(); });
  showPre_ = new QRadioButton(tr("Pre-grasp"));
  showPre_->setObjectName("plannerShowPreGrasp");
  showFinalButton_ = new QRadioButton(tr("Final grasp"));
  showFinalButton_->setObjectName("plannerShowFinalGrasp");
  showFinalButton_->setChecked(true);
  connect(showFinalButton_, &QRadioButton::toggled, this, [this](bool on) { setShowFinalGrasp(on); });
  auto* which = new QButtonGroup(this);  // exclusive even when the tool bar's » moves one of them
  which->addButton(showPre_);
  which->addButton(showFinalButton_);
  bar->addWidget(showPre_);
  bar->addWidget(showFinalButton_);
  bar->addSeparator();
  barButton(tr("Capture"), "plannerCaptureButton", tr("Add the hand's current grasp to the list"),
            [this] { captureCurrent(); });
  barButton(tr("Save…"), "plannerSaveButton", tr("Save the grasp list (JSON)"), [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Grasp List"), {}, tr("Grasp lists (*.json)"));
    if (!path.isEmpty()) saveList(path);
  });
  barButton(tr("Load…"), "plannerLoadButton", tr("Load a grasp list (JSON)"), [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Grasp List"), {}, tr("Grasp lists (*.json)"));
    if (!path.isEmpty()) loadList(path);
  });
  barButton(tr("To Database…"), "plannerSaveDbButton",
            tr("Save the grasp list into a grasp database (a SQLite file, created if missing)"), [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Grasps to Database"), {},
                                                      tr("SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"),
                                                      nullptr, QFileDialog::DontConfirmOverwrite);
    if (!path.isEmpty()) saveToDatabase(path);
  });
  barButton(tr("As World…"), "plannerSaveWorldButton", tr("Save the world with the hand in the shown grasp"), [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Grasp as World"), {}, tr("Worlds (*.xml)"));
    if (!path.isEmpty()) saveCurrentAsWorld(path);
  });
  resultsLayout->addWidget(bar);
  return resultsPanel;
}

int PlannerDock::robotIndex() const {
  if (doc_->world().robots.empty()) return -1;
  if (auto* actions = window_->findChild<GraspActions*>(QStringLiteral("GraspActions"))) {
    const int r = actions->targetRobot();
    if (r >= 0) return r;
  }
  return 0;
}

int PlannerDock::graspableIndex() const {
  if (doc_->world().graspables.empty()) return -1;
  const int g = window_->analysis() ? window_->analysis()->graspableIndex() : -1;
  return g >= 0 ? g : 0;
}

void PlannerDock::rebuildVariables() { settings_->rebuildVariables(doc_->world(), robotIndex(), graspableIndex()); }

PlanRequest PlannerDock::request() const {
  const int robot = robotIndex(), graspable = graspableIndex();
  if (robot < 0) throw Error("the world has no hand to plan with");
  if (graspable < 0) throw Error("the world has no graspable object to plan for");
  std::optional<AnalysisRequest> analysis;
  if (window_->analysis()) {
    analysis = liveAnalysisRequest(window_->analysis()->settings(), graspable);
    analysis->measures.clear();
  }
  return settings_->request(doc_->world(), robot, graspable, analysis);
}

void PlannerDock::refreshTable() {
  results_->showList(list_, current_);
  updateButtons();
}

void PlannerDock::selectGrasp(int index) {
  if (index < 0 || index >= static_cast<int>(list_.grasps.size())) return;
  current_ = index;
  results_->selectGrasp(index);
  const PlannedGrasp& g = list_.grasps[static_cast<std::size_t>(index)];
  const HandConfiguration& c = showFinal_ ? g.grasp : g.preGrasp;
  const int robot = list_.robotIndex;
  if (robot >= 0 && robot < static_cast<int>(doc_->world().robots.size())) showPreview(robot, c);
  updateButtons();
}

void PlannerDock::showBest() {
  if (list_.grasps.empty()) return;
  int best = 0;
  for (std::size_t i = 1; i < list_.grasps.size(); ++i)
    if (list_.grasps[i].energy < list_.grasps[static_cast<std::size_t>(best)].energy) best = static_cast<int>(i);
  selectGrasp(best);
}

void PlannerDock::showPrevious() {
  const int row = current_ < 0 ? 0 : results_->rowOfGrasp(current_) - 1;
  if (row >= 0 && row < results_->rowCount()) selectGrasp(results_->graspAtRow(row));
}

void PlannerDock::showNext() {
  const int row = current_ < 0 ? 0 : results_->rowOfGrasp(current_) + 1;
  if (row >= 0 && row < results_->rowCount()) selectGrasp(results_->graspAtRow(row));
}

void PlannerDock::setShowFinalGrasp(bool final) {
  showFinal_ = final;
  {
    const QSignalBlocker a(showFinalButton_), b(showPre_);
    showFinalButton_->setChecked(final);
    showPre_->setChecked(!final);
  }
  if (current_ >= 0) selectGrasp(current_);
}

bool PlannerDock::applyCurrent() {
  if (current_ < 0 || current_ >= static_cast<int>(list_.grasps.size())) return false;
  const int robot = list_.robotIndex;
  const World& world = doc_->world();
  if (robot < 0 || robot >= static_cast<int>(world.robots.size())) {
    setStatus(tr("The list's hand (robot %1) is not in this world").arg(robot));
    return false;
  }
  const PlannedGrasp& g = list_.grasps[static_cast<std::size_t>(current_)];
  const HandConfiguration& c = showFinal_ ? g.grasp : g.preGrasp;
  const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
  WorldState after = world.state;
  RobotState& rs = after.robots[static_cast<std::size_t>(robot)];
  try {
    applyHandConfiguration(hand, rs, c);  // the joints that broke away while it closed too
  } catch (const Error& e) {
    setStatus(tr("The grasp does not fit %1: %2").arg(QString::fromStdString(hand.name), QString::fromUtf8(e.what())));
    return false;
  }
  updateConnections(world, after);
  auto* command = new SetRobotStatesCommand(doc_, after, tr("Apply Planned Grasp %1").arg(current_ + 1));
  if (command->isEmpty()) {
    delete command;
    return true;
  }
  clearPreview();
  doc_->push(command);
  appliedIndex_ = doc_->undoStack()->index();
  appliedText_ = doc_->undoStack()->undoText();
  appliedUndone_ = false;
  setStatus(tr("Applied grasp %1").arg(current_ + 1));
  applyStatus_ = statusText();
  return true;
}

bool PlannerDock::captureCurrent() {
  try {
    addCapturedGrasp(list_, doc_->world(), doc_->filePath().toStdString(), request());
  } catch (const Error& e) {
    setStatus(tr("Capture failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  current_ = static_cast<int>(list_.grasps.size()) - 1;
  refreshTable();
  setStatus(tr("Captured the current grasp as %1").arg(current_ + 1));
  return true;
}

bool PlannerDock::saveList(const QString& path) {
  try {
    saveGraspList(list_, path.toStdString());
  } catch (const Error& e) {
    setStatus(tr("Save failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  setStatus(tr("Saved %1 grasps to %2").arg(list_.grasps.size()).arg(path));
  return true;
}

bool PlannerDock::saveToDatabase(const QString& url) {
  if (list_.grasps.empty()) {
    setStatus(tr("No grasps to save"));
    return false;
  }
  try {
    const std::string contactModel = request().energy.analysis.contactModels.front();
    auto db = store::GraspStore::open(url.toStdString(), store::OpenMode::ReadWrite);
    const std::string key = store::insertGraspListRun(*db, "plan", doc_->world(), list_, contactModel,
                                                      "softgrasp (Grasp > Planner)");
    setStatus(tr("Saved %1 grasps to %2 as run %3").arg(list_.grasps.size()).arg(url, QString::fromStdString(key)));
  } catch (const std::exception& e) {
    setStatus(tr("Save to database failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  return true;
}

bool PlannerDock::loadList(const QString& path) {
  GraspList loaded;
  try {
    loaded = loadGraspList(path.toStdString());
    try {
      validateGraspList(loaded, doc_->world());
    } catch (const Error& e) {
      throw Error(e.message(), path.toStdString());
    }
  } catch (const Error& e) {
    setStatus(tr("Load failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  if (running_) reset();
  list_ = std::move(loaded);
  current_ = -1;
  refreshTable();
  if (!list_.grasps.empty()) showBest();
  setStatus(tr("Loaded %1 grasps from %2").arg(list_.grasps.size()).arg(path));
  return true;
}

bool PlannerDock::saveCurrentAsWorld(const QString& path) {
  if (current_ < 0 || current_ >= static_cast<int>(list_.grasps.size())) {
    setStatus(tr("Select a grasp to save"));
    return false;
  }
  const PlannedGrasp& g = list_.grasps[static_cast<std::size_t>(current_)];
  try {
    saveGraspAsWorld(doc_->world(), list_.robotIndex, showFinal_ ? g.grasp : g.preGrasp, path.toStdString());
  } catch (const Error& e) {
    setStatus(tr("Save failed: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  setStatus(tr("Saved grasp %1 as world %2").arg(current_ + 1).arg(path));
  return true;
}

bool PlannerDock::showPreview(int robot, const HandConfiguration& hand) {
  const World& world = doc_->world();
  const Robot& r = world.robots[static_cast<std::size_t>(robot)];
  WorldState state = world.state;  // a copy: the preview is drawn, never a Document edit
  try {
    applyHandConfiguration(r, state.robots[static_cast<std::size_t>(robot)], hand);  // its break-away joints too
  } catch (const Error& e) {
    setStatus(tr("The grasp does not fit %1: %2").arg(QString::fromStdString(r.name), QString::fromUtf8(e.what())));
    return false;
  }
  updateConnections(world, state);
  preview_ = std::move(state);
  if (ViewportPanel* panel = window_->viewportPanel()) {
    panel->scene()->updatePoses(world, *preview_);
    panel->viewport()->update();
  }
  return true;
}

void PlannerDock::clearPreview() {
  if (!preview_) return;
  preview_.reset();
  if (ViewportPanel* panel = window_->viewportPanel()) {
    panel->scene()->updatePoses(doc_->world());
    panel->viewport()->update();
  }
}

void PlannerDock::updateButtons() {
  const bool paused = isPaused();
  startButton_->setText(paused ? tr("Resume") : tr("Start"));
  startButton_->setEnabled(!running_ || paused);
  pauseButton_->setEnabled(running_ && !paused);
  cancelButton_->setEnabled(running_);
  applyButton_->setEnabled(current_ >= 0);
  settings_->setLocked(running_);
}

void PlannerDock::setStatus(const QString& text) {
  status_->setText(text);
  status_->setToolTip(text);
}

void PlannerDock::makeRoom() {
  if (isFloating() || !isVisible()) return;
  // What the dock asks for (run controls, settings or plot, result rows), at most 3/4 of the window but at least
  // its minimum (no scrolling); the docks sharing its column give height down to their minimums, the window does
  // not grow.
  const QWidget* body = static_cast<QScrollArea*>(widget())->widget();  // the holder of the content
  const int frame = height() - widget()->height();  // title bar
  const int wanted = std::max(std::min(body->sizeHint().height() + frame, window_->height() * 3 / 4),
                              body->minimumSizeHint().height() + frame);
  if (height() < wanted) {
    // The docks above or below in the same column (not the tabs sharing this place) give what they have beyond
    // their minimums, in turn.
    QList<QDockWidget*> docks{this};
    QList<int> sizes{wanted};
    int missing = wanted - height();
    const QList<QDockWidget*> tabs = window_->tabifiedDockWidgets(this);
    for (QDockWidget* d : window_->findChildren<QDockWidget*>()) {
      if (d == this || tabs.contains(d) || d->isFloating() || !d->isVisible() ||
          window_->dockWidgetArea(d) != window_->dockWidgetArea(this) || d->x() != x())
        continue;
      const int spare = std::max(0, d->height() - d->minimumSizeHint().expandedTo(d->minimumSize()).height());
      const int give = std::min(spare, missing);
      docks << d;
      sizes << d->height() - give;
      missing -= give;
    }
    sizes[0] = wanted - missing;
    window_->resizeDocks(docks, sizes, Qt::Vertical);
  }
  QTimer::singleShot(0, this, &PlannerDock::balanceSplitter);  // once the dock has its new height
}

void PlannerDock::balanceSplitter() {
  const QList<int> sizes = splitter_->sizes();
  if (sizes.size() != 2) return;
  const int total = sizes[0] + sizes[1];
  const int comfortable =
      splitter_->widget(1)->minimumSizeHint().height() + 3 * results_->verticalHeader()->defaultSectionSize();
  if (sizes[1] >= comfortable) return;  // as large as that already (or made so by the user)
  const int results =
      std::max(sizes[1], std::min(comfortable, total - splitter_->widget(0)->minimumSizeHint().height()));
  splitter_->setSizes({total - results, results});
}

void PlannerDock::followUndoStack(int index) {
  if (appliedIndex_ < 0) return;
  const QUndoStack* stack = doc_->undoStack();
  if (stack->count() < appliedIndex_ || stack->text(appliedIndex_ - 1) != appliedText_) {
    appliedIndex_ = -1;  // the Apply left the history (undone and replaced, or a new world)
    return;
  }
  const bool undone = index < appliedIndex_;
  if (undone == appliedUndone_) return;
  appliedUndone_ = undone;
  if (statusText() != applyStatus_) return;  // the line has moved on to something else
  setStatus((undone ? tr("Undone: %1") : tr("Redone: %1")).arg(appliedText_));
  applyStatus_ = statusText();
}

QString PlannerDock::statusText() const { return status_->text(); }

void installPlannerTools(MainWindow* window) {
  auto* dock = new PlannerDock(window);
  // A tab behind the scene tree: the default layout of the other docks stays as it was; Grasp > Planner
  // brings it forward (it can be floated for a larger plot).
  window->addDock(dock, Qt::LeftDockWidgetArea);
  window->tabifyDockWidget(window->sceneTreeDock(), dock);
  window->sceneTreeDock()->raise();
  QAction* action = window->graspMenu()->addAction(PlannerDock::tr("&Planner…"));
  action->setObjectName("actionPlanner");
  action->setStatusTip(PlannerDock::tr("Plan grasps with simulated annealing (GraspIt!'s eigengrasp planner)"));
  QObject::connect(action, &QAction::triggered, dock, [dock] {
    dock->show();
    dock->raise();
    dock->makeRoom();
  });
  // Raised by its tab too: the same room.
  QObject::connect(dock, &QDockWidget::visibilityChanged, dock, [dock](bool visible) {
    if (visible) QTimer::singleShot(0, dock, &PlannerDock::makeRoom);
  });
}

}  // namespace sg::app
