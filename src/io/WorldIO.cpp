// World XML reader and writer (src/io/FORMATS.md §World), dofValues text, and file-kind detection.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "core/Parse.h"
#include "io/AtomicFile.h"
#include "io/BodyXml.h"
#include "io/LinkPropertiesXml.h"
#include "io/MeshIO.h"
#include "io/ModelIO.h"
#include "io/TransformXml.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

using xml::Element;

// Indices (chain, joint) of the joints a DOF drives, in chain and joint order: the order of the
// break-away entries in a dofValues line.
std::vector<std::pair<std::size_t, std::size_t>> jointsOfDof(const Robot& robot, int dof) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t c = 0; c < robot.chains.size(); ++c)
    for (std::size_t j = 0; j < robot.chains[c].joints.size(); ++j)
      if (robot.chains[c].joints[j].expr.dof == dof) out.emplace_back(c, j);
  return out;
}

struct JointBreakAwayEntry {
  std::size_t chain, joint;
  bool inBreakAway;
  double dofValue;
};

// The GraspIt! layout: per DOF its value, and for a break-away DOF per joint "0" or "1 v".
bool parseStructuredDofValues(const Robot& robot, const std::vector<double>& v, std::vector<double>& values,
                              std::vector<JointBreakAwayEntry>& states) {
  std::size_t pos = 0;
  values.clear();
  states.clear();
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) {
    if (pos >= v.size()) return false;
    values.push_back(v[pos++]);
    if (robot.dofs[k].type != DofType::BreakAway) continue;
    for (const auto& [c, j] : jointsOfDof(robot, static_cast<int>(k))) {
      if (pos >= v.size()) return false;
      const double flag = v[pos++];
      if (flag == 0) {
        states.push_back({c, j, false, 0.0});
      } else if (flag == 1) {
        if (pos >= v.size()) return false;
        states.push_back({c, j, true, v[pos++]});
      } else {
        return false;
      }
    }
  }
  return pos == v.size();
}

std::string structuredLayout(const Robot& robot) {
  std::string s;
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) {
    if (!s.empty()) s += ' ';
    s += "q" + std::to_string(k);
    if (robot.dofs[k].type == DofType::BreakAway)
      for (std::size_t i = 0; i < jointsOfDof(robot, static_cast<int>(k)).size(); ++i) s += " (0|1 v)";
  }
  return s;
}

struct WorldReader {
  std::string file, dir;
  PathResolver resolver;
  LoadOptions options;
  // Files already read, by path: worlds often hold several copies of one object or robot.
  std::map<std::pair<std::string, BodyKind>, Body> bodies;
  std::map<std::string, std::pair<Robot, RobotFileHistory>> robots;
  FileHistory history;  // names as this world (and its robots) wrote them
};

Body readWorldBody(const Element& e, BodyKind kind, WorldReader& r, const MaterialTable& materials, Transform& X_WB,
                   std::string& asWritten) {
  Body body;
  asWritten.clear();
  if (const Element* f = xml::child(e, "filename")) {
    const std::string name = xml::text(*f);
    const std::string path = r.resolver.require(name, r.dir, r.file, xml::lineOf(*f));
    auto cached = r.bodies.find({path, kind});
    if (cached == r.bodies.end()) {
      try {
        cached = r.bodies.emplace(std::pair{path, kind}, xmlio::loadBodyFile(path, kind, materials, r.resolver)).first;
      } catch (const Error& err) {
        throw err.withContext("referenced from " + r.file + ":" + std::to_string(xml::lineOf(*f)));
      }
    }
    body = cached->second;
    asWritten = name;  // a bare mesh (no body XML) is saved inline under this name (worldBodyXml)
  } else if (const Element* b = xml::child(e, "body")) {
    body = xmlio::readBodyElement(*b, r.file, r.dir, kind, materials, r.resolver);
  } else {
    throw xml::errorAt(r.file, e, xml::tagOf(e) + " needs a <filename> or an inline <body>");
  }
  X_WB = xml::childTransform(e, r.file);
  return body;
}

