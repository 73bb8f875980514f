#include "sim/SphereHullCollision.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <utility>

namespace sg::sim {

namespace {

double dot(const double* a, const double* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

void sub(double* out, const double* a, const double* b) {
  for (int k = 0; k < 3; ++k) out[k] = a[k] - b[k];
}

// The point of triangle (a, b, c) closest to p, by the triangle's Voronoi regions: a vertex, an edge or the
// face's interior, told apart by the signs of p's projections on the edges (barycentric coordinates). True when
// the point is inside the face (then it is p's projection on the plane).
bool closestOnTriangle(const double* p, const double* a, const double* b, const double* c, double* out) {
  double ab[3], ac[3], ap[3];
  sub(ab, b, a);
  sub(ac, c, a);
  sub(ap, p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) {
    std::copy(a, a + 3, out);
    return false;
  }
  double bp[3];
  sub(bp, p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) {
    std::copy(b, b + 3, out);
    return false;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    for (int k = 0; k < 3; ++k) out[k] = a[k] + v * ab[k];
    return false;
  }
  double cp[3];
  sub(cp, p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) {
    std::copy(c, c + 3, out);
    return false;
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    for (int k = 0; k < 3; ++k) out[k] = a[k] + w * ac[k];
    return false;
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    for (int k = 0; k < 3; ++k) out[k] = b[k] + w * (c[k] - b[k]);
    return false;
  }
  const double denom = 1 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  for (int k = 0; k < 3; ++k) out[k] = a[k] + v * ab[k] + w * ac[k];
  return true;
}

// Registered colliders by model. A collision function only gets the model, so it looks its hulls up here; each
// thread keeps its last answer, valid until any registration changes (the epoch), so a trial's steps look up once.
std::shared_mutex registryMutex;
std::unordered_map<const mjModel*, const SphereHullCollider*> registry;
std::atomic<std::uint64_t> registryEpoch{1};

struct LookupCache {
  const mjModel* model = nullptr;
  const SphereHullCollider* collider = nullptr;
  std::uint64_t epoch = 0;
};
thread_local LookupCache lookupCache;

const SphereHullCollider* colliderOf(const mjModel* m) {
  const std::uint64_t epoch = registryEpoch.load(std::memory_order_acquire);
  if (lookupCache.model == m && lookupCache.epoch == epoch) return lookupCache.collider;
  std::shared_lock lock(registryMutex);
  const auto it = registry.find(m);
  lookupCache = {m, it == registry.end() ? nullptr : it->second, epoch};
  return lookupCache.collider;
}

}  // namespace

bool buildHullShape(const float* vertices, int vertexCount, const int* triangles, int triangleCount, HullShape& out) {
  out = HullShape{};
  if (vertexCount < 4 || triangleCount < 4) return false;
  out.vertices.assign(vertices, vertices + 3 * vertexCount);
  double lo[3], hi[3], centroid[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) lo[k] = hi[k] = out.vertices[static_cast<std::size_t>(k)];
  for (int i = 0; i < vertexCount; ++i)
    for (int k = 0; k < 3; ++k) {
      const double x = out.vertices[static_cast<std::size_t>(3 * i + k)];
      lo[k] = std::min(lo[k], x);
      hi[k] = std::max(hi[k], x);
      centroid[k] += x / vertexCount;
    }
  const double extent = std::sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                                  (hi[2] - lo[2]) * (hi[2] - lo[2]));
  if (!(extent > 0)) return false;
  const double tolerance = 1e-6 * extent;

  // Closed: every undirected edge in exactly two triangles.
  std::vector<std::pair<int, int>> edges;
  edges.reserve(static_cast<std::size_t>(3 * triangleCount));
  for (int t = 0; t < triangleCount; ++t)
    for (int e = 0; e < 3; ++e) {
      const int a = triangles[3 * t + e], b = triangles[3 * t + (e + 1) % 3];
      if (a < 0 || a >= vertexCount || b < 0 || b >= vertexCount || a == b) return false;
      edges.emplace_back(std::min(a, b), std::max(a, b));
    }
  std::sort(edges.begin(), edges.end());
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i;
    while (j < edges.size() && edges[j] == edges[i]) ++j;
    if (j - i != 2) return false;
    i = j;
  }

  const double* v = out.vertices.data();
  for (int t = 0; t < triangleCount; ++t) {
    int idx[3] = {triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]};
    double e1[3], e2[3], n[3];
    sub(e1, v + 3 * idx[1], v + 3 * idx[0]);
    sub(e2, v + 3 * idx[2], v + 3 * idx[0]);
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    const double length = std::sqrt(dot(n, n));
    if (!(length > 1e-12 * extent * extent)) continue;  // degenerate: its edges lie on other faces
    for (double& x : n) x /= length;
    double d = dot(n, v + 3 * idx[0]);
    // Outward: the centroid of the vertices is behind the plane (the winding is not relied on).
    if (dot(n, centroid) > d) {
      for (double& x : n) x = -x;
      d = -d;
      std::swap(idx[1], idx[2]);
    }
    if (!(d - dot(n, centroid) > tolerance)) return false;  // flat piece, or the centroid on a face
    for (int i = 0; i < vertexCount; ++i)
      if (dot(n, v + 3 * i) - d > tolerance) return false;  // not convex
    out.triangles.insert(out.triangles.end(), idx, idx + 3);
    out.planes.insert(out.planes.end(), {n[0], n[1], n[2], d});
  }
  return out.faces() >= 4;
}

