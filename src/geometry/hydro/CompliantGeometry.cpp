#include "geometry/hydro/CompliantGeometry.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>

#include "core/Error.h"

namespace sg {

namespace {

struct TetBuild {
  const VolumeMesh& mesh;
  std::vector<AlignedBox> boxes;
  std::vector<Vec3> centres;
  TetBvh& out;

  void build(std::uint32_t node, std::uint32_t first, std::uint32_t count) {
    AlignedBox box;
    for (std::uint32_t i = first; i < first + count; ++i) {
      box.extend(boxes[out.order[i]].min);
      box.extend(boxes[out.order[i]].max);
    }
    BvhNode& n = out.nodes[node];
    n.box.center = box.center();
    n.box.axes = Mat3::Identity();
    n.box.halfExtents = 0.5 * box.size() + Vec3::Constant(1e-9);
    n.box.radius = n.box.halfExtents.norm();
    if (count <= 1) {
      n.firstTriangle = first;
      n.triangleCount = count;
      return;
    }
    int axis = 0;
    box.size().maxCoeff(&axis);
    auto begin = out.order.begin() + first, end = begin + count, mid = begin + count / 2;
    std::nth_element(begin, mid, end, [&](std::uint32_t a, std::uint32_t b) { return centres[a][axis] < centres[b][axis]; });
    const auto left = static_cast<std::uint32_t>(out.nodes.size());
    out.nodes.emplace_back();
    out.nodes.emplace_back();
    out.nodes[node].firstChild = static_cast<std::int32_t>(left);
    build(left, first, count / 2);
    build(left + 1, first + count / 2, count - count / 2);
  }
};

}  // namespace

TetBvh buildTetBvh(const VolumeMesh& mesh) {
  TetBvh out;
  if (mesh.tets.empty()) return out;
  TetBuild b{mesh, {}, {}, out};
  for (const auto& t : mesh.tets) {
    AlignedBox box;
    Vec3 c = Vec3::Zero();
    for (auto v : t) {
      box.extend(mesh.vertices_mm[v]);
      c += mesh.vertices_mm[v];
    }
    b.boxes.push_back(box);
    b.centres.push_back(c / 4);
  }
  out.order.resize(mesh.tets.size());
  std::iota(out.order.begin(), out.order.end(), 0u);
  out.nodes.reserve(2 * mesh.tets.size());
  out.nodes.emplace_back();
  b.build(0, 0, static_cast<std::uint32_t>(mesh.tets.size()));
  // The compact tree: the same boxes, but a subtree of at most kLeafTets tets is one leaf (its range of `order`).
  std::vector<std::uint32_t> first(out.nodes.size()), count(out.nodes.size());
  for (std::size_t i = out.nodes.size(); i-- > 0;) {  // children come after their parent
    const BvhNode& n = out.nodes[i];
    if (n.isLeaf()) {
      first[i] = n.firstTriangle;
      count[i] = n.triangleCount;
    } else {
      first[i] = first[static_cast<std::size_t>(n.firstChild)];
      count[i] = count[static_cast<std::size_t>(n.firstChild)] + count[static_cast<std::size_t>(n.firstChild) + 1];
    }
  }
  out.boxes.reserve(out.nodes.size());
  auto box = [&](std::size_t i) {
    const BvhNode& n = out.nodes[i];
    TetBvh::Box bx;
    for (int k = 0; k < 3; ++k) {
      bx.corner[0][k] = n.box.center[k] - n.box.halfExtents[k];
      bx.corner[1][k] = n.box.center[k] + n.box.halfExtents[k];
    }
    bx.first = first[i];
    bx.count = count[i];
    return bx;
  };
  // Breadth-first over the kept nodes, so that the two children of a box are adjacent.
  std::vector<std::size_t> source{0};
  out.boxes.push_back(box(0));
  for (std::size_t k = 0; k < source.size(); ++k) {
    const BvhNode& n = out.nodes[source[k]];
    if (n.isLeaf() || count[source[k]] <= TetBvh::kLeafTets) continue;
    out.boxes[k].firstChild = static_cast<std::int32_t>(out.boxes.size());
    for (int c = 0; c < 2; ++c) {
      const auto child = static_cast<std::size_t>(n.firstChild + c);
      source.push_back(child);
      out.boxes.push_back(box(child));
    }
  }
  return out;
}

SoftVolume::SoftVolume(VolumeMeshField f) : field(std::move(f)) {
  const VolumeMesh& m = field.mesh;
  if (field.pressure_Pa.size() != m.vertices_mm.size()) throw Error("a pressure field needs one value per vertex");
  const std::size_t n = m.tets.size();
  gradient_Pa_per_mm.resize(n);
  offset_Pa.resize(n);
  faceNormal.resize(n);
  faceOffset_mm.resize(n);
  gradientNorm_Pa_per_mm.resize(n);
  tetLanes.resize(n);
  for (std::size_t t = 0; t < n; ++t) {
    const auto& tet = m.tets[t];
    Vec3 v[4];
    double p[4];
    for (int k = 0; k < 4; ++k) {
      v[k] = m.vertices_mm[tet[k]];
      p[k] = field.pressure_Pa[tet[k]];
    }
    Mat3 A;
    A.row(0) = v[1] - v[0];
    A.row(1) = v[2] - v[0];
    A.row(2) = v[3] - v[0];
    const Vec3 g = A.partialPivLu().solve(Vec3(p[1] - p[0], p[2] - p[0], p[3] - p[0]));
    gradient_Pa_per_mm[t] = g;
    gradientNorm_Pa_per_mm[t] = g.norm();
    TetLanes& lanes = tetLanes[t];
    for (int k = 0; k < 4; ++k) {
      lanes.x_mm[k] = v[k].x();
      lanes.y_mm[k] = v[k].y();
      lanes.z_mm[k] = v[k].z();
    }
    offset_Pa[t] = p[0] - g.dot(v[0]);
    for (int k = 0; k < 4; ++k) {
      const Vec3& a = v[(k + 1) % 4];
      const Vec3& b = v[(k + 2) % 4];
      const Vec3& c = v[(k + 3) % 4];
      Vec3 normal = (b - a).cross(c - a).normalized();
      if (normal.dot(v[k] - a) < 0) normal = -normal;
      faceNormal[t][k] = normal;
      faceOffset_mm[t][k] = normal.dot(a);
      lanes.faceX[k] = normal.x();
      lanes.faceY[k] = normal.y();
      lanes.faceZ[k] = normal.z();
      lanes.faceOffset_mm[k] = faceOffset_mm[t][k];
    }
  }
  bvh = buildTetBvh(m);
  if (!m.vertices_mm.empty()) {
    AlignedBox box;
    for (const Vec3& v : m.vertices_mm) box.extend(v);
    boundCentre_mm = box.center();
    double r2 = 0;
    for (const Vec3& v : m.vertices_mm) r2 = std::max(r2, (v - boundCentre_mm).squaredNorm());
    boundRadius_mm = std::sqrt(r2) * (1 + 1e-12) + 1e-9;
  }
}

CompliantGeometry makeCompliantGeometry(const TriangleMesh* mesh, const std::optional<Primitive>& primitive,
                                        const CompliantSpec& spec) {
  CompliantGeometry g;
  if (primitive && std::holds_alternative<HalfSpace>(primitive->shape)) {
    if (!(spec.field.modulus_Pa > 0)) throw Error("hydroelastic modulus must be > 0");
    if (!(spec.slabThickness_mm > 0)) throw Error("a compliant half-space needs a slab thickness > 0");
    g.halfSpace = CompliantHalfSpace{primitive->X_BS, spec.field.modulus_Pa / spec.slabThickness_mm, spec.field.margin_mm};
    return g;
  }
  VolumeMeshField field;
  if (primitive) {
    field = makeShapeField(primitive->shape, spec.field);
    for (Vec3& v : field.mesh.vertices_mm) v = primitive->X_BS * v;
  } else {
    if (!mesh || mesh->empty()) throw Error("a compliant body needs geometry");
    field = isConvexMesh(*mesh) ? makeConvexMeshField(*mesh, spec.field) : makeGeneralMeshField(*mesh, spec.field);
  }
  g.volume = std::make_shared<const SoftVolume>(std::move(field));
  return g;
}

namespace {

struct CacheEntry {
  const TriangleMesh* key;
  std::weak_ptr<const TriangleMesh> mesh;
  CompliantSpec spec;
  bool hasPrimitive;
  std::shared_ptr<const CompliantGeometry> geometry;
};

std::mutex& cacheMutex() {
  static std::mutex m;
  return m;
}
std::vector<CacheEntry>& compliantCache() {
  static std::vector<CacheEntry> c;
  return c;
}

}  // namespace

std::shared_ptr<const CompliantGeometry> compliantGeometryFor(const std::shared_ptr<const TriangleMesh>& mesh,
                                                              const std::optional<Primitive>& primitive,
                                                              const CompliantSpec& spec) {
  if (!mesh) return std::make_shared<const CompliantGeometry>(makeCompliantGeometry(nullptr, primitive, spec));
  {
    std::lock_guard lock(cacheMutex());
    auto& c = compliantCache();
    // Entries whose mesh was freed go; an address may be reused by a new mesh.
    c.erase(std::remove_if(c.begin(), c.end(), [](const CacheEntry& e) { return e.mesh.expired(); }), c.end());
    for (const CacheEntry& e : c)
      if (e.key == mesh.get() && e.spec == spec && e.hasPrimitive == primitive.has_value()) return e.geometry;
  }
  // Built outside the lock (meshing may take a while); a concurrent twin build is harmless.
  auto built = std::make_shared<const CompliantGeometry>(makeCompliantGeometry(mesh.get(), primitive, spec));
  std::lock_guard lock(cacheMutex());
  for (const CacheEntry& e : compliantCache())
    if (e.key == mesh.get() && e.spec == spec && e.hasPrimitive == primitive.has_value()) return e.geometry;
  compliantCache().push_back({mesh.get(), mesh, spec, primitive.has_value(), built});
  return built;
}

void clearCompliantGeometryCache() {
  std::lock_guard lock(cacheMutex());
  compliantCache().clear();
}

std::size_t compliantGeometryCacheSize() {
  std::lock_guard lock(cacheMutex());
  return compliantCache().size();
}

}  // namespace sg
