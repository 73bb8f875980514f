#pragma once
// A rigid transform: unit quaternion + translation (mm). Composition a * b applies b first, then a,
// matching GraspIt!'s "A∘B": p_world = R·p + t.
#include <optional>
#include <string>
#include <string_view>

#include "core/Math.h"

namespace sg {

class Transform {
 public:
  Transform() : rotation_(Quat::Identity()), translation_(Vec3::Zero()) {}
  Transform(const Quat& rotation, const Vec3& translation_mm);

  static Transform identity() { return {}; }
  static Transform fromTranslation(const Vec3& t_mm) { return {Quat::Identity(), t_mm}; }
  static Transform fromRotation(const Quat& q) { return {q, Vec3::Zero()}; }
  static Transform fromAxisAngle(const Vec3& axis, double angle_rad);
  // From a rotation matrix (orthonormalised) and translation.
  static Transform fromMatrix(const Mat3& R, const Vec3& t_mm);
  static Transform fromMatrix4(const Mat4& m);

  const Quat& rotation() const { return rotation_; }
  const Vec3& translation() const { return translation_; }
  Mat3 rotationMatrix() const { return rotation_.toRotationMatrix(); }
  Mat4 matrix() const;

  void setRotation(const Quat& q) { rotation_ = q.normalized(); }
  void setTranslation(const Vec3& t_mm) { translation_ = t_mm; }

  Transform operator*(const Transform& other) const;
  Vec3 operator*(const Vec3& point) const { return rotation_ * point + translation_; }
  Vec3 applyToVector(const Vec3& v) const { return rotation_ * v; }
  Transform inverse() const;

  bool isApprox(const Transform& other, double tol = 1e-9) const;
  bool isFinite() const;

  // GraspIt! fullTransform text "(qw qx qy qz)[tx ty tz]" (quaternion w first), signs always printed.
  std::string toFullTransformString() const;
  static std::optional<Transform> parseFullTransform(std::string_view text);

 private:
  Quat rotation_;
  Vec3 translation_;
};

}  // namespace sg
