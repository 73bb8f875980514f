#pragma once
// What the grasp overlay's arrows mean, as lines of text with the arrow's colour (README §Legend): the scale of
// the contact-force arrows and the force they show, and the worst-case wrench's magnitudes and arrow scale.
// Plain data (UTF-8 text, RGB in 0..1): the application draws it over its viewport and the headless screenshot
// onto its image, both from the same entries.
#include <array>
#include <string>
#include <vector>

#include "render/GraspOverlay.h"

namespace sg {

struct OverlayLegendEntry {
  std::string key;                 // "contactForce", "contactPressure", "surfaceForce", "worstCaseForce", "worstCaseTorque"
  std::array<float, 3> colour{};   // the arrow's colour
  bool doubleHead = false;         // the torque's double-headed arrow
  std::string text;                // UTF-8, one line
  // Not empty: a colour bar (these colours evenly spaced, low to high) instead of the arrow — the hydroelastic
  // pressure scale.
  std::vector<std::array<float, 3>> colourRamp;
  // The same in a few words for a small view (the application's legend switches to it when the full lines would
  // cover too much of the view); empty: `text`.
  std::string compactText;
};

// One entry per kind of arrow the overlay built with `options` draws for `evaluation` (nothing for null or
// when the options switch the arrows off); the same rules as makeEvaluationOverlayNode.
std::vector<OverlayLegendEntry> graspOverlayLegend(const GraspEvaluation* evaluation,
                                                   const GraspOverlayOptions& options = {});

}  // namespace sg
