#include "render/HydroelasticOverlay.h"

#include <algorithm>

#include <Inventor/nodes/SoSeparator.h>

#include "contact/models/HydroelasticContactModel.h"
#include "core/NumberFormat.h"
#include "grasp/GraspEvaluation.h"
#include "render/ContactSurfaceNodes.h"
#include "render/ModelOverlays.h"

namespace sg {

const HydroelasticModelResult* hydroelasticResult(const GraspEvaluation& evaluation) {
  // The one place the drawing meets the result type: a result of another type (a hand-built evaluation
  // named "hydroelastic") draws nothing instead of being misread.
  return dynamic_cast<const HydroelasticModelResult*>(evaluation.modelResult.get());
}

double highestPeakPressure_Pa(const HydroelasticModelResult& result) {
  double peak = 0;
  for (const ContactSurface& s : result.surfaces) {
    peak = std::max(peak, s.peakPressure_Pa);
    for (const ContactPolygon& poly : s.polygons)
      for (double p : poly.pressure_Pa) peak = std::max(peak, p);
  }
  return peak;
}

bool objectIsBodyN(const HydroelasticModelResult& result, int surface) {
  const auto& s = result.surfaces[static_cast<std::size_t>(surface)];
  for (std::size_t i = 0; i < result.surfaceOfContact.size() && i < result.contacts.size(); ++i)
    if (result.surfaceOfContact[i] == surface) {
      // The force on the object pushes along its inward normal; force_W_N is the force on M.
      const double along = s.force_W_N.dot(result.contacts[i].onObject().n_W);
      if (along != 0) return along < 0;
    }
  return true;
}

namespace {

// Up to 3 significant digits, no exponent for the magnitudes shown here.
std::string number(double value) { return formatGeneral(value, 3); }

// Every non-empty contact surface, on one pressure scale.
void drawSurfaces(SoSeparator* parent, const GraspEvaluation& evaluation, const GraspOverlayOptions& options,
                  GraspOverlayCounts& counts) {
  const HydroelasticModelResult* result = hydroelasticResult(evaluation);
  if (!options.contactSurfaces || !result) return;
  ContactSurfaceStyle style;
  style.maxPressure_Pa = highestPeakPressure_Pa(*result);
  style.netForce = options.contactForces;
  style.forceArrow_mm_per_N = options.forceArrow_mm_per_N * options.scale;
  style.shaftRadius_mm = kForceArrowShaftRadius_mm * options.scale;
  style.arrowColour = kForceArrowColour;
  style.copMarkerRadius_mm *= options.scale;
  for (std::size_t k = 0; k < result->surfaces.size(); ++k) {
    if (result->surfaces[k].empty()) continue;
    style.forceOnN = objectIsBodyN(*result, static_cast<int>(k));
    parent->addChild(makeContactSurfaceNode(result->surfaces[k], style));
    ++counts.contactSurfaces;
  }
}

void surfaceLegend(const GraspEvaluation& evaluation, const GraspOverlayOptions& options,
                   std::vector<OverlayLegendEntry>& entries) {
  const HydroelasticModelResult* hydro = hydroelasticResult(evaluation);
  if (!options.contactSurfaces || !hydro) return;
  double lowest = 0, highest = 0;
  int count = 0;
  for (const ContactSurface& s : hydro->surfaces) {
    if (s.empty()) continue;
    const double f = s.force_W_N.norm();
    lowest = count ? std::min(lowest, f) : f;
    highest = count ? std::max(highest, f) : f;
    ++count;
  }
  if (count == 0) return;
  const double peak = highestPeakPressure_Pa(*hydro);
  entries.push_back({"contactPressure", pressureColour(1.0), false,
                     "Contact pressure 0 – " + formatPressure(peak) + " (" + evaluation.contactModel +
                         " surfaces, blue → red)",
                     pressureColourRamp(), "Pressure 0 – " + formatPressure(peak)});
  if (options.contactForces && highest > 0) {
    const std::string force = lowest == highest ? number(lowest) + " N" : number(lowest) + "–" + number(highest) + " N";
    entries.push_back({"surfaceForce", kForceArrowColour, false,
                       "Net force per surface " + force + ", ending at its centre of pressure (white) · " +
                           number(options.forceArrow_mm_per_N * options.scale) + " mm per N",
                       {},
                       "Net force " + force + " · " + number(options.forceArrow_mm_per_N * options.scale) + " mm/N"});
  }
}

}  // namespace

ModelOverlay hydroelasticOverlay() {
  ModelOverlay overlay;
  overlay.draw = drawSurfaces;
  overlay.legend = surfaceLegend;  // the surfaces' net forces are drawn with them: no per-contact arrows
  return overlay;
}

}  // namespace sg
