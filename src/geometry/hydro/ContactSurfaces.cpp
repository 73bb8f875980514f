#include "geometry/hydro/ContactSurfaces.h"

#include <algorithm>
#include <cmath>

#include "geometry/ProximityTraversal.h"
#include "geometry/TriangleTriangle.h"

namespace sg {

namespace {

// Drake's normal filter (README.md §Algorithms): a candidate is kept when the angle between the surface
// normal and the pressure gradient is below 5π/8.
const double kCosMaxAngle = std::cos(5 * kPi / 8);
constexpr double kDuplicate_mm = 1e-9;  // vertices closer than this are merged
constexpr std::size_t kFirstReserve = 32;  // polygons reserved at a surface's first (fewer regrowths)

// finishContactSurface for polygons measured as they were made (emit): triangulation on request, totals.
void finishMeasured(ContactSurface& s, const SurfaceOptions& options);

// A small convex polygon on the stack (clipping a triangle by 4 planes gives ≤ 7 vertices, a tet slice by 4 ≤ 8).
struct Poly {
  Vec3 v[16];
  int n = 0;
  void push(const Vec3& p) {
    if (n > 0 && (v[n - 1] - p).squaredNorm() < kDuplicate_mm * kDuplicate_mm) return;
    v[n++] = p;
  }
  void closeDuplicates() {
    while (n > 1 && (v[n - 1] - v[0]).squaredNorm() < kDuplicate_mm * kDuplicate_mm) --n;
  }
};

// Keeps the part of `in` with n·x ≥ d (Sutherland–Hodgman) in `out`; returns false, leaving `out` alone, when
// all of `in` is kept (the common case, saving the copy).
// clip() with the signed distances s[i] = n·v[i] − d given.
bool clipWith(const Poly& in, const double* s, Poly& out) {
  bool anyOut = false;
  for (int i = 0; i < in.n; ++i) anyOut = anyOut || s[i] < 0;
  if (!anyOut) return false;
  out.n = 0;
  for (int i = 0; i < in.n; ++i) {
    const int j = i + 1 == in.n ? 0 : i + 1;
    if (s[i] >= 0) out.push(in.v[i]);
    if ((s[i] >= 0) != (s[j] >= 0)) out.push(in.v[i] + (s[i] / (s[i] - s[j])) * (in.v[j] - in.v[i]));
  }
  out.closeDuplicates();
  return true;
}

bool clip(const Poly& in, const Vec3& normal, double d, Poly& out) {
  double s[16];
  for (int i = 0; i < in.n; ++i) s[i] = normal.dot(in.v[i]) - d;
  return clipWith(in, s, out);
}

// The polygon where the plane n·x = d cuts the tet (≤ 4 vertices), counter-clockwise about n. A face lying in
// the plane belongs to the tet below it only, so coplanar neighbours do not give it twice.
void sliceTet(const Vec3 (&v)[4], const Vec3& normal, double d, Poly& out) {
  out.n = 0;
  double s[4];
  for (int k = 0; k < 4; ++k) s[k] = normal.dot(v[k]) - d;
  static const int edges[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  Vec3 pts[6];
  int m = 0;
  for (const auto& e : edges) {
    const double a = s[e[0]], b = s[e[1]];
    if ((a >= 0) == (b >= 0)) continue;
    pts[m++] = v[e[0]] + (a / (a - b)) * (v[e[1]] - v[e[0]]);
  }
  if (m < 3) return;
  Vec3 c = Vec3::Zero();
  for (int i = 0; i < m; ++i) c += pts[i];
  c /= m;
  const Vec3 u = (std::abs(normal.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY()).cross(normal).normalized();
  const Vec3 w = normal.cross(u);
  double angle[6];
  int idx[6];
  for (int i = 0; i < m; ++i) {
    angle[i] = std::atan2((pts[i] - c).dot(w), (pts[i] - c).dot(u));
    idx[i] = i;
  }
  std::sort(idx, idx + m, [&](int a, int b) { return angle[a] < angle[b]; });
  for (int i = 0; i < m; ++i) out.push(pts[idx[i]]);
  out.closeDuplicates();
}

bool alongGradient(const Vec3& normal, const Vec3& gradient, double gradientNorm) {
  return gradientNorm == 0 || normal.dot(gradient) > kCosMaxAngle * gradientNorm;
}
bool alongGradient(const Vec3& normal, const Vec3& gradient) { return alongGradient(normal, gradient, gradient.norm()); }

// A stack of node indices that lives on the C++ stack unless a deep tree needs more.
class SmallStack {
 public:
  bool empty() const { return top_ == 0; }
  void push(std::uint32_t i) {
    if (top_ < kInline) {
      inline_[top_++] = i;
      return;
    }
    if (spill_.size() < top_ + 1 - kInline) spill_.resize(top_ + 1 - kInline);
    spill_[top_++ - kInline] = i;
  }
  std::uint32_t pop() {
    --top_;
    return top_ < kInline ? inline_[top_] : spill_[top_ - kInline];
  }

 private:
  static constexpr std::size_t kInline = 128;
  std::uint32_t inline_[kInline];
  std::size_t top_ = 0;
  std::vector<std::uint32_t> spill_;
};

// M's bounding sphere and root box (axis-aligned in M's frame) seen from N's frame, to cull N's oriented boxes:
// the node's sphere against M's sphere, then M's sphere against the node's box, then (unless M is round, see the
// constructor) the face-axis separation test detail::boxGap(…, 0, false) > 0 with the root's side precomputed
// and each axis tested as soon as it is known.
class RootBoxInN {
 public:
  RootBoxInN(const SoftVolume& M, const detail::RelativePose& relMinN)
      : root_(M.bvh.nodes[0].box),
        RB_(relMinN.R * root_.axes),
        centre_(relMinN.R * root_.center + relMinN.t),
        sphereCentre_(relMinN.apply(M.boundCentre_mm)),
        sphereRadius_(M.boundRadius_mm) {
    // The box's face axes can only reject a node that meets the sphere outside the box. When the sphere lies
    // inside the box grown by 5 % of its radius (a round body such as a spherical fingertip), that shell is too
    // thin to pay for the six axis tests on every node: the sphere tests alone decide.
    const Vec3 local = root_.axes.transpose() * (M.boundCentre_mm - root_.center);
    const Vec3 reach = local.cwiseAbs().array() + M.boundRadius_mm * 0.95;
    faceAxesUseful_ = (reach.array() > root_.halfExtents.array()).any();
  }
  bool separatedFrom(const BvhBox& a) const {
    // The node's bounding sphere against M's (tighter than the root box's circumscribed sphere), squared.
    const Vec3 toSphere = sphereCentre_ - a.center;
    const double reach = a.radius + sphereRadius_;
    if (toSphere.squaredNorm() > reach * reach) return true;
    // M's bounding sphere against the node's box.
    const Vec3 local = a.axes.transpose() * toSphere;
    if ((local.cwiseAbs() - a.halfExtents).cwiseMax(0.0).squaredNorm() > sphereRadius_ * sphereRadius_) return true;
    if (!faceAxesUseful_) return false;
    // The 6 face axes, each as soon as it is known (most rejected nodes fail on one of a's axes).
    const Vec3& ea = a.halfExtents;
    const Vec3& eb = root_.halfExtents;
    Mat3 R, absR;  // a.axes^T RB, and |R| + 1e-12, row by row
    Vec3 t;
    for (int i = 0; i < 3; ++i) {
      const Vec3 axis = a.axes.col(i);
      R.row(i) = axis.transpose() * RB_;
      absR.row(i) = R.row(i).cwiseAbs().array() + 1e-12;
      t[i] = axis.dot(centre_ - a.center);
      if (std::abs(t[i]) - ea[i] - eb.dot(absR.row(i)) > 0) return true;
    }
    for (int j = 0; j < 3; ++j)
      if (std::abs(t.dot(R.col(j))) - ea.dot(absR.col(j)) - eb[j] > 0) return true;
    return false;
  }

 private:
  const BvhBox& root_;
  Mat3 RB_;
  Vec3 centre_;
  Vec3 sphereCentre_;
  double sphereRadius_;
  bool faceAxesUseful_ = true;
};

void tetVertices(const SoftVolume& M, std::size_t tet, Vec3 (&v)[4]) {
  for (int k = 0; k < 4; ++k) v[k] = M.field.mesh.vertices_mm[M.field.mesh.tets[tet][k]];
}

// Area and centroid of a polygon by the fan around vertex 0 (Drake's rule); false for a zero-area polygon (a
// degenerate touch), which is dropped.
bool measurePolygon(const Vec3* v, std::size_t n, double& area, Vec3& centroid) {
  area = 0;
  Vec3 c = Vec3::Zero();
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double ta = 0.5 * (v[i] - v[0]).cross(v[i + 1] - v[0]).norm();
    area += ta;
    c += ta * (v[0] + v[i] + v[i + 1]) / 3;
  }
  if (!(area > 1e-14) || !std::isfinite(area)) return false;
  centroid = c / area;
  return true;
}

// M's frame to the world as a rotation matrix and a translation: per point cheaper than Transform's quaternion.
struct FrameToWorld {
  explicit FrameToWorld(const Transform& X_WM) : R(X_WM.rotationMatrix()), t(X_WM.translation()) {}
  Vec3 point(const Vec3& p_M) const { return R * p_M + t; }
  Vec3 vector(const Vec3& v_M) const { return R * v_M; }
  Mat3 R;
  Vec3 t;
};

// Appends the polygon (body-M coordinates) in world coordinates with M's pressure of tet `tet`, measured, its
// normal n_W (world); a zero-area polygon is not kept.
void emit(ContactSurface& s, const Poly& p, const FrameToWorld& X_WM, const Vec3& n_W, const SoftVolume& M, std::size_t tet) {
  if (p.n < 3) return;
  if (s.polygons.empty()) s.polygons.reserve(kFirstReserve);
  ContactPolygon& poly = s.polygons.emplace_back();
  for (int i = 0; i < p.n; ++i) poly.p_WV_mm.push_back(X_WM.point(p.v[i]));
  if (!measurePolygon(poly.p_WV_mm.data(), poly.p_WV_mm.size(), poly.area_mm2, poly.centroid_W_mm)) {
    s.polygons.pop_back();
    return;
  }
  poly.pressure_Pa.resize(static_cast<std::size_t>(p.n));
  for (int i = 0; i < p.n; ++i) poly.pressure_Pa[static_cast<std::size_t>(i)] = M.pressureAt(tet, p.v[i]);
  poly.n_W = n_W;
  poly.gradP_W_Pa_per_mm = X_WM.vector(M.gradient_Pa_per_mm[tet]);
}

// Calls visit(tetIndex, leafIndexOfB) for every pair of overlapping leaves of M's tet tree and a tree B whose
// boxes are in B's frame (rel maps B into M).
template <class Visit>
void collideTrees(const TetBvh& a, const std::vector<BvhNode>& b, const detail::RelativePose& rel, Visit&& visit) {
  if (a.nodes.empty() || b.empty()) return;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0u, 0u}};
  while (!stack.empty()) {
    const auto [ia, ib] = stack.back();
    stack.pop_back();
    const BvhNode& na = a.nodes[ia];
    const BvhNode& nb = b[ib];
    if (detail::sphereGap(na.box, nb.box, rel) > 0) continue;
    if (detail::boxGap(na.box, nb.box, rel, 0.0, false) > 0) continue;
    if (na.isLeaf() && nb.isLeaf()) {
      for (std::uint32_t i = na.firstTriangle; i < na.firstTriangle + na.triangleCount; ++i)
        for (std::uint32_t j = nb.firstTriangle; j < nb.firstTriangle + nb.triangleCount; ++j) visit(a.order[i], j);
    } else if (detail::splitFirst(na, nb)) {
      stack.push_back({static_cast<std::uint32_t>(na.firstChild), ib});
      stack.push_back({static_cast<std::uint32_t>(na.firstChild + 1), ib});
    } else {
      stack.push_back({ia, static_cast<std::uint32_t>(nb.firstChild)});
      stack.push_back({ia, static_cast<std::uint32_t>(nb.firstChild + 1)});
    }
  }
}

// Fan triangles around vertex 0 of a polygon: visit(a, b, c, pa, pb, pc).
template <class Visit>
void fan(const ContactPolygon& p, Visit&& visit) {
  for (std::size_t i = 1; i + 1 < p.p_WV_mm.size(); ++i)
    visit(p.p_WV_mm[0], p.p_WV_mm[i], p.p_WV_mm[i + 1], p.pressure_Pa[0], p.pressure_Pa[i], p.pressure_Pa[i + 1]);
}

}  // namespace

