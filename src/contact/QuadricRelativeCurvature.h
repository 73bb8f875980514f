#pragma once
// Relative curvature of two touching surfaces (Johnson, Contact Mechanics ch. 4; README.md §Relative curvature; Simbody's
// combineParaboloids). Each surface is a paraboloid with principal curvatures
// (κmax, κmin) — positive when it curves away from the other body — and the direction of κmax in the common
// tangent plane. The gap between them is the paraboloid with curvatures
//   Σ = (k1max + k1min) + (k2max + k2min),  D = √(Δ1² + Δ2² + 2Δ1Δ2 cos 2w),  κ = (Σ ± D)/2,
// w the angle between the two κmax directions. Its radii R' = 1/κmax ≤ R'' = 1/κmin are the effective
// (relative) radii that size the contact patch.
#include "contact/QuadricFit.h"

namespace sg {

struct RelativeCurvature {
  double kappaMax_per_mm = 0, kappaMin_per_mm = 0;  // of the gap; κmin <= 0 means conforming
  Vec3 directionMax = Vec3::UnitX();                 // world, unit: direction of κmax (short patch axis)
  Vec3 directionMin = Vec3::UnitY();                 // world, unit: direction of κmin (long patch axis)
  bool conforming() const { return kappaMin_per_mm <= 0; }
  // Effective radii (mm); +inf where the gap curvature is <= 0.
  double radiusMin_mm() const;  // R' = 1/κmax
  double radiusMax_mm() const;  // R'' = 1/κmin
};

// The general combination. x1 is the κmax direction of surface 1, x2 that of surface 2, `normal` the
// common normal (any sign); directions need only be tangent, not normalised relative to each other.
RelativeCurvature combineParaboloids(double k1max, double k1min, const Vec3& x1, double k2max, double k2min,
                                     const Vec3& x2, const Vec3& normal);

enum class ConcaveRule {
  TreatAsFlat,  // GraspIt!: a negative principal curvature counts as 0
  Signed        // keep the sign: a concave surface cradling a convex one gives a larger relative radius
};

// Both bodies' fitted curvatures (each expressed about its own inward normal, as QuadricFit gives them);
// `normal1` is the inward normal of body 1.
RelativeCurvature relativeCurvature(const PrincipalCurvatures& body1, const PrincipalCurvatures& body2,
                                    const Vec3& normal1, ConcaveRule rule = ConcaveRule::Signed);

}  // namespace sg
