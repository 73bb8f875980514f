#pragma once
// The open world, its file path, its undo stack and the current selection. The single place the model is
// edited: every change arrives as a QUndoCommand (Commands.h) pushed here, and every change is announced
// through worldChanged so views (scene, docks) refresh from the model — never the other way round.
#include <QObject>
#include <QString>
#include <QUndoStack>
#include <optional>

#include "io/PathResolver.h"
#include "io/FileHistory.h"
#include "model/World.h"

namespace sg::app {

// What changed, so views can do the least work: poses only, DOF values (hence link poses), body properties,
// or the structure (bodies added, removed, world replaced).
enum class ChangeKind { Poses, Dofs, Properties, Structure };

class Document : public QObject {
  Q_OBJECT
 public:
  explicit Document(QObject* parent = nullptr);

  const World& world() const { return world_; }
  const QString& filePath() const { return filePath_; }
  bool isModified() const { return !undoStack_.isClean(); }
  QUndoStack* undoStack() { return &undoStack_; }

  // Extra model roots searched when files named inside model files are not found next to them.
  void setLoadOptions(LoadOptions options) { loadOptions_ = std::move(options); }
  const LoadOptions& loadOptions() const { return loadOptions_; }

  // Loads into a new World first and swaps only on success; throws sg::Error (this document untouched).
  void openWorld(const QString& path);
  // Replaces the world (undo history cleared, unmodified). `history`: the file names as its file wrote them.
  void resetWorld(World world, const QString& path = {}, FileHistory history = {});
  // Writes the world atomically and marks the document clean; throws sg::Error. `camera` (the current
  // view, not an undoable edit) is stored in the world and written with it when given. Files are named as
  // the opened world named them (its FileHistory) where those names still fit the new location.
  void saveWorld(const QString& path, const std::optional<Camera>& camera = std::nullopt);
  // Imports through undoable commands; throw sg::Error with the world untouched.
  void importRobot(const QString& path);
  void importObject(const QString& path, BodyKind kind = BodyKind::Graspable);

  // Pushes a command (ownership taken). All edits go through here.
  void push(QUndoCommand* command) { undoStack_.push(command); }

  // Selection (not part of the model, not undoable).
  const std::optional<BodyHandle>& selection() const { return selection_; }
  void setSelection(const std::optional<BodyHandle>& handle);

  // For commands only: the world to edit, and the announcement that follows every edit.
  World& mutableWorld() { return world_; }
  void notifyChanged(ChangeKind kind);

  // A fresh id shared by the commands of one continuous gesture (slider drag, dragger drag) so the undo
  // stack merges them into one step. 0 means "never merge".
  int beginGesture() { return ++lastGesture_; }

 signals:
  void worldChanged(sg::app::ChangeKind kind);
  // A different world replaced the open one (open, new): emitted just before worldChanged(Structure), so
  // per-world state of other objects (collision switches naming its bodies) can be dropped.
  void worldReplaced();
  void selectionChanged();
  void filePathChanged(const QString& path);
  void modifiedChanged(bool modified);

 private:
  World world_;
  FileHistory fileHistory_;  // names as the opened world's files wrote them (io's record, for saving)
  LoadOptions loadOptions_;
  QString filePath_;
  QUndoStack undoStack_;
  std::optional<BodyHandle> selection_;
  int lastGesture_ = 0;
};

// The robot a handle belongs to, or -1.
int robotIndexOf(const std::optional<BodyHandle>& handle);
// True for a body the user can move (an obstacle, a graspable, or a robot body — which moves its robot).
bool isMovable(const std::optional<BodyHandle>& handle);
// The pose a move of `handle` edits: the robot pose for robot bodies, the body pose otherwise.
Transform movablePose(const World& world, const BodyHandle& handle);

}  // namespace sg::app
