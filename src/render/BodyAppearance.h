#pragma once
// Display colours for bodies: by material name (GraspIt!'s defaults have fixed colours, unknown
// names get a stable colour from their name), links of robots a steel tone, soft bodies tinted.
#include <string>

#include "core/Math.h"

namespace sg {

struct Body;

// RGB in 0..1.
Vec3 materialColour(const std::string& materialName);
// Colour shown for a body: its own colour when it has one (URDF material), else the material colour, robot links/palms a blue-grey steel, soft bodies
// (Young's modulus set) blended towards a soft green so they stand apart from rigid ones.
Vec3 bodyColour(const Body& body, bool isRobotBody);

}  // namespace sg
