#include "QualityOverlay.h"

#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoSwitch.h>

#include "GraspAnalysis.h"
#include "contact/models/SoftFingerContactModel.h"
#include "render/SoftPatchNodes.h"

namespace sg::app {

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
  p.frame = contactFrame(side.position_mm, side.normal);  // the frame the fit used
  p.a = fit.a;
  p.b = fit.b;
  p.c = fit.c;
  p.radius_mm = radius_mm;
  return p;
}
}  // namespace

QualityOverlay::QualityOverlay(GraspAnalysis* analysis, SoSeparator* overlayRoot, QObject* parent)
    : QObject(parent), analysis_(analysis), overlayRoot_(overlayRoot) {
  overlayRoot_->ref();
  switch_ = new SoSwitch;
  switch_->setName("qualityOverlay");
  switch_->ref();
  content_ = new SoSeparator;
  switch_->addChild(content_);
  switch_->whichChild = SO_SWITCH_ALL;
  overlayRoot_->addChild(switch_);
  connect(analysis_, &GraspAnalysis::updated, this, &QualityOverlay::rebuild);
  rebuild();
}

QualityOverlay::~QualityOverlay() {
  overlayRoot_->removeChild(switch_);
  switch_->unref();
  overlayRoot_->unref();
}

void QualityOverlay::setVisible(bool on) {
  visible_ = on;
  switch_->whichChild = on ? SO_SWITCH_ALL : SO_SWITCH_NONE;
}

void QualityOverlay::rebuild() {
  content_->removeAllChildren();
  // X-ray: a patch lies between the finger and the object, so bodies would always hide it. Solid shapes
  // (the arrows) cull their back faces so they still read as solids without depth testing.
  auto* xray = new SoDepthBuffer;
  xray->test = false;
  content_->addChild(xray);
  auto* cull = new SoShapeHints;
  cull->vertexOrdering = SoShapeHints::COUNTERCLOCKWISE;
  cull->shapeType = SoShapeHints::SOLID;
  content_->addChild(cull);
  patchCount_ = ellipseCount_ = 0;
  wrenchShown_ = false;
  const auto& evaluation = analysis_->evaluation();
  if (!evaluation) return;
  for (std::size_t i = 0; i < evaluation->contacts.size(); ++i) {
    const ContactEvaluation& ce = evaluation->contacts[i];
    const SoftContactResult* soft = softContactResult(evaluation->modelResult.get(), i);
    if (!soft) continue;
    const ContactSide& objectSide = ce.objectIsSide1 ? ce.contact.side1 : ce.contact.side2;
    const ContactSide& handSide = ce.objectIsSide1 ? ce.contact.side2 : ce.contact.side1;
    const QuadricFit& objectFit = ce.objectIsSide1 ? soft->fit1 : soft->fit2;
    const QuadricFit& handFit = ce.objectIsSide1 ? soft->fit2 : soft->fit1;
    const double radius_mm = soft->neighbourhoodRadius_mm;
    content_->addChild(makeParaboloidPatchNode(patchOf(objectFit, objectSide, radius_mm), objectSideStyle()));
    content_->addChild(makeParaboloidPatchNode(patchOf(handFit, handSide, radius_mm), handSideStyle()));
    patchCount_ += 2;
    ContactEllipse ellipse;
    ellipse.frame = contactFrame(objectSide.position_mm, objectSide.normal);
    ellipse.axisLong = soft->patch.axisLong;
    ellipse.axisShort = soft->patch.axisShort;
    ellipse.semiLong_mm = soft->patch.semiAxisLong_mm;
    ellipse.semiShort_mm = soft->patch.semiAxisShort_mm;
    content_->addChild(makeContactEllipseNode(ellipse, objectSideStyle()));
    ++ellipseCount_;
  }
  // GraspIt! draws the negated worst-case wrench: the disturbance the grasp resists least.
  // From ε L1 by support functions (the live analysis always computes it; no hull needed).
  if (evaluation->l1Support && evaluation->l1Support->forceClosure) {
    const WrenchReference& ref = evaluation->reference;
    const Quat r = ref.objectPose.rotation();
    const Vec3 cog = ref.objectPose * ref.cog_mm;
    const Vec6 disturbance = -evaluation->l1Support->worstCaseWrench;
    content_->addChild(makeWrenchArrowsNode(cog, r * Vec3(disturbance.head<3>()), r * Vec3(disturbance.tail<3>()),
                                            wrenchStyle_));
    wrenchShown_ = true;
  }
}

}  // namespace sg::app
