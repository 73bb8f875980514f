#include "geometry/Proximity.h"

#include <algorithm>
#include <vector>

#include "geometry/ProximityTraversal.h"

namespace sg {

using detail::RelativePose;
using detail::splitFirst;

bool meshesCollide(const Bvh& a, const Transform& poseA, const Bvh& b, const Transform& poseB) {
  if (a.empty() || b.empty()) return false;
  const RelativePose rel(poseA, poseB);
  const auto& na = a.nodes();
  const auto& nb = b.nodes();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [ia, ib] = stack.back();
    stack.pop_back();
    const BvhNode& A = na[ia];
    const BvhNode& B = nb[ib];
    if (detail::nodeGap(A.box, B.box, rel, 0.0) > 0) continue;
    if (A.isLeaf() && B.isLeaf()) {
      for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j) {
        const TrianglePoints tb = rel.apply(b.triangles()[j]);
        for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i)
          if (trianglesIntersect(a.triangles()[i], tb)) return true;
      }
    } else if (splitFirst(A, B)) {
      stack.emplace_back(A.firstChild, ib);
      stack.emplace_back(A.firstChild + 1, ib);
    } else {
      stack.emplace_back(ia, B.firstChild);
      stack.emplace_back(ia, B.firstChild + 1);
    }
  }
  return false;
}

MeshDistance meshDistance(const Bvh& a, const Transform& poseA, const Bvh& b, const Transform& poseB,
                          double upperBound) {
  MeshDistance result;
  if (a.empty() || b.empty()) return result;
  const RelativePose rel(poseA, poseB);
  const auto& na = a.nodes();
  const auto& nb = b.nodes();
  double best = upperBound;
  Vec3 bestA = Vec3::Zero(), bestB = Vec3::Zero();
  bool found = false;
  struct Item {
    std::uint32_t a, b;
    double lowerBound;
  };
  std::vector<Item> stack{{0, 0, std::max(0.0, detail::nodeGap(na[0].box, nb[0].box, rel, best))}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (item.lowerBound >= best && found) continue;
    if (item.lowerBound > best) continue;
    const BvhNode& A = na[item.a];
    const BvhNode& B = nb[item.b];
    if (A.isLeaf() && B.isLeaf()) {
      for (std::uint32_t j = B.firstTriangle; j < B.firstTriangle + B.triangleCount; ++j) {
        const TrianglePoints tb = rel.apply(b.triangles()[j]);
        const Vec3 nB = rel.R * b.normals()[j];
        for (std::uint32_t i = A.firstTriangle; i < A.firstTriangle + A.triangleCount; ++i) {
          if (found && triangleDistanceLowerBound(a.triangles()[i], a.normals()[i], tb, nB) >= best) continue;
          const auto d = triangleDistance(a.triangles()[i], tb);
          if (d.distance < best || (!found && d.distance <= best)) {
            best = d.distance;
            bestA = d.pointOnFirst;
            bestB = d.pointOnSecond;
            found = true;
            if (d.intersecting) {
              result.colliding = true;
              result.distance_mm = 0;
              result.pointA_mm = poseA * bestA;
              result.pointB_mm = poseA * bestB;
              return result;
            }
          }
        }
      }
      continue;
    }
    Item c1, c2;
    if (splitFirst(A, B)) {
      c1 = {static_cast<std::uint32_t>(A.firstChild), item.b, 0};
      c2 = {static_cast<std::uint32_t>(A.firstChild + 1), item.b, 0};
    } else {
      c1 = {item.a, static_cast<std::uint32_t>(B.firstChild), 0};
      c2 = {item.a, static_cast<std::uint32_t>(B.firstChild + 1), 0};
    }
    c1.lowerBound = std::max(0.0, detail::nodeGap(na[c1.a].box, nb[c1.b].box, rel, best, false));
    c2.lowerBound = std::max(0.0, detail::nodeGap(na[c2.a].box, nb[c2.b].box, rel, best, false));
    if (c1.lowerBound < c2.lowerBound) std::swap(c1, c2);  // nearer pair on top of the stack
    if (c1.lowerBound <= best) stack.push_back(c1);
    if (c2.lowerBound <= best) stack.push_back(c2);
  }
  if (found) {
    result.distance_mm = best;
    result.pointA_mm = poseA * bestA;
    result.pointB_mm = poseA * bestB;
  }
  return result;
}

