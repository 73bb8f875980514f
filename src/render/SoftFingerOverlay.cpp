// The soft-finger (and Hertz) model's drawing (registered in ModelOverlays.cpp): per soft contact the fitted
// paraboloid of each side (the object's orange, the hand's blue) over the neighbourhood radius and the
// contact ellipse (red), and the patch's nominal normal force as the contact-force arrow.
#include <Inventor/nodes/SoSeparator.h>

#include "contact/models/SoftFingerContactModel.h"
#include "grasp/GraspEvaluation.h"
#include "render/ModelOverlays.h"
#include "render/SoftPatchNodes.h"

namespace sg {

namespace {

const SoftPatchStyle& objectSideStyle() {
  static const SoftPatchStyle style;
  return style;
}

const SoftPatchStyle& handSideStyle() {
  static const SoftPatchStyle style = [] {
    SoftPatchStyle s;
    s.patchColour = {0.2f, 0.55f, 1.0f};
    return s;
  }();
  return style;
}

ParaboloidPatch patchOf(const QuadricFit& fit, const ContactSide& side, double radius_mm) {
  ParaboloidPatch p;
  p.frame = contactFrame(side.p_WC_mm, side.n_W);  // the frame the fit used
  p.a = fit.a;
  p.b = fit.b;
  p.c = fit.c;
  p.radius_mm = radius_mm;
  return p;
}

// The fitted patch of each side and the contact ellipse of one soft contact.
void addSoftContactNodes(SoSeparator* parent, const ContactEvaluation& ce, const SoftContactResult& soft,
                         GraspOverlayCounts& counts) {
  const ContactSide& objectSide = ce.objectIsSide1 ? ce.contact.side1 : ce.contact.side2;
  const ContactSide& handSide = ce.objectIsSide1 ? ce.contact.side2 : ce.contact.side1;
  const QuadricFit& objectFit = ce.objectIsSide1 ? soft.fit1 : soft.fit2;
  const QuadricFit& handFit = ce.objectIsSide1 ? soft.fit2 : soft.fit1;
  const double radius_mm = soft.neighbourhoodRadius_mm;
  parent->addChild(makeParaboloidPatchNode(patchOf(objectFit, objectSide, radius_mm), objectSideStyle()));
  parent->addChild(makeParaboloidPatchNode(patchOf(handFit, handSide, radius_mm), handSideStyle()));
  counts.patches += 2;
  ContactEllipse ellipse;
  ellipse.frame = contactFrame(objectSide.p_WC_mm, objectSide.n_W);
  ellipse.axisLong = soft.patch.axisLong;
  ellipse.axisShort = soft.patch.axisShort;
  ellipse.semiLong_mm = soft.patch.semiAxisLong_mm;
  ellipse.semiShort_mm = soft.patch.semiAxisShort_mm;
  parent->addChild(makeContactEllipseNode(ellipse, objectSideStyle()));
  ++counts.ellipses;
}

void drawPatches(SoSeparator* parent, const GraspEvaluation& evaluation, const GraspOverlayOptions& options,
                 GraspOverlayCounts& counts) {
  if (!options.softPatches) return;
  for (std::size_t i = 0; i < evaluation.contacts.size(); ++i)
    if (const SoftContactResult* soft = softContactResult(evaluation.modelResult.get(), i))
      addSoftContactNodes(parent, evaluation.contacts[i], *soft, counts);
}

// The nominal normal force of a soft contact's patch (point and frictionless contacts are per unit force).
double patchNormalForce_N(const GraspEvaluation& evaluation, std::size_t i) {
  const SoftContactResult* soft = softContactResult(evaluation.modelResult.get(), i);
  return soft && soft->patch.normalForce_N > 0 ? soft->patch.normalForce_N : 0.0;
}

}  // namespace

ModelOverlay softFingerOverlay() {
  ModelOverlay overlay;
  overlay.draw = drawPatches;
  overlay.normalForce_N = patchNormalForce_N;
  return overlay;
}

}  // namespace sg
