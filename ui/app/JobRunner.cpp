#include "JobRunner.h"

#include <QMetaObject>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace sg::app {

namespace {
std::atomic<int> liveThreads{0};
constexpr int kProgressInterval_ms = 50;  // ≤ 20 progress signals a second
}  // namespace

struct JobRunner::Outcome {
  enum class Kind { Finished, Failed, Cancelled } kind = Kind::Finished;
  std::any result;
  QString error;
};

struct JobRunner::State {
  struct Pending {
    std::uint64_t tag = 0;
    Job job;
  };
  mutable std::mutex mutex;
  std::condition_variable wake;
  std::optional<Pending> waiting;
  std::shared_ptr<CancellableProgress> running;  // the running job's sink, null when none runs
  std::uint64_t runningTag = 0;
  int runningSerial = 0;  // = started when it began: tells consecutive jobs apart whatever their tags
  bool stop = false;
  int started = 0;
  std::thread thread;  // not joinable until the first submit
  // GUI thread only: what pollProgress last signalled.
  int lastProgressSerial = 0;
  std::uint64_t lastProgressReports = 0;
};

JobRunner::JobRunner(QObject* parent) : QObject(parent), state_(std::make_unique<State>()) {
  progressTimer_.setInterval(kProgressInterval_ms);
  connect(&progressTimer_, &QTimer::timeout, this, &JobRunner::pollProgress);
}

JobRunner::~JobRunner() {
  std::optional<State::Pending> dropped;  // destroyed outside the lock
  {
    const std::lock_guard lock(state_->mutex);
    state_->stop = true;
    dropped = std::move(state_->waiting);
    state_->waiting.reset();
    if (state_->running) state_->running->cancel();
  }
  state_->wake.notify_all();
  // Never detached: the thread touches this object. Outcomes it posted are discarded with us by ~QObject.
  if (state_->thread.joinable()) state_->thread.join();
}

void JobRunner::submit(std::uint64_t tag, Job job) {
  std::optional<State::Pending> replaced;
  {
    const std::lock_guard lock(state_->mutex);
    replaced = std::move(state_->waiting);
    state_->waiting = State::Pending{tag, std::move(job)};
    if (!state_->thread.joinable()) {
      state_->thread = std::thread(&JobRunner::run, this);
      ++liveThreads;  // the thread only ends once the destructor has stopped it
    }
  }
  state_->wake.notify_all();
  if (!progressTimer_.isActive()) progressTimer_.start();
}

void JobRunner::cancel() {
  std::optional<State::Pending> dropped;
  const std::lock_guard lock(state_->mutex);
  dropped = std::move(state_->waiting);
  state_->waiting.reset();
  if (state_->running) state_->running->cancel();
}

void JobRunner::dropWaiting() {
  std::optional<State::Pending> dropped;
  const std::lock_guard lock(state_->mutex);
  dropped = std::move(state_->waiting);
  state_->waiting.reset();
}

bool JobRunner::busy() const {
  const std::lock_guard lock(state_->mutex);
  return state_->running || state_->waiting.has_value();
}

int JobRunner::startedCount() const {
  const std::lock_guard lock(state_->mutex);
  return state_->started;
}

int JobRunner::liveThreadCount() { return liveThreads.load(); }

void JobRunner::run() {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  for (;;) {
    s.wake.wait(lock, [&] { return s.stop || s.waiting.has_value(); });
    if (s.stop) break;
    State::Pending pending = std::move(*s.waiting);
    s.waiting.reset();
    // Published under the lock with the job's removal, so a cancel() right now reaches this job.
    auto sink = std::make_shared<CancellableProgress>();
    s.running = sink;
    s.runningTag = pending.tag;
    s.runningSerial = ++s.started;
    lock.unlock();

    auto outcome = std::make_shared<Outcome>();
    try {
      outcome->result = pending.job(*sink);
    } catch (const Cancelled&) {
      outcome->kind = Outcome::Kind::Cancelled;
    } catch (const std::exception& e) {
      outcome->kind = Outcome::Kind::Failed;
      outcome->error = QString::fromUtf8(e.what());
    } catch (...) {
      outcome->kind = Outcome::Kind::Failed;
      outcome->error = QStringLiteral("unknown error");
    }
    pending.job = nullptr;  // its captured inputs go here, not under the lock

    lock.lock();
    s.running.reset();
    if (s.stop) break;
    // Queued to the runner's thread; posted under the lock, after `running` is cleared, so no progress of
    // this job is signalled after its outcome.
    const std::uint64_t tag = pending.tag;
    QMetaObject::invokeMethod(
        this, [this, tag, outcome] { deliver(tag, *outcome); }, Qt::QueuedConnection);
  }
  lock.unlock();
  --liveThreads;
}

void JobRunner::deliver(std::uint64_t tag, const Outcome& outcome) {
  if (!busy()) progressTimer_.stop();
  switch (outcome.kind) {
    case Outcome::Kind::Finished: emit finished(tag, outcome.result); break;
    case Outcome::Kind::Failed: emit failed(tag, outcome.error); break;
    case Outcome::Kind::Cancelled: emit cancelled(tag); break;
  }
}

void JobRunner::pollProgress() {
  std::optional<std::pair<std::uint64_t, CancellableProgress::Snapshot>> changed;
  {
    State& s = *state_;
    const std::lock_guard lock(s.mutex);
    if (s.running) {
      CancellableProgress::Snapshot snap = s.running->snapshot();
      if (snap.reports > 0 && (s.runningSerial != s.lastProgressSerial || snap.reports != s.lastProgressReports)) {
        s.lastProgressSerial = s.runningSerial;
        s.lastProgressReports = snap.reports;
        changed.emplace(s.runningTag, std::move(snap));
      }
    } else if (!s.waiting) {
      progressTimer_.stop();
    }
  }
  // Outside the lock: a receiver may submit or cancel.
  if (changed)
    emit progress(changed->first, changed->second.fraction, QString::fromStdString(changed->second.message));
}

}  // namespace sg::app
