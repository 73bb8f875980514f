#pragma once
// The grasp as the viewport draws it over the bodies, built from an analysis result (src/grasp/Analysis.h):
// one mapping "analysis → Coin overlay" shared by the application's overlays (ui/app/ContactOverlay,
// ui/app/QualityOverlay) and the headless screenshot (`softgrasp WORLD --screenshot`), so both draw the
// same picture. A view only: built from the results, never edits them.
//   contacts          a marker at every contact of the world (ContactNodes.h); the hand's contacts (a robot
//                     body on either side) are drawn over the bodies, the others depth-tested;
//   friction cones    one per contact, standing on the graspable's side when one body is graspable (else on
//                     side 1), half-angle atan μ; a frictionless contact (μ = 0) shows only its normal line;
//   model drawings    what the evaluation's contact model registered (ModelOverlays.h), e.g. the soft finger's
//                     fitted paraboloids and contact ellipse (softPatches), the hydroelastic contact surfaces
//                     with their pressure and net force (contactSurfaces);
//   contact forces    per contact whose model drawing gives its normal force (the soft-finger and Hertz models'
//                     nominal force) an arrow pushing on the object along its inward normal, its head at the
//                     contact point, forceArrow_mm_per_N long per newton (README §Contact forces);
//   worst-case wrench GraspIt!'s negated worst-case wrench of the L1 space at the object's centre of mass,
//                     only with force closure (WrenchNodes.h).
// Patches and arrows are drawn without depth test (a patch lies between finger and object). What the arrows
// mean (their scales and values) is said by graspOverlayLegend (OverlayLegend.h).
#include <array>
#include <cstddef>
#include <vector>

#include "contact/Contact.h"
#include "render/ContactNodes.h"
#include "render/WrenchNodes.h"

class SoSeparator;

namespace sg {

struct AnalysisResult;
struct GraspEvaluation;

// Default contact-force arrow scale: GraspIt!'s nominal 5 N reads 25 mm, a little beyond the 20 mm cones.
inline constexpr double kForceArrow_mm_per_N = 5.0;
inline constexpr double kForceArrowShaftRadius_mm = 1.0;
inline constexpr std::array<float, 3> kForceArrowColour = {0.1f, 0.75f, 0.15f};

struct GraspOverlayOptions {
  bool contacts = true;         // markers
  bool frictionCones = true;    // drawn only with the markers
  bool softPatches = true;      // paraboloid patches and contact ellipses
  bool worstCaseWrench = true;
  bool contactForces = true;    // normal-force arrows where the model gives a force
  bool contactSurfaces = true;  // hydroelastic contact surfaces (pressure polygons, centre of pressure)
  double forceArrow_mm_per_N = kForceArrow_mm_per_N;  // contact-force arrow length per newton (times scale)
  double scale = 1.0;           // multiplies marker radii, cone height and wrench- and force-arrow lengths and widths
};

// What an overlay graph holds.
struct GraspOverlayCounts {
  int markers = 0;              // one per contact
  int frictionCones = 0;        // cones with a surface: one per contact with μ > 0
  int patches = 0;              // paraboloid patches: one per soft fit (two per soft contact)
  int ellipses = 0;             // contact ellipses: one per soft contact
  int forceArrows = 0;          // contact-force arrows: one per contact with a model force > 0
  int contactSurfaces = 0;      // hydroelastic contact surfaces drawn (non-empty ones)
  bool worstCaseWrench = false;
};

// The normal force (N) the evaluation's model drawing gives contact `index` of evaluation.contacts
// (ModelOverlay::normalForce_N), or 0 when it gives none (point and frictionless contacts are per unit force).
double modelNormalForce_N(const GraspEvaluation& evaluation, std::size_t index);

// Drawn length (mm) of the contact-force arrow for a force; 0 for none.
double contactForceArrowLength_mm(double force_N, const GraspOverlayOptions& options);

// The glyph of every contact (index i ↔ contacts[i]): cone side and on-top as described above.
std::vector<ContactGlyph> contactGlyphs(const std::vector<Contact>& contacts);
// Default glyph and arrow sizes times options.scale.
ContactGlyphStyle contactGlyphStyle(const GraspOverlayOptions& options);
WrenchArrowStyle wrenchArrowStyle(const GraspOverlayOptions& options);

// The evaluation part (patches, ellipses, contact forces, worst-case wrench) as a new separator (ref count 0) named
// "evaluationOverlay"; `evaluation` may be null (an empty overlay). `counts` (optional) receives what was drawn
// (its markers and cones stay untouched).
SoSeparator* makeEvaluationOverlayNode(const GraspEvaluation* evaluation, const GraspOverlayOptions& options = {},
                                       GraspOverlayCounts* counts = nullptr);

// The whole overlay as a new separator (ref count 0) named "graspOverlay": the contact glyphs of `contacts`
// (ContactNodes' graph, without highlight) when options.contacts, then makeEvaluationOverlayNode.
SoSeparator* makeGraspOverlayNode(const std::vector<Contact>& contacts, const GraspEvaluation* evaluation,
                                  const GraspOverlayOptions& options = {}, GraspOverlayCounts* counts = nullptr);
// The same for an analysis: its contacts and its primary evaluation.
SoSeparator* makeGraspOverlayNode(const AnalysisResult& result, const GraspOverlayOptions& options = {},
                                  GraspOverlayCounts* counts = nullptr);

}  // namespace sg
