#pragma once
// Minimal mesh writers for the model zoo generator (independent of src/io on purpose: the generator only
// needs sg_geometry). Every writer throws std::runtime_error naming the file when it cannot write.
#include <string>

#include "geometry/TriangleMesh.h"

namespace sg::zoo {

struct IvAppearance {
  Vec3 diffuseRgb = Vec3(0.8, 0.8, 0.8);
  double transparency = 0.0;
  double shininess = 0.2;
};

// Open Inventor 2.1 ascii: Material, ShapeHints (solid, counter-clockwise), Coordinate3, IndexedFaceSet.
void writeInventor(const TriangleMesh& mesh, const std::string& path, const IvAppearance& look,
                   const std::string& comment);
void writeOff(const TriangleMesh& mesh, const std::string& path, const std::string& comment);
void writePlyAscii(const TriangleMesh& mesh, const std::string& path, const std::string& comment);
void writePlyBinaryLittleEndian(const TriangleMesh& mesh, const std::string& path, const std::string& comment);
void writeStlAscii(const TriangleMesh& mesh, const std::string& path, const std::string& solidName);
void writeObj(const TriangleMesh& mesh, const std::string& path, const std::string& comment);

// Writes `text` to `path` (used for the generated body and world XML files).
void writeText(const std::string& text, const std::string& path);

}  // namespace sg::zoo
