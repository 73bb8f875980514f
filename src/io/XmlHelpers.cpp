#include "io/XmlHelpers.h"

#include <filesystem>

#include "core/Parse.h"
#include "io/NumberChecks.h"
#include "io/LoadedFiles.h"

namespace sg::xml {

void loadFile(tinyxml2::XMLDocument& doc, const std::string& path) {
  // A device or a FIFO would be read for ever (or block): only regular files are XML files.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw Error(std::filesystem::is_directory(status) ? "cannot open file (it is a directory)"
                                                      : "cannot open file (not a regular file, e.g. a device or a pipe)",
                path);
  noteLoadedFile(path);
  const tinyxml2::XMLError rc = doc.LoadFile(path.c_str());
  if (rc == tinyxml2::XML_ERROR_FILE_NOT_FOUND || rc == tinyxml2::XML_ERROR_FILE_COULD_NOT_BE_OPENED)
    throw Error("cannot open file", path);
  if (rc == tinyxml2::XML_ERROR_FILE_READ_ERROR) throw Error("cannot read file", path);
  if (rc != tinyxml2::XML_SUCCESS) {
    // ErrorStr() reads "Error=NAME ErrorID=N (0xN) Line number=L: detail"; keep only the detail.
    std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
    const auto colon = detail.find(": ");
    detail = colon == std::string::npos ? std::string() : detail.substr(colon + 2);
    std::string what;
    switch (rc) {
      case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT: what = "element not closed by its own end tag"; break;
      case tinyxml2::XML_ERROR_PARSING_ELEMENT: what = "cannot parse element"; break;
      case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: what = "cannot parse attribute"; break;
      case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: what = "empty document"; break;
      default: what = doc.ErrorName(); break;
    }
    throw Error("malformed XML: " + what + (detail.empty() ? "" : " (" + detail + ")"), path, doc.ErrorLineNum());
  }
}

const Element& rootOf(const tinyxml2::XMLDocument& doc, const std::string& file) {
  const Element* root = doc.RootElement();
  if (!root) throw Error("the XML document has no root element", file);
  return *root;
}

int lineOf(const Element& e) { return e.GetLineNum(); }

std::string tagOf(const Element& e) { return std::string("<") + e.Name() + ">"; }

Error errorAt(const std::string& file, const Element& e, const std::string& problem) {
  return Error(problem, file, lineOf(e));
}

const Element* child(const Element& parent, const char* name) { return parent.FirstChildElement(name); }

const Element& requireChild(const Element& parent, const char* name, const std::string& file) {
  const Element* c = parent.FirstChildElement(name);
  if (!c) throw errorAt(file, parent, std::string("missing <") + name + "> in " + tagOf(parent));
  return *c;
}

std::string text(const Element& e) {
  const char* t = e.GetText();
  return t ? std::string(trim(t)) : std::string();
}

std::string requireChildText(const Element& parent, const char* name, const std::string& file) {
  return text(requireChild(parent, name, file));
}

std::optional<std::string> childText(const Element& parent, const char* name) {
  const Element* c = child(parent, name);
  if (!c) return std::nullopt;
  return text(*c);
}

double number(const Element& e, const std::string& file) {
  const std::string t = text(e);
  const auto v = parseDouble(t);
  if (!v) throw errorAt(file, e, tagOf(e) + " is not a finite number: '" + t + "'");
  requireMagnitude(file, e, *v, kMaxMagnitude, "", "");
  return *v;
}

double requireChildNumber(const Element& parent, const char* name, const std::string& file) {
  return number(requireChild(parent, name, file), file);
}

std::optional<double> childNumber(const Element& parent, const char* name, const std::string& file) {
  const Element* c = child(parent, name);
  if (!c) return std::nullopt;
  return number(*c, file);
}

int integer(const Element& e, const std::string& file) {
  const std::string t = text(e);
  const auto v = parseInt(t);
  if (!v) throw errorAt(file, e, tagOf(e) + " is not an integer: '" + t + "'");
  return *v;
}

int requireChildInteger(const Element& parent, const char* name, const std::string& file) {
  return integer(requireChild(parent, name, file), file);
}

std::vector<double> numbers(const Element& e, const std::string& file, int count) {
  const std::string t = text(e);
  const auto v = parseDoubleList(t);
  if (!v) throw errorAt(file, e, tagOf(e) + " must hold finite numbers: '" + t + "'");
  if (count >= 0 && static_cast<int>(v->size()) != count)
    throw errorAt(file, e, tagOf(e) + " must hold " + std::to_string(count) + " numbers, found " +
                               std::to_string(v->size()) + ": '" + t + "'");
  for (const double x : *v) requireMagnitude(file, e, x, kMaxMagnitude, "value", "");
  return *v;
}

Vec3 vec3(const Element& e, const std::string& file) {
  const auto v = numbers(e, file, 3);
  return {v[0], v[1], v[2]};
}

std::optional<std::string> attribute(const Element& e, const char* name) {
  const char* a = e.Attribute(name);
  if (!a) return std::nullopt;
  return std::string(a);
}

std::optional<double> attributeNumber(const Element& e, const char* name, const std::string& file) {
  const auto a = attribute(e, name);
  if (!a) return std::nullopt;
  const auto v = parseDouble(*a);
  if (!v) throw errorAt(file, e, std::string("attribute ") + name + " of " + tagOf(e) +
                                     " is not a finite number: '" + *a + "'");
  requireMagnitude(file, e, *v, kMaxMagnitude, std::string("attribute ") + name, "");
  return v;
}

std::optional<int> attributeInteger(const Element& e, const char* name, const std::string& file) {
  const auto a = attribute(e, name);
  if (!a) return std::nullopt;
  const auto v = parseInt(*a);
  if (!v) throw errorAt(file, e, std::string("attribute ") + name + " of " + tagOf(e) +
                                     " is not an integer: '" + *a + "'");
  return v;
}

std::string concat(std::initializer_list<std::string_view> pieces) {
  std::size_t n = 0;
  for (auto p : pieces) n += p.size();
  std::string out;
  out.reserve(n);
  for (auto p : pieces) out.append(p.data(), p.size());
  return out;
}

std::string joinNumbers(const double* values, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i) out += ' ';
    out += formatDouble(values[i]);
  }
  return out;
}

std::string escape(std::string_view t) {
  std::string out;
  out.reserve(t.size());
  for (char c : t) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace sg::xml
