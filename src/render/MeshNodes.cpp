#include "render/MeshNodes.h"

#include <cstdint>
#include <unordered_set>
#include <vector>

#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoNormalBinding.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>

namespace sg {

namespace {
constexpr float kCreaseAngle_rad = 0.5f;  // ~29°: sharper edges stay faceted
}

bool isClosedMesh(const TriangleMesh& mesh) {
  if (mesh.empty()) return false;
  // Each directed edge must appear once and its reverse once.
  auto key = [](std::uint32_t a, std::uint32_t b) { return (std::uint64_t(a) << 32) | b; };
  std::unordered_set<std::uint64_t> directed;
  directed.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      if (!directed.insert(key(t[k], t[(k + 1) % 3])).second) return false;
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k)
      if (!directed.count(key(t[(k + 1) % 3], t[k]))) return false;
  return true;
}

SoSeparator* makeMeshNode(const TriangleMesh& mesh) {
  auto* sep = new SoSeparator;

  auto* hints = new SoShapeHints;
  hints->vertexOrdering = SoShapeHints::COUNTERCLOCKWISE;
  hints->shapeType = isClosedMesh(mesh) ? SoShapeHints::SOLID : SoShapeHints::UNKNOWN_SHAPE_TYPE;
  hints->faceType = SoShapeHints::CONVEX;  // triangles
  hints->creaseAngle = kCreaseAngle_rad;
  sep->addChild(hints);

  auto* coords = new SoCoordinate3;
  std::vector<SbVec3f> points;
  points.reserve(mesh.vertices.size());
  for (const Vec3& v : mesh.vertices)
    points.emplace_back(static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()));
  coords->point.setValues(0, static_cast<int>(points.size()), points.data());
  sep->addChild(coords);

  auto* binding = new SoNormalBinding;  // let Coin generate normals, smoothed below the crease angle
  binding->value = SoNormalBinding::PER_VERTEX_INDEXED;
  sep->addChild(binding);

  auto* faces = new SoIndexedFaceSet;
  std::vector<int32_t> indices;
  indices.reserve(mesh.triangles.size() * 4);
  for (const auto& t : mesh.triangles) {
    indices.push_back(static_cast<int32_t>(t[0]));
    indices.push_back(static_cast<int32_t>(t[1]));
    indices.push_back(static_cast<int32_t>(t[2]));
    indices.push_back(SO_END_FACE_INDEX);
  }
  faces->coordIndex.setValues(0, static_cast<int>(indices.size()), indices.data());
  sep->addChild(faces);
  return sep;
}

}  // namespace sg
