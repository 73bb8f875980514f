// Placeholder, replaced by the real writers shortly.
#include "io/MeshIO.h"
#include "core/Error.h"

namespace sg {

void writeOffMesh(const TriangleMesh&, const std::string& path) { throw Error("not implemented yet", path); }
void writeBinaryStlMesh(const TriangleMesh&, const std::string& path) { throw Error("not implemented yet", path); }

}  // namespace sg
