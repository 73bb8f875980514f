#include "grasp/planner/GuidedPlanner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

namespace sg::planner {

namespace {

using Clock = std::chrono::steady_clock;

struct Child {
  int index = 0;
  std::vector<double> seed;
  std::vector<std::vector<double>> avoid;   // the results of the children this one knows of
  AnnealingResult result;                   // written by its worker before `done`
  bool done = false;                        // guarded by Guided::mutex_
};

// A child's view of cancel: the planner's stop flag (set on the calling thread).
class ChildSink final : public ProgressSink {
 public:
  explicit ChildSink(const std::atomic<bool>& stop) : stop_(stop) {}
  void report(double, std::string_view) override {}
  bool cancelRequested() const override { return stop_.load(); }
 private:
  const std::atomic<bool>& stop_;
};

class Guided {
 public:
  Guided(const GuidedRequest& request, const EvaluatorFactory& childFactory, const StateDistance& distance,
         ProgressSink& progress)
      : request_(request), childFactory_(childFactory), distance_(distance), progress_(progress),
        start_(Clock::now()), last_(start_) {}

  // --- the calling thread ---

  // Cancel, time limit and a failed child; true when the planner must stop. Only the calling thread calls it.
  bool pollStop() {
    const auto now = Clock::now();
    if (request_.monitor && request_.monitor->paused()) paused_s_ += std::chrono::duration<double>(now - last_).count();
    last_ = now;
    if (!stop_.load()) {
      if (progress_.cancelRequested()) {
        reason_ = StopReason::Cancelled;
        stop_.store(true);
      } else if (request_.timeLimit_s > 0 &&
                 std::chrono::duration<double>(now - start_).count() - paused_s_ >= request_.timeLimit_s) {
        reason_ = StopReason::TimeLimit;
        stop_.store(true);
      }
    }
    return stop_.load();
  }

  void reportChildren() {
    const int spawned = static_cast<int>(children_.size());
    const int finished = finished_.load();
    progress_.report(0.5 + 0.5 * (spawned ? static_cast<double>(finished) / spawned : 1.0),
                     "guided planner: " + std::to_string(finished) + "/" + std::to_string(spawned) + " child searches");
  }

  void startWorkers() {
    const int threads = std::max(1, request_.threads);
    for (int t = 0; t < threads; ++t) workers_.emplace_back([this] { work(); });
  }

  // After the parent: spawn what is left, wait for every child (polling cancel), join the workers.
  void finish(const std::vector<BestEntry>& parentBest) {
    for (const BestEntry& e : parentBest) addSeed(e.x);
    while (!stop_.load() && spawnNext(/*callingThread=*/true)) {
    }
    {
      const std::lock_guard lock(mutex_);
      closing_ = true;
    }
    cv_.notify_all();
    while (finished_.load() < static_cast<int>(children_.size())) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      pollStop();
      reportChildren();
    }
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

  // --- the parent's chain thread (then the calling thread, after the parent) ---

  void addSeed(const std::vector<double>& x) {
    if (seeds_.size() >= request_.guided.maxSeeds) return;
    for (const std::vector<double>& s : seeds_)
      if (distance_(s, x) < request_.guided.seedDistance) return;
    seeds_.push_back(x);
  }

  // Spawns the child for the next usable seed; false when there is none (or the planner stops). Child j knows
  // the results of children 0 … j − childSlots (waiting for them to finish), so the decision and the child's
  // avoid list depend on the spawn index only.
  bool spawnNext(bool callingThread) {
    const GuidedSettings& g = request_.guided;
    while (nextSeed_ < seeds_.size() && children_.size() < g.maxSeeds) {
      const int j = static_cast<int>(children_.size());
      const int known = j - std::max(1, g.childSlots) + 1;  // children [0, known) are known
      if (!waitFor(known, callingThread)) return false;
      std::vector<std::vector<double>> avoid;
      for (int k = 0; k < known; ++k)
        if (!children_[static_cast<std::size_t>(k)]->result.best.empty())
          avoid.push_back(children_[static_cast<std::size_t>(k)]->result.best.front().x);
      const std::vector<double>& seed = seeds_[nextSeed_++];
      bool near = false;
      for (const std::vector<double>& a : avoid) near = near || distance_(a, seed) < request_.avoidDistance;
      if (near) continue;
      auto child = std::make_unique<Child>();
      child->index = j;
      child->seed = seed;
      child->avoid = std::move(avoid);
      Child* raw = child.get();
      children_.push_back(std::move(child));
      {
        const std::lock_guard lock(mutex_);
        queue_.push_back(raw);
      }
      cv_.notify_all();
      return true;
    }
    return false;
  }

  const std::vector<std::unique_ptr<Child>>& children() const { return children_; }
  const std::vector<std::vector<double>>& seeds() const { return seeds_; }
  StopReason reason() const { return reason_; }
  std::exception_ptr error() const { return error_; }
  void requestStop() { stop_.store(true); }

 private:
  // Waits until children [0, count) have finished; false when the planner stops meanwhile.
  bool waitFor(int count, bool callingThread) {
    auto ready = [&] {
      for (int k = 0; k < count; ++k)
        if (!children_[static_cast<std::size_t>(k)]->done) return false;
      return true;
    };
    std::unique_lock lock(mutex_);
    while (!ready()) {
      if (stop_.load()) return false;
      cv_.wait_for(lock, std::chrono::milliseconds(5));
      if (callingThread) {
        lock.unlock();
        pollStop();
        reportChildren();
        lock.lock();
      }
    }
    return !stop_.load();
  }

