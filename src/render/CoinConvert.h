#pragma once
// Conversions between the engine's Eigen types (double, mm) and Coin's float types.
#include <Inventor/SbRotation.h>
#include <Inventor/SbVec3f.h>

#include "core/Transform.h"

namespace sg {

inline SbVec3f toSb(const Vec3& v) {
  return SbVec3f(static_cast<float>(v.x()), static_cast<float>(v.y()), static_cast<float>(v.z()));
}
inline Vec3 fromSb(const SbVec3f& v) { return Vec3(v[0], v[1], v[2]); }

// SbRotation stores (x, y, z, w) like Eigen's coefficients.
inline SbRotation toSb(const Quat& q) {
  const Quat n = q.normalized();
  return SbRotation(static_cast<float>(n.x()), static_cast<float>(n.y()), static_cast<float>(n.z()),
                    static_cast<float>(n.w()));
}
inline Quat fromSb(const SbRotation& r) {
  const float* q = r.getValue();
  return Quat(q[3], q[0], q[1], q[2]).normalized();
}

}  // namespace sg
