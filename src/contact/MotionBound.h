#pragma once
// How far any point of a body can have moved between two poses, for skipping pair queries that cannot find
// anything (src/contact/README.md §Pair screening, §Contact cache): a ball (body frame) holding everything the
// pair queries may use of the body, and the largest displacement of a point of that ball under a rigid motion.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <variant>

#include "core/Transform.h"
#include "geometry/Bvh.h"
#include "geometry/Shapes.h"

namespace sg {

// Half extents (shape frame, centred on its origin) of a box holding a finite shape; nullopt for a half-space.
inline std::optional<Vec3> shapeHalfExtents(const Shape& shape) {
  return std::visit(
      [](const auto& s) -> std::optional<Vec3> {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, Sphere>) return Vec3::Constant(s.radius_mm);
        else if constexpr (std::is_same_v<S, Ellipsoid>) return s.semiAxes_mm.cwiseAbs();
        else if constexpr (std::is_same_v<S, Cylinder> || std::is_same_v<S, Cone>)
          return Vec3(s.radius_mm, s.radius_mm, 0.5 * s.height_mm);
        else if constexpr (std::is_same_v<S, Box>) return s.halfExtents_mm().cwiseAbs();
        else if constexpr (std::is_same_v<S, Torus>)
          return Vec3(s.majorRadius_mm + s.minorRadius_mm, s.majorRadius_mm + s.minorRadius_mm, s.minorRadius_mm);
        else if constexpr (std::is_same_v<S, Capsule>)
          return Vec3(s.radius_mm, s.radius_mm, 0.5 * s.length_mm + s.radius_mm);
        else return std::nullopt;  // HalfSpace
      },
      shape);
}

// A ball (body frame) holding everything the pair queries may use of a body: its mesh (the BVH root's
// sphere) and its primitive (the sphere around the primitive's box); `unbounded` for a half-space. BallT has
// the members center, radius_mm and unbounded.
template <typename BallT>
BallT ballOf(const Bvh& bvh, const Primitive* primitive) {
  BallT ball;
  bool any = false;
  if (!bvh.empty()) {
    const BvhBox& root = bvh.nodes().front().box;
    ball.center = root.center;
    ball.radius_mm = std::max(root.radius, root.halfExtents.norm());
    any = true;
  }
  if (primitive) {
    const auto half = shapeHalfExtents(primitive->shape);
    if (!half || !half->allFinite()) {
      ball.unbounded = true;
      return ball;
    }
    const Vec3 c = primitive->X_BS.translation();
    if (!any) ball.center = c;
    ball.radius_mm = std::max(ball.radius_mm, (c - ball.center).norm() + half->norm());
  }
  ball.radius_mm *= 1 + 1e-9;
  return ball;
}

// sin(θ/2) of the rotation between unit quaternions q0 and q1 (θ the angle of R0ᵀR1): |vec(q0* q1)|, of
// which only the vector part is formed.
inline double sinHalfAngle(const Quat& q0, const Quat& q1) {
  const Vec3 v0 = q0.vec(), v1 = q1.vec();
  return (q0.w() * v1 - q1.w() * v0 - v0.cross(v1)).norm();
}

// The largest distance any point of a ball (radius r) moves when its centre moves by `centreShift` and its
// body turns by θ: the centre's displacement plus ‖R1 − R0‖·r = 2·sin(θ/2)·r (∞ when not finite).
inline double maxDisplacement(double centreShift, double sinHalf, double radius_mm) {
  const double m = centreShift + 2 * sinHalf * radius_mm;
  return std::isfinite(m) ? m : std::numeric_limits<double>::infinity();
}

}  // namespace sg
