// Format detection, the readMesh dispatcher and the helpers shared by the individual readers.
#include "io/MeshIO.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/Parse.h"
#include "io/MeshReaderSupport.h"
#include "io/LoadedFiles.h"

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

void requireReadableFile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw Error("cannot open geometry file (no such file)", path);
  if (std::filesystem::is_directory(status)) throw Error("cannot open geometry file (it is a directory)", path);
  if (!std::filesystem::is_regular_file(status))
    throw Error("cannot open geometry file (not a regular file, e.g. a device or a pipe)", path);
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw Error("cannot open geometry file (permission denied?)", path);
  noteLoadedFile(path);
}

std::string readFileBytes(const std::string& path) {
  requireReadableFile(path);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw Error("cannot open geometry file", path);
  const std::streamoff size = in.tellg();
  if (size < 0) throw Error("cannot read geometry file (not a regular file?)", path);
  std::string bytes(std::size_t(size), '\0');
  in.seekg(0);
  if (!in.read(bytes.data(), size)) throw Error("cannot read geometry file", path);
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
    // Final avalanche (splitmix64): callers use the low bits.
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    return std::size_t(h ^ (h >> 31));
  }
};

// Open-addressing hash map CellKey -> uint32 (linear probing): far fewer cache misses than
// std::unordered_map on the millions of lookups of a large STL.
class FlatKeyMap {
 public:
  explicit FlatKeyMap(std::size_t expected) { rebuild(std::max<std::size_t>(16, std::bit_ceil(2 * expected + 1))); }

  // Value stored for k, or nullptr.
  const std::uint32_t* find(const CellKey& k) const {
    for (std::size_t i = slot(k);; i = (i + 1) & mask_) {
      if (values_[i] == kEmpty) return nullptr;
      if (keys_[i] == k) return &values_[i];
    }
  }
  // Inserts k -> v if k is absent; returns the stored value's address either way.
  std::uint32_t* tryEmplace(const CellKey& k, std::uint32_t v, bool& inserted) {
    if (2 * (size_ + 1) > keys_.size()) grow();
    for (std::size_t i = slot(k);; i = (i + 1) & mask_) {
      if (values_[i] == kEmpty) {
        keys_[i] = k;
        values_[i] = v;
        ++size_;
        inserted = true;
        return &values_[i];
      }
      if (keys_[i] == k) {
        inserted = false;
        return &values_[i];
      }
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = UINT32_MAX;
  std::size_t slot(const CellKey& k) const { return CellKeyHash{}(k) & mask_; }
  void rebuild(std::size_t capacity) {
    keys_.assign(capacity, CellKey{0, 0, 0});
    values_.assign(capacity, kEmpty);
    mask_ = capacity - 1;
    size_ = 0;
  }
  void grow() {
    auto oldKeys = std::move(keys_);
    auto oldValues = std::move(values_);
    rebuild(2 * oldKeys.size());
    bool inserted;
    for (std::size_t i = 0; i < oldKeys.size(); ++i)
      if (oldValues[i] != kEmpty) tryEmplace(oldKeys[i], oldValues[i], inserted);
  }
  std::vector<CellKey> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0, size_ = 0;
};

// Bit pattern of a point, with -0 folded into +0, as a key for exact matching.
CellKey exactKey(const Vec3& p) {
  std::int64_t b[3];
  for (int k = 0; k < 3; ++k) {
    const double v = p[k] == 0.0 ? 0.0 : p[k];
    std::memcpy(&b[k], &v, sizeof v);
  }
  return {b[0], b[1], b[2]};
}

// Points merged within a tolerance: a hash grid whose cells are much larger than the tolerance, so a
// point usually needs only its own cell (neighbours only when it lies within tol of a cell face).
class ToleranceGrid {
 public:
  ToleranceGrid(double tol, std::size_t expected) : tol_(tol), cell_(tol * 1024), heads_(expected) {}

  // Index of an earlier point within tol of p, or UINT32_MAX.
  std::uint32_t find(const Vec3& p, const std::vector<Vec3>& points) const {
    const Vec3 scaled = p / cell_;
    const Vec3 base = scaled.array().floor();
    int lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
      const double inCell = (scaled[k] - base[k]) * cell_;  // distance from the lower face
      lo[k] = inCell < tol_ ? -1 : 0;
      hi[k] = cell_ - inCell < tol_ ? 1 : 0;
    }
    for (int dx = lo[0]; dx <= hi[0]; ++dx)
      for (int dy = lo[1]; dy <= hi[1]; ++dy)
        for (int dz = lo[2]; dz <= hi[2]; ++dz) {
          const std::uint32_t* head = heads_.find(CellKey{std::int64_t(base.x()) + dx, std::int64_t(base.y()) + dy,
                                                          std::int64_t(base.z()) + dz});
          if (!head) continue;
          for (std::uint32_t i = *head; i != UINT32_MAX; i = next_[i])
            if ((points[i] - p).norm() <= tol_) return i;
        }
    return UINT32_MAX;
  }

  // Registers point number `index` (== the number of points added so far).
  void add(const Vec3& p, std::uint32_t index) {
    const Vec3 base = (p / cell_).array().floor();
    bool inserted = false;
    std::uint32_t* head = heads_.tryEmplace(
        CellKey{std::int64_t(base.x()), std::int64_t(base.y()), std::int64_t(base.z())}, index, inserted);
    next_.resize(index + 1, UINT32_MAX);
    if (!inserted) {
      next_[index] = *head;
      *head = index;
    }
  }

 private:
  double tol_, cell_;
  FlatKeyMap heads_;                // cell -> most recent point
  std::vector<std::uint32_t> next_;                                 // point -> previous point in its cell
};

}  // namespace

