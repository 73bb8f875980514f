#pragma once
// JSON building blocks shared by the subcommands, all sg::Json (src/core/Json.h, the engine's one JSON library
// and number format; the engine types' values are in src/core/JsonGeometry.h): an object from a list of
// members, and the writer that puts a document on stdout.
#include <initializer_list>
#include <ostream>
#include <string>
#include <utility>

#include "core/Json.h"
#include "core/JsonGeometry.h"
#include "geometry/TriangleMesh.h"

namespace sg::cli {

// {"key": value, ...} in the order given.
Json jsonObject(std::initializer_list<std::pair<std::string, Json>> members);
// [item, ...] in the order given.
Json jsonArray(std::initializer_list<Json> items);
Json jsonBox(const AlignedBox& box);  // {"min", "max", "size"} in mm; null when empty

// Indented UTF-8 JSON followed by a newline.
void writeJson(std::ostream& out, const Json& document);

}  // namespace sg::cli
