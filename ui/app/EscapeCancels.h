#pragma once
// Esc stops what runs in the background: a running grasp plan (PlannerDock), sensitivity sweep
// (SensitivityWindow) or physics trial (PhysicsTrialDock) of `window` is cancelled; Edit > Select None (Esc)
// calls this first and deselects only when nothing ran. The sweep window has its own Esc for when it is the
// active window.
class QWidget;

namespace sg::app {

// Cancels every running plan, sweep and trial under `window`; true when one was running (Esc is then used up).
bool cancelRunningWork(QWidget* window);

}  // namespace sg::app
