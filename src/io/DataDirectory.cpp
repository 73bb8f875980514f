#include "io/DataDirectory.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

// Set on this file only by src/io/CMakeLists.txt: the data directory relative to the binaries' directory
// (GNUInstallDirs: "../share/softgrasp"), and the build and source trees an uninstalled binary uses.
#ifndef SG_DATA_DIR_FROM_BIN
#error "SG_DATA_DIR_FROM_BIN must be defined (src/io/CMakeLists.txt)"
#endif

namespace sg {

namespace fs = std::filesystem;

namespace {

bool isDirectory(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

bool pathExists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// `inner` is `outer` or below it (both made canonical as far as they exist).
bool isWithin(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(inner, ec);
  const fs::path b = fs::weakly_canonical(outer, ec);
  auto ai = a.begin();
  for (auto bi = b.begin(); bi != b.end(); ++bi, ++ai) {
    if (bi->empty()) continue;  // a trailing separator
    if (ai == a.end() || *ai != *bi) return false;
  }
  return true;
}

fs::path executablePath() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);  // Linux: the running binary, symlinks resolved
  return ec ? fs::path() : self;
}

}  // namespace

std::vector<std::string> dataDirectories() {
  std::vector<std::string> dirs;
  const auto add = [&dirs](const fs::path& p) {
    if (!p.empty() && isDirectory(p)) dirs.push_back(p.lexically_normal().string());
  };
  if (const char* env = std::getenv("SOFTGRASP_DATA_DIR"); env && *env) add(env);
  const fs::path exe = executablePath();
  if (!exe.empty()) {
    add(exe.parent_path() / SG_DATA_DIR_FROM_BIN);
#if defined(SG_BUILD_TREE) && defined(SG_SOURCE_TREE)
    if (isWithin(exe, SG_BUILD_TREE)) {
      add(SG_SOURCE_TREE);
      add(SG_BUILD_TREE);
    }
#endif
  }
  return dirs;
}

std::optional<std::string> findDataFile(const std::string& relative, const std::vector<std::string>& dataDirs) {
  if (relative.empty() || fs::path(relative).is_absolute()) return std::nullopt;
  for (const std::string& dir : dataDirs) {
    const fs::path candidate = fs::path(dir) / relative;
    if (pathExists(candidate)) return candidate.lexically_normal().string();
  }
  return std::nullopt;
}

std::optional<std::string> findDataFile(const std::string& relative) {
  return findDataFile(relative, dataDirectories());
}

std::string resolveUserFile(const std::string& name, const std::vector<std::string>& dataDirs) {
  if (name.empty() || fs::path(name).is_absolute() || pathExists(name)) return name;
  return findDataFile(name, dataDirs).value_or(name);
}

std::string resolveUserFile(const std::string& name) {
  if (name.empty() || fs::path(name).is_absolute() || pathExists(name)) return name;  // no directory scan needed
  return resolveUserFile(name, dataDirectories());
}

}  // namespace sg
