#include "LInfinityWorker.h"

#include <QMetaObject>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace sg::app {

namespace {
std::atomic<int> liveThreads{0};
}

// Everything the thread touches: it holds its own reference, so the worker object may go first.
struct LInfinityWorker::Shared {
  std::mutex mutex;
  std::condition_variable wake;
  std::optional<LInfinityJob> waiting;
  bool running = false;
  bool stop = false;
  bool threadStarted = false;
  int started = 0;
  LInfinityWorker* receiver = nullptr;  // null once the worker object is being destroyed
};

LInfinityResult buildLInfinity(const LInfinityJob& job) {
  LInfinityResult r;
  r.generation = job.generation;
  try {
    r.space = buildLInfinityGws(job.perContactWrenches, job.gws);
    r.quality = evaluateQuality(r.space, job.forceClosureTolerance);
  } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
    r.space = GraspWrenchSpace{};
    r.space.type = GwsType::LInfinity;
    r.quality = GraspQuality{};
    r.error = e.what();
  }
  return r;
}

LInfinityWorker::LInfinityWorker(QObject* parent) : QObject(parent), shared_(std::make_shared<Shared>()) {
  shared_->receiver = this;
}

LInfinityWorker::~LInfinityWorker() {
  {
    const std::lock_guard lock(shared_->mutex);
    // After this no result is posted to us; one posted before is removed with us by ~QObject.
    shared_->receiver = nullptr;
    shared_->stop = true;
    shared_->waiting.reset();
  }
  shared_->wake.notify_all();
}

void LInfinityWorker::submit(LInfinityJob job) {
  {
    const std::lock_guard lock(shared_->mutex);
    shared_->waiting = std::move(job);
    if (!shared_->threadStarted) {
      shared_->threadStarted = true;
      ++liveThreads;
      // Detached: destruction must not wait for a hull that cannot be interrupted.
      std::thread(&LInfinityWorker::run, shared_).detach();
    }
  }
  shared_->wake.notify_all();
}

void LInfinityWorker::cancelWaiting() {
  const std::lock_guard lock(shared_->mutex);
  shared_->waiting.reset();
}

bool LInfinityWorker::busy() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->running || shared_->waiting.has_value();
}

int LInfinityWorker::startedCount() const {
  const std::lock_guard lock(shared_->mutex);
  return shared_->started;
}

int LInfinityWorker::liveThreadCount() { return liveThreads.load(); }

void LInfinityWorker::run(std::shared_ptr<Shared> s) {
  std::unique_lock lock(s->mutex);
  for (;;) {
    s->wake.wait(lock, [&] { return s->stop || s->waiting.has_value(); });
    if (s->stop) break;
    const LInfinityJob job = std::move(*s->waiting);
    s->waiting.reset();
    s->running = true;
    ++s->started;
    lock.unlock();
    auto result = std::make_shared<const LInfinityResult>(buildLInfinity(job));
    lock.lock();
    s->running = false;
    if (s->stop) break;
    // Posted under the lock, so the receiver cannot be destroyed in between; queued to its thread.
    LInfinityWorker* receiver = s->receiver;
    QMetaObject::invokeMethod(
        receiver, [receiver, result] { emit receiver->finished(*result); }, Qt::QueuedConnection);
  }
  lock.unlock();
  s.reset();  // the last owner may be this thread
  --liveThreads;
}

}  // namespace sg::app
