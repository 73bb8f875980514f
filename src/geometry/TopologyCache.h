#pragma once
// One MeshTopology per BVH, built on first use and shared by every caller (the planner's evaluators: the search's
// per thread and the final stage's), as BvhCache.h keeps one BVH per mesh. Thread-safe.
#include <memory>

#include "geometry/MeshTopology.h"

namespace sg {

// makeMeshTopology(*bvh), built once per BVH: the BVH's address with a weak reference, so a freed BVH whose
// address is reused is not mistaken for it. Null BVH → null.
std::shared_ptr<const MeshTopology> topologyFor(const std::shared_ptr<const Bvh>& bvh);

}  // namespace sg
