#include "PlannerDock.h"

#include <QAction>
#include <QButtonGroup>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QTableWidget>
#include <QUndoStack>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>
#include <chrono>
#include <mutex>
#include <cmath>
#include <thread>

#include "Document.h"
#include "FeatureTools.h"
#include "GraspActions.h"
#include "GraspAnalysis.h"
#include "GraspCommands.h"
#include "JobRunner.h"
#include "MainWindow.h"
#include "RefusedInput.h"
#include "SceneTreeDock.h"
#include "ViewportPanel.h"
#include "WrappingRow.h"
#include "core/Error.h"
#include "grasp/planner/OnlinePlanner.h"
#include "model/Kinematics.h"
#include "render/SceneBuilder.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

using namespace sg::planner;

namespace {

constexpr int kTick_ms = 100;          // live view poll
constexpr int kPreviewEvery_ms = 200;  // search state shown in the viewport at most 5 times a second
constexpr int kTallChart_px = 160;     // a live plot this high has room for its axis titles

enum VariableColumn { kVarName, kVarOn, kVarInput, kVarTarget, kVarConfidence, kVarColumns };
enum ResultColumn { kResRank, kResEnergy, kResForceClosure, kResEpsilon, kResVolume, kResContacts, kResColumns };

// The dock's content: QScrollArea sizes a resizable widget with height-for-width to its preferred height (here
// the table's and plot's, so it scrolled at once); this one reports none, and is sized to the viewport.
class WithoutHeightForWidth : public QWidget {
 public:
  bool hasHeightForWidth() const override { return false; }
};

QTableWidgetItem* numberItem(double value, bool valid = true) {
  auto* item = new QTableWidgetItem;
  item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (valid && std::isfinite(value)) item->setData(Qt::DisplayRole, value);
  else item->setData(Qt::DisplayRole, QStringLiteral("-"));
  return item;
}

// A cell's number; nullopt for an empty cell; sg::Error naming the cell otherwise.
std::optional<double> cellNumber(const QTableWidget* table, int row, int column, const QString& what) {
  const QTableWidgetItem* item = table->item(row, column);
  const QString text = item ? item->text().trimmed() : QString();
  if (text.isEmpty()) return std::nullopt;
  bool ok = false;
  const double v = text.toDouble(&ok);
  if (!ok || !std::isfinite(v))
    throw Error(QStringLiteral("%1 of %2: '%3' is not a number")
                    .arg(what, table->item(row, kVarName)->text(), text)
                    .toStdString());
  return v;
}

}  // namespace

PlannerDock::PlannerDock(MainWindow* window)
    : QDockWidget(tr("Planner"), window), window_(window), doc_(window->document()), runner_(new JobRunner(this)) {
  setObjectName("plannerDock");
  buildUi();
  tick_.setInterval(kTick_ms);
  connect(&tick_, &QTimer::timeout, this, &PlannerDock::onTick);
  connect(runner_, &JobRunner::finished, this, &PlannerDock::onFinished);
  connect(runner_, &JobRunner::failed, this, &PlannerDock::onFailed);
  connect(runner_, &JobRunner::cancelled, this, &PlannerDock::onCancelled);
  connect(runner_, &JobRunner::progress, this, [this](std::uint64_t tag, double fraction, const QString& message) {
    if (tag != runTag_) return;
    progress_->setValue(static_cast<int>(std::lround(1000 * fraction)));
    progress_->setFormat(message);
  });
  connect(doc_, &Document::worldReplaced, this, &PlannerDock::onWorldReplaced);
  connect(doc_->undoStack(), &QUndoStack::indexChanged, this, &PlannerDock::followUndoStack);
  connect(doc_, &Document::worldChanged, this, [this](ChangeKind kind) {
    if (online_ && running_ && (kind == ChangeKind::Poses || kind == ChangeKind::Dofs)) onlineFollowHand();
    preview_.reset();  // the viewport follows the Document again
    if (kind == ChangeKind::Structure && !running_) rebuildVariables();
  });
  rebuildVariables();
  updateButtons();
}

PlannerDock::~PlannerDock() {
  if (monitor_) monitor_->setPaused(false);
  runner_->cancel();
}

