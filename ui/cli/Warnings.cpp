#include "Warnings.h"

#include <iostream>

#include "JsonWriter.h"

namespace sg::cli {

void Warnings::add(const std::string& text) {
  std::cerr << "softgrasp-cli: warning: " << text << "\n";
  lines_.push_back(text);
}

void Warnings::addLoadWarnings(const World& world) {
  for (const auto& w : world.loadWarnings()) add(w);
}

Json Warnings::json() const { return jsonStrings(lines_); }

}  // namespace sg::cli
