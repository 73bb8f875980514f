// Stanford PLY: ascii, binary_little_endian and binary_big_endian. Reads the vertex element's x, y, z
// (any numeric type) and the face element's vertex_indices list (any count and index type; polygons
// fanned); a "tristrips" element (strips separated by -1) is also understood. Every other element and
// property is skipped according to its declared type.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "core/Parse.h"
#include "io/MeshIO.h"
#include "io/MeshReaderSupport.h"

namespace sg {

namespace {

enum class PlyScalar { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

std::optional<PlyScalar> scalarFromName(std::string_view n) {
  if (n == "char" || n == "int8") return PlyScalar::Int8;
  if (n == "uchar" || n == "uint8") return PlyScalar::UInt8;
  if (n == "short" || n == "int16") return PlyScalar::Int16;
  if (n == "ushort" || n == "uint16") return PlyScalar::UInt16;
  if (n == "int" || n == "int32") return PlyScalar::Int32;
  if (n == "uint" || n == "uint32") return PlyScalar::UInt32;
  if (n == "float" || n == "float32") return PlyScalar::Float32;
  if (n == "double" || n == "float64") return PlyScalar::Float64;
  return std::nullopt;
}

std::size_t scalarBytes(PlyScalar t) {
  switch (t) {
    case PlyScalar::Int8: case PlyScalar::UInt8: return 1;
    case PlyScalar::Int16: case PlyScalar::UInt16: return 2;
    case PlyScalar::Int32: case PlyScalar::UInt32: case PlyScalar::Float32: return 4;
    case PlyScalar::Float64: return 8;
  }
  return 0;
}

struct PlyProperty {
  std::string name;
  PlyScalar type = PlyScalar::Float32;  // item type for lists
  bool isList = false;
  PlyScalar countType = PlyScalar::UInt8;
};

struct PlyElement {
  std::string name;
  std::uint64_t count = 0;
  std::vector<PlyProperty> properties;
};

enum class PlyEncoding { Ascii, LittleEndian, BigEndian };

struct PlyHeader {
  PlyEncoding encoding = PlyEncoding::Ascii;
  std::vector<PlyElement> elements;
  std::size_t dataOffset = 0;
  int lastHeaderLine = 0;
};

PlyHeader parseHeader(meshio::MeshTextLines& lines, const std::string& path) {
  PlyHeader h;
  std::string_view line;
  auto fail = [&](const std::string& what) { return Error(what, path, lines.lineNumber()); };
  if (!lines.next(line) || trim(line) != "ply") throw Error("not a PLY file (first line is not 'ply')", path, 1);
  bool haveFormat = false;
  while (true) {
    if (!lines.next(line)) throw fail("truncated PLY header: no 'end_header'");
    const auto tok = splitWhitespace(line);
    if (tok.empty()) continue;
    const std::string_view key = tok[0];
    if (key == "end_header") break;
    if (key == "comment" || key == "obj_info") continue;
    if (key == "format") {
      if (tok.size() < 2) throw fail("'format' needs an encoding");
      if (tok[1] == "ascii") h.encoding = PlyEncoding::Ascii;
      else if (tok[1] == "binary_little_endian") h.encoding = PlyEncoding::LittleEndian;
      else if (tok[1] == "binary_big_endian") h.encoding = PlyEncoding::BigEndian;
      else throw fail("unknown PLY format '" + std::string(tok[1]) + "'");
      haveFormat = true;
    } else if (key == "element") {
      if (tok.size() < 3) throw fail("'element' needs a name and a count");
      const auto count = parseDouble(tok[2]);
      if (!count || *count < 0 || *count != std::floor(*count) || *count > 4e9)
        throw fail("bad element count '" + std::string(tok[2]) + "'");
      h.elements.push_back({std::string(tok[1]), std::uint64_t(*count), {}});
    } else if (key == "property") {
      if (h.elements.empty()) throw fail("'property' before any 'element'");
      PlyProperty p;
      if (tok.size() >= 2 && tok[1] == "list") {
        if (tok.size() < 5) throw fail("'property list' needs count type, item type and name");
        const auto ct = scalarFromName(tok[2]);
        const auto it = scalarFromName(tok[3]);
        if (!ct || !it) throw fail("unknown PLY type in '" + std::string(trim(line)) + "'");
        if (*ct == PlyScalar::Float32 || *ct == PlyScalar::Float64) throw fail("list count type must be an integer");
        p = {std::string(tok[4]), *it, true, *ct};
      } else {
        if (tok.size() < 3) throw fail("'property' needs a type and a name");
        const auto t = scalarFromName(tok[1]);
        if (!t) throw fail("unknown PLY type '" + std::string(tok[1]) + "'");
        p = {std::string(tok[2]), *t, false, PlyScalar::UInt8};
      }
      h.elements.back().properties.push_back(p);
    } else {
      throw fail("unexpected '" + std::string(key.substr(0, 40)) + "' in PLY header");
    }
  }
  if (!haveFormat) throw fail("PLY header has no 'format' line");
  h.dataOffset = lines.offset();
  h.lastHeaderLine = lines.lineNumber();
  return h;
}

// Source of numbers for the body: ascii tokens or binary scalars.
class PlyValues {
 public:
  PlyValues(const std::string& bytes, const PlyHeader& h, const std::string& path, meshio::MeshTextLines& lines)
      : bytes_(bytes), encoding_(h.encoding), path_(path), lines_(lines), pos_(h.dataOffset) {}

