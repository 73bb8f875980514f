#pragma once
// What "info" reports about a loaded model, in both output forms: JSON (InputReportJson.cpp) and text
// (InputReportText.cpp). The JSON shape is documented in ui/cli/README.md.
#include <ostream>

#include "InputOptions.h"
#include "core/Json.h"

namespace sg::cli {

struct WorldTotals {
  std::size_t bodies = 0, triangles = 0, robots = 0, dofs = 0;
  double dynamicMass_g = 0;  // graspable bodies and robot links (palms included); obstacles have no mass
};
WorldTotals computeTotals(const World& world);

Json bodyToJson(const Body& body, const Transform& X_WB, const std::string& label);
Json robotToJson(const World& world, int robotIndex);
Json inputFileToJson(const InputFile& input);

void printInputFileText(std::ostream& out, const InputFile& input);

}  // namespace sg::cli
