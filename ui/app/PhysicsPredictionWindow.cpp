#include "PhysicsPredictionWindow.h"

#include <QBuffer>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMessageBox>
#include <QKeySequence>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QShortcut>
#include <QSplitter>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <any>
#include <cmath>

#include "contact/ContactModel.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "grasp/planner/GraspList.h"
#include "io/InputFile.h"
#include "render/PatchOutlineNodes.h"
#include "sim/PhysicsComparisonJson.h"

#include "ChartExport.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "JobEnds.h"
#include "JobRunner.h"

namespace sg::app {

namespace {

QChartView* makeView(QWidget* parent, const char* name) {
  auto* chart = new QChart;
  chart->legend()->setAlignment(Qt::AlignBottom);
  auto* view = new QChartView(chart, parent);
  view->setObjectName(name);
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(520, 320);
  return view;
}

QString statisticText(const std::optional<double>& v) {
  return v ? QString::fromStdString(formatGeneral(*v, 3)) : QObject::tr("undefined");
}

QTableWidgetItem* item(const QString& text, bool number) {
  auto* i = new QTableWidgetItem(text);
  i->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
  if (number) i->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return i;
}

// A run's inputs, the job's own (JobRunner.h): copies of the worlds, files to read in the background.
struct RunInputs {
  std::vector<World> worlds;             // the current world's copy, when chosen
  std::vector<std::string> labels;       // per world: its file
  std::vector<AnalysisRequest> analyses; // per world
  std::vector<std::string> files;        // world files, read in the job (File > Open's rule, io/InputFile.h)
  std::string graspList;                 // a grasp list tried on worlds[0] instead of planning ("" : plan)
  LoadOptions loadOptions;
  AnalysisRequest fileAnalysis;          // the files' settings: the live analysis' but for body switches
  sim::PhysicsComparisonRequest request;
};

// Reads the files, runs the engine's comparison and collects what its document names.
std::shared_ptr<const PhysicsRun> comparisonJob(RunInputs in, ProgressSink& progress) {
  for (const std::string& file : in.files) {
    InputFile input = loadInputFile(file, in.loadOptions);
    in.worlds.push_back(std::move(input.world));
    in.labels.push_back(input.path);
    in.analyses.push_back(in.fileAnalysis);
  }
  std::vector<sim::PhysicsWorld> worlds;
  auto out = std::make_shared<PhysicsRun>();
  for (std::size_t i = 0; i < in.worlds.size(); ++i) {
    worlds.push_back({&in.worlds[i], in.labels[i], in.analyses[i]});
    for (const std::string& w : in.worlds[i].loadWarnings()) out->warnings.push_back(w);
  }
  out->comparison = in.graspList.empty()
                        ? sim::comparePhysics(worlds, in.request, progress)
                        : sim::comparePhysicsOnList(worlds.at(0), planner::loadGraspList(in.graspList), in.request,
                                                    progress);
  out->request = in.request;
  out->files = in.labels;
  return out;
}

}  // namespace

PhysicsPredictionWindow::PhysicsPredictionWindow(QWidget* parent)
    : QWidget(parent, Qt::Window), jobs_(new JobRunner(this)) {
  setObjectName("physicsPredictionWindow");
  setWindowTitle(tr("Measures vs Physics"));
  auto* layout = new QVBoxLayout(this);

  auto* buttons = new QHBoxLayout;
  open_ = new QPushButton(tr("Open…"), this);
  open_->setObjectName("physicsPredictionOpen");
  open_->setToolTip(tr("A table of softgrasp-cli compare --against-physics: its --json document or its --csv"));
  export_ = new QPushButton(tr("Export Chart…"), this);
  export_->setObjectName("physicsPredictionExport");
  export_->setToolTip(tr("The chart shown as a PNG image or an SVG drawing (by the file name's suffix)"));
  export_->setEnabled(false);
  runButton_ = new QPushButton(tr("Run…"), this);
  runButton_->setObjectName("physicsPredictionRun");
  runButton_->setToolTip(tr("Plan the current world (or chosen worlds), run the physics trial on every kept grasp "
                            "and rank every measure under every contact model against the trial score"));
  cancel_ = new QPushButton(tr("Cancel"), this);
  cancel_->setObjectName("physicsPredictionCancel");
  save_ = new QPushButton(tr("Save…"), this);
  save_->setObjectName("physicsPredictionSave");
  save_->setToolTip(tr("The run as the JSON document of softgrasp-cli compare --against-physics --json"));
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  status_ = new QLabel(tr("Run the comparison, or open the --json or --csv output of softgrasp-cli compare "
                          "--against-physics."),
                       this);
  status_->setObjectName("physicsPredictionStatus");
  status_->setWordWrap(true);
  buttons->addWidget(open_);
  buttons->addWidget(runButton_);
  buttons->addWidget(cancel_);
  buttons->addWidget(save_);
  buttons->addWidget(export_);
  buttons->addWidget(progress_, 1);
  layout->addLayout(buttons);
  layout->addWidget(status_);

  auto* split = new QSplitter(Qt::Vertical, this);
  tabs_ = new QTabWidget(split);
  aucView_ = makeView(tabs_, "physicsPredictionAuc");
  spearmanView_ = makeView(tabs_, "physicsPredictionSpearman");
  tabs_->addTab(aucView_, tr("ROC AUC"));
  tabs_->addTab(spearmanView_, tr("Spearman ρ"));
  rowsTable_ = new QTableWidget(0, 7, split);
  rowsTable_->setObjectName("physicsPredictionTable");
  rowsTable_->setHorizontalHeaderLabels(
      {tr("model"), tr("measure"), tr("grasps"), tr("no value"), tr("successes"), tr("ROC AUC"), tr("Spearman ρ")});
  rowsTable_->verticalHeader()->setVisible(false);
  rowsTable_->setSortingEnabled(false);
  split->addWidget(tabs_);
  split->addWidget(rowsTable_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  layout->addWidget(split, 1);

  connect(open_, &QPushButton::clicked, this, &PhysicsPredictionWindow::chooseFile);
  connect(export_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
                                                      currentStatistic() == Statistic::Auc
                                                          ? QStringLiteral("physics-auc.png")
                                                          : QStringLiteral("physics-spearman.png"),
                                                      tr("PNG (*.png);;SVG (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    if (exportChart(path, &error)) status_->setText(tr("Exported %1").arg(path));
    else QMessageBox::warning(this, tr("Export Chart"), tr("Cannot write %1: %2").arg(path, error));
  });
  connect(runButton_, &QPushButton::clicked, this, &PhysicsPredictionWindow::chooseRun);
  connect(cancel_, &QPushButton::clicked, this, &PhysicsPredictionWindow::cancel);
  auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);  // as Cancel (nothing when none runs)
  escape->setObjectName("physicsPredictionEscape");
  connect(escape, &QShortcut::activated, this, &PhysicsPredictionWindow::cancel);
  connect(save_, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Measures vs Physics"),
                                                      QStringLiteral("physics-prediction.json"), tr("JSON (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (saveRun(path, &error)) status_->setText(tr("Saved %1").arg(path));
    else QMessageBox::warning(this, tr("Save Measures vs Physics"), tr("Cannot write %1: %2").arg(path, error));
  });
  connect(jobs_, &JobRunner::progress, this, [this](std::uint64_t tag, double fraction, const QString& message) {
    if (tag != generation_) return;
    progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
    status_->setText(message);
    emit runProgress(fraction, message);
  });
  connect(jobs_, &JobRunner::finished, this, [this](std::uint64_t tag, const std::any& result) {
    if (tag != generation_) return;
    const auto* r = JobRunner::resultAs<std::shared_ptr<const PhysicsRun>>(result);
    setRunning(false);
    if (!r || !*r) return;
    run_ = *r;
    progress_->setValue(1000);
    showRun();
    emit runFinished();
  });
  connectJobEnds(jobs_, this,
                 {&generation_, [this] { setRunning(false); }, status_, tr("The comparison failed: %1"),
                  [this] {
                    status_->setText(tr("Cancelled while planning: no table"));
                    emit runCancelled();
                  },
                  [this](const QString& error) { emit runFailed(error); }});
  setRunning(false);
  resize(820, 680);
}

PhysicsPredictionWindow::~PhysicsPredictionWindow() = default;

void PhysicsPredictionWindow::setRunSource(PhysicsRunSource source) {
  source_ = std::move(source);
  setRunning(running_);
}

void PhysicsPredictionWindow::setRunning(bool on) {
  running_ = on;
  runButton_->setEnabled(!on);
  cancel_->setEnabled(on);
  open_->setEnabled(!on);
  save_->setEnabled(!on && run_ != nullptr);
}

void PhysicsPredictionWindow::chooseRun() {
  const bool haveWorld = source_.doc != nullptr;
  PhysicsRunDialog dialog(runSettings_, haveWorld, this);
  if (dialog.exec() == QDialog::Accepted) run(dialog.settings());
}

bool PhysicsPredictionWindow::run(const PhysicsRunSettings& settings) {
  if (running_) return false;
  RunInputs in;
  const AnalysisSettings live = source_.analysis ? source_.analysis->settings() : AnalysisSettings{};
  if (settings.currentWorld) {
    if (!source_.doc) {
      status_->setText(tr("No current world to plan: choose world files."));
      return false;
    }
    const World& world = source_.doc->world();
    const auto [robot, graspable] = source_.target ? source_.target() : std::pair<int, int>{0, 0};
    if (robot < 0 || static_cast<std::size_t>(robot) >= world.robots.size()) {
      status_->setText(tr("The comparison plans grasps: the world needs a hand."));
      return false;
    }
    if (graspable < 0 || static_cast<std::size_t>(graspable) >= world.graspables.size()) {
      status_->setText(tr("The comparison plans grasps: the world needs a graspable object."));
      return false;
    }
    AnalysisRequest analysis = liveAnalysisRequest(live, graspable);
    analysis.robot = robot;
    in.worlds.push_back(world);
    const QString path = source_.doc->filePath();
    in.labels.push_back(path.isEmpty() ? std::string("current world") : path.toStdString());
    in.analyses.push_back(analysis);
    in.loadOptions = source_.doc->loadOptions();
  }
  for (const QString& file : settings.worldFiles) in.files.push_back(file.toStdString());
  if (!settings.graspList.isEmpty()) {
    if (in.worlds.empty() || !in.files.empty()) {
      status_->setText(tr("A grasp list is tried on the current world only."));
      return false;
    }
    in.graspList = settings.graspList.toStdString();
  }
  if (in.worlds.empty() && in.files.empty()) {
    status_->setText(tr("No world to plan: choose the current world or world files."));
    return false;
  }
  // Body switches name bodies of the current world only.
  in.fileAnalysis = liveAnalysisRequest(live, std::nullopt);
  in.fileAnalysis.collision.disabledBodies.clear();
  in.fileAnalysis.collision.userDisabledPairs.clear();
  sim::PhysicsComparisonRequest& r = in.request;
  r.seeds = settings.seeds;
  r.iterations = settings.iterations;
  r.keep = static_cast<std::size_t>(std::max(1, settings.keep));
  r.threads = std::max(1, settings.threads);
  r.successScore = settings.successScore;
  r.trial.duration_s = settings.pull_s;
  // Every measure (but volume-linf) under every chosen contact model, as the CLI's default (src/sim/README.md
  // §Measures against physics).
  for (const QString& model : settings.models) r.compare.models.push_back(model.toStdString());
  if (r.compare.models.empty())
    for (const ContactModel* model : contactModels()) r.compare.models.push_back(model->name());
  r.compare.measures = sim::defaultPhysicsMeasures();

  runSettings_ = settings;
  setRunning(true);
  progress_->setValue(0);
  status_->setText(in.graspList.empty() ? tr("Planning…") : tr("Trying the grasp list…"));
  jobs_->submit(++generation_, [in = std::move(in)](ProgressSink& progress) -> std::any {
    return comparisonJob(in, progress);
  });
  return true;
}

void PhysicsPredictionWindow::cancel() {
  if (!running_) return;
  jobs_->cancel();
  if (!jobs_->busy()) {  // the job was still waiting: dropped without an outcome
    ++generation_;
    setRunning(false);
    status_->setText(tr("Cancelled"));
    emit runCancelled();
  }
}

void PhysicsPredictionWindow::showRun() {
  const sim::PhysicsComparison& c = run_->comparison;
  // The table shown is the one Save… writes, read back (one reader for files and runs).
  const Json doc = sim::physicsComparisonJson(c, run_->request, run_->files, run_->warnings);
  table_ = shared::physicsPredictionFromText(doc.dump());
  path_.clear();
  showTable();
  plot(Statistic::Auc);
  plot(Statistic::Spearman);
  export_->setEnabled(true);
  save_->setEnabled(true);
  QString summary = tr("%1 grasps of %2 world(s), %3 succeeded (trial score ≥ %4)")
                        .arg(c.table.grasps)
                        .arg(run_->files.size())
                        .arg(c.table.successes)
                        .arg(QString::fromStdString(formatDouble(run_->request.successScore)));
  if (!c.complete)
    summary = tr("Cancelled: the table covers the %1 of %2 grasps tried. ").arg(c.tried()).arg(c.samples.size()) +
              summary;
  status_->setText(summary);
}

bool PhysicsPredictionWindow::saveRun(const QString& path, QString* error) const {
  if (!run_) {
    if (error) *error = tr("no run to save");
    return false;
  }
  const Json doc = sim::physicsComparisonJson(run_->comparison, run_->request, run_->files, run_->warnings);
  const QByteArray text = QByteArray::fromStdString(doc.dump() + "\n");  // as the CLI prints it
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
    if (error) *error = file.errorString();
    return false;
  }
  return true;
}

