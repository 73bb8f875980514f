#include "render/TrialForceNodes.h"

#include <algorithm>

#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTranslation.h>

#include "render/CoinConvert.h"
#include "render/WrenchNodes.h"

namespace sg {

double trialForceArrowLength_mm(double force_N, const TrialForceStyle& style) {
  if (!(force_N > style.minForce_N)) return 0.0;
  return std::max(style.minLength_mm, force_N * style.mm_per_N);
}

SoSeparator* makeTrialForceArrowsNode(const std::vector<TrialForceArrow>& arrows, const TrialForceStyle& style) {
  auto* root = new SoSeparator;
  root->setName("trialForces");
  for (const TrialForceArrow& a : arrows) {
    const double length = trialForceArrowLength_mm(a.force_W_N.norm(), style);
    if (length <= 0) continue;
    auto* sep = new SoSeparator;
    sep->setName("trialForceArrow");
    // The force pushes into the object at p: the arrow ends there (src/render/README.md §Contact forces).
    auto* move = new SoTranslation;
    move->translation = toSb(Vec3(a.p_W_mm - a.force_W_N.normalized() * length));
    sep->addChild(move);
    sep->addChild(makeArrowNode(a.force_W_N, length, style.colour, style.shaftRadius_mm, false, "trialForceShape"));
    root->addChild(sep);
  }
  return root;
}

}  // namespace sg
