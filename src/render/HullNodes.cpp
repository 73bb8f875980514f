#include "render/HullNodes.h"

#include <algorithm>

#include <Inventor/nodes/SoBaseColor.h>
#include <Inventor/nodes/SoCoordinate3.h>
#include <Inventor/nodes/SoDrawStyle.h>
#include <Inventor/nodes/SoIndexedFaceSet.h>
#include <Inventor/nodes/SoIndexedLineSet.h>
#include <Inventor/nodes/SoLightModel.h>
#include <Inventor/nodes/SoLineSet.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoPointSet.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoText2.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/CoinConvert.h"

namespace sg {

namespace {

SbColor toColour(const std::array<float, 3>& rgb) { return SbColor(rgb[0], rgb[1], rgb[2]); }

SoSeparator* unlitGroup(const char* name, const std::array<float, 3>& colour) {
  auto* sep = new SoSeparator;
  sep->setName(name);
  auto* light = new SoLightModel;
  light->model = SoLightModel::BASE_COLOR;
  sep->addChild(light);
  auto* base = new SoBaseColor;
  base->rgb = toColour(colour);
  sep->addChild(base);
  return sep;
}

SoCoordinate3* coordinatesOf(const std::vector<Vec3>& points) {
  auto* coords = new SoCoordinate3;
  coords->point.setNum(static_cast<int>(points.size()));
  SbVec3f* out = coords->point.startEditing();
  for (std::size_t i = 0; i < points.size(); ++i) out[i] = toSb(points[i]);
  coords->point.finishEditing();
  return coords;
}

SoSeparator* facesNode(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                       const HullNodeStyle& style) {
  auto* sep = new SoSeparator;
  sep->setName("hullFaces");
  auto* material = new SoMaterial;
  material->diffuseColor = toColour(style.faceColour);
  material->transparency = style.faceTransparency;
  sep->addChild(material);
  auto* hints = new SoShapeHints;
  hints->vertexOrdering = SoShapeHints::COUNTERCLOCKWISE;
  hints->shapeType = SoShapeHints::UNKNOWN_SHAPE_TYPE;  // transparent: back faces show through
  sep->addChild(hints);
  sep->addChild(coordinatesOf(vertices));
  std::vector<int32_t> index;
  index.reserve(triangles.size() * 4);
  for (const auto& t : triangles) index.insert(index.end(), {t[0], t[1], t[2], -1});
  auto* faces = new SoIndexedFaceSet;
  faces->coordIndex.setValues(0, static_cast<int>(index.size()), index.data());
  sep->addChild(faces);
  return sep;
}

SoSeparator* edgesNode(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                       const HullNodeStyle& style) {
  SoSeparator* sep = unlitGroup("hullEdges", style.edgeColour);
  sep->addChild(coordinatesOf(vertices));
  std::vector<int32_t> index;
  index.reserve(triangles.size() * 5);
  for (const auto& t : triangles) index.insert(index.end(), {t[0], t[1], t[2], t[0], -1});
  auto* lines = new SoIndexedLineSet;
  lines->coordIndex.setValues(0, static_cast<int>(index.size()), index.data());
  sep->addChild(lines);
  return sep;
}

SoSeparator* axesNode(double length, const std::array<std::string, 3>& axisNames, const HullNodeStyle& style) {
  SoSeparator* sep = unlitGroup("hullAxes", style.axisColour);
  std::vector<Vec3> ends;
  for (int i = 0; i < 3; ++i) {
    ends.push_back(-length * Vec3::Unit(i));
    ends.push_back(length * Vec3::Unit(i));
  }
  sep->addChild(coordinatesOf(ends));
  auto* lines = new SoLineSet;
  const int32_t counts[3] = {2, 2, 2};
  lines->numVertices.setValues(0, 3, counts);
  sep->addChild(lines);
  for (int i = 0; i < 3; ++i) {
    auto* label = new SoSeparator;
    auto* move = new SoTranslation;
    move->translation = toSb(1.05 * length * Vec3::Unit(i));
    label->addChild(move);
    auto* text = new SoText2;
    text->string = axisNames[static_cast<std::size_t>(i)].c_str();
    label->addChild(text);
    sep->addChild(label);
  }
  return sep;
}

SoSeparator* originNode(const HullNodeStyle& style) {
  SoSeparator* sep = unlitGroup("hullOrigin", style.originColour);
  auto* draw = new SoDrawStyle;
  draw->pointSize = 7.0f;
  sep->addChild(draw);
  sep->addChild(coordinatesOf({Vec3::Zero()}));
  sep->addChild(new SoPointSet);
  return sep;
}

}  // namespace

double hullAxisLength(const std::vector<Vec3>& vertices, const HullNodeStyle& style) {
  double extent = 0;
  for (const Vec3& v : vertices) extent = std::max(extent, v.cwiseAbs().maxCoeff());
  return extent > 0 ? style.axisMargin * extent : 1.0;
}

SoSeparator* makeHullNode(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                          const std::array<std::string, 3>& axisNames, const HullNodeStyle& style) {
  auto* root = new SoSeparator;
  root->setName("hull");
  if (!triangles.empty()) {
    root->addChild(facesNode(vertices, triangles, style));
    root->addChild(edgesNode(vertices, triangles, style));
  }
  root->addChild(axesNode(hullAxisLength(vertices, style), axisNames, style));
  root->addChild(originNode(style));
  return root;
}

}  // namespace sg
