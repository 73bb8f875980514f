#include "Warnings.h"

#include <exception>
#include <iostream>

#include "JsonWriter.h"
#include "contact/Interpenetration.h"

namespace sg::cli {

void Warnings::add(const std::string& text) {
  std::cerr << "softgrasp-cli: warning: " << text << "\n";
  lines_.push_back(text);
}

void Warnings::addLoadWarnings(const World& world) {
  for (const auto& w : world.loadWarnings()) add(w);
}

void Warnings::addInterpenetrations(const World& world) {
  std::vector<Interpenetration> pairs;
  try {
    pairs = findInterpenetrations(world);
  } catch (const std::exception&) {  // sg::Error
    return;  // the load already reported what is wrong with the body
  }
  for (const Interpenetration& p : pairs) add("interpenetrating: " + describe(world, p));
}

Json Warnings::json() const { return jsonStrings(lines_); }

}  // namespace sg::cli