bool collideSphereHull(const HullShape& hull, const double centre[3], double radius, double margin,
                       SphereHullContact& out) {
  const int faces = hull.faces();
  if (faces == 0) return false;
  const double* planes = hull.planes.data();
  // The largest face-plane distance of the centre: a lower bound of its distance from the hull outside, minus
  // its depth inside.
  double deepest = -INFINITY;
  int face = 0;
  for (int f = 0; f < faces; ++f) {
    const double s = dot(planes + 4 * f, centre) - planes[4 * f + 3];
    if (s > radius + margin) return false;
    if (s > deepest) {
      deepest = s;
      face = f;
    }
  }
  double signedDistance = 0;
  if (deepest <= 0) {
    // Inside: the nearest surface point is on the nearest face's plane; the hull is pushed away from the sphere,
    // against that face's outward normal.
    signedDistance = deepest;
    for (int k = 0; k < 3; ++k) out.normal[k] = -planes[4 * face + k];
  } else {
    // Outside: the closest point of a convex solid lies on a face whose plane the point is in front of.
    // A closest point inside a face is the centre's projection on its plane: its distance and normal are the
    // plane's, exact however close the centre is; on an edge or a vertex the normal is the direction to it.
    const double* v = hull.vertices.data();
    double best = INFINITY, closest[3] = {0, 0, 0};
    int bestFace = -1;
    for (int f = 0; f < faces; ++f) {
      const double s = dot(planes + 4 * f, centre) - planes[4 * f + 3];
      if (s <= 0) continue;
      const int* t = hull.triangles.data() + 3 * f;
      double q[3], diff[3];
      const bool inFace = closestOnTriangle(centre, v + 3 * t[0], v + 3 * t[1], v + 3 * t[2], q);
      sub(diff, q, centre);
      const double d2 = inFace ? s * s : dot(diff, diff);
      if (d2 < best) {
        best = d2;
        bestFace = inFace ? f : -1;
        std::copy(q, q + 3, closest);
      }
    }
    signedDistance = std::sqrt(best);
    if (signedDistance - radius > margin) return false;
    if (bestFace >= 0 || !(signedDistance > 0)) {
      const int f = bestFace >= 0 ? bestFace : face;
      for (int k = 0; k < 3; ++k) out.normal[k] = -planes[4 * f + k];
    } else {
      for (int k = 0; k < 3; ++k) out.normal[k] = (closest[k] - centre[k]) / signedDistance;
    }
  }
  out.dist = signedDistance - radius;
  // Halfway between the sphere's surface (radius along the normal) and the hull's (signedDistance along it).
  const double along = 0.5 * (radius + signedDistance);
  for (int k = 0; k < 3; ++k) out.pos[k] = centre[k] + along * out.normal[k];
  return true;
}

SphereHullCollider::SphereHullCollider(const mjModel* m) : model_(m) {
  hulls_.resize(static_cast<std::size_t>(m->nmesh));
  for (int i = 0; i < m->nmesh; ++i)
    buildHullShape(m->mesh_vert + 3 * m->mesh_vertadr[i], m->mesh_vertnum[i], m->mesh_face + 3 * m->mesh_faceadr[i],
                   m->mesh_facenum[i], hulls_[static_cast<std::size_t>(i)]);
  std::unique_lock lock(registryMutex);
  registry[m] = this;
  registryEpoch.fetch_add(1, std::memory_order_acq_rel);
}

SphereHullCollider::~SphereHullCollider() {
  std::unique_lock lock(registryMutex);
  const auto it = registry.find(model_);
  if (it != registry.end() && it->second == this) registry.erase(it);
  registryEpoch.fetch_add(1, std::memory_order_acq_rel);
}

int SphereHullCollider::usableMeshes() const {
  return static_cast<int>(std::count_if(hulls_.begin(), hulls_.end(), [](const HullShape& h) { return h.faces() > 0; }));
}

int collideSphereMeshRegistered(const mjModel* m, const mjData* d, mjContact* con, int g1, int g2, mjtNum margin,
                                bool& handled) {
  handled = false;
  const SphereHullCollider* collider = colliderOf(m);
  const int mesh = m->geom_dataid[g2];
  if (!collider || mesh < 0 || mesh >= collider->meshes()) return 0;
  const HullShape& hull = collider->hulls_[static_cast<std::size_t>(mesh)];
  if (hull.faces() == 0) return 0;
  handled = true;
  // The sphere's centre in the mesh geom's frame (the compiled vertices' frame).
  const mjtNum* p2 = d->geom_xpos + 3 * g2;
  const mjtNum* R2 = d->geom_xmat + 9 * g2;
  mjtNum rel[3], centre[3];
  mju_sub3(rel, d->geom_xpos + 3 * g1, p2);
  mju_rotVecMatT(centre, rel, R2);
  SphereHullContact c;
  if (!collideSphereHull(hull, centre, m->geom_size[3 * g1], margin, c)) return 0;
  con->dist = c.dist;
  mju_rotVecMat(con->frame, c.normal, R2);
  mju_rotVecMat(con->pos, c.pos, R2);
  mju_addTo3(con->pos, p2);
  mju_zero3(con->frame + 3);
  return 1;
}

}  // namespace sg::sim
