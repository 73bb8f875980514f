#include "contact/Contact.h"

#include <cmath>

namespace sg {

Transform contactFrame(const Vec3& p, const Vec3& nIn) {
  const Vec3 n = nIn.normalized();
  Vec3 x = n.cross(Vec3::UnitX());
  if (x.norm() < 1e-9) x = n.cross(Vec3::UnitZ());
  x.normalize();
  const Vec3 y = n.cross(x).normalized();
  Mat3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = n;
  return Transform(Quat(R), p);
}

}  // namespace sg