// ~125 lines kept whole: both traversal phases and the clip share the per-call stacks (README.md §Algorithms).
ContactSurface compliantRigidSurface(const SoftVolume& M, const Transform& X_WM, const Bvh& N, const Transform& X_WN,
                                     const SurfaceOptions& options) {
  ContactSurface s;
  if (M.bvh.nodes.empty() || N.empty()) return s;
  // Two phases, cheaper than a dual traversal of oriented boxes: the rigid triangles near M's bounding box
  // (N's tree against one box), then each such triangle, mapped into M's frame, down M's axis-aligned tet tree
  // (README.md §Algorithms (a), §Performance).
  const detail::RelativePose rel(X_WM, X_WN);  // N's frame into M's
  const RootBoxInN root(M, detail::RelativePose(X_WN, X_WM));
  const FrameToWorld toWorld(X_WM);
  const std::vector<BvhNode>& nodesN = N.nodes();
  const std::vector<TetBvh::Box>& boxesM = M.bvh.boxes;
  // N's tree may be unbalanced (mean splits): a growing stack; M's is median-split, depth ≤ log2(tets) + 1.
  SmallStack stackN;
  stackN.push(0);
  std::uint32_t stackM[128];
  Poly tri, a, b;
  double sv[4][3];  // signed distances of the triangle's vertices to the tet's 4 face planes
  while (!stackN.empty()) {
    const BvhNode& node = nodesN[stackN.pop()];
    if (root.separatedFrom(node.box)) continue;
    if (!node.isLeaf()) {
      stackN.push(static_cast<std::uint32_t>(node.firstChild));
      stackN.push(static_cast<std::uint32_t>(node.firstChild + 1));
      continue;
    }
    for (std::uint32_t t = node.firstTriangle; t < node.firstTriangle + node.triangleCount; ++t) {
      const Vec3 n_M = rel.R * N.normals()[t];
      const Vec3 n_W = toWorld.vector(n_M);
      const TrianglePoints& P = N.triangles()[t];
      const Vec3 v0 = rel.apply(P[0]), v1 = rel.apply(P[1]), v2 = rel.apply(P[2]);
      tri.n = 0;
      tri.push(v0);
      tri.push(v1);
      tri.push(v2);
      tri.closeDuplicates();
      if (tri.n < 3) continue;  // a degenerate triangle clips to nothing
      if (closestPointOnTriangle(M.boundCentre_mm, v0, v1, v2).distanceSquared > M.boundRadius_mm * M.boundRadius_mm) continue;
      const Vec3 lo = v0.cwiseMin(v1).cwiseMin(v2), hi = v0.cwiseMax(v1).cwiseMax(v2);
      const double planeD = n_M.dot(v0);
      // The triangle's outward in-plane edge normals (zero for a sliver: no cull) and offsets, in M's frame.
      const auto& edgeN = N.edgeNormals()[t];
      const Vec3 e0 = rel.R * edgeN[0], e1 = rel.R * edgeN[1], e2 = rel.R * edgeN[2];
      const double ed0 = e0.dot(v0) + kDuplicate_mm, ed1 = e1.dot(v1) + kDuplicate_mm, ed2 = e2.dot(v2) + kDuplicate_mm;
      // For the plane test of a box: per axis, the offset into Box::corner of the coordinate lowest along n_M
      // (min or max corner) and of the highest.
      const int lo0 = n_M.x() >= 0 ? 0 : 3, lo1 = n_M.y() >= 0 ? 1 : 4, lo2 = n_M.z() >= 0 ? 2 : 5;
      const int hi0 = 3 - lo0, hi1 = 5 - lo1, hi2 = 7 - lo2;
      const double nx = n_M.x(), ny = n_M.y(), nz = n_M.z();
      const int e0x = e0.x() >= 0 ? 0 : 3, e0y = e0.y() >= 0 ? 1 : 4, e0z = e0.z() >= 0 ? 2 : 5;
      const int e1x = e1.x() >= 0 ? 0 : 3, e1y = e1.y() >= 0 ? 1 : 4, e1z = e1.z() >= 0 ? 2 : 5;
      const int e2x = e2.x() >= 0 ? 0 : 3, e2y = e2.y() >= 0 ? 1 : 4, e2z = e2.z() >= 0 ? 2 : 5;
      int topM = 0;
      stackM[topM++] = 0;
      while (topM > 0) {
        const TetBvh::Box& m = boxesM[stackM[--topM]];
        const double* c = &m.corner[0][0];
        if (c[0] > hi.x() || c[3] < lo.x() || c[1] > hi.y() || c[4] < lo.y() || c[2] > hi.z() || c[5] < lo.z()) continue;
        if (m.firstChild >= 0) {
          // Inner boxes: the box test alone. The plane and edge tests below reject few inner boxes (about 2 %
          // of those visited at the bench's depths), less than they cost there.
          stackM[topM++] = static_cast<std::uint32_t>(m.firstChild);
          stackM[topM++] = static_cast<std::uint32_t>(m.firstChild + 1);
          continue;
        }
        // A leaf wholly on one side of the triangle's plane holds no tet that straddles it (the boxes are padded
        // by 1e-9 mm, far above the round-off here, so a tet vertex on the plane keeps its box).
        const double below = nx * c[lo0] + ny * c[lo1] + nz * c[lo2];
        const double above = nx * c[hi0] + ny * c[hi1] + nz * c[hi2];
        if (below > planeD || above < planeD) continue;
        // Nor a leaf wholly beyond one of the triangle's edge planes (its lowest corner along the edge normal).
        if (e0.x() * c[e0x] + e0.y() * c[e0y] + e0.z() * c[e0z] > ed0 ||
            e1.x() * c[e1x] + e1.y() * c[e1y] + e1.z() * c[e1z] > ed1 ||
            e2.x() * c[e2x] + e2.y() * c[e2y] + e2.z() * c[e2z] > ed2)
          continue;
        // Last to first: the order in which a descent to single tets would reach them (right child first).
        for (std::uint32_t i = m.first + m.count; i-- > m.first;) {
          const std::uint32_t tet = M.bvh.order[i];
          if (!alongGradient(n_M, M.gradient_Pa_per_mm[tet], M.gradientNorm_Pa_per_mm[tet])) continue;
          // The tet must straddle the triangle's plane (its 4 vertices' heights above it, one lane each).
          const SoftVolume::TetLanes& T = M.tetLanes[tet];
          const Eigen::Array4d h = nx * T.x_mm + ny * T.y_mm + nz * T.z_mm - planeD;
          if (h.minCoeff() > 0 || h.maxCoeff() < 0) continue;
          // The triangle must not lie wholly outside one of the tet's faces (most candidates end here); a
          // triangle wholly inside all four is the polygon itself. Lane k: face k's distance to each vertex.
          const Eigen::Array4d f0 = T.faceX * tri.v[0].x() + T.faceY * tri.v[0].y() + T.faceZ * tri.v[0].z() - T.faceOffset_mm;
          const Eigen::Array4d f1 = T.faceX * tri.v[1].x() + T.faceY * tri.v[1].y() + T.faceZ * tri.v[1].z() - T.faceOffset_mm;
          const Eigen::Array4d f2 = T.faceX * tri.v[2].x() + T.faceY * tri.v[2].y() + T.faceZ * tri.v[2].z() - T.faceOffset_mm;
          // A triangle that touches a face plane only where f = 0 exactly (a vertex or an edge on it, the rest
          // outside; aligned poses do this) meets the tet in no area either: it counts as outside.
          const Eigen::Array4d fMin = f0.min(f1).min(f2);
          if (((f0.max(f1).max(f2) <= 0) && (fMin < 0)).any()) continue;
          // Nor may the tet lie wholly beyond one of the triangle's edges (by more than 1e-9 mm, so that
          // clipping could not have left a polygon either): most of the pairs that passed the face test but
          // clip to nothing end here, at a fraction of the clipping's cost.
          auto beyond = [&](const Vec3& e, double ed) {
            return ((e.x() * T.x_mm + e.y() * T.y_mm + e.z() * T.z_mm) > ed).all();
          };
          if (beyond(e0, ed0) || beyond(e1, ed1) || beyond(e2, ed2)) continue;
          if ((fMin >= 0).all()) {
            emit(s, tri, toWorld, n_W, M, tet);
            continue;
          }
          for (int k = 0; k < 4; ++k) {
            sv[k][0] = f0[k];
            sv[k][1] = f1[k];
            sv[k][2] = f2[k];
          }
          // Sutherland–Hodgman by the 4 faces; while nothing is cut yet the distances above are reused.
          const Poly* in = &tri;
          Poly* out = &a;
          Poly* spare = &b;
          for (int k = 0; k < 4 && in->n >= 3; ++k) {
            const bool cut = in == &tri ? clipWith(tri, sv[k], *out)
                                        : clip(*in, M.faceNormal[tet][k], M.faceOffset_mm[tet][k], *out);
            if (!cut) continue;
            in = out;
            std::swap(out, spare);
          }
          emit(s, *in, toWorld, n_W, M, tet);
        }
      }
    }
  }
  finishMeasured(s, options);
  return s;
}