  // The next value of type t; may be NaN/inf for binary floats (caller checks).
  double next(PlyScalar t) {
    if (encoding_ == PlyEncoding::Ascii) return nextAscii();
    const std::size_t n = scalarBytes(t);
    if (pos_ + n > bytes_.size()) throw Error("truncated binary PLY: data ends " + where(), path_);
    unsigned char raw[8];
    std::memcpy(raw, bytes_.data() + pos_, n);
    pos_ += n;
    const bool fileIsLittle = encoding_ == PlyEncoding::LittleEndian;
    if (fileIsLittle != (std::endian::native == std::endian::little))
      for (std::size_t i = 0; i < n / 2; ++i) std::swap(raw[i], raw[n - 1 - i]);
    switch (t) {
      case PlyScalar::Int8: { std::int8_t v; std::memcpy(&v, raw, 1); return v; }
      case PlyScalar::UInt8: { std::uint8_t v; std::memcpy(&v, raw, 1); return v; }
      case PlyScalar::Int16: { std::int16_t v; std::memcpy(&v, raw, 2); return v; }
      case PlyScalar::UInt16: { std::uint16_t v; std::memcpy(&v, raw, 2); return v; }
      case PlyScalar::Int32: { std::int32_t v; std::memcpy(&v, raw, 4); return v; }
      case PlyScalar::UInt32: { std::uint32_t v; std::memcpy(&v, raw, 4); return v; }
      case PlyScalar::Float32: { float v; std::memcpy(&v, raw, 4); return v; }
      case PlyScalar::Float64: { double v; std::memcpy(&v, raw, 8); return v; }
    }
    return 0;
  }

  // Consumes a value that is not needed (ascii: any token, even "nan").
  void skip(PlyScalar t) {
    if (encoding_ != PlyEncoding::Ascii) {
      (void)next(t);
      return;
    }
    nextToken();
  }

  // Error at the current position: line number for ascii, element description for binary.
  Error error(const std::string& what) const {
    if (encoding_ == PlyEncoding::Ascii) return Error(what, path_, lines_.lineNumber());
    return Error(what + " " + where(), path_);
  }
  // Where the next values belong, for messages (the text is only built for an error).
  void setPosition(const std::string& element, std::uint64_t index) {
    element_ = &element;
    elementIndex_ = index;
  }

 private:
  std::string_view nextToken() {
    while (index_ >= tokens_.size()) {
      std::string_view line;
      if (!lines_.next(line)) throw Error("truncated ascii PLY: data ends " + where(), path_, lines_.lineNumber());
      tokens_ = splitWhitespace(line);
      index_ = 0;
    }
    return tokens_[index_++];
  }

  double nextAscii() {
    const std::string_view tok = nextToken();
    const auto v = parseDouble(tok);
    if (!v) throw Error("not a finite number: '" + std::string(tok.substr(0, 40)) + "'", path_, lines_.lineNumber());
    return *v;
  }

  const std::string& bytes_;
  PlyEncoding encoding_;
  const std::string& path_;
  meshio::MeshTextLines& lines_;
  std::size_t pos_;
  std::vector<std::string_view> tokens_;
  std::size_t index_ = 0;
  const std::string* element_ = nullptr;
  std::uint64_t elementIndex_ = 0;

