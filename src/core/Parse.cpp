#include "core/Parse.h"

#include <charconv>
#include <cmath>

namespace sg {

std::string_view trim(std::string_view t) {
  const char* ws = " \t\r\n\f\v";
  auto b = t.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  auto e = t.find_last_not_of(ws);
  return t.substr(b, e - b + 1);
}

std::optional<double> parseDouble(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  if (text.front() == '+') text.remove_prefix(1);  // from_chars does not accept a leading '+'
  if (text.empty() || text.front() == '+' || text.front() == ' ') return std::nullopt;
  double v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int> parseInt(std::string_view text) {
  text = trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  int v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

std::vector<std::string_view> splitWhitespace(std::string_view text) {
  std::vector<std::string_view> out;
  const char* ws = " \t\r\n\f\v";
  size_t i = text.find_first_not_of(ws);
  while (i != std::string_view::npos) {
    size_t j = text.find_first_of(ws, i);
    out.push_back(text.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    i = j == std::string_view::npos ? j : text.find_first_not_of(ws, j);
  }
  return out;
}

std::optional<std::vector<double>> parseDoubleList(std::string_view text) {
  std::vector<double> out;
  for (auto tok : splitWhitespace(text)) {
    auto v = parseDouble(tok);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

}  // namespace sg
