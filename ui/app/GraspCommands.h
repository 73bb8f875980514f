#pragma once
// The undoable result of a hand motion computed by the engine (approach, auto-grasp, auto-open, a
// collision-stopped DOF edit): the RobotState of every robot that moved — palm pose, DOF values and the
// break-away clutch state of each joint — set as one undo step. The engine moves a scratch WorldState;
// this command carries the robots' new states into the Document, exactly (break-away joints included,
// which DOF values alone cannot restore).
#include <QString>
#include <QUndoCommand>
#include <utility>
#include <vector>

#include "Document.h"

namespace sg::app {

class SetRobotStatesCommand : public QUndoCommand {
 public:
  static constexpr int kId = 101;  // distinct from Commands.h's CommandId values

  // Takes every robot of `after` (a state of the document's world with only robots moved) whose motion
  // state (RobotState::sameMotionState) differs from the document's. Commands of one non-zero gesture merge.
  SetRobotStatesCommand(Document* doc, const WorldState& after, const QString& text, int gesture = 0);
  // True when no robot differs: pushing it would be a no-op step.
  bool isEmpty() const { return robots_.empty(); }
  const std::vector<int>& robots() const { return robots_; }

  void undo() override;
  void redo() override;
  int id() const override { return kId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void apply(const std::vector<RobotState>& states);
  Document* doc_;
  std::vector<int> robots_;  // robot indices, increasing
  std::vector<RobotState> before_, after_;
  int gesture_;
};

}  // namespace sg::app
