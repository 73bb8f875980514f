#include "render/SoftPatchNodes.h"

#include <algorithm>
#include <cmath>

#include <Inventor/nodes/SoBaseColor.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoDrawStyle.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoLightModel.h>
#include <Inventor/nodes/SoLineSet.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoPointSet.h>
#include <Inventor/nodes/SoPolygonOffset.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoTransform.h>

#include "render/CoinConvert.h"

namespace sg {

namespace {

constexpr double kTwoPi = 6.283185307179586;

SbColor sbColour(const std::array<float, 3>& rgb) { return SbColor(rgb[0], rgb[1], rgb[2]); }

SoTransform* frameTransform(const Transform& frame) {
  auto* xf = new SoTransform;
  xf->translation = toSb(frame.translation());
  xf->rotation = toSb(frame.rotation());
  return xf;
}

void setPoints(SoCoordinate3* coords, const std::vector<Vec3>& points) {
  coords->point.setNum(static_cast<int>(points.size()));
  SbVec3f* out = coords->point.startEditing();
  for (std::size_t i = 0; i < points.size(); ++i) out[i] = toSb(points[i]);
  coords->point.finishEditing();
}

// Unlit drawing: lines and points keep their exact colour whatever the light.
SoLightModel* baseColourLighting() {
  auto* light = new SoLightModel;
  light->model = SoLightModel::BASE_COLOR;
  return light;
}

// A world direction expressed as a unit tangent of the contact frame (z dropped).
Vec3 tangentInFrame(const Transform& frame, const Vec3& worldDirection) {
  Vec3 local = frame.rotation().conjugate() * worldDirection;
  local.z() = 0;
  const double n = local.norm();
  return n > 1e-12 ? Vec3(local / n) : Vec3(Vec3::UnitX());
}

}  // namespace

std::vector<Vec3> paraboloidPatchPoints(const ParaboloidPatch& patch, int rings, int segments) {
  std::vector<Vec3> points;
  if (rings < 1 || segments < 3) return points;
  points.reserve(1 + static_cast<std::size_t>(rings * segments));
  points.emplace_back(0, 0, 0);
  for (int k = 1; k <= rings; ++k) {
    const double r = patch.radius_mm * k / rings;
    for (int j = 0; j < segments; ++j) {
      const double t = kTwoPi * j / segments;
      const double x = r * std::cos(t), y = r * std::sin(t);
      points.emplace_back(x, y, patch.a * x * x + patch.b * y * y + patch.c * x * y);
    }
  }
  return points;
}

std::vector<Vec3> contactEllipsePoints(const ContactEllipse& ellipse, int segments) {
  std::vector<Vec3> points;
  if (segments < 3) return points;
  const Vec3 u = tangentInFrame(ellipse.frame, ellipse.axisLong);
  const Vec3 v = tangentInFrame(ellipse.frame, ellipse.axisShort);
  for (int j = 0; j < segments; ++j) {
    const double t = kTwoPi * j / segments;
    points.push_back(ellipse.semiLong_mm * std::cos(t) * u + ellipse.semiShort_mm * std::sin(t) * v);
  }
  return points;
}

SoSeparator* makeParaboloidPatchNode(const ParaboloidPatch& patch, const SoftPatchStyle& style) {
  auto* sep = new SoSeparator;
  sep->setName("softPatch");
  sep->addChild(frameTransform(patch.frame));
  auto* material = new SoMaterial;
  material->diffuseColor = sbColour(style.patchColour);
  material->emissiveColor = sbColour(style.patchColour) * 0.3f;
  material->transparency = style.patchTransparency;
  sep->addChild(material);
  auto* hints = new SoShapeHints;  // unknown ordering: lit from both sides
  hints->vertexOrdering = SoShapeHints::UNKNOWN_ORDERING;
  hints->shapeType = SoShapeHints::UNKNOWN_SHAPE_TYPE;
  hints->creaseAngle = 1.0f;
  sep->addChild(hints);
  auto* offset = new SoPolygonOffset;  // in front of the body surface it lies on
  offset->factor = -1.0f;
  offset->units = -4.0f;
  sep->addChild(offset);

  const int rings = std::max(1, style.rings), segments = std::max(3, style.segments);
  auto* coords = new SoCoordinate3;
  setPoints(coords, paraboloidPatchPoints(patch, rings, segments));
  sep->addChild(coords);

  auto ringPoint = [segments](int k, int j) { return 1 + (k - 1) * segments + (j % segments); };
  std::vector<int32_t> index;
  for (int j = 0; j < segments; ++j) index.insert(index.end(), {0, ringPoint(1, j), ringPoint(1, j + 1), -1});
  for (int k = 1; k < rings; ++k)
    for (int j = 0; j < segments; ++j) {
      index.insert(index.end(), {ringPoint(k, j), ringPoint(k + 1, j), ringPoint(k + 1, j + 1), -1});
      index.insert(index.end(), {ringPoint(k, j), ringPoint(k + 1, j + 1), ringPoint(k, j + 1), -1});
    }
  auto* faces = new SoIndexedFaceSet;
  faces->coordIndex.setValues(0, static_cast<int>(index.size()), index.data());
  sep->addChild(faces);
  return sep;
}

SoSeparator* makeContactEllipseNode(const ContactEllipse& ellipse, const SoftPatchStyle& style) {
  auto* sep = new SoSeparator;
  sep->setName("contactEllipse");
  sep->addChild(frameTransform(ellipse.frame));
  sep->addChild(baseColourLighting());
  auto* colour = new SoBaseColor;
  colour->rgb = sbColour(style.ellipseColour);
  sep->addChild(colour);
  auto* draw = new SoDrawStyle;
  draw->lineWidth = style.ellipseLineWidth;
  sep->addChild(draw);
  std::vector<Vec3> points = contactEllipsePoints(ellipse, std::max(3, style.segments));
  if (!points.empty()) points.push_back(points.front());  // close the loop
  auto* coords = new SoCoordinate3;
  setPoints(coords, points);
  sep->addChild(coords);
  auto* line = new SoLineSet;
  line->numVertices = static_cast<int>(points.size());
  sep->addChild(line);
  return sep;
}

SoSeparator* makePointMarkersNode(const std::vector<Vec3>& points_mm, const SoftPatchStyle& style) {
  auto* sep = new SoSeparator;
  sep->setName("pointMarkers");
  sep->addChild(baseColourLighting());
  auto* colour = new SoBaseColor;
  colour->rgb = sbColour(style.pointColour);
  sep->addChild(colour);
  auto* draw = new SoDrawStyle;
  draw->pointSize = style.pointSize;
  sep->addChild(draw);
  auto* coords = new SoCoordinate3;
  setPoints(coords, points_mm);
  sep->addChild(coords);
  auto* set = new SoPointSet;
  set->numPoints = static_cast<int>(points_mm.size());
  sep->addChild(set);
  return sep;
}

}  // namespace sg
