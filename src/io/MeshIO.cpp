// Format detection, the readMesh dispatcher and the helpers shared by the individual readers.
#include "io/MeshIO.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <unordered_map>

#include "core/Parse.h"
#include "io/MeshReaderSupport.h"

namespace sg {

namespace {

std::string toLower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

}  // namespace

MeshFormat meshFormatFromType(const std::string& typeAttribute) {
  const std::string t = toLower(std::string(trim(typeAttribute)));
  if (t.empty() || t == "inventor" || t == "iv" || t == "vrml" || t == "wrl") return MeshFormat::Inventor;
  if (t == "off") return MeshFormat::Off;
  if (t == "ply") return MeshFormat::Ply;
  if (t == "stl") return MeshFormat::Stl;
  if (t == "obj") return MeshFormat::Obj;
  return MeshFormat::Unknown;
}

MeshFormat meshFormatFromPath(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return MeshFormat::Unknown;
  const std::string ext = toLower(path.substr(dot + 1));
  if (ext == "iv" || ext == "wrl" || ext == "vrml") return MeshFormat::Inventor;
  if (ext == "off") return MeshFormat::Off;
  if (ext == "ply") return MeshFormat::Ply;
  if (ext == "stl") return MeshFormat::Stl;
  if (ext == "obj") return MeshFormat::Obj;
  return MeshFormat::Unknown;
}

std::string meshTypeName(MeshFormat f) {
  switch (f) {
    case MeshFormat::Inventor: return "Inventor";
    case MeshFormat::Off: return "off";
    case MeshFormat::Ply: return "ply";
    case MeshFormat::Stl: return "stl";
    case MeshFormat::Obj: return "obj";
    case MeshFormat::Unknown: break;
  }
  return "";
}

TriangleMesh readMesh(const std::string& path, MeshFormat format) {
  if (format == MeshFormat::Unknown) format = meshFormatFromPath(path);
  switch (format) {
    case MeshFormat::Inventor: return readInventorMesh(path);
    case MeshFormat::Off: return readOffMesh(path);
    case MeshFormat::Ply: return readPlyMesh(path);
    case MeshFormat::Stl: return readStlMesh(path);
    case MeshFormat::Obj: return readObjMesh(path);
    case MeshFormat::Unknown: break;
  }
  throw Error("unknown geometry format (expected .iv, .wrl, .off, .ply, .stl or .obj)", path);
}

namespace meshio {

std::string readFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open geometry file", path);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error("cannot read geometry file", path);
  return bytes;
}

bool MeshTextLines::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  auto end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  line = text_.substr(pos_, end - pos_);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  pos_ = end + 1;
  ++line_;
  return true;
}

std::string_view stripHashComment(std::string_view line) {
  const auto hash = line.find('#');
  return hash == std::string_view::npos ? line : line.substr(0, hash);
}

void appendFan(TriangleMesh& mesh, const std::vector<std::uint32_t>& corners) {
  for (std::size_t i = 1; i + 1 < corners.size(); ++i)
    mesh.triangles.push_back({corners[0], corners[i], corners[i + 1]});
}

namespace {

struct CellKey {
  std::int64_t x, y, z;
  bool operator==(const CellKey&) const = default;
};
struct CellKeyHash {
  std::size_t operator()(const CellKey& k) const {
    std::uint64_t h = std::uint64_t(k.x) * 0x9E3779B97F4A7C15ull;
    h ^= std::uint64_t(k.y) + 0xBF58476D1CE4E5B9ull + (h << 6) + (h >> 2);
    h ^= std::uint64_t(k.z) + 0x94D049BB133111EBull + (h << 6) + (h >> 2);
    return std::size_t(h);
  }
};

}  // namespace

void mergeCoincidentVertices(TriangleMesh& mesh, double relTol) {
  // Only vertices referenced by a (range-checked) triangle are kept.
  const auto n = mesh.vertices.size();
  AlignedBox box;
  for (const auto& v : mesh.vertices)
    if (v.allFinite()) box.extend(v);
  // Relative to the extent and to the distance from the origin: rounding grows with both.
  const double extent = box.empty() ? 0.0 : std::max({box.size().norm(), box.min.norm(), box.max.norm()});
  const double tol = relTol * extent;
  const bool exact = !(tol > 0) || !std::isfinite(tol);
  const double cell = exact ? 1.0 : tol;

  // Grid of cell size tol: a coincident vertex lies in the same or a neighbouring cell.
  std::unordered_map<CellKey, std::vector<std::uint32_t>, CellKeyHash> grid;
  std::vector<Vec3> merged;
  std::vector<std::int64_t> remap(n, -1);
  auto keyOf = [&](const Vec3& p) {
    return CellKey{std::int64_t(std::floor(p.x() / cell)), std::int64_t(std::floor(p.y() / cell)),
                   std::int64_t(std::floor(p.z() / cell))};
  };
  auto lookup = [&](std::uint32_t original) -> std::uint32_t {
    if (remap[original] >= 0) return std::uint32_t(remap[original]);
    const Vec3& p = mesh.vertices[original];
    std::uint32_t found = UINT32_MAX;
    if (p.allFinite()) {
      const CellKey k = keyOf(p);
      const int reach = exact ? 0 : 1;
      for (int dx = -reach; dx <= reach && found == UINT32_MAX; ++dx)
        for (int dy = -reach; dy <= reach && found == UINT32_MAX; ++dy)
          for (int dz = -reach; dz <= reach && found == UINT32_MAX; ++dz) {
            auto it = grid.find(CellKey{k.x + dx, k.y + dy, k.z + dz});
            if (it == grid.end()) continue;
            for (auto candidate : it->second) {
              const bool same = exact ? merged[candidate] == p : (merged[candidate] - p).norm() <= tol;
              if (same) { found = candidate; break; }
            }
          }
      if (found == UINT32_MAX) {
        found = std::uint32_t(merged.size());
        merged.push_back(p);
        grid[k].push_back(found);
      }
    } else {  // keep non-finite vertices so finalize() reports them
      found = std::uint32_t(merged.size());
      merged.push_back(p);
    }
    remap[original] = found;
    return found;
  };
  for (auto& t : mesh.triangles) {
    // A triangle with an out-of-range index keeps it (indices >= n stay >= the new count);
    // finalize() reports it.
    if (t[0] >= n || t[1] >= n || t[2] >= n) continue;
    for (auto& i : t) i = lookup(i);
  }
  mesh.vertices = std::move(merged);
}

TriangleMesh finalizeOrThrow(TriangleMesh mesh, const std::string& path) {
  try {
    mesh.finalize();
  } catch (const Error& e) {
    throw e.withFile(path);
  }
  if (mesh.empty()) throw Error("geometry file contains no (non-degenerate) triangles", path);
  return mesh;
}

}  // namespace meshio
}  // namespace sg