ContactSurface compliantRigidHalfSpaceSurface(const SoftVolume& M, const Transform& X_WM, const Vec3& planePoint_W_mm,
                                              const Vec3& planeNormal_W, const SurfaceOptions& options) {
  ContactSurface s;
  const Transform X_MW = X_WM.inverse();
  const Vec3 n_M = X_MW.applyToVector(planeNormal_W.normalized());
  const double d = n_M.dot(X_MW * planePoint_W_mm);
  const FrameToWorld toWorld(X_WM);
  const Vec3 n_W = toWorld.vector(n_M);
  const TetBvh& tree = M.bvh;
  if (tree.nodes.empty()) return s;
  std::vector<std::uint32_t> stack{0};
  Poly p;
  Vec3 v[4];
  while (!stack.empty()) {
    const BvhNode& node = tree.nodes[stack.back()];
    stack.pop_back();
    const double reach = node.box.halfExtents.dot(n_M.cwiseAbs());
    if (std::abs(n_M.dot(node.box.center) - d) > reach) continue;
    if (!node.isLeaf()) {
      stack.push_back(static_cast<std::uint32_t>(node.firstChild));
      stack.push_back(static_cast<std::uint32_t>(node.firstChild + 1));
      continue;
    }
    for (std::uint32_t i = node.firstTriangle; i < node.firstTriangle + node.triangleCount; ++i) {
      const std::uint32_t tet = tree.order[i];
      if (!alongGradient(n_M, M.gradient_Pa_per_mm[tet])) continue;
      tetVertices(M, tet, v);
      sliceTet(v, n_M, d, p);
      emit(s, p, toWorld, n_W, M, tet);
    }
  }
  finishMeasured(s, options);
  return s;
}

