#pragma once
// Sets or unsets SOFTGRASP_CACHE_DIR (src/sim/README.md §Decomposition cache) for a scope and restores it after:
// a test whose subject is the decomposition itself runs HACD with `ScopedCacheDir none("")`, whatever directory
// ctest gave the suite (tests/CMakeLists.txt).
#include <cstdlib>
#include <optional>
#include <string>

namespace sg::test {

class ScopedCacheDir {
 public:
  explicit ScopedCacheDir(const std::string& dir) {
    if (const char* old = std::getenv(kName)) old_ = old;
    if (dir.empty())
      unsetenv(kName);
    else
      setenv(kName, dir.c_str(), 1);
  }
  ~ScopedCacheDir() {
    if (old_)
      setenv(kName, old_->c_str(), 1);
    else
      unsetenv(kName);
  }
  ScopedCacheDir(const ScopedCacheDir&) = delete;
  ScopedCacheDir& operator=(const ScopedCacheDir&) = delete;

 private:
  static constexpr const char* kName = "SOFTGRASP_CACHE_DIR";
  std::optional<std::string> old_;
};

}  // namespace sg::test
