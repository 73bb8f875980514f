#include "render/HoldForceNodes.h"

#include <algorithm>

#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/WrenchNodes.h"

namespace sg {

double holdForceArrowLength_mm(double force_N, const HoldForceStyle& style) {
  return force_N > 0 ? std::max(style.minLength_mm, force_N * style.arrow_mm_per_N) : 0.0;
}

SoSeparator* makeHoldForcesNode(const HoldDirection& direction, const HoldForceStyle& style, int* drawn) {
  initCoin();
  auto* sep = new SoSeparator;
  sep->setName("holdForces");
  auto* xray = new SoDepthBuffer;  // the arrows end at contacts under the fingers
  xray->test = false;
  sep->addChild(xray);
  int count = 0;
  for (const HoldContactForce& f : direction.forces) {
    const double size_N = f.force_W_N.norm();
    const double length_mm = holdForceArrowLength_mm(size_N, style);
    if (length_mm <= 0 || size_N < 1e-12) continue;
    const Vec3 along = f.force_W_N / size_N;
    auto* arrow = new SoSeparator;
    arrow->setName("holdForce");
    auto* move = new SoTranslation;
    move->translation = toSb(Vec3(f.p_W_mm - length_mm * along));
    arrow->addChild(move);
    arrow->addChild(makeArrowNode(along, length_mm, style.colour, style.shaftRadius_mm, false, "holdForceArrow"));
    sep->addChild(arrow);
    ++count;
  }
  if (drawn) *drawn = count;
  return sep;
}

}  // namespace sg
