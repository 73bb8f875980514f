// OFF, STL and PLY writers. The file is assembled in memory and written atomically (AtomicFile.h), so a
// reader never sees a half-written file. Numbers are written locale-independently and round-trip exactly
// (OFF, ascii STL/PLY text; PLY binary doubles); binary STL stores float32 as the format demands.
#include <cstdint>
#include <cstring>
#include <limits>
#include <locale>
#include <sstream>
#include <string>

#include "core/Error.h"
#include "core/Parse.h"
#include "io/AtomicFile.h"
#include "io/MeshIO.h"

namespace sg {

namespace {

void putLittleEndian32(char* dst, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) dst[i] = char((v >> (8 * i)) & 0xffu);
}

void putFloat32(char* dst, double value) {
  const float f = static_cast<float>(value);
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  putLittleEndian32(dst, bits);
}

void putFloat64(char* dst, double value) {
  std::uint64_t bits;
  std::memcpy(&bits, &value, 8);
  for (int i = 0; i < 8; ++i) dst[i] = char((bits >> (8 * i)) & 0xffu);
}

void checkIndices(const TriangleMesh& mesh, const std::string& path) {
  for (const auto& t : mesh.triangles)
    if (t[0] >= mesh.vertices.size() || t[1] >= mesh.vertices.size() || t[2] >= mesh.vertices.size())
      throw Error("mesh triangle index out of range, nothing written", path);
}

// Unit normal of triangle i: the stored one if finalize() ran, else computed.
Vec3 triangleNormal(const TriangleMesh& mesh, std::size_t i) {
  if (i < mesh.faceNormals.size()) return mesh.faceNormals[i];
  const auto& t = mesh.triangles[i];
  const Vec3 n = (mesh.vertices[t[1]] - mesh.vertices[t[0]]).cross(mesh.vertices[t[2]] - mesh.vertices[t[0]]);
  return n.norm() > 0 ? Vec3(n.normalized()) : n;
}

std::string pointText(const Vec3& p) {
  return formatDouble(p.x()) + ' ' + formatDouble(p.y()) + ' ' + formatDouble(p.z());
}

std::ostringstream textStream() {
  std::ostringstream out;
  out.imbue(std::locale::classic());  // integers without thousands separators
  return out;
}

}  // namespace

void writeOffMesh(const TriangleMesh& mesh, const std::string& path) {
  checkIndices(mesh, path);
  std::ostringstream out = textStream();
  out << "OFF\n" << mesh.vertices.size() << ' ' << mesh.triangles.size() << " 0\n";
  for (const auto& v : mesh.vertices) out << pointText(v) << '\n';
  for (const auto& t : mesh.triangles) out << "3 " << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
  writeFileAtomically(path, out.view());
}

void writeBinaryStlMesh(const TriangleMesh& mesh, const std::string& path) {
  if (mesh.triangles.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error("too many triangles for binary STL", path);
  checkIndices(mesh, path);
  std::string bytes(84 + 50 * mesh.triangles.size(), '\0');
  std::strncpy(bytes.data(), "binary STL written by SoftGrasp (units: mm)", 80);
  putLittleEndian32(bytes.data() + 80, std::uint32_t(mesh.triangles.size()));
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
    char* record = bytes.data() + 84 + 50 * i;  // normal, three corners, 2-byte attribute (left 0)
    const auto& t = mesh.triangles[i];
    const Vec3 n = triangleNormal(mesh, i);
    for (int k = 0; k < 3; ++k) putFloat32(record + 4 * k, n[k]);
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) putFloat32(record + 12 + 12 * c + 4 * k, mesh.vertices[t[c]][k]);
  }
  writeFileAtomically(path, bytes);
}

void writeAsciiStlMesh(const TriangleMesh& mesh, const std::string& path) {
  checkIndices(mesh, path);
  std::ostringstream out = textStream();
  out << "solid softgrasp\n";
  for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
    out << "  facet normal " << pointText(triangleNormal(mesh, i)) << "\n    outer loop\n";
    for (auto vi : mesh.triangles[i]) out << "      vertex " << pointText(mesh.vertices[vi]) << '\n';
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid softgrasp\n";
  writeFileAtomically(path, out.view());
}

void writePlyMesh(const TriangleMesh& mesh, const std::string& path, bool binary) {
  checkIndices(mesh, path);
  if (mesh.vertices.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw Error("too many vertices for PLY int32 indices", path);
  std::ostringstream out = textStream();
  out << "ply\nformat " << (binary ? "binary_little_endian" : "ascii") << " 1.0\n"
      << "comment written by SoftGrasp (units: mm)\n"
      << "element vertex " << mesh.vertices.size() << "\n"
      << "property double x\nproperty double y\nproperty double z\n"
      << "element face " << mesh.triangles.size() << "\n"
      << "property list uchar int vertex_indices\nend_header\n";
  if (binary) {
    char buf[24];
    for (const auto& v : mesh.vertices) {
      for (int k = 0; k < 3; ++k) putFloat64(buf + 8 * k, v[k]);
      out.write(buf, 24);
    }
    buf[0] = 3;
    for (const auto& t : mesh.triangles) {
      for (int c = 0; c < 3; ++c) putLittleEndian32(buf + 1 + 4 * c, t[c]);
      out.write(buf, 13);
    }
  } else {
    for (const auto& v : mesh.vertices) out << pointText(v) << '\n';
    for (const auto& t : mesh.triangles) out << "3 " << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
  }
  writeFileAtomically(path, out.view());
}

}  // namespace sg