QChartView* PhysicsPredictionWindow::chartView(Statistic which) const {
  return which == Statistic::Auc ? aucView_ : spearmanView_;
}

QChart* PhysicsPredictionWindow::chart(Statistic which) const { return chartView(which)->chart(); }

PhysicsPredictionWindow::Statistic PhysicsPredictionWindow::currentStatistic() const {
  return tabs_->currentWidget() == spearmanView_ ? Statistic::Spearman : Statistic::Auc;
}

void PhysicsPredictionWindow::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Measures vs Physics Table"), path_,
      tr("compare --against-physics output (*.json *.csv);;JSON (*.json);;CSV (*.csv);;All files (*)"));
  if (!path.isEmpty()) openFileReporting(path);
}

bool PhysicsPredictionWindow::openFileReporting(const QString& path) {
  QString error;
  if (openFile(path, &error)) return true;
  QMessageBox::warning(this, tr("Measures vs Physics"), error);
  return false;
}

bool PhysicsPredictionWindow::openFile(const QString& path, QString* error) {
  try {
    table_ = shared::loadPhysicsPrediction(path.toStdString());
  } catch (const Error& e) {
    // sg::Error's what() names the file (and the line of a JSON syntax error) before the problem.
    if (error) *error = tr("Cannot open the table: %1").arg(QString::fromStdString(e.what()));
    return false;
  }
  path_ = path;
  run_.reset();
  save_->setEnabled(false);
  showTable();
  plot(Statistic::Auc);
  plot(Statistic::Spearman);
  export_->setEnabled(true);
  const shared::PredictionTable& t = *table_;
  QString summary = tr("%1: %2 contact model(s) × %3 measure(s)")
                        .arg(QFileInfo(path).fileName())
                        .arg(t.models().size())
                        .arg(t.measures().size());
  if (t.grasps && t.successes)
    summary += tr(", %1 of %2 grasps succeeded (trial score ≥ %3)")
                   .arg(*t.successes)
                   .arg(*t.grasps)
                   .arg(QString::fromStdString(formatDouble(t.successScore.value_or(0))));
  status_->setText(summary);
  return true;
}

