#include "render/WrenchNodes.h"

#include <algorithm>

#include <Inventor/nodes/SoCone.h>
#include <Inventor/nodes/SoCylinder.h>
#include <Inventor/nodes/SoMaterial.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTransform.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/CoinConvert.h"

namespace sg {

namespace {
constexpr double kNegligible = 1e-12;

SoSeparator* cylinderAlongY(double centreY_mm, double height_mm, double radius_mm) {
  auto* sep = new SoSeparator;
  auto* move = new SoTranslation;
  move->translation = SbVec3f(0, static_cast<float>(centreY_mm), 0);
  sep->addChild(move);
  auto* cylinder = new SoCylinder;
  cylinder->height = static_cast<float>(height_mm);
  cylinder->radius = static_cast<float>(radius_mm);
  sep->addChild(cylinder);
  return sep;
}

SoSeparator* coneAlongY(double centreY_mm, double height_mm, double radius_mm) {
  auto* sep = new SoSeparator;
  auto* move = new SoTranslation;
  move->translation = SbVec3f(0, static_cast<float>(centreY_mm), 0);
  sep->addChild(move);
  auto* cone = new SoCone;  // apex at +height/2 along y
  cone->height = static_cast<float>(height_mm);
  cone->bottomRadius = static_cast<float>(radius_mm);
  sep->addChild(cone);
  return sep;
}
}  // namespace

double wrenchArrowLength_mm(double magnitude, const WrenchArrowStyle& style) {
  if (!(magnitude > kNegligible)) return 0;
  return std::max(style.minLength_mm, magnitude * style.length_mm_per_unit);
}

SoSeparator* makeArrowNode(const Vec3& direction, double length_mm, const std::array<float, 3>& colour,
                           double shaftRadius_mm, bool doubleHead, const char* name) {
  auto* sep = new SoSeparator;
  sep->setName(name);
  auto* orient = new SoTransform;
  const Vec3 d = direction.normalized();
  orient->rotation = SbRotation(SbVec3f(0, 1, 0), toSb(d));
  sep->addChild(orient);
  auto* material = new SoMaterial;
  material->diffuseColor = SbColor(colour[0], colour[1], colour[2]);
  material->emissiveColor = SbColor(colour[0], colour[1], colour[2]) * 0.25f;
  sep->addChild(material);
  // The head is 4 shaft radii wide and at most a third of the arrow long.
  const double head = std::min(length_mm / 3.0, 6.0 * shaftRadius_mm);
  const double heads = doubleHead ? 1.6 * head : head;
  const double shaft = std::max(0.0, length_mm - heads);
  sep->addChild(cylinderAlongY(shaft / 2, shaft, shaftRadius_mm));
  sep->addChild(coneAlongY(length_mm - head / 2, head, 2.5 * shaftRadius_mm));
  if (doubleHead) sep->addChild(coneAlongY(length_mm - 1.1 * head, head, 2.5 * shaftRadius_mm));
  return sep;
}

SoSeparator* makeWrenchArrowsNode(const Vec3& origin_mm, const Vec3& force, const Vec3& torque,
                                  const WrenchArrowStyle& style) {
  auto* sep = new SoSeparator;
  sep->setName("wrenchArrows");
  auto* move = new SoTranslation;
  move->translation = toSb(origin_mm);
  sep->addChild(move);
  if (const double l = wrenchArrowLength_mm(force.norm(), style); l > 0)
    sep->addChild(makeArrowNode(force, l, style.forceColour, style.shaftRadius_mm, false, "forceArrow"));
  if (const double l = wrenchArrowLength_mm(torque.norm(), style); l > 0)
    sep->addChild(makeArrowNode(torque, l, style.torqueColour, style.shaftRadius_mm, true, "torqueArrow"));
  return sep;
}

}  // namespace sg
