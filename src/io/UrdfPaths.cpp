#include "io/UrdfPaths.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "core/Error.h"

namespace sg::urdfio {

namespace fs = std::filesystem;

namespace {

bool isFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::vector<std::string> splitPathList(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find(':', start);
    const std::string item = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!item.empty()) out.push_back(item);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

std::vector<std::string> packageCandidates(const std::string& packageName, const std::string& rest,
                                           const std::string& urdfDir, const LoadOptions& options) {
  std::vector<std::string> dirs = options.packagePaths;
  if (options.useRosPackagePath)
    if (const char* env = std::getenv("ROS_PACKAGE_PATH"))
      for (auto& d : splitPathList(env)) dirs.push_back(d);
  // The URDF inside its own package (pkg/urdf/hand.urdf naming package://pkg/meshes/...).
  for (fs::path dir = fs::path(absolutePath(urdfDir)); !dir.empty(); dir = dir.parent_path()) {
    dirs.push_back(dir.string());
    if (dir == dir.root_path()) break;
  }
  std::vector<std::string> out;
  for (const auto& d : dirs) {
    const fs::path dir(absolutePath(d));
    if (dir.filename() == packageName) out.push_back((dir / rest).lexically_normal().string());
    out.push_back((dir / packageName / rest).lexically_normal().string());
  }
  return out;
}

std::string resolveUri(const std::string& uri, const std::string& urdfFile, const std::string& what,
                       const LoadOptions& options) {
  const std::string urdfDir = directoryOf(urdfFile);
  std::vector<std::string> tried;
  if (startsWith(uri, "package://")) {
    const std::string body = uri.substr(10);
    const std::size_t slash = body.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == body.size())
      throw Error(what + ": URI '" + uri + "' is not package://PACKAGE/PATH", urdfFile);
    tried = packageCandidates(body.substr(0, slash), body.substr(slash + 1), urdfDir, options);
  } else if (startsWith(uri, "file://")) {
    const std::string p = uri.substr(7);  // file:///abs/path -> /abs/path; file://rel is taken as relative
    tried.push_back(fs::path(p).is_absolute() ? fs::path(p).lexically_normal().string()
                                              : (fs::path(urdfDir) / p).lexically_normal().string());
  } else if (uri.find("://") != std::string::npos) {
    throw Error(what + ": URI scheme of '" + uri + "' is not supported (package://, file:// or a path)", urdfFile);
  } else {
    tried.push_back(fs::path(uri).is_absolute() ? fs::path(uri).lexically_normal().string()
                                                : (fs::path(urdfDir) / uri).lexically_normal().string());
  }
  for (const auto& c : tried)
    if (isFile(c)) return c;
  std::string list;
  for (const auto& c : tried) list += "\n  " + c;
  throw Error(what + ": '" + uri + "' not found; tried:" + list, urdfFile);
}

}  // namespace sg::urdfio
