#pragma once
// A cheap certified lower bound on the distance of two meshes beyond a cap (README.md §Separation bound): the
// BVH traversal of a collision test with every box inflated by the cap. Node pairs and triangle pairs whose
// lower bound exceeds the cap are pruned; the smallest pruned bound is the answer. It stops at the first
// triangle pair within the cap (then nothing beyond 0 is certified). Unlike meshDistance it never searches
// for the minimum, so it costs about one collision test. Lengths mm.
#include "core/Transform.h"
#include "geometry/Bvh.h"

namespace sg {

// A lower bound on the distance between `a` and `b`: > cap_mm when every triangle pair is farther apart
// than cap_mm (the smallest pruned bound), 0 when some triangle pair is within cap_mm (or intersects),
// +∞ when a mesh is empty.
double meshSeparationBound(const Bvh& a, const Transform& X_WA, const Bvh& b, const Transform& X_WB, double cap_mm);

}  // namespace sg
