#pragma once
// Single-precision BVH node boxes for the distance traversal (README.md §Proximity): a box is the three
// rows of its axis matrix, its centre and its half extents, each one 4-lane float vector, so the
// face-axis gap of two boxes is ~100 vector operations (the scalar double test: ~360 instructions) and a
// node with its links takes 96 bytes (a double BvhNode: 144). The rounding of the floats is paid for by a
// margin (compactGapMargin) the caller subtracts, so the gap stays a lower bound on the boxes' distance.
// Written with the GCC/Clang vector extension: SSE on x86-64, NEON on ARM, scalar code elsewhere.
#include <cmath>
#include <cstdint>

#include "core/Math.h"

namespace sg {

namespace simd {
typedef float F4 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));
}  // namespace simd

#if defined(__clang__)
#define SG_SHUFFLE2(a, b, i, j, k, l) __builtin_shufflevector(a, b, i, j, k, l)
#else
#define SG_SHUFFLE2(a, b, i, j, k, l) __builtin_shuffle(a, b, ::sg::simd::I4{i, j, k, l})
#endif
#define SG_SPLAT(a, i) SG_SHUFFLE2(a, a, i, i, i, i)

// Lane 3 of a box's half extents: so large that lane 3 of every gap is hugely negative and drops out of
// the maxima and sums below (lane 3 of the rows and the centre is zero).
inline constexpr float kCompactUnusedLane = 1e30f;

struct CompactBox {
  simd::F4 rows[3];      // rows[k][i] = axes(k, i): the box axes are the columns of `axes`
  simd::F4 center;       // mm
  simd::F4 halfExtents;  // mm, along the axes; lane 3 = kCompactUnusedLane
};

// A node: its box and its place in the tree. Scratch copies of another mesh's nodes carry a stamp.
struct CompactNode {
  CompactBox box;
  std::int32_t child = -1;   // ≥ 0: children at child and child + 1; < 0: a leaf, triangles ~child …
  std::uint32_t count = 0;   // a leaf's triangle count
  float radius = 0;          // mm: the node's bounding sphere, which picks the node to split
  std::uint32_t stamp = 0;   // scratch copies: the query that mapped this one
  bool isLeaf() const { return child < 0; }
  std::uint32_t firstTriangle() const { return ~static_cast<std::uint32_t>(child); }
};

// The box with axes `axes` (columns, unit), centre and half extents, rounded to floats.
inline CompactBox makeCompactBox(const Mat3& axes, const Vec3& center, const Vec3& halfExtents) {
  CompactBox b;
  for (int k = 0; k < 3; ++k)
    b.rows[k] = simd::F4{static_cast<float>(axes(k, 0)), static_cast<float>(axes(k, 1)), static_cast<float>(axes(k, 2)), 0.0f};
  b.center = simd::F4{static_cast<float>(center.x()), static_cast<float>(center.y()), static_cast<float>(center.z()), 0.0f};
  b.halfExtents = simd::F4{static_cast<float>(halfExtents.x()), static_cast<float>(halfExtents.y()),
                           static_cast<float>(halfExtents.z()), kCompactUnusedLane};
  return b;
}

namespace simd {
inline F4 abs(F4 x) { return reinterpret_cast<F4>(reinterpret_cast<I4>(x) & 0x7fffffff); }
inline F4 max(F4 a, F4 b) { return a > b ? a : b; }
}  // namespace simd

// The first half of the face-axis gap: the centre offset d = b − a, |R| by columns (R = Aᵀ·B: lane i of column
// j = |a's axis i · b's axis j|) and the separations along a's axes, |tA_i| − ea_i − Σ_j eb_j |R_ij|. Shared by
// compactBoxGap and compactBoxGapExceeds, so both compute these lanes with the same operations.
struct CompactGapAlongA {
  simd::F4 d, c0, c1, c2, gA;
};
inline CompactGapAlongA compactGapAlongA(const CompactBox& a, const CompactBox& b) {
  using namespace simd;
  CompactGapAlongA r;
  r.d = b.center - a.center;
  const F4 dx = SG_SPLAT(r.d, 0), dy = SG_SPLAT(r.d, 1), dz = SG_SPLAT(r.d, 2);
  const F4 tA = a.rows[0] * dx + a.rows[1] * dy + a.rows[2] * dz;
  r.c0 = abs(a.rows[0] * SG_SPLAT(b.rows[0], 0) + a.rows[1] * SG_SPLAT(b.rows[1], 0) + a.rows[2] * SG_SPLAT(b.rows[2], 0));
  r.c1 = abs(a.rows[0] * SG_SPLAT(b.rows[0], 1) + a.rows[1] * SG_SPLAT(b.rows[1], 1) + a.rows[2] * SG_SPLAT(b.rows[2], 1));
  r.c2 = abs(a.rows[0] * SG_SPLAT(b.rows[0], 2) + a.rows[1] * SG_SPLAT(b.rows[1], 2) + a.rows[2] * SG_SPLAT(b.rows[2], 2));
  r.gA = abs(tA) - a.halfExtents -
         (r.c0 * SG_SPLAT(b.halfExtents, 0) + r.c1 * SG_SPLAT(b.halfExtents, 1) + r.c2 * SG_SPLAT(b.halfExtents, 2));
  return r;
}