Robot readWorldRobot(const Element& e, WorldReader& r, const MaterialTable& materials, RobotState& state) {
  const Element& f = xml::requireChild(e, "filename", r.file);
  const std::string name = xml::text(f);
  const std::string path = r.resolver.require(name, r.dir, r.file, xml::lineOf(f));
  auto cached = r.robots.find(path);
  if (cached == r.robots.end()) {
    try {
      RobotFileHistory history;
      Robot loaded = loadRobot(path, materials, r.options, &history);
      cached = r.robots.emplace(path, std::pair{std::move(loaded), std::move(history)}).first;
    } catch (const Error& err) {
      throw err.withContext("referenced from " + r.file + ":" + std::to_string(xml::lineOf(f)));
    }
  }
  Robot robot = cached->second.first;
  r.history.robotFiles.push_back(name);
  r.history.robots.push_back(cached->second.second);
  xmlio::applyLinkProperties(robot, e, r.file, materials);  // SoftGrasp's edits of link properties
  state = defaultRobotState(robot, xml::childTransform(e, r.file));
  if (const Element* dv = xml::child(e, "dofValues"))
    applyDofValuesString(robot, state, xml::text(*dv), r.file, xml::lineOf(*dv));
  return robot;
}

int indexIn(const Element& parent, const char* tag, int count, const char* what, const std::string& file) {
  const Element& e = xml::requireChild(parent, tag, file);
  const int i = xml::integer(e, file);
  if (i < 0 || i >= count)
    throw xml::errorAt(file, e, xml::tagOf(e) + " " + std::to_string(i) + " does not name one of the " +
                                    std::to_string(count) + " " + what);
  return i;
}

Connection readConnection(const Element& e, const World& world, WorldReader& r) {
  Connection c;
  const int robots = static_cast<int>(world.robots.size());
  c.parentRobot = indexIn(e, "parentRobot", robots, "robots loaded before it", r.file);
  c.parentChain = indexIn(e, "parentChain", static_cast<int>(world.robots[c.parentRobot].chains.size()),
                          "chains of the parent robot", r.file);
  c.childRobot = indexIn(e, "childRobot", robots, "robots loaded before it", r.file);
  if (c.childRobot == c.parentRobot) throw xml::errorAt(r.file, e, "a robot cannot be connected to itself");
  for (const auto& other : world.connections)
    if (other.childRobot == c.childRobot)
      throw xml::errorAt(r.file, e, "robot " + std::to_string(c.childRobot) + " is already connected to a parent");
  std::string mountName;
  // The child must not be an ancestor of the parent: a cycle has no consistent poses (each
  // updateConnections() would move them again).
  for (int at = c.parentRobot, hops = 0; hops <= robots; ++hops) {
    const Connection* up = nullptr;
    for (const auto& other : world.connections)
      if (other.childRobot == at) up = &other;
    if (!up) break;
    at = up->parentRobot;
    if (at == c.childRobot)
      throw xml::errorAt(r.file, e, "connecting robot " + std::to_string(c.childRobot) + " to robot " +
                                        std::to_string(c.parentRobot) + " makes a cycle of connections");
  }
  if (const Element* m = xml::child(e, "mountFilename")) {
    mountName = xml::text(*m);
    const std::string path = r.resolver.require(mountName, r.dir, r.file, xml::lineOf(*m));
    try {
      c.mount = xmlio::loadBodyFile(path, BodyKind::Link, world.materials, r.resolver);
    } catch (const Error& err) {
      throw err.withContext("mount referenced from " + r.file + ":" + std::to_string(xml::lineOf(*m)));
    }
  }
  r.history.mountFiles.push_back(mountName);
  c.offset = xml::childTransform(e, r.file);
  return c;
}

