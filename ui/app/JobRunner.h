#pragma once
// Runs long computations (the L∞ wrench space, planners) off the GUI thread, one at a time, so the GUI never
// freezes and the latest request wins:
//
// - One worker thread, owned by the runner and started on the first submit. At most one job runs and at most
//   one waits: submit() replaces the waiting job (the replaced one never starts and is never reported).
// - Each job gets its own sink (core/Progress.h). cancel() asks the running job to stop — a cooperative job
//   polls the sink and throws Cancelled — and drops the waiting one. dropWaiting() drops only the waiting one.
// - Outcomes arrive on the runner's thread (the GUI thread) as signals carrying the job's tag, so the owner
//   can drop results of a model that has changed since: finished() with the job's return value, failed()
//   when it threw (the exception's text), cancelled() when it threw Cancelled. Progress is polled at most
//   20 times a second while a job runs and signalled when it changed; a job's progress never follows its
//   outcome.
// - The destructor cancels the running job, drops the waiting one and joins the thread: it waits until the
//   running job reaches its next cancellation point (or ends), so jobs should poll the sink between steps.
//   A job's inputs must be its own (captured by value): it may outlive the state it was built from.
#include <QObject>
#include <QString>
#include <QTimer>
#include <any>
#include <cstdint>
#include <functional>
#include <memory>

#include "core/Progress.h"

namespace sg::app {

class JobRunner : public QObject {
  Q_OBJECT
 public:
  // Runs on the worker thread. Its return value (any copyable type; a shared_ptr for large ones) is handed
  // to finished() as is — a lambda returning T converts to std::any.
  using Job = std::function<std::any(ProgressSink& progress)>;

  explicit JobRunner(QObject* parent = nullptr);
  ~JobRunner() override;

  // Queues the job under the owner's tag, replacing the waiting one; the running job goes on.
  void submit(std::uint64_t tag, Job job);
  // Requests cancellation of the running job and drops the waiting one.
  void cancel();
  // Drops the waiting job only.
  void dropWaiting();

  // A job runs or waits; its outcome may still be on its way to the GUI thread (tests, status).
  bool busy() const;
  // Jobs started so far (tests: superseded jobs never start).
  int startedCount() const;
  // Worker threads alive in the process (tests: none is left behind).
  static int liveThreadCount();

  // The result of a finished job as T, or null when it holds something else.
  template <class T>
  static const T* resultAs(const std::any& result) {
    return std::any_cast<T>(&result);
  }

 signals:
  void finished(std::uint64_t tag, const std::any& result);
  void failed(std::uint64_t tag, const QString& error);
  void cancelled(std::uint64_t tag);
  // fraction in [0, 1]; throttled (see above).
  void progress(std::uint64_t tag, double fraction, const QString& message);

 private:
  struct State;
  struct Outcome;
  void run();  // the worker thread's loop
  void deliver(std::uint64_t tag, const Outcome& outcome);
  void pollProgress();

  std::unique_ptr<State> state_;
  QTimer progressTimer_;
};

}  // namespace sg::app
