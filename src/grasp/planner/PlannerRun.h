#pragma once
// A planner run on its own worker thread, for an interactive caller (the application's planner dock; a script):
// the run owns a copy of the world and the request, the caller polls status() and the annealing monitor (it
// never blocks), pauses, moves the online planner's target, cancels, and reads the result once done().
// PLANNER.md §Planner runs. Engine only: std::thread and std::atomic, no Qt.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/Progress.h"
#include "grasp/planner/GraspList.h"
#include "grasp/planner/GraspPlanner.h"

namespace sg::planner {

class PlannerRun {
 public:
  enum class Kind { Annealing, Online };  // planGrasps (simann, loop, guided) or OnlinePlanner
  enum class State { Running, Finished, Failed };

  // What a poll sees. Iterations and fraction never decrease during a run.
  struct Status {
    State state = State::Running;
    double fraction = 0;             // of the whole run (the online planner's stays 0: it runs until cancelled)
    std::string message;             // the planner's latest progress message
    long iterations = 0;             // annealing iterations of all chains so far
    // The online planner's best state so far (empty before one) and how many states near the hand it keeps.
    std::vector<double> bestState;
    double bestEnergy = 0;
    std::size_t bestCount = 0;
    std::string error;               // State::Failed: why
  };

  // Starts planGrasps(*world, request) (its monitor is the run's) on a new thread.
  static std::unique_ptr<PlannerRun> startAnnealing(std::shared_ptr<const World> world, PlanRequest request);
  // Starts GraspIt!'s online planner (OnlinePlanner.h): `stepsPerRound` iterations at a time, taking the latest
  // target between rounds, until cancel(); then its best states are closed and measured. sg::Error (on the
  // caller's thread) for an approach space, which the online planner cannot follow.
  static std::unique_ptr<PlannerRun> startOnline(std::shared_ptr<const World> world, PlanRequest request,
                                                 long stepsPerRound = 8);
  // Cancels and waits for the worker.
  ~PlannerRun();
  PlannerRun(const PlannerRun&) = delete;
  PlannerRun& operator=(const PlannerRun&) = delete;

  Kind kind() const { return kind_; }
  const World& world() const { return *world_; }
  const PlanRequest& request() const { return request_; }  // monitor: null (the run's own is monitor())

  // The annealing planners' live view (plot samples, chain 0's state); the online planner posts nothing to it.
  AnnealingMonitor& monitor() { return monitor_; }
  // Annealing: chains wait at their next iteration (PLANNER.md §Live view). Online: ignored.
  void setPaused(bool paused);
  bool paused() const { return monitor_.paused(); }
  // Online: the hand moved; the search restarts there at its next round. Annealing: ignored.
  void setTarget(const Transform& X_WP, const std::vector<double>& dofValues);
  // Any thread. Annealing: stops at the chains' next poll and keeps what was found (stopReason cancelled);
  // online: ends the search after its current round. A paused run is resumed so that it can stop.
  void cancel();
  bool cancelRequested() const { return progress_.cancelRequested(); }

  Status status() const;
  bool done() const { return done_.load(std::memory_order_acquire); }
  void wait();  // until done()
  // After done(): the result (null when the run failed).
  std::shared_ptr<const PlanResult> result() const;
  // The result as the grasp list a front end saves (makeGraspList; the online planner's list has planner
  // "online" and, unless another set was asked for, the params "online" it ran with). sg::Error when not done
  // or failed.
  GraspList graspList(const std::string& worldFile) const;

 private:
  PlannerRun(Kind kind, std::shared_ptr<const World> world, PlanRequest request);
  void runAnnealing();
  void runOnline(long stepsPerRound);
  void finish(std::shared_ptr<const PlanResult> result, std::string error);

  const Kind kind_;
  const std::shared_ptr<const World> world_;
  const PlanRequest request_;
  AnnealingMonitor monitor_;
  CancellableProgress progress_;
  std::atomic<bool> done_{false};
  mutable std::mutex mutex_;  // guards the fields below
  std::optional<std::pair<Transform, std::vector<double>>> target_;
  Status online_;             // the online planner's latest round (bestState, bestEnergy, bestCount, iterations)
  std::shared_ptr<const PlanResult> result_;
  std::string error_;
  std::thread worker_;        // last: started once everything above exists
};

}  // namespace sg::planner
