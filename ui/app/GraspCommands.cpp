#include "GraspCommands.h"

#include "model/Kinematics.h"

namespace sg::app {

SetRobotStatesCommand::SetRobotStatesCommand(Document* doc, const WorldState& after, const QString& text, int gesture)
    : doc_(doc), gesture_(gesture) {
  setText(text);
  const WorldState& now = doc->world().state;
  for (std::size_t i = 0; i < now.robots.size() && i < after.robots.size(); ++i) {
    if (after.robots[i].sameMotionState(now.robots[i])) continue;
    robots_.push_back(static_cast<int>(i));
    before_.push_back(now.robots[i]);
    after_.push_back(after.robots[i]);
  }
}

void SetRobotStatesCommand::apply(const std::vector<RobotState>& states) {
  World& w = doc_->mutableWorld();
  for (std::size_t k = 0; k < robots_.size(); ++k) {
    RobotState& s = w.state.robots.at(static_cast<std::size_t>(robots_[k]));
    s = states[k];
    forwardKinematics(w.robots.at(static_cast<std::size_t>(robots_[k])), s);
  }
  w.updateConnections();
  doc_->notifyChanged(ChangeKind::Dofs);  // link poses changed (and maybe robot poses)
}

void SetRobotStatesCommand::undo() { apply(before_); }
void SetRobotStatesCommand::redo() { apply(after_); }

bool SetRobotStatesCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = static_cast<const SetRobotStatesCommand*>(other);
  if (gesture_ == 0 || o->gesture_ != gesture_ || o->robots_ != robots_) return false;
  after_ = o->after_;
  return true;
}

}  // namespace sg::app
