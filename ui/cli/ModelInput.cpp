#include "ModelInput.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/Error.h"

namespace sg::cli {

namespace fs = std::filesystem;

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

void requireReadableFile(const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw Error("no such file", path);
  if (fs::is_directory(status)) throw Error("is a directory, not a model file", path);
  // Opening a FIFO would wait for a writer; a device would be read for ever.
  if (!fs::is_regular_file(status)) throw Error("is not a regular file (a device or a pipe)", path);
  if (!std::ifstream(path).good()) throw Error("cannot be read (permission denied?)", path);
}

LoadOptions loadOptionsFrom(const ParsedArgs& args) {
  LoadOptions options;
  for (const auto& dir : args.values("--model-root")) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw UsageError(std::string("--model-root '") + dir + "' is not a directory");
    options.modelRoots.push_back(absolutePath(dir));
  }
  if (args.has("--package-path"))
    for (const auto& dir : args.values("--package-path")) {
      std::error_code ec;
      if (!fs::is_directory(dir, ec)) throw UsageError(std::string("--package-path '") + dir + "' is not a directory");
      options.packagePaths.push_back(absolutePath(dir));
    }
  return options;
}

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

LoadedModel loadModelFile(const std::string& path, const LoadOptions& options) {
  requireReadableFile(path);
  LoadedModel model;
  model.path = absolutePath(path);
  model.kind = withFileNamed(path, [&] { return detectModelFileKind(path); });
  // An XML file whose root says nothing (or that does not parse) is read as a body XML, as GraspIt!
  // ignores a body file's root name: the body reader then reports the actual problem and its line.
  if (model.kind == ModelFileKind::Unknown && hasXmlExtension(path)) model.kind = ModelFileKind::Body;
  switch (model.kind) {
    case ModelFileKind::World:
      model.world = withFileNamed(path, [&] { return loadWorld(path, options); });
      break;
    case ModelFileKind::Robot:
      model.world.addRobot(withFileNamed(path, [&] { return loadRobot(path, model.world.materials, options); }));
      break;
    case ModelFileKind::Body:
    case ModelFileKind::Mesh:
      model.world.addGraspable(
          withFileNamed(path, [&] { return loadBody(path, BodyKind::Graspable, model.world.materials, options); }));
      break;
    case ModelFileKind::Unknown:
      throw Error("not a world, robot or body XML nor a mesh (.iv .wrl .off .ply .stl .obj)", path);
  }
  return model;
}

Robot loadRobotFile(const std::string& path, const LoadOptions& options) {
  requireReadableFile(path);
  const ModelFileKind kind = withFileNamed(path, [&] { return detectModelFileKind(path); });
  // A malformed XML goes to the robot reader too, which reports the problem and its line.
  const bool tryAsRobot = kind == ModelFileKind::Robot || (kind == ModelFileKind::Unknown && hasXmlExtension(path));
  if (!tryAsRobot) throw Error("not a robot XML (it is a " + modelFileKindName(kind) + " file)", path);
  const MaterialTable materials;
  return withFileNamed(path, [&] { return loadRobot(path, materials, options); });
}

}  // namespace sg::cli
