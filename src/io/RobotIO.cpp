// Robot XML reader (src/io/FORMATS.md §Robot): palm, DOFs, chains of DH joints (built with fromDh), links,
// collision rules, approach direction, eigengrasps and virtual contacts. The writer is RobotWriter.cpp.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>

#include "core/Parse.h"
#include "io/BodyXml.h"
#include "io/ModelIO.h"
#include "io/NumberChecks.h"
#include "io/TransformXml.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

using xml::Element;

// Everything one robot file read needs to know.
struct RobotReader {
  const std::string& file;    // absolute path of the robot XML
  std::string robotDir;
  std::string linkDir;        // <robotdir>/iv
  const MaterialTable& materials;
  const PathResolver& resolver;
  std::map<std::string, Body> loaded;  // link bodies by path: chains often share link files
  std::vector<std::string> warnings;   // "file:line: problem" for Robot::loadWarnings
  RobotFileHistory history;            // palm and link files as named

  const Body& body(const std::string& path) {
    auto it = loaded.find(path);
    if (it == loaded.end()) it = loaded.emplace(path, xmlio::loadBodyFile(path, BodyKind::Link, materials, resolver)).first;
    return it->second;
  }
};

// Parses a leading decimal number (sign, digits, '.', exponent) of `s`; advances `s` past it.
std::optional<double> takeNumber(std::string_view& s) {
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  if (begin != end && *begin == '+') ++begin;  // from_chars does not take '+'
  if (begin != end && (*begin == '+' || *begin == '-') && begin != s.data()) return std::nullopt;  // "+-" / "++"
  double v = 0;
  const auto [ptr, ec] = std::from_chars(begin, end, v, std::chars_format::general);
  if (ec != std::errc() || !std::isfinite(v)) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
  return v;
}

// DOF expression "d<N>[*<ratio>][(+|-)<offset>]" (blanks ignored). The offset is in file units (degrees
// for revolute joints). GraspIt! ignores "-<offset>" and skips the first character unchecked; here both
// are handled strictly. Returns an explanation when the text is not an expression.
std::optional<DofExpression> parseDofExpression(std::string_view text, int dofCount, std::string& why) {
  std::string compact;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
  std::string_view s = compact;
  if (s.empty() || (s.front() != 'd' && s.front() != 'D')) {
    why = "must start with d<N>";
    return std::nullopt;
  }
  s.remove_prefix(1);
  int index = -1;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
  if (ec != std::errc() || ptr == s.data()) {
    why = "has no DOF index after 'd'";
    return std::nullopt;
  }
  s.remove_prefix(static_cast<std::size_t>(ptr - s.data()));
  if (index < 0 || index >= dofCount) {
    why = "names DOF " + std::to_string(index) + " but the robot has " + std::to_string(dofCount) +
          " DOF(s) (d0..d" + std::to_string(dofCount - 1) + ")";
    return std::nullopt;
  }
  DofExpression e;
  e.dof = index;
  if (!s.empty() && s.front() == '*') {
    s.remove_prefix(1);
    const auto r = takeNumber(s);
    if (!r) {
      why = "has no number after '*'";
      return std::nullopt;
    }
    e.ratio = *r;
  }
  if (!s.empty()) {
    const char sign = s.front();
    if (sign != '+' && sign != '-') {
      why = "has unexpected text '" + std::string(s) + "'";
      return std::nullopt;
    }
    s.remove_prefix(1);
    if (sign == '-' && !s.empty() && (s.front() == '+' || s.front() == '-')) {
      why = "has a malformed offset";
      return std::nullopt;
    }
    const auto o = takeNumber(s);
    if (!o || !s.empty()) {
      why = "has a malformed offset";
      return std::nullopt;
    }
    e.offset = sign == '-' ? -*o : *o;
  }
  if (e.ratio == 0) {
    why = "has ratio 0";
    return std::nullopt;
  }
  return e;
}

DofExpression readDofExpression(const Element& e, int dofCount, const std::string& file) {
  std::string why;
  const std::string t = xml::text(e);
  const auto expr = parseDofExpression(t, dofCount, why);
  if (!expr)
    throw xml::errorAt(file, e, "DOF expression " + xml::tagOf(e) + " '" + t + "' " + why +
                                    " (expected d<N>[*ratio][+offset])");
  return *expr;
}

