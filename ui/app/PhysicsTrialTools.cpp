// installPhysicsTrialTools: Grasp > Physics Trial (PhysicsTrialDock.h): the action raises the dock and runs the trial
// of the current grasp for the Grasp toolbar's hand (GraspActions::targetRobot) and the analysed graspable.
// Grasp > Measures vs Physics… shows the PhysicsPredictionWindow (one per main window), which opens a table of
// softgrasp-cli compare --against-physics or runs the comparison on this window's world, hand and analysis settings.
#include <QAction>
#include <QMenu>
#include <QPushButton>
#include <QSlider>

#include "Document.h"
#include "FeatureTools.h"
#include "GraspActions.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "PhysicsPredictionWindow.h"
#include "PhysicsTrialDock.h"
#include "QualityDock.h"
#include "ViewportPanel.h"
#include "viewport/CoinViewport.h"

namespace sg::app {

void installPhysicsTrialTools(MainWindow* window) {
  ViewportPanel* panel = window->viewportPanel();
  auto target = [window] {
    const auto* actions = window->findChild<GraspActions*>();
    const int robot = actions ? actions->targetRobot() : (window->document()->world().robots.empty() ? -1 : 0);
    int graspable = window->analysis()->graspableIndex();
    if (graspable < 0 && !window->document()->world().graspables.empty()) graspable = 0;
    return std::pair<int, int>{robot, graspable};
  };
  auto* dock = new PhysicsTrialDock(window->document(), panel ? panel->scene() : nullptr, target, window);
  window->addDock(dock, Qt::RightDockWidgetArea);
  // A tab behind the Quality dock (whose tab bar exists already, so no other dock loses room); the action raises it.
  if (auto* quality = window->findChild<QualityDock*>()) {
    window->tabifyDockWidget(quality, dock);
    quality->raise();
  }
  if (panel) {
    ui::CoinViewport* view = panel->viewport();
    QObject::connect(dock->slider(), &QSlider::valueChanged, view, [view] { view->update(); });
    QObject::connect(dock->liveButton(), &QPushButton::clicked, view, [view] { view->update(); });
    QObject::connect(dock, &PhysicsTrialDock::trialFinished, view, [view] { view->update(); });
  }

  QMenu* menu = window->graspMenu();
  menu->addSeparator();
  auto* action = menu->addAction(QObject::tr("Physics &Trial"));
  action->setObjectName("actionPhysicsTrial");
  action->setStatusTip(QObject::tr("Close the hand with its effort in MuJoCo, pull the object along ±x ±y ±z and "
                                   "play the trial back"));
  QObject::connect(action, &QAction::triggered, dock, [dock] {
    dock->show();
    dock->raise();
    dock->run();
  });

  auto* measures = menu->addAction(QObject::tr("&Measures vs Physics…"));
  measures->setObjectName("actionMeasuresVsPhysics");
  measures->setStatusTip(QObject::tr("Which quality measure predicts a held grasp: run the comparison on the "
                                     "planner's grasps or open the table of softgrasp-cli compare "
                                     "--against-physics, as a table and bar charts"));
  QObject::connect(measures, &QAction::triggered, window, [window, target] {
    auto* w = window->findChild<PhysicsPredictionWindow*>();
    if (!w) {
      w = new PhysicsPredictionWindow(window);
      w->setRunSource({window->document(), window->analysis(), target});
    }
    w->show();
    w->raise();
    w->activateWindow();
  });
}

}  // namespace sg::app
