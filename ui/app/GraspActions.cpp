#include "GraspActions.h"

#include "GraspAnalysis.h"

#include <QAction>
#include <QApplication>
#include <QCursor>
#include <QMenu>
#include <QStatusBar>
#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolBar>
#include <exception>
#include <functional>

#include "CollisionStoppedEdits.h"
#include "Document.h"
#include "GraspCommands.h"
#include "MainWindow.h"

namespace sg::app {

namespace {

constexpr int kStatusTimeout_ms = 8000;

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
  // The active hand and target object, explicit (GraspIt!'s users expect it), or following the selection.
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Hand: "), bar));
  hand_ = new QComboBox(bar);
  hand_->setObjectName("activeHandCombo");
  hand_->setToolTip(tr("The hand the Grasp actions move"));
  bar->addWidget(hand_);
  bar->addWidget(new QLabel(tr(" Object: "), bar));
  object_ = new QComboBox(bar);
  object_->setObjectName("activeObjectCombo");
  object_->setToolTip(tr("The object whose grasp the Quality dock evaluates"));
  bar->addWidget(object_);
  connect(object_, &QComboBox::activated, this, [this](int index) {
    window_->analysis()->setTargetGraspable(index > 0 ? std::optional<int>(index - 1) : std::nullopt);
  });

  connect(doc_, &Document::worldChanged, this, [this](ChangeKind k) {
    if (k == ChangeKind::Structure) updateEnabled();
  });
  updateEnabled();
}

void GraspActions::fillSelectors() {
  const World& w = doc_->world();
  const int hand = hand_->currentIndex(), object = object_->currentIndex();
  const QSignalBlocker b1(hand_), b2(object_);
  hand_->clear();
  hand_->addItem(tr("(selected)"));
  for (const Robot& r : w.robots) hand_->addItem(QString::fromStdString(r.name));
  object_->clear();
  object_->addItem(tr("(selected or touched)"));
  for (const Body& b : w.graspables) object_->addItem(QString::fromStdString(b.name));
  hand_->setCurrentIndex(hand > 0 && hand < hand_->count() ? hand : 0);
  (void)object;
  const auto target = window_->analysis()->targetGraspable();  // the analysis owns the choice (reset with a new world)
  object_->setCurrentIndex(target && *target + 1 < object_->count() ? *target + 1 : 0);
}

int GraspActions::targetRobot() const {
  if (const int chosen = hand_ ? hand_->currentIndex() - 1 : -1;
      chosen >= 0 && chosen < static_cast<int>(doc_->world().robots.size()))
    return chosen;
  const int selected = robotIndexOf(doc_->selection());
  if (selected >= 0) return selected;
  return doc_->world().robots.empty() ? -1 : 0;
}

void GraspActions::updateEnabled() {
  fillSelectors();
  const bool any = !doc_->world().robots.empty();
  for (QAction* a : {approach_, autoGrasp_, approachAndGrasp_, autoOpen_}) a->setEnabled(any);
}

QString GraspActions::moveIn(WorldState& state, int robot, const HandMotionRequest& motion) const {
  HandMotionRequest request = motion;
  request.collisionChecking = edits_->isEnabled();
  request.settings.motion = edits_->motionSettings();
  return QString::fromStdString(moveHand(doc_->world(), state, robot, request).summary());
}

QString GraspActions::run(const QString& undoText, const HandMotionRequest& motion) {
  const int robot = targetRobot();
  QString message;
  if (robot < 0) {
    message = tr("No robot to move");
  } else {
    QApplication::setOverrideCursor(Qt::WaitCursor);
    WorldState scratch = doc_->world().state;  // the motion moves a copy of the state, not of the world
    try {
      message = moveIn(scratch, robot, motion);
      auto* command = new SetRobotStatesCommand(
          doc_, scratch, undoText.arg(QString::fromStdString(doc_->world().robots[robot].name)));
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

QString GraspActions::approach() { return run(tr("Approach %1"), presetMotion(HandMotionPreset::ApproachToContact)); }

QString GraspActions::autoGrasp() { return run(tr("Auto-grasp %1"), presetMotion(HandMotionPreset::AutoGrasp)); }

QString GraspActions::approachAndGrasp() { return run(tr("Approach and grasp %1"), presetMotion(HandMotionPreset::ApproachAndGrasp)); }

QString GraspActions::autoOpen() { return run(tr("Auto-open %1"), presetMotion(HandMotionPreset::AutoOpen)); }

}  // namespace sg::app
