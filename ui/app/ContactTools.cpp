// The contact feature of the main window: the contacts dock, the sensing dock (a tab behind the contacts), markers and friction cones in the viewport
// (with show/hide toggles), the grasp motions of the Grasp menu and toolbar, and collision-stopped
// dragging and DOF edits.
#include <QAction>
#include <QMenu>
#include <QStatusBar>

#include "CollisionStoppedEdits.h"
#include "ContactOverlay.h"
#include "ContactsDock.h"
#include "FeatureTools.h"
#include "GraspActions.h"
#include "GraspAnalysis.h"
#include "MainWindow.h"
#include "SensingDock.h"

namespace sg::app {

void installContactTools(MainWindow* window) {
  auto* edits = new CollisionStoppedEdits(window->document(), window->analysis());
  QObject::connect(edits, &CollisionStoppedEdits::motionStopped, window,
                   [window](const QString& message) { window->statusBar()->showMessage(message, 3000); });

  // Interpenetrating bodies (collision checking off, or loaded that way): said in the status bar whenever the
  // set of pairs or their depths change.
  QObject::connect(window->analysis(), &GraspAnalysis::updated, window, [window] {
    const QString text = window->analysis()->describeInterpenetrations();
    const QString previous = window->property("sgInterpenetrations").toString();
    window->setProperty("sgInterpenetrations", text);
    if (!text.isEmpty() && text != previous) window->statusBar()->showMessage(text, 8000);
  });

  auto* contactsDock = new ContactsDock(window->document(), window->analysis(), window);
  window->addDock(contactsDock, Qt::BottomDockWidgetArea);
  auto* sensing = new SensingDock(window->document(), window);
  window->addDock(sensing, Qt::BottomDockWidgetArea);
  window->tabifyDockWidget(contactsDock, sensing);  // a tab behind the contacts
  contactsDock->raise();
  new GraspActions(window, edits);

  auto* overlay = new ContactOverlay(window->analysis(), window->viewportPanel(), window);
  QMenu* menu = window->graspMenu();
  menu->addSeparator();
  QAction* contacts = menu->addAction(QObject::tr("Show Co&ntacts"));
  contacts->setObjectName("actionShowContacts");
  contacts->setCheckable(true);
  contacts->setChecked(overlay->contactsVisible());
  contacts->setStatusTip(QObject::tr("Show contact markers and friction cones in the 3-D view"));
  QObject::connect(contacts, &QAction::toggled, overlay, &ContactOverlay::setContactsVisible);
  QAction* cones = menu->addAction(QObject::tr("Show &Friction Cones"));
  cones->setObjectName("actionShowFrictionCones");
  cones->setCheckable(true);
  cones->setChecked(overlay->conesVisible());
  QObject::connect(cones, &QAction::toggled, overlay, &ContactOverlay::setConesVisible);
  QObject::connect(contacts, &QAction::toggled, cones, &QAction::setEnabled);  // cones live under the contacts
}

}  // namespace sg::app
