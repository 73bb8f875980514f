// Virtual (pre-specified) contacts: XML and the legacy plain-text .vgr format (FORMATS.md §Virtual contacts).
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/Parse.h"
#include "io/ModelIO.h"
#include "io/XmlHelpers.h"
#include "io/LoadedFiles.h"

namespace sg {

namespace {

using xml::Element;

// Fills frame, location, normal and μ; the frame quaternion is w x y z.
void finishContact(VirtualContact& c, const Vec3& location, const double q[4], const Vec3& translation,
                   const Vec3& normal) {
  c.location_mm = location;
  c.frame = Transform(Quat(q[0], q[1], q[2], q[3]), translation);
  c.normal = normal.normalized();
}

std::vector<VirtualContact> readXml(const std::string& file) {
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, file);
  const Element& root = xml::rootOf(doc, file);
  if (std::strcmp(root.Name(), "virtual_contacts") != 0)
    throw xml::errorAt(file, root, "root element is " + xml::tagOf(root) + ", expected <virtual_contacts>");
  std::vector<VirtualContact> out;
  for (const Element* e = root.FirstChildElement("virtual_contact"); e;
       e = e->NextSiblingElement("virtual_contact")) {
    VirtualContact c;
    c.chain = xml::requireChildInteger(*e, "finger_number", file);
    c.link = xml::requireChildInteger(*e, "link_number", file);
    const Element& edges = xml::requireChild(*e, "friction_edges", file);
    for (const Element* fe = edges.FirstChildElement("friction_edge"); fe; fe = fe->NextSiblingElement("friction_edge")) {
      const auto v = xml::numbers(*fe, file, 6);
      c.frictionEdges.push_back(Eigen::Map<const Vec6>(v.data()));
    }
    if (const Element* n = xml::child(*e, "num_friction_edges")) {
      const int declared = xml::integer(*n, file);
      if (declared != static_cast<int>(c.frictionEdges.size()))
        throw xml::errorAt(file, *n, "<num_friction_edges> says " + std::to_string(declared) + " but <friction_edges> holds " +
                                         std::to_string(c.frictionEdges.size()));
    }
    const Element& rot = xml::requireChild(*e, "rotation", file);
    const auto q = xml::numbers(rot, file, 4);
    if (Vec4(q[0], q[1], q[2], q[3]).norm() < 1e-9) throw xml::errorAt(file, rot, "<rotation> is a zero quaternion");
    const Element& nrm = xml::requireChild(*e, "normal", file);
    const Vec3 normal = xml::vec3(nrm, file);
    if (normal.norm() < 1e-12) throw xml::errorAt(file, nrm, "<normal> is the zero vector");
    finishContact(c, xml::vec3(xml::requireChild(*e, "location", file), file), q.data(),
                  xml::vec3(xml::requireChild(*e, "translation", file), file), normal);
    c.mu = xml::requireChildNumber(*e, "sCof", file);
    if (c.mu < 0) throw xml::errorAt(file, xml::requireChild(*e, "sCof", file), "<sCof> must not be negative");
    out.push_back(std::move(c));
  }
  return out;
}

// Whitespace-separated tokens with their line numbers, for the .vgr reader.
class TokenStream {
 public:
  TokenStream(const std::string& text, const std::string& file) : file_(file) {
    std::istringstream in(text);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (n == 1) {  // the robot name: the whole first line
        robotName_ = std::string(trim(line));
        continue;
      }
      for (auto tok : splitWhitespace(line)) tokens_.push_back({std::string(tok), n});
    }
    lastLine_ = n;
  }
  double number(const char* what) {
    const auto& t = next(what);
    const auto v = parseDouble(t.text);
    if (!v) throw Error(std::string(what) + " is not a finite number: '" + t.text + "'", file_, t.line);
    if (!(std::abs(*v) <= 1e15))
      throw Error(std::string(what) + " is out of range: '" + t.text + "' (limit ±1e+15)", file_, t.line);
    return *v;
  }
  int integer(const char* what) {
    const auto& t = next(what);
    const auto v = parseInt(t.text);
    if (!v) throw Error(std::string(what) + " is not an integer: '" + t.text + "'", file_, t.line);
    return *v;
  }
  Vec3 vec3(const char* what) {
    const double x = number(what), y = number(what), z = number(what);
    return {x, y, z};
  }
  int line() const { return pos_ < tokens_.size() ? tokens_[pos_].line : lastLine_; }
  bool atEnd() const { return pos_ >= tokens_.size(); }
  const std::string& robotName() const { return robotName_; }

 private:
  struct Token {
    std::string text;
    int line;
  };
  const Token& next(const char* what) {
    if (pos_ >= tokens_.size()) throw Error(std::string("file ends where ") + what + " was expected", file_, lastLine_);
    return tokens_[pos_++];
  }
  std::string file_, robotName_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
  int lastLine_ = 0;
};

std::vector<VirtualContact> readVgr(const std::string& file, const std::string& text) {
  TokenStream ts(text, file);
  const int line = ts.line();
  const int count = ts.integer("the number of contacts");
  if (count < 0) throw Error("negative number of contacts", file, line);
  std::vector<VirtualContact> out;
  for (int i = 0; i < count; ++i) {
    VirtualContact c;
    c.chain = ts.integer("the finger number");
    c.link = ts.integer("the link number");
    const int edgeLine = ts.line();
    const int edges = ts.integer("the number of friction edges");
    if (edges < 0 || edges > 10000) throw Error("bad number of friction edges " + std::to_string(edges), file, edgeLine);
    for (int k = 0; k < edges; ++k) {
      Vec6 f;
      for (int j = 0; j < 6; ++j) f[j] = ts.number("a friction edge value");
      c.frictionEdges.push_back(f);
    }
    const Vec3 location = ts.vec3("the location");
    const int qLine = ts.line();
    double q[4];
    for (double& v : q) v = ts.number("the quaternion");
    if (Vec4(q[0], q[1], q[2], q[3]).norm() < 1e-9) throw Error("zero quaternion", file, qLine);
    const Vec3 translation = ts.vec3("the translation");
    const int nLine = ts.line();
    const Vec3 normal = ts.vec3("the normal");
    if (normal.norm() < 1e-12) throw Error("the normal is the zero vector", file, nLine);
    finishContact(c, location, q, translation, normal);
    const int muLine = ts.line();
    c.mu = ts.number("the friction coefficient");
    if (c.mu < 0) throw Error("negative friction coefficient", file, muLine);
    out.push_back(std::move(c));
  }
  if (!ts.atEnd()) throw Error("unexpected text after " + std::to_string(count) + " contact(s)", file, ts.line());
  return out;
}

}  // namespace

std::vector<VirtualContact> loadVirtualContacts(const std::string& path) {
  const std::string file = absolutePath(path);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("cannot open file", file);
  noteLoadedFile(file);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  // XML starts with '<'; anything else is the legacy .vgr text.
  const std::string_view head = trim(text);
  if (!head.empty() && head.front() == '<') return readXml(file);
  return readVgr(file, text);
}

}  // namespace sg
