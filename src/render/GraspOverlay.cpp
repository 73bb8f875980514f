#include "render/GraspOverlay.h"

#include <algorithm>

#include <Inventor/nodes/SoDepthBuffer.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoShapeHints.h>
#include <Inventor/nodes/SoTranslation.h>

#include "contact/models/HydroelasticContactModel.h"
#include "contact/models/SoftFingerContactModel.h"
#include "grasp/Analysis.h"
#include "render/CoinConvert.h"
#include "render/CoinInit.h"
#include "render/ContactSurfaceNodes.h"
#include "render/SoftPatchNodes.h"

namespace sg {

namespace {

bool isGraspable(const BodyHandle& h) { return h.kind == BodyHandle::Kind::Graspable; }

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

// Every non-empty contact surface of the hydroelastic model, on one pressure scale.
int addContactSurfaces(SoSeparator* parent, const HydroelasticModelResult& result, const GraspOverlayOptions& options) {
  ContactSurfaceStyle style;
  style.maxPressure_Pa = highestPeakPressure_Pa(result);
  style.netForce = options.contactForces;
  style.forceArrow_mm_per_N = options.forceArrow_mm_per_N * options.scale;
  style.shaftRadius_mm = kForceArrowShaftRadius_mm * options.scale;
  style.arrowColour = kForceArrowColour;
  style.copMarkerRadius_mm *= options.scale;
  int drawn = 0;
  for (std::size_t k = 0; k < result.surfaces.size(); ++k) {
    if (result.surfaces[k].empty()) continue;
    style.forceOnN = objectIsBodyN(result, static_cast<int>(k));
    parent->addChild(makeContactSurfaceNode(result.surfaces[k], style));
    ++drawn;
  }
  return drawn;
}

}  // namespace

const HydroelasticModelResult* hydroelasticResult(const GraspEvaluation& evaluation) {
  return dynamic_cast<const HydroelasticModelResult*>(evaluation.modelResult.get());
}

double highestPeakPressure_Pa(const HydroelasticModelResult& result) {
  double peak = 0;
  for (const ContactSurface& s : result.surfaces) {
    peak = std::max(peak, s.peakPressure_Pa);
    for (const ContactPolygon& poly : s.polygons)
      for (double p : poly.pressure_Pa) peak = std::max(peak, p);
  }
  return peak;
}

bool objectIsBodyN(const HydroelasticModelResult& result, int surface) {
  const auto& s = result.surfaces[static_cast<std::size_t>(surface)];
  for (std::size_t i = 0; i < result.surfaceOfContact.size() && i < result.contacts.size(); ++i)
    if (result.surfaceOfContact[i] == surface) {
      // The force on the object pushes along its inward normal; force_W_N is the force on M.
      const double along = s.force_W_N.dot(result.contacts[i].onObject().n_W);
      if (along != 0) return along < 0;
    }
  return true;
}

double modelNormalForce_N(const GraspEvaluation& evaluation, std::size_t index) {
  const SoftContactResult* soft = softContactResult(evaluation.modelResult.get(), index);
  return soft && soft->patch.normalForce_N > 0 ? soft->patch.normalForce_N : 0.0;
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
    if (options.softPatches)
      for (std::size_t i = 0; i < evaluation->contacts.size(); ++i)
        if (const SoftContactResult* soft = softContactResult(evaluation->modelResult.get(), i))
          addSoftContactNodes(sep, evaluation->contacts[i], *soft, drawn);
    if (options.contactForces) drawn.forceArrows = addContactForceArrows(sep, *evaluation, options);
    if (options.contactSurfaces)
      if (const HydroelasticModelResult* hydro = hydroelasticResult(*evaluation))
        drawn.contactSurfaces = addContactSurfaces(sep, *hydro, options);
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