Dof readDof(const Element& e, const std::string& file, double& defaultValueInFile) {
  Dof d;
  const std::string type = xml::attribute(e, "type").value_or("");
  if (type == "r")
    d.type = DofType::Rigid;
  else if (type == "b")
    d.type = DofType::BreakAway;
  else if (type == "c")
    d.type = DofType::Compliant;
  else
    throw xml::errorAt(file, e, "<dof> type must be r, b or c, found '" + type + "'");
  d.defaultVelocity = xml::requireChildNumber(e, "defaultVelocity", file);
  d.maxEffort = xml::requireChildNumber(e, "maxEffort", file);
  d.kp = xml::requireChildNumber(e, "Kp", file);
  d.kd = xml::requireChildNumber(e, "Kd", file);
  d.draggerScale = xml::requireChildNumber(e, "draggerScale", file);
  if (const Element* dv = xml::child(e, "defaultValue"))
    defaultValueInFile = xml::boundedNumber(*dv, file, std::max(xml::kMaxAngle_deg, xml::kMaxLength_mm), "");
  else
    defaultValueInFile = 0.0;
  if (d.type == DofType::BreakAway) d.breakAwayTorque = xml::childNumber(e, "breakAwayTorque", file).value_or(0.0);
  return d;
}

// A GraspIt! DH joint: the variable parameter (theta for revolute, d for prismatic) is the DOF expression,
// so its constant part is 0 and the expression's offset carries it.
Joint readJoint(const Element& e, int dofCount, const std::string& file) {
  const std::string type = xml::attribute(e, "type").value_or("");
  if (type != "Revolute" && type != "Prismatic")
    throw xml::errorAt(file, e, "<joint> type must be Revolute or Prismatic, found '" + type + "'");
  const bool revolute = type == "Revolute";
  const Element& theta = xml::requireChild(e, "theta", file);
  const Element& d = xml::requireChild(e, "d", file);
  DhParameters dh;
  DofExpression expr;
  // Absurd magnitudes become inf/NaN after the unit conversion and then stall the motion code (NumberChecks.h).
  const double valueLimit = revolute ? xml::kMaxAngle_deg : xml::kMaxLength_mm;
  const char* valueUnit = revolute ? "deg" : "mm";
  if (revolute) {
    expr = readDofExpression(theta, dofCount, file);
    xml::requireMagnitude(file, theta, expr.offset, xml::kMaxAngle_deg, "offset", "deg");
    expr.offset = degToRad(expr.offset);
    dh.d_mm = xml::boundedNumber(d, file, xml::kMaxLength_mm, "mm");
  } else {
    dh.theta_rad = degToRad(xml::boundedNumber(theta, file, xml::kMaxAngle_deg, "deg"));
    expr = readDofExpression(d, dofCount, file);
    xml::requireMagnitude(file, d, expr.offset, xml::kMaxLength_mm, "offset", "mm");
  }
  xml::requireMagnitude(file, revolute ? theta : d, expr.ratio, 1e6, "ratio", "");
  if (std::abs(expr.ratio) < 1e-6)  // the DOF range is the joint range divided by the ratio
    throw xml::errorAt(file, revolute ? theta : d,
                       xml::tagOf(revolute ? theta : d) + " ratio is too small: " + formatDouble(expr.ratio) +
                           " (at least 1e-06 in magnitude)");
  dh.a_mm = xml::requireChildBounded(e, "a", file, xml::kMaxLength_mm, "mm");
  dh.alpha_rad = degToRad(xml::requireChildBounded(e, "alpha", file, xml::kMaxAngle_deg, "deg"));
  const double lo = xml::requireChildBounded(e, "minValue", file, valueLimit, valueUnit);
  const Element& maxEl = xml::requireChild(e, "maxValue", file);
  const double hi = xml::boundedNumber(maxEl, file, valueLimit, valueUnit);
  if (lo > hi)
    throw xml::errorAt(file, maxEl, "<joint> minValue " + formatDouble(lo) + " is above maxValue " + formatDouble(hi));
  Joint j = fromDh(dh, revolute ? JointType::Revolute : JointType::Prismatic, expr, revolute ? degToRad(lo) : lo,
                   revolute ? degToRad(hi) : hi);
  j.viscousFriction = xml::childNumber(e, "viscousFriction", file).value_or(0.0);
  j.coulombFriction = xml::childNumber(e, "CoulombFriction", file).value_or(0.0);
  if (const Element* k = xml::child(e, "springStiffness")) {
    j.springStiffness = xml::number(*k, file);
    if (j.springStiffness < 0) throw xml::errorAt(file, *k, "<springStiffness> must not be negative");
  }
  j.restValue = xml::childNumber(e, "restValue", file).value_or(0.0);
  return j;
}

