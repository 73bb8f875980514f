#include "geometry/MeshTopology.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>

#include "geometry/HullEdges.h"
#include "geometry/TopologyCache.h"

namespace sg {

namespace {

// The convex hull's vertices and edges of `vertices` (HullEdges.h); nothing when there is no hull.
void hullOf(const std::vector<Vec3>& vertices, MeshTopology& t) {
  std::vector<double> coords;
  coords.reserve(3 * vertices.size());
  for (const Vec3& v : vertices) coords.insert(coords.end(), {v.x(), v.y(), v.z()});
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  if (!convexHullEdges(coords, edges)) return;
  std::vector<std::uint32_t> used;
  for (const auto& e : edges) used.push_back(e.first);
  if (edges.empty()) return;
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  std::vector<std::uint32_t> position(vertices.size(), 0);
  t.hullPosition.assign(vertices.size(), -1);
  for (std::uint32_t k = 0; k < used.size(); ++k) {
    position[used[k]] = k;
    t.hullPosition[used[k]] = static_cast<std::int32_t>(k);
  }
  t.hullVertices = used;
  t.hullPoints.reserve(used.size());
  for (std::uint32_t v : used) t.hullPoints.push_back(vertices[v]);
  t.hullNeighbourStart.assign(used.size() + 1, 0);
  for (const auto& e : edges) ++t.hullNeighbourStart[position[e.first] + 1];
  for (std::size_t k = 0; k < used.size(); ++k) t.hullNeighbourStart[k + 1] += t.hullNeighbourStart[k];
  t.hullNeighbours.reserve(edges.size());
  for (const auto& e : edges) t.hullNeighbours.push_back(position[e.second]);  // sorted by e.first
}

}  // namespace

std::uint32_t MeshTopology::climbSupport(const Vec3& d, std::uint32_t k) const {
  double best = d.dot(hullPoints[k]);
  // Each move strictly increases d·x, so it ends; the bound guards against rounding cycles.
  for (std::size_t moves = 0; moves <= hullPoints.size(); ++moves) {
    std::uint32_t next = k;
    for (std::uint32_t e = hullNeighbourStart[k]; e < hullNeighbourStart[k + 1]; ++e) {
      const std::uint32_t m = hullNeighbours[e];
      const double p = d.dot(hullPoints[m]);
      if (p > best) {
        best = p;
        next = m;
      }
    }
    if (next == k) break;
    k = next;
  }
  return k;
}

MeshTopology makeMeshTopology(const Bvh& bvh) {
  MeshTopology t;
  const std::vector<Vec3>& vertices = bvh.vertices();
  // Corners by position (every triangle corner is a copy of a mesh vertex); duplicates to the first index.
  std::map<std::array<double, 3>, std::uint32_t> index;
  for (std::uint32_t v = 0; v < vertices.size(); ++v) index.emplace(std::array<double, 3>{vertices[v].x(), vertices[v].y(), vertices[v].z()}, v);
  t.corners.reserve(bvh.triangles().size());
  for (const TrianglePoints& tri : bvh.triangles()) {
    std::array<std::uint32_t, 3> c{};
    for (int k = 0; k < 3; ++k) c[k] = index.at({tri[k].x(), tri[k].y(), tri[k].z()});
    t.corners.push_back(c);
  }
  t.vertexTriangleStart.assign(vertices.size() + 1, 0);
  for (const auto& c : t.corners)
    for (std::uint32_t v : c) ++t.vertexTriangleStart[v + 1];
  for (std::size_t v = 0; v < vertices.size(); ++v) t.vertexTriangleStart[v + 1] += t.vertexTriangleStart[v];
  t.vertexTriangles.resize(t.vertexTriangleStart.back());
  std::vector<std::uint32_t> fill(t.vertexTriangleStart.begin(), t.vertexTriangleStart.end() - 1);
  for (std::uint32_t i = 0; i < t.corners.size(); ++i)
    for (std::uint32_t v : t.corners[i]) t.vertexTriangles[fill[v]++] = i;
  hullOf(vertices, t);
  return t;
}

namespace {
struct TopologyEntry {
  std::weak_ptr<const Bvh> bvh;
  std::shared_ptr<const MeshTopology> topology;
};
std::mutex topologyMutex;
std::unordered_map<const Bvh*, TopologyEntry>& topologyCache() {
  static std::unordered_map<const Bvh*, TopologyEntry> c;
  return c;
}
}  // namespace

std::shared_ptr<const MeshTopology> topologyFor(const std::shared_ptr<const Bvh>& bvh) {
  if (!bvh) return nullptr;
  {
    std::lock_guard lock(topologyMutex);
    const auto it = topologyCache().find(bvh.get());
    if (it != topologyCache().end() && it->second.bvh.lock() == bvh) return it->second.topology;
  }
  auto topology = std::make_shared<const MeshTopology>(makeMeshTopology(*bvh));  // built outside the lock
  std::lock_guard lock(topologyMutex);
  // Entries of freed BVHs are swept now and then so the cache cannot grow without bound.
  for (auto it = topologyCache().begin(); it != topologyCache().end();)
    it = it->second.bvh.expired() ? topologyCache().erase(it) : std::next(it);
  topologyCache()[bvh.get()] = TopologyEntry{bvh, topology};
  return topology;
}

}  // namespace sg
