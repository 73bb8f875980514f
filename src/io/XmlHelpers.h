#pragma once
// tinyxml2 helpers shared by the GraspIt! XML readers (internal to src/io). Every failure becomes an
// sg::Error naming the file, the element's line (tinyxml2 GetLineNum) and the tag.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tinyxml2.h>

#include "core/Error.h"
#include "core/Math.h"

namespace sg::xml {

using Element = tinyxml2::XMLElement;

// Parses `path` into `doc`; throws naming the file (and line, for malformed XML) on failure.
void loadFile(tinyxml2::XMLDocument& doc, const std::string& path);
// The root element; throws if the document has none.
const Element& rootOf(const tinyxml2::XMLDocument& doc, const std::string& file);

int lineOf(const Element& e);
std::string tagOf(const Element& e);  // "<name>"

// An sg::Error naming `file`, the line of `e` and the tag.
Error errorAt(const std::string& file, const Element& e, const std::string& problem);

// The first direct child called `name`, or nullptr.
const Element* child(const Element& parent, const char* name);
// As child(), but throws "missing <name> in <parent>" naming the parent's line.
const Element& requireChild(const Element& parent, const char* name, const std::string& file);

// The element's text with surrounding blanks removed ("" for an empty element).
std::string text(const Element& e);
// Text of a required child (may be empty) / of an optional child.
std::string requireChildText(const Element& parent, const char* name, const std::string& file);
std::optional<std::string> childText(const Element& parent, const char* name);

// The element's text as one finite number; throws "<tag> is not a finite number: 'abc'".
double number(const Element& e, const std::string& file);
double requireChildNumber(const Element& parent, const char* name, const std::string& file);
std::optional<double> childNumber(const Element& parent, const char* name, const std::string& file);
int integer(const Element& e, const std::string& file);
int requireChildInteger(const Element& parent, const char* name, const std::string& file);

// The element's text as exactly `count` finite numbers (count < 0: any number of them).
std::vector<double> numbers(const Element& e, const std::string& file, int count = -1);
Vec3 vec3(const Element& e, const std::string& file);

// Attributes: nullopt when absent; throws naming the element if present but not a finite number.
std::optional<std::string> attribute(const Element& e, const char* name);
std::optional<double> attributeNumber(const Element& e, const char* name, const std::string& file);
std::optional<int> attributeInteger(const Element& e, const char* name, const std::string& file);

// The pieces joined (appending avoids GCC 12's false -Wrestrict warnings on chains of string operator+).
std::string concat(std::initializer_list<std::string_view> pieces);
// Numbers separated by single spaces, shortest round-trip form.
std::string joinNumbers(const double* values, std::size_t count);

// Text escaped for XML element content and attribute values.
std::string escape(std::string_view text);

}  // namespace sg::xml
