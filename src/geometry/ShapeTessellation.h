#pragma once
// Triangle meshes of the analytic shapes (Shapes.h), for drawing and for queries against meshes
// (README.md §Analytic shapes). Every vertex lies on the exact surface, so a convex shape's tessellation is
// inside the shape. Closed and outward-oriented; the half-space becomes a finite slab whose top face is the
// plane z = 0.
#include "geometry/Shapes.h"
#include "geometry/TriangleMesh.h"

namespace sg {

struct TessellationOptions {
  int segments = 64;                 // around an axis (sphere and ellipsoid: icosphere level from it)
  double halfSpaceExtent_mm = 2000;  // the slab standing for a half-space: extent × extent × extent/20
};

// In the shape frame; finalized.
TriangleMesh tessellateShape(const Shape& shape, const TessellationOptions& options = {});
// In the body frame (the primitive's pose applied); finalized.
TriangleMesh tessellatePrimitive(const Primitive& primitive, const TessellationOptions& options = {});

}  // namespace sg
