#include "io/LoadedFiles.h"

#include <algorithm>
#include <filesystem>

namespace sg {
namespace {
thread_local LoadedFilesScope* innermost = nullptr;
}

LoadedFilesScope::LoadedFilesScope() : outer_(innermost) { innermost = this; }
LoadedFilesScope::~LoadedFilesScope() { innermost = outer_; }

void noteLoadedFile(const std::string& path) {
  if (!innermost) return;
  std::error_code ec;
  std::string absolute = std::filesystem::absolute(path, ec).lexically_normal().string();
  if (ec) absolute = path;
  for (LoadedFilesScope* s = innermost; s; s = s->outer_)
    if (std::find(s->files_.begin(), s->files_.end(), absolute) == s->files_.end()) s->files_.push_back(absolute);
}

}  // namespace sg
