#pragma once
// What "info" reports about a loaded model, in both output forms: JSON (ModelReportJson.cpp) and text
// (ModelReportText.cpp). The JSON shape is documented in ui/cli/README.md.
#include <ostream>

#include "ModelInput.h"
#include "core/Json.h"

namespace sg::cli {

struct ModelTotals {
  std::size_t bodies = 0, triangles = 0, robots = 0, dofs = 0;
  double dynamicMass_g = 0;  // graspable bodies and robot links (palms included); obstacles have no mass
};
ModelTotals computeTotals(const World& world);

Json bodyToJson(const Body& body, const Transform& X_WB, const std::string& label);
Json robotToJson(const World& world, int robotIndex);
Json modelToJson(const LoadedModel& model);

void printModelText(std::ostream& out, const LoadedModel& model);

}  // namespace sg::cli
