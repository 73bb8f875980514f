// <linkProperties> inside a world's <robot>: robot body edits that survive a save (see LinkPropertiesXml.h).
#include "io/LinkPropertiesXml.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "core/Parse.h"
#include "io/ModelIO.h"

namespace sg::xmlio {

namespace {

constexpr const char* kTag = "linkProperties";

// The three user-editable properties (mass in g, modulus in Pa; no modulus = rigid).
struct EditableProperties {
  std::string material;
  double mass_g = 0;
  std::optional<double> youngs_Pa;
};

EditableProperties propertiesOf(const Body& b) { return {b.material, b.mass_g, b.youngs_Pa}; }

bool isXmlFileName(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".xml";
}

// What the body's file gives, read the way the body reader reads it (defaults: Body{}'s wood and 300 g,
// rigid). nullopt when the file no longer reads.
std::optional<EditableProperties> filePropertiesOf(const Body& body) {
  const Body defaults;
  EditableProperties p{defaults.material, defaults.mass_g, std::nullopt};
  // A link loaded from a bare mesh has no body file: the defaults are what reloading gives.
  if (body.sourceFile.empty() || !isXmlFileName(body.sourceFile)) return p;
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(body.sourceFile.c_str()) != tinyxml2::XML_SUCCESS || !doc.RootElement()) return std::nullopt;
  const xml::Element& root = *doc.RootElement();
  if (const auto* m = xml::child(root, "material")) p.material = xml::text(*m);
  if (const auto* m = xml::child(root, "mass")) {
    const auto v = parseDouble(xml::text(*m));
    if (!v) return std::nullopt;
    p.mass_g = *v;
  }
  if (const auto* y = xml::child(root, "youngs")) {
    const auto v = parseDouble(xml::text(*y));
    if (!v) return std::nullopt;
    p.youngs_Pa = *v;
  }
  return p;
}

std::string linkName(const BodyRef& ref) {
  if (ref.chain < 0) return "palm";
  return "chain" + std::to_string(ref.chain) + "/link" + std::to_string(ref.link);
}

// "palm" or "chain<C>/link<L>" (decimal digits only); nullopt for anything else.
std::optional<BodyRef> parseLinkName(const std::string& name) {
  if (name == "palm") return BodyRef{-1, 0};
  auto digitsAt = [&](std::size_t pos, std::size_t& end) -> std::optional<int> {
    end = pos;
    while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
    if (end == pos || end - pos > 6) return std::nullopt;
    return std::stoi(name.substr(pos, end - pos));
  };
  if (name.rfind("chain", 0) != 0) return std::nullopt;
  std::size_t end = 0;
  const auto chain = digitsAt(5, end);
  if (!chain || name.compare(end, 5, "/link") != 0) return std::nullopt;
  const auto link = digitsAt(end + 5, end);
  if (!link || end != name.size()) return std::nullopt;
  return BodyRef{*chain, *link};
}

bool robotHas(const Robot& robot, const BodyRef& ref) {
  if (ref.chain < 0) return true;
  return ref.chain < static_cast<int>(robot.chains.size()) &&
         ref.link < static_cast<int>(robot.chains[static_cast<std::size_t>(ref.chain)].links.size());
}

double positiveNumber(const xml::Element& e, const std::string& file, const char* unit) {
  const double v = xml::number(e, file);
  if (!(v > 0)) throw xml::errorAt(file, e, xml::tagOf(e) + " must be > 0 " + unit + ", found " + formatDouble(v));
  return v;
}

}  // namespace

