#include "contact/ContactMotion.h"

#include <algorithm>

namespace sg {

bool preventsMotion(const ContactSide& side, const Transform& from, const Transform& to, double tolerance) {
  const Vec3 carried = to * (from.inverse() * side.p_WC_mm);
  return (carried - side.p_WC_mm).dot(side.n_W) < -tolerance;
}

bool anyContactPreventsMotion(const std::vector<Contact>& contacts, const std::vector<BodyHandle>& moving,
                              const std::vector<Transform>& from, const std::vector<Transform>& to) {
  auto indexOf = [&](const BodyHandle& h) -> int {
    const auto it = std::find(moving.begin(), moving.end(), h);
    return it == moving.end() ? -1 : static_cast<int>(it - moving.begin());
  };
  for (const auto& c : contacts) {
    const int i1 = indexOf(c.side1.body), i2 = indexOf(c.side2.body);
    if (i1 >= 0 && i2 >= 0) {
      // Both move: judge the relative motion of side 1 with respect to side 2's body.
      const Transform rel1 = to[i2] * from[i2].inverse();
      const Transform to1 = rel1.inverse() * to[i1];
      if (preventsMotion(c.side1, from[i1], to1)) return true;
      continue;
    }
    if (i1 >= 0 && preventsMotion(c.side1, from[i1], to[i1])) return true;
    if (i2 >= 0 && preventsMotion(c.side2, from[i2], to[i2])) return true;
  }
  return false;
}

}  // namespace sg
