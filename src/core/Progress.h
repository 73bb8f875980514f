#pragma once
// Progress and cancellation for long computations (a 6-D hull of a Minkowski sum, a planner run), without
// Qt: the engine reports through a ProgressSink and polls it for a cancel request; whoever runs the
// computation (the application's job runner, the CLI, a test) decides what the sink does.
//
// - report(fraction, message): fraction in [0, 1] of the whole computation (values outside are clamped);
//   the message names the current step ("building L-infinity hull"). Cheap: call it as often as useful.
// - cancelRequested(): polled at safe points; a cooperative computation then calls throwIfCancelled(),
//   which throws Cancelled. Cancelled is an sg::Error, so code that catches sg::Error to report a failure
//   must catch (and rethrow) Cancelled first.
// - SubProgress maps a nested computation's [0, 1] onto [begin, end] of its parent's bar.
// - CancellableProgress is the thread-safe sink: the computation reports and polls on one thread,
//   cancel() and snapshot() may be called from any other.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "core/Error.h"

namespace sg {

class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void report(double fraction, std::string_view message) = 0;
  virtual bool cancelRequested() const = 0;
};

// Ignores reports and never cancels: for callers that want neither.
class NullProgress final : public ProgressSink {
 public:
  void report(double, std::string_view) override {}
  bool cancelRequested() const override { return false; }
};

// [0, 1] here is [begin, end] of the parent; cancellation is the parent's.
class SubProgress final : public ProgressSink {
 public:
  SubProgress(ProgressSink& parent, double begin, double end);
  void report(double fraction, std::string_view message) override;
  bool cancelRequested() const override { return parent_.cancelRequested(); }

 private:
  ProgressSink& parent_;
  double begin_, end_;
};

// Thrown by a computation that stopped because it was asked to; not a failure.
class Cancelled : public Error {
 public:
  explicit Cancelled(std::string message = "cancelled");
};

// Throws Cancelled when the sink asks for it.
void throwIfCancelled(const ProgressSink& progress);

// The fraction clamped to [0, 1] (NaN gives 0).
double clampFraction(double fraction);

class CancellableProgress final : public ProgressSink {
 public:
  struct Snapshot {
    double fraction = 0;
    std::string message;
    std::uint64_t reports = 0;  // how many report() calls so far: tells a reader whether anything changed
  };

  void report(double fraction, std::string_view message) override;
  bool cancelRequested() const override { return cancelled_.load(std::memory_order_acquire); }
  // Any thread; the computation sees it at its next poll.
  void cancel() { cancelled_.store(true, std::memory_order_release); }
  // Any thread: the latest report, consistent (fraction and message of the same call).
  Snapshot snapshot() const;

 private:
  std::atomic<bool> cancelled_{false};
  mutable std::mutex mutex_;
  Snapshot latest_;
};

}  // namespace sg
