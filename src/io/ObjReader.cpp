// Wavefront OBJ: "v x y z [w | r g b]" and "f" with the corner forms i, i/t, i/t/n and i//n;
// negative indices count back from the latest vertex; polygons are fanned. Everything else (vt, vn,
// groups, materials, lines, smoothing) is ignored. '#' starts a comment; a trailing '\' continues a line.
#include <string>
#include <vector>

#include "core/Parse.h"
#include "io/MeshIO.h"
#include "io/MeshReaderSupport.h"

namespace sg {

TriangleMesh readObjMesh(const std::string& path) {
  const std::string text = meshio::readFileBytes(path);
  meshio::MeshTextLines lines(text);
  TriangleMesh mesh;
  std::vector<std::uint32_t> corners;
  std::string_view raw;
  std::string joined;  // a logical line assembled from '\'-continued physical lines
  auto continues = [](std::string_view part) {
    const std::string_view t = trim(part);
    return !t.empty() && t.back() == '\\';
  };
  while (lines.next(raw)) {
    std::string_view line = meshio::stripHashComment(raw);
    const int firstLine = lines.lineNumber();
    if (continues(line)) {
      joined.clear();
      std::string_view part = line;
      while (continues(part)) {
        const std::string_view t = trim(part);
        joined.append(t.substr(0, t.size() - 1)).push_back(' ');
        part = lines.next(raw) ? meshio::stripHashComment(raw) : std::string_view();
      }
      joined.append(part);
      line = joined;
    }
    auto fail = [&](const std::string& what) { return Error(what, path, firstLine); };
    const auto tok = splitWhitespace(line);
    if (tok.empty()) continue;
    if (tok[0] == "v") {
      if (tok.size() < 4) throw fail("vertex needs three coordinates");
      Vec3 p;
      for (int k = 0; k < 3; ++k) {
        const auto v = parseDouble(tok[k + 1]);
        if (!v) throw fail("vertex coordinate is not a finite number: '" + std::string(tok[k + 1].substr(0, 40)) + "'");
        p[k] = *v;
      }
      mesh.vertices.push_back(p);
    } else if (tok[0] == "f" || tok[0] == "fo") {
      if (tok.size() < 4) throw fail("face needs at least three corners");
      corners.clear();
      const auto n = static_cast<long long>(mesh.vertices.size());
      for (std::size_t k = 1; k < tok.size(); ++k) {
        const std::string_view corner = tok[k];
        const auto idx = parseInt(corner.substr(0, corner.find('/')));
        if (!idx || *idx == 0) throw fail("bad face corner '" + std::string(corner.substr(0, 40)) + "'");
        // Positive indices are 1-based; negative ones are relative to the vertices read so far.
        const long long zeroBased = *idx > 0 ? *idx - 1LL : n + *idx;
        if (zeroBased < 0 || zeroBased >= n)
          throw fail("face index " + std::to_string(*idx) + " out of range (" + std::to_string(n) +
                     " vertices so far)");
        corners.push_back(std::uint32_t(zeroBased));
      }
      meshio::appendFan(mesh, corners);
    }
    // anything else: ignored
  }
  // Exact duplicates (per-face copies some exporters write) would count twice in neighbourhoods.
  meshio::mergeCoincidentVertices(mesh, 0.0);
  return meshio::finalizeOrThrow(std::move(mesh), path);
}

}  // namespace sg
