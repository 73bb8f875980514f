#pragma once
// The format tag every JSON document SoftGrasp writes starts with (docs/schemas/README.md):
//   {"format": "softgrasp.<kind>", "version": <integer>, ...}
// stdout documents of softgrasp-cli --json, grasp lists, job lists, shard headers (JSON Lines: the header line
// carries the tag), merged datasets and the application's analysis export. Readers check the tag with
// checkFormat, which names the file and what it found against what it expected.
#include <string>
#include <utility>
#include <vector>

#include "core/Json.h"

namespace sg {

struct JsonFormat {
  JsonFormat(std::string kind_, int version_, std::vector<std::string> formerNames_ = {})
      : kind(std::move(kind_)), version(version_), formerNames(std::move(formerNames_)) {}
  std::string kind;                      // "grasp-list": the format name is "softgrasp.grasp-list"
  int version = 1;                       // the version written; readers accept 1..version
  std::vector<std::string> formerNames;  // names written before the "softgrasp.<kind>" scheme, still read
  std::string name() const { return "softgrasp." + kind; }
};

// {"format": name, "version": version} followed by the members of `body` (an object; a "format" or "version"
// member of its own is replaced).
Json withFormat(const JsonFormat& format, const Json& body);

// Checks the tag of a document read from `file`: sg::Error naming the file, e.g.
// "expected a softgrasp.grasp-list document version 1, found \"softgrasp.batch-jobs\" version 1".
// Returns the version found.
int checkFormat(const Json& document, const JsonFormat& expected, const std::string& file);

}  // namespace sg
