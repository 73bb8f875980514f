#pragma once
// Textbook Hertz contact of two elastic bodies (Johnson, Contact Mechanics §4.2–§4.3), circular and
// elliptical. Units: lengths mm, force N, moduli Pa, pressure Pa.
//
// Moduli combine as 1/E* = (1 − ν1²)/E1 + (1 − ν2²)/E2 (a rigid body contributes 0). NOTE Simbody's
// "springs in series in the x^(3/2) law" differs (README.md §Hertz): for identical materials it gives
// 1/√2 of this force at the same approach.
#include <optional>

#include "contact/QuadricRelativeCurvature.h"

namespace sg {

// Complete elliptic integrals of the first and second kind, K(m) and E(m), parameter m = e² in [0, 1)
// (arithmetic–geometric mean; full double precision).
double ellipticK(double m);
double ellipticE(double m);

// E* (Pa) from two bodies; nullopt (rigid) or non-positive moduli contribute nothing. Throws sg::Error if both
// are rigid.
double hertzEffectiveModulus_Pa(std::optional<double> youngs1_Pa, double poisson1,
                                std::optional<double> youngs2_Pa, double poisson2);

struct HertzEllipse {
  double semiAxisLong_mm = 0;    // a: along the direction of the SMALLER relative curvature
  double semiAxisShort_mm = 0;   // b: along the larger relative curvature (b <= a)
  double approach_mm = 0;        // δ: total normal approach of distant points
  double maxPressure_Pa = 0;     // p0 = 3P / (2π a b)
  double eccentricitySquared = 0;  // e² = 1 − b²/a²
};

// The Hertz ellipse for relative radii R' = radiusSmall_mm <= R'' = radiusLarge_mm (the gap's principal
// radii, both finite and positive), normal force N and effective modulus E*. Solves the eccentricity from
// R''/R' = [(a/b)² E(e) − K(e)] / [K(e) − E(e)] by bisection. Equal radii give the circular solution
// a = b = (3 N R / 4E*)^(1/3), δ = a²/R.
HertzEllipse hertzEllipse(double radiusSmall_mm, double radiusLarge_mm, double normalForce_N,
                          double effectiveModulus_Pa);

// The Hertz ellipse of two surfaces from their combined curvature (combineParaboloids / relativeCurvature in
// QuadricRelativeCurvature.h: R' = 1/κmax, R'' = 1/κmin of the gap). Throws sg::Error for a conforming gap
// (κmin <= 0: point-contact Hertz does not apply).
HertzEllipse hertzEllipse(const RelativeCurvature& gap, double normalForce_N, double effectiveModulus_Pa);

// The force–approach curve of the elliptical (and circular) contact: the normal force (N) at approach δ (mm).
// The eccentricity does not depend on the load and δ ∝ N^(2/3), so F(δ) = N₁·(δ/δ₁)^(3/2) with δ₁ the approach
// at N₁ = 1 N; for R' = R'' it is 4/3 E* √R δ^(3/2).
double hertzForceAtApproach_N(double radiusSmall_mm, double radiusLarge_mm, double approach_mm,
                              double effectiveModulus_Pa);

// Inverse of the circular case: the normal force (N) producing approach δ for radius R and E*
// (F = 4/3 E* √R δ^(3/2)).
double hertzCircularForce_N(double radius_mm, double approach_mm, double effectiveModulus_Pa);

}  // namespace sg
