#pragma once
// Contacts on a ball centred at the origin, for the quality suites' analytic cases: the object-side record at
// direction u (unit, from the centre) on radius r, inward normal −u; the wrench reference centred there with
// torque scale ρ; and the wrenches of contacts at several directions.
#include <vector>

#include "contact/Contact.h"
#include "grasp/ContactWrenches.h"

namespace sgtest {

inline sg::ContactSide sideAt(const sg::Vec3& u, double r) {
  sg::ContactSide s;
  s.p_WC_mm = r * u;
  s.n_W = -u;
  s.X_WC = sg::contactFrame(s.p_WC_mm, s.n_W);
  return s;
}

inline sg::WrenchReference centred(double rho) {
  sg::WrenchReference ref;
  ref.torqueScale_mm = rho;
  return ref;
}

inline std::vector<std::vector<sg::Vec6>> wrenchesAt(const std::vector<sg::Vec3>& dirs, double r, double mu,
                                                     const std::vector<sg::Vec6>& edges) {
  std::vector<std::vector<sg::Vec6>> out;
  for (const auto& u : dirs) out.push_back(sg::contactWrenches(sideAt(u.normalized(), r), mu, edges, centred(r)));
  return out;
}

}  // namespace sgtest
