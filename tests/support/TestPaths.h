#pragma once
// Where the suites find the source tree, the build tree and the built softgrasp-cli. The values are defined in
// one source that CMake generates (build/tests/sg_test_paths.cpp, tests/CMakeLists.txt), not as -D defines on
// every suite: the suites' objects then hold no absolute path, and a compiler cache reuses them in another
// checkout (tests/BUILD_TIME.md §Paths at run time).
#include <QString>

#include <string>
#include <string_view>

namespace sg::test {

const char* sourceDir();  // the source tree (the checkout), absolute, no trailing slash
const char* binaryDir();  // the build tree
const char* cliPath();    // the built softgrasp-cli

// sourceDir() + "/" + relative ("worlds/default.xml"), and the same in the build tree.
inline std::string inSourceTree(std::string_view relative) {
  return std::string(sourceDir()) + "/" + std::string(relative);
}
inline std::string inBuildTree(std::string_view relative) {
  return std::string(binaryDir()) + "/" + std::string(relative);
}

inline QString qSourceDir() { return QString::fromUtf8(sourceDir()); }
inline QString qBinaryDir() { return QString::fromUtf8(binaryDir()); }
inline QString qCliPath() { return QString::fromUtf8(cliPath()); }
inline QString qInSourceTree(std::string_view relative) { return QString::fromStdString(inSourceTree(relative)); }
inline QString qInBuildTree(std::string_view relative) { return QString::fromStdString(inBuildTree(relative)); }

}  // namespace sg::test
