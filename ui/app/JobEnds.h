#pragma once
// The end of a background job that was cancelled or failed, as every window running one on its own JobRunner
// (PhysicsTrialDock, SensitivityWindow, PhysicsPredictionWindow) handles it: drop outcomes of jobs other than the
// owner's current one (a stale tag), go back to idle, say so in the status line, then tell the owner's listeners.
#include <QString>
#include <cstdint>
#include <functional>

class QLabel;
class QObject;

namespace sg::app {

class JobRunner;

struct JobEnds {
  const std::uint64_t* currentTag = nullptr;  // the owner's tag of its latest job; other tags are ignored
  std::function<void()> idle;                 // back to idle (buttons, running flag)
  QLabel* status = nullptr;                   // gets "Cancelled" or `failedText` with the error as %1
  QString failedText;                         // e.g. tr("Trial failed: %1")
  std::function<void()> cancelled;            // after the status: the owner's signal, may be empty
  std::function<void(const QString& error)> failed;
};

// Connects `jobs`' cancelled() and failed() signals to `ends`, in `context`'s lifetime.
void connectJobEnds(JobRunner* jobs, QObject* context, JobEnds ends);

}  // namespace sg::app
