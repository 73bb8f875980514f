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

QJsonArray Warnings::json() const {
  QJsonArray a;
  for (const auto& line : lines_) a.append(jsonString(line));
  return a;
}

}  // namespace sg::cli