// "base" is the palm (-1); otherwise a chain index.
int readChainIndex(const Element& e, const char* attr, const std::string& file) {
  const auto a = xml::attribute(e, attr);
  if (!a) throw xml::errorAt(file, e, std::string("missing attribute ") + attr + " on " + xml::tagOf(e));
  if (trim(*a) == "base") return -1;
  const auto v = parseInt(*a);
  if (!v) throw xml::errorAt(file, e, std::string("attribute ") + attr + " must be 'base' or a chain index, found '" + *a + "'");
  return *v;
}

int requireIntAttribute(const Element& e, const char* attr, const std::string& file) {
  const auto v = xml::attributeInteger(e, attr, file);
  if (!v) throw xml::errorAt(file, e, std::string("missing attribute ") + attr + " on " + xml::tagOf(e));
  return *v;
}

struct PendingPair {  // a collision pair to check once every chain is known
  BodyRef a, b;
  int line;
};

Chain readChain(const Element& e, int chainIndex, int dofCount, RobotReader& r,
                std::vector<PendingPair>& pairs) {
  Chain chain;
  chain.base = xml::childTransform(e, r.file);
  for (const Element* j = e.FirstChildElement("joint"); j; j = j->NextSiblingElement("joint"))
    chain.joints.push_back(readJoint(*j, dofCount, r.file));
  if (chain.joints.empty()) throw xml::errorAt(r.file, e, "<chain> has no <joint>");
  int consumed = 0;
  for (const Element* l = e.FirstChildElement("link"); l; l = l->NextSiblingElement("link")) {
    Link link;
    const std::string jt = xml::attribute(*l, "dynamicJointType").value_or("Revolute");
    int uses = 0;
    if (jt == "Revolute") {
      link.jointType = LinkJointType::Revolute, uses = 1;
    } else if (jt == "Prismatic") {
      link.jointType = LinkJointType::Prismatic, uses = 1;
    } else if (jt == "Universal") {
      link.jointType = LinkJointType::Universal, uses = 2;
    } else if (jt == "Ball") {
      link.jointType = LinkJointType::Ball, uses = 3;
    } else if (jt == "Fixed") {
      throw xml::errorAt(r.file, *l, "dynamicJointType Fixed is not supported (GraspIt! rejects it too)");
    } else {
      throw xml::errorAt(r.file, *l, "unknown dynamicJointType '" + jt + "' (expected Revolute, Prismatic, Universal or Ball)");
    }
    consumed += uses;
    if (consumed > static_cast<int>(chain.joints.size()))
      throw xml::errorAt(r.file, *l, "<link> needs joint " + std::to_string(consumed - 1) + " but the chain has " +
                                         std::to_string(chain.joints.size()) + " joint(s)");
    link.lastJoint = consumed - 1;
    const std::string linkName = xml::text(*l);
    r.history.linkFiles.back().push_back(linkName);
    const std::string path = r.resolver.require(linkName, r.linkDir, r.file, xml::lineOf(*l));
    try {
      link.body = r.body(path);
    } catch (const Error& err) {
      throw err.withContext("link of robot " + r.file + ":" + std::to_string(xml::lineOf(*l)));
    }
    const int linkIndex = static_cast<int>(chain.links.size());
    if (const auto rule = xml::attribute(*l, "collisionRule")) {
      if (*rule == "Off") {
        link.collisionOff = true;
        link.body.collisionEnabled = false;
      } else if (*rule == "OverlappingPair") {
        // No targetChain means this link's own chain; "base" means the palm.
        const int tc = xml::attribute(*l, "targetChain") ? readChainIndex(*l, "targetChain", r.file) : chainIndex;
        if (tc < 0) {
          pairs.push_back({{chainIndex, linkIndex}, {-1, 0}, xml::lineOf(*l)});
        } else if (const auto tl = xml::attributeInteger(*l, "targetLink", r.file)) {
          pairs.push_back({{chainIndex, linkIndex}, {tc, *tl}, xml::lineOf(*l)});
        } else {
          r.warnings.push_back(r.file + ":" + std::to_string(xml::lineOf(*l)) +
                               ": collisionRule OverlappingPair without targetLink names no pair; ignored");
        }
      } else {
        throw xml::errorAt(r.file, *l, "unknown collisionRule '" + *rule + "' (expected Off or OverlappingPair)");
      }
    }
    chain.links.push_back(std::move(link));
  }
  if (chain.links.empty()) throw xml::errorAt(r.file, e, "<chain> has no <link>");
  return chain;
}