ContactSurface compliantHalfSpaceRigidSurface(const CompliantHalfSpace& M, const Transform& X_WM, const Bvh& N,
                                              const Transform& X_WN, const SurfaceOptions& options) {
  ContactSurface s;
  const Transform X_WS = X_WM * M.X_BS;
  const Vec3 n_W = X_WS.applyToVector(Vec3::UnitZ());
  const Vec3 grad_W = -M.pressurePerDepth_Pa_per_mm * n_W;
  // In N's frame: height above the plane φ = n·x − d; polygons keep φ ≤ δ.
  const Transform X_NW = X_WN.inverse();
  const Vec3 n_N = X_NW.applyToVector(n_W);
  const double d_N = n_N.dot(X_NW * X_WS.translation());
  if (N.nodes().empty()) return s;
  std::vector<std::uint32_t> stack{0};
  Poly a, b;
  while (!stack.empty()) {
    const BvhNode& node = N.nodes()[stack.back()];
    stack.pop_back();
    const double reach = (node.box.axes.transpose() * n_N).cwiseAbs().dot(node.box.halfExtents);
    if (n_N.dot(node.box.center) - d_N - reach > M.margin_mm) continue;
    if (!node.isLeaf()) {
      stack.push_back(static_cast<std::uint32_t>(node.firstChild));
      stack.push_back(static_cast<std::uint32_t>(node.firstChild + 1));
      continue;
    }
    for (std::uint32_t i = node.firstTriangle; i < node.firstTriangle + node.triangleCount; ++i) {
      const Vec3& triNormal_N = N.normals()[i];
      if (!(triNormal_N.dot(-n_N) > kCosMaxAngle)) continue;
      a.n = 0;
      for (int k = 0; k < 3; ++k) a.push(N.triangles()[i][k]);
      a.closeDuplicates();
      const Poly& kept = clip(a, -n_N, -(d_N + M.margin_mm), b) ? b : a;
      if (kept.n < 3) continue;
      ContactPolygon poly;
      for (int k = 0; k < kept.n; ++k) {
        poly.p_WV_mm.push_back(X_WN * kept.v[k]);
        poly.pressure_Pa.push_back(-(n_N.dot(kept.v[k]) - d_N) * M.pressurePerDepth_Pa_per_mm);
      }
      poly.n_W = X_WN.applyToVector(triNormal_N);
      poly.gradP_W_Pa_per_mm = grad_W;
      s.polygons.push_back(std::move(poly));
    }
  }
  finishContactSurface(s, options);
  return s;
}