Camera readCamera(const Element& e, const std::string& file) {
  Camera cam;
  cam.position_mm = xml::vec3(xml::requireChild(e, "position", file), file);
  const Element& o = xml::requireChild(e, "orientation", file);
  const auto q = xml::numbers(o, file, 4);  // Inventor order: qx qy qz qw
  const Quat quat(q[3], q[0], q[1], q[2]);
  if (quat.norm() < 1e-9) throw xml::errorAt(file, o, "<orientation> is a zero quaternion");
  cam.orientation = xml::normalizationFixedPoint(quat);  // unchanged when already unit, so saving is stable
  const Element& fd = xml::requireChild(e, "focalDistance", file);
  cam.focalDistance_mm = xml::number(fd, file);
  if (!(cam.focalDistance_mm > 0)) throw xml::errorAt(file, fd, "<focalDistance> must be > 0 mm");
  return cam;
}

std::string signedList(std::initializer_list<double> values) {
  std::string s;
  for (double v : values) {
    if (!s.empty()) s += ' ';
    s += formatSigned(v);
  }
  return s;
}

std::string tagLine(int indent, const char* tag, const std::string& value) {
  return xml::concat({std::string(static_cast<std::size_t>(indent), ' '), "<", tag, ">", xml::escape(value), "</",
                      tag, ">\n"});
}

std::string worldBodyXml(const Body& body, const Transform& X_WB, const std::string& asWritten, const char* tag,
                         const std::string& worldDir) {
  std::string out = xml::concat({"  <", tag, ">\n"});
  if (!body.sourceFile.empty()) {
    out += tagLine(4, "filename", xmlio::fileNameForWriting(body.sourceFile, asWritten, worldDir));
  } else if (!asWritten.empty()) {  // a bare mesh the world named: inline, its geometry named as the world did
    Body named = body;
    named.geometry.file = asWritten;
    out += "    <body>\n";
    out += xmlio::bodyContentXml(named, worldDir, 6);
    out += "    </body>\n";
  } else {
    out += "    <body>\n";
    out += xmlio::bodyContentXml(body, worldDir, 6);
    out += "    </body>\n";
  }
  out += xml::transformXml(X_WB, 4);
  out += xml::concat({"  </", tag, ">\n"});
  return out;
}

// The file a mount is named by: its body XML, or the bare mesh it was loaded from.
std::string mountFile(const Connection& c) {
  const Body& m = *c.mount;
  if (!m.sourceFile.empty()) return m.sourceFile;
  if (!m.geometry.resolvedPath.empty() && !m.geometry.hasScale && !m.geometry.offset) return m.geometry.resolvedPath;
  throw Error("the mount of robot " + std::to_string(c.childRobot) + " has no file to name in the saved world");
}

}  // namespace

std::string dofValuesToString(const Robot& robot, const RobotState& state) {
  std::string s;
  auto add = [&](const std::string& t) {
    if (!s.empty()) s += ' ';
    s += t;
  };
  for (std::size_t k = 0; k < robot.dofs.size(); ++k) {
    add(formatSigned(k < state.dofValues.size() ? state.dofValues[k] : 0.0));
    if (robot.dofs[k].type != DofType::BreakAway) continue;
    for (const auto& [c, j] : jointsOfDof(robot, static_cast<int>(k))) {
      const JointBreakAway ba = breakAwayOf(state, c, j);
      add(ba.active ? "+1" : "+0");
      if (ba.active) add(formatSigned(ba.dofValue));
    }
  }
  return s;
}

