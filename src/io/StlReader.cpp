// Placeholder, replaced by the real reader shortly.
#include "io/MeshIO.h"
#include "core/Error.h"

namespace sg {

TriangleMesh readStlMesh(const std::string& path) { throw Error("not implemented yet", path); }

}  // namespace sg
