#include "render/ContactSurfaceNodes.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoLightModel.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoMaterialBinding.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoSphere.h>
#include <Inventor/nodes/SoTranslation.h>

#include "core/NumberFormat.h"
#include "geometry/hydro/ContactSurface.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/WrenchNodes.h"

namespace sg {

namespace {

constexpr std::array<std::array<float, 3>, 4> kStops = {{
    {0.10f, 0.20f, 0.80f},  // t = 0: blue
    {0.10f, 0.70f, 0.90f},  // 1/3: cyan
    {1.00f, 0.85f, 0.10f},  // 2/3: yellow
    {0.85f, 0.05f, 0.05f},  // 1: red
}};

SoSeparator* pressurePolygonsNode(const ContactSurface& surface, double maxPressure_Pa) {
  auto* sep = new SoSeparator;
  sep->setName("pressurePolygons");
  auto* light = new SoLightModel;
  light->model = SoLightModel::BASE_COLOR;  // the map's colours as they are, whatever the light
  sep->addChild(light);
  auto* hints = new SoShapeHints;  // seen from both sides
  hints->vertexOrdering = SoShapeHints::COUNTERCLOCKWISE;
  hints->shapeType = SoShapeHints::UNKNOWN_SHAPE_TYPE;
  sep->addChild(hints);
  auto* material = new SoMaterial;
  auto* binding = new SoMaterialBinding;
  binding->value = SoMaterialBinding::PER_VERTEX_INDEXED;  // colour i ↔ coordinate i
  auto* coords = new SoCoordinate3;
  auto* faces = new SoIndexedFaceSet;
  int n = 0, index = 0;
  for (const ContactPolygon& poly : surface.polygons) n += static_cast<int>(poly.p_WV_mm.size());
  coords->point.setNum(n);
  material->diffuseColor.setNum(n);
  SbVec3f* points = coords->point.startEditing();
  SbColor* colours = material->diffuseColor.startEditing();
  std::vector<int32_t> indices;
  for (const ContactPolygon& poly : surface.polygons) {
    if (poly.p_WV_mm.size() < 3) continue;
    for (std::size_t k = 0; k < poly.p_WV_mm.size(); ++k) {
      const double p = k < poly.pressure_Pa.size() ? poly.pressure_Pa[k] : 0.0;
      const auto c = pressureColour(maxPressure_Pa > 0 ? p / maxPressure_Pa : 0.0);
      points[index] = toSb(poly.p_WV_mm[k]);
      colours[index] = SbColor(c[0], c[1], c[2]);
      indices.push_back(index++);
    }
    indices.push_back(SO_END_FACE_INDEX);
  }
  coords->point.finishEditing();
  material->diffuseColor.finishEditing();
  coords->point.setNum(index);
  material->diffuseColor.setNum(index);
  faces->coordIndex.setValues(0, static_cast<int>(indices.size()), indices.data());
  sep->addChild(material);
  sep->addChild(binding);
  sep->addChild(coords);
  sep->addChild(faces);
  return sep;
}

}  // namespace

std::array<float, 3> pressureColour(double t) {
  t = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0);
  const double s = t * 3.0;
  const int i = std::min(2, static_cast<int>(s));
  const float f = static_cast<float>(s - i);
  std::array<float, 3> c;
  for (int k = 0; k < 3; ++k) c[k] = (1 - f) * kStops[i][k] + f * kStops[i + 1][k];  // exact at the stops
  return c;
}

std::vector<std::array<float, 3>> pressureColourRamp(int samples) {
  samples = std::max(2, samples);
  std::vector<std::array<float, 3>> ramp;
  for (int i = 0; i < samples; ++i) ramp.push_back(pressureColour(double(i) / (samples - 1)));
  return ramp;
}

std::string formatPressure(double pressure_Pa, const PressureUnit& unit) {
  const double v = pressure_Pa / unit.pascals;
  const int magnitude = v != 0 && std::isfinite(v) ? static_cast<int>(std::floor(std::log10(std::abs(v)))) : 0;
  char buffer[400];  // to_chars: the C locale's '.', whatever the user's locale
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed, std::clamp(2 - magnitude, 0, 9));
  std::string text(buffer, end.ec == std::errc() ? end.ptr : buffer);
  if (text.find('.') != std::string::npos) {  // "2.50" → "2.5", "3.00" → "3", as %g would
    text.erase(text.find_last_not_of('0') + 1);
    if (text.back() == '.') text.pop_back();
  }
  return text + " " + unit.name;
}

SoSeparator* makeContactSurfaceNode(const ContactSurface& surface, const ContactSurfaceStyle& style) {
  initCoin();
  auto* sep = new SoSeparator;
  sep->setName("contactSurface");
  if (surface.empty()) return sep;
  double peak = style.maxPressure_Pa;
  if (!(peak > 0)) {
    peak = surface.peakPressure_Pa;
    for (const ContactPolygon& poly : surface.polygons)
      for (double p : poly.pressure_Pa) peak = std::max(peak, p);
  }
  sep->addChild(pressurePolygonsNode(surface, peak));

  auto* cop = new SoSeparator;
  cop->setName("centreOfPressure");
  auto* at = new SoTranslation;
  at->translation = toSb(surface.centreOfPressure_W_mm);
  cop->addChild(at);
  auto* copMaterial = new SoMaterial;
  copMaterial->diffuseColor.setValue(style.copColour[0], style.copColour[1], style.copColour[2]);
  copMaterial->emissiveColor.setValue(0.4f * style.copColour[0], 0.4f * style.copColour[1], 0.4f * style.copColour[2]);
  cop->addChild(copMaterial);
  auto* sphere = new SoSphere;
  sphere->radius = static_cast<float>(style.copMarkerRadius_mm);
  cop->addChild(sphere);
  sep->addChild(cop);

  const Vec3 force = style.forceOnN ? Vec3(-surface.force_W_N) : surface.force_W_N;
  const double length_mm = force.norm() * style.forceArrow_mm_per_N;
  if (style.netForce && length_mm > 0 && std::isfinite(length_mm)) {
    const Vec3 direction = force.normalized();
    auto* arrow = new SoSeparator;
    arrow->setName("netForce");
    auto* move = new SoTranslation;
    move->translation = toSb(Vec3(surface.centreOfPressure_W_mm - length_mm * direction));
    arrow->addChild(move);
    arrow->addChild(makeArrowNode(direction, length_mm, style.arrowColour, style.shaftRadius_mm, false, "netForceArrow"));
    sep->addChild(arrow);
  }
  return sep;
}

}  // namespace sg
