// Object File Format (.off): optional header keyword (OFF, COFF, NOFF, CNOFF, STOFF, …), the counts
// "nVertices nFaces [nEdges]", one vertex per line (x y z, extra columns such as colours ignored), then
// one polygon per line "n i1 … in [colour]" triangulated as a fan. '#' starts a comment.
#include <algorithm>
#include <string>
#include <vector>

#include "core/Parse.h"
#include "io/MeshIO.h"
#include "io/MeshReaderSupport.h"

namespace sg {

namespace {

// Next non-blank, comment-stripped line split into tokens; false at end of file.
bool nextTokens(meshio::MeshTextLines& lines, std::vector<std::string_view>& tokens) {
  std::string_view line;
  while (lines.next(line)) {
    tokens = splitWhitespace(meshio::stripHashComment(line));
    if (!tokens.empty()) return true;
  }
  return false;
}

bool isOffKeyword(std::string_view token) {
  return token.size() >= 3 && token.substr(token.size() - 3) == "OFF";
}

}  // namespace

TriangleMesh readOffMesh(const std::string& path) {
  const std::string text = meshio::readFileBytes(path);
  meshio::MeshTextLines lines(text);
  std::vector<std::string_view> tok;
  auto fail = [&](const std::string& what) -> Error { return Error(what, path, lines.lineNumber()); };

  if (!nextTokens(lines, tok)) throw Error("empty OFF file", path);
  if (isOffKeyword(tok[0])) {
    if (tok[0].find("4") != std::string_view::npos || tok[0].find('n') != std::string_view::npos)
      throw fail("unsupported OFF variant '" + std::string(tok[0]) + "' (only 3-D OFF is read)");
    tok.erase(tok.begin());
    if (tok.empty() && !nextTokens(lines, tok)) throw fail("truncated OFF file: missing vertex and face counts");
  }
  if (tok.size() < 2) throw fail("expected 'nVertices nFaces [nEdges]'");
  const auto nVertices = parseInt(tok[0]);
  const auto nFaces = parseInt(tok[1]);
  if (!nVertices || !nFaces || *nVertices < 0 || *nFaces < 0)
    throw fail("bad OFF counts '" + std::string(tok[0]) + " " + std::string(tok[1]) + "'");

  TriangleMesh mesh;
  // A vertex line takes at least six bytes, so the file size bounds a garbage count.
  mesh.vertices.reserve(std::min(std::size_t(*nVertices), text.size() / 6));
  for (int i = 0; i < *nVertices; ++i) {
    if (!nextTokens(lines, tok))
      throw fail("truncated OFF file: expected " + std::to_string(*nVertices) + " vertices, found " +
                 std::to_string(i));
    if (tok.size() < 3) throw fail("vertex needs three coordinates");
    Vec3 p;
    for (int k = 0; k < 3; ++k) {
      const auto v = parseDouble(tok[k]);
      if (!v) throw fail("vertex coordinate is not a finite number: '" + std::string(tok[k]) + "'");
      p[k] = *v;
    }
    mesh.vertices.push_back(p);
  }

  std::vector<std::uint32_t> corners;
  for (int f = 0; f < *nFaces; ++f) {
    if (!nextTokens(lines, tok))
      throw fail("truncated OFF file: expected " + std::to_string(*nFaces) + " faces, found " + std::to_string(f));
    const auto n = parseInt(tok[0]);
    if (!n || *n < 0) throw fail("bad face corner count '" + std::string(tok[0]) + "'");
    if (tok.size() < std::size_t(*n) + 1)
      throw fail("face lists " + std::to_string(tok.size() - 1) + " indices but announces " + std::to_string(*n));
    corners.clear();
    for (int k = 1; k <= *n; ++k) {
      const auto idx = parseInt(tok[k]);
      if (!idx) throw fail("face index is not an integer: '" + std::string(tok[k]) + "'");
      if (*idx < 0 || *idx >= *nVertices)
        throw fail("face index " + std::to_string(*idx) + " out of range (" + std::to_string(*nVertices) +
                   " vertices)");
      corners.push_back(std::uint32_t(*idx));
    }
    meshio::appendFan(mesh, corners);
  }
  // Exact duplicates (per-face copies some exporters write) would count twice in neighbourhoods.
  meshio::mergeCoincidentVertices(mesh, 0.0);
  return meshio::finalizeOrThrow(std::move(mesh), path);
}

}  // namespace sg
