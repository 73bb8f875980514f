#include "grasp/GwsProjection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/Error.h"

namespace sg {

namespace {

struct Plane3 {
  Vec3 n;
  double b;
};

double minSlack(const std::vector<Plane3>& planes, const Vec3& x, int* arg = nullptr) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < planes.size(); ++k) {
    const double s = -(planes[k].n.dot(x) + planes[k].b);
    if (s < best) {
      best = s;
      if (arg) *arg = static_cast<int>(k);
    }
  }
  return best;
}

// A point deep inside {x : n·x + b <= 0 for all planes}: subgradient ascent on the smallest slack.
Vec3 interiorPoint(const std::vector<Plane3>& planes, double size) {
  Vec3 x = Vec3::Zero(), best = x;
  int k = 0;
  double bestSlack = minSlack(planes, x, &k);
  for (int it = 0; it < 4000; ++it) {
    minSlack(planes, x, &k);
    x -= (0.25 * size / std::sqrt(it + 1.0)) * planes[k].n;
    const double s = minSlack(planes, x);
    if (s > bestSlack) { bestSlack = s; best = x; }
  }
  return best;
}

}  // namespace

GwsProjection projectGws(const std::vector<Hyperplane>& hyperplanes6, const GwsProjectionSettings& s) {
  auto fixed = s.fixedCoordinates;
  std::sort(fixed.begin(), fixed.end());
  if (fixed[0] < 0 || fixed[2] > 5 || fixed[0] == fixed[1] || fixed[1] == fixed[2])
    throw Error("GWS projection: fix exactly 3 distinct coordinates among 0..5 (fx fy fz tx ty tz)");
  GwsProjection out;
  int f = 0;
  for (int k = 0; k < 6; ++k)
    if (std::find(fixed.begin(), fixed.end(), k) == fixed.end()) out.freeCoordinates[f++] = k;

  std::vector<Plane3> planes;
  double size = 0;
  for (const auto& h : hyperplanes6) {
    if (h.normal.size() != 6) throw Error("GWS projection needs 6-D hyperplanes");
    Vec3 n(h.normal(out.freeCoordinates[0]), h.normal(out.freeCoordinates[1]), h.normal(out.freeCoordinates[2]));
    double b = h.offset;
    for (int i = 0; i < 3; ++i) b += h.normal(s.fixedCoordinates[i]) * s.fixedValues(i);
    const double len = n.norm();
    if (len < 1e-11) {
      if (b > 0) { out.message = "the slice misses the wrench space"; return out; }
      continue;
    }
    planes.push_back({n / len, b / len});
    size = std::max(size, std::abs(b / len));
  }
  if (planes.size() < 4) { out.message = "too few half-spaces for a 3-D slice"; return out; }
  const Vec3 c = interiorPoint(planes, std::max(size, 1e-6));
  const double slack = minSlack(planes, c);
  if (!(slack > 1e-9 * std::max(1.0, size))) { out.message = "the slice has no interior"; return out; }

  // Dual: each plane becomes the point n / slack; each dual facet (m, o) a primal vertex c + m / (−o).
  MatX dual(3, static_cast<Eigen::Index>(planes.size()));
  for (std::size_t k = 0; k < planes.size(); ++k)
    dual.col(static_cast<Eigen::Index>(k)) = planes[k].n / (-(planes[k].n.dot(c) + planes[k].b));
  const WrenchHull dualHull = convexHull(dual);
  if (!dualHull.ok()) { out.message = std::string("dual hull: ") + toString(dualHull.status); return out; }
  std::vector<Vec3> primal;
  for (const auto& facet : dualHull.facets) {
    if (!(facet.offset < -1e-15)) { out.message = "the slice is unbounded"; return out; }
    primal.push_back(c + facet.normal.head<3>() / (-facet.offset));
  }
  MatX pts(3, static_cast<Eigen::Index>(primal.size()));
  for (std::size_t k = 0; k < primal.size(); ++k) pts.col(static_cast<Eigen::Index>(k)) = primal[k];
  HullOptions opts;
  opts.collectVertices = true;
  opts.qhullOptions = "Qt";  // triangles
  const WrenchHull hull = convexHull(pts, opts);
  if (!hull.ok()) { out.message = std::string("slice hull: ") + toString(hull.status); return out; }

  // Compact vertex list: only hull vertices, renumbered.
  std::vector<int> remap(primal.size(), -1);
  for (int v : hull.vertexIndices) {
    remap[static_cast<std::size_t>(v)] = static_cast<int>(out.vertices.size());
    out.vertices.push_back(s.scale * primal[static_cast<std::size_t>(v)]);
  }
  for (std::size_t k = 0; k < hull.facets.size(); ++k) {
    const auto& ids = hull.facetVertexIndices[k];
    if (ids.size() != 3) continue;
    std::array<int, 3> t = {remap[ids[0]], remap[ids[1]], remap[ids[2]]};
    const Vec3 a = primal[ids[0]], b = primal[ids[1]], cc = primal[ids[2]];
    if ((b - a).cross(cc - a).dot(hull.facets[k].normal.head<3>()) < 0) std::swap(t[1], t[2]);
    out.triangles.push_back(t);
  }
  out.valid = true;
  return out;
}

double originDepth(const GwsProjection& p) {
  constexpr double kNoDepth = -std::numeric_limits<double>::infinity();
  if (!p.valid || p.triangles.empty() || p.vertices.empty()) return kNoDepth;
  Vec3 centroid = Vec3::Zero();
  for (const Vec3& v : p.vertices) centroid += v;
  centroid /= static_cast<double>(p.vertices.size());
  double depth = std::numeric_limits<double>::infinity();
  for (const auto& t : p.triangles) {
    const Vec3& a = p.vertices[t[0]];
    Vec3 n = (p.vertices[t[1]] - a).cross(p.vertices[t[2]] - a);
    if (n.norm() < 1e-15) continue;  // a degenerate triangle has no plane
    n.normalize();
    if (n.dot(centroid - a) > 0) n = -n;
    depth = std::min(depth, n.dot(a));
  }
  return std::isfinite(depth) ? depth : kNoDepth;
}

}  // namespace sg
