#include "io/InputFile.h"

#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/Error.h"
#include "io/DataDirectory.h"
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

std::string inputFileKindName(InputFileKind kind) {
  switch (kind) {
    case InputFileKind::World: return "world";
    case InputFileKind::Robot: return "robot";
    case InputFileKind::Body: return "body";
    case InputFileKind::Mesh: return "mesh";
    case InputFileKind::Unknown: break;
  }
  return "unknown";
}

void requireReadableInputFile(const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) throw Error("no such file", path);
  if (fs::is_directory(status)) throw Error("is a directory, not a model file", path);
  // Opening a FIFO would wait for a writer; a device would be read for ever.
  if (!fs::is_regular_file(status)) throw Error("is not a regular file (a device or a pipe)", path);
  if (!std::ifstream(path).good()) throw Error("cannot be read (permission denied?)", path);
}

InputFileKind classifyInputFile(const std::string& path) {
  requireReadableInputFile(path);
  const InputFileKind kind = withFileNamed(path, [&] { return detectInputFileKind(path); });
  if (kind != InputFileKind::Unknown) return kind;
  if (hasXmlExtension(path)) return InputFileKind::Body;  // the body reader reports the actual problem
  throw Error("not a world, robot or body XML nor a mesh (.iv .wrl .off .ply .stl .obj)", path);
}

InputFile loadInputFile(const std::string& typedPath, const LoadOptions& options) {
  const std::string path = resolveUserFile(typedPath);  // the working directory first, then the data directories
  InputFile model;
  model.kind = classifyInputFile(path);
  model.path = absolutePath(path);
  switch (model.kind) {
    case InputFileKind::World:
      model.world = withFileNamed(path, [&] { return loadWorld(path, options); });
      break;
    case InputFileKind::Robot:
      model.world.addRobot(withFileNamed(path, [&] { return loadRobot(path, model.world.materials, options); }));
      break;
    case InputFileKind::Body:
    case InputFileKind::Mesh:
    case InputFileKind::Unknown:  // not returned by classifyInputFile
      model.world.addGraspable(
          withFileNamed(path, [&] { return loadBody(path, BodyKind::Graspable, model.world.materials, options); }));
      break;
  }
  return model;
}

}  // namespace sg