  // A worker thread: runs queued children in spawn order.
  void work() {
    for (;;) {
      Child* child = nullptr;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return !queue_.empty() || closing_; });
        if (queue_.empty()) return;
        child = queue_.front();
        queue_.pop_front();
      }
      while (request_.monitor && request_.monitor->paused() && !stop_.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      if (!stop_.load()) {
        try {
          child->result = runChild(*child);
        } catch (...) {
          const std::lock_guard lock(mutex_);
          if (!error_) error_ = std::current_exception();
          stop_.store(true);
        }
      }
      {
        const std::lock_guard lock(mutex_);
        child->done = true;
      }
      finished_.fetch_add(1);
      cv_.notify_all();
    }
  }

  AnnealingResult runChild(const Child& child) {
    const GuidedSettings& g = request_.guided;
    AnnealingRequest r;
    r.variables = request_.variables;
    for (std::size_t i = 0; i < r.variables.size(); ++i) {
      SearchVariable& v = r.variables[i];
      v.value = child.seed[i];
      v.target = child.seed[i];
      v.confidence = i < request_.positionCount ? g.positionConfidence : g.postureConfidence;
    }
    r.params = g.childParams;
    r.maxSteps = g.childParams.k0 + g.childSteps;
    r.chains = 1;
    r.threads = 1;
    r.seed = chainSeed(request_.seed, 2000 + child.index);
    r.bestListSize = 1;  // GraspIt!: a child contributes its best grasp
    r.listStart = true;  // its seed included
    r.minDistance = request_.minDistance;
    r.avoid = child.avoid;
    r.avoidDistance = request_.avoidDistance;
    r.illegalShrink = request_.illegalShrink;
    ChildSink sink(stop_);
    return runAnnealing(r, childFactory_, distance_, sink);
  }

  const GuidedRequest& request_;
  const EvaluatorFactory& childFactory_;
  const StateDistance& distance_;
  ProgressSink& progress_;
  Clock::time_point start_, last_;
  double paused_s_ = 0;
  StopReason reason_ = StopReason::StepLimit;
  std::atomic<bool> stop_{false};
  std::atomic<int> finished_{0};
  std::vector<std::vector<double>> seeds_;
  std::size_t nextSeed_ = 0;
  std::vector<std::unique_ptr<Child>> children_;   // touched by the spawning thread only
  std::mutex mutex_;                                // guards queue_, closing_, Child::done, error_
  std::condition_variable cv_;
  std::deque<Child*> queue_;
  bool closing_ = false;
  std::exception_ptr error_;
  std::vector<std::thread> workers_;
};

// The parent's view of progress: half of the bar; cancel, the time limit and a failed child stop it.
class ParentSink final : public ProgressSink {
 public:
  ParentSink(ProgressSink& progress, Guided& guided) : progress_(progress), guided_(guided) {}
  void report(double fraction, std::string_view message) override { progress_.report(0.5 * fraction, message); }
  bool cancelRequested() const override { return guided_.pollStop(); }
 private:
  ProgressSink& progress_;
  Guided& guided_;
};

}  // namespace

GuidedOutcome runGuided(const GuidedRequest& request, const EvaluatorFactory& parentFactory,
                        const EvaluatorFactory& childFactory, const StateDistance& distance, ProgressSink& progress) {
  const auto start = Clock::now();
  Guided guided(request, childFactory, distance, progress);
  guided.startWorkers();

  AnnealingRequest parent;
  parent.variables = request.variables;
  parent.params = request.params;
  parent.maxSteps = request.maxSteps;
  parent.chains = 1;   // GraspIt!: one parent search
  parent.threads = 1;
  parent.seed = request.seed;
  parent.bestListSize = request.bestListSize;
  parent.minDistance = request.minDistance;
  parent.monitor = request.monitor;
  parent.illegalShrink = request.illegalShrink;
  const GuidedSettings& g = request.guided;
  parent.onIteration = [&](int, long i, const std::vector<double>& x, double e, bool accepted) {
    if (accepted && e < g.seedThreshold) guided.addSeed(x);
    if (g.spawnEvery > 0 && (i + 1) % g.spawnEvery == 0) guided.spawnNext(/*callingThread=*/false);
  };
  ParentSink parentSink(progress, guided);
  AnnealingResult parentResult;
  try {
    parentResult = runAnnealing(parent, parentFactory, distance, parentSink);
  } catch (...) {
    guided.requestStop();
    guided.finish({});
    throw;
  }
  guided.finish(guided.pollStop() ? std::vector<BestEntry>{} : parentResult.best);
  if (guided.error()) std::rethrow_exception(guided.error());

  GuidedOutcome out;
  AnnealingResult& a = out.annealing;
  a.iterations = parentResult.iterations;
  a.evaluations = parentResult.evaluations;
  a.fullEvaluations = parentResult.fullEvaluations;
  a.illegal = parentResult.illegal;
  a.traces = std::move(parentResult.traces);
  std::vector<BestEntry> all;
  for (const auto& child : guided.children()) {
    const AnnealingResult& r = child->result;
    a.iterations += r.iterations;
    a.evaluations += r.evaluations;
    a.fullEvaluations += r.fullEvaluations;
    a.illegal += r.illegal;
    for (const auto& t : r.traces) a.traces.push_back(t);
    out.seeds.push_back(child->seed);
    if (r.best.empty()) continue;
    BestEntry e = r.best.front();
    e.chain = child->index;
    out.avoided.push_back(e.x);
    out.avoidedChild.push_back(child->index);
    all.push_back(std::move(e));
  }
  a.best = mergeBestEntries(std::move(all), request.bestListSize, request.minDistance, distance);
  a.stopReason = guided.reason();
  a.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  progress.report(1.0, std::string("guided planner: done (") + toString(a.stopReason) + ")");
  return out;
}

}  // namespace sg::planner
