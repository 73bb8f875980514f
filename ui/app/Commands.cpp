#include "Commands.h"

#include <QCoreApplication>

#include "model/Kinematics.h"

namespace sg::app {

namespace {
QString label(const World& w, const BodyHandle& h) { return QString::fromStdString(w.bodyLabel(h)); }
}  // namespace

// --- SetBodyPoseCommand ---

SetBodyPoseCommand::SetBodyPoseCommand(Document* doc, BodyHandle body, const Transform& after, int gesture)
    : doc_(doc), body_(body), before_(X_WB(doc->world().state, body)), after_(after), gesture_(gesture) {
  setText(QCoreApplication::translate("Commands", "Move %1").arg(label(doc->world(), body)));
}

void SetBodyPoseCommand::apply(const Transform& pose) {
  X_WB(doc_->mutableWorld().state, body_) = pose;
  doc_->notifyChanged(ChangeKind::Poses);
}
void SetBodyPoseCommand::undo() { apply(before_); }
void SetBodyPoseCommand::redo() { apply(after_); }

bool SetBodyPoseCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = static_cast<const SetBodyPoseCommand*>(other);
  if (gesture_ == 0 || o->gesture_ != gesture_ || !(o->body_ == body_)) return false;
  after_ = o->after_;
  return true;
}

// --- SetRobotPoseCommand ---

SetRobotPoseCommand::SetRobotPoseCommand(Document* doc, int robot, const Transform& after, int gesture)
    : doc_(doc), robot_(robot), before_(doc->world().state.robots.at(robot).X_WP), after_(after), gesture_(gesture) {
  setText(QCoreApplication::translate("Commands", "Move %1")
              .arg(QString::fromStdString(doc->world().robots.at(robot).name)));
}

void SetRobotPoseCommand::apply(const Transform& pose) {
  World& w = doc_->mutableWorld();
  setRobotPose(w.robots.at(robot_), w.state.robots.at(robot_), pose);
  w.updateConnections();
  doc_->notifyChanged(ChangeKind::Poses);
}
void SetRobotPoseCommand::undo() { apply(before_); }
void SetRobotPoseCommand::redo() { apply(after_); }

bool SetRobotPoseCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = static_cast<const SetRobotPoseCommand*>(other);
  if (gesture_ == 0 || o->gesture_ != gesture_ || o->robot_ != robot_) return false;
  after_ = o->after_;
  return true;
}

// --- SetDofValuesCommand ---

SetDofValuesCommand::SetDofValuesCommand(Document* doc, int robot, std::vector<double> after, int gesture)
    : doc_(doc),
      robot_(robot),
      before_(doc->world().state.robots.at(robot).dofValues),
      after_(clampToRanges(doc->world().robots.at(robot), std::move(after))),
      gesture_(gesture) {
  setText(QCoreApplication::translate("Commands", "Move fingers of %1")
              .arg(QString::fromStdString(doc->world().robots.at(robot).name)));
}

void SetDofValuesCommand::apply(const std::vector<double>& values) {
  World& w = doc_->mutableWorld();
  setDofValues(w.robots.at(robot_), w.state.robots.at(robot_), values);
  w.updateConnections();
  doc_->notifyChanged(ChangeKind::Dofs);
}
void SetDofValuesCommand::undo() { apply(before_); }
void SetDofValuesCommand::redo() { apply(after_); }

bool SetDofValuesCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = static_cast<const SetDofValuesCommand*>(other);
  if (gesture_ == 0 || o->gesture_ != gesture_ || o->robot_ != robot_) return false;
  after_ = o->after_;
  return true;
}

// --- SetBodyPropertiesCommand ---

BodyProperties propertiesOf(const Body& body) { return {body.material, body.mass_g, body.youngs_Pa}; }

SetBodyPropertiesCommand::SetBodyPropertiesCommand(Document* doc, BodyHandle body, BodyProperties after)
    : doc_(doc),
      body_(body),
      before_(propertiesOf(doc->world().body(body))),
      after_(std::move(after)),
      sourceFileBefore_(doc->world().body(body).sourceFile) {
  setText(QCoreApplication::translate("Commands", "Edit %1").arg(label(doc->world(), body)));
}

void SetBodyPropertiesCommand::apply(const BodyProperties& p, const std::string& sourceFile) {
  Body& b = doc_->mutableWorld().body(body_);
  if (body_.kind == BodyHandle::Kind::Obstacle || body_.kind == BodyHandle::Kind::Graspable)
    b.sourceFile = sourceFile;
  b.material = p.material;
  b.mass_g = p.mass_g;
  b.youngs_Pa = p.youngs_Pa;
  doc_->notifyChanged(ChangeKind::Properties);
}
void SetBodyPropertiesCommand::undo() { apply(before_, sourceFileBefore_); }
void SetBodyPropertiesCommand::redo() { apply(after_, after_ == before_ ? sourceFileBefore_ : std::string()); }

// --- AddBodyCommand ---

AddBodyCommand::AddBodyCommand(Document* doc, Body body) : doc_(doc), body_(std::move(body)) {
  setText(QCoreApplication::translate("Commands", "Import %1").arg(QString::fromStdString(body_.name)));
}

void AddBodyCommand::redo() {
  World& w = doc_->mutableWorld();
  if (body_.kind == BodyKind::Obstacle)
    w.addObstacle(body_);
  else
    w.addGraspable(body_);
  doc_->notifyChanged(ChangeKind::Structure);
}

void AddBodyCommand::undo() {
  World& w = doc_->mutableWorld();
  // redo appended it last, and later commands were undone first
  if (body_.kind == BodyKind::Obstacle)
    w.removeLastObstacle();
  else
    w.removeLastGraspable();
  doc_->notifyChanged(ChangeKind::Structure);
}

// --- AddRobotCommand ---

AddRobotCommand::AddRobotCommand(Document* doc, Robot robot) : doc_(doc), robot_(std::move(robot)) {
  setText(QCoreApplication::translate("Commands", "Import %1").arg(QString::fromStdString(robot_.name)));
}

void AddRobotCommand::redo() {
  doc_->mutableWorld().addRobot(robot_);
  doc_->notifyChanged(ChangeKind::Structure);
}

void AddRobotCommand::undo() {
  World& w = doc_->mutableWorld();
  w.removeLastRobot();
  doc_->notifyChanged(ChangeKind::Structure);
}

}  // namespace sg::app
