#pragma once
// Private helpers shared by the mesh readers in src/io (not part of the public API).
// Implemented in MeshIO.cpp.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/Error.h"
#include "geometry/TriangleMesh.h"

namespace sg::meshio {

// Throws sg::Error naming the file unless it is an existing, readable regular file (not a directory).
void requireReadableFile(const std::string& path);
// Whole file as bytes; throws sg::Error naming the file if it is missing or unreadable.
std::string readFileBytes(const std::string& path);

// Line-by-line view of a text file, 1-based line numbers, for error messages.
class MeshTextLines {
 public:
  // A leading UTF-8 byte-order mark (some Windows editors add one) is skipped.
  explicit MeshTextLines(std::string_view text) : text_(text), pos_(text.starts_with("\xEF\xBB\xBF") ? 3 : 0) {}
  // Next line without its end-of-line characters; false at end of text.
  bool next(std::string_view& line);
  int lineNumber() const { return line_; }
  // Byte offset of the start of the next line (the text's size at the end).
  std::size_t offset() const { return pos_ < text_.size() ? pos_ : text_.size(); }

 private:
  std::string_view text_;
  std::size_t pos_;
  int line_ = 0;
};

// `line` with everything from the first '#' removed.
std::string_view stripHashComment(std::string_view line);

// Appends polygon `corners` as a fan of triangles (0,i,i+1); fewer than three corners add nothing.
void appendFan(TriangleMesh& mesh, const std::vector<std::uint32_t>& corners);

// Merges vertices that coincide within relTol × (the larger of the bounding-box diagonal and the largest
// distance of a corner from the origin) and renumbers the triangles; unreferenced vertices are removed.
// Surviving vertices keep their relative order. relTol = 0 merges only exact duplicates.
void mergeCoincidentVertices(TriangleMesh& mesh, double relTol = 1e-9);

// finalize() with errors attributed to `path`; throws if no triangle survives.
TriangleMesh finalizeOrThrow(TriangleMesh mesh, const std::string& path);

}  // namespace sg::meshio
