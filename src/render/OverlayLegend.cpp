#include "render/OverlayLegend.h"

#include <algorithm>

#include "core/NumberFormat.h"
#include "grasp/GraspEvaluation.h"
#include "render/ModelOverlays.h"

namespace sg {

namespace {

// Up to `digits` significant digits, no exponent for the magnitudes shown here.
std::string legendNumber(double value, int digits = 3) { return formatGeneral(value, digits); }

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
      const std::string force =
          lowest == highest ? legendNumber(lowest) + " N" : legendNumber(lowest) + "–" + legendNumber(highest) + " N";
      entries.push_back({"contactForce", kForceArrowColour, false,
                         "Contact force " + force + " (" + evaluation->contactModel + ") · " +
                             legendNumber(options.forceArrow_mm_per_N * options.scale) + " mm per N",
                         {},
                         "Force " + force + " · " + legendNumber(options.forceArrow_mm_per_N * options.scale) +
                             " mm/N"});
    }
  }
  if (const ModelOverlay* overlay = findModelOverlay(evaluation->contactModel); overlay && overlay->legend)
    overlay->legend(*evaluation, options, entries);  // the model's own drawing (ModelOverlays.h)
  if (options.worstCaseWrench && evaluation->l1Support && evaluation->l1Support->forceClosure) {
    const WrenchArrowStyle style = wrenchArrowStyle(options);
    const Vec6 w = evaluation->l1Support->worstCaseWrench;
    const std::string scale = " · " + legendNumber(style.length_mm_per_unit) + " mm per unit";
    const double f = w.head<3>().norm(), t = w.tail<3>().norm();
    const std::string compactScale = " · " + legendNumber(style.length_mm_per_unit) + " mm/unit";
    if (wrenchArrowLength_mm(f, style) > 0)
      entries.push_back({"worstCaseForce", style.forceColour, false,
                         "Worst-case force |f| = " + legendNumber(f) + " (per unit normal force)" + scale, {},
                         "Worst |f| " + legendNumber(f) + compactScale});
    if (wrenchArrowLength_mm(t, style) > 0)
      entries.push_back({"worstCaseTorque", style.torqueColour, true,
                         "Worst-case torque |τ|/ρ = " + legendNumber(t) + ", ρ = " +
                             legendNumber(evaluation->reference.torqueScale_mm) + " mm" + scale,
                         {}, "Worst |τ|/ρ " + legendNumber(t) + compactScale});
  }
  return entries;
}

}  // namespace sg
