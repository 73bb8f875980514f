#pragma once
// Guarded Inventor/VRML import (internal to src/io): before Coin parses a file, the file and everything it
// includes (File { name }, Inline/WWWInline { url/name }) are scanned as text, following includes in
// Coin's own search order, and refused with an sg::Error naming the file and line when Coin would crash
// or hang on them:
//   * nesting of { } and [ ] deeper than kMaxInventorNesting, counted through includes (Coin recurses
//     once per level and overflows the stack);
//   * DEF/USE chains that expand to more than kMaxInventorExpandedNodes nodes or nest too deep once expanded
//     (each USE of a DEF that USEs another multiplies the work Coin's traversal does);
//   * a USE inside the DEF it names (the node would contain itself) and a PROTO that instantiates itself,
//     directly or through other PROTOs; EXTERNPROTO (would load further files unchecked);
//   * an include cycle, more than kMaxInventorIncludes include expansions in all (Coin re-reads a file
//     for every reference, so fan-out grows exponentially), more than kMaxInventorIncludeBytes read;
//   * an include that names no file, a directory only, or something other than a regular file
//     (/dev/zero, a FIFO);
//   * binary or compressed Inventor (cannot be scanned).
#include <cstddef>
#include <string>
#include <vector>

namespace sg::meshio {

constexpr int kMaxInventorNesting = 400;
constexpr std::size_t kMaxInventorIncludes = 256;
constexpr std::size_t kMaxInventorIncludeBytes = std::size_t(256) << 20;
constexpr double kMaxInventorExpandedNodes = 5e6;  // nodes once every USE is expanded (a DEF/USE "bomb")

// One reference to another file found by the scan.
struct InventorReference {
  std::string name;  // as written
  int line = 0;
  int depth = 0;     // nesting depth of the referencing node
};

// What the text scan of one file finds. `problem` (with `problemLine`) is empty when the text is safe.
struct InventorScan {
  int maxDepth = 0;
  std::vector<InventorReference> references;
  std::string problem;
  int problemLine = 0;
};

// Scans the text of one ASCII Inventor/VRML file (no includes followed).
InventorScan scanInventorText(const std::string& text);

// Checks `path` and every file it includes, as described above; throws sg::Error naming the offending
// file (and line). `searchDirectories` are Coin's global search directories at the time of the read
// (SoInput::getDirectories()), tried after the directories of the including files.
void checkInventorImport(const std::string& path, const std::vector<std::string>& searchDirectories);

}  // namespace sg::meshio
