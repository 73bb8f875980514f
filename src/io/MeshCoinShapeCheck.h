#pragma once
// Private to CoinMeshReader.cpp: checks a vertex-based shape's indices and counts against the
// coordinates, normals and texture coordinates it will read, before Coin generates its primitives.
// Coin does not check them and reads out of bounds (a crash) on, e.g., a coordIndex past the end of
// Coordinate3 or a normalIndex past the end of Normal.
#include <algorithm>
#include <string>

#include <Inventor/actions/SoCallbackAction.h>
#include <Inventor/fields/SoMFInt32.h>
#include <Inventor/nodes/SoFaceSet.h>
#include <Inventor/nodes/SoIndexedShape.h>
#include <Inventor/nodes/SoLineSet.h>
#include <Inventor/nodes/SoNonIndexedShape.h>
#include <Inventor/nodes/SoPointSet.h>
#include <Inventor/nodes/SoQuadMesh.h>
#include <Inventor/nodes/SoTriangleStripSet.h>
#include <Inventor/nodes/SoVertexProperty.h>
#include <Inventor/nodes/SoVertexShape.h>
#include <Inventor/VRMLnodes/SoVRMLCoordinate.h>
#include <Inventor/VRMLnodes/SoVRMLElevationGrid.h>
#include <Inventor/VRMLnodes/SoVRMLIndexedShape.h>
#include <Inventor/VRMLnodes/SoVRMLNormal.h>
#include <Inventor/VRMLnodes/SoVRMLTextureCoordinate.h>

