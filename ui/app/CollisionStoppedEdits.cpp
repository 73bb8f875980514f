#include "CollisionStoppedEdits.h"

#include "Commands.h"
#include "Document.h"
#include "GraspAnalysis.h"
#include "GraspCommands.h"
#include "grasp/MotionDof.h"

namespace sg::app {

CollisionStoppedEdits::CollisionStoppedEdits(Document* doc, GraspAnalysis* analysis)
    : QObject(doc), doc_(doc), analysis_(analysis) {
  setObjectName("CollisionStoppedEdits");
}

CollisionStoppedEdits* CollisionStoppedEdits::of(const Document* doc) {
  return doc ? doc->findChild<CollisionStoppedEdits*>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void CollisionStoppedEdits::setEnabled(bool on) {
  if (on == enabled_) return;
  enabled_ = on;
  emit enabledChanged(on);
}

MotionSettings CollisionStoppedEdits::motionSettings() const {
  MotionSettings s;
  if (analysis_) s.collision = analysis_->settings().collision;
  return s;
}

QString CollisionStoppedEdits::describe(MotionOutcome outcome) {
  switch (outcome) {
    case MotionOutcome::Reached: return tr("Reached the target");
    case MotionOutcome::Contact: return tr("Collision Checking: stopped at contact, at the last collision-free pose along the way");
    case MotionOutcome::Blocked: return tr("Collision Checking: blocked, contacts oppose the motion (nothing moved)");
    case MotionOutcome::StartInCollision: return tr("Already in collision: moved without collision checking");
  }
  return {};
}

void CollisionStoppedEdits::report(MotionOutcome outcome) {
  if (outcome != MotionOutcome::Reached) emit motionStopped(describe(outcome));
}

MotionOutcome CollisionStoppedEdits::moveRobot(int robot, const Transform& target, int gesture) {
  requireRobot(doc_->world(), robot);
  auto pushUnchecked = [&] { doc_->push(new SetRobotPoseCommand(doc_, robot, target, gesture)); };
  if (!enabled_) {
    pushUnchecked();
    return MotionOutcome::Reached;
  }
  WorldState scratch = doc_->world().state;  // the motion moves a copy of the state, not of the world
  const MotionResult r = moveRobotTo(doc_->world(), scratch, robot, target, motionSettings());
  if (r.outcome == MotionOutcome::StartInCollision)
    pushUnchecked();
  else if (r.outcome != MotionOutcome::Blocked)
    doc_->push(new SetRobotPoseCommand(doc_, robot, scratch.robots[robot].X_WP, gesture));
  report(r.outcome);
  return r.outcome;
}

MotionOutcome CollisionStoppedEdits::moveBody(const BodyHandle& body, const Transform& target, int gesture) {
  doc_->world().body(body);  // sg::Error for a bad handle
  auto pushUnchecked = [&] { doc_->push(new SetBodyPoseCommand(doc_, body, target, gesture)); };
  if (!enabled_) {
    pushUnchecked();
    return MotionOutcome::Reached;
  }
  WorldState scratch = doc_->world().state;
  const MotionResult r = moveBodyTo(doc_->world(), scratch, body, target, motionSettings());
  if (r.outcome == MotionOutcome::StartInCollision)
    pushUnchecked();
  else if (r.outcome != MotionOutcome::Blocked)
    doc_->push(new SetBodyPoseCommand(doc_, body, X_WB(scratch, body), gesture));
  report(r.outcome);
  return r.outcome;
}

MotionOutcome CollisionStoppedEdits::setDofValues(int robot, const std::vector<double>& target, int gesture) {
  requireRobot(doc_->world(), robot);
  auto pushUnchecked = [&] { doc_->push(new SetDofValuesCommand(doc_, robot, target, gesture)); };
  if (!enabled_) {
    pushUnchecked();
    return MotionOutcome::Reached;
  }
  WorldState scratch = doc_->world().state;
  DofMotionSettings settings;
  settings.motion = motionSettings();
  const DofMotionResult r = moveDofsToContacts(doc_->world(), scratch, robot, target, settings);
  if (r.outcome == MotionOutcome::StartInCollision) {
    pushUnchecked();
  } else {
    auto* command = new SetRobotStatesCommand(
        doc_, scratch, tr("Move fingers of %1").arg(QString::fromStdString(doc_->world().robots[robot].name)), gesture);
    if (command->isEmpty())
      delete command;  // stopped where it stood: no undo step
    else
      doc_->push(command);
  }
  // A DOF motion that moved nothing because of contacts is "blocked", as a pose motion would be.
  MotionOutcome outcome = r.outcome;
  if (outcome == MotionOutcome::Contact && r.iterations == 0) outcome = MotionOutcome::Blocked;
  report(outcome);
  return outcome;
}

}  // namespace sg::app
