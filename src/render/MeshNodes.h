#pragma once
// Coin geometry for a TriangleMesh: SoShapeHints + SoCoordinate3 + SoIndexedFaceSet under one separator.
#include "geometry/TriangleMesh.h"

class SoSeparator;

namespace sg {

// True if every edge is shared by exactly two triangles with opposite orientation (a closed,
// consistently oriented surface), so back faces can be culled.
bool isClosedMesh(const TriangleMesh& mesh);

// New separator (ref count 0) drawing the mesh in its own frame. Closed meshes get
// SOLID/COUNTERCLOCKWISE shape hints; normals are computed by Coin with a crease angle so flat
// faces stay flat and finely tessellated curves look smooth.
SoSeparator* makeMeshNode(const TriangleMesh& mesh);

}  // namespace sg
