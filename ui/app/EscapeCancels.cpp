#include "EscapeCancels.h"

#include <QWidget>

#include "PhysicsPredictionWindow.h"
#include "PhysicsTrialDock.h"
#include "PlannerDock.h"
#include "SensitivityWindow.h"

namespace sg::app {

bool cancelRunningWork(QWidget* window) {
  bool any = false;
  for (PlannerDock* planner : window->findChildren<PlannerDock*>())
    if (planner->isRunning()) {
      planner->cancel();
      any = true;
    }
  for (SensitivityWindow* sweep : window->findChildren<SensitivityWindow*>())
    if (sweep->running()) {
      sweep->cancel();
      any = true;
    }
  for (PhysicsTrialDock* trial : window->findChildren<PhysicsTrialDock*>())
    if (trial->running()) {
      trial->cancel();
      any = true;
    }
  for (PhysicsPredictionWindow* comparison : window->findChildren<PhysicsPredictionWindow*>())
    if (comparison->running()) {
      comparison->cancel();
      any = true;
    }
  return any;
}

}  // namespace sg::app
