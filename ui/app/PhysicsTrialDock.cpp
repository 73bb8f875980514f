#include "PhysicsTrialDock.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSlider>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <any>
#include <cmath>

#include "Document.h"
#include "JobEnds.h"
#include "JobRunner.h"
#include "TrialPlayback.h"

namespace sg::app {

PhysicsTrialDock::PhysicsTrialDock(Document* doc, WorldScene* scene, Target target, QWidget* parent)
    : QDockWidget(tr("Physics Trial"), parent),
      doc_(doc),
      target_(std::move(target)),
      jobs_(new JobRunner(this)),
      playback_(std::make_unique<TrialPlayback>(scene)) {
  setObjectName("physicsTrialDock");
  buildUi();
  connect(jobs_, &JobRunner::progress, this, [this](std::uint64_t tag, double fraction, const QString& message) {
    if (tag != generation_) return;
    progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
    status_->setText(message);
  });
  connect(jobs_, &JobRunner::finished, this, [this](std::uint64_t tag, const std::any& result) {
    if (tag != generation_) return;
    const auto* r = JobRunner::resultAs<std::shared_ptr<const sim::TrialResult>>(result);
    result_ = r ? *r : nullptr;
    setRunning(false);
    progress_->setValue(1000);
    fillResult();
    emit trialFinished();
  });
  connectJobEnds(jobs_, this,
                 {&generation_, [this] { setRunning(false); }, status_, tr("Trial failed: %1"),
                  [this] { emit trialCancelled(); }, [this](const QString& error) { emit trialFailed(error); }});
  connect(doc_, &Document::worldChanged, this, &PhysicsTrialDock::onDocumentChanged);
  connect(doc_, &Document::worldReplaced, this, &PhysicsTrialDock::onDocumentChanged);
  connect(&timer_, &QTimer::timeout, this, [this] {
    if (slider_->value() >= slider_->maximum()) {
      setPlaying(false);
      return;
    }
    slider_->setValue(slider_->value() + 1);
  });
  setRunning(false);
  fillResult();
}

PhysicsTrialDock::~PhysicsTrialDock() {
  timer_.stop();
  playback_->end(doc_->world());
}

void PhysicsTrialDock::buildUi() {
  auto* body = new QWidget(this);
  auto* layout = new QVBoxLayout(body);
  auto* form = new QFormLayout;
  auto seconds = [body](double value, double from) {
    auto* box = new QDoubleSpinBox(body);
    box->setDecimals(2);
    box->setRange(from, 10.0);
    box->setSingleStep(0.1);
    box->setSuffix(QStringLiteral(" s"));
    box->setValue(value);
    return box;
  };
  const sim::TrialSettings defaults;
  settle_ = seconds(defaults.settle_s, 0.0);
  settle_->setObjectName("trialSettle");
  settle_->setToolTip(tr("The hand closes with its effort, no load on the object"));
  duration_ = seconds(defaults.duration_s, 0.01);
  duration_->setObjectName("trialDuration");
  duration_->setToolTip(tr("Each of the six directions: the object's weight pulls this long"));
  form->addRow(tr("Settle"), settle_);
  form->addRow(tr("Pull per direction"), duration_);
  layout->addLayout(form);

  auto* runRow = new QHBoxLayout;
  run_ = new QPushButton(tr("Run"), body);
  run_->setObjectName("trialRun");
  cancel_ = new QPushButton(tr("Cancel"), body);
  cancel_->setObjectName("trialCancel");
  progress_ = new QProgressBar(body);
  progress_->setRange(0, 1000);
  runRow->addWidget(run_);
  runRow->addWidget(cancel_);
  runRow->addWidget(progress_, 1);
  layout->addLayout(runRow);
  status_ = new QLabel(body);
  status_->setObjectName("trialStatus");
  status_->setWordWrap(true);
  layout->addWidget(status_);

  table_ = new QTableWidget(0, 4, body);
  table_->setObjectName("trialTable");
  table_->setHorizontalHeaderLabels({tr("Direction"), tr("Held"), tr("Displacement (mm)"), tr("Rotation (°)")});
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  layout->addWidget(table_, 1);

  auto* playRow = new QHBoxLayout;
  phaseBox_ = new QComboBox(body);
  phaseBox_->setObjectName("trialPhase");
  play_ = new QPushButton(tr("Play"), body);
  play_->setObjectName("trialPlay");
  play_->setCheckable(true);
  live_ = new QPushButton(tr("Live"), body);
  live_->setObjectName("trialLive");
  live_->setToolTip(tr("End playback: the viewport shows the world's own state again"));
  playRow->addWidget(phaseBox_, 1);
  playRow->addWidget(play_);
  playRow->addWidget(live_);
  layout->addLayout(playRow);
  slider_ = new QSlider(Qt::Horizontal, body);
  slider_->setObjectName("trialSlider");
  layout->addWidget(slider_);
  sampleLabel_ = new QLabel(body);
  sampleLabel_->setObjectName("trialSample");
  layout->addWidget(sampleLabel_);
  setWidget(body);

  connect(run_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancel_, &QPushButton::clicked, this, &PhysicsTrialDock::cancel);
  connect(play_, &QPushButton::toggled, this, [this](bool on) { setPlaying(on); });
  connect(live_, &QPushButton::clicked, this, &PhysicsTrialDock::endPlayback);
  connect(phaseBox_, &QComboBox::currentIndexChanged, this, &PhysicsTrialDock::onPhaseChanged);
  connect(slider_, &QSlider::valueChanged, this, &PhysicsTrialDock::onSliderMoved);
  // A row of the table selects its direction for playback.
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { phaseBox_->setCurrentIndex(row + 1); });
}