// The face-axis gap of two boxes in one frame, as boxGapMapped without the edge axes: along each box's
// three orthonormal face axes the separations add in quadrature, else the largest (≤ 0: overlapping)
// separation. In float: subtract compactGapMargin to get a lower bound on the distance.
inline float compactBoxGap(const CompactBox& a, const CompactBox& b) {
  using namespace simd;
  const auto [d, c0, c1, c2, gA] = compactGapAlongA(a, b);
  // The centre offset along b's axes.
  const F4 tB = b.rows[0] * SG_SPLAT(d, 0) + b.rows[1] * SG_SPLAT(d, 1) + b.rows[2] * SG_SPLAT(d, 2);
  // |R| by rows (transposed), then along b's axes: |tB_j| − eb_j − Σ_i ea_i |R_ij|.
  const F4 zero{0.0f, 0.0f, 0.0f, 0.0f};
  const F4 lo01 = SG_SHUFFLE2(c0, c1, 0, 4, 1, 5), lo2 = SG_SHUFFLE2(c2, zero, 0, 4, 1, 5);
  const F4 hi01 = SG_SHUFFLE2(c0, c1, 2, 6, 3, 7), hi2 = SG_SHUFFLE2(c2, zero, 2, 6, 3, 7);
  const F4 r0 = SG_SHUFFLE2(lo01, lo2, 0, 1, 4, 5), r1 = SG_SHUFFLE2(lo01, lo2, 2, 3, 6, 7);
  const F4 r2 = SG_SHUFFLE2(hi01, hi2, 0, 1, 4, 5);
  const F4 gB = abs(tB) - b.halfExtents -
                (r0 * SG_SPLAT(a.halfExtents, 0) + r1 * SG_SPLAT(a.halfExtents, 1) + r2 * SG_SPLAT(a.halfExtents, 2));
  // Sums of the squared positive gaps of each box: (ΣA, ΣA, ΣB, ΣB).
  const F4 pA = max(gA, zero), pB = max(gB, zero);
  const F4 sA = pA * pA, sB = pB * pB;
  const F4 h = SG_SHUFFLE2(sA, sB, 0, 1, 4, 5) + SG_SHUFFLE2(sA, sB, 2, 3, 6, 7);
  const F4 s = h + SG_SHUFFLE2(h, h, 1, 0, 3, 2);
  const float sum = s[0] > s[2] ? s[0] : s[2];
  if (sum > 0) return std::sqrt(sum);
  const F4 g = max(gA, gB);
  const F4 g2 = max(g, SG_SHUFFLE2(g, g, 2, 3, 0, 1));
  return g2[0] > g2[1] ? g2[0] : g2[1];
}

// Exactly `double(compactBoxGap(a, b)) − margin > limit` (the same float and double operations, so the same
// answer on every input), often
// at about half the cost: the gap is the root of the larger of the two boxes' sums of squared positive
// separations when that is positive, so a's sum alone, once its root exceeds the limit, decides "beyond"
// without b's axes (a node pair a contact or collision traversal prunes; README.md §Proximity).
inline bool compactBoxGapExceeds(const CompactBox& a, const CompactBox& b, double margin, double limit) {
  using namespace simd;
  const F4 gA = compactGapAlongA(a, b).gA;
  const F4 zero{0.0f, 0.0f, 0.0f, 0.0f};
  const F4 pA = max(gA, zero);
  const F4 sA = pA * pA;
  // Lane 0 of compactBoxGap's s, summed in its order: (sA0 + sA2) + (sA1 + sA3).
  const float sumA = (sA[0] + sA[2]) + (sA[1] + sA[3]);
  // compactBoxGap returns sqrt(max(ΣA, ΣB)) ≥ sqrt(ΣA) here (sqrt, the conversion and the subtraction are
  // correctly rounded, hence monotone).
  if (sumA > 0 && static_cast<double>(std::sqrt(sumA)) - margin > limit) return true;
  return static_cast<double>(compactBoxGap(a, b)) - margin > limit;
}

// What compactBoxGap may exceed the exact face-axis gap by, for boxes whose centres lie within
// `coordinateScale` of the origin and whose half extents are at most it (mm). Float rounding (unit u =
// 2⁻²⁴) of the inputs, the offsets, |R| and the sums, with one box mapped in floats (mapCompactBox),
// stays below ~300·u·scale (README.md §Proximity); the margin is 2⁻¹⁴·scale = 1024·u·scale.
inline double compactGapMargin(double coordinateScale) { return 0x1p-14 * coordinateScale; }

}  // namespace sg