void PhysicsPredictionWindow::showTable() {
  const auto& rows = table_->rows;
  rowsTable_->setRowCount(static_cast<int>(rows.size()));
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    const shared::PredictionRow& r = rows[static_cast<std::size_t>(i)];
    rowsTable_->setItem(i, 0, item(QString::fromStdString(r.model), false));
    rowsTable_->setItem(i, 1, item(QString::fromStdString(r.measure), false));
    rowsTable_->setItem(i, 2, item(QString::number(r.grasps), true));
    rowsTable_->setItem(i, 3, item(QString::number(r.missing), true));
    rowsTable_->setItem(i, 4, item(QString::number(r.successes), true));
    rowsTable_->setItem(i, 5, item(statisticText(r.auc), true));
    rowsTable_->setItem(i, 6, item(statisticText(r.spearman), true));
  }
  rowsTable_->resizeColumnsToContents();
}

void PhysicsPredictionWindow::plot(Statistic which) {
  QChart* c = chart(which);
  c->removeAllSeries();
  for (QAbstractAxis* axis : c->axes()) {
    c->removeAxis(axis);
    delete axis;
  }
  const bool auc = which == Statistic::Auc;
  c->setTitle(auc ? tr("ROC AUC of each measure predicting a held grasp (0.5: chance)")
                  : tr("Spearman ρ of each measure with the trial score"));
  const std::vector<std::string> measures = table_->measures();
  auto* series = new QBarSeries;
  for (const std::string& model : table_->models()) {
    auto* set = new QBarSet(QString::fromStdString(model));
    const auto rgb = comparisonColour(std::string_view(model));  // as the overlay, the dock and the sweep plot
    set->setColor(QColor::fromRgbF(rgb[0], rgb[1], rgb[2]));
    for (const std::string& measure : measures) {
      const shared::PredictionRow* r = table_->find(model, measure);
      const std::optional<double> v = r ? (auc ? r->auc : r->spearman) : std::nullopt;
      set->append(v.value_or(0.0));  // undefined: an empty bar (the table says "undefined")
    }
    series->append(set);
  }
  c->addSeries(series);
  auto* x = new QBarCategoryAxis;
  for (const std::string& m : measures) x->append(QString::fromStdString(m));
  auto* y = new QValueAxis;
  y->setRange(auc ? 0.0 : -1.0, 1.0);
  y->setTickCount(auc ? 6 : 5);
  y->setLabelFormat("%.2f");
  y->setTitleText(auc ? tr("ROC AUC") : tr("Spearman ρ"));
  c->addAxis(x, Qt::AlignBottom);
  c->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
}

bool PhysicsPredictionWindow::exportPng(const QString& path, Statistic which, QString* error) const {
  if (!table_) {
    if (error) *error = tr("no table open");
    return false;
  }
  return saveWidgetPng(chartView(which), path, error);
}

bool PhysicsPredictionWindow::exportSvg(const QString& path, Statistic which, QString* error) const {
  if (!table_) {
    if (error) *error = tr("no table open");
    return false;
  }
  return saveWidgetSvg(chartView(which),
                       which == Statistic::Auc ? tr("SoftGrasp: ROC AUC of the measures against physics trials")
                                               : tr("SoftGrasp: Spearman rho of the measures against physics trials"),
                       path, error);
}

bool PhysicsPredictionWindow::exportChart(const QString& path, QString* error) const {
  const Statistic which = currentStatistic();
  return QFileInfo(path).suffix().compare(QStringLiteral("svg"), Qt::CaseInsensitive) == 0
             ? exportSvg(path, which, error)
             : exportPng(path, which, error);
}

}  // namespace sg::app