bool PhysicsTrialDock::run() {
  if (running_) return false;
  const World& world = doc_->world();
  const auto [robot, graspable] = target_ ? target_() : std::pair<int, int>{0, 0};
  if (robot < 0 || static_cast<std::size_t>(robot) >= world.robots.size()) {
    status_->setText(tr("A physics trial needs a hand."));
    return false;
  }
  if (graspable < 0 || static_cast<std::size_t>(graspable) >= world.graspables.size()) {
    status_->setText(tr("A physics trial needs a graspable object."));
    return false;
  }
  endPlayback();
  result_.reset();
  fillResult();
  sim::TrialRequest request;
  request.robot = robot;
  request.graspable = graspable;
  request.settings.settle_s = settle_->value();
  request.settings.duration_s = duration_->value();
  // The job's inputs are its own (JobRunner.h): a copy of the world (meshes are shared, not copied).
  auto copy = std::make_shared<const World>(world);
  base_ = world.state;
  jobs_->submit(++generation_, [copy, request](ProgressSink& progress) -> std::any {
    return std::make_shared<const sim::TrialResult>(sim::runTrial(*copy, copy->state, request, progress));
  });
  setRunning(true);
  progress_->setValue(0);
  status_->setText(tr("Running the trial…"));
  return true;
}

void PhysicsTrialDock::cancel() {
  if (!running_) return;
  jobs_->cancel();
  if (!jobs_->busy()) {  // the job was still waiting: dropped without an outcome
    ++generation_;
    setRunning(false);
    status_->setText(tr("Cancelled"));
    emit trialCancelled();
  }
}

void PhysicsTrialDock::setRunning(bool on) {
  running_ = on;
  run_->setEnabled(!on);
  cancel_->setEnabled(on);
  settle_->setEnabled(!on);
  duration_->setEnabled(!on);
}

