#include "io/ModelFile.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/Error.h"
#include "io/PathResolver.h"

namespace sg {

namespace fs = std::filesystem;

namespace {

bool hasXmlExtension(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".xml";
}

// Names `path` in errors that come without a file (e.g. from a mesh finalize deep in a loader).
template <typename Load>
auto withFileNamed(const std::string& path, Load load) {
  try {
    return load();
  } catch (const Error& e) {
    throw e.withFile(path);
  }
}

}  // namespace

std::string modelFileKindName(ModelFileKind kind) {
  switch (kind) {
    case ModelFileKind::World: return "world";
    case ModelFileKind::Robot: return "robot";
    case ModelFileKind::Body: return "body";
    case ModelFileKind::Mesh: return "mesh";
    case ModelFileKind::Unknown: break;
  }
  return "unknown";
}

void requireReadableModelFile(const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw Error("no such file", path);
  if (fs::is_directory(status)) throw Error("is a directory, not a model file", path);
  // Opening a FIFO would wait for a writer; a device would be read for ever.
  if (!fs::is_regular_file(status)) throw Error("is not a regular file (a device or a pipe)", path);
  if (!std::ifstream(path).good()) throw Error("cannot be read (permission denied?)", path);
}

ModelFileKind classifyModelFile(const std::string& path) {
  requireReadableModelFile(path);
  const ModelFileKind kind = withFileNamed(path, [&] { return detectModelFileKind(path); });
  if (kind != ModelFileKind::Unknown) return kind;
  if (hasXmlExtension(path)) return ModelFileKind::Body;  // the body reader reports the actual problem
  throw Error("not a world, robot or body XML nor a mesh (.iv .wrl .off .ply .stl .obj)", path);
}

ModelFile loadModelFile(const std::string& path, const LoadOptions& options) {
  ModelFile model;
  model.kind = classifyModelFile(path);
  model.path = absolutePath(path);
  switch (model.kind) {
    case ModelFileKind::World:
      model.world = withFileNamed(path, [&] { return loadWorld(path, options); });
      break;
    case ModelFileKind::Robot:
      model.world.addRobot(withFileNamed(path, [&] { return loadRobot(path, model.world.materials, options); }));
      break;
    case ModelFileKind::Body:
    case ModelFileKind::Mesh:
    case ModelFileKind::Unknown:  // not returned by classifyModelFile
      model.world.addGraspable(
          withFileNamed(path, [&] { return loadBody(path, BodyKind::Graspable, model.world.materials, options); }));
      break;
  }
  return model;
}

}  // namespace sg
