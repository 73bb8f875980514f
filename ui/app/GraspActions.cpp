#include "GraspActions.h"

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QMenu>
#include <QStatusBar>
#include <QToolBar>
#include <exception>
#include <functional>

#include "CollisionStoppedEdits.h"
#include "Document.h"
#include "GraspCommands.h"
#include "MainWindow.h"
#include "grasp/AutoGrasp.h"
#include "model/Kinematics.h"

namespace sg::app {

namespace {

constexpr int kStatusTimeout_ms = 8000;

QString contactCount(const std::vector<Contact>& contacts) {
  return QObject::tr("%n contact(s)", nullptr, static_cast<int>(contacts.size()));
}

// Without collision checking: every DOF auto-grasp would move goes straight to its limit.
void forceAutoGrasp(World& world, int robot, bool open) {
  Robot& r = world.robots.at(robot);
  std::vector<double> values = dofValues(r);
  for (std::size_t k = 0; k < r.dofs.size(); ++k) {
    const double v = r.dofs[k].defaultVelocity * (open ? -1.0 : 1.0);
    if (v != 0) values[k] = v > 0 ? r.dofs[k].maxValue : r.dofs[k].minValue;
  }
  setDofValues(r, values);
  world.updateConnections();
}

}  // namespace

GraspActions::GraspActions(MainWindow* window, CollisionStoppedEdits* edits)
    : QObject(window), window_(window), doc_(window->document()), edits_(edits) {
  setObjectName("GraspActions");
  QMenu* menu = window->graspMenu();
  QToolBar* bar = window->graspToolBar();
  auto add = [&](const QString& text, const char* name, const QString& tip, auto slot) {
    QAction* a = menu->addAction(text);
    a->setObjectName(name);
    a->setStatusTip(tip);
    a->setToolTip(tip);
    connect(a, &QAction::triggered, this, slot);
    return a;
  };
  approach_ = add(tr("&Approach to Contact"), "actionApproach",
                  tr("Move the hand along its approach direction until it touches something (at most %1 mm)")
                      .arg(kApproachDistance_mm),
                  [this] { approach(); });
  autoGrasp_ = add(tr("Auto-&Grasp"), "actionAutoGrasp", tr("Close the fingers until they stop at contacts"),
                   [this] { autoGrasp(); });
  autoGrasp_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
  approachAndGrasp_ = add(tr("Approach && G&rasp"), "actionApproachAndGrasp",
                          tr("Approach %1 mm, then close the fingers").arg(kApproachBeforeGrasp_mm),
                          [this] { approachAndGrasp(); });
  // A plain key: a window shortcut, which Qt leaves to a focused spin box or line edit that types the letter.
  approachAndGrasp_->setShortcut(QKeySequence(Qt::Key_G));
  approachAndGrasp_->setShortcutContext(Qt::WindowShortcut);
  autoOpen_ = add(tr("Auto-&Open"), "actionAutoOpen", tr("Open the fingers until they stop at contacts"),
                  [this] { autoOpen(); });
  menu->addSeparator();
  collisionChecking_ = menu->addAction(tr("&Collision Checking"));
  collisionChecking_->setObjectName("actionCollisionChecking");
  collisionChecking_->setCheckable(true);
  collisionChecking_->setChecked(edits_->isEnabled());
  collisionChecking_->setStatusTip(tr("Stop hands and bodies at contact when they move"));
  connect(collisionChecking_, &QAction::toggled, edits_, &CollisionStoppedEdits::setEnabled);
  connect(edits_, &CollisionStoppedEdits::enabledChanged, collisionChecking_, &QAction::setChecked);

  for (QAction* a : {approach_, autoGrasp_, approachAndGrasp_, autoOpen_}) bar->addAction(a);
  bar->addAction(collisionChecking_);

  connect(doc_, &Document::worldChanged, this, [this](ChangeKind k) {
    if (k == ChangeKind::Structure) updateEnabled();
  });
  updateEnabled();
}

int GraspActions::targetRobot() const {
  const int selected = robotIndexOf(doc_->selection());
  if (selected >= 0) return selected;
  return doc_->world().robots.empty() ? -1 : 0;
}

void GraspActions::updateEnabled() {
  const bool any = !doc_->world().robots.empty();
  for (QAction* a : {approach_, autoGrasp_, approachAndGrasp_, autoOpen_}) a->setEnabled(any);
}

QString GraspActions::approachIn(World& world, int robot, double distance_mm) const {
  if (!edits_->isEnabled()) {
    Robot& r = world.robots.at(robot);
    setRobotPose(r, Transform::fromTranslation(approachDirection(r) * distance_mm) * r.pose);
    world.updateConnections();
    return tr("Approach: moved %1 mm (collision checking off)").arg(distance_mm);
  }
  const MotionResult m = approachToContact(world, robot, distance_mm, edits_->motionSettings());
  switch (m.outcome) {
    case MotionOutcome::Contact:
      return tr("Approach: contact after %1 mm, %2").arg(m.fraction * distance_mm, 0, 'f', 1).arg(contactCount(m.contacts));
    case MotionOutcome::Reached: return tr("Approach: moved %1 mm without touching anything").arg(distance_mm);
    case MotionOutcome::Blocked: return tr("Approach blocked: contacts oppose the motion");
    case MotionOutcome::StartInCollision: return tr("Approach refused: the hand is already in collision");
  }
  return {};
}

QString GraspActions::graspIn(World& world, int robot, bool open) const {
  const QString what = open ? tr("Auto-open") : tr("Auto-grasp");
  if (!edits_->isEnabled()) {
    forceAutoGrasp(world, robot, open);
    return tr("%1: DOFs at their limits (collision checking off)").arg(what);
  }
  AutoGraspSettings settings;
  settings.motion = edits_->motionSettings();
  const DofMotionResult m = open ? sg::autoOpen(world, robot, settings) : sg::autoGrasp(world, robot, settings);
  switch (m.outcome) {
    case MotionOutcome::Contact: return tr("%1: stopped at contact, %2").arg(what, contactCount(m.contacts));
    case MotionOutcome::Reached:
      return m.contacts.empty() ? tr("%1: reached the DOF limits, no contact").arg(what)
                                : tr("%1: reached the DOF limits, %2").arg(what, contactCount(m.contacts));
    case MotionOutcome::Blocked: return tr("%1 blocked: contacts oppose the motion").arg(what);
    case MotionOutcome::StartInCollision: return tr("%1 refused: the hand is already in collision").arg(what);
  }
  return {};
}

QString GraspActions::run(const QString& undoText, const std::function<QString(World&, int)>& motion) {
  const int robot = targetRobot();
  QString message;
  if (robot < 0) {
    message = tr("No robot to move");
  } else {
    QApplication::setOverrideCursor(Qt::WaitCursor);
    World scratch = doc_->world();  // meshes are shared: the copy is cheap
    try {
      message = motion(scratch, robot);
      auto* command = new SetRobotStatesCommand(
          doc_, scratch, undoText.arg(QString::fromStdString(scratch.robots[robot].name)));
      if (command->isEmpty()) {
        delete command;
        message += tr(" — nothing moved");
      } else {
        doc_->push(command);
      }
    } catch (const std::exception& e) {
      message = tr("Motion failed: %1").arg(QString::fromStdString(e.what()));
    }
    QApplication::restoreOverrideCursor();
  }
  window_->statusBar()->showMessage(message, kStatusTimeout_ms);
  return message;
}

QString GraspActions::approach() {
  return run(tr("Approach %1"), [this](World& w, int r) { return approachIn(w, r, kApproachDistance_mm); });
}

QString GraspActions::autoGrasp() {
  return run(tr("Auto-grasp %1"), [this](World& w, int r) { return graspIn(w, r, false); });
}

QString GraspActions::approachAndGrasp() {
  return run(tr("Approach and grasp %1"), [this](World& w, int r) {
    const QString approached = approachIn(w, r, kApproachBeforeGrasp_mm);
    return approached + QStringLiteral("; ") + graspIn(w, r, false);
  });
}

QString GraspActions::autoOpen() {
  return run(tr("Auto-open %1"), [this](World& w, int r) { return graspIn(w, r, true); });
}

}  // namespace sg::app