void PhysicsTrialDock::fillResult() {
  const QSignalBlocker blockPhase(phaseBox_);
  phaseBox_->clear();
  table_->setRowCount(0);
  const bool have = result_ != nullptr;
  phaseBox_->setEnabled(have);
  slider_->setEnabled(have);
  play_->setEnabled(have);
  live_->setEnabled(have);
  if (!have) {
    sampleLabel_->clear();
    return;
  }
  phaseBox_->addItem(tr("Settle"));
  table_->setRowCount(static_cast<int>(result_->directions.size()));
  for (std::size_t i = 0; i < result_->directions.size(); ++i) {
    const sim::DirectionTrial& d = result_->directions[i];
    const QString name = QString::fromStdString(d.direction.name());
    phaseBox_->addItem(tr("Pull %1").arg(name));
    const int row = static_cast<int>(i);
    table_->setItem(row, 0, new QTableWidgetItem(name));
    table_->setItem(row, 1, new QTableWidgetItem(d.held ? tr("yes") : d.diverged ? tr("no (diverged)") : tr("no")));
    table_->setItem(row, 2, new QTableWidgetItem(QString::number(d.displacement_mm, 'f', 2)));
    table_->setItem(row, 3, new QTableWidgetItem(QString::number(d.rotation_deg, 'f', 2)));
  }
  status_->setText(tr("Held %1 of %2 directions (score %3)")
                       .arg(result_->heldCount())
                       .arg(result_->directions.size())
                       .arg(QString::number(result_->score(), 'f', 2)));
  timer_.setInterval(std::max(1, static_cast<int>(std::lround(result_->settings.sampleInterval_s * 1000))));
  phaseBox_->setCurrentIndex(result_->directions.empty() ? 0 : 1);
  onPhaseChanged();
}

const std::vector<sim::TrialSample>* PhysicsTrialDock::phaseSamples(int phase) const {
  if (!result_) return nullptr;
  if (phase < 0) return &result_->settle;
  if (static_cast<std::size_t>(phase) >= result_->directions.size()) return nullptr;
  return &result_->directions[static_cast<std::size_t>(phase)].samples;
}

int PhysicsTrialDock::phase() const { return phaseBox_->currentIndex() - 1; }

const sim::TrialSample* PhysicsTrialDock::currentSample() const {
  const auto* samples = phaseSamples(phase());
  if (!samples || slider_->value() < 0 || static_cast<std::size_t>(slider_->value()) >= samples->size()) return nullptr;
  return &(*samples)[static_cast<std::size_t>(slider_->value())];
}

void PhysicsTrialDock::onPhaseChanged() {
  const auto* samples = phaseSamples(phase());
  const QSignalBlocker block(slider_);
  slider_->setRange(0, samples ? std::max(0, static_cast<int>(samples->size()) - 1) : 0);
  slider_->setValue(0);
  onSliderMoved(0);
}

void PhysicsTrialDock::showSample(int phase, int sample) {
  phaseBox_->setCurrentIndex(phase + 1);
  slider_->setValue(sample);
  onSliderMoved(slider_->value());  // also when the value did not change (playback ended meanwhile)
}

void PhysicsTrialDock::onSliderMoved(int) {
  const sim::TrialSample* s = currentSample();
  if (!s) {
    sampleLabel_->clear();
    return;
  }
  playback_->show(doc_->world(), base_, *result_, *s);
  sampleLabel_->setText(tr("t = %1 s · moved %2 mm · turned %3°")
                            .arg(QString::number(s->t_s, 'f', 2), QString::number(s->displacement_mm, 'f', 2),
                                 QString::number(s->rotation_deg, 'f', 2)));
}

void PhysicsTrialDock::setPlaying(bool on) {
  if (on && !result_) on = false;
  if (on && slider_->value() >= slider_->maximum()) slider_->setValue(0);  // play again from the start
  if (on)
    timer_.start();
  else
    timer_.stop();
  const QSignalBlocker block(play_);
  play_->setChecked(on);
  play_->setText(on ? tr("Pause") : tr("Play"));
}

void PhysicsTrialDock::endPlayback() {
  setPlaying(false);
  playback_->end(doc_->world());
}

void PhysicsTrialDock::hideEvent(QHideEvent* event) {
  endPlayback();
  QDockWidget::hideEvent(event);
}

void PhysicsTrialDock::onDocumentChanged() {
  // The trial (running or finished) is of a state the world no longer has.
  if (running_) cancel();
  ++generation_;
  if (running_) {
    setRunning(false);
    emit trialCancelled();
  }
  endPlayback();
  if (result_) {
    result_.reset();
    fillResult();
    status_->setText(tr("The world changed: run the trial again."));
  }
}

}  // namespace sg::app
