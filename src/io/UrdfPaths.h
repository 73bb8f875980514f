#pragma once
// Resolving the file names a URDF writes (FORMATS.md §URDF paths): package://NAME/rest through the package
// search path, file:///abs/path, and plain names relative to the URDF's directory.
#include <string>
#include <vector>

#include "io/PathResolver.h"

namespace sg::urdfio {

// Directories searched for package://NAME/...: each --package-path DIR, then each ROS_PACKAGE_PATH entry (when
// options.useRosPackagePath), then every ancestor of the URDF's directory. In each DIR, DIR/NAME is the package,
// or DIR itself when its name is NAME.
std::vector<std::string> packageCandidates(const std::string& packageName, const std::string& rest,
                                           const std::string& urdfDir, const LoadOptions& options);

// The absolute path of `uri`, or sg::Error naming `urdfFile`, `what` (e.g. "mesh of link 'tip'"), the URI and
// every place tried.
std::string resolveUri(const std::string& uri, const std::string& urdfFile, const std::string& what,
                       const LoadOptions& options);

}  // namespace sg::urdfio
