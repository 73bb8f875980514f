#include "io/PathResolver.h"

#include <filesystem>
#include <system_error>

#include "core/Error.h"

namespace sg {

namespace fs = std::filesystem;

namespace {

bool isExistingFile(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

std::string normalized(const fs::path& p) { return p.lexically_normal().string(); }

// Every place resolve() looks, in order.
std::vector<fs::path> candidates(const std::string& name, const std::string& baseDir,
                                 const std::vector<std::string>& modelRoots) {
  const fs::path n(name);
  if (n.is_absolute()) return {n};
  std::vector<fs::path> out;
  const fs::path base = fs::path(absolutePath(baseDir.empty() ? "." : baseDir));
  out.push_back(base / n);
  // Ancestors of the base directory: a GraspIt! world in ROOT/worlds names files as models/...
  for (fs::path dir = base.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    out.push_back(dir / n);
    if (dir == dir.root_path()) break;
  }
  for (const auto& root : modelRoots)
    if (!root.empty()) out.push_back(fs::path(absolutePath(root)) / n);
  return out;
}

}  // namespace

std::optional<std::string> PathResolver::resolve(const std::string& name, const std::string& baseDir) const {
  if (name.empty()) return std::nullopt;
  for (const auto& c : candidates(name, baseDir, options_.modelRoots))
    if (isExistingFile(c)) return normalized(c);
  return std::nullopt;
}

std::string PathResolver::require(const std::string& name, const std::string& baseDir,
                                  const std::string& referencingFile, int line) const {
  if (name.empty()) throw Error("empty file name", referencingFile, line);
  if (auto found = resolve(name, baseDir)) return *found;
  std::string tried;
  for (const auto& c : candidates(name, baseDir, options_.modelRoots)) tried += "\n  " + normalized(c);
  throw Error("file '" + name + "' not found; tried:" + tried, referencingFile, line);
}

std::string directoryOf(const std::string& path) {
  const fs::path p = fs::path(absolutePath(path)).parent_path();
  return p.string();
}

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path.empty() ? "." : path), ec);
  if (ec) p = fs::path(path);
  p = p.lexically_normal();
  if (p.filename().empty() && p != p.root_path()) p = p.parent_path();  // drop a trailing separator
  return p.string();
}

std::string fileStem(const std::string& path) { return fs::path(path).stem().string(); }

std::string relativePath(const std::string& path, const std::string& baseDir) {
  const fs::path p(absolutePath(path));
  const fs::path base(absolutePath(baseDir));
  const fs::path rel = p.lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") return p.string();
  return rel.string();
}

}  // namespace sg
