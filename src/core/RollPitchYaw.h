#pragma once
// Roll, pitch and yaw (radians) of a rotation and back, in the convention URDF and the pose editor use:
// R = Rz(yaw)·Ry(pitch)·Rx(roll) (fixed axes x, then y, then z). Pitch is in [−π/2, π/2], roll and yaw in
// (−π, π], so small rotations read as small angles of the right sign. At gimbal lock (pitch = ±π/2) only
// yaw − roll (pitch +π/2) or yaw + roll (pitch −π/2) is defined: roll is reported as 0 and yaw carries it.
#include "core/Math.h"

namespace sg {

// (roll, pitch, yaw) of q (normalised first).
Vec3 rollPitchYaw(const Quat& q);
// The rotation Rz(rpy_rad[2])·Ry(rpy_rad[1])·Rx(rpy_rad[0]).
Quat fromRollPitchYaw(const Vec3& rpy_rad);

}  // namespace sg
