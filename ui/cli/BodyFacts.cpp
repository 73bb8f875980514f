#include "BodyFacts.h"

#include <map>
#include <tuple>
#include <utility>

#include "geometry/MassProperties.h"

namespace sg::cli {

bool isClosedMesh(const TriangleMesh& mesh) {
  if (mesh.empty()) return false;
  // Weld coincident vertices (readers of STL-like formats may duplicate them per triangle).
  std::map<std::tuple<double, double, double>, std::uint32_t> idOfPosition;
  std::vector<std::uint32_t> weld(mesh.vertices.size());
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& p = mesh.vertices[i];
    weld[i] = idOfPosition.emplace(std::make_tuple(p.x(), p.y(), p.z()), static_cast<std::uint32_t>(idOfPosition.size()))
                  .first->second;
  }
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> balance;  // +1 per a→b (a<b), -1 per b→a
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t a = weld[t[k]], b = weld[t[(k + 1) % 3]];
      if (a == b) continue;
      balance[{std::min(a, b), std::max(a, b)}] += a < b ? 1 : -1;
    }
  for (const auto& [edge, count] : balance)
    if (count != 0) return false;
  return true;
}

BodyFacts computeBodyFacts(const Body& body, const Transform& X_WB) {
  BodyFacts facts;
  if (!body.mesh) return facts;
  const TriangleMesh& mesh = *body.mesh;
  facts.triangles = mesh.triangleCount();
  facts.vertices = mesh.vertexCount();
  facts.surfaceArea_mm2 = mesh.surfaceArea();
  for (const auto& t : mesh.triangles)  // only vertices that triangles use
    for (const auto i : t) {
      facts.boundsBody_mm.extend(mesh.vertices[i]);
      facts.boundsWorld_mm.extend(X_WB * mesh.vertices[i]);
    }
  facts.closed = isClosedMesh(mesh);
  if (facts.closed)
    if (const auto props = computeMassProperties(mesh)) facts.volume_mm3 = props->volume_mm3;
  return facts;
}

}  // namespace sg::cli
