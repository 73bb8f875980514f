#pragma once
// The undoable edits of a Document. Each stores the values before and after, so undo/redo are exact.
// Commands that belong to one gesture (same non-zero gesture id, see Document::beginGesture) merge into
// a single undo step.
#include <QUndoCommand>
#include <optional>
#include <string>
#include <vector>

#include "Document.h"

namespace sg::app {

enum CommandId { kSetBodyPoseId = 1, kSetRobotPoseId, kSetDofValuesId };

// Moves an obstacle or a graspable body (world frame, mm).
class SetBodyPoseCommand : public QUndoCommand {
 public:
  SetBodyPoseCommand(Document* doc, BodyHandle body, const Transform& after, int gesture = 0);
  void undo() override;
  void redo() override;
  int id() const override { return kSetBodyPoseId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void apply(const Transform& pose);
  Document* doc_;
  BodyHandle body_;
  Transform before_, after_;
  int gesture_;
};

// Moves a robot (palm pose, world frame); links follow, and robots mounted on it.
class SetRobotPoseCommand : public QUndoCommand {
 public:
  SetRobotPoseCommand(Document* doc, int robot, const Transform& after, int gesture = 0);
  void undo() override;
  void redo() override;
  int id() const override { return kSetRobotPoseId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void apply(const Transform& pose);
  Document* doc_;
  int robot_;
  Transform before_, after_;
  int gesture_;
};

// Sets all DOF values of a robot (rad / mm, clamped to the ranges).
class SetDofValuesCommand : public QUndoCommand {
 public:
  SetDofValuesCommand(Document* doc, int robot, std::vector<double> after, int gesture = 0);
  void undo() override;
  void redo() override;
  int id() const override { return kSetDofValuesId; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void apply(const std::vector<double>& values);
  Document* doc_;
  int robot_;
  std::vector<double> before_, after_;
  int gesture_;
};

// The user-editable physical properties of a body.
struct BodyProperties {
  std::string material;
  double mass_g = 0;
  std::optional<double> youngs_Pa;  // absent: rigid
  bool operator==(const BodyProperties&) const = default;
};
BodyProperties propertiesOf(const Body& body);

// Edits material, mass and Young's modulus. An obstacle or graspable read from a body XML is then saved
// inline in the world (its body file is not rewritten), so the edit survives a save; undo restores the
// file reference.
class SetBodyPropertiesCommand : public QUndoCommand {
 public:
  SetBodyPropertiesCommand(Document* doc, BodyHandle body, BodyProperties after);
  void undo() override;
  void redo() override;

 private:
  void apply(const BodyProperties& p, const std::string& sourceFile);
  Document* doc_;
  BodyHandle body_;
  BodyProperties before_, after_;
  std::string sourceFileBefore_;
};

// Appends an obstacle or graspable (imported object); undo removes it again.
class AddBodyCommand : public QUndoCommand {
 public:
  AddBodyCommand(Document* doc, Body body);
  void undo() override;
  void redo() override;

 private:
  Document* doc_;
  Body body_;
};

// Appends a robot (imported robot); undo removes it again.
class AddRobotCommand : public QUndoCommand {
 public:
  AddRobotCommand(Document* doc, Robot robot);
  void undo() override;
  void redo() override;

 private:
  Document* doc_;
  Robot robot_;
};

}  // namespace sg::app
