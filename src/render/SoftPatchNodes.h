#pragma once
// Coin nodes for a soft contact (src/render/README.md §Soft patch): the fitted paraboloid
// z = a·x² + b·y² + c·x·y drawn as a small surface patch over the neighbourhood radius, the contact ellipse
// (patch semi-axes along the principal directions of the relative curvature), and point markers for the
// neighbourhood vertices. Plain values in, so this layer needs nothing from src/contact.
//
// Frames: a contact frame has its origin at the contact point and z along the body's inward normal (as the
// fit uses it). Patch and ellipse nodes carry that frame as their first SoTransform, so their SoCoordinate3
// points are in the contact frame (mm).
#include <array>
#include <vector>

#include "core/Transform.h"

class SoSeparator;

namespace sg {

// The paraboloid of one side of a contact, in its contact frame.
struct ParaboloidPatch {
  Transform frame;             // world ← contact frame (origin = contact point, z = inward normal)
  double a = 0, b = 0, c = 0;  // z = a x² + b y² + c x y (1/mm)
  double radius_mm = 5;        // drawn over the disc x² + y² <= radius²
};

// The contact ellipse in the tangent plane of `frame`.
struct ContactEllipse {
  Transform frame;                               // world ← contact frame
  Vec3 axisLong = Vec3::UnitY();                 // world, unit, tangent: direction of semiLong_mm
  Vec3 axisShort = Vec3::UnitX();                // world, unit, tangent
  double semiLong_mm = 0, semiShort_mm = 0;
};

struct SoftPatchStyle {
  int rings = 6;                                 // radial subdivisions of the patch disc
  int segments = 32;                             // around the patch disc and the ellipse
  std::array<float, 3> patchColour = {1.0f, 0.55f, 0.1f};
  float patchTransparency = 0.35f;
  std::array<float, 3> ellipseColour = {0.9f, 0.1f, 0.1f};
  float ellipseLineWidth = 2.5f;
  float pointSize = 6.0f;                        // neighbourhood markers (pixels)
  std::array<float, 3> pointColour = {0.1f, 0.9f, 0.2f};
};

// Points of the patch in the contact frame: the centre, then `rings` rings of `segments` points at radii
// r·k/rings (k = 1..rings), each on the paraboloid.
std::vector<Vec3> paraboloidPatchPoints(const ParaboloidPatch& patch, int rings, int segments);

// `segments` points of the ellipse in the contact frame (z = 0), starting on the long axis.
std::vector<Vec3> contactEllipsePoints(const ContactEllipse& ellipse, int segments);

// New separators (ref count 0). The patch is a two-sided, semi-transparent triangle mesh pulled slightly
// towards the viewer (SoPolygonOffset) so it stays visible on the body surface it was fitted to.
SoSeparator* makeParaboloidPatchNode(const ParaboloidPatch& patch, const SoftPatchStyle& style = {});
// A closed line loop; drawn without lighting.
SoSeparator* makeContactEllipseNode(const ContactEllipse& ellipse, const SoftPatchStyle& style = {});
// World points (mm) drawn as big unlit dots (neighbourhood highlight).
SoSeparator* makePointMarkersNode(const std::vector<Vec3>& points_mm, const SoftPatchStyle& style = {});

}  // namespace sg