ContactSurface compliantCompliantSurface(const SoftVolume& M, const Transform& X_WM, const SoftVolume& N,
                                         const Transform& X_WN, const SurfaceOptions& options) {
  ContactSurface s;
  s.nCompliant = true;
  const detail::RelativePose rel(X_WM, X_WN);
  const FrameToWorld toWorld(X_WM);
  Poly a, b;
  Vec3 v[4];
  collideTrees(M.bvh, N.bvh.nodes, rel, [&](std::uint32_t t0, std::uint32_t leaf) {
    const std::uint32_t t1 = N.bvh.order[leaf];
    const Vec3& g0 = M.gradient_Pa_per_mm[t0];
    const Vec3 g1 = rel.R * N.gradient_Pa_per_mm[t1];
    const double c0 = M.offset_Pa[t0];
    const double c1 = N.offset_Pa[t1] - g1.dot(rel.t);
    const Vec3 dg = g0 - g1;
    const double len = dg.norm();
    if (!(len > 1e-12 * (g0.norm() + g1.norm()))) return;  // parallel fields: no equal-pressure plane
    const Vec3 n = dg / len;  // out of N, into M
    if (!alongGradient(n, g0) || !alongGradient(-n, g1)) return;
    tetVertices(M, t0, v);
    sliceTet(v, n, -(c0 - c1) / len, a);
    Poly* in = &a;
    Poly* out = &b;
    for (int k = 0; k < 4 && in->n >= 3; ++k) {
      const Vec3 fn = rel.R * N.faceNormal[t1][k];
      if (clip(*in, fn, N.faceOffset_mm[t1][k] + fn.dot(rel.t), *out)) std::swap(in, out);
    }
    emit(s, *in, toWorld, toWorld.vector(n), M, t0);
  });
  finishMeasured(s, options);
  return s;
}

