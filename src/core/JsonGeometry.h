#pragma once
// Engine types as sg::Json values (core/Json.h), units in the keys the callers choose: the building blocks of
// every JSON document SoftGrasp writes (analysis reports, CLI output). Non-finite numbers become null.
#include <cstddef>
#include <string>
#include <vector>

#include "core/Json.h"
#include "core/Math.h"
#include "core/Transform.h"

namespace sg {

Json jsonCount(std::size_t n);                   // a count or an index as a JSON number
Json jsonVec(const Vec3& v);                     // [x, y, z]
Json jsonVec6(const Vec6& v);                    // [v0 .. v5]
Json jsonVec6List(const std::vector<Vec6>& list);
Json jsonNumbers(const std::vector<double>& values);
Json jsonStrings(const std::vector<std::string>& values);
Json jsonQuatWxyz(const Quat& q);                // [w, x, y, z]
Json jsonMatrixRows(const Mat3& m);              // [[row 0], [row 1], [row 2]]
// {"position_mm": [...], "quaternion_wxyz": [...], "rotation": rows, "fullTransform": "(w x y z)[x y z]"}
Json jsonPose(const Transform& pose);

}  // namespace sg
