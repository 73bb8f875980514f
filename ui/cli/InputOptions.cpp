#include "InputOptions.h"

#include <filesystem>
#include <fstream>

#include "core/Error.h"
#include "io/DataDirectory.h"

namespace sg::cli {

namespace fs = std::filesystem;

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

Robot loadRobotFile(const std::string& typedPath, const LoadOptions& options) {
  const std::string path = resolveUserFile(typedPath);  // as loadInputFile: the working directory, then the data
  const InputFileKind kind = classifyInputFile(path);
  // A malformed XML (classified as a body) goes to the robot reader too, which reports the problem and its line.
  const bool tryAsRobot = kind == InputFileKind::Robot || (kind == InputFileKind::Body && detectInputFileKind(path) ==
                                                                                            InputFileKind::Unknown);
  if (!tryAsRobot) throw Error("not a robot XML (it is a " + inputFileKindName(kind) + " file)", path);
  const MaterialTable materials;
  try {
    return loadRobot(path, materials, options);
  } catch (const Error& e) {
    throw e.withFile(path);
  }
}

}  // namespace sg::cli
