// The planner dock's run control (PlannerDock.h): Start / Pause / Cancel / Reset of a planner::PlannerRun, the
// GUI timer that polls it and draws what it found (plot, progress, status, the search state in the viewport),
// and taking its grasp list when it is done. The search runs in the engine (PLANNER.md §Planner runs).
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QTabWidget>
#include <algorithm>
#include <cmath>

#include "Document.h"
#include "PlannerChart.h"
#include "PlannerDock.h"
#include "PlannerResultsTable.h"
#include "PlannerSettingsPanel.h"
#include "core/Error.h"

namespace sg::app {

using namespace sg::planner;

namespace {

constexpr int kPreviewEvery_ms = 200;  // search state shown in the viewport at most 5 times a second

}  // namespace

bool PlannerDock::isPaused() const { return running_ && run_ && run_->paused(); }

int PlannerDock::plottedSamples() const { return chart_->sampleCount(); }

bool PlannerDock::start() {
  if (running_) {
    run_->setPaused(false);
    setStatus(tr("Running"));
    updateButtons();
    return true;
  }
  if (!refusedInput_.isEmpty()) {  // the box was reverted as Start took focus: say so rather than run silently
    setStatus(tr("Not started: %1. Start again to run with it.").arg(refusedInput_));
    refusedInput_.clear();
    return false;
  }
  // Runs reset while running have had time to stop: their threads are joined here, not in the GUI's way.
  std::erase_if(retired_, [](const std::unique_ptr<PlannerRun>& r) { return r->done(); });
  const bool online = settings_->online();
  try {
    const PlanRequest r = request();
    runSpace_ = makeSearchSpace(doc_->world(), r);
    auto world = std::make_shared<const World>(doc_->world());
    run_ = online ? PlannerRun::startOnline(std::move(world), r) : PlannerRun::startAnnealing(std::move(world), r);
  } catch (const Error& e) {
    setStatus(tr("Cannot start: %1").arg(QString::fromUtf8(e.what())));
    return false;
  }
  clearPreview();
  chart_->clear();
  liveIterations_ = 0;
  progress_->setValue(0);
  running_ = true;
  lastPreview_.start();
  tick_.start();
  if (!online) tabs_->setCurrentWidget(chart_);  // the settings are locked while it runs: show the live plot
  setStatus(online ? tr("Online: following the hand") : tr("Running"));
  updateButtons();
  return true;
}

void PlannerDock::onlineFollowHand() {
  const int robot = run_->request().robot;
  if (robot < 0 || robot >= static_cast<int>(doc_->world().state.robots.size())) return;
  const RobotState& rs = doc_->world().state.robots[static_cast<std::size_t>(robot)];
  run_->setTarget(rs.X_WP, rs.dofValues);
}

void PlannerDock::pause() {
  if (!running_ || run_->kind() != PlannerRun::Kind::Annealing) return;
  run_->setPaused(true);
  setStatus(tr("Paused after %1 iterations").arg(liveIterations_));
  updateButtons();
}

void PlannerDock::cancel() {
  if (!running_) return;
  run_->cancel();  // resumes a paused run; the next tick sees it done
  setStatus(tr("Cancelling…"));
  updateButtons();
}

void PlannerDock::reset() {
  if (running_) {  // its outcome is dropped; its thread is joined once it has stopped
    run_->cancel();
    retired_.push_back(std::move(run_));
    running_ = false;
    tick_.stop();
  }
  run_.reset();
  runSpace_.reset();
  list_ = {};
  current_ = -1;
  results_->sortByRank();  // a new list opens in planner order
  chart_->clear();
  liveIterations_ = 0;
  progress_->setValue(0);
  progress_->setFormat(QStringLiteral("%p%"));
  refreshTable();
  clearPreview();
  rebuildVariables();
  setStatus({});
  updateButtons();
}

void PlannerDock::onWorldReplaced() { reset(); }

void PlannerDock::showSearchState(const std::vector<double>& x) {
  if (!settings_->showSearch() || !runSpace_ || x.empty() || lastPreview_.elapsed() < kPreviewEvery_ms) return;
  if (runSpace_->robot >= static_cast<int>(doc_->world().robots.size())) return;
  lastPreview_.restart();
  std::vector<double> dofs = runSpace_->dofValues(doc_->world(), x);
  if (dofs.empty()) dofs = doc_->world().state.robots[static_cast<std::size_t>(runSpace_->robot)].dofValues;  // no posture variables
  showPreview(runSpace_->robot, {runSpace_->palmPose(x), std::move(dofs), {}});
}

void PlannerDock::onTick() {
  if (!running_ || !run_) return;
  const bool done = run_->done();  // before the poll: a run seen done has posted everything the poll takes
  const PlannerRun::Status s = run_->status();
  liveIterations_ = std::max(liveIterations_, s.iterations);
  progress_->setValue(static_cast<int>(std::lround(1000 * s.fraction)));
  if (!s.message.empty()) progress_->setFormat(QString::fromStdString(s.message));
  if (run_->kind() == PlannerRun::Kind::Online) {
    showSearchState(s.bestState);
    if (!done && !run_->cancelRequested())
      setStatus(tr("Online: %1 iterations, %2 states near the hand, best energy %3")
                    .arg(liveIterations_)
                    .arg(s.bestCount)
                    .arg(s.bestEnergy, 0, 'g', 5));
  } else {
    const AnnealingMonitor::Snapshot snap = run_->monitor().take();
    liveIterations_ = std::max(liveIterations_, snap.iterations);
    chart_->add(snap);
    if (!isPaused()) showSearchState(snap.currentState);
    if (!done && !isPaused() && !run_->cancelRequested())
      setStatus(tr("Running: %1 iterations, best energy %2").arg(liveIterations_).arg(snap.bestEnergy, 0, 'g', 5));
  }
  if (done) finishRun();
}

void PlannerDock::finishRun() {
  tick_.stop();
  running_ = false;
  const std::unique_ptr<PlannerRun> run = std::move(run_);
  run->wait();  // done: only the worker's return is left
  const PlannerRun::Status s = run->status();
  const std::shared_ptr<const PlanResult> result = run->result();
  if (!result) {
    clearPreview();
    setStatus(run->cancelRequested() ? tr("Cancelled before any grasp was found")
                                     : tr("Planner failed: %1").arg(QString::fromStdString(s.error)));
    updateButtons();
    emit runFinished();
    return;
  }
  list_ = run->graspList(doc_->filePath().toStdString());
  progress_->setValue(1000);
  progress_->setFormat(tr("done"));
  const AnnealingResult& a = result->annealing;
  const auto fc = std::count_if(result->grasps.begin(), result->grasps.end(),
                                [](const PlannedGrasp& g) { return g.forceClosure; });
  setStatus(tr("Stopped (%1) after %2 iterations in %3 s: %4 grasps, %5 force closure")
                .arg(QString::fromUtf8(toString(a.stopReason)))
                .arg(a.iterations)
                .arg(a.elapsed_s, 0, 'f', 1)
                .arg(result->grasps.size())
                .arg(fc));
  current_ = -1;
  clearPreview();
  refreshTable();
  if (!list_.grasps.empty()) showBest();
  updateButtons();
  emit runFinished();
}

}  // namespace sg::app
