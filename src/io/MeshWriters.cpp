// OFF and binary STL writers. Both write to a temporary file in the target's directory and rename it
// over the target, so a reader never sees a half-written file.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <unistd.h>

#include "core/Parse.h"
#include "io/MeshIO.h"
#include "io/MeshReaderSupport.h"

namespace sg {

namespace {

std::string temporarySibling(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// Calls fill(stream) on a temporary sibling of `path`, then renames it over `path`.
template <class Fill>
void writeAtomically(const std::string& path, Fill fill) {
  const std::string tmp = temporarySibling(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot create file for writing", tmp);
    fill(out);
    out.flush();
    if (!out) {
      out.close();
      std::error_code ignored;
      std::filesystem::remove(tmp, ignored);
      throw Error("write failed", path);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw Error("cannot replace file: " + ec.message(), path);
  }
}

void putLittleEndian32(char* dst, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) dst[i] = char((v >> (8 * i)) & 0xffu);
}

void putFloat(char* dst, double value) {
  const float f = static_cast<float>(value);
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  putLittleEndian32(dst, bits);
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
  Vec3 n = (mesh.vertices[t[1]] - mesh.vertices[t[0]]).cross(mesh.vertices[t[2]] - mesh.vertices[t[0]]);
  return n.norm() > 0 ? Vec3(n.normalized()) : n;
}

}  // namespace

void writeOffMesh(const TriangleMesh& mesh, const std::string& path) {
  checkIndices(mesh, path);
  writeAtomically(path, [&](std::ostream& out) {
    out << "OFF\n" << mesh.vertices.size() << ' ' << mesh.triangles.size() << " 0\n";
    for (const auto& v : mesh.vertices)
      out << formatDouble(v.x()) << ' ' << formatDouble(v.y()) << ' ' << formatDouble(v.z()) << '\n';
    for (const auto& t : mesh.triangles) out << "3 " << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
  });
}

void writeBinaryStlMesh(const TriangleMesh& mesh, const std::string& path) {
  if (mesh.triangles.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error("too many triangles for binary STL", path);
  checkIndices(mesh, path);
  writeAtomically(path, [&](std::ostream& out) {
    char header[84] = {};
    std::strncpy(header, "binary STL written by SoftGrasp (units: mm)", 80);
    putLittleEndian32(header + 80, std::uint32_t(mesh.triangles.size()));
    out.write(header, sizeof header);
    char record[50];
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
      const auto& t = mesh.triangles[i];
      const Vec3 n = triangleNormal(mesh, i);
      for (int k = 0; k < 3; ++k) putFloat(record + 4 * k, n[k]);
      for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k) putFloat(record + 12 + 12 * c + 4 * k, mesh.vertices[t[c]][k]);
      record[48] = record[49] = 0;
      out.write(record, sizeof record);
    }
  });
}

void writeAsciiStlMesh(const TriangleMesh& mesh, const std::string& path) {
  checkIndices(mesh, path);
  writeAtomically(path, [&](std::ostream& out) {
    out << "solid softgrasp\n";
    for (std::size_t i = 0; i < mesh.triangles.size(); ++i) {
      const Vec3 n = triangleNormal(mesh, i);
      out << "  facet normal " << formatDouble(n.x()) << ' ' << formatDouble(n.y()) << ' ' << formatDouble(n.z())
          << "\n    outer loop\n";
      for (auto vi : mesh.triangles[i]) {
        const Vec3& v = mesh.vertices[vi];
        out << "      vertex " << formatDouble(v.x()) << ' ' << formatDouble(v.y()) << ' ' << formatDouble(v.z())
            << '\n';
      }
      out << "    endloop\n  endfacet\n";
    }
    out << "endsolid softgrasp\n";
  });
}

void writePlyMesh(const TriangleMesh& mesh, const std::string& path, bool binary) {
  checkIndices(mesh, path);
  if (mesh.vertices.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw Error("too many vertices for PLY int32 indices", path);
  writeAtomically(path, [&](std::ostream& out) {
    out << "ply\nformat " << (binary ? "binary_little_endian" : "ascii") << " 1.0\n"
        << "comment written by SoftGrasp (units: mm)\n"
        << "element vertex " << mesh.vertices.size() << "\n"
        << "property double x\nproperty double y\nproperty double z\n"
        << "element face " << mesh.triangles.size() << "\n"
        << "property list uchar int vertex_indices\nend_header\n";
    if (!binary) {
      for (const auto& v : mesh.vertices)
        out << formatDouble(v.x()) << ' ' << formatDouble(v.y()) << ' ' << formatDouble(v.z()) << '\n';
      for (const auto& t : mesh.triangles) out << "3 " << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
      return;
    }
    char buf[13];
    for (const auto& v : mesh.vertices)
      for (int k = 0; k < 3; ++k) {
        std::uint64_t bits;
        const double d = v[k];
        std::memcpy(&bits, &d, 8);
        for (int b = 0; b < 8; ++b) buf[b] = char((bits >> (8 * b)) & 0xffu);
        out.write(buf, 8);
      }
    buf[0] = 3;
    for (const auto& t : mesh.triangles) {
      for (int c = 0; c < 3; ++c) putLittleEndian32(buf + 1 + 4 * c, t[c]);
      out.write(buf, 13);
    }
  });
}

}  // namespace sg
