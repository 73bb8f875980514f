#pragma once
// Eigen-based math types used throughout the engine. Lengths are millimetres unless a name says otherwise.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace sg {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Vec4 = Eigen::Vector4d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
using Quat = Eigen::Quaterniond;
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

constexpr double kPi = 3.14159265358979323846;
inline constexpr double degToRad(double deg) { return deg * kPi / 180.0; }
inline constexpr double radToDeg(double rad) { return rad * 180.0 / kPi; }

inline bool allFinite(const Eigen::Ref<const MatX>& m) { return m.allFinite(); }

}  // namespace sg