namespace {
void fanAroundCentroid(const ContactPolygon& p, std::vector<ContactPolygon>& kept);
void computeTotals(ContactSurface& s, double mu);
}  // namespace

void finishContactSurface(ContactSurface& s, const SurfaceOptions& options) {
  // Area and centroid per polygon; zero-area polygons (degenerate touches) are dropped, in place.
  std::size_t n = 0;
  for (ContactPolygon& p : s.polygons) {
    if (!measurePolygon(p.p_WV_mm.data(), p.p_WV_mm.size(), p.area_mm2, p.centroid_W_mm)) continue;
    if (&s.polygons[n] != &p) s.polygons[n] = std::move(p);
    ++n;
  }
  s.polygons.resize(n);
  finishMeasured(s, options);
}

namespace {

void finishMeasured(ContactSurface& s, const SurfaceOptions& options) {
  if (options.triangulated) {
    std::vector<ContactPolygon> kept;
    kept.reserve(3 * s.polygons.size());
    for (const ContactPolygon& p : s.polygons) fanAroundCentroid(p, kept);
    s.polygons = std::move(kept);
  }
  s.triangulated = s.triangulated || options.triangulated;
  computeTotals(s, options.mu);
}

}  // namespace

void triangulateContactSurface(ContactSurface& s) {
  if (s.triangulated) return;
  std::vector<ContactPolygon> kept;
  kept.reserve(3 * s.polygons.size());
  for (const ContactPolygon& p : s.polygons) fanAroundCentroid(p, kept);
  s.polygons = std::move(kept);
  s.triangulated = true;
}

