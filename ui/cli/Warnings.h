#pragma once
// Warnings of one run: each is printed at once on stderr as "softgrasp-cli: warning: <text>" (exit code
// unchanged) and kept, so JSON output can carry the same lines as its "warnings" array.
#include <string>
#include <vector>

#include "core/Json.h"
#include "model/World.h"

namespace sg::cli {

class Warnings {
 public:
  void add(const std::string& text);
  // World::loadWarnings: those of every robot (missing eigengrasp or virtual-contact files, ignored collision
  // rules) and body (textures Coin could not read), one "file:line: problem" line each.
  void addLoadWarnings(const World& world);
  // One "interpenetrating: A <-> B 8.20 mm deep" line per interpenetrating pair of the world as loaded (the
  // engine's findInterpenetrations, the scan the application draws red), deepest first. A world whose bodies
  // cannot be checked (a body without geometry) gives none.
  void addInterpenetrations(const World& world);

  const std::vector<std::string>& all() const { return lines_; }
  Json json() const;

 private:
  std::vector<std::string> lines_;
};

}  // namespace sg::cli
