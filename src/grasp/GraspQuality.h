#pragma once
// Quality of a grasp wrench space's Qhull hull (src/grasp/QUALITY.md §ε and volume). Its volume is reported (the
// volume measures); its ε is internal (tests, GraspIt! parity): every ε reported comes from support functions
// (SupportEpsilon.h, QUALITY.md §One sign rule).
//  * ε (Ferrari–Canny): min over facets of −offset = the signed distance from the origin to the nearest
//    facet. Positive ⇔ origin strictly inside (force closure); 0 for a flat or missing hull; negative when
//    the origin is outside (how far). GraspIt! reports −1 for every non-force-closure case: epsilonGraspIt.
//  * volume: the hull's volume in normalised wrench units (0 without a hull).
//  * weakest direction: the outward normal of the facet achieving ε; worstCaseWrench = ε·normal is the
//    nearest boundary point, the wrench the grasp resists least. GraspIt! draws its negation as the
//    "worst-case disturbance".
#include "grasp/GraspWrenchSpace.h"

namespace sg {

struct GraspQuality {
  HullStatus hullStatus = HullStatus::Empty;
  std::string message;
  bool forceClosure = false;
  double epsilon = 0;
  double epsilonGraspIt = -1;               // ε if force closure, else −1
  double volume = 0;
  int facetCount = 0;
  Vec6 weakestDirection = Vec6::Zero();     // unit, 6-D (zeros in unused coordinates)
  Vec6 worstCaseWrench = Vec6::Zero();      // ε · weakestDirection
};

// forceClosureTolerance: ε must exceed it (boundary contact — e.g. two antipodal point contacts — is not
// force closure here, whereas GraspIt! counts the boundary as inside).
GraspQuality evaluateQuality(const GraspWrenchSpace& gws, double forceClosureTolerance = 1e-9);

// ε straight from a hull (any dimension): min(−offset), or 0 without facets.
double epsilonOf(const WrenchHull& hull);

}  // namespace sg
