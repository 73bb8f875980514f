#pragma once
// Bit-for-bit comparison of contact lists (a cached or warm path against the cold one): every field, doubles by
// their bits, so that −0 against +0 or a last-bit difference counts as different.
#include <cstring>
#include <string>
#include <vector>

#include "contact/Contact.h"

namespace sgtest {

inline bool sameBits(const double* a, const double* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(double)) == 0;
}

inline bool sameSide(const sg::ContactSide& a, const sg::ContactSide& b) {
  return a.body == b.body && sameBits(a.p_WC_mm.data(), b.p_WC_mm.data(), 3) && sameBits(a.n_W.data(), b.n_W.data(), 3) &&
         sameBits(a.X_WC.rotation().coeffs().data(), b.X_WC.rotation().coeffs().data(), 4) &&
         sameBits(a.X_WC.translation().data(), b.X_WC.translation().data(), 3);
}

inline bool sameContact(const sg::Contact& a, const sg::Contact& b) {
  return sameSide(a.side1, b.side1) && sameSide(a.side2, b.side2) && sameBits(&a.separation_mm, &b.separation_mm, 1) &&
         a.penetrating == b.penetrating && sameBits(&a.muStatic, &b.muStatic, 1) &&
         sameBits(&a.muKinetic, &b.muKinetic, 1);
}

// "" when equal, else the first difference.
inline std::string contactListDifference(const std::vector<sg::Contact>& expected, const std::vector<sg::Contact>& got) {
  if (expected.size() != got.size())
    return std::to_string(got.size()) + " contacts instead of " + std::to_string(expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!sameContact(expected[i], got[i])) return "contact " + std::to_string(i) + " differs";
  return {};
}

}  // namespace sgtest
