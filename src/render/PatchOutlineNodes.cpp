#include "render/PatchOutlineNodes.h"

#include <algorithm>
#include <functional>

#include <Inventor/nodes/SoBaseColor.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoDrawStyle.h>
#include <Inventor/nodes/SoLightModel.h>
#include <Inventor/nodes/SoLineSet.h>
#include <Inventor/nodes/SoSeparator.h>

#include "contact/ContactModel.h"
#include "render/CoinConvert.h"

namespace sg {

namespace {
// Chosen apart from the bodies' greys and the quality overlay's red ellipse / orange patch; at least one colour
// per registered contact model (seven), so no two models share one.
const std::array<std::array<float, 3>, 8> kPalette = {{
    {0.0f, 0.45f, 1.0f},   // blue
    {1.0f, 0.0f, 0.85f},   // magenta
    {0.0f, 0.85f, 0.2f},   // green
    {1.0f, 0.85f, 0.0f},   // yellow
    {0.0f, 0.9f, 0.9f},    // cyan
    {0.55f, 0.2f, 1.0f},   // violet
    {0.55f, 0.3f, 0.05f},  // brown
    {0.0f, 0.45f, 0.4f},   // teal
}};
}  // namespace

std::array<float, 3> comparisonColour(std::size_t k) { return kPalette[k % kPalette.size()]; }
std::size_t comparisonPaletteSize() { return kPalette.size(); }

std::array<float, 3> comparisonColour(std::string_view model) {
  const auto& models = contactModels();
  for (std::size_t k = 0; k < models.size(); ++k)
    if (models[k]->name() == model) return comparisonColour(k);
  return comparisonColour(std::hash<std::string_view>{}(model));
}

std::vector<ModelPatchOutlines> comparisonPatchOutlines(const ModelComparison& comparison,
                                                        const std::vector<std::string>& shown) {
  std::vector<ModelPatchOutlines> out;
  for (std::size_t k = 0; k < comparison.columns.size(); ++k) {
    const ModelColumn& column = comparison.columns[k];
    if (std::find(shown.begin(), shown.end(), column.model) == shown.end()) continue;
    ModelPatchOutlines m{column.model, column.label, comparisonColour(std::string_view(column.model)), {}};
    for (const ComparedContact& c : column.contacts)
      if (c.present && c.patchOutline_W_mm.size() >= 3) m.outlines_W_mm.push_back(c.patchOutline_W_mm);
    out.push_back(std::move(m));
  }
  return out;
}

SoSeparator* makePatchOutlinesNode(const std::vector<ModelPatchOutlines>& models, const PatchOutlineStyle& style) {
  auto* root = new SoSeparator;
  root->setName("comparisonOverlay");
  auto* light = new SoLightModel;
  light->model = SoLightModel::BASE_COLOR;
  root->addChild(light);
  auto* depth = new SoDepthBuffer;  // over the bodies
  depth->test = FALSE;
  root->addChild(depth);
  auto* draw = new SoDrawStyle;
  draw->lineWidth = style.lineWidth;
  root->addChild(draw);
  for (const ModelPatchOutlines& m : models) {
    if (m.outlines_W_mm.empty()) continue;
    auto* sep = new SoSeparator;
    sep->setName("patchOutlines");
    auto* colour = new SoBaseColor;
    colour->rgb = SbColor(m.colour[0], m.colour[1], m.colour[2]);
    sep->addChild(colour);
    auto* coords = new SoCoordinate3;
    auto* lines = new SoLineSet;
    int n = 0, loops = 0;
    for (const std::vector<Vec3>& outline : m.outlines_W_mm) {
      for (std::size_t i = 0; i <= outline.size(); ++i) coords->point.set1Value(n++, toSb(outline[i % outline.size()]));
      lines->numVertices.set1Value(loops++, static_cast<int>(outline.size() + 1));
    }
    sep->addChild(coords);
    sep->addChild(lines);
    root->addChild(sep);
  }
  return root;
}

std::vector<OverlayLegendEntry> patchOutlinesLegend(const std::vector<ModelPatchOutlines>& models) {
  std::vector<OverlayLegendEntry> out;
  for (const ModelPatchOutlines& m : models) {
    if (m.outlines_W_mm.empty()) continue;
    const std::size_t n = m.outlines_W_mm.size();
    out.push_back({"patches:" + m.model, m.colour, false,
                   m.label + ": " + std::to_string(n) + (n == 1 ? " patch" : " patches"), {},
                   m.model + ": " + std::to_string(n)});
  }
  return out;
}

}  // namespace sg
