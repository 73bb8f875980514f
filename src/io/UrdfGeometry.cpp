#include "io/UrdfGeometry.h"

#include "geometry/ShapeTessellation.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <urdf_model/link.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/Error.h"
#include "geometry/Primitives.h"
#include "io/MeshIO.h"
#include "io/LoadedFiles.h"

namespace sg::urdfio {

namespace {

constexpr double kMetre_mm = 1000.0;

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

}  // namespace

Shape primitiveShape(const urdf::Geometry& geometry) {
  switch (geometry.type) {
    case urdf::Geometry::BOX: {
      const auto& d = static_cast<const urdf::Box&>(geometry).dim;
      return Box{kMetre_mm * Vec3(d.x, d.y, d.z)};
    }
    case urdf::Geometry::CYLINDER: {
      const auto& c = static_cast<const urdf::Cylinder&>(geometry);
      return Cylinder{kMetre_mm * c.radius, kMetre_mm * c.length};
    }
    case urdf::Geometry::SPHERE:
      return Sphere{kMetre_mm * static_cast<const urdf::Sphere&>(geometry).radius};
    case urdf::Geometry::MESH: break;
  }
  throw Error("not a URDF primitive");
}

TriangleMesh primitiveMesh(const urdf::Geometry& geometry) {
  return tessellatePrimitive(Primitive{primitiveShape(geometry), Transform::identity()});
}

TriangleMesh readAssimpMesh(const std::string& path) {
  noteLoadedFile(path);
  Assimp::Importer importer;
  // Vertices as the file has them in its own axes (no Y-up conversion), after Collada's <unit> scale.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices |
                aiProcess_SortByPType);
  if (!scene || !scene->mRootNode) throw Error(std::string("cannot read mesh: ") + importer.GetErrorString(), path);
  TriangleMesh mesh;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* in = scene->mMeshes[m];
    const auto base = static_cast<std::uint32_t>(mesh.vertices.size());
    for (unsigned v = 0; v < in->mNumVertices; ++v)
      mesh.vertices.emplace_back(in->mVertices[v].x, in->mVertices[v].y, in->mVertices[v].z);
    for (unsigned f = 0; f < in->mNumFaces; ++f) {
      const aiFace& face = in->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      mesh.triangles.push_back({base + face.mIndices[0], base + face.mIndices[1], base + face.mIndices[2]});
    }
  }
  try {
    mesh.finalize();
  } catch (const Error& e) {
    throw e.withFile(path);
  }
  return mesh;
}

TriangleMesh readMeshFile(const std::string& path) {
  return lowerExtension(path) == ".dae" ? readAssimpMesh(path) : readMesh(path);
}

}  // namespace sg::urdfio
