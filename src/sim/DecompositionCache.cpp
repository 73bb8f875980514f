#include "sim/DecompositionCache.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <type_traits>
#include <vector>

#include <unistd.h>

namespace sg::sim {

namespace {

// The format and the decomposition's revision: change it when a file's layout changes or when
// ConvexPieces.cpp's decomposeComponent (its HACD parameters, its orientation of the hull triangles) would give
// other pieces for the same input, so that files of the earlier code are no longer read.
constexpr char kMagic[8] = {'S', 'G', 'H', 'A', 'C', 'D', '0', '1'};

// The bytes of the cached input, in file order: counts, settings, vertices, triangles (native byte order and
// doubles: the cache is a file of this machine, README.md §Decomposition cache).
class Bytes {
 public:
  template <typename T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    data.insert(data.end(), p, p + sizeof(T));
  }
  std::vector<char> data;
};

std::vector<char> inputBytes(const TriangleMesh& component, const DecompositionSettings& settings) {
  Bytes b;
  for (char c : kMagic) b.put(c);
  b.put(static_cast<std::uint64_t>(component.vertices.size()));
  b.put(static_cast<std::uint64_t>(component.triangles.size()));
  b.put(settings.concavity);
  b.put(static_cast<std::int64_t>(settings.maxVerticesPerPiece));
  for (const Vec3& v : component.vertices)
    for (int k = 0; k < 3; ++k) b.put(v[k]);
  for (const auto& t : component.triangles)
    for (std::uint32_t i : t) b.put(i);
  return std::move(b.data);
}

std::uint64_t fnv1a(const std::vector<char>& bytes) {
  std::uint64_t h = 14695981039346656037ULL;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

class Reader {
 public:
  explicit Reader(std::istream& in) : in_(in) {}
  template <typename T>
  bool get(T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    return static_cast<bool>(in_.read(reinterpret_cast<char*>(&value), sizeof(T)));
  }

 private:
  std::istream& in_;
};

}  // namespace

std::optional<std::filesystem::path> decompositionCacheDir() {
  const char* dir = std::getenv("SOFTGRASP_CACHE_DIR");
  if (!dir || !*dir) return std::nullopt;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  return std::filesystem::path(dir);
}

std::string decompositionCacheFileName(const TriangleMesh& component, const DecompositionSettings& settings) {
  static const char* const kHex = "0123456789abcdef";
  std::uint64_t h = fnv1a(inputBytes(component, settings));
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) hex[static_cast<std::size_t>(i)] = kHex[h & 0xF];
  return "hacd-" + hex + ".bin";
}

std::optional<ConvexPieces> readCachedDecomposition(const std::filesystem::path& file, const TriangleMesh& component,
                                                    const DecompositionSettings& settings) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  const std::vector<char> expected = inputBytes(component, settings);
  std::vector<char> stored(expected.size());
  if (!in.read(stored.data(), static_cast<std::streamsize>(stored.size())) || stored != expected) return std::nullopt;
  Reader r(in);
  ConvexPieces out;
  std::uint64_t pieceCount = 0;
  if (!r.get(out.meshVolume_mm3) || !r.get(out.piecesVolume_mm3) || !r.get(pieceCount)) return std::nullopt;
  // A count beyond what the rest of the file could hold is a damaged file, not an allocation to attempt.
  const auto plausible = [&](std::uint64_t n) { return n <= (std::uint64_t{1} << 24); };
  if (!plausible(pieceCount)) return std::nullopt;
  for (std::uint64_t p = 0; p < pieceCount; ++p) {
    std::uint64_t nv = 0, nt = 0;
    if (!r.get(nv) || !r.get(nt) || !plausible(nv) || !plausible(nt)) return std::nullopt;
    ConvexPiece piece;
    piece.vertices.resize(nv);
    piece.triangles.resize(nt);
    for (Vec3& v : piece.vertices)
      for (int k = 0; k < 3; ++k)
        if (!r.get(v[k])) return std::nullopt;
    for (auto& t : piece.triangles)
      for (int& i : t)
        if (!r.get(i) || i < 0 || static_cast<std::uint64_t>(i) >= nv) return std::nullopt;
    out.pieces.push_back(std::move(piece));
  }
  char extra = 0;
  if (in.read(&extra, 1)) return std::nullopt;  // longer than its own counts say: not a file this code wrote
  return out;
}

bool writeCachedDecomposition(const std::filesystem::path& file, const TriangleMesh& component,
                              const DecompositionSettings& settings, const ConvexPieces& pieces) {
  Bytes b;
  b.data = inputBytes(component, settings);
  b.put(pieces.meshVolume_mm3);
  b.put(pieces.piecesVolume_mm3);
  b.put(static_cast<std::uint64_t>(pieces.pieces.size()));
  for (const ConvexPiece& piece : pieces.pieces) {
    b.put(static_cast<std::uint64_t>(piece.vertices.size()));
    b.put(static_cast<std::uint64_t>(piece.triangles.size()));
    for (const Vec3& v : piece.vertices)
      for (int k = 0; k < 3; ++k) b.put(v[k]);
    for (const auto& t : piece.triangles)
      for (int i : t) b.put(i);
  }
  // Another process or thread may write the same file at the same time: each writes its own temporary file, and
  // the rename replaces the file whole (both hold the same bytes).
  static std::atomic<unsigned> serial{0};
  std::filesystem::path tmp = file;
  tmp += ".tmp" + std::to_string(static_cast<long long>(::getpid())) + "-" + std::to_string(serial++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(b.data.data(), static_cast<std::streamsize>(b.data.size())) || !out.flush()) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (!ec) return true;
  std::filesystem::remove(tmp, ec);
  return false;
}

}  // namespace sg::sim
