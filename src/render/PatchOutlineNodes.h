#pragma once
// The comparison overlay (src/render/README.md §Model comparison overlay): the contact patches of several
// contact models on one grasp, each model's outlines (ModelContact::patchOutline_W_mm, world mm) as closed
// lines in its own colour, drawn over the bodies (no depth test: a patch lies in the contact plane, half inside
// the finger that makes it), and the legend entries that name each colour. Built from the engine's
// ModelComparison (grasp/ModelComparison.h) only, so a model registered later needs nothing here.
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "grasp/ModelComparison.h"
#include "render/OverlayLegend.h"

class SoSeparator;

namespace sg {

// Distinct, saturated colours (RGB 0..1): the k-th of the palette; repeats after the palette's size.
std::array<float, 3> comparisonColour(std::size_t k);
std::size_t comparisonPaletteSize();
// A model's colour, the same in every view (overlay, legend, dock, sensitivity plot) whichever models are shown:
// the palette colour of its place in the contact-model registry (the palette has one per registered model), a
// colour from the name's hash for a name the registry does not know.
std::array<float, 3> comparisonColour(std::string_view model);

struct PatchOutlineStyle {
  float lineWidth = 3.0f;
};

// One model's outlines and how they are drawn.
struct ModelPatchOutlines {
  std::string model;                         // registered name
  std::string label;                         // shown in the legend
  std::array<float, 3> colour{};
  std::vector<std::vector<Vec3>> outlines_W_mm;  // one closed polygon per contact with a patch
};

// The outlines of the columns named in `shown` (in the comparison's column order), coloured by the model's name
// (so a model keeps its colour when others are switched off). Models without patches
// give an entry with no outlines.
std::vector<ModelPatchOutlines> comparisonPatchOutlines(const ModelComparison& comparison,
                                                        const std::vector<std::string>& shown);

// New separator "comparisonOverlay" (ref count 0): one child "patchOutlines" per model with outlines, holding
// one closed SoLineSet per outline.
SoSeparator* makePatchOutlinesNode(const std::vector<ModelPatchOutlines>& models, const PatchOutlineStyle& style = {});

// One legend entry per model with at least one outline: key "patches:<model>", the model's colour, text
// "<label>: N patch(es)".
std::vector<OverlayLegendEntry> patchOutlinesLegend(const std::vector<ModelPatchOutlines>& models);

}  // namespace sg
