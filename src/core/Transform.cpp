#include "core/Transform.h"

#include <cmath>

#include "core/Parse.h"

namespace sg {

Transform::Transform(const Quat& rotation, const Vec3& translation_mm)
    : rotation_(rotation.normalized()), translation_(translation_mm) {}

Transform Transform::fromAxisAngle(const Vec3& axis, double angle_rad) {
  return {Quat(Eigen::AngleAxisd(angle_rad, axis.normalized())), Vec3::Zero()};
}

Transform Transform::fromMatrix(const Mat3& R, const Vec3& t_mm) {
  // Project onto the nearest rotation so slightly non-orthonormal input (printed with few digits) is usable.
  Eigen::JacobiSVD<Mat3> svd(R, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 Rn = svd.matrixU() * svd.matrixV().transpose();
  if (Rn.determinant() < 0) {
    Mat3 U = svd.matrixU();
    U.col(2) *= -1;
    Rn = U * svd.matrixV().transpose();
  }
  return {Quat(Rn), t_mm};
}

Transform Transform::fromMatrix4(const Mat4& m) {
  return fromMatrix(m.topLeftCorner<3, 3>(), m.topRightCorner<3, 1>());
}

Mat4 Transform::matrix() const {
  Mat4 m = Mat4::Identity();
  m.topLeftCorner<3, 3>() = rotationMatrix();
  m.topRightCorner<3, 1>() = translation_;
  return m;
}

Transform Transform::operator*(const Transform& o) const {
  return {rotation_ * o.rotation_, rotation_ * o.translation_ + translation_};
}

Transform Transform::inverse() const {
  Quat inv = rotation_.conjugate();
  return {inv, -(inv * translation_)};
}

bool Transform::isApprox(const Transform& o, double tol) const {
  // q and -q are the same rotation.
  double dq = std::min((rotation_.coeffs() - o.rotation_.coeffs()).norm(),
                       (rotation_.coeffs() + o.rotation_.coeffs()).norm());
  return dq <= tol && (translation_ - o.translation_).norm() <= tol * std::max(1.0, translation_.norm());
}

bool Transform::isFinite() const { return rotation_.coeffs().allFinite() && translation_.allFinite(); }

std::string Transform::toFullTransformString() const {
  const Quat& q = rotation_;
  std::string s = "(";
  for (double v : {q.w(), q.x(), q.y(), q.z()}) s.append(formatSigned(v)).append(" ");
  s.back() = ')';
  s += '[';
  for (int i = 0; i < 3; ++i) s.append(formatSigned(translation_[i])).append(" ");
  s.back() = ']';
  return s;
}

std::optional<Transform> Transform::parseFullTransform(std::string_view text) {
  text = trim(text);
  auto open = text.find('('), close = text.find(')');
  auto sopen = text.find('['), sclose = text.find(']');
  if (open != 0 || close == std::string_view::npos || sopen == std::string_view::npos ||
      sclose == std::string_view::npos || sopen < close || sclose != text.size() - 1)
    return std::nullopt;
  if (!trim(text.substr(close + 1, sopen - close - 1)).empty()) return std::nullopt;
  auto q = parseDoubleList(text.substr(open + 1, close - open - 1));
  auto t = parseDoubleList(text.substr(sopen + 1, sclose - sopen - 1));
  if (!q || !t || q->size() != 4 || t->size() != 3) return std::nullopt;
  Quat quat((*q)[0], (*q)[1], (*q)[2], (*q)[3]);
  if (quat.norm() < 1e-9) return std::nullopt;
  return Transform(quat, Vec3((*t)[0], (*t)[1], (*t)[2]));
}

}  // namespace sg
