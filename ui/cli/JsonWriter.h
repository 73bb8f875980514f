#pragma once
// JSON building blocks shared by the subcommands, all sg::Json (src/core/Json.h, the engine's one JSON library
// and number format; the engine types' values are in src/core/JsonGeometry.h): an object from a list of
// members, and the writer that puts a document on stdout.
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>

#include "core/Json.h"
#include "core/JsonFormat.h"
#include "core/JsonGeometry.h"
#include "geometry/TriangleMesh.h"

namespace sg::cli {

// {"key": value, ...} in the order given.
Json jsonObject(std::initializer_list<std::pair<std::string, Json>> members);
// [item, ...] in the order given.
Json jsonArray(std::initializer_list<Json> items);
Json jsonBox(const AlignedBox& box);  // {"min", "max", "size"} in mm; null when empty

// The tags of the commands' --json documents (docs/schemas/<kind>.schema.json). `quality` prints the engine's
// analysis document (sg::kAnalysisFormat), `plan` and `evaluate` a grasp list (planner::kGraspListFormat).
namespace formats {
inline const JsonFormat info{"info", 1}, fk{"fk", 1}, grasp{"grasp", 1}, contact{"contact", 1},
    compare{"compare", 1}, sensing{"sensing", 1}, convert{"convert", 1}, batchRun{"batch-run", 1},
    batchMerge{"batch-merge", 1}, hold{"hold", 1},
    batchMergeDb{"batch-merge-db", 1};
}  // namespace formats

// Indented UTF-8 JSON followed by a newline: {"format": "softgrasp.<kind>", "version": N, members of `body`...}.
void writeJson(std::ostream& out, const JsonFormat& format, const Json& body);

}  // namespace sg::cli
