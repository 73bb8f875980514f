#pragma once
// Convex polygons in a plane (2-D, mm): the geometry of contact patches (src/contact/README.md §Contact
// patches). Every polygon is counter-clockwise; fewer than three points stand for a segment or a point.
#include <vector>

#include "core/Math.h"

namespace sg {

using Polygon2 = std::vector<Vec2>;

// The convex hull of the points, counter-clockwise (collinear and duplicate points dropped): 0, 1 (a point),
// 2 (a segment) or ≥ 3 points.
Polygon2 convexHullPolygon(const std::vector<Vec2>& points);
// Signed area (mm², > 0 for counter-clockwise) and centroid (a segment's midpoint, a point itself).
double polygonArea(const Polygon2& polygon);
Vec2 polygonCentroid(const Polygon2& polygon);
// ∫|r − c| dA / A over the polygon about c (closed form per triangle fan, mm); for a segment the mean distance
// along it (a uniform line load), for a point 0. Uniform pressure makes μN·meanDistance the torsional limit.
double polygonMeanDistance(const Polygon2& polygon, const Vec2& c);
// The intersection of two convex sets given as hulls (Sutherland–Hodgman; a segment or a point is clipped by a
// polygon, two segments intersect when they overlap on a common line within `tolerance_mm`).
Polygon2 intersectConvex(const Polygon2& a, const Polygon2& b, double tolerance_mm = 1e-9);
// Drops vertices, each time the one whose removal loses the least area, until at most `maxVertices` (≥ 3)
// remain. The result is convex and inside the input.
Polygon2 reducePolygon(Polygon2 polygon, std::size_t maxVertices);

}  // namespace sg
