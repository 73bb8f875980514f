#include "io/UrdfSidecar.h"

#include <cstring>
#include <filesystem>

#include "core/Parse.h"
#include "io/PathResolver.h"
#include "io/XmlHelpers.h"

namespace sg::urdfio {

using xml::Element;

namespace {

std::string requireAttribute(const Element& e, const char* name, const std::string& file) {
  const auto a = xml::attribute(e, name);
  if (!a || a->empty()) throw xml::errorAt(file, e, xml::tagOf(e) + " needs attribute " + name);
  return *a;
}

std::optional<DofType> dofType(const Element& e, const std::string& file) {
  const auto t = xml::attribute(e, "type");
  if (!t) return std::nullopt;
  if (*t == "r") return DofType::Rigid;
  if (*t == "b") return DofType::BreakAway;
  if (*t == "c") return DofType::Compliant;
  throw xml::errorAt(file, e, "<dof> type must be r, b or c, found '" + *t + "'");
}

std::string fileChild(const Element& e, const std::string& file) {
  const std::string name = xml::text(e);
  const std::string dir = directoryOf(file);
  const std::filesystem::path p = std::filesystem::path(name).is_absolute() ? std::filesystem::path(name)
                                                                            : std::filesystem::path(dir) / name;
  std::error_code ec;
  if (name.empty() || !std::filesystem::is_regular_file(p, ec))
    throw xml::errorAt(file, e, xml::tagOf(e) + " file '" + name + "' not found (tried " + p.lexically_normal().string() + ")");
  return p.lexically_normal().string();
}

}  // namespace

std::string sidecarPathFor(const std::string& urdfFile) {
  const std::filesystem::path p(absolutePath(urdfFile));
  return (p.parent_path() / (p.stem().string() + ".softgrasp.xml")).string();
}

Sidecar readSidecar(const std::string& path) {
  Sidecar s;
  s.file = absolutePath(path);
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, s.file);
  const Element& root = xml::rootOf(doc, s.file);
  if (std::strcmp(root.Name(), "softgraspHand") != 0)
    throw xml::errorAt(s.file, root, "root element is " + xml::tagOf(root) + ", expected <softgraspHand>");
  for (const Element* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "palm") {
      s.palmLink = requireAttribute(*e, "link", s.file);
    } else if (tag == "approachDirection") {
      ApproachDirection a;
      a.reference_mm = xml::vec3(xml::requireChild(*e, "referenceLocation", s.file), s.file);
      const Element& d = xml::requireChild(*e, "direction", s.file);
      a.direction = xml::vec3(d, s.file);
      if (!(a.direction.norm() > 1e-12)) throw xml::errorAt(s.file, d, "<direction> must not be the zero vector");
      s.approach = a;
    } else if (tag == "dof") {
      const std::string joint = requireAttribute(*e, "joint", s.file);
      SidecarDof d;
      d.line = xml::lineOf(*e);
      d.type = dofType(*e, s.file);
      d.defaultVelocity = xml::attributeNumber(*e, "defaultVelocity", s.file);
      d.defaultValue = xml::attributeNumber(*e, "defaultValue", s.file);
      d.breakAwayTorque = xml::attributeNumber(*e, "breakAwayTorque", s.file);
      if (!s.dofs.emplace(joint, d).second) throw xml::errorAt(s.file, *e, "joint '" + joint + "' has a second <dof>");
      s.dofOrder.push_back(joint);
    } else if (tag == "link") {
      const std::string name = requireAttribute(*e, "name", s.file);
      SidecarLink l;
      l.line = xml::lineOf(*e);
      l.material = xml::attribute(*e, "material");
      l.youngs_Pa = xml::attributeNumber(*e, "youngs", s.file);
      if (l.youngs_Pa && !(*l.youngs_Pa > 0))
        throw xml::errorAt(s.file, *e, "youngs must be > 0 Pa, found " + formatDouble(*l.youngs_Pa));
      if (const auto c = xml::attribute(*e, "collision")) {
        if (*c != "on" && *c != "off") throw xml::errorAt(s.file, *e, "collision must be on or off, found '" + *c + "'");
        l.collisionOff = *c == "off";
      }
      if (!s.links.emplace(name, l).second) throw xml::errorAt(s.file, *e, "link '" + name + "' has a second <link>");
    } else if (tag == "eigenGrasps") {
      s.eigenGraspsFile = fileChild(*e, s.file);
      s.eigenGraspsLine = xml::lineOf(*e);
    } else if (tag == "virtualContacts") {
      s.virtualContactsFile = fileChild(*e, s.file);
      s.virtualContactsLine = xml::lineOf(*e);
    } else {
      throw xml::errorAt(s.file, *e, "unknown element " + xml::tagOf(*e) +
                                         " (expected palm, approachDirection, dof, link, eigenGrasps, virtualContacts)");
    }
  }
  return s;
}

}  // namespace sg::urdfio
