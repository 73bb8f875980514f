#pragma once
// Local paraboloid fit at a contact and its principal curvatures (src/contact/README.md §Soft finger).
//
// The neighbourhood points are expressed in the contact frame WITH its origin at the contact point (GraspIt!'s
// Eigen port forgot the translation, README.md §Differences from GraspIt!), then z = a·x² + b·y² + c·x·y is fitted by least squares
// (z = inward normal, so a convex body gives positive curvatures). The principal curvatures are the
// eigenvalues of the Hessian [[2a, c], [c, 2b]] and the principal directions its eigenvectors — no
// rotation angle, so no θ = π/2 quirk and no sign mix-up between the stored rotation and the radii (same section).
// Flat (|κ| below a tolerance) and concave (κ < 0) directions are reported explicitly; what a concave
// direction means for the contact patch is decided later (RelativeCurvature, SoftPatch).
#include <string>
#include <vector>

#include "core/Transform.h"

namespace sg {

enum class QuadricFitStatus {
  Ok,
  TooFewPoints,   // fewer than 3 usable points (jet: fewer equations than a quadratic needs): flat
  Degenerate,     // the points do not determine the coefficients (e.g. collinear): flat
  Unreliable      // a fit, but its residual is not small against the neighbourhood (QuadricFit::note says how
                  // much): the surface is not a smooth graph there (an edge, noise, a facet too coarse). The
                  // jet reports it flat; GraspIt!'s paraboloid keeps its coefficients (parity)
};

// Stable keys ("ok", "too-few-points", "degenerate", "unreliable") for the CLI's JSON and text.
const char* quadricFitStatusKey(QuadricFitStatus s);

// Which estimator turns a neighbourhood into curvatures (src/contact/README.md §Curvature estimators).
enum class CurvatureEstimator {
  GraspItParaboloid,  // GraspIt!'s z = a x² + b y² + c xy through the contact point, positions only (fitQuadric)
  OsculatingJet,      // distance-weighted polynomial jet up to degree 6 fitted to positions AND vertex normals,
                      // curvatures from its shape operator (CurvatureEstimator.h, fitOsculatingJet)
  Exact               // the body's analytic primitive (PrimitiveCurvature.h): exact principal curvatures and
                      // directions, zero residual. Chosen as settings.estimator on a mesh body it means the jet.
};

const char* curvatureEstimatorName(CurvatureEstimator e);

struct QuadricFitSettings {
  // Curvatures with |κ| below this (1/mm) are exactly 0 ("flat"). GraspIt! zeroes |coefficient| < 1e-6,
  // i.e. |κ| < 2e-6 /mm.
  double flatCurvature_per_mm = 2e-6;
  // The estimator used by the soft-contact model (fitCurvature in CurvatureEstimator.h). The osculating jet by
  // default (≤ 1 % on well-tessellated spheres, cylinders, ellipsoids); GraspItParaboloid for GraspIt!'s numbers.
  CurvatureEstimator estimator = CurvatureEstimator::OsculatingJet;
  // OsculatingJet: Gaussian weight exp(−(d/σ)²) of a sample at tangent distance d, σ = jetWeightWidth · ρ,
  // ρ the largest tangent distance in the neighbourhood.
  double jetWeightWidth = 0.5;
  int jetMaxDegree = 6;                 // 2..6; lowered automatically when the data cannot determine it
  // Normals whose angle to the frame's outward axis exceeds acos(jetMinNormalCosine) are ignored (their slope
  // is too steep to be a graph sample).
  double jetMinNormalCosine = 0.2;
  // OsculatingJet: a vertex normal averages only the incident faces within acos(jetFaceNormalMinCosine) of the
  // contact's outward normal (vertexNormals in CurvatureEstimator.h), so crease and corner vertices of a coarse
  // mesh carry the normal of the face the contact is on (a box face reads flat). ≈ 45.6°.
  double jetFaceNormalMinCosine = 0.7;
  // On a body whose geometry is an exact primitive, use its exact curvatures (estimator Exact) whatever
  // `estimator` says; false fits the primitive's tessellation like any mesh (GraspIt! parity).
  bool exactOnPrimitives = true;
  // A fit is supported (README.md §Coarse meshes) when its weighted RMS position residual is at most
  // maxRelativeResidual × the neighbourhood radius and its weighted RMS slope residual at most maxSlopeResidual;
  // else its status is Unreliable. A smooth, well-tessellated surface leaves ~1e-5 of the radius and ~1e-4 in
  // slope; a cap or crease in the neighbourhood, noise, or facets too coarse for the radius leave more.
  double maxRelativeResidual = 0.04;
  double maxSlopeResidual = 0.01;
  // The soft model can refit an unsupported (or failed) jet fit on a mesh over neighbourhoods grown by growFactor,
  // at most growSteps times, keeping the first supported one. Off by default: measured on the coarse cylinders, the
  // mug and a ridge (tests/contact/tst_coarse_curvature.cpp), the grown fits passed the test (its tolerance grows
  // with the radius) while still wrong (mug κ −14 %, a 40° ridge read as κ 0.5 /mm): "unreliable" is the honest
  // answer there (README.md §Coarse meshes).
  int growSteps = 0;
  double growFactor = 2.0;
};

struct PrincipalCurvatures {
  double kappaMax_per_mm = 0;        // larger principal curvature (signed; > 0 convex)
  double kappaMin_per_mm = 0;        // smaller one
  Vec3 directionMax = Vec3::UnitX(); // world frame, unit, tangent: direction of kappaMax
  Vec3 directionMin = Vec3::UnitY(); // world frame, unit, tangent: n × directionMax
  bool flatMax() const { return kappaMax_per_mm == 0; }
  bool flatMin() const { return kappaMin_per_mm == 0; }
  bool concave() const { return kappaMin_per_mm < 0; }
  // Signed radius 1/κ (mm); +inf for a flat direction.
  double radiusMax_mm() const;       // of kappaMax (the smaller radius)
  double radiusMin_mm() const;       // of kappaMin
};

struct QuadricFit {
  QuadricFitStatus status = QuadricFitStatus::TooFewPoints;
  CurvatureEstimator estimator = CurvatureEstimator::GraspItParaboloid;  // which estimator produced this
  // z = a x² + b y² + c x y in the contact frame (1/mm). For OsculatingJet: the osculating paraboloid with the
  // estimated curvatures and (frame-projected) directions, so principalCurvatures(a, b, c) gives them back.
  double a = 0, b = 0, c = 0;
  double rmsResidual_mm = 0;         // RMS of z − fit over the points (unweighted)
  double rmsSlopeResidual = 0;       // OsculatingJet: RMS of the slope residual over the normals used
  int pointCount = 0;
  int normalCount = 0;               // OsculatingJet: normals used
  int degree = 2;                    // polynomial degree actually fitted (OsculatingJet: 2..6)
  // Support (README.md §Coarse meshes): the RMS position residual weighted as the fit weights its samples, over
  // the neighbourhood radius the fit was judged against (neighbourhoodRadius_mm: the nominal one, or the
  // grown one the soft model refitted over).
  double weightedResidual_mm = 0;    // jet: Σw·e² / Σw over the positions (GraspIt!: = rmsResidual_mm)
  double weightedSlopeResidual = 0;  // jet: the same over the slopes (GraspIt!: 0, it uses no normals)
  double relativeResidual = 0;       // weightedResidual_mm / neighbourhoodRadius_mm
  double neighbourhoodRadius_mm = 0;
  int droppedPoints = 0;             // soft model, jet: vertices only on faces turned away from the contact
  std::string note;                  // why the status is not Ok, or how the fit was obtained (grown neighbourhood)
  PrincipalCurvatures curvatures;    // directions in world
};

// Fits the paraboloid to world points (mm) in the contact frame `frame` (world; origin at the contact
// point, z = inward normal).
QuadricFit fitQuadric(const std::vector<Vec3>& points_mm, const Transform& frame,
                      const QuadricFitSettings& settings = {});

// Principal curvatures of z = a x² + b y² + c x y, directions in the frame's x/y axes mapped to world by
// `frame`. Curvatures below settings.flatCurvature_per_mm in magnitude become 0.
PrincipalCurvatures principalCurvatures(double a, double b, double c, const Transform& frame,
                                        const QuadricFitSettings& settings = {});

}  // namespace sg
