#pragma once
// A hydroelastic contact surface between two bodies (src/geometry/hydro/README.md): polygons carrying a
// piecewise-linear pressure, and what it integrates to. Plain data, world frame, mm, Pa, N.
//
// Conventions (Drake's ContactSurface): body M is compliant; body N is rigid or compliant. Every normal
// points OUT OF N and INTO M, so the force on M is +Σ p n dA. Pressure × area: 1 Pa · 1 mm² = 1e-6 N.
#include <vector>

#include "core/FixedVector.h"
#include "core/Transform.h"

namespace sg {

struct ContactPolygon {
  // At most kMaxVertices, stored inline (no heap allocation per polygon): a triangle clipped by a tet's 4
  // faces has ≤ 7 vertices, a tet slice (≤ 4) clipped by another tet's 4 faces ≤ 8.
  static constexpr std::size_t kMaxVertices = 8;
  FixedVector<Vec3, kMaxVertices> p_WV_mm;          // vertices, counter-clockwise seen from the tip of n_W
  FixedVector<double, kMaxVertices> pressure_Pa;  // one per vertex
  Vec3 n_W = Vec3::UnitZ();         // unit, out of N into M
  Vec3 gradP_W_Pa_per_mm = Vec3::Zero();  // gradient of M's field in this face (constant per face)
  double area_mm2 = 0.0;
  Vec3 centroid_W_mm = Vec3::Zero();
};

struct ContactSurface {
  int bodyM = -1, bodyN = -1;       // indices into World::bodyHandles() (M compliant)
  bool nCompliant = false;          // N compliant too (equal-pressure surface) or rigid
  bool triangulated = false;        // polygons fanned into triangles around their centroids
  std::vector<ContactPolygon> polygons;

  // Totals over the surface (filled with the polygons).
  double area_mm2 = 0.0;
  double normalForce_N = 0.0;       // ∫ p dA, as a magnitude
  double peakPressure_Pa = 0.0;
  Vec3 force_W_N = Vec3::Zero();    // net force on M: ∫ p n dA
  Vec3 centreOfPressure_W_mm = Vec3::Zero();  // ∫ p x dA / ∫ p dA, projected on the surface's mean plane
  Vec3 moment_W_Nmm = Vec3::Zero(); // net moment on M about the centre of pressure
  double torsionalLimit_Nmm = 0.0;  // ∫ μ p |r| dA about the centre of pressure (μ of the pair)

  bool empty() const { return polygons.empty(); }
};

}  // namespace sg
