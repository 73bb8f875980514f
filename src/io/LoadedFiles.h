#pragma once
// Which files a load read (src/store/README.md §Tables: robots and objects are identified by the hashes of
// every file they load). While a LoadedFilesScope lives, every file the readers of this thread open — XML
// (worlds, bodies, robots, eigengrasps, virtual contacts, URDF and its sidecar), meshes, Inventor files and the
// files they include — is added to it (and to the scopes it is nested in), once, in the order first opened.
// Texture images are not recorded: they change the look, not the geometry.
#include <string>
#include <vector>

namespace sg {

class LoadedFilesScope {
 public:
  LoadedFilesScope();
  ~LoadedFilesScope();
  LoadedFilesScope(const LoadedFilesScope&) = delete;
  LoadedFilesScope& operator=(const LoadedFilesScope&) = delete;

  const std::vector<std::string>& files() const { return files_; }  // absolute paths

 private:
  friend void noteLoadedFile(const std::string& path);
  LoadedFilesScope* outer_ = nullptr;
  std::vector<std::string> files_;
};

// Called by the readers for each file they open; nothing happens without a scope on this thread.
void noteLoadedFile(const std::string& path);

}  // namespace sg
