#pragma once
// One BVH per mesh, built on first use. Bodies share meshes through shared_ptr<const TriangleMesh>, so the
// mesh address identifies the geometry; a weak reference detects a freed mesh whose address is reused.
// Thread-safe.
#include <memory>

#include "geometry/Bvh.h"

namespace sg {

// The BVH of `mesh` (default options), building it if needed. Null mesh → empty BVH.
std::shared_ptr<const Bvh> bvhFor(const std::shared_ptr<const TriangleMesh>& mesh);
// Drops every cached BVH (tests, or after editing meshes in place).
void clearBvhCache();
std::size_t bvhCacheSize();

}  // namespace sg
