#include "io/NumberChecks.h"

#include <cmath>

#include "core/Parse.h"

namespace sg::xml {

void requireMagnitude(const std::string& file, const Element& e, double value, double limit, const std::string& what,
                      const std::string& unit) {
  if (std::isfinite(value) && std::abs(value) <= limit) return;
  throw errorAt(file, e, tagOf(e) + (what.empty() ? "" : " " + what) + " is out of range: " + formatDouble(value) +
                             " (limit ±" + formatDouble(limit) + (unit.empty() ? "" : " " + unit) + ")");
}

double boundedNumber(const Element& e, const std::string& file, double limit, const std::string& unit) {
  const double v = number(e, file);
  requireMagnitude(file, e, v, limit, "", unit);
  return v;
}

double requireChildBounded(const Element& parent, const char* name, const std::string& file, double limit,
                           const std::string& unit) {
  return boundedNumber(requireChild(parent, name, file), file, limit, unit);
}

}  // namespace sg::xml
