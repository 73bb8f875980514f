#include "grasp/forces/FrictionPolytope.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/Error.h"

namespace sg {

FrictionPolytope discPolytope(int edges) {
  if (edges < 3) throw Error("friction polygon: at least 3 edges needed, got " + std::to_string(edges));
  FrictionPolytope out;
  for (int k = 0; k < edges; ++k) {
    const double a = 2 * kPi * k / edges;
    out.points.emplace_back(std::cos(a), std::sin(a), 0);
  }
  out.inradius = std::cos(kPi / edges);
  return out;
}

FrictionPolytope ballPolytope(int edges, int latitudes) {
  if (edges < 3 || latitudes < 1)
    throw Error("friction polytope: at least 3 edges and 1 latitude needed, got " + std::to_string(edges) + " and " +
                std::to_string(latitudes));
  FrictionPolytope out;
  for (int k = -latitudes; k <= latitudes; ++k) {
    const double phi = 0.5 * kPi * k / latitudes;
    if (std::abs(k) == latitudes) {
      out.points.emplace_back(0, 0, k > 0 ? 1 : -1);
      continue;
    }
    const int ring = std::max(3, static_cast<int>(std::lround(edges * std::cos(phi))));
    // Rings alternate by half a step so that neighbouring rings' triangles are not slivers.
    const double shift = (k % 2 == 0) ? 0.0 : kPi / ring;
    for (int j = 0; j < ring; ++j) {
      const double a = 2 * kPi * j / ring + shift;
      out.points.emplace_back(std::cos(phi) * std::cos(a), std::cos(phi) * std::sin(a), std::sin(phi));
    }
  }
  out.inradius = hullInradius(out.points);
  return out;
}

double hullInradius(const std::vector<Vec3>& points) {
  const std::size_t n = points.size();
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b)
      for (std::size_t c = b + 1; c < n; ++c) {
        Vec3 normal = (points[b] - points[a]).cross(points[c] - points[a]);
        const double len = normal.norm();
        if (len < 1e-12) continue;
        normal /= len;
        double offset = normal.dot(points[a]);
        if (offset < 0) {
          normal = -normal;
          offset = -offset;
        }
        if (offset >= best) continue;
        bool facet = true;
        for (const Vec3& p : points)
          if (normal.dot(p) > offset + 1e-12) {
            facet = false;
            break;
          }
        if (facet) best = offset;
      }
  return std::isfinite(best) ? best : 0.0;
}

}  // namespace sg
