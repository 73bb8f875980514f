#include "grasp/GraspQuality.h"

#include <limits>

namespace sg {

double epsilonOf(const WrenchHull& hull) {
  if (!hull.ok() || hull.facets.empty()) return 0;
  double eps = std::numeric_limits<double>::infinity();
  for (const auto& f : hull.facets) eps = std::min(eps, -f.offset);
  return eps;
}

GraspQuality evaluateQuality(const GraspWrenchSpace& gws, double tol) {
  GraspQuality q;
  q.hullStatus = gws.hull.status;
  q.message = gws.hull.message;
  if (!gws.hull.ok() || gws.hyperplanes6.empty()) return q;
  q.facetCount = static_cast<int>(gws.hyperplanes6.size());
  q.volume = gws.hull.volume;
  std::size_t best = 0;
  double eps = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < gws.hyperplanes6.size(); ++k)
    if (-gws.hyperplanes6[k].offset < eps) { eps = -gws.hyperplanes6[k].offset; best = k; }
  q.epsilon = eps;
  q.forceClosure = eps > tol;
  q.epsilonGraspIt = q.forceClosure ? eps : -1.0;
  q.weakestDirection = gws.hyperplanes6[best].normal.head<6>();
  q.worstCaseWrench = eps * q.weakestDirection;
  return q;
}

}  // namespace sg
