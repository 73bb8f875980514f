#include "Document.h"

#include "Commands.h"
#include "io/ModelIO.h"

namespace sg::app {

Document::Document(QObject* parent) : QObject(parent) {
  qRegisterMetaType<sg::app::ChangeKind>("sg::app::ChangeKind");
  connect(&undoStack_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

void Document::openWorld(const QString& path) {
  FileHistory history;
  World loaded = loadWorld(path.toStdString(), loadOptions_, &history);  // throws before anything here changes
  resetWorld(std::move(loaded), path, std::move(history));
}

void Document::resetWorld(World world, const QString& path, FileHistory history) {
  world_ = std::move(world);
  fileHistory_ = std::move(history);
  undoStack_.clear();
  undoStack_.setClean();
  selection_.reset();
  if (filePath_ != path) {
    filePath_ = path;
    emit filePathChanged(filePath_);
  }
  emit worldReplaced();
  emit worldChanged(ChangeKind::Structure);
  emit selectionChanged();
  emit modifiedChanged(false);
}

void Document::saveWorld(const QString& path, const std::optional<Camera>& camera) {
  World toWrite = world_;  // cheap: meshes are shared
  if (camera) toWrite.camera = camera;
  sg::saveWorld(toWrite, path.toStdString(), &fileHistory_);  // throws before anything here changes
  if (camera) world_.camera = camera;
  world_.sourceFile = path.toStdString();
  undoStack_.setClean();
  if (filePath_ != path) {
    filePath_ = path;
    emit filePathChanged(filePath_);
  }
}

void Document::importRobot(const QString& path) {
  Robot robot = loadRobot(path.toStdString(), world_.materials, loadOptions_);
  push(new AddRobotCommand(this, std::move(robot)));
}

void Document::importObject(const QString& path, BodyKind kind) {
  Body body = loadBody(path.toStdString(), kind, world_.materials, loadOptions_);
  body.kind = kind;
  push(new AddBodyCommand(this, std::move(body)));
}

void Document::setSelection(const std::optional<BodyHandle>& handle) {
  std::optional<BodyHandle> valid = handle && world_.isValid(*handle) ? handle : std::nullopt;
  if (valid == selection_) return;
  selection_ = valid;
  emit selectionChanged();
}

void Document::notifyChanged(ChangeKind kind) {
  if (kind == ChangeKind::Structure && selection_ && !world_.isValid(*selection_)) {
    selection_.reset();
    emit worldChanged(kind);
    emit selectionChanged();
    return;
  }
  emit worldChanged(kind);
}

int robotIndexOf(const std::optional<BodyHandle>& handle) {
  return handle && handle->kind == BodyHandle::Kind::Robot ? handle->index : -1;
}

bool isMovable(const std::optional<BodyHandle>& handle) {
  return handle && handle->kind != BodyHandle::Kind::Mount;
}

Transform movablePose(const World& world, const BodyHandle& handle) {
  if (handle.kind == BodyHandle::Kind::Robot) return world.state.robots.at(handle.index).X_WP;
  return X_WB(world.state, handle);
}

}  // namespace sg::app