void applyDofValuesString(const Robot& robot, RobotState& state, const std::string& text, const std::string& file,
                          int line) {
  const auto numbers = parseDoubleList(text);
  if (!numbers) throw Error("<dofValues> must hold finite numbers: '" + text + "'", file, line);
  for (const double v : *numbers)
    if (!(std::abs(v) <= 1e15))
      throw Error("<dofValues> value out of range: " + formatDouble(v) + " (limit ±1e+15)", file, line);
  std::vector<double> values;
  std::vector<JointBreakAwayEntry> states;
  if (!parseStructuredDofValues(robot, *numbers, values, states)) {
    if (numbers->size() != robot.dofs.size())
      throw Error("<dofValues> has " + std::to_string(numbers->size()) + " number(s); robot " + robot.name +
                      " expects '" + structuredLayout(robot) + "' or one value per DOF (" +
                      std::to_string(robot.dofs.size()) + ")",
                  file, line);
    values = *numbers;  // a plain list, one number per DOF: every joint engaged
    states.clear();
    for (auto& chain : state.breakAway)
      for (auto& j : chain) j = {};
  }
  state.breakAway.resize(robot.chains.size());
  for (std::size_t c = 0; c < robot.chains.size(); ++c) state.breakAway[c].resize(robot.chains[c].joints.size());
  for (const auto& s : states) state.breakAway[s.chain][s.joint] = {s.inBreakAway, s.dofValue};
  setDofValues(robot, state, values);
}

World loadWorld(const std::string& path, const LoadOptions& options, FileHistory* history) {
  WorldReader r{absolutePath(path), "", PathResolver(options), options, {}, {}, {}};
  r.dir = directoryOf(r.file);
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, r.file);
  const Element& root = xml::rootOf(doc, r.file);
  if (std::strcmp(root.Name(), "world") != 0)
    throw xml::errorAt(r.file, root, "root element is " + xml::tagOf(root) + ", expected <world>");

  World world;
  world.sourceFile = r.file;
  for (const Element* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view tag = e->Name();
    if (tag == "obstacle") {
      Transform X_WO;
      std::string asWritten;
      Body body = readWorldBody(*e, BodyKind::Obstacle, r, world.materials, X_WO, asWritten);
      world.addObstacle(std::move(body), X_WO);
      r.history.obstacleFiles.push_back(asWritten);
    } else if (tag == "graspableBody") {
      Transform X_WG;
      std::string asWritten;
      Body body = readWorldBody(*e, BodyKind::Graspable, r, world.materials, X_WG, asWritten);
      world.addGraspable(std::move(body), X_WG);
      r.history.graspableFiles.push_back(asWritten);
    } else if (tag == "robot") {
      RobotState state;
      Robot robot = readWorldRobot(*e, r, world.materials, state);
      world.addRobot(std::move(robot), std::move(state));
    } else if (tag == "connection") {
      world.connections.push_back(readConnection(*e, world, r));
    } else if (tag == "camera") {
      world.camera = readCamera(*e, r.file);
    } else {
      throw xml::errorAt(r.file, *e, "unknown element " + xml::tagOf(*e) +
                                         " in <world> (expected obstacle, graspableBody, robot, connection or camera)");
    }
  }
  world.updateConnections();
  if (history) *history = std::move(r.history);
  return world;
}