void PlannerDock::buildUi() {
  // Settings: the first tab, in their own scroll area, so Start / Cancel (above) and the results (below) never
  // scroll out of sight however short the dock is (issue 33).
  auto* settings = new QWidget;
  auto* settingsLayout = new QVBoxLayout(settings);
  auto* form = new QFormLayout;
  plannerType_ = new QComboBox;
  plannerType_->setObjectName("plannerTypeCombo");
  plannerType_->addItem(tr("Sim. Ann."), QStringLiteral("simann"));
  plannerType_->addItem(tr("Loop"), QStringLiteral("loop"));
  plannerType_->addItem(tr("Guided (multi-threaded)"), QStringLiteral("guided"));
  plannerType_->addItem(tr("Online (follows the hand)"), QStringLiteral("online"));
  form->addRow(tr("Type"), plannerType_);
  energy_ = new QComboBox;
  energy_->setObjectName("plannerEnergyCombo");
  for (const std::string& e : energyNames()) energy_->addItem(QString::fromStdString(e));
  form->addRow(tr("Energy"), energy_);
  space_ = new QComboBox;
  space_->setObjectName("plannerSpaceCombo");
  for (const std::string& s : positionSpaceNames()) space_->addItem(QString::fromStdString(s));
  form->addRow(tr("Search space"), space_);
  params_ = new QComboBox;
  params_->setObjectName("plannerParamsCombo");
  for (const std::string& p : AnnealingParams::names()) params_->addItem(QString::fromStdString(p));
  form->addRow(tr("Parameters"), params_);
  steps_ = new QSpinBox;
  steps_->setObjectName("plannerStepsSpin");
  steps_->setRange(1, 100000000);
  steps_->setValue(70000);
  form->addRow(tr("Max steps"), steps_);
  // The counter runs from the parameter set's first step K0 (30 000 for default): the limit must exceed it
  // (requireStepsBeyondStart), so the spin box's minimum follows the parameter set.
  const auto followParams = [this](const QString& name) {
    const AnnealingParams p = AnnealingParams::byName(name.toStdString());
    steps_->setMinimum(static_cast<int>(p.k0 + 1));
    steps_->setToolTip(tr("The step counter's end: it runs from the parameter set's first step (%1 for '%2') to "
                          "this limit, as in GraspIt!").arg(p.k0).arg(name));
  };
  connect(params_, &QComboBox::currentTextChanged, this, followParams);
  followParams(params_->currentText());
  timeLimit_ = new QDoubleSpinBox;
  timeLimit_->setObjectName("plannerTimeLimitSpin");
  timeLimit_->setRange(0, 86400);
  timeLimit_->setDecimals(1);
  timeLimit_->setSuffix(tr(" s"));
  timeLimit_->setSpecialValueText(tr("none"));
  form->addRow(tr("Time limit"), timeLimit_);
  seed_ = new QSpinBox;
  seed_->setObjectName("plannerSeedSpin");
  seed_->setRange(0, std::numeric_limits<int>::max());
  seed_->setValue(1);
  form->addRow(tr("Seed"), seed_);
  threads_ = new QSpinBox;
  threads_->setObjectName("plannerThreadsSpin");
  threads_->setRange(1, 256);
  threads_->setValue(static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  threads_->setToolTip(tr("Worker threads; the list does not depend on them"));
  form->addRow(tr("Threads"), threads_);
  chains_ = new QSpinBox;
  chains_->setObjectName("plannerChainsSpin");
  chains_->setRange(1, 256);
  chains_->setValue(4);
  form->addRow(tr("Chains"), chains_);
  // A number the box refuses (out of range, unfinished) is said in the status line, not silently reverted.
  const std::pair<QAbstractSpinBox*, QString> numeric[] = {{steps_, tr("Max steps")}, {timeLimit_, tr("Time limit")},
                                                           {seed_, tr("Seed")}, {threads_, tr("Threads")},
                                                           {chains_, tr("Chains")}};
  for (const auto& [box, what] : numeric)
    reportRefusedInput(box, what, [this](const QString& message) {
      setStatus(message);
      refusedInput_ = message;
    });
  // A new value clears it (Enter re-emits the kept value: not new).
  for (QSpinBox* box : {steps_, seed_, threads_, chains_})
    connect(box, &QSpinBox::valueChanged, this, [this, last = box->value()](int v) mutable {
      if (v != last) refusedInput_.clear();
      last = v;
    });
  connect(timeLimit_, &QDoubleSpinBox::valueChanged, this, [this, last = timeLimit_->value()](double v) mutable {
    if (v != last) refusedInput_.clear();
    last = v;
  });
  presetContacts_ = new QCheckBox(tr("Preset contacts"));
  presetContacts_->setObjectName("plannerPresetContactsCheck");
  presetContacts_->setChecked(true);
  showSearch_ = new QCheckBox(tr("Show search"));
  showSearch_->setObjectName("plannerShowSearchCheck");
  showSearch_->setChecked(true);
  showSearch_->setToolTip(tr("Show the current search state in the 3-D view (5 times a second)"));
  auto* checks = new QHBoxLayout;
  checks->addWidget(presetContacts_);
  checks->addWidget(showSearch_);
  form->addRow(checks);
  settingsLayout->addLayout(form);

  variables_ = new QTableWidget(0, kVarColumns);
  variables_->setObjectName("plannerVariablesTable");
  variables_->setHorizontalHeaderLabels({tr("Variable"), tr("On"), tr("Input"), tr("Target"), tr("Confidence")});
  variables_->verticalHeader()->hide();
  variables_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  variables_->setMinimumHeight(120);
  settingsLayout->addWidget(variables_);
  auto* settingsScroll = new QScrollArea;
  settingsScroll->setObjectName("plannerSettingsScroll");
  settingsScroll->setWidgetResizable(true);
  settingsScroll->setWidget(settings);

  // Run control, always on top: Start / Pause / Reset / Cancel (wrapping in a narrow dock), progress, status.
  auto* body = new WithoutHeightForWidth;
  auto* layout = new QVBoxLayout(body);
  // Tight margins and spacing: at 800×600 the dock shares its column with Properties and every pixel of its
  // minimum height counts against the window's.
  layout->setContentsMargins(2, 2, 2, 2);
  layout->setSpacing(3);
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

  buildChart();
  tabs_ = new QTabWidget;
  tabs_->setObjectName("plannerTabs");
  tabs_->setDocumentMode(true);  // no frame: a few pixels more for the plot on small screens
  tabs_->addTab(settingsScroll, tr("Settings"));
  tabs_->addTab(chartView_, tr("Plot"));

  auto* resultsPanel = new QWidget;
  auto* resultsLayout = new QVBoxLayout(resultsPanel);
  resultsLayout->setContentsMargins(0, 0, 0, 0);
  resultsLayout->setSpacing(2);
  results_ = new QTableWidget(0, kResColumns);
  results_->setObjectName("plannerResultsTable");
  results_->setHorizontalHeaderLabels(
      {tr("Rank"), tr("Energy"), tr("FC"), tr("ε L1"), tr("Volume L1"), tr("Contacts")});
  results_->verticalHeader()->hide();
  results_->setSelectionBehavior(QAbstractItemView::SelectRows);
  results_->setSelectionMode(QAbstractItemView::SingleSelection);
  results_->setSortingEnabled(true);
  // QHeaderView's default indicator is descending: without this the table opened with the last rank on top.
  results_->sortByColumn(kResRank, Qt::AscendingOrder);
  results_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  // The header and two rows at least.
  results_->setMinimumHeight(results_->horizontalHeader()->sizeHint().height() +
                             2 * results_->verticalHeader()->defaultSectionSize() + 2 * results_->frameWidth());
  connect(results_, &QTableWidget::itemSelectionChanged, this, [this] {
    const auto rows = results_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    const int index = results_->item(rows.front().row(), kResRank)->data(Qt::UserRole).toInt();
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
  barButton(tr("As World…"), "plannerSaveWorldButton", tr("Save the world with the hand in the shown grasp"), [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Grasp as World"), {}, tr("Worlds (*.xml)"));
    if (!path.isEmpty()) saveCurrentAsWorld(path);
  });
  resultsLayout->addWidget(bar);

  // Settings/plot above the results; the user moves the handle, neither side can be squeezed away.
  splitter_ = new QSplitter(Qt::Vertical);
  splitter_->setObjectName("plannerSplitter");
  splitter_->setChildrenCollapsible(false);
  splitter_->setHandleWidth(4);
  splitter_->addWidget(tabs_);
  splitter_->addWidget(resultsPanel);
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
  connect(space_, &QComboBox::currentIndexChanged, this, [this] {
    if (!running_) rebuildVariables();
  });
}

void PlannerDock::buildChart() {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  // Short names: a legend wider than the dock elides them (the axis titles say "energy" and "ε").
  currentSeries_ = new QLineSeries;
  currentSeries_->setName(tr("current"));
  bestSeries_ = new QLineSeries;
  bestSeries_->setName(tr("best"));
  epsilonSeries_ = new QLineSeries;
  epsilonSeries_->setName(tr("ε"));
  for (QLineSeries* s : {currentSeries_, bestSeries_, epsilonSeries_}) chart->addSeries(s);
  // Short labels in a smaller font, few ticks: in a dock a few hundred pixels wide the default format and five
  // ticks per axis left every label elided to "…" (issue 33).
  QFont labels = chart->font();
  labels.setPointSizeF(std::max(6.0, labels.pointSizeF() * 0.8));
  axisX_ = new QValueAxis;
  axisX_->setTitleText(tr("iteration"));
  axisX_->setLabelFormat("%.0f");
  axisEnergy_ = new QValueAxis;
  axisEnergy_->setTitleText(tr("energy"));
  axisEnergy_->setLabelFormat("%.3g");
  axisEpsilon_ = new QValueAxis;
  axisEpsilon_->setTitleText(tr("ε"));
  axisEpsilon_->setLabelFormat("%.2g");
  for (QValueAxis* a : {axisX_, axisEnergy_, axisEpsilon_}) {
    a->setLabelsFont(labels);
    a->setTitleFont(labels);
  }
  chart->legend()->setFont(labels);
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisEnergy_, Qt::AlignLeft);
  chart->addAxis(axisEpsilon_, Qt::AlignRight);
  for (QLineSeries* s : {currentSeries_, bestSeries_, epsilonSeries_}) s->attachAxis(axisX_);
  currentSeries_->attachAxis(axisEnergy_);
  bestSeries_->attachAxis(axisEnergy_);
  epsilonSeries_->attachAxis(axisEpsilon_);
  chartView_ = new QChartView(chart);
  chartView_->setObjectName("plannerChart");
  // Room for two ticks a side, the titles and the legend at the smaller font; the splitter gives more when it can.
  chartView_->setMinimumSize(120, 110);
  chartView_->setRenderHint(QPainter::Antialiasing);
  chartView_->setToolTip(tr("Chain 0's current energy and the best energy so far (left axis) and the best grasp's "
                            "ε (right axis) against the iteration"));
  connect(chart, &QChart::plotAreaChanged, this, &PlannerDock::fitChartTicks);
  fitChartTicks(chart->plotArea());
}

// Qt Charts gives each tick label 1/n of its axis (less padding) and elides a label that does not fit to "…", so
// the tick counts follow the plot's size: every label gets its text's height (y) or width (x) and some air.
void PlannerDock::fitChartTicks(const QRectF& plot) {
  constexpr double kPadding_px = 2 * 5 + 4;  // Qt Charts' label padding on both sides, and a margin
  const QFontMetricsF metrics(axisX_->labelsFont());
  const auto ticks = [](double room, double label) {
    return std::clamp(static_cast<int>(room / (label + kPadding_px)), 2, 6);
  };
  const int y = ticks(plot.height(), metrics.height());
  const double widestX = metrics.horizontalAdvance(QString::number(std::max(std::abs(axisX_->max()), 100000.0), 'f', 0));
  const int x = ticks(plot.width(), widestX);
  // A short chart drops the axis titles (the tooltip says what is plotted): the plot keeps the height two ticks
  // need, the side axes the width of their labels.
  const bool tall = chartView_->height() >= kTallChart_px;
  for (QValueAxis* a : {axisX_, axisEnergy_, axisEpsilon_})
    if (a->isTitleVisible() != tall) a->setTitleVisible(tall);
  if (axisEnergy_->tickCount() != y) axisEnergy_->setTickCount(y);
  if (axisEpsilon_->tickCount() != y) axisEpsilon_->setTickCount(y);
  if (axisX_->tickCount() != x) axisX_->setTickCount(x);
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

void PlannerDock::rebuildVariables() {
  variables_->setRowCount(0);
  const int robot = robotIndex(), graspable = graspableIndex();
  if (robot < 0 || graspable < 0) return;
  HandSearchSpace space;
  try {
    space = makeSearchSpace(doc_->world(), doc_->world().state, robot, graspable,
                            positionSpaceFromString(space_->currentText().toStdString()));
  } catch (const Error&) {
    return;
  }
  variables_->setRowCount(static_cast<int>(space.variables.size()));
  for (std::size_t i = 0; i < space.variables.size(); ++i) {
    const SearchVariable& v = space.variables[i];
    const int row = static_cast<int>(i);
    auto* name = new QTableWidgetItem(QString::fromStdString(v.name));
    name->setFlags(Qt::ItemIsEnabled);
    name->setToolTip(tr("range [%1, %2], max jump %3").arg(v.min).arg(v.max).arg(v.maxJump));
    variables_->setItem(row, kVarName, name);
    auto* on = new QTableWidgetItem;
    on->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    on->setCheckState(Qt::Checked);
    on->setToolTip(tr("Off: the variable stays at its input value"));
    variables_->setItem(row, kVarOn, on);
    // Shown with 6 digits; the exact start value is kept so an unedited cell gives the hand's exact
    // configuration (the search depends on it: the same seed then gives the CLI's list).
    auto* input = new QTableWidgetItem(QString::number(v.value, 'g', 6));
    input->setData(Qt::UserRole, v.value);
    input->setData(Qt::UserRole + 1, input->text());
    variables_->setItem(row, kVarInput, input);
    variables_->setItem(row, kVarTarget, new QTableWidgetItem);
    variables_->setItem(row, kVarConfidence, new QTableWidgetItem(QStringLiteral("0")));
  }
}

PlanRequest PlannerDock::request() const {
  const int robot = robotIndex(), graspable = graspableIndex();
  if (robot < 0) throw Error("the world has no hand to plan with");
  if (graspable < 0) throw Error("the world has no graspable object to plan for");
  PlanRequest r;
  const std::string type = plannerType_->currentData().toString().toStdString();
  if (type != "online") r.planner = plannerFromString(type);  // online: OnlinePlanner, not planGrasps
  r.robot = robot;
  r.graspable = graspable;
  r.space = positionSpaceFromString(space_->currentText().toStdString());
  r.energy.kind = energyFromString(energy_->currentText().toStdString());
  r.energy.presetContacts = presetContacts_->isChecked();
  if (window_->analysis()) {
    r.energy.analysis = liveAnalysisRequest(window_->analysis()->settings(), graspable);
    r.energy.analysis.measures.clear();
  }
  r.params = AnnealingParams::byName(params_->currentText().toStdString());
  r.maxSteps = steps_->value();
  r.timeLimit_s = timeLimit_->value();
  r.seed = static_cast<std::uint64_t>(seed_->value());
  r.threads = threads_->value();
  r.chains = chains_->value();
  const HandSearchSpace space = makeSearchSpace(doc_->world(), doc_->world().state, robot, graspable, r.space);
  if (variables_->rowCount() == static_cast<int>(space.variables.size())) {
    r.variables = space.variables;
    for (int row = 0; row < variables_->rowCount(); ++row) {
      SearchVariable& v = r.variables[static_cast<std::size_t>(row)];
      v.fixed = variables_->item(row, kVarOn)->checkState() != Qt::Checked;
      const QTableWidgetItem* inputItem = variables_->item(row, kVarInput);
      if (inputItem && inputItem->text() == inputItem->data(Qt::UserRole + 1).toString())
        v.value = inputItem->data(Qt::UserRole).toDouble();  // unedited: exact
      else if (auto input = cellNumber(variables_, row, kVarInput, "Input"))
        v.value = *input;
      v.target = cellNumber(variables_, row, kVarTarget, "Target");
      v.confidence = cellNumber(variables_, row, kVarConfidence, "Confidence").value_or(0.0);
      if (v.confidence < 0 || v.confidence > 1)  // said, not clamped behind the user's back
        throw Error(QStringLiteral("Confidence of %1: %2 is not in 0 to 1")
                        .arg(variables_->item(row, kVarName)->text())
                        .arg(v.confidence)
                        .toStdString());
    }
  }
  return r;
}

bool PlannerDock::isPaused() const { return running_ && monitor_ && monitor_->paused(); }

bool PlannerDock::start() {
  if (running_) {
    if (monitor_) monitor_->setPaused(false);
    setStatus(tr("Running"));
    updateButtons();
    return true;
  }
  if (!refusedInput_.isEmpty()) {  // the box was reverted as Start took focus: say so rather than run silently
    setStatus(tr("Not started: %1. Start again to run with it.").arg(refusedInput_));
    refusedInput_.clear();
    return false;
  }
  PlanRequest r;
  try {
    r = request();
    runSpace_ = makeSearchSpace(doc_->world(), r);
  } catch (const Error& e) {
    setStatus(tr("Cannot start: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  if (plannerType_->currentData().toString() == QStringLiteral("online")) return startOnline(r);
  clearPreview();
  monitor_ = std::make_shared<AnnealingMonitor>();
  runWorld_ = std::make_shared<const World>(doc_->world());
  runRequest_ = r;
  currentSeries_->clear();
  bestSeries_->clear();
  epsilonSeries_->clear();
  liveIterations_ = 0;
  progress_->setValue(0);
  running_ = true;
  runTag_++;
  std::shared_ptr<const World> world = runWorld_;
  std::shared_ptr<AnnealingMonitor> monitor = monitor_;
  runner_->submit(runTag_, [world, r, monitor](ProgressSink& progress) mutable -> std::any {
    r.monitor = monitor.get();
    return std::make_shared<const PlanResult>(planGrasps(*world, r, progress));
  });
  lastPreview_.start();
  tick_.start();
  tabs_->setCurrentWidget(chartView_);  // the settings are locked while it runs: show the live plot
  setStatus(tr("Running"));
  updateButtons();
  return true;
}

// What the online planner's job and the GUI exchange (under `mutex`).
struct OnlineShared {
  std::mutex mutex;
  std::optional<std::pair<Transform, std::vector<double>>> target;  // the hand moved: new target (GUI → job)
  std::vector<double> bestState;                                  // job → GUI
  double bestEnergy = 0;
  std::size_t bestCount = 0;
  long iterations = 0;
};

bool PlannerDock::startOnline(const PlanRequest& request) {
  if (request.space == PositionSpace::Approach) {
    setStatus(tr("Cannot start: the online planner needs a space fixed to the object (not approach)"));
    return false;
  }
  clearPreview();
  monitor_.reset();
  online_ = std::make_shared<OnlineShared>();
  runWorld_ = std::make_shared<const World>(doc_->world());
  runRequest_ = request;
  liveIterations_ = 0;
  progress_->setValue(0);
  running_ = true;
  runTag_++;
  std::shared_ptr<const World> world = runWorld_;
  std::shared_ptr<OnlineShared> shared = online_;
  runner_->submit(runTag_, [world, request, shared](ProgressSink& progress) -> std::any {
    OnlinePlanner planner(*world, request);
    auto lastReport = std::chrono::steady_clock::now();
    while (!progress.cancelRequested()) {
      std::optional<std::pair<Transform, std::vector<double>>> target;
      {
        const std::lock_guard lock(shared->mutex);
        target.swap(shared->target);
      }
      if (target) planner.setTarget(target->first, target->second);
      planner.step(8);
      {
        const std::lock_guard lock(shared->mutex);
        shared->iterations = planner.iterations();
        shared->bestCount = planner.best().size();
        shared->bestState = planner.best().empty() ? std::vector<double>{} : planner.best().front().x;
        shared->bestEnergy = planner.best().empty() ? 0.0 : planner.best().front().energy;
      }
      if (std::chrono::steady_clock::now() - lastReport > std::chrono::milliseconds(200)) {
        lastReport = std::chrono::steady_clock::now();
        progress.report(0, "online: " + std::to_string(planner.iterations()) + " iterations");
      }
    }
    auto out = std::make_shared<PlanResult>();
    out->space = planner.space();
    out->graspable = planner.space().graspable;
    out->annealing.best = planner.best();
    out->annealing.iterations = planner.iterations();
    out->annealing.stopReason = StopReason::Cancelled;
    out->grasps = planner.measuredBest();
    return std::shared_ptr<const PlanResult>(out);
  });
  lastPreview_.start();
  tick_.start();
  setStatus(tr("Online: following the hand"));
  updateButtons();
  return true;
}

void PlannerDock::onlineFollowHand() {
  const int robot = runRequest_.robot;
  if (robot < 0 || robot >= static_cast<int>(doc_->world().state.robots.size())) return;
  const RobotState& rs = doc_->world().state.robots[static_cast<std::size_t>(robot)];
  const std::lock_guard lock(online_->mutex);
  online_->target = std::make_pair(rs.X_WP, rs.dofValues);
}

void PlannerDock::onlineTick() {
  std::vector<double> best;
  double energy = 0;
  std::size_t count = 0;
  {
    const std::lock_guard lock(online_->mutex);
    liveIterations_ = online_->iterations;
    best = online_->bestState;
    energy = online_->bestEnergy;
    count = online_->bestCount;
  }
  if (showSearch_->isChecked() && runSpace_ && !best.empty() && lastPreview_.elapsed() >= kPreviewEvery_ms &&
      runSpace_->robot < static_cast<int>(doc_->world().robots.size())) {
    lastPreview_.restart();
    showPreview(runSpace_->robot, runSpace_->palmPose(best), runSpace_->dofValues(doc_->world(), best));
  }
  if (running_)
    setStatus(tr("Online: %1 iterations, %2 states near the hand, best energy %3")
                  .arg(liveIterations_)
                  .arg(count)
                  .arg(energy, 0, 'g', 5));
}

void PlannerDock::pause() {
  if (!running_ || !monitor_) return;
  monitor_->setPaused(true);
  setStatus(tr("Paused after %1 iterations").arg(liveIterations_));
  updateButtons();
}

void PlannerDock::cancel() {
  if (!running_) return;
  if (monitor_) monitor_->setPaused(false);
  runner_->cancel();
  setStatus(tr("Cancelling…"));
  // Cancelled before the worker took it up (Esc right after Start): the job is dropped and reports nothing.
  if (!runner_->busy()) onCancelled(runTag_);
}

void PlannerDock::onCancelled(std::uint64_t tag) {
  if (tag != runTag_ || !running_) return;
  online_.reset();
  tick_.stop();
  running_ = false;
  clearPreview();
  setStatus(tr("Cancelled before any grasp was found"));
  updateButtons();
  emit runFinished();
}

void PlannerDock::reset() {
  if (running_) {
    runTag_++;  // its outcome is dropped
    if (monitor_) monitor_->setPaused(false);
    runner_->cancel();
    running_ = false;
    tick_.stop();
  }
  monitor_.reset();
  online_.reset();
  runSpace_.reset();
  list_ = {};
  current_ = -1;
  results_->sortByColumn(kResRank, Qt::AscendingOrder);  // a new list opens in planner order
  currentSeries_->clear();
  bestSeries_->clear();
  epsilonSeries_->clear();
  liveIterations_ = 0;
  progress_->setValue(0);
  progress_->setFormat(QStringLiteral("%p%"));
  refreshTable();
  clearPreview();
  rebuildVariables();
  setStatus({});
  updateButtons();
}

void PlannerDock::onWorldReplaced() {
  reset();
}

int PlannerDock::plottedSamples() const { return static_cast<int>(currentSeries_->count()); }

void PlannerDock::addChartSample(double iteration, double current, double best) {
  currentSeries_->append(iteration, current);
  bestSeries_->append(iteration, best);
}

void PlannerDock::rescaleChart() {
  double xMax = 1, eMin = 0, eMax = 1, epsMax = 0;
  bool first = true;
  for (QLineSeries* s : {currentSeries_, bestSeries_})
    for (const QPointF& p : s->points()) {
      xMax = std::max(xMax, p.x());
      if (first) eMin = eMax = p.y();
      first = false;
      eMin = std::min(eMin, p.y());
      eMax = std::max(eMax, p.y());
    }
  for (const QPointF& p : epsilonSeries_->points()) {
    xMax = std::max(xMax, p.x());
    epsMax = std::max(epsMax, p.y());
  }
  if (eMax - eMin < 1e-9) eMax = eMin + 1;
  axisX_->setRange(0, xMax);
  axisEnergy_->setRange(eMin, eMax);
  axisEpsilon_->setRange(0, epsMax > 0 ? epsMax * 1.1 : 1);
}

void PlannerDock::onTick() {
  if (online_) {
    onlineTick();
    return;
  }
  if (!monitor_) return;
  const AnnealingMonitor::Snapshot snap = monitor_->take();
  liveIterations_ = std::max(liveIterations_, snap.iterations);
  for (const AnnealingMonitor::Sample& s : snap.samples)
    addChartSample(static_cast<double>(s.iteration), s.current, s.best);
  for (const AnnealingMonitor::QualitySample& q : snap.quality)
    epsilonSeries_->append(static_cast<double>(q.iteration), q.value);
  if (!snap.samples.empty() || !snap.quality.empty()) rescaleChart();
  if (showSearch_->isChecked() && runSpace_ && !snap.currentState.empty() && !isPaused() &&
      lastPreview_.elapsed() >= kPreviewEvery_ms) {
    lastPreview_.restart();
    const HandSearchSpace& space = *runSpace_;
    if (space.robot < static_cast<int>(doc_->world().robots.size()))
      showPreview(space.robot, space.palmPose(snap.currentState), space.dofValues(doc_->world(), snap.currentState));
  }
  if (running_ && !isPaused())
    setStatus(tr("Running: %1 iterations, best energy %2").arg(liveIterations_).arg(snap.bestEnergy, 0, 'g', 5));
}

void PlannerDock::onFinished(std::uint64_t tag, const std::any& result) {
  if (tag != runTag_) return;
  onTick();  // the last samples
  tick_.stop();
  running_ = false;
  const auto* planned = JobRunner::resultAs<std::shared_ptr<const PlanResult>>(result);
  if (!planned || !*planned) {
    onFailed(tag, tr("no result"));
    return;
  }
  const bool wasOnline = online_ != nullptr;
  online_.reset();
  const PlanResult& r = **planned;
  list_ = makeGraspList(*runWorld_, doc_->filePath().toStdString(), runRequest_, r);
  if (wasOnline) {  // OnlinePlanner, not planGrasps: its own type and (by default) GraspIt!'s online parameters
    list_.planner = "online";
    if (runRequest_.params.name == "default") list_.params = "online";
  }
  progress_->setValue(1000);
  progress_->setFormat(tr("done"));
  const AnnealingResult& a = r.annealing;
  const auto fc = std::count_if(r.grasps.begin(), r.grasps.end(), [](const PlannedGrasp& g) { return g.forceClosure; });
  setStatus(tr("Stopped (%1) after %2 iterations in %3 s: %4 grasps, %5 force closure")
                .arg(QString::fromUtf8(toString(a.stopReason)))
                .arg(a.iterations)
                .arg(a.elapsed_s, 0, 'f', 1)
                .arg(r.grasps.size())
                .arg(fc));
  current_ = -1;
  clearPreview();
  refreshTable();
  if (!list_.grasps.empty()) showBest();
  updateButtons();
  emit runFinished();
}

void PlannerDock::onFailed(std::uint64_t tag, const QString& error) {
  if (tag != runTag_) return;
  online_.reset();
  tick_.stop();
  running_ = false;
  clearPreview();
  setStatus(tr("Planner failed: %1").arg(error));
  updateButtons();
  emit runFinished();
}

void PlannerDock::refreshTable() {
  results_->setSortingEnabled(false);
  results_->clearContents();
  results_->setRowCount(static_cast<int>(list_.grasps.size()));
  for (std::size_t i = 0; i < list_.grasps.size(); ++i) {
    const PlannedGrasp& g = list_.grasps[i];
    const int row = static_cast<int>(i);
    auto* rank = numberItem(static_cast<double>(i + 1));
    rank->setData(Qt::UserRole, row);
    results_->setItem(row, kResRank, rank);
    results_->setItem(row, kResEnergy, numberItem(g.energy));
    auto* fc = new QTableWidgetItem(g.forceClosure ? tr("yes") : tr("no"));
    fc->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    results_->setItem(row, kResForceClosure, fc);
    const MeasureValue* eps = g.measure("epsilon-l1");
    const MeasureValue* vol = g.measure("volume-l1");
    results_->setItem(row, kResEpsilon, numberItem(eps ? eps->value : 0, eps && eps->ok));
    results_->setItem(row, kResVolume, numberItem(vol ? vol->value : 0, vol && vol->ok));
    results_->setItem(row, kResContacts, numberItem(static_cast<double>(g.contacts.size())));
  }
  results_->setSortingEnabled(true);
  if (current_ >= 0) {
    const QSignalBlocker block(results_);
    results_->selectRow(rowOfGrasp(current_));
  }
  updateButtons();
}

int PlannerDock::rowOfGrasp(int index) const {
  for (int row = 0; row < results_->rowCount(); ++row)
    if (results_->item(row, kResRank) && results_->item(row, kResRank)->data(Qt::UserRole).toInt() == index) return row;
  return -1;
}

void PlannerDock::selectGrasp(int index) {
  if (index < 0 || index >= static_cast<int>(list_.grasps.size())) return;
  current_ = index;
  {
    const QSignalBlocker block(results_);
    results_->selectRow(rowOfGrasp(index));
  }
  const PlannedGrasp& g = list_.grasps[static_cast<std::size_t>(index)];
  const HandConfiguration& c = showFinal_ ? g.grasp : g.preGrasp;
  const int robot = list_.robotIndex;
  if (robot >= 0 && robot < static_cast<int>(doc_->world().robots.size()) &&
      c.dofValues.size() == doc_->world().robots[static_cast<std::size_t>(robot)].dofCount())
    showPreview(robot, c.X_WP, c.dofValues);
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
  const int row = current_ < 0 ? 0 : rowOfGrasp(current_) - 1;
  if (row >= 0 && row < results_->rowCount()) selectGrasp(results_->item(row, kResRank)->data(Qt::UserRole).toInt());
}

void PlannerDock::showNext() {
  const int row = current_ < 0 ? 0 : rowOfGrasp(current_) + 1;
  if (row >= 0 && row < results_->rowCount()) selectGrasp(results_->item(row, kResRank)->data(Qt::UserRole).toInt());
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
  if (c.dofValues.size() != hand.dofCount()) {
    setStatus(tr("The grasp has %1 DOF values, %2 has %3").arg(c.dofValues.size()).arg(QString::fromStdString(hand.name)).arg(hand.dofCount()));
    return false;
  }
  WorldState after = world.state;
  RobotState& rs = after.robots[static_cast<std::size_t>(robot)];
  rs.X_WP = c.X_WP;
  setDofValues(hand, rs, c.dofValues);
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
  const World& world = doc_->world();
  const int robot = robotIndex(), graspable = graspableIndex();
  if (robot < 0 || graspable < 0) {
    setStatus(tr("Capture needs a hand and an object"));
    return false;
  }
  if (!list_.grasps.empty() && list_.robotIndex != robot) {
    setStatus(tr("The list holds grasps of another hand"));
    return false;
  }
  try {
    PlanRequest r = request();
    r.variables.clear();  // the hand's configuration now
    const HandSearchSpace space = makeSearchSpace(world, r);
    PlannedGrasp g;
    std::vector<double> x;
    for (const SearchVariable& v : space.variables) x.push_back(v.value);
    HandEvaluator evaluator(world, world.state, space, r.energy);
    g.energy = evaluator.energy(x).value_or(std::numeric_limits<double>::quiet_NaN());
    g.variables = x;
    const RobotState& rs = world.state.robots[static_cast<std::size_t>(robot)];
    g.preGrasp = g.grasp = {rs.X_WP, rs.dofValues};
    NullProgress quiet;
    measureGrasp(world, robot, graspable, g, r.energy.analysis, r.energy.autoGrasp, r.reportMeasures,
                 /*closeFromPreGrasp=*/false, quiet);
    if (list_.grasps.empty()) {
      list_.world = doc_->filePath().toStdString();
      list_.robot = world.robots[static_cast<std::size_t>(robot)].name;
      list_.robotIndex = robot;
      list_.object = world.bodyLabel(BodyHandle{BodyHandle::Kind::Graspable, graspable, {}});
      list_.graspableIndex = graspable;
      list_.energy = toString(r.energy.kind);
      list_.space = toString(r.space);
      list_.params = r.params.name;
      list_.seed = std::to_string(r.seed);
      for (const SearchVariable& v : space.variables) list_.variableNames.push_back(v.name);
    }
    list_.grasps.push_back(std::move(g));
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

bool PlannerDock::loadList(const QString& path) {
  GraspList loaded;
  try {
    loaded = loadGraspList(path.toStdString());
    const World& world = doc_->world();
    if (loaded.robotIndex < 0 || loaded.robotIndex >= static_cast<int>(world.robots.size()))
      throw Error("the list's robot index " + std::to_string(loaded.robotIndex) + " is not a robot of this world",
                  path.toStdString());
    const std::size_t dofs = world.robots[static_cast<std::size_t>(loaded.robotIndex)].dofCount();
    for (std::size_t i = 0; i < loaded.grasps.size(); ++i)
      if (loaded.grasps[i].grasp.dofValues.size() != dofs || loaded.grasps[i].preGrasp.dofValues.size() != dofs)
        throw Error("grasps[" + std::to_string(i) + "] does not fit robot " +
                        world.robots[static_cast<std::size_t>(loaded.robotIndex)].name + " (DOF count)",
                    path.toStdString());
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

void PlannerDock::showPreview(int robot, const Transform& X_WP, const std::vector<double>& dofs) {
  const World& world = doc_->world();
  WorldState state = world.state;
  RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
  rs.X_WP = X_WP;
  std::vector<double> values = dofs.empty() ? rs.dofValues : dofs;
  setDofValues(world.robots[static_cast<std::size_t>(robot)], rs, values);
  updateConnections(world, state);
  preview_ = std::move(state);
  if (ViewportPanel* panel = window_->viewportPanel()) {
    panel->scene()->updatePoses(world, *preview_);
    panel->viewport()->update();
  }
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
  for (QWidget* w : std::initializer_list<QWidget*>{plannerType_, energy_, space_, params_, steps_, timeLimit_, seed_,
                                                    threads_, chains_, presetContacts_, variables_})
    w->setEnabled(!running_);
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
