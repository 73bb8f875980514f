#include "sim/TrialSettings.h"

#include <cmath>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg::sim {

std::string PullDirection::name() const { return std::string(1, "xyz"[axis]) + (sign > 0 ? "+" : "-"); }

Vec3 PullDirection::unit_O() const {
  Vec3 u = Vec3::Zero();
  u[axis] = sign > 0 ? 1.0 : -1.0;
  return u;
}

std::vector<PullDirection> allDirections() {
  std::vector<PullDirection> out;
  for (int axis = 0; axis < 3; ++axis)
    for (int sign : {1, -1}) out.push_back({axis, sign});
  return out;
}

std::vector<PullDirection> parseDirections(const std::string& text) {
  if (text == "all") return allDirections();
  std::vector<PullDirection> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool found = false;
    for (const PullDirection& d : allDirections())
      if (d.name() == item) {
        found = true;
        bool repeated = false;
        for (const PullDirection& seen : out) repeated = repeated || seen == d;
        if (repeated) throw Error("direction '" + item + "' is given twice");
        out.push_back(d);
      }
    if (!found)
      throw Error("unknown direction '" + item + "' (expected all, or a list of x+, x-, y+, y-, z+, z-)");
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

namespace {
void requirePositive(double value, const char* name) {
  if (!std::isfinite(value) || value <= 0)
    throw Error(std::string("trial setting ") + name + " must be a finite number > 0, found " + formatDouble(value));
}
}  // namespace

void validateTrialSettings(const TrialSettings& s) {
  if (!std::isfinite(s.settle_s) || s.settle_s < 0)
    throw Error("trial setting settle_s must be a finite number >= 0, found " + formatDouble(s.settle_s));
  requirePositive(s.duration_s, "duration_s");
  requirePositive(s.gravity_mps2, "gravity_mps2");
  requirePositive(s.timestep_s, "timestep_s");
  requirePositive(s.sampleInterval_s, "sampleInterval_s");
  requirePositive(s.heldDisplacement_mm, "heldDisplacement_mm");
  requirePositive(s.heldRotation_deg, "heldRotation_deg");
  if (!std::isfinite(s.impratio) || s.impratio < 1)
    throw Error("trial setting impratio must be a finite number >= 1, found " + formatDouble(s.impratio));
  if (!std::isfinite(s.poisson) || s.poisson < 0 || s.poisson > 0.5)
    throw Error("trial setting poisson must be in [0, 0.5], found " + formatDouble(s.poisson));
  if (s.directions.empty()) throw Error("trial settings name no direction");
  if (s.timestep_s > s.duration_s) throw Error("trial setting timestep_s is longer than duration_s");
}

}  // namespace sg::sim
