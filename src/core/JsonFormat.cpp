#include "core/JsonFormat.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"

namespace sg {

Json withFormat(const JsonFormat& format, const Json& body) {
  Json out = Json::object();
  out.set("format", format.name());
  out.set("version", format.version);
  for (const auto& [key, value] : body.members("document"))
    if (key != "format" && key != "version") out.set(key, value);
  return out;
}

namespace {

// How a tag member reads in a message: format "softgrasp.x", version 2, no "version".
std::string describeFound(const Json* value, const char* key) {
  if (!value) return std::string("no \"") + key + "\"";
  switch (value->type()) {
    case Json::Type::String: return std::string(key) + " \"" + value->string(key) + "\"";
    case Json::Type::Number: return std::string(key) + " " + Json(value->number(key)).dumpLine();
    default: return std::string("a non-") + (std::string(key) == "format" ? "string" : "integer") + " \"" + key + "\"";
  }
}

}  // namespace

int checkFormat(const Json& document, const JsonFormat& expected, const std::string& file) {
  const std::string want =
      "expected a " + expected.name() + " document version " +
      (expected.version == 1 ? std::string("1") : "1 to " + std::to_string(expected.version));
  if (document.type() != Json::Type::Object) throw Error(want + ", found a JSON value that is not an object", file);
  const Json* format = document.find("format");
  const Json* version = document.find("version");
  const bool nameOk = format && format->type() == Json::Type::String &&
                      (format->string("format") == expected.name() ||
                       std::find(expected.formerNames.begin(), expected.formerNames.end(), format->string("format")) !=
                           expected.formerNames.end());
  const bool versionIsInteger = version && version->type() == Json::Type::Number &&
                                std::floor(version->number("version")) == version->number("version");
  const double v = versionIsInteger ? version->number("version") : 0;
  if (!nameOk || !versionIsInteger || v < 1 || v > expected.version) {
    std::string found = "found " + describeFound(format, "format") + ", " + describeFound(version, "version");
    if (nameOk && versionIsInteger && v > expected.version) found += " (newer than this program reads)";
    throw Error(want + ", " + found, file);
  }
  return static_cast<int>(v);
}

}  // namespace sg
