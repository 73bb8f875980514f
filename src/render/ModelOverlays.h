#pragma once
// Drawings that belong to one contact model, keyed by its registered name (src/render/README.md §Model
// drawings): the grasp overlay (GraspOverlay.h) and its legend (OverlayLegend.h) draw the generic glyphs
// (markers, cones, worst-case wrench) themselves and ask this registry for the rest, so neither knows a
// model's result type. The built-in drawings (one file each: SoftFingerOverlay.cpp, HydroelasticOverlay.cpp)
// are listed in ModelOverlays.cpp; a model without one draws only the generic glyphs.
#include <functional>
#include <string>
#include <vector>

#include "render/OverlayLegend.h"

class SoSeparator;

namespace sg {

struct ModelOverlay {
  // Adds the model's own nodes for `evaluation` to `parent` (honouring the options' switches), counting them.
  std::function<void(SoSeparator* parent, const GraspEvaluation& evaluation, const GraspOverlayOptions& options,
                     GraspOverlayCounts& counts)>
      draw;
  // The normal force (N) shown as a contact-force arrow at evaluation.contacts[i]; 0 or unset: no arrow.
  std::function<double(const GraspEvaluation& evaluation, std::size_t i)> normalForce_N;
  // The legend rows of `draw`'s nodes (appended after the contact-force row).
  std::function<void(const GraspEvaluation& evaluation, const GraspOverlayOptions& options,
                     std::vector<OverlayLegendEntry>& entries)>
      legend;
};

// Adds or replaces the drawing of model `model` (call it before views are built: no lock).
void registerModelOverlay(const std::string& model, ModelOverlay overlay);
// The drawing registered for the model, or nullptr.
const ModelOverlay* findModelOverlay(const std::string& model);

}  // namespace sg