namespace {

double pointBoxDistance(const BvhBox& box, const Vec3& p) {
  const Vec3 q = box.axes.transpose() * (p - box.center);
  return (q.cwiseAbs() - box.halfExtents).cwiseMax(0.0).norm();
}

// Number of triangles a ray (origin o, direction d, body frame) crosses at t > 0.
int rayCrossings(const Bvh& mesh, const Vec3& o, const Vec3& d) {
  int hits = 0;
  std::vector<std::uint32_t> stack{0};
  while (!stack.empty()) {
    const BvhNode& n = mesh.nodes()[stack.back()];
    stack.pop_back();
    // Slab test in the box frame.
    const Vec3 lo = n.box.axes.transpose() * (o - n.box.center);
    const Vec3 ld = n.box.axes.transpose() * d;
    double tmin = 0, tmax = std::numeric_limits<double>::infinity();
    bool miss = false;
    for (int k = 0; k < 3 && !miss; ++k) {
      if (std::abs(ld[k]) < 1e-300) {
        if (std::abs(lo[k]) > n.box.halfExtents[k]) miss = true;
        continue;
      }
      double t1 = (-n.box.halfExtents[k] - lo[k]) / ld[k], t2 = (n.box.halfExtents[k] - lo[k]) / ld[k];
      if (t1 > t2) std::swap(t1, t2);
      tmin = std::max(tmin, t1);
      tmax = std::min(tmax, t2);
      if (tmin > tmax) miss = true;
    }
    if (miss) continue;
    if (!n.isLeaf()) {
      stack.push_back(n.firstChild);
      stack.push_back(n.firstChild + 1);
      continue;
    }
    for (std::uint32_t i = n.firstTriangle; i < n.firstTriangle + n.triangleCount; ++i) {
      // Möller–Trumbore.
      const auto& t = mesh.triangles()[i];
      const Vec3 e1 = t[1] - t[0], e2 = t[2] - t[0];
      const Vec3 pv = d.cross(e2);
      const double det = e1.dot(pv);
      if (std::abs(det) < 1e-300) continue;
      const Vec3 tv = o - t[0];
      const double u = tv.dot(pv) / det;
      if (u < 0 || u > 1) continue;
      const Vec3 qv = tv.cross(e1);
      const double v = d.dot(qv) / det;
      if (v < 0 || u + v > 1) continue;
      if (e2.dot(qv) / det > 0) ++hits;
    }
  }
  return hits;
}

}  // namespace

MeshClosestPoint closestPointOnMesh(const Bvh& mesh, const Transform& pose, const Vec3& pointWorld) {
  MeshClosestPoint result;
  if (mesh.empty()) return result;
  const Vec3 p = pose.inverse() * pointWorld;
  double best = std::numeric_limits<double>::infinity();
  struct Item {
    std::uint32_t node;
    double lowerBound;
  };
  std::vector<Item> stack{{0, pointBoxDistance(mesh.nodes()[0].box, p)}};
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    if (item.lowerBound >= best) continue;
    const BvhNode& n = mesh.nodes()[item.node];
    if (n.isLeaf()) {
      for (std::uint32_t i = n.firstTriangle; i < n.firstTriangle + n.triangleCount; ++i) {
        const auto& t = mesh.triangles()[i];
        const auto c = closestPointOnTriangle(p, t[0], t[1], t[2]);
        if (c.distanceSquared < best * best) {
          best = std::sqrt(c.distanceSquared);
          result.point_mm = pose * c.point;
          result.triangle = mesh.sourceIndex()[i];
        }
      }
      continue;
    }
    Item c1{static_cast<std::uint32_t>(n.firstChild), pointBoxDistance(mesh.nodes()[n.firstChild].box, p)};
    Item c2{static_cast<std::uint32_t>(n.firstChild + 1), pointBoxDistance(mesh.nodes()[n.firstChild + 1].box, p)};
    if (c1.lowerBound < c2.lowerBound) std::swap(c1, c2);
    stack.push_back(c1);
    stack.push_back(c2);
  }
  result.distance_mm = best;
  return result;
}

