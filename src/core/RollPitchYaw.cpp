#include "core/RollPitchYaw.h"

#include <algorithm>
#include <cmath>

namespace sg {

Vec3 rollPitchYaw(const Quat& q) {
  const Mat3 R = q.normalized().toRotationMatrix();
  const double pitch = std::asin(std::clamp(-R(2, 0), -1.0, 1.0));
  if (std::abs(R(2, 0)) > 1.0 - 1e-12) {  // gimbal lock: roll folded into yaw (header)
    return {0.0, pitch, std::atan2(-R(0, 1), R(1, 1))};
  }
  return {std::atan2(R(2, 1), R(2, 2)), pitch, std::atan2(R(1, 0), R(0, 0))};
}

Quat fromRollPitchYaw(const Vec3& rpy_rad) {
  return Quat(Eigen::AngleAxisd(rpy_rad[2], Vec3::UnitZ()) * Eigen::AngleAxisd(rpy_rad[1], Vec3::UnitY()) *
              Eigen::AngleAxisd(rpy_rad[0], Vec3::UnitX()));
}

}  // namespace sg
