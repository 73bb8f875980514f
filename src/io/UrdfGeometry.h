#pragma once
// URDF geometry (internal to src/io, FORMATS.md §URDF): primitives and mesh files as triangle meshes in mm.
#include <string>

#include "geometry/Shapes.h"
#include "geometry/TriangleMesh.h"

namespace urdf {
class Geometry;
}

namespace sg::urdfio {

// A URDF box, cylinder or sphere (dimensions in metres) as the exact shape in mm, centred on its origin
// (cylinder along z, as URDF and src/geometry/Shapes.h both have it).
Shape primitiveShape(const urdf::Geometry& geometry);

// primitiveShape's tessellation (src/geometry/ShapeTessellation.h): what links made of several geometries use.
TriangleMesh primitiveMesh(const urdf::Geometry& geometry);

// A mesh file in its own units (metres for URDF; the caller scales): STL, OBJ, PLY, OFF and Inventor through our
// readers, Collada (.dae) through assimp. Throws sg::Error naming the file.
TriangleMesh readMeshFile(const std::string& path);

// Collada (and whatever else assimp reads) with node transforms baked in; units as in the file after the
// Collada <unit> scale. Throws sg::Error naming the file.
TriangleMesh readAssimpMesh(const std::string& path);

}  // namespace sg::urdfio