bool pointInsideMesh(const Bvh& mesh, const Transform& pose, const Vec3& pointWorld) {
  if (mesh.empty()) return false;
  const Vec3 p = pose.inverse() * pointWorld;
  if (!mesh.bounds().empty() && ((p.array() < mesh.bounds().min.array()).any() ||
                                 (p.array() > mesh.bounds().max.array()).any()))
    return false;
  // Irrational-looking directions make hitting an edge or vertex exactly unlikely; vote over three.
  static const Vec3 dirs[3] = {Vec3(0.5773502, 0.5773503, 0.5773501).normalized(),
                               Vec3(-0.3141593, 0.8660254, -0.2718282).normalized(),
                               Vec3(0.7071068, -0.4142136, -0.5772157).normalized()};
  int votes = 0;
  for (const auto& d : dirs) votes += rayCrossings(mesh, p, d) % 2;
  return votes >= 2;
}

namespace {
// Deepest vertex of `inner` inside `outer`, measured to outer's surface (world frame).
void deepestVertex(const Bvh& inner, const Transform& innerPose, const Bvh& outer, const Transform& outerPose,
                   double& depth, Vec3& innerPoint, Vec3& outerPoint) {
  const Transform toOuter = outerPose.inverse() * innerPose;
  AlignedBox box = outer.bounds();
  for (const auto& v : inner.vertices()) {
    const Vec3 q = toOuter * v;
    if ((q.array() < box.min.array()).any() || (q.array() > box.max.array()).any()) continue;
    const Vec3 w = innerPose * v;
    if (!pointInsideMesh(outer, outerPose, w)) continue;
    const auto c = closestPointOnMesh(outer, outerPose, w);
    if (c.distance_mm > depth) {
      depth = c.distance_mm;
      innerPoint = w;
      outerPoint = c.point_mm;
    }
  }
}
}  // namespace

PenetrationEstimate estimatePenetration(const Bvh& a, const Transform& poseA, const Bvh& b, const Transform& poseB) {
  PenetrationEstimate e;
  double depthA = 0, depthB = 0;
  Vec3 aIn, bSurf, bIn, aSurf;
  deepestVertex(a, poseA, b, poseB, depthA, aIn, bSurf);  // vertices of A inside B
  deepestVertex(b, poseB, a, poseA, depthB, bIn, aSurf);  // vertices of B inside A
  if (depthA <= 0 && depthB <= 0) return e;
  if (depthA >= depthB) {
    e.depth_mm = depthA;
    e.pointA_mm = aIn;
    e.pointB_mm = bSurf;
    e.normalA = (bSurf - aIn).normalized();  // moving A's vertex to B's surface separates them
  } else {
    e.depth_mm = depthB;
    e.pointA_mm = aSurf;
    e.pointB_mm = bIn;
    e.normalA = (bIn - aSurf).normalized();
  }
  return e;
}

SeparationResult signedSeparation(const Bvh& a, const Transform& poseA, const Bvh& b, const Transform& poseB) {
  SeparationResult r;
  const MeshDistance d = meshDistance(a, poseA, b, poseB);
  if (!d.found()) return r;
  r.pointA_mm = d.pointA_mm;
  r.pointB_mm = d.pointB_mm;
  r.colliding = d.colliding;
  if (!d.colliding) {
    r.separation_mm = d.distance_mm;
    const Vec3 diff = d.pointA_mm - d.pointB_mm;
    if (diff.norm() > 1e-12) r.normalA = diff.normalized();
  } else {
    const PenetrationEstimate p = estimatePenetration(a, poseA, b, poseB);
    r.separation_mm = -p.depth_mm;
    if (p.depth_mm > 0) {
      r.pointA_mm = p.pointA_mm;
      r.pointB_mm = p.pointB_mm;
      r.normalA = p.normalA;
    }
  }
  r.normalB = -r.normalA;
  return r;
}

}  // namespace sg
