#pragma once
// URDF geometry (internal to src/io, FORMATS.md §URDF): primitives and mesh files as triangle meshes in mm.
#include <string>

#include "geometry/TriangleMesh.h"

namespace urdf {
class Geometry;
}

namespace sg::urdfio {

// A URDF box, cylinder or sphere (dimensions in metres) as a tessellated mesh in mm, centred on its origin
// (cylinder along z). The one place to switch to exact primitives once the geometry layer has them.
TriangleMesh primitiveMesh(const urdf::Geometry& geometry);

// A mesh file in its own units (metres for URDF; the caller scales): STL, OBJ, PLY, OFF and Inventor through our
// readers, Collada (.dae) through assimp. Throws sg::Error naming the file.
TriangleMesh readMeshFile(const std::string& path);

// Collada (and whatever else assimp reads) with node transforms baked in; units as in the file after the
// Collada <unit> scale. Throws sg::Error naming the file.
TriangleMesh readAssimpMesh(const std::string& path);

}  // namespace sg::urdfio
