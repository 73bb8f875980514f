#pragma once
// Where SoftGrasp's bundled worlds/ and models/ are, and how a file name a user typed is found
// (README.md §Install): a relative name is tried against the working directory first, then in each data directory.
// One rule for both front ends: io/InputFile.h's loadInputFile (every softgrasp-cli FILE) and the application's
// WORLD argument and default world call it.
#include <optional>
#include <string>
#include <vector>

namespace sg {

// The data directories in the order they are searched, existing ones only:
//   1. $SOFTGRASP_DATA_DIR when it is set and not empty;
//   2. the installed one, share/softgrasp beside the executable's bin/ (found from the executable's own path,
//      so an install under a DESTDIR or moved elsewhere finds its own data);
//   3. for an executable inside the build tree: the source checkout, then the build tree (the generated models).
std::vector<std::string> dataDirectories();

// `relative` (e.g. "worlds/default.xml") in the first of `dataDirs` that has it; nullopt if none does.
std::optional<std::string> findDataFile(const std::string& relative, const std::vector<std::string>& dataDirs);
std::optional<std::string> findDataFile(const std::string& relative);  // in dataDirectories()

// A file name a user typed: an empty or absolute name, or one that exists relative to the working directory,
// is returned unchanged; otherwise the first data directory's match; otherwise unchanged again, so the
// reader's "no such file" names what the user typed.
std::string resolveUserFile(const std::string& name, const std::vector<std::string>& dataDirs);
std::string resolveUserFile(const std::string& name);  // against dataDirectories()

// The relative path of the bundled default world ("worlds/default.xml").
inline constexpr const char* kDefaultWorld = "worlds/default.xml";

}  // namespace sg