  std::string where() const {
    return element_ ? "in element '" + *element_ + "' #" + std::to_string(elementIndex_) : "";
  }
};

bool isIndexList(const PlyProperty& p) {
  return p.isList && (p.name == "vertex_indices" || p.name == "vertex_index");
}

// Reads `count` vertex indices into `corners`; with `stripRestarts`, -1 is kept as kRestart.
constexpr std::uint32_t kRestart = UINT32_MAX;
void readIndexList(PlyValues& values, PlyScalar type, std::uint64_t count, std::uint64_t nVertices,
                   bool stripRestarts, std::vector<std::uint32_t>& corners) {
  corners.clear();
  for (std::uint64_t k = 0; k < count; ++k) {
    const double v = values.next(type);
    if (stripRestarts && v == -1) {
      corners.push_back(kRestart);
      continue;
    }
    if (!(v >= 0) || v != std::floor(v) || v >= double(nVertices))
      throw values.error("vertex index " + formatDouble(v) + " out of range (" + std::to_string(nVertices) +
                         " vertices)");
    corners.push_back(std::uint32_t(v));
  }
}

// Triangle strips separated by kRestart: triangle j of a strip is (j, j+1, j+2), every other one
// reversed so all keep the strip's winding.
void appendStrips(TriangleMesh& mesh, const std::vector<std::uint32_t>& corners) {
  std::size_t start = 0;
  for (std::size_t k = 0; k <= corners.size(); ++k) {
    if (k < corners.size() && corners[k] != kRestart) continue;
    for (std::size_t j = start; j + 2 < k; ++j) {
      if ((j - start) % 2 == 0) mesh.triangles.push_back({corners[j], corners[j + 1], corners[j + 2]});
      else mesh.triangles.push_back({corners[j + 1], corners[j], corners[j + 2]});
    }
    start = k + 1;
  }
}

}  // namespace

TriangleMesh readPlyMesh(const std::string& path) {
  const std::string bytes = meshio::readFileBytes(path);
  meshio::MeshTextLines lines(bytes);
  const PlyHeader header = parseHeader(lines, path);

  std::uint64_t nVertices = 0;
  bool haveVertexElement = false;
  for (const auto& e : header.elements) {
    if (e.name != "vertex") continue;
    haveVertexElement = true;
    nVertices = e.count;
    for (const char* axis : {"x", "y", "z"}) {
      bool found = false;
      for (const auto& p : e.properties) found = found || (p.name == axis && !p.isList);
      if (!found) throw Error(std::string("PLY vertex element has no scalar property '") + axis + "'", path);
    }
  }
  if (!haveVertexElement) throw Error("PLY file has no 'vertex' element", path);

  // Every item of an element with properties takes bytes in the file: a count the data cannot hold is a
  // corrupt header (a 2 KB file declaring 4e9 items would otherwise keep the reader busy for ever).
  {
    const std::uint64_t dataBytes = bytes.size() - std::min(bytes.size(), header.dataOffset);
    std::uint64_t needed = 0;
    for (const auto& e : header.elements) {
      std::uint64_t perItem = 0;
      for (const auto& p : e.properties)
        perItem += header.encoding == PlyEncoding::Ascii ? 1 : scalarBytes(p.isList ? p.countType : p.type);
      if (perItem == 0) continue;
      if (e.count > dataBytes / perItem || (needed += e.count * perItem) > dataBytes)
        throw Error("PLY header declares " + std::to_string(e.count) + " '" + e.name + "' items, more than the " +
                        std::to_string(dataBytes) + " bytes of data can hold",
                    path, header.lastHeaderLine);
    }
  }

  TriangleMesh mesh;
  // Every vertex takes at least one byte, so the file size bounds a garbage count.
  mesh.vertices.reserve(std::size_t(std::min<std::uint64_t>(nVertices, bytes.size())));
  PlyValues values(bytes, header, path, lines);
  std::vector<std::uint32_t> corners;

  for (const auto& e : header.elements) {
    if (e.properties.empty()) continue;  // no data to read, however many items it declares
    const bool isVertex = e.name == "vertex";
    const bool isFace = e.name == "face";
    const bool isStrip = e.name == "tristrips";
    for (std::uint64_t i = 0; i < e.count; ++i) {
      values.setPosition(e.name, i);
      Vec3 p = Vec3::Zero();
      for (const auto& prop : e.properties) {
        if (!prop.isList) {
          if (isVertex && (prop.name == "x" || prop.name == "y" || prop.name == "z")) {
            const double v = values.next(prop.type);
            if (!std::isfinite(v)) throw values.error("vertex coordinate is not a finite number");
            p[prop.name[0] - 'x'] = v;
          } else {
            values.skip(prop.type);
          }
          continue;
        }
        const double countValue = values.next(prop.countType);
        // A length is a whole number that fits the widest PLY count type (uint32); an ASCII file can write
        // anything, and 1e308 would overflow the conversion below (found by fuzz_ply).
        if (!(countValue >= 0) || countValue != std::floor(countValue) || countValue > 4294967295.0)
          throw values.error("bad list length " + formatDouble(countValue));
        const auto count = std::uint64_t(countValue);
        if ((isFace || isStrip) && isIndexList(prop)) {
          readIndexList(values, prop.type, count, nVertices, isStrip, corners);
          if (isFace) meshio::appendFan(mesh, corners);
          else appendStrips(mesh, corners);
        } else {
          for (std::uint64_t k = 0; k < count; ++k) values.skip(prop.type);
        }
      }
      if (isVertex) mesh.vertices.push_back(p);
    }
  }
  // Exact duplicates (per-face copies some exporters write) would count twice in neighbourhoods.
  meshio::mergeCoincidentVertices(mesh, 0.0);
  return meshio::finalizeOrThrow(std::move(mesh), path);
}

}  // namespace sg
