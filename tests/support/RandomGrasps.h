#pragma once
// Random grasp-like wrench sets for the quality tests and benchmarks: contacts at random points of a
// bumpy sphere (radius 30 mm ± 15 %), inward normals tilted up to ~10° off the radial direction, μ in
// [0.2, 1], linearised cones from FrictionEdges.h, wrenches from ContactWrenches.h (ρ = 34.5 mm, the
// bumpy sphere's max radius). The exact cones of the same contacts come along (WrenchSupport.h).
#include <random>
#include <vector>

#include "contact/FrictionEdges.h"
#include "grasp/ContactWrenches.h"
#include "grasp/WrenchSupport.h"

namespace sgtest {

struct RandomGrasp {
  std::vector<std::vector<sg::Vec6>> wrenches;  // per contact, object frame, torques / ρ
  std::vector<sg::ExactContactCone> cones;      // the same contacts, exact
  double torqueScale_mm = 34.5;
};

inline sg::Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<double> g;
  sg::Vec3 v;
  do v = sg::Vec3(g(rng), g(rng), g(rng));
  while (v.norm() < 1e-6);
  return v.normalized();
}

// Point contacts (`edges` friction edges each) at the given unit directions from the centre, with random
// radius, normal tilt and μ. torsion_mm > 0: soft contacts with GraspIt!'s 20 edges (`edges` ignored).
inline RandomGrasp graspAt(std::mt19937& rng, const std::vector<sg::Vec3>& directions, int edges,
                           double torsion_mm = 0) {
  using namespace sg;
  std::uniform_real_distribution<double> uni(0, 1);
  RandomGrasp g;
  WrenchReference ref;
  ref.torqueScale_mm = g.torqueScale_mm;
  const std::vector<Vec6> e = torsion_mm > 0 ? softContactEdges(torsion_mm) : pointContactEdges(edges);
  for (const Vec3& u : directions) {
    ContactSide side;
    side.p_WC_mm = 30 * (1 + 0.3 * (uni(rng) - 0.5)) * u;
    side.n_W = -(u + 0.18 * randomUnit(rng)).normalized();
    side.X_WC = contactFrame(side.p_WC_mm, side.n_W);
    const double mu = 0.2 + 0.8 * uni(rng);
    g.wrenches.push_back(contactWrenches(side, mu, e, ref));
    g.cones.push_back(exactConeFor(side, mu, torsion_mm, ref));
  }
  return g;
}

// `contacts` contacts at random directions; minCosToZ > −1 keeps them in a cap around +z (a one-sided
// grasp: the origin falls outside the wrench space).
inline RandomGrasp randomGrasp(std::mt19937& rng, int contacts, int edges, double minCosToZ = -1,
                               double torsion_mm = 0) {
  std::vector<sg::Vec3> dirs;
  for (int i = 0; i < contacts; ++i) {
    sg::Vec3 u;
    do u = randomUnit(rng);
    while (u.z() < minCosToZ);
    dirs.push_back(u);
  }
  return graspAt(rng, dirs, edges, torsion_mm);
}

}  // namespace sgtest