void mergeCoincidentVertices(TriangleMesh& mesh, double relTol) {
  // Out-of-range coordinates would overflow the cell keys; finalizeOrThrow rejects such meshes.
  for (const auto& v : mesh.vertices)
    if (!(v.cwiseAbs().maxCoeff() <= 1e9)) return;
  // Only vertices referenced by a (range-checked) triangle are kept.
  const auto n = mesh.vertices.size();
  AlignedBox box;
  for (const auto& v : mesh.vertices)
    if (v.allFinite()) box.extend(v);
  // Relative to the extent and to the distance from the origin: rounding grows with both.
  const double extent = box.empty() ? 0.0 : std::max({box.size().norm(), box.min.norm(), box.max.norm()});
  const double tol = relTol * extent;
  const bool useTolerance = tol > 0 && std::isfinite(tol * 1024);

  std::vector<Vec3> merged;
  merged.reserve(n / 2);
  FlatKeyMap exact(n / 4);  // triangle soups share each corner about six times
  ToleranceGrid grid(useTolerance ? tol : 1.0, useTolerance ? n / 4 : 0);
  // Vertices referenced by an in-range triangle; the others are dropped.
  auto inRange = [n](const TriangleMesh::Triangle& t) { return t[0] < n && t[1] < n && t[2] < n; };
  std::vector<char> used(n, 0);
  for (const auto& t : mesh.triangles)
    if (inRange(t))
      for (auto i : t) used[i] = 1;

  // Visit vertices in file order, so a file without duplicates keeps its numbering.
  std::vector<std::uint32_t> remap(n, UINT32_MAX);
  for (std::size_t original = 0; original < n; ++original) {
    if (!used[original]) continue;
    const Vec3& p = mesh.vertices[original];
    std::uint32_t found = UINT32_MAX;
    if (!p.allFinite()) {  // kept as is so that finalize() reports it
      found = std::uint32_t(merged.size());
      merged.push_back(p);
    } else if (const std::uint32_t* same = exact.find(exactKey(p))) {
      found = *same;
    } else {
      if (useTolerance) found = grid.find(p, merged);
      if (found == UINT32_MAX) {
        found = std::uint32_t(merged.size());
        merged.push_back(p);
        if (useTolerance) grid.add(p, found);
      }
      bool inserted;
      exact.tryEmplace(exactKey(p), found, inserted);
    }
    remap[original] = found;
  }
  // A triangle with an out-of-range index keeps it (indices >= n stay >= the new count): finalize()
  // reports it.
  for (auto& t : mesh.triangles)
    if (inRange(t))
      for (auto& i : t) i = remap[i];
  mesh.vertices = std::move(merged);
}

TriangleMesh finalizeOrThrow(TriangleMesh mesh, const std::string& path) {
  // Finite but absurd coordinates (1e300) overflow to inf in the first volume or distance computed.
  constexpr double kMaxCoordinate = 1e9;
  for (const Vec3& v : mesh.vertices)
    if (!(v.cwiseAbs().maxCoeff() <= kMaxCoordinate))
      throw Error("vertex coordinate out of range: (" + formatDouble(v.x()) + ", " + formatDouble(v.y()) + ", " +
                      formatDouble(v.z()) + "); at most ±1e9 is accepted",
                  path);
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
