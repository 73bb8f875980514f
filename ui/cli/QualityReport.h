#pragma once
// What `quality` reports about an evaluated grasp, as JSON and as text: per contact the model, friction,
// soft-contact details (neighbourhood sizes, fitted paraboloid coefficients, principal curvatures, relative
// radii, patch semi-axes and axes, torsional limit), the friction edges and the wrenches on the object; for
// the grasp the L1 and L∞ spaces (ε, volume, force closure, or why a space was not built).
#include <QJsonObject>
#include <ostream>

#include "TextPrinter.h"
#include "grasp/GraspEvaluation.h"

namespace sg::cli {

// Upper bound on the points of the L∞ Minkowski sum: Π over contacts of (wrenches + 1).
double lInfinityPointBound(const GraspEvaluation& e);

// Contact `index` of the evaluation, with the model's soft data where it has some.
QJsonObject contactEvaluationJson(const World& world, const GraspEvaluation& e, std::size_t index);
// {"type", "built", "hull", "message", "points", "facets", "forceClosure", "epsilon", "epsilonGraspIt",
//  "volume", "worstCaseWrench"}; an L∞ space that was not built has "hull": "not built", the reason in
// "message", and "pointsNeeded" and "pointLimit".
QJsonObject wrenchSpaceJson(const GraspEvaluation& e, const GraspWrenchSpace& gws, const GraspQuality& q,
                            const QualitySettings& settings);

void printContactEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t index);
// "L1: epsilon E, volume V, force closure yes|no", or "Linf: not built: <reason>".
void printWrenchSpace(TextPrinter& out, const char* label, const GraspEvaluation& e, const GraspWrenchSpace& gws,
                      const GraspQuality& q, const QualitySettings& settings);

// {"measure name": {"label", "value", "ok", "message"?}} for every computed measure.
QJsonObject measuresJson(const GraspEvaluation& e);
// One model's evaluation: {"contactModel", "torqueScale_mm", "contacts", "measures", "l1", "lInfinity"}.
QJsonObject evaluationJson(const World& world, const GraspEvaluation& e, const QualitySettings& settings);
// The same as text: model, torque scale, contacts with details, wrench spaces, measures.
void printEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t contactsFound,
                     const QualitySettings& settings);

}  // namespace sg::cli
