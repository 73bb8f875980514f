#pragma once
// Esc stops what runs in the background: a running grasp plan (PlannerDock), sensitivity sweep
// (SensitivityWindow), physics trial (PhysicsTrialDock) or measures-vs-physics run (PhysicsPredictionWindow) of
// `window` is cancelled; Edit > Select None (Esc) calls this first and deselects only when nothing ran. The sweep
// and measures-vs-physics windows have their own Esc for when they are the active window.
class QWidget;

namespace sg::app {

// Cancels every running plan, sweep, trial and comparison under `window`; true when one was running (Esc is then used up).
bool cancelRunningWork(QWidget* window);

}  // namespace sg::app