namespace {

// Drake's TriMeshBuilder: a fan around the centroid, its pressure extrapolated with the face gradient.
void fanAroundCentroid(const ContactPolygon& p, std::vector<ContactPolygon>& kept) {
    const double pc = p.pressure_Pa[0] + p.gradP_W_Pa_per_mm.dot(p.centroid_W_mm - p.p_WV_mm[0]);
    for (std::size_t i = 0; i < p.p_WV_mm.size(); ++i) {
      const std::size_t j = (i + 1) % p.p_WV_mm.size();
      ContactPolygon t;
      t.p_WV_mm = {p.centroid_W_mm, p.p_WV_mm[i], p.p_WV_mm[j]};
      t.pressure_Pa = {pc, p.pressure_Pa[i], p.pressure_Pa[j]};
      t.n_W = p.n_W;
      t.gradP_W_Pa_per_mm = p.gradP_W_Pa_per_mm;
      t.area_mm2 = 0.5 * (t.p_WV_mm[1] - t.p_WV_mm[0]).cross(t.p_WV_mm[2] - t.p_WV_mm[0]).norm();
      if (!(t.area_mm2 > 1e-14)) continue;
      t.centroid_W_mm = (t.p_WV_mm[0] + t.p_WV_mm[1] + t.p_WV_mm[2]) / 3;
      kept.push_back(std::move(t));
    }
}

void computeTotals(ContactSurface& s, double mu) {
  // Totals. Per fan triangle ∫p dA = A·mean(p) and ∫p x dA by the edge-midpoint rule (exact for linear p).
  constexpr double kN = 1e-6;  // Pa·mm² → N
  double P0 = 0, area = 0;
  Vec3 P1 = Vec3::Zero(), force = Vec3::Zero(), moment = Vec3::Zero(), areaNormal = Vec3::Zero(), areaCentre = Vec3::Zero();
  double peak = 0;
  // The fan triangles' areas, kept for the torsion pass below while they fit (≤ 6 a polygon).
  constexpr std::size_t kKeptAreas = 1024;
  double keptArea[kKeptAreas];
  std::size_t fanTriangles = 0;
  for (const ContactPolygon& p : s.polygons) {
    double p0 = 0;
    Vec3 p1 = Vec3::Zero();
    fan(p, [&](const Vec3& A, const Vec3& B, const Vec3& C, double pa, double pb, double pc) {
      const double ta = 0.5 * (B - A).cross(C - A).norm();
      if (fanTriangles < kKeptAreas) keptArea[fanTriangles] = ta;
      ++fanTriangles;
      p0 += ta * (pa + pb + pc) / 3;
      p1 += (ta / 3) * (0.5 * (pa + pb) * 0.5 * (A + B) + 0.5 * (pb + pc) * 0.5 * (B + C) + 0.5 * (pc + pa) * 0.5 * (C + A));
    });
    P0 += p0;
    P1 += p1;
    force += p0 * p.n_W;
    moment += p1.cross(p.n_W);
    area += p.area_mm2;
    areaNormal += p.area_mm2 * p.n_W;
    areaCentre += p.area_mm2 * p.centroid_W_mm;
    for (double v : p.pressure_Pa) peak = std::max(peak, v);
  }
  s.area_mm2 = area;
  s.peakPressure_Pa = peak;
  s.normalForce_N = std::abs(P0) * kN;
  s.force_W_N = force * kN;
  if (s.polygons.empty()) return;
  areaCentre /= area;
  const Vec3 meanNormal = areaNormal.norm() > 0 ? Vec3(areaNormal.normalized()) : Vec3::UnitZ();
  Vec3 cop = std::abs(P0) > 0 ? Vec3(P1 / P0) : areaCentre;
  cop -= meanNormal.dot(cop - areaCentre) * meanNormal;
  s.centreOfPressure_W_mm = cop;
  s.moment_W_Nmm = (moment - cop.cross(force)) * kN;
  // ∫ μ p |r| dA about the normal axis through the centre of pressure (edge-midpoint rule per fan triangle).
  double torsion = 0;
  auto lever = [&](const Vec3& x) {
    const Vec3 r = x - cop;
    return (r - meanNormal.dot(r) * meanNormal).norm();
  };
  std::size_t fanTriangle = 0;
  for (const ContactPolygon& p : s.polygons)
    fan(p, [&](const Vec3& A, const Vec3& B, const Vec3& C, double pa, double pb, double pc) {
      const double ta = fanTriangle < kKeptAreas ? keptArea[fanTriangle] : 0.5 * (B - A).cross(C - A).norm();
      ++fanTriangle;
      torsion += (ta / 3) * (0.5 * (pa + pb) * lever(0.5 * (A + B)) + 0.5 * (pb + pc) * lever(0.5 * (B + C)) +
                             0.5 * (pc + pa) * lever(0.5 * (C + A)));
    });
  s.torsionalLimit_Nmm = mu * torsion * kN;
}

}  // namespace

}  // namespace sg
