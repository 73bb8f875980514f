#pragma once
// What `quality` reports about an evaluated grasp, as JSON and as text: per contact the model, friction,
// soft-contact details (neighbourhood sizes, fitted paraboloid coefficients, principal curvatures, relative
// radii, patch semi-axes and axes, torsional limit), the friction edges and the wrenches on the object; for
// the grasp force closure, every measure once (each ε from support functions with its bounds) and how the
// hulls the volumes need were built (or why not).
#include <QJsonObject>
#include <ostream>

#include "TextPrinter.h"
#include "grasp/GraspEvaluation.h"

namespace sg::cli {

// Upper bound on the points of the L∞ Minkowski sum: Π over contacts of (wrenches + 1).
double lInfinityPointBound(const GraspEvaluation& e);

// Contact `index` of the evaluation, with the model's soft data where it has some.
QJsonObject contactEvaluationJson(const World& world, const GraspEvaluation& e, std::size_t index);
// How a wrench space's Qhull hull was built (only the volumes read it): {"built", "status", "points", "facets",
// "message" when not Ok}; an L∞ hull over its point limit: {"built": false, "status": "not built", "message",
// "pointsNeeded", "pointLimit"}. No ε and no volume: every value is in measuresJson, once.
QJsonObject hullJson(const GraspEvaluation& e, const GraspWrenchSpace& gws, const GraspQuality& q,
                     const QualitySettings& settings);

void printContactEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t index);
// "N points, F facets" (and the status when not Ok), or "not built: <reason>".
void printHull(TextPrinter& out, const char* label, const GraspEvaluation& e, const GraspWrenchSpace& gws,
               const GraspQuality& q, const QualitySettings& settings);

// {"measure name": {"label", "value" (null when not ok), "ok", "message"?, and for the ε's "lowerBound",
// "upperBound", "gap", "iterations", "converged", "status", "weakestDirection"}} for every computed measure.
QJsonObject measuresJson(const GraspEvaluation& e);
// One model's evaluation: {"contactModel", "torqueScale_mm", "contacts", "forceClosure" (ε L1's verdict),
// "measures", "hulls": {"l1"?, "lInfinity"?} (hullJson, the hulls a requested measure built)}.
QJsonObject evaluationJson(const World& world, const GraspEvaluation& e, const QualitySettings& settings);
// The same as text: model, torque scale, contacts with details, force closure, hulls built, measures.
void printEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t contactsFound,
                     const QualitySettings& settings);

}  // namespace sg::cli
