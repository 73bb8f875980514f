#pragma once
// The one analysis-to-JSON of the engine (core/Json.h: one key order, one number format): what
// `softgrasp-cli quality|grasp|contact|compare --json` print and the application's File > Export Analysis
// writes, built here so both front ends give the same document for the same world and settings. Keys carry
// their unit as a suffix; every measure's value appears once ("measures"); each contact model's own data is
// its ContactModelResult::describeContact / describe tree under "model".
#include <cstddef>
#include <string>
#include <vector>

#include "contact/Contact.h"
#include "core/Json.h"
#include "core/JsonFormat.h"
#include "grasp/Analysis.h"
#include "grasp/GraspEvaluation.h"
#include "grasp/QualityMeasure.h"

namespace sg {

// Upper bound on the points of the L∞ Minkowski sum: Π over contacts of (wrenches + 1).
double lInfinityPointBound(const GraspEvaluation& e);
// Why the L∞ hull was not built (its point bound above settings.gws.maxLInfinityPoints).
std::string lInfinityNotBuiltReason(const GraspEvaluation& e, const QualitySettings& settings);
bool lInfinityHullNotBuilt(const GraspWrenchSpace& gws);

// Contact `index` of the world's contacts: {"index" (0-based; #index+1 in text and GUI), "body1", "body2",
// "position1", "normal1", "position2", "normal2", "separation", "penetrating", "depth_mm", "muStatic",
// "muKinetic", "friction" (what the primary model made of it, "" outside the grasp)}.
Json foundContactJson(const World& world, const Contact& c, std::size_t index, const std::string& friction);
// What each contact became under `e`'s model ("" for contacts outside its grasp); one entry per found contact.
std::vector<std::string> contactKinds(const GraspEvaluation* e, std::size_t contactsFound);

// Evaluated contact `index`: {"contacts" (indices into the found contacts it came from), "merged", "body1",
// "body2", "position_mm", "normal", "separation_mm", "penetrating", "depth_mm", "kind" (ContactKind), "mu",
// "torsion_mm", "maxTorsionalFriction_Nmm", "frictionEdgeCount", "frictionEdges", "wrenches", "note",
// "model" (the model's describeContact tree: the soft finger's neighbourhood, fits and patch)}.
Json contactEvaluationJson(const World& world, const GraspEvaluation& e, std::size_t index);
// How a wrench space's Qhull hull was built: {"built", "status", "points", "facets", "message" when not Ok}; an
// L∞ hull over its point limit: {"built": false, "status": "not built", "message", "pointsNeeded", "pointLimit"}.
Json hullJson(const GraspEvaluation& e, const GraspWrenchSpace& gws, const GraspQuality& q,
              const QualitySettings& settings);
// {"measure name": {"label", "value" (null when not ok), "ok", "message"?, and for the ε's "lowerBound",
// "upperBound", "gap", "iterations", "converged", "status", "weakestDirection"}} in computation order.
Json measuresJson(const GraspEvaluation& e);
// One model's evaluation: {"contactModel", "torqueScale_mm", "contacts", "forceClosure" (ε L1's verdict),
// "measures", "hulls": {"l1"?, "lInfinity"?} (the hulls a requested measure built), "model" (describe())}.
Json evaluationJson(const World& world, const GraspEvaluation& e, const QualitySettings& settings);

// The analysis document's tag: "softgrasp.quality" version 1 (docs/schemas/quality.schema.json), whether
// `softgrasp-cli quality --json` prints it or File > Export Analysis writes it.
inline const JsonFormat kAnalysisFormat{"quality", 1};

// Everything one analysis document holds.
struct AnalysisJsonInput {
  std::string file;                           // the world file analysed ("" when unsaved)
  const World& world;                         // its state: the DOFs reported
  const std::vector<Contact>& contacts;       // every contact found, canonical order (AnalysisResult::contacts)
  int graspable = -1;                         // -1: none (then no evaluation)
  std::vector<const GraspEvaluation*> evaluations;  // the primary model first
  const QualitySettings& settings;
  int robot = -1;                             // the hand whose name and DOFs are reported; -1: none
  std::vector<std::string> warnings;          // load warnings and the like, one line each
  const WorldState* state = nullptr;          // the state analysed (its DOFs reported); null: world.state
};
// {"format", "version" (kAnalysisFormat), "file", "graspable"?, "robot"?, "dofs"?, "contactsFound", "found": [foundContactJson], the primary
// evaluation's members (evaluationJson) at the top level, "evaluations": [evaluationJson], "warnings"}.
Json analysisJson(const AnalysisJsonInput& in);

// The outcome words of the front ends (softgrasp-cli's output, the Python module) for a hand motion
// (HandMotion.h): "" when no approach ran; "not run" when the DOFs were kept.
std::string approachOutcome(const HandMotionReport& report);
std::string fingersOutcome(const HandMotionReport& report);

// The document of one runAnalysis call (Analysis.h) on `state`: analysisJson of its result, then how the hand
// moved ("grasp": fingersOutcome, "approach": approachOutcome when the approach ran) when the request's robot
// exists. What `softgrasp-cli quality --json` prints and the Python module's Analysis.to_json() returns.
Json analysisRunJson(const std::string& file, const World& world, const WorldState& state,
                     const AnalysisRequest& request, const AnalysisResult& result,
                     const std::vector<std::string>& warnings);

}  // namespace sg