std::string worldToXml(const World& world, const std::string& worldDir, const FileHistory* history) {
  const FileHistory none;
  const FileHistory& names = history ? *history : none;
  std::string out = "<?xml version=\"1.0\" ?>\n<world>\n";
  if (!fits(world, world.state)) throw Error("the world's state does not fit its bodies and robots");
  for (std::size_t i = 0; i < world.obstacles.size(); ++i)
    out += worldBodyXml(world.obstacles[i], world.state.X_WO[i],
                        names.bodyFile({BodyHandle::Kind::Obstacle, static_cast<int>(i), {}}), "obstacle", worldDir);
  for (std::size_t i = 0; i < world.graspables.size(); ++i)
    out += worldBodyXml(world.graspables[i], world.state.X_WG[i],
                        names.bodyFile({BodyHandle::Kind::Graspable, static_cast<int>(i), {}}), "graspableBody",
                        worldDir);
  for (std::size_t i = 0; i < world.robots.size(); ++i) {
    const Robot& r = world.robots[i];
    const RobotState& rs = world.state.robots[i];
    if (r.sourceFile.empty()) throw Error("robot '" + r.name + "' has no file to name in the saved world");
    out += "  <robot>\n";
    const std::string& asWritten = names.robotFile(static_cast<int>(i));
    out += tagLine(4, "filename", xmlio::fileNameForWriting(r.sourceFile, asWritten, worldDir));
    out += tagLine(4, "dofValues", dofValuesToString(r, rs));
    out += xml::transformXml(rs.X_WP, 4);
    out += xmlio::linkPropertiesXml(r, 4);
    out += "  </robot>\n";
  }
  for (std::size_t i = 0; i < world.connections.size(); ++i) {
    const Connection& c = world.connections[i];
    out += "  <connection>\n";
    out += tagLine(4, "parentRobot", std::to_string(c.parentRobot));
    out += tagLine(4, "parentChain", std::to_string(c.parentChain));
    out += tagLine(4, "childRobot", std::to_string(c.childRobot));
    if (c.mount) {
      const std::string& asWritten = names.bodyFile({BodyHandle::Kind::Mount, static_cast<int>(i), {}});
      out += tagLine(4, "mountFilename", xmlio::fileNameForWriting(mountFile(c), asWritten, worldDir));
    }
    out += xml::transformXml(c.offset, 4);
    out += "  </connection>\n";
  }
  if (world.camera) {
    const Camera& cam = *world.camera;
    const Quat q = xml::normalizationFixedPoint(cam.orientation);
    out += "  <camera>\n";
    out += tagLine(4, "position", signedList({cam.position_mm.x(), cam.position_mm.y(), cam.position_mm.z()}));
    out += tagLine(4, "orientation", signedList({q.x(), q.y(), q.z(), q.w()}));
    out += tagLine(4, "focalDistance", formatSigned(cam.focalDistance_mm));
    out += "  </camera>\n";
  }
  out += "</world>\n";
  return out;
}

void saveWorld(const World& world, const std::string& path, const FileHistory* history) {
  const std::string file = absolutePath(path);
  const std::string dir = directoryOf(file);
  // Bodies built in memory have no geometry file: write their meshes next to the world as OFF.
  World copy = world;
  std::set<std::string> used;
  auto giveFile = [&](Body& b) {
    if (!b.sourceFile.empty() || !b.geometry.resolvedPath.empty() || !b.geometry.file.empty() || b.geometry.primitive ||
        !b.mesh)
      return;
    std::string base = fileStem(file) + "_" + (b.name.empty() ? std::string("body") : b.name);
    std::string name = base + ".off";
    for (int i = 2; used.count(name) || std::filesystem::exists(dir + "/" + name); ++i)
      name = base + "_" + std::to_string(i) + ".off";
    used.insert(name);
    writeOffMesh(*b.mesh, dir + "/" + name);
    b.geometry = GeometrySource{};
    b.geometry.file = name;
    b.geometry.resolvedPath = dir + "/" + name;
    b.geometry.type = "off";
  };
  for (auto& b : copy.obstacles) giveFile(b);
  for (auto& b : copy.graspables) giveFile(b);
  writeFileAtomically(file, worldToXml(copy, dir, history));
}

InputFileKind detectInputFileKind(const std::string& path) {
  if (meshFormatFromPath(path) != MeshFormat::Unknown) return InputFileKind::Mesh;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return InputFileKind::Unknown;  // a FIFO would block
  tinyxml2::XMLDocument doc;
  if (doc.LoadFile(path.c_str()) != tinyxml2::XML_SUCCESS) return InputFileKind::Unknown;
  const Element* root = doc.RootElement();
  if (!root) return InputFileKind::Unknown;
  if (std::strcmp(root->Name(), "world") == 0) return InputFileKind::World;
  if (std::strcmp(root->Name(), "robot") == 0) return InputFileKind::Robot;
  if (root->FirstChildElement("geometryFile")) return InputFileKind::Body;
  return InputFileKind::Unknown;
}

}  // namespace sg
