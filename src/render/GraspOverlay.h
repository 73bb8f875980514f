#pragma once
// The grasp as the viewport draws it over the bodies, built from an analysis result (src/grasp/Analysis.h):
// one mapping "analysis → Coin overlay" shared by the application's overlays (ui/app/ContactOverlay,
// ui/app/QualityOverlay) and the headless screenshot (`softgrasp WORLD --screenshot`), so both draw the
// same picture. A view only: built from the results, never edits them.
//   contacts          a marker at every contact of the world (ContactNodes.h); the hand's contacts (a robot
//                     body on either side) are drawn over the bodies, the others depth-tested;
//   friction cones    one per contact, standing on the graspable's side when one body is graspable (else on
//                     side 1), half-angle atan μ; a frictionless contact (μ = 0) shows only its normal line;
//   soft patches      per soft contact of the evaluation the fitted paraboloid of each side (the object's
//                     orange, the hand's blue) over the neighbourhood radius, and the contact ellipse (red);
//   worst-case wrench GraspIt!'s negated worst-case wrench of the L1 space at the object's centre of mass,
//                     only with force closure (WrenchNodes.h).
// Patches and arrows are drawn without depth test (a patch lies between finger and object).
#include <vector>

#include "contact/Contact.h"
#include "render/ContactNodes.h"
#include "render/WrenchNodes.h"

class SoSeparator;

namespace sg {

struct AnalysisResult;
struct GraspEvaluation;

struct GraspOverlayOptions {
  bool contacts = true;         // markers
  bool frictionCones = true;    // drawn only with the markers
  bool softPatches = true;      // paraboloid patches and contact ellipses
  bool worstCaseWrench = true;
  double scale = 1.0;           // multiplies marker radii, cone height and wrench-arrow lengths and widths
};

// What an overlay graph holds.
struct GraspOverlayCounts {
  int markers = 0;              // one per contact
  int frictionCones = 0;        // cones with a surface: one per contact with μ > 0
  int patches = 0;              // paraboloid patches: one per soft fit (two per soft contact)
  int ellipses = 0;             // contact ellipses: one per soft contact
  bool worstCaseWrench = false;
};

// The glyph of every contact (index i ↔ contacts[i]): cone side and on-top as described above.
std::vector<ContactGlyph> contactGlyphs(const std::vector<Contact>& contacts);
// Default glyph and arrow sizes times options.scale.
ContactGlyphStyle contactGlyphStyle(const GraspOverlayOptions& options);
WrenchArrowStyle wrenchArrowStyle(const GraspOverlayOptions& options);

// The evaluation part (patches, ellipses, worst-case wrench) as a new separator (ref count 0) named
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
