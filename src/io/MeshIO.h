#pragma once
// Geometry readers. Every reader returns a finalized mesh in the file's own units (GraspIt! files are mm)
// and throws sg::Error naming the file (and line, for text formats) on bad input. Meshes are indexed:
// duplicate vertices are merged and vertices no triangle uses are dropped (a clean file keeps its order).
#include <optional>
#include <string>
#include <vector>

#include "geometry/Shapes.h"
#include "geometry/TriangleMesh.h"

namespace sg {

enum class MeshFormat { Inventor, Off, Ply, Stl, Obj, Unknown };  // Inventor covers .iv and .wrl (VRML 1/2)

// From a GraspIt! type attribute ("Inventor", "off", "ply"; also "stl", "obj"), case-insensitive;
// empty means Inventor (GraspIt!'s default).
MeshFormat meshFormatFromType(const std::string& typeAttribute);
// From a file extension (.iv .wrl .off .ply .stl .obj), Unknown otherwise.
MeshFormat meshFormatFromPath(const std::string& path);
std::string meshTypeName(MeshFormat f);  // the GraspIt! type attribute to write

// Reads any supported format; format Unknown means "guess from the extension".
TriangleMesh readMesh(const std::string& path, MeshFormat format = MeshFormat::Unknown);

// .iv, VRML 1 and VRML 2 through Coin. In-file transforms, Units and scales are baked in; primitives use
// the file's Complexity. Corners closer than 1e-6 of the model's extent are merged (Coin works in
// single precision), so closed shapes come out closed. Reads are serialised by a lock, but must not
// run concurrently with other Coin use (e.g. rendering) on another thread.
TriangleMesh readInventorMesh(const std::string& path);
// The same mesh, plus the exact primitive when the file's only shape is a Sphere, Cube, or a Cylinder or Cone
// with all parts, under transforms that keep it one (Shapes.h transformedPrimitive: uniform scales; a sphere
// under a non-uniform scale along its axes is an ellipsoid). File frame, in-file transforms baked in.
// `warnings`: "FILE:LINE: texture 'NAME' ..." for every image Coin could not read (missing, or not decodable
// without the simage library). A texture is decoration: it never stops a model from loading.
struct InventorGeometry {
  TriangleMesh mesh;
  std::optional<Primitive> primitive;
  std::vector<std::string> warnings;
};
InventorGeometry readInventorGeometry(const std::string& path);
TriangleMesh readOffMesh(const std::string& path);
TriangleMesh readPlyMesh(const std::string& path);       // ascii and binary (little/big endian)
TriangleMesh readStlMesh(const std::string& path);       // ascii and binary; shared corners merged
TriangleMesh readObjMesh(const std::string& path);

// Writers used by tests, the generator and export (atomic).
void writeOffMesh(const TriangleMesh& mesh, const std::string& path);
void writeBinaryStlMesh(const TriangleMesh& mesh, const std::string& path);
void writeAsciiStlMesh(const TriangleMesh& mesh, const std::string& path);
// PLY with float64 vertices and int32 triangle indices; binary is little-endian.
void writePlyMesh(const TriangleMesh& mesh, const std::string& path, bool binary = true);

}  // namespace sg
