#include "GraspCommands.h"

#include "model/Kinematics.h"

namespace sg::app {

bool RobotMotionState::operator==(const RobotMotionState& other) const {
  return pose.rotation().coeffs() == other.pose.rotation().coeffs() &&
         pose.translation() == other.pose.translation() && dofValues == other.dofValues &&
         breakAway == other.breakAway;
}

RobotMotionState motionStateOf(const Robot& robot) {
  RobotMotionState s;
  s.pose = robot.pose;
  s.dofValues = dofValues(robot);
  for (const Chain& chain : robot.chains) {
    auto& joints = s.breakAway.emplace_back();
    for (const Joint& j : chain.joints) joints.emplace_back(j.inBreakAway, j.breakAwayDofValue);
  }
  return s;
}

void applyMotionState(Robot& robot, const RobotMotionState& state) {
  for (std::size_t c = 0; c < robot.chains.size() && c < state.breakAway.size(); ++c)
    for (std::size_t j = 0; j < robot.chains[c].joints.size() && j < state.breakAway[c].size(); ++j) {
      Joint& joint = robot.chains[c].joints[j];
      joint.inBreakAway = state.breakAway[c][j].first;
      joint.breakAwayDofValue = state.breakAway[c][j].second;
    }
  robot.pose = state.pose;
  setDofValues(robot, state.dofValues);  // updates the palm and link poses from the new pose too
}

SetRobotStatesCommand::SetRobotStatesCommand(Document* doc, const World& after, const QString& text, int gesture)
    : doc_(doc), gesture_(gesture) {
  setText(text);
  const World& now = doc->world();
  for (std::size_t i = 0; i < now.robots.size() && i < after.robots.size(); ++i) {
    RobotMotionState b = motionStateOf(now.robots[i]), a = motionStateOf(after.robots[i]);
    if (a == b) continue;
    robots_.push_back(static_cast<int>(i));
    before_.push_back(std::move(b));
    after_.push_back(std::move(a));
  }
}

void SetRobotStatesCommand::apply(const std::vector<RobotMotionState>& states) {
  World& w = doc_->mutableWorld();
  for (std::size_t k = 0; k < robots_.size(); ++k) applyMotionState(w.robots.at(robots_[k]), states[k]);
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
