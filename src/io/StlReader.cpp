// STL, ascii and binary. Binary is recognised by its size (84 + 50·count bytes), not by the "solid"
// keyword, which many binary exporters also put in their header. STL stores a triangle soup; coincident
// corners are merged so the result is an indexed mesh.
#include <cctype>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/Parse.h"
#include "io/MeshIO.h"
#include "io/MeshReaderSupport.h"

namespace sg {

namespace {

constexpr std::size_t kHeaderBytes = 84;
constexpr std::size_t kRecordBytes = 50;

std::uint32_t getLittleEndian32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::uint8_t(p[i]);
  return v;
}

float getFloat(const char* p) {
  const std::uint32_t bits = getLittleEndian32(p);
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::string lowerCase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool hasBinarySize(const std::string& bytes) {
  if (bytes.size() < kHeaderBytes) return false;
  const std::uint64_t count = getLittleEndian32(bytes.data() + 80);
  return kHeaderBytes + kRecordBytes * count == bytes.size();
}

// Starts (after blanks) with the keyword "solid" and has no NUL byte (binary files nearly always do).
bool looksAscii(const std::string& bytes) {
  const std::string_view head = trim(std::string_view(bytes).substr(0, 512));
  return lowerCase(head.substr(0, 5)) == "solid" && bytes.find('\0') == std::string::npos;
}

TriangleMesh readBinary(const std::string& bytes, const std::string& path) {
  const std::uint32_t count = getLittleEndian32(bytes.data() + 80);
  TriangleMesh mesh;
  mesh.vertices.reserve(3 * std::size_t(count));
  mesh.triangles.reserve(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const char* rec = bytes.data() + kHeaderBytes + kRecordBytes * i;
    const auto base = std::uint32_t(mesh.vertices.size());
    for (int c = 0; c < 3; ++c) {
      Vec3 p(getFloat(rec + 12 + 12 * c), getFloat(rec + 16 + 12 * c), getFloat(rec + 20 + 12 * c));
      if (!p.allFinite())
        throw Error("binary STL triangle " + std::to_string(i) + " has a non-finite coordinate", path);
      mesh.vertices.push_back(p);
    }
    mesh.triangles.push_back({base, base + 1, base + 2});
  }
  return mesh;
}

TriangleMesh readAscii(const std::string& bytes, const std::string& path) {
  meshio::MeshTextLines lines(bytes);
  TriangleMesh mesh;
  std::vector<std::uint32_t> loop;  // vertex indices of the current "outer loop"
  bool inLoop = false;
  std::string_view line;
  auto fail = [&](const std::string& what) { return Error(what, path, lines.lineNumber()); };
  while (lines.next(line)) {
    const auto tok = splitWhitespace(line);
    if (tok.empty()) continue;
    const std::string key = lowerCase(tok[0]);  // some exporters write SOLID, FACET, VERTEX
    if (key == "vertex") {
      if (!inLoop) throw fail("'vertex' outside 'outer loop'");
      if (tok.size() < 4) throw fail("vertex needs three coordinates");
      Vec3 p;
      for (int k = 0; k < 3; ++k) {
        const auto v = parseDouble(tok[k + 1]);
        if (!v) throw fail("vertex coordinate is not a finite number: '" + std::string(tok[k + 1]) + "'");
        p[k] = *v;
      }
      loop.push_back(std::uint32_t(mesh.vertices.size()));
      mesh.vertices.push_back(p);
    } else if (key == "outer") {
      if (inLoop) throw fail("'outer loop' inside another loop");
      inLoop = true;
      loop.clear();
    } else if (key == "endloop") {
      if (!inLoop) throw fail("'endloop' without 'outer loop'");
      if (loop.size() < 3) throw fail("facet loop has fewer than three vertices");
      meshio::appendFan(mesh, loop);
      inLoop = false;
    } else if (key == "facet" || key == "endfacet" || key == "solid" || key == "endsolid") {
      if (inLoop) throw fail("'" + key + "' inside an unfinished 'outer loop'");
    } else {
      throw fail("unexpected '" + std::string(tok[0].substr(0, 40)) + "' in ascii STL");
    }
  }
  if (inLoop) throw fail("truncated ascii STL: file ends inside a facet");
  return mesh;
}

}  // namespace

TriangleMesh readStlMesh(const std::string& path) {
  const std::string bytes = meshio::readFileBytes(path);
  TriangleMesh mesh;
  if (hasBinarySize(bytes)) {
    mesh = readBinary(bytes, path);
  } else if (looksAscii(bytes)) {
    mesh = readAscii(bytes, path);
  } else if (bytes.size() >= kHeaderBytes) {
    const std::uint64_t count = getLittleEndian32(bytes.data() + 80);
    throw Error("not an ascii STL, and as binary STL the header announces " + std::to_string(count) +
                    " triangles (" + std::to_string(kHeaderBytes + kRecordBytes * count) + " bytes) but the file has " +
                    std::to_string(bytes.size()) + " bytes (truncated or not STL)",
                path);
  } else {
    throw Error("not an STL file (too short for binary, no 'solid' keyword)", path);
  }
  meshio::mergeCoincidentVertices(mesh);
  return meshio::finalizeOrThrow(std::move(mesh), path);
}

}  // namespace sg
