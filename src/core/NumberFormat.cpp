#include "core/NumberFormat.h"

#include <algorithm>
#include <charconv>

namespace sg {

namespace {

// to_chars never consults the locale; fixed notation of 1e308 needs 309 digits, so the buffer is generous.
template <class... Format>
std::string toChars(double value, Format... format) {
  char buf[400];
  const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value, format...);
  if (ec != std::errc()) return "nan";  // cannot happen with this buffer; never a half-written number
  return std::string(buf, ptr);
}

}  // namespace

std::string formatDouble(double value) { return toChars(value); }

std::string formatSigned(double value) {
  std::string s = formatDouble(value == 0.0 ? 0.0 : value);  // no "-0"
  return (s.front() == '-') ? s : "+" + s;
}

std::string formatGeneral(double value, int significantDigits) {
  return toChars(value, std::chars_format::general, std::clamp(significantDigits, 1, 17));
}

std::string formatFixed(double value, int decimals) {
  return toChars(value, std::chars_format::fixed, std::clamp(decimals, 0, 40));
}

}  // namespace sg