namespace sg::meshio {

// "" if every value of `indices` is -1 (a separator) or in [0, available); else a description.
inline std::string checkIndexField(const SoMFInt32& indices, long available, const char* what) {
  const int32_t* v = indices.getValues(0);
  for (int i = 0; i < indices.getNum(); ++i)
    if (v[i] < -1 || v[i] >= available)
      return std::string(what) + " value " + std::to_string(v[i]) + " at position " + std::to_string(i) +
             " is out of range (" + std::to_string(available) + " available)";
  return {};
}

// True when `indices` is empty or Coin's default single -1, both meaning "follow coordIndex".
inline bool followsCoordIndex(const SoMFInt32& indices) {
  return indices.getNum() == 0 || (indices.getNum() == 1 && indices[0] == -1);
}

// Total vertices consumed by a numVertices field where -1 means "the rest"; -1 on a bad entry.
inline long consumedVertices(const SoMFInt32& numVertices, long start, long available) {
  long total = 0;
  for (int i = 0; i < numVertices.getNum(); ++i) {
    const int32_t n = numVertices[i];
    if (n == -1) total = std::max(total, available - start);
    else if (n < 0) return -1;
    else total += n;
  }
  return total;
}

// "" unless a face (FaceSet) or strip (TriangleStripSet) of `numVertices` has fewer than 3 vertices ("-1": the
// rest of the coordinates), which Coin does not reject: it dereferences a null pointer on a face of 1 or 2
// vertices, or of 0 followed by another, and loops, allocating without end, on such a strip (found by
// fuzz_inventor and tests/io/malformed).
inline std::string shortPolygonProblem(const SoMFInt32& numVertices, long start, long available, const char* what) {
  long consumed = 0;
  for (int i = 0; i < numVertices.getNum(); ++i) {
    const long n = numVertices[i] == -1 ? available - start - consumed : numVertices[i];
    if (n >= 0 && n < 3)
      return std::string(what) + " " + std::to_string(i) + " has " + std::to_string(n) +
             (n == 1 ? " vertex" : " vertices") + " (at least 3 needed)";
    consumed += std::max(0L, n);
  }
  return {};
}

// Coordinates, normals and normal binding an Inventor vertex shape reads: its own vertexProperty's
// where set, else the traversal state's.
struct InventorVertexData {
  long coordinates = 0;
  long normals = 0;
  SoNormalBinding::Binding normalBinding = SoNormalBinding::DEFAULT;
};

inline InventorVertexData inventorVertexData(SoCallbackAction* action, const SoVertexShape* shape) {
  InventorVertexData d{action->getNumCoordinates(), long(action->getNumNormals()), action->getNormalBinding()};
  if (const SoNode* vpNode = shape->vertexProperty.getValue();
      vpNode && vpNode->isOfType(SoVertexProperty::getClassTypeId())) {
    const auto* vp = static_cast<const SoVertexProperty*>(vpNode);
    if (vp->vertex.getNum() > 0) d.coordinates = vp->vertex.getNum();
    if (vp->normal.getNum() > 0) {
      d.normals = vp->normal.getNum();
      // SoVertexProperty::Binding uses the same values as SoNormalBinding::Binding.
      d.normalBinding = static_cast<SoNormalBinding::Binding>(vp->normalBinding.getValue());
    }
  }
  return d;
}

inline std::string inventorIndexedShapeProblem(const SoIndexedShape* s, const InventorVertexData& d) {
  if (auto p = checkIndexField(s->coordIndex, d.coordinates, "coordIndex"); !p.empty()) return p;
  if (d.normals <= 0) return {};  // Coin generates its own normals
  const bool indexed = d.normalBinding == SoNormalBinding::PER_VERTEX_INDEXED ||
                       d.normalBinding == SoNormalBinding::PER_FACE_INDEXED ||
                       d.normalBinding == SoNormalBinding::PER_PART_INDEXED;
  if (!indexed) return {};
  if (!followsCoordIndex(s->normalIndex)) return checkIndexField(s->normalIndex, d.normals, "normalIndex");
  if (d.normalBinding == SoNormalBinding::PER_VERTEX_INDEXED)
    return checkIndexField(s->coordIndex, d.normals, "coordIndex (used as normal index)");
  return {};
}

inline std::string inventorShapeProblem(SoCallbackAction* action, const SoVertexShape* shape) {
  const InventorVertexData d = inventorVertexData(action, shape);
  if (shape->isOfType(SoIndexedShape::getClassTypeId()))
    return inventorIndexedShapeProblem(static_cast<const SoIndexedShape*>(shape), d);
  if (!shape->isOfType(SoNonIndexedShape::getClassTypeId())) return {};
  const long start = static_cast<const SoNonIndexedShape*>(shape)->startIndex.getValue();
  if (start < 0 || start > d.coordinates) return "startIndex " + std::to_string(start) + " is out of range";
  long used = 0;
  if (shape->isOfType(SoFaceSet::getClassTypeId())) {
    const SoMFInt32& numVertices = static_cast<const SoFaceSet*>(shape)->numVertices;
    if (auto p = shortPolygonProblem(numVertices, start, d.coordinates, "face"); !p.empty()) return p;
    used = consumedVertices(numVertices, start, d.coordinates);
  } else if (shape->isOfType(SoTriangleStripSet::getClassTypeId())) {
    const SoMFInt32& numVertices = static_cast<const SoTriangleStripSet*>(shape)->numVertices;
    if (auto p = shortPolygonProblem(numVertices, start, d.coordinates, "strip"); !p.empty()) return p;
    used = consumedVertices(numVertices, start, d.coordinates);
  }
  else if (shape->isOfType(SoLineSet::getClassTypeId()))
    used = consumedVertices(static_cast<const SoLineSet*>(shape)->numVertices, start, d.coordinates);
  else if (shape->isOfType(SoQuadMesh::getClassTypeId())) {
    const auto* q = static_cast<const SoQuadMesh*>(shape);
    const long rows = q->verticesPerColumn.getValue(), columns = q->verticesPerRow.getValue();
    used = rows < 0 || columns < 0 ? -1 : rows * columns;
  } else if (shape->isOfType(SoPointSet::getClassTypeId())) {
    const long n = static_cast<const SoPointSet*>(shape)->numPoints.getValue();
    used = n == -1 ? d.coordinates - start : n < 0 ? -1 : n;
  }
  if (used < 0) return "negative vertex count";
  if (start + used > d.coordinates)
    return "uses " + std::to_string(used) + " vertices from index " + std::to_string(start) + " but only " +
           std::to_string(d.coordinates) + " coordinates are available";
  return {};
}

inline std::string vrmlShapeProblem(const SoNode* shape) {
  if (shape->isOfType(SoVRMLIndexedShape::getClassTypeId())) {
    const auto* s = static_cast<const SoVRMLIndexedShape*>(shape);
    long coords = 0;
    if (const SoNode* c = s->coord.getValue(); c && c->isOfType(SoVRMLCoordinate::getClassTypeId()))
      coords = static_cast<const SoVRMLCoordinate*>(c)->point.getNum();
    if (auto p = checkIndexField(s->coordIndex, coords, "coordIndex"); !p.empty()) return p;
    if (const SoNode* n = s->normal.getValue(); n && n->isOfType(SoVRMLNormal::getClassTypeId())) {
      const long normals = static_cast<const SoVRMLNormal*>(n)->vector.getNum();
      if (!followsCoordIndex(s->normalIndex)) {
        if (auto p = checkIndexField(s->normalIndex, normals, "normalIndex"); !p.empty()) return p;
      } else if (s->normalPerVertex.getValue()) {
        if (auto p = checkIndexField(s->coordIndex, normals, "coordIndex (used as normal index)"); !p.empty())
          return p;
      }
    }
    if (const SoNode* t = s->texCoord.getValue(); t && t->isOfType(SoVRMLTextureCoordinate::getClassTypeId())) {
      const long texCoords = static_cast<const SoVRMLTextureCoordinate*>(t)->point.getNum();
      const SoMFInt32& idx = followsCoordIndex(s->texCoordIndex) ? s->coordIndex : s->texCoordIndex;
      if (auto p = checkIndexField(idx, texCoords, "texCoordIndex"); !p.empty()) return p;
    }
    return {};
  }
  if (shape->isOfType(SoVRMLElevationGrid::getClassTypeId())) {
    const auto* g = static_cast<const SoVRMLElevationGrid*>(shape);
    const long x = g->xDimension.getValue(), z = g->zDimension.getValue();
    if (x < 0 || z < 0 || long(g->height.getNum()) < x * z)
      return "ElevationGrid needs " + std::to_string(x) + "x" + std::to_string(z) + " heights, has " +
             std::to_string(g->height.getNum());
  }
  return {};
}

}  // namespace sg::meshio
