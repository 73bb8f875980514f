#pragma once
// Coin nodes for a 3-D convex hull with labelled axes through the origin: the GWS projection window
// (README.md §GWS hull) shows a 3-D slice of the grasp wrench space this way. Coordinates are whatever the
// hull is in (dimensionless wrench units for a GWS); the axes reach a little beyond the hull.
#include <array>
#include <string>
#include <vector>

#include "core/Transform.h"

class SoSeparator;

namespace sg {

struct HullNodeStyle {
  std::array<float, 3> faceColour = {0.35f, 0.6f, 0.95f};
  float faceTransparency = 0.3f;
  std::array<float, 3> edgeColour = {0.1f, 0.2f, 0.45f};
  std::array<float, 3> axisColour = {0.9f, 0.9f, 0.9f};  // light: viewports have dark backgrounds
  std::array<float, 3> originColour = {0.9f, 0.1f, 0.1f};
  double axisMargin = 1.25;  // axes span ±axisMargin·(largest |coordinate| of the hull)
};

// Half-length of the drawn axes for these vertices (1 when there are none or all are at the origin).
double hullAxisLength(const std::vector<Vec3>& vertices, const HullNodeStyle& style = {});

// New separator (ref count 0): separator "hullFaces" (SoCoordinate3 of `vertices` + SoIndexedFaceSet, one
// face per triangle, counter-clockwise seen from outside), "hullEdges" (the triangles' outlines), "hullAxes"
// (three lines through the origin with SoText2 labels `axisNames`) and "hullOrigin" (a marker at 0).
SoSeparator* makeHullNode(const std::vector<Vec3>& vertices, const std::vector<std::array<int, 3>>& triangles,
                          const std::array<std::string, 3>& axisNames, const HullNodeStyle& style = {});

}  // namespace sg
