#include "contact/SoftPatch.h"

#include <cmath>

#include "contact/HertzContact.h"
#include "core/Error.h"

namespace sg {

const char* patchFallbackKey(PatchFallback f) {
  switch (f) {
    case PatchFallback::None: return "none";
    case PatchFallback::FlatDirection: return "flat-direction";
    case PatchFallback::ConformingDirection: return "conforming-direction";
    case PatchFallback::FailedFit: return "failed-fit";
    case PatchFallback::UnreliableFit: return "unreliable-fit";
  }
  return "?";
}

SoftPatch elasticLayerPatch(double r1, double r2, double N, double E_Pa, double h) {
  if (!(r1 > 0) || !(r2 > 0) || !(E_Pa > 0) || !(h > 0) || !(N >= 0))
    throw Error("elastic-layer patch needs positive radii, modulus and layer thickness");
  if (r1 > r2) std::swap(r1, r2);
  SoftPatch p;
  p.model = PatchModel::ElasticLayer;
  p.relativeRadiusMin_mm = r1;
  p.relativeRadiusMax_mm = r2;
  p.modulus_Pa = E_Pa;
  p.normalForce_N = N;
  const double E = E_Pa * 1e-6;  // N/mm²; the formula is unit-consistent in N and mm
  p.penetration_mm = std::sqrt(N * h / (E * kPi * std::sqrt(r1 * r2)));
  p.semiAxisLong_mm = std::sqrt(2 * p.penetration_mm * r2);
  p.semiAxisShort_mm = std::sqrt(2 * p.penetration_mm * r1);
  p.torsionPerFriction_mm = 8.0 / 15.0 * std::sqrt(p.semiAxisLong_mm * p.semiAxisShort_mm);
  p.maxPressure_Pa = E_Pa * p.penetration_mm / h;  // p = (E/h)(δ − x²/2R'' − y²/2R') at the centre
  return p;
}

double SoftPatch::forceAtApproach_N(double approach_mm) const {
  if (!(approach_mm > 0) || !(penetration_mm > 0)) return 0.0;
  return normalForce_N * std::pow(approach_mm / penetration_mm, model == PatchModel::Hertz ? 1.5 : 2.0);
}

SoftPatch computeSoftPatch(const RelativeCurvature& rel, std::optional<double> e1, std::optional<double> e2,
                           const SoftPatchSettings& s) {
  if (!(s.flatRadius_mm > 0)) throw Error("soft patch: flat radius must be positive");
  double rMin = rel.radiusMin_mm(), rMax = rel.radiusMax_mm();
  bool replaced = false;
  if (!std::isfinite(rMin)) { rMin = s.flatRadius_mm; replaced = true; }
  if (!std::isfinite(rMax)) { rMax = s.flatRadius_mm; replaced = true; }
  if (rMin > rMax) std::swap(rMin, rMax);  // only possible after a replacement
  SoftPatch p;
  if (s.model == PatchModel::ElasticLayer) {
    const auto E = contactModulus_Pa(e1, e2, s.modulusRule);
    if (!E) throw Error("soft patch needs at least one elastic body (a Young's modulus)");
    p = elasticLayerPatch(rMin, rMax, s.normalForce_N, *E, s.layerThickness_mm);
  } else {
    const double eStar = hertzEffectiveModulus_Pa(e1, s.poissonRatio, e2, s.poissonRatio);
    const HertzEllipse h = hertzEllipse(rMin, rMax, s.normalForce_N, eStar);
    p.model = PatchModel::Hertz;
    p.relativeRadiusMin_mm = rMin;
    p.relativeRadiusMax_mm = rMax;
    p.modulus_Pa = eStar;
    p.normalForce_N = s.normalForce_N;
    p.penetration_mm = h.approach_mm;
    p.maxPressure_Pa = h.maxPressure_Pa;
    p.semiAxisLong_mm = h.semiAxisLong_mm;
    p.semiAxisShort_mm = h.semiAxisShort_mm;
    p.torsionPerFriction_mm = 3.0 * kPi / 16.0 * std::sqrt(h.semiAxisLong_mm * h.semiAxisShort_mm);
  }
  p.flatReplaced = replaced;
  if (replaced) {
    const bool conforming = rel.kappaMax_per_mm < 0 || rel.kappaMin_per_mm < 0;
    p.fallback = conforming ? PatchFallback::ConformingDirection : PatchFallback::FlatDirection;
    p.fallbackReason = std::string("the relative curvature is ") + (conforming ? "negative (conforming)" : "zero") +
                       " in a direction: its radius was replaced by the flat radius";
  }
  // The long axis lies along the direction with the larger (possibly replaced) radius.
  const double alongMax = std::isfinite(rel.radiusMin_mm()) ? rel.radiusMin_mm() : s.flatRadius_mm;
  const double alongMin = std::isfinite(rel.radiusMax_mm()) ? rel.radiusMax_mm() : s.flatRadius_mm;
  const bool swapped = alongMax > alongMin;
  p.axisLong = swapped ? rel.directionMax : rel.directionMin;
  p.axisShort = swapped ? rel.directionMin : rel.directionMax;
  return p;
}

}  // namespace sg
