#include "render/OverlayLegend.h"

#include <algorithm>

#include "contact/models/HydroelasticContactModel.h"
#include "core/NumberFormat.h"
#include "grasp/GraspEvaluation.h"
#include "render/ContactSurfaceNodes.h"

namespace sg {

namespace {

// Up to `digits` significant digits, no exponent for the magnitudes shown here.
std::string number(double value, int digits = 3) { return formatGeneral(value, digits); }

}  // namespace

std::vector<OverlayLegendEntry> graspOverlayLegend(const GraspEvaluation* evaluation, const GraspOverlayOptions& options) {
  std::vector<OverlayLegendEntry> entries;
  if (!evaluation) return entries;
  if (options.contactForces) {
    double lowest = 0, highest = 0;
    int count = 0;
    for (std::size_t i = 0; i < evaluation->contacts.size(); ++i) {
      const double f = modelNormalForce_N(*evaluation, i);
      if (f <= 0) continue;
      lowest = count ? std::min(lowest, f) : f;
      highest = count ? std::max(highest, f) : f;
      ++count;
    }
    if (count > 0) {
      const std::string force = lowest == highest ? number(lowest) + " N" : number(lowest) + "–" + number(highest) + " N";
      entries.push_back({"contactForce", kForceArrowColour, false,
                         "Contact force " + force + " (" + evaluation->contactModel + ") · " +
                             number(options.forceArrow_mm_per_N * options.scale) + " mm per N",
                         {},
                         "Force " + force + " · " + number(options.forceArrow_mm_per_N * options.scale) + " mm/N"});
    }
  }
  if (options.contactSurfaces)
    if (const HydroelasticModelResult* hydro = hydroelasticResult(*evaluation)) {
      double lowest = 0, highest = 0;
      int count = 0;
      for (const ContactSurface& s : hydro->surfaces) {
        if (s.empty()) continue;
        const double f = s.force_W_N.norm();
        lowest = count ? std::min(lowest, f) : f;
        highest = count ? std::max(highest, f) : f;
        ++count;
      }
      if (count > 0) {
        const double peak = highestPeakPressure_Pa(*hydro);
        entries.push_back({"contactPressure", pressureColour(1.0), false,
                           "Contact pressure 0 – " + formatPressure(peak) + " (" + evaluation->contactModel +
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
    }
  if (options.worstCaseWrench && evaluation->l1Support && evaluation->l1Support->forceClosure) {
    const WrenchArrowStyle style = wrenchArrowStyle(options);
    const Vec6 w = evaluation->l1Support->worstCaseWrench;
    const std::string scale = " · " + number(style.length_mm_per_unit) + " mm per unit";
    const double f = w.head<3>().norm(), t = w.tail<3>().norm();
    const std::string compactScale = " · " + number(style.length_mm_per_unit) + " mm/unit";
    if (wrenchArrowLength_mm(f, style) > 0)
      entries.push_back({"worstCaseForce", style.forceColour, false,
                         "Worst-case force |f| = " + number(f) + " (per unit normal force)" + scale, {},
                         "Worst |f| " + number(f) + compactScale});
    if (wrenchArrowLength_mm(t, style) > 0)
      entries.push_back({"worstCaseTorque", style.torqueColour, true,
                         "Worst-case torque |τ|/ρ = " + number(t) + ", ρ = " +
                             number(evaluation->reference.torqueScale_mm) + " mm" + scale,
                         {}, "Worst |τ|/ρ " + number(t) + compactScale});
  }
  return entries;
}

}  // namespace sg
