#pragma once
// Analytic shapes (README.md §Analytic shapes): plain data in their own shape frame S, mm. Queries are free
// functions (ShapeQueries.h), tessellation for drawing and mesh queries is in ShapeTessellation.h, pair
// queries in ShapePairs.h. Every shape is centred on the origin of S; axial shapes use the z axis.
#include <optional>
#include <string>
#include <variant>

#include "core/Transform.h"

namespace sg {

struct Sphere {
  double radius_mm = 1;
};
struct Ellipsoid {
  Vec3 semiAxes_mm = Vec3::Ones();  // along x, y, z
};
// Closed (capped) cylinder along z from −height/2 to +height/2.
struct Cylinder {
  double radius_mm = 1, height_mm = 2;
};
// Closed cone along z: base disc of radius `radius_mm` at z = −height/2, apex at z = +height/2 (Coin's SoCone
// with y → z).
struct Cone {
  double radius_mm = 1, height_mm = 2;
};
// Box with full edge lengths along x, y, z (Simbody's Brick, Coin's Cube).
struct Box {
  Vec3 size_mm = Vec3::Constant(2);
  Vec3 halfExtents_mm() const { return 0.5 * size_mm; }
};
// Torus around z: tube centre circle of radius majorRadius_mm in z = 0, tube radius minorRadius_mm (< major).
struct Torus {
  double majorRadius_mm = 2, minorRadius_mm = 1;
};
// Capsule: the points within radius_mm of the segment from (0,0,−length/2) to (0,0,+length/2).
struct Capsule {
  double radius_mm = 1, length_mm = 2;
};
// Half-space z ≤ 0; its surface is the plane z = 0, outward normal +z.
struct HalfSpace {};

using Shape = std::variant<Sphere, Ellipsoid, Cylinder, Cone, Box, Torus, Capsule, HalfSpace>;

// A shape placed in a body frame: p_B = X_BS · p_S.
struct Primitive {
  Shape shape;
  Transform X_BS;
};

const char* shapeTypeName(const Shape& s);  // "sphere", "ellipsoid", ..., "halfspace" (the body XML type names)
bool isConvex(const Shape& s);              // all but torus and half-space (Simbody's isConvex; half-space: no support point)
bool isSmooth(const Shape& s);              // sphere, ellipsoid, torus, half-space (no edges or apex)
bool isFinite(const Shape& s);              // all but half-space

// Checks the dimensions (finite, > 0; torus minor < major). Returns an empty string when valid, else the
// problem in words ("radius must be > 0, found -1").
std::string shapeProblem(const Shape& s);

// Volume (mm³) and inertia per unit mass (mm²) about the centre of the shape (its origin, except the cone,
// whose centroid is at z = −height/4), in shape axes; nullopt for the half-space.
struct ShapeMassProperties {
  double volume_mm3 = 0;
  Vec3 centroid_mm = Vec3::Zero();  // shape frame
  Mat3 inertiaPerMass_mm2 = Mat3::Zero();  // about the centroid, shape axes
};
std::optional<ShapeMassProperties> shapeMassProperties(const Shape& s);

// The primitive after the body-frame map p → A·p + t (a body file's scale and offset, an Inventor
// transform), if the result is still a primitive of a supported type: a uniform scale keeps every type; a
// scale along the shape's own axes turns a sphere into an ellipsoid, scales an ellipsoid or a box, and a
// cylinder or cone when its two radial scales are equal; a half-space survives any invertible map.
// Mirrors are allowed (every shape is mirror-symmetric across x = 0). nullopt otherwise (shear, unequal
// radial scales of a cylinder, non-uniform scale of a torus or capsule, singular A).
// `tolerance`: relative, for orthogonality and equal scales (single-precision input needs ~1e-6).
std::optional<Primitive> transformedPrimitive(const Primitive& p, const Mat3& A, const Vec3& t, double tolerance = 1e-9);

}  // namespace sg
