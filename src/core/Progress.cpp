#include "core/Progress.h"

#include <algorithm>

namespace sg {

double clampFraction(double fraction) {
  if (!(fraction >= 0)) return 0;  // NaN too
  return std::min(fraction, 1.0);
}

SubProgress::SubProgress(ProgressSink& parent, double begin, double end)
    : parent_(parent), begin_(clampFraction(begin)), end_(std::max(clampFraction(begin), clampFraction(end))) {}

void SubProgress::report(double fraction, std::string_view message) {
  parent_.report(begin_ + clampFraction(fraction) * (end_ - begin_), message);
}

Cancelled::Cancelled(std::string message) : Error(std::move(message)) {}

void throwIfCancelled(const ProgressSink& progress) {
  if (progress.cancelRequested()) throw Cancelled();
}

void CancellableProgress::report(double fraction, std::string_view message) {
  const std::lock_guard lock(mutex_);
  latest_.fraction = clampFraction(fraction);
  latest_.message.assign(message);
  ++latest_.reports;
}

CancellableProgress::Snapshot CancellableProgress::snapshot() const {
  const std::lock_guard lock(mutex_);
  return latest_;
}

}  // namespace sg
