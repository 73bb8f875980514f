#include "render/GraspOverlay.h"

#include <algorithm>

#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoTranslation.h>

#include "grasp/Analysis.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/ModelOverlays.h"

namespace sg {

namespace {

bool isGraspable(const BodyHandle& h) { return h.kind == BodyHandle::Kind::Graspable; }

// GraspIt! draws the negated worst-case wrench: the disturbance the grasp resists least.
bool addWorstCaseWrench(SoSeparator* parent, const GraspEvaluation& evaluation, const WrenchArrowStyle& style) {
  // From ε L1 by support functions (the analysis computes it whenever ε L1 is asked for; no hull needed).
  if (!evaluation.l1Support || !evaluation.l1Support->forceClosure) return false;
  const SupportEpsilon& q = *evaluation.l1Support;
  const WrenchReference& ref = evaluation.reference;
  const Quat R_WO = ref.objectPose.rotation();
  const Vec3 p_WCoG = ref.objectPose * ref.cog_mm;
  const Vec6 disturbance_O = -q.worstCaseWrench;
  SoSeparator* arrows = makeWrenchArrowsNode(p_WCoG, R_WO * Vec3(disturbance_O.head<3>()),
                                             R_WO * Vec3(disturbance_O.tail<3>()), style);
  arrows->setName("worstCaseWrench");
  parent->addChild(arrows);
  return true;
}

// One arrow per contact whose model gives a normal force: the force the hand applies to the object, along the
// object's inward normal, ending at the contact point (a "push" as in a free-body diagram).
int addContactForceArrows(SoSeparator* parent, const GraspEvaluation& evaluation, const GraspOverlayOptions& options) {
  int drawn = 0;
  for (std::size_t i = 0; i < evaluation.contacts.size(); ++i) {
    const double length_mm = contactForceArrowLength_mm(modelNormalForce_N(evaluation, i), options);
    if (length_mm <= 0) continue;
    const ContactSide& onObject = evaluation.contacts[i].onObject();
    auto* arrow = new SoSeparator;
    arrow->setName("contactForce");
    auto* move = new SoTranslation;
    move->translation = toSb(Vec3(onObject.p_WC_mm - length_mm * onObject.n_W));
    arrow->addChild(move);
    arrow->addChild(makeArrowNode(onObject.n_W, length_mm, kForceArrowColour, kForceArrowShaftRadius_mm * options.scale,
                                  false, "contactForceArrow"));
    parent->addChild(arrow);
    ++drawn;
  }
  return drawn;
}

}  // namespace

double modelNormalForce_N(const GraspEvaluation& evaluation, std::size_t index) {
  const ModelOverlay* overlay = findModelOverlay(evaluation.contactModel);
  return overlay && overlay->normalForce_N ? overlay->normalForce_N(evaluation, index) : 0.0;
}

double contactForceArrowLength_mm(double force_N, const GraspOverlayOptions& options) {
  return force_N > 0 ? force_N * options.forceArrow_mm_per_N * options.scale : 0.0;
}

std::vector<ContactGlyph> contactGlyphs(const std::vector<Contact>& contacts) {
  std::vector<ContactGlyph> glyphs;
  glyphs.reserve(contacts.size());
  for (const Contact& c : contacts) {
    // The cone stands on the graspable (the forces that act on it), else on side 1. Soft contacts get one
    // too: their tangential force obeys the same Coulomb cone (the force part of the soft limit surface).
    const bool onSide2 = isGraspable(c.side2.body) && !isGraspable(c.side1.body);
    ContactGlyph glyph = contactGlyph(c, onSide2);
    // The hand's contacts lie under its fingers: draw them over everything.
    glyph.onTop = c.side1.body.kind == BodyHandle::Kind::Robot || c.side2.body.kind == BodyHandle::Kind::Robot;
    glyphs.push_back(glyph);
  }
  return glyphs;
}

ContactGlyphStyle contactGlyphStyle(const GraspOverlayOptions& options) {
  ContactGlyphStyle style;
  style.coneHeight_mm *= options.scale;
  style.markerRadius_mm *= options.scale;
  style.highlightRadius_mm *= options.scale;
  return style;
}

WrenchArrowStyle wrenchArrowStyle(const GraspOverlayOptions& options) {
  WrenchArrowStyle style;
  style.length_mm_per_unit *= options.scale;
  style.minLength_mm *= options.scale;
  style.shaftRadius_mm *= options.scale;
  return style;
}

SoSeparator* makeEvaluationOverlayNode(const GraspEvaluation* evaluation, const GraspOverlayOptions& options,
                                       GraspOverlayCounts* counts) {
  initCoin();
  auto* sep = new SoSeparator;
  sep->setName("evaluationOverlay");
  // X-ray: a patch lies between the finger and the object, so bodies would always hide it. Solid shapes
  // (the arrows) cull their back faces so they still read as solids without depth testing.
  auto* xray = new SoDepthBuffer;
  xray->test = false;
  sep->addChild(xray);
  auto* cull = new SoShapeHints;
  cull->vertexOrdering = SoShapeHints::COUNTERCLOCKWISE;
  cull->shapeType = SoShapeHints::SOLID;
  sep->addChild(cull);
  GraspOverlayCounts drawn;
  if (evaluation) {
    // The model's own drawing (ModelOverlays.h), then the generic arrows.
    const ModelOverlay* overlay = findModelOverlay(evaluation->contactModel);
    if (overlay && overlay->draw) overlay->draw(sep, *evaluation, options, drawn);
    if (options.contactForces) drawn.forceArrows = addContactForceArrows(sep, *evaluation, options);
    if (options.worstCaseWrench) drawn.worstCaseWrench = addWorstCaseWrench(sep, *evaluation, wrenchArrowStyle(options));
  }
  if (counts) {
    counts->patches = drawn.patches;
    counts->ellipses = drawn.ellipses;
    counts->forceArrows = drawn.forceArrows;
    counts->contactSurfaces = drawn.contactSurfaces;
    counts->worstCaseWrench = drawn.worstCaseWrench;
  }
  return sep;
}

SoSeparator* makeGraspOverlayNode(const std::vector<Contact>& contacts, const GraspEvaluation* evaluation,
                                  const GraspOverlayOptions& options, GraspOverlayCounts* counts) {
  initCoin();
  auto* sep = new SoSeparator;
  sep->setName("graspOverlay");
  GraspOverlayCounts drawn;
  if (options.contacts) {
    ContactNodes nodes(contactGlyphStyle(options));
    const std::vector<ContactGlyph> glyphs = contactGlyphs(contacts);
    nodes.setContacts(glyphs);
    nodes.setConesVisible(options.frictionCones);
    sep->addChild(nodes.root());  // keeps the glyph graph alive after `nodes` is gone
    drawn.markers = nodes.contactCount();
    if (options.frictionCones)
      for (const ContactGlyph& g : glyphs) drawn.frictionCones += g.showCone && g.mu > 0;
  }
  sep->addChild(makeEvaluationOverlayNode(evaluation, options, &drawn));
  if (counts) *counts = drawn;
  return sep;
}

SoSeparator* makeGraspOverlayNode(const AnalysisResult& result, const GraspOverlayOptions& options,
                                  GraspOverlayCounts* counts) {
  return makeGraspOverlayNode(result.contacts, result.primary(), options, counts);
}

}  // namespace sg