std::string linkPropertiesXml(const Robot& robot, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  const std::string inner(static_cast<std::size_t>(indent + 2), ' ');
  std::map<std::string, std::optional<EditableProperties>> fileCache;  // links often share a body file
  // A URDF robot's links have no body files: what reloading the URDF (and its sidecar) gives is the reference.
  std::optional<Robot> urdf;
  if (isUrdfPath(robot.sourceFile)) {
    try {
      urdf = loadUrdfRobot(robot.sourceFile, MaterialTable{});
      if (urdf->bodyRefs() != robot.bodyRefs()) urdf.reset();
    } catch (const Error&) {
      urdf.reset();  // then every link's properties are written
    }
  }
  std::string out;
  for (const BodyRef& ref : robot.bodyRefs()) {
    const Body& body = robot.body(ref);
    std::optional<EditableProperties> fromUrdf;
    if (urdf) fromUrdf = propertiesOf(urdf->body(ref));
    auto cached = fileCache.find(body.sourceFile);
    if (!urdf && cached == fileCache.end()) cached = fileCache.emplace(body.sourceFile, filePropertiesOf(body)).first;
    const std::optional<EditableProperties>& file = urdf ? fromUrdf : cached->second;
    const EditableProperties now = propertiesOf(body);
    std::string children;
    if (!file || now.material != file->material)
      children += xml::concat({inner, "<material>", xml::escape(now.material), "</material>\n"});
    if (!file || now.mass_g != file->mass_g) children += xml::concat({inner, "<mass>", formatDouble(now.mass_g), "</mass>\n"});
    if (!file || now.youngs_Pa != file->youngs_Pa)
      children += now.youngs_Pa ? xml::concat({inner, "<youngs>", formatDouble(*now.youngs_Pa), "</youngs>\n"})
                                : inner + "<rigid/>\n";
    if (children.empty()) continue;
    out += xml::concat({pad, "<", kTag, " link=\"", linkName(ref), "\">\n"});
    out += children;
    out += xml::concat({pad, "</", kTag, ">\n"});
  }
  return out;
}

void applyLinkProperties(Robot& robot, const xml::Element& robotElement, const std::string& file,
                         const MaterialTable& materials) {
  std::set<std::pair<int, int>> seen;
  for (const xml::Element* e = robotElement.FirstChildElement(kTag); e; e = e->NextSiblingElement(kTag)) {
    const auto name = xml::attribute(*e, "link");
    if (!name) throw xml::errorAt(file, *e, "<linkProperties> needs a link attribute (\"palm\" or \"chain<C>/link<L>\")");
    const auto ref = parseLinkName(std::string(trim(*name)));
    if (!ref || !robotHas(robot, *ref))
      throw xml::errorAt(file, *e, "<linkProperties link=\"" + *name + "\"> names no body of robot " + robot.name +
                                       " (expected \"palm\" or \"chain<C>/link<L>\" of an existing link)");
    if (!seen.insert({ref->chain, ref->link}).second)
      throw xml::errorAt(file, *e, "<linkProperties link=\"" + *name + "\"> is given twice");

    Body& body = robot.body(*ref);
    EditableProperties p = propertiesOf(body);
    std::set<std::string> given;
    for (const xml::Element* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string tag = c->Name();
      if (!given.insert(tag).second) throw xml::errorAt(file, *c, xml::tagOf(*c) + " is given twice in <linkProperties>");
      if (tag == "material") {
        p.material = xml::text(*c);
        if (!materials.contains(p.material)) {
          std::string known;
          for (const auto& n : materials.names()) known += (known.empty() ? "" : ", ") + n;
          throw xml::errorAt(file, *c, "unknown material '" + p.material + "' (known: " + known + ")");
        }
      } else if (tag == "mass") {
        p.mass_g = positiveNumber(*c, file, "g");
      } else if (tag == "youngs") {
        p.youngs_Pa = positiveNumber(*c, file, "Pa");
      } else if (tag == "rigid") {
        p.youngs_Pa.reset();
      } else {
        throw xml::errorAt(file, *c, "unknown element " + xml::tagOf(*c) +
                                         " in <linkProperties> (expected material, mass, youngs or rigid)");
      }
    }
    if (given.empty()) throw xml::errorAt(file, *e, "<linkProperties> sets nothing (expected material, mass, youngs or rigid)");
    if (given.count("youngs") && given.count("rigid"))
      throw xml::errorAt(file, *e, "<linkProperties> has both <youngs> and <rigid/>");
    // Applied only once the whole element is valid, so a failed load changes nothing.
    body.material = p.material;
    body.mass_g = p.mass_g;
    body.youngs_Pa = p.youngs_Pa;
  }
}

}  // namespace sg::xmlio
