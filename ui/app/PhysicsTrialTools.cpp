// installPhysicsTrialTools: Grasp > Physics Trial (PhysicsTrialDock.h): the action raises the dock and runs the trial
// of the current grasp for the Grasp toolbar's hand (GraspActions::targetRobot) and the analysed graspable.
#include <QAction>
#include <QMenu>
#include <QPushButton>
#include <QSlider>

#include "Document.h"
#include "FeatureTools.h"
#include "GraspActions.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
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
}

}  // namespace sg::app
