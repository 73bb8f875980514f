#pragma once
// Convex pieces of a triangle mesh for MuJoCo, which collides a mesh geom as its convex hull
// (README.md §Geometry): Bullet's HACD (hierarchical approximate convex decomposition, Debian
// libbullet-extras-dev) splits a non-convex mesh (the mug) into pieces; a convex mesh stays one piece.
// Each connected component is a piece of its own when it is convex; HACD splits only the components that are not.
// Results are cached per mesh object, so a batch of trials decomposes each mesh once.
#include <array>
#include <memory>
#include <optional>

#include <vector>

#include "core/Transform.h"
#include "geometry/Shapes.h"
#include "geometry/TriangleMesh.h"

namespace sg::sim {

// One convex hull: its vertices (mesh frame, mm) and triangles, counter-clockwise seen from outside. MuJoCo gets
// the triangles too, so it does not run its own hull (README.md §Geometry: its qhull would meet libqhullcpp's).
struct ConvexPiece {
  std::vector<Vec3> vertices;
  std::vector<std::array<int, 3>> triangles;
  // Set when the piece is the tessellation of a box, sphere or cylinder (PrimitiveFit.h), posed in the mesh
  // frame: MuJoCo collides it as that primitive (README.md §Geometry).
  std::optional<Primitive> primitive;
  double primitiveDeviation_mm = 0;  // FittedPrimitive::deviation_mm
};

struct ConvexPieces {
  std::vector<ConvexPiece> pieces;
  double meshVolume_mm3 = 0;              // volume the mesh encloses (0 for an open mesh)
  double piecesVolume_mm3 = 0;            // sum of the pieces' hull volumes (overlaps counted twice)
  // (piecesVolume − meshVolume) / meshVolume: how much volume the convex pieces add; 0 for an open mesh.
  double volumeError() const;
};

struct DecompositionSettings {
  double concavity = 0.02;        // largest concavity a piece may keep, as a fraction of the mesh's diagonal
  int maxVerticesPerPiece = 64;
  // A piece becomes a sphere or cylinder when that primitive lies within this fraction of its radius of the
  // piece's faces (PrimitiveFit.h; README.md §Geometry gives the bundled meshes' figures). 0: boxes only.
  double primitiveTolerance = 0.03;
};

// The convex pieces of `mesh`; a cached result when this mesh object was decomposed before with the same
// settings. Throws sg::Error for an empty mesh.
std::shared_ptr<const ConvexPieces> convexPieces(const std::shared_ptr<const TriangleMesh>& mesh,
                                                 const DecompositionSettings& settings = {});

}  // namespace sg::sim