// approachTran: origin at the reference location, z along the direction (src/model/README.md §Robot).
Transform readApproach(const Element& e, const std::string& file) {
  const Vec3 ref = xml::vec3(xml::requireChild(e, "referenceLocation", file), file);
  const Element& dirEl = xml::requireChild(e, "direction", file);
  const Vec3 dir = xml::vec3(dirEl, file);
  if (dir.norm() < 1e-12) throw xml::errorAt(file, dirEl, "<direction> must not be the zero vector");
  const Vec3 z = dir.normalized();
  Vec3 x = std::abs(z.dot(Vec3::UnitX())) > std::cos(degToRad(25.0)) ? Vec3::UnitY() : Vec3::UnitX();
  const Vec3 y = z.cross(x).normalized();
  x = y.cross(z).normalized();
  Mat3 R;
  R.col(0) = x;
  R.col(1) = y;
  R.col(2) = z;
  return Transform::fromMatrix(R, ref);
}

void checkBodyRef(const Robot& robot, const BodyRef& ref, const std::string& file, int line) {
  if (ref.chain < 0) return;
  if (ref.chain >= static_cast<int>(robot.chains.size()) || ref.link < 0 ||
      ref.link >= static_cast<int>(robot.chains[ref.chain].links.size()))
    throw Error("collision rule names chain " + std::to_string(ref.chain) + " link " + std::to_string(ref.link) +
                    ", which the robot does not have",
                file, line);
}

}  // namespace

