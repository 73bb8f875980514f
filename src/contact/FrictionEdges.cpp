#include "contact/FrictionEdges.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"

namespace sg {

std::vector<Vec6> sampleFrictionEllipsoid(const Vec3& e, const std::vector<FrictionRing>& rings) {
  if (!(e.array() > 0).all()) throw Error("friction ellipsoid semi-axes must be positive");
  std::vector<Vec6> edges;
  for (const auto& ring : rings) {
    if (ring.directions < 1) throw Error("friction ring needs at least one direction");
    const double phi = degToRad(ring.latitude_deg);
    for (int j = 0; j < ring.directions; ++j) {
      const double theta = 2 * kPi * j / ring.directions;
      const Vec3 d(std::cos(theta) * std::cos(phi), std::sin(theta) * std::cos(phi), std::sin(phi));
      const Vec3 onSurface = d / d.cwiseQuotient(e).norm();
      Vec6 edge = Vec6::Zero();
      edge(0) = onSurface(0);
      edge(1) = onSurface(1);
      edge(5) = onSurface(2);
      // Exact zeros where cos/sin round off (keeps the printed edges clean: 0, not 6e-17).
      for (int k = 0; k < 6; ++k)
        if (std::abs(edge(k)) < 1e-15) edge(k) = 0;
      edges.push_back(edge);
    }
  }
  return edges;
}

std::vector<FrictionRing> softRingsWithEquator(int m) {
  m = std::clamp(m, kMinFrictionDirections, kMaxFrictionDirections);
  const int mid = std::max(3, static_cast<int>(std::lround(5.0 * m / 8.0)));
  return {{90, 1}, {45, mid}, {0, m}, {-45, mid}, {-90, 1}};
}

int equatorDirectionsOf(const std::vector<FrictionRing>& rings) {
  for (const FrictionRing& r : rings)
    if (r.latitude_deg == 0) return r.directions;
  return 8;
}

std::vector<Vec6> pointContactEdges(int m) {
  if (m < 1) throw Error("a friction cone needs at least one edge");
  return sampleFrictionEllipsoid(Vec3::Ones(), {{0, m}});
}

std::vector<Vec6> softContactEdges(double torsion_mm, const FrictionEdgeSettings& s) {
  if (!(torsion_mm > 0)) return pointContactEdges(s.pointContactEdges);  // no patch: no torsion
  return sampleFrictionEllipsoid(Vec3(1, 1, torsion_mm), s.softRings);
}

std::vector<Vec6> frictionlessEdges() { return {Vec6::Zero()}; }

std::vector<Vec6> frictionEdgesFor(ContactKind kind, double torsion_mm, const FrictionEdgeSettings& s) {
  switch (kind) {
    case ContactKind::Frictionless: return frictionlessEdges();
    case ContactKind::PointWithFriction: return pointContactEdges(s.pointContactEdges);
    case ContactKind::SoftFinger: return softContactEdges(torsion_mm, s);
  }
  return frictionlessEdges();
}

}  // namespace sg
