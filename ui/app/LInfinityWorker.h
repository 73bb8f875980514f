#pragma once
// Builds the L∞ grasp wrench space and its quality on a background thread, so a large Minkowski sum (seconds
// of 6-D hull) never freezes the GUI. One worker thread, started on the first job; at most one job runs and
// one waits — a new job replaces the waiting one (only the latest model matters). Results come back on the
// worker object's thread (the GUI thread) through finished(), tagged with the job's generation so the owner
// can drop results of a model that has changed since.
//
// Destruction never waits for a running hull (Qhull cannot be interrupted): the thread is detached and
// keeps only shared state — its own copy of the inputs — and drops its result once the object is gone.
#include <QObject>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "grasp/GraspQuality.h"
#include "grasp/GraspWrenchSpace.h"

namespace sg::app {

struct LInfinityJob {
  std::uint64_t generation = 0;                   // the owner's model generation
  std::vector<std::vector<Vec6>> perContactWrenches;  // object frame, torques / ρ (as evaluateGrasp)
  GwsSettings gws;
  double forceClosureTolerance = 1e-9;
};

struct LInfinityResult {
  std::uint64_t generation = 0;
  GraspWrenchSpace space;
  GraspQuality quality;
  std::string error;                              // non-empty: the build threw (space/quality default)
};

class LInfinityWorker : public QObject {
  Q_OBJECT
 public:
  explicit LInfinityWorker(QObject* parent = nullptr);
  ~LInfinityWorker() override;

  // Queues the job, replacing a job not started yet; a running job finishes (its result is still reported).
  void submit(LInfinityJob job);
  // Drops the job not started yet, if any.
  void cancelWaiting();
  // A job runs or waits (tests, status).
  bool busy() const;
  // Jobs started so far (tests: superseded jobs never start).
  int startedCount() const;
  // Worker threads alive in the process, detached ones included (tests: wait for them to wind down).
  static int liveThreadCount();

 signals:
  // On this object's thread, once per job that ran.
  void finished(const sg::app::LInfinityResult& result);

 private:
  struct Shared;
  static void run(std::shared_ptr<Shared> shared);  // the thread's loop
  std::shared_ptr<Shared> shared_;
};

// The work itself, synchronous (also what the thread runs): buildLInfinityGws + evaluateQuality.
LInfinityResult buildLInfinity(const LInfinityJob& job);

}  // namespace sg::app
