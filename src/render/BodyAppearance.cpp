#include "render/BodyAppearance.h"

#include <array>
#include <functional>
#include <utility>

#include "model/Body.h"

namespace sg {

namespace {

// GraspIt!'s default materials, coloured so they are easy to tell apart.
const std::array<std::pair<const char*, Vec3>, 7> kMaterialColours = {{
    {"wood", Vec3(0.72, 0.53, 0.32)},
    {"metal", Vec3(0.68, 0.70, 0.74)},
    {"glass", Vec3(0.62, 0.80, 0.90)},
    {"plastic", Vec3(0.25, 0.50, 0.85)},
    {"rubber", Vec3(0.80, 0.16, 0.12)},
    {"stone", Vec3(0.55, 0.54, 0.50)},
    {"frictionless", Vec3(0.90, 0.86, 0.40)},
}};

const Vec3 kRobotColour(0.55, 0.60, 0.70);
const Vec3 kSoftTint(0.30, 0.85, 0.55);
constexpr double kSoftBlend = 0.45;

}  // namespace

Vec3 materialColour(const std::string& materialName) {
  for (const auto& [name, colour] : kMaterialColours)
    if (materialName == name) return colour;
  // Unknown material: a stable, mid-bright colour derived from the name.
  const std::size_t h = std::hash<std::string>{}(materialName);
  return Vec3(0.35 + 0.5 * ((h & 0xff) / 255.0), 0.35 + 0.5 * (((h >> 8) & 0xff) / 255.0),
              0.35 + 0.5 * (((h >> 16) & 0xff) / 255.0));
}

Vec3 bodyColour(const Body& body, bool isRobotBody) {
  const Vec3 base = body.colour ? Vec3(body.colour->head<3>()) : isRobotBody ? kRobotColour : materialColour(body.material);
  if (!body.isSoft()) return base;
  return (1.0 - kSoftBlend) * base + kSoftBlend * kSoftTint;
}

}  // namespace sg
