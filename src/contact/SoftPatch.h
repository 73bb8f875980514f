#pragma once
// The contact patch of a soft contact and its torsional friction limit (src/contact/README.md §Soft finger
// and §Hertz).
//
// ElasticLayer (GraspIt!'s "mattress", the compatible default): an elastic layer of thickness h on a rigid
// core, pressed with normal force N onto the relative paraboloid:
//   δ = √(N h / (E π √(R'R''))),  a = √(2δR''), b = √(2δR'),  τmax / (μN) = (8/15)·√(ab).
// Hertz (option): the textbook elliptical Hertz ellipse (HertzContact.h) with E* from both bodies' Young's
// moduli and Poisson ratios; τmax / (μN) = (3π/16)·√(ab) — exact for a circle of radius a; for an ellipse the
// equivalent radius √(ab) is used.
// A direction with zero (or negative: conforming) relative curvature uses flatRadius_mm instead, as GraspIt!
// does with its 20 mm.
#include <optional>
#include <string>

#include "contact/QuadricRelativeCurvature.h"
#include "contact/SoftNeighbourhood.h"

namespace sg {

enum class PatchModel { ElasticLayer, Hertz };

// What the patch used in place of a measured radius (README.md §Coarse meshes), most important first when
// several apply: a side whose fit was unreliable or failed was taken as flat; else a flat or conforming
// direction of the relative curvature was given flatRadius_mm.
enum class PatchFallback {
  None,
  FlatDirection,        // the relative curvature is 0 in a direction (a flat face, a cylinder's axis)
  ConformingDirection,  // the relative curvature is negative in a direction (a concave side cradles the other)
  FailedFit,            // a side's fit had too few points or was degenerate: that side was taken as flat
  UnreliableFit         // a side's fit was unreliable (QuadricFitStatus::Unreliable): that side was taken as flat
};
// Stable keys: "none", "flat-direction", "conforming-direction", "failed-fit", "unreliable-fit".
const char* patchFallbackKey(PatchFallback f);

struct SoftPatchSettings {
  PatchModel model = PatchModel::ElasticLayer;
  double normalForce_N = 5.0;           // GraspIt!'s fixed nominal force for grasp analysis
  double layerThickness_mm = 3.0;       // ElasticLayer: GraspIt!'s hard-coded 3 mm
  double flatRadius_mm = 20.0;          // radius used for flat or conforming directions
  double poissonRatio = 0.5;            // Hertz: ν of every elastic body (rubber ≈ 0.5)
  ModulusRule modulusRule = ModulusRule::Softer;  // ElasticLayer: which E when both bodies are elastic
  ConcaveRule concaveRule = ConcaveRule::Signed;  // how concave fitted directions enter the relative curvature
};

struct SoftPatch {
  PatchModel model = PatchModel::ElasticLayer;
  double relativeRadiusMin_mm = 0;      // R' (after the flat replacement)
  double relativeRadiusMax_mm = 0;      // R''
  bool flatReplaced = false;            // a radius was replaced by flatRadius_mm
  PatchFallback fallback = PatchFallback::None;
  std::string fallbackReason;           // one sentence for the inspector and the CLI ("" when None)
  double semiAxisLong_mm = 0;           // a: along axisLong (direction of R'')
  double semiAxisShort_mm = 0;          // b: along axisShort (direction of R')
  Vec3 axisLong = Vec3::UnitY(), axisShort = Vec3::UnitX();  // world, unit, tangent
  double penetration_mm = 0;            // δ
  double modulus_Pa = 0;                // E (layer) or E* (Hertz)
  double normalForce_N = 0;
  // Peak pressure (Pa) at normalForce_N: E·δ/h at the centre of the layer patch, p0 = 3N/(2πab) for Hertz.
  double maxPressure_Pa = 0;
  // The force–approach curve (N at approach δ mm) through this patch's operating point: N ∝ δ² for the elastic
  // layer (N = π E δ² √(R'R'')/h), N ∝ δ^(3/2) for Hertz.
  double forceAtApproach_N(double approach_mm) const;
  // τmax / (μ N) in mm: the torsional semi-axis e_n of the friction ellipsoid (FrictionEdges.h).
  double torsionPerFriction_mm = 0;
  double maxTorsionalFriction_Nmm(double mu) const { return mu * normalForce_N * torsionPerFriction_mm; }
};

// Patch for a relative curvature and the two bodies' Young's moduli (nullopt = rigid). Throws sg::Error when
// neither body is elastic or a setting is not positive.
SoftPatch computeSoftPatch(const RelativeCurvature& relative, std::optional<double> youngs1_Pa,
                           std::optional<double> youngs2_Pa, const SoftPatchSettings& settings = {});

// The elastic-layer formulas alone (radii in mm, E in Pa).
SoftPatch elasticLayerPatch(double radiusMin_mm, double radiusMax_mm, double normalForce_N, double modulus_Pa,
                            double layerThickness_mm);

}  // namespace sg
