#pragma once
// The undoable result of a hand motion computed by the engine (approach, auto-grasp, auto-open, a
// collision-stopped DOF edit): the motion state of every robot that moved — pose, DOF values and the
// break-away clutch state of each joint — set as one undo step. The engine runs on a scratch copy of the
// world; this command carries the robots' new state into the Document, exactly (break-away joints
// included, which DOF values alone cannot restore).
#include <QString>
#include <QUndoCommand>
#include <utility>
#include <vector>

#include "Document.h"

namespace sg::app {

// The part of a robot a motion changes.
struct RobotMotionState {
  Transform pose;
  std::vector<double> dofValues;                                // rad or mm
  std::vector<std::vector<std::pair<bool, double>>> breakAway;  // per chain, per joint: in break-away, its DOF value
  bool operator==(const RobotMotionState& other) const;
};
RobotMotionState motionStateOf(const Robot& robot);
// Sets pose, break-away states and DOF values, and updates the link poses.
void applyMotionState(Robot& robot, const RobotMotionState& state);

class SetRobotStatesCommand : public QUndoCommand {
 public:
  static constexpr int kId = 101;  // distinct from Commands.h's CommandId values

  // Takes every robot of `after` (a copy of the document's world with only robots moved) whose motion
  // state differs from the document's. Commands of one non-zero gesture merge.
  SetRobotStatesCommand(Document* doc, const World& after, const QString& text, int gesture = 0);
  // True when no robot differs: pushing it would be a no-op step.
  bool isEmpty() const { return robots_.empty(); }
  const std::vector<int>& robots() const { return robots_; }

  void undo() override;
  void redo() override;
  int id() const override { return kId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void apply(const std::vector<RobotMotionState>& states);
  Document* doc_;
  std::vector<int> robots_;  // robot indices, increasing
  std::vector<RobotMotionState> before_, after_;
  int gesture_;
};

}  // namespace sg::app