// ~125 lines kept whole: <robot>'s elements read in file order, one short block each (FORMATS.md §Robot).
Robot loadRobot(const std::string& path, const MaterialTable& materials, const LoadOptions& options,
                RobotFileHistory* history) {
  if (isUrdfPath(path)) return loadUrdfRobot(path, materials, options, history);
  const PathResolver resolver(options);
  const std::string file = absolutePath(path);
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, file);
  const Element& root = xml::rootOf(doc, file);
  if (std::strcmp(root.Name(), "robot") != 0)
    throw xml::errorAt(file, root, "root element is " + xml::tagOf(root) + ", expected <robot>");

  RobotReader r{file, directoryOf(file), "", materials, resolver, {}, {}, {}};
  r.linkDir = r.robotDir + "/iv";

  Robot robot;
  robot.name = fileStem(file);
  robot.sourceFile = file;
  robot.type = xml::attribute(root, "type").value_or(robot.type);
  robot.dbName = xml::attribute(root, "DBName").value_or(robot.type);

  const Element& palmEl = xml::requireChild(root, "palm", file);
  const std::string palmName = xml::text(palmEl);
  const std::string palmPath = resolver.require(palmName, r.linkDir, file, xml::lineOf(palmEl));
  try {
    robot.palm = r.body(palmPath);
  } catch (const Error& err) {
    throw err.withContext("palm of robot " + file + ":" + std::to_string(xml::lineOf(palmEl)));
  }
  r.history.palmFile = palmName;

  std::vector<double> defaultsInFile;
  for (const Element* d = root.FirstChildElement("dof"); d; d = d->NextSiblingElement("dof")) {
    double v = 0;
    robot.dofs.push_back(readDof(*d, file, v));
    defaultsInFile.push_back(v);
  }
  if (robot.dofs.empty()) throw xml::errorAt(file, root, "<robot> has no <dof>");
  const int dofCount = static_cast<int>(robot.dofs.size());

  std::vector<PendingPair> pairs;
  for (const Element* c = root.FirstChildElement("chain"); c; c = c->NextSiblingElement("chain")) {
    r.history.linkFiles.emplace_back();
    robot.chains.push_back(readChain(*c, static_cast<int>(robot.chains.size()), dofCount, r, pairs));
  }
  if (robot.chains.empty()) throw xml::errorAt(file, root, "<robot> has no <chain>");

  for (const Element* dc = root.FirstChildElement("disableCollision"); dc;
       dc = dc->NextSiblingElement("disableCollision")) {
    const BodyRef a{requireIntAttribute(*dc, "body1_chain", file), requireIntAttribute(*dc, "body1_link", file)};
    const BodyRef b{requireIntAttribute(*dc, "body2_chain", file), requireIntAttribute(*dc, "body2_link", file)};
    pairs.push_back({a.chain < 0 ? BodyRef{-1, 0} : a, b.chain < 0 ? BodyRef{-1, 0} : b, xml::lineOf(*dc)});
  }
  robot.loadWarnings = r.warnings;
  for (const auto& p : pairs) {
    checkBodyRef(robot, p.a, file, p.line);
    checkBodyRef(robot, p.b, file, p.line);
    robot.disabledPairs.emplace_back(p.a, p.b);
  }

  if (const Element* a = xml::child(root, "approachDirection")) robot.approach = readApproach(*a, file);

  computeDofRanges(robot);
  // defaultValue is in degrees for revolute DOFs; prismatic DOFs keep mm (GraspIt! converts them too).
  std::vector<double> defaults(robot.dofs.size());
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) {
    defaults[k] = robot.dofs[k].prismatic ? defaultsInFile[k] : degToRad(defaultsInFile[k]);
    robot.dofs[k].defaultValue = defaults[k];
  }
  defaults = clampToRanges(robot, defaults);
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) robot.dofs[k].defaultValue = defaults[k];

  // A named eigengrasp or virtual-contact file that does not exist is not fatal: GraspIt! falls back to one
  // eigengrasp per DOF and to no virtual contacts (FORMATS.md §Robot), and shipped hands rely on that.
  // A file that exists but is wrong is still an error.
  const auto optionalFile = [&](const Element& el, const std::string& what,
                                const std::string& fallback) -> std::optional<std::string> {
    auto found = resolver.resolve(xml::text(el), r.robotDir);
    if (!found)
      robot.loadWarnings.push_back(file + ":" + std::to_string(xml::lineOf(el)) + ": " + what + " file '" +
                                   xml::text(el) + "' not found; " + fallback);
    return found;
  };
  const Element* eg = xml::child(root, "eigenGrasps");
  const std::optional<std::string> egFound =
      eg ? optionalFile(*eg, "eigengrasp", "using one eigengrasp per DOF") : std::nullopt;
  if (egFound) {
    const std::string& egPath = *egFound;
    try {
      robot.eigengrasps = loadEigenGrasps(egPath, dofCount);
    } catch (const Error& err) {
      throw err.withContext("eigengrasps of robot " + file + ":" + std::to_string(xml::lineOf(*eg)));
    }
    if (robot.eigengrasps.hasOrigin) {
      const auto o = clampToRanges(robot, std::vector<double>(robot.eigengrasps.origin.data(),
                                                              robot.eigengrasps.origin.data() + dofCount));
      robot.eigengrasps.origin = Eigen::Map<const VecX>(o.data(), dofCount);
    }
  } else {
    robot.eigengrasps = identityEigenGrasps(robot);
  }

  const Element* vc = xml::child(root, "virtualContacts");
  if (const std::optional<std::string> vcFound = vc ? optionalFile(*vc, "virtual-contact", "no virtual contacts loaded") : std::nullopt) {
    const std::string& vcPath = *vcFound;
    try {
      robot.virtualContacts = loadVirtualContacts(vcPath);
    } catch (const Error& err) {
      throw err.withContext("virtual contacts of robot " + file + ":" + std::to_string(xml::lineOf(*vc)));
    }
    for (std::size_t i = 0; i < robot.virtualContacts.size(); ++i) {
      const auto& c = robot.virtualContacts[i];
      const bool ok = c.chain == -1 ? true
                                    : c.chain >= 0 && c.chain < static_cast<int>(robot.chains.size()) && c.link >= 0 &&
                                          c.link < static_cast<int>(robot.chains[c.chain].links.size());
      if (!ok)
        throw Error("virtual contact " + std::to_string(i) + " is on chain " + std::to_string(c.chain) + " link " +
                        std::to_string(c.link) + ", which robot " + robot.name + " does not have",
                    vcPath, 0, "referenced from " + file + ":" + std::to_string(xml::lineOf(*vc)));
    }
  }

  checkChainTree(robot);  // a robot's state (RobotState) is computed by whoever places it
  if (history) *history = std::move(r.history);
  return robot;
}

}  // namespace sg
