#pragma once
// Resolves file names written inside model files (FORMATS.md §Paths): relative to the file that names them,
// then against the GraspIt! root a world file implies (worlds live in ROOT/worlds and name files as
// models/...; ROOT is found by walking up from the world file), then against user-set model roots.
// No environment variable is needed.
#include <optional>
#include <string>
#include <vector>

namespace sg {

struct LoadOptions {
  std::vector<std::string> modelRoots;  // extra roots searched last (settable by the user)
  // Where URDF package://NAME/... URIs are looked for (FORMATS.md §URDF paths), before ROS_PACKAGE_PATH.
  std::vector<std::string> packagePaths;
  bool useRosPackagePath = true;        // also search the directories in the ROS_PACKAGE_PATH variable
};

class PathResolver {
 public:
  explicit PathResolver(LoadOptions options = {}) : options_(std::move(options)) {}

  // Candidates tried in order: baseDir/name, then name under every ancestor of baseDir (the implied
  // GraspIt! root), then every model root. Absolute names are used as they are. nullopt if none exists.
  std::optional<std::string> resolve(const std::string& name, const std::string& baseDir) const;
  // As resolve(), but throws sg::Error naming `referencingFile`, `line` and every place tried.
  std::string require(const std::string& name, const std::string& baseDir, const std::string& referencingFile,
                      int line = 0) const;

  const LoadOptions& options() const { return options_; }

 private:
  LoadOptions options_;
};

std::string directoryOf(const std::string& path);
std::string absolutePath(const std::string& path);
std::string fileStem(const std::string& path);
// `path` written relative to `baseDir` when it is below it, otherwise absolute.
std::string relativePath(const std::string& path, const std::string& baseDir);

}  // namespace sg
