#pragma once
// What `quality` prints about an evaluated grasp as text (its JSON: src/grasp/AnalysisJson.h): per contact the
// model, friction, soft-contact details (neighbourhood sizes, fitted paraboloid coefficients, principal
// curvatures, relative radii, patch semi-axes and axes, torsional limit), the friction edges and the wrenches on
// the object; for the grasp force closure, every measure once (each ε from support functions with its bounds)
// and how the hulls the volumes need were built (or why not).
#include <ostream>

#include "TextPrinter.h"
#include "grasp/GraspEvaluation.h"

namespace sg::cli {

void printContactEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t index);
// "N points, F facets" (and the status when not Ok), or "not built: <reason>".
void printHull(TextPrinter& out, const char* label, const GraspEvaluation& e, const GraspWrenchSpace& gws,
               const GraspQuality& q, const QualitySettings& settings);

// One model's evaluation as text: model, torque scale, contacts with details, force closure, hulls built, measures.
void printEvaluation(TextPrinter& out, const World& world, const GraspEvaluation& e, std::size_t contactsFound,
                     const QualitySettings& settings);

}  // namespace sg::cli
