#pragma once
// Coin arrows for a wrench (src/render/README.md §Wrench arrows): the worst-case disturbance of a grasp drawn at the
// object's centre of mass, a straight arrow for the force and a double-headed arrow for the torque (its
// axis, right-hand rule). Wrenches of the quality pipeline are dimensionless (per unit normal force,
// torques divided by the torque scale ρ), so lengths are given in mm per unit.
#include <array>

#include "core/Transform.h"

class SoSeparator;

namespace sg {

struct WrenchArrowStyle {
  double length_mm_per_unit = 200.0;   // arrow length for a component of magnitude 1
  double minLength_mm = 10.0;          // shorter non-zero arrows are drawn this long (still visible)
  double shaftRadius_mm = 1.2;
  std::array<float, 3> forceColour = {0.95f, 0.15f, 0.6f};
  std::array<float, 3> torqueColour = {0.2f, 0.45f, 1.0f};
};

// Drawn length (mm) of an arrow for a vector of this magnitude; 0 for a zero vector.
double wrenchArrowLength_mm(double magnitude, const WrenchArrowStyle& style = {});

// Arrow from the origin along `direction` (any length > 0), `length_mm` long, in the current frame. Named
// nodes: the separator gets `name`. Its first child is an SoTransform whose rotation maps +y to the direction.
SoSeparator* makeArrowNode(const Vec3& direction, double length_mm, const std::array<float, 3>& colour,
                           double shaftRadius_mm, bool doubleHead, const char* name);

// The force (separator "forceArrow") and torque ("torqueArrow") arrows of `force`, `torque` (world frame)
// starting at `origin_mm` (world). Zero components are left out.
SoSeparator* makeWrenchArrowsNode(const Vec3& origin_mm, const Vec3& force, const Vec3& torque,
                                  const WrenchArrowStyle& style = {});

}  // namespace sg
