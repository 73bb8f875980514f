// URDF robots (FORMATS.md §URDF): urdfdom parses the file; this turns its tree into a SoftGrasp Robot — chains of
// general joints, mimic joints as coupled DOFs, metres/radians converted to mm/rad and checked finite, collision
// and visual geometry, materials and colours — and applies the SoftGrasp sidecar (UrdfSidecar.h).
#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <map>
#include <mutex>
#include <numbers>
#include <set>

#include "core/Parse.h"
#include "io/BodyXml.h"
#include "io/ModelIO.h"
#include "io/UrdfDofNames.h"
#include "io/UrdfGeometry.h"
#include "io/UrdfPaths.h"
#include "io/UrdfSidecar.h"
#include "io/XmlHelpers.h"
#include "model/EigenGraspMap.h"
#include "model/Kinematics.h"

namespace sg {

namespace {

constexpr double kUrdfMetre_mm = 1000.0;
constexpr double kDefaultDraggerScale = 20;

// urdfdom reports through console_bridge: collect its errors and warnings instead of printing them.
// console_bridge's handler is global, so parses are serialised.
class CollectingHandler : public console_bridge::OutputHandler {
 public:
  std::vector<std::string> errors, warnings;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors.push_back(text);
    else if (level == console_bridge::CONSOLE_BRIDGE_LOG_WARN)
      warnings.push_back(text);
  }
};

urdf::ModelInterfaceSharedPtr parseWithUrdfdom(const std::string& file, const std::string& text,
                                               std::vector<std::string>& warnings) {
  static std::mutex mutex;
  const std::lock_guard lock(mutex);
  CollectingHandler handler;
  console_bridge::OutputHandler* previous = console_bridge::getOutputHandler();
  const console_bridge::LogLevel previousLevel = console_bridge::getLogLevel();
  console_bridge::useOutputHandler(&handler);
  console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_WARN);
  urdf::ModelInterfaceSharedPtr model;
  try {
    model = urdf::parseURDF(text);
  } catch (const std::exception& e) {
    handler.errors.push_back(e.what());
  }
  console_bridge::useOutputHandler(previous);
  console_bridge::setLogLevel(previousLevel);
  for (const auto& w : handler.warnings) warnings.push_back(file + ": urdfdom: " + w);
  if (!model) {
    std::string why;
    for (const auto& e : handler.errors) why += (why.empty() ? "" : "; ") + e;
    throw Error("not a valid URDF: " + (why.empty() ? std::string("urdfdom could not parse it") : why), file);
  }
  return model;
}

// Where joints and links are in the file (urdfdom keeps neither the order nor the lines).
struct Layout {
  std::vector<std::string> jointOrder;
  std::map<std::string, int> jointLine, linkLine;
};

Layout layoutOf(const std::string& file) {
  tinyxml2::XMLDocument doc;
  xml::loadFile(doc, file);
  const xml::Element& root = xml::rootOf(doc, file);
  Layout out;
  for (const xml::Element* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
    const auto name = xml::attribute(*e, "name");
    if (!name) continue;
    if (std::strcmp(e->Name(), "joint") == 0) {
      out.jointOrder.push_back(*name);
      out.jointLine.emplace(*name, xml::lineOf(*e));
    } else if (std::strcmp(e->Name(), "link") == 0) {
      out.linkLine.emplace(*name, xml::lineOf(*e));
    }
  }
  return out;
}

struct UrdfReader {
  std::string file;
  const MaterialTable& materials;
  const LoadOptions& options;
  Layout layout;
  urdf::ModelInterfaceSharedPtr model;
  urdfio::Sidecar sidecar;
  std::vector<std::string> warnings;

  int jointLine(const std::string& name) const {
    const auto it = layout.jointLine.find(name);
    return it == layout.jointLine.end() ? 0 : it->second;
  }
  int linkLine(const std::string& name) const {
    const auto it = layout.linkLine.find(name);
    return it == layout.linkLine.end() ? 0 : it->second;
  }
  [[noreturn]] void failJoint(const std::string& joint, const std::string& problem) const {
    throw Error("joint '" + joint + "': " + problem, file, jointLine(joint));
  }
  [[noreturn]] void failLink(const std::string& link, const std::string& problem) const {
    throw Error("link '" + link + "': " + problem, file, linkLine(link));
  }
};

double finiteOr(const UrdfReader& r, double v, const std::string& joint, const std::string& what) {
  if (!std::isfinite(v)) r.failJoint(joint, what + " is not finite");
  return v;
}

// A URDF pose (metres, quaternion from rpy) as a Transform in mm; `fail` names what it belongs to.
template <class Fail>
Transform toTransform(const urdf::Pose& pose, const Fail& fail) {
  const Vec3 t = kUrdfMetre_mm * Vec3(pose.position.x, pose.position.y, pose.position.z);
  const Quat q(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  if (!t.allFinite()) fail("origin xyz is not finite in mm");
  if (!q.coeffs().allFinite() || !(q.norm() > 0.5)) fail("origin rpy is not a finite rotation");
  return {q.normalized(), t};
}

// Appends one <collision> or <visual> element's geometry, in the link frame (mm).
void appendGeometry(const UrdfReader& r, const std::string& link, const urdf::Pose& origin,
                    const urdf::GeometrySharedPtr& geometry, TriangleMesh& out) {
  const auto fail = [&](const std::string& p) { r.failLink(link, p); };
  if (!geometry) return;
  const Transform X_LG = toTransform(origin, fail);
  TriangleMesh mesh;
  Vec3 scale = Vec3::Ones();
  if (geometry->type == urdf::Geometry::MESH) {
    const auto& m = static_cast<const urdf::Mesh&>(*geometry);
    scale = Vec3(m.scale.x, m.scale.y, m.scale.z);
    if (!scale.allFinite() || !(scale.minCoeff() > 0)) fail("mesh scale must be finite and > 0");
    std::string path;
    try {
      path = urdfio::resolveUri(m.filename, r.file, "mesh of link '" + link + "'", r.options);
    } catch (const Error& e) {
      throw Error(e.message(), r.file, r.linkLine(link));
    }
    try {
      mesh = urdfio::readMeshFile(path);
    } catch (const Error& e) {
      throw e.withContext("mesh of link '" + link + "' in " + r.file);
    }
    scale *= kUrdfMetre_mm;  // URDF meshes are in metres
  } else {
    mesh = urdfio::primitiveMesh(*geometry);
    if (!mesh.bounds.min.allFinite() || !mesh.bounds.max.allFinite()) fail("primitive size is not finite in mm");
  }
  mesh.transform(X_LG.rotationMatrix(), X_LG.translation(), scale);
  if (!mesh.bounds.min.allFinite() || !mesh.bounds.max.allFinite()) fail("geometry is not finite in mm");
  out.append(mesh);
}

// The link as a body: collision geometry for contacts (the visual one when it has none, with a warning), the
// visual geometry and colour for drawing, the inertial as mass properties, and the sidecar's material.
Body linkBody(UrdfReader& r, const urdf::Link& link) {
  Body body;
  body.kind = BodyKind::Link;
  body.name = link.name;
  body.geometry.file = r.file;
  body.geometry.resolvedPath = r.file;
  body.geometry.type = "urdf";

  TriangleMesh collision, visual;
  for (const auto& c : link.collision_array)
    if (c) appendGeometry(r, link.name, c->origin, c->geometry, collision);
  if (link.collision_array.empty() && link.collision) appendGeometry(r, link.name, link.collision->origin, link.collision->geometry, collision);
  for (const auto& v : link.visual_array)
    if (v) appendGeometry(r, link.name, v->origin, v->geometry, visual);
  if (link.visual_array.empty() && link.visual) appendGeometry(r, link.name, link.visual->origin, link.visual->geometry, visual);
  collision.finalize();
  visual.finalize();
  if (collision.empty() && !visual.empty()) {
    r.warnings.push_back(r.file + ":" + std::to_string(r.linkLine(link.name)) + ": link '" + link.name +
                         "' has no <collision>; its <visual> geometry is used for contacts");
    collision = visual;
  }
  if (!visual.empty()) body.visualMesh = std::make_shared<const TriangleMesh>(std::move(visual));
  for (const auto& v : link.visual_array)
    if (v && v->material) {
      const auto& c = v->material->color;
      const Vec4 rgba(c.r, c.g, c.b, c.a);
      if (rgba.allFinite()) body.colour = rgba.cwiseMax(0.0).cwiseMin(1.0);
      break;
    }

  if (const auto it = r.sidecar.links.find(link.name); it != r.sidecar.links.end()) {
    const urdfio::SidecarLink& s = it->second;
    if (s.material) {
      if (!r.materials.contains(*s.material)) {
        std::string known;
        for (const auto& n : r.materials.names()) known += (known.empty() ? "" : ", ") + n;
        throw Error("link '" + link.name + "': unknown material '" + *s.material + "' (known: " + known + ")",
                    r.sidecar.file, s.line);
      }
      body.material = *s.material;
    }
    body.youngs_Pa = s.youngs_Pa;
    body.collisionEnabled = !s.collisionOff;
  }

  if (const auto& in = link.inertial) {
    const auto fail = [&](const std::string& p) { r.failLink(link.name, "inertial " + p); };
    if (!std::isfinite(in->mass) || !(in->mass > 0)) fail("mass must be finite and > 0 kg");
    const Transform X_LI = toTransform(in->origin, fail);
    Mat3 I;  // kg·m² about the CoG in the inertial frame
    I << in->ixx, in->ixy, in->ixz, in->ixy, in->iyy, in->iyz, in->ixz, in->iyz, in->izz;
    const Mat3 R = X_LI.rotationMatrix();
    body.mass_g = in->mass * 1000.0;
    body.cog_mm = X_LI.translation();
    body.inertiaPerMass_mm2 = R * (I / in->mass) * R.transpose() * (kUrdfMetre_mm * kUrdfMetre_mm);
    if (!body.inertiaPerMass_mm2.allFinite() || !std::isfinite(body.mass_g)) fail("is not finite in g and mm");
    body.cogFromFile = body.inertiaFromFile = true;
  }
  if (!collision.empty()) {
    body.mesh = std::make_shared<const TriangleMesh>(std::move(collision));
    // A link whose collision geometry is one box, cylinder or sphere is that exact primitive (contacts, curvature
    // and mass properties exact; src/geometry/README.md §Analytic shapes); `mesh` is its tessellation.
    std::vector<urdf::CollisionSharedPtr> collisions = link.collision_array;
    if (collisions.empty() && link.collision) collisions.push_back(link.collision);
    if (collisions.size() == 1 && collisions[0]->geometry && collisions[0]->geometry->type != urdf::Geometry::MESH) {
      const auto fail = [&](const std::string& p) { r.failLink(link.name, p); };
      body.primitive = Primitive{urdfio::primitiveShape(*collisions[0]->geometry), toTransform(collisions[0]->origin, fail)};
      const std::string problem = shapeProblem(body.primitive->shape);
      if (!problem.empty()) fail("collision " + problem);
    }
    xmlio::completeMassProperties(body);
  } else {
    // A frame-only link: nothing to touch or draw.
    body.mesh = std::make_shared<const TriangleMesh>();
    body.collisionEnabled = false;
    body.maxRadius_mm = 0;
  }
  if (!body.cog_mm.allFinite() || !body.inertiaPerMass_mm2.allFinite() || !std::isfinite(body.maxRadius_mm))
    r.failLink(link.name, "mass properties are not finite");
  return body;
}

bool actuated(const urdf::Joint& j) {
  return j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::CONTINUOUS || j.type == urdf::Joint::PRISMATIC;
}

// DOF index and coupling of every moving joint: non-mimic joints are DOFs (file order); a mimic joint couples to
// the DOF its (transitively) mimicked joint drives: q = multiplier·q_mimicked + offset.
std::map<std::string, DofExpression> dofExpressions(const UrdfReader& r, const std::set<std::string>& joints,
                                                    std::vector<std::string>& dofJoints) {
  std::map<std::string, DofExpression> out;
  // The sidecar's <dof> order first (checked against the joints later), then the other DOF joints in file order.
  std::vector<std::string> order;
  for (const auto& name : r.sidecar.dofOrder)
    if (joints.count(name)) order.push_back(name);
  for (const auto& name : r.layout.jointOrder)
    if (std::find(order.begin(), order.end(), name) == order.end()) order.push_back(name);
  for (const auto& name : order) {
    if (!joints.count(name)) continue;
    const auto& j = *r.model->joints_.at(name);
    if (actuated(j) && !j.mimic) {
      out[name] = {static_cast<int>(dofJoints.size()), 1.0, 0.0};
      dofJoints.push_back(name);
    }
  }
  for (const auto& name : r.layout.jointOrder) {
    if (!joints.count(name)) continue;
    const auto& j = *r.model->joints_.at(name);
    if (!actuated(j) || !j.mimic) continue;
    DofExpression e{-1, 1.0, 0.0};
    std::set<std::string> seen{name};
    const urdf::Joint* at = &j;
    while (at->mimic) {
      const auto& m = *at->mimic;
      e.offset += e.ratio * finiteOr(r, m.offset, name, "mimic offset");
      e.ratio *= finiteOr(r, m.multiplier, name, "mimic multiplier");
      const auto next = r.model->joints_.find(m.joint_name);
      if (next == r.model->joints_.end()) r.failJoint(name, "mimics joint '" + m.joint_name + "', which does not exist");
      if (!joints.count(m.joint_name))
        r.failJoint(name, "mimics joint '" + m.joint_name + "', which is not part of the hand below the palm");
      if (!actuated(*next->second))
        r.failJoint(name, "mimics joint '" + m.joint_name + "', which is not revolute, continuous or prismatic");
      if (!seen.insert(m.joint_name).second) r.failJoint(name, "mimic joints form a cycle");
      at = next->second.get();
    }
    e.dof = out.at(at->name).dof;
    // URDF units: m for prismatic, rad otherwise; SoftGrasp's: mm and rad.
    const double unitJoint = j.type == urdf::Joint::PRISMATIC ? kUrdfMetre_mm : 1.0;
    const double unitDof = at->type == urdf::Joint::PRISMATIC ? kUrdfMetre_mm : 1.0;
    e.ratio *= unitJoint / unitDof;
    e.offset *= unitJoint;
    if (!(std::abs(e.ratio) >= 1e-6)) r.failJoint(name, "mimic multiplier is too small (at least 1e-06 in magnitude)");
    out[name] = e;
  }
  return out;
}

Joint toJoint(const UrdfReader& r, const urdf::Joint& j, const DofExpression& expr) {
  const auto fail = [&](const std::string& p) { r.failJoint(j.name, p); };
  const Transform X_PJ = toTransform(j.parent_to_joint_origin_transform, fail);
  if (j.type == urdf::Joint::FIXED) return generalJoint(JointType::Fixed, X_PJ, Vec3::UnitZ());
  const Vec3 axis(j.axis.x, j.axis.y, j.axis.z);
  if (!axis.allFinite() || !(axis.norm() > 1e-9)) fail("axis must be a finite non-zero vector");
  const bool prismatic = j.type == urdf::Joint::PRISMATIC;
  double lo = -std::numbers::pi, hi = std::numbers::pi;  // continuous: one turn each way
  if (j.type != urdf::Joint::CONTINUOUS) {
    if (!j.limits) fail("has no <limit>");
    lo = j.limits->lower, hi = j.limits->upper;
    if (prismatic) lo *= kUrdfMetre_mm, hi *= kUrdfMetre_mm;
    if (!std::isfinite(lo) || !std::isfinite(hi)) fail("limits are not finite");
    if (lo > hi) fail("lower limit is above the upper limit");
  }
  // URDF limits bound the joint position, mimic offset included; SoftGrasp's bound ratio·dofValue.
  Joint out = generalJoint(prismatic ? JointType::Prismatic : JointType::Revolute, X_PJ, axis,
                           expr, 0, 0);
  out.minValue = lo - out.expr.offset;
  out.maxValue = hi - out.expr.offset;
  if (j.dynamics) {
    out.viscousFriction = j.dynamics->damping;
    out.coulombFriction = j.dynamics->friction;
  }
  return out;
}

using ChildJoints = std::map<std::string, std::vector<std::string>>;  // link -> its child joints, in file order

ChildJoints checkedJointTree(UrdfReader& r) {
  // Every link has at most one parent joint, and the tree below the palm has no cycle (urdfdom checks only that
  // there is exactly one root).
  std::map<std::string, std::string> parentJoint;
  for (const auto& name : r.layout.jointOrder) {
    const auto it = r.model->joints_.find(name);
    if (it == r.model->joints_.end()) continue;
    const urdf::Joint& j = *it->second;
    if (!parentJoint.emplace(j.child_link_name, name).second)
      r.failJoint(name, "link '" + j.child_link_name + "' already has parent joint '" + parentJoint[j.child_link_name] +
                            "' (a URDF is a tree: the joints form a cycle or a link has two parents)");
    if (j.type == urdf::Joint::FLOATING || j.type == urdf::Joint::PLANAR)
      r.failJoint(name, "floating and planar joints are not supported (revolute, continuous, prismatic, fixed)");
  }
  ChildJoints childJoints;  // in file order
  for (const auto& name : r.layout.jointOrder)
    if (r.model->joints_.count(name)) childJoints[r.model->joints_.at(name)->parent_link_name].push_back(name);
  return childJoints;
}

std::set<std::string> jointsBelow(UrdfReader& r, ChildJoints& childJoints, const std::string& palmName) {
  // The joints below the palm, depth first; a link with one child joint continues its chain, the palm's and a
  // branching link's child joints each start a chain (a branch hangs off its parent link).
  std::set<std::string> below;
  {
    std::vector<std::string> stack{palmName};
    std::set<std::string> visited{palmName};
    while (!stack.empty()) {
      const std::string l = stack.back();
      stack.pop_back();
      for (const auto& jn : childJoints[l]) {
        below.insert(jn);
        const std::string& child = r.model->joints_.at(jn)->child_link_name;
        if (!visited.insert(child).second) r.failJoint(jn, "the joints form a cycle through link '" + child + "'");
        stack.push_back(child);
      }
    }
  }
  return below;
}

// The chains of the hand below the palm (robot.chains, files.linkFiles); returns where each link went.
std::map<std::string, BodyRef> buildChains(UrdfReader& r, ChildJoints& childJoints,
                                           const std::map<std::string, DofExpression>& exprs,
                                           const std::string& palmName, Robot& robot, RobotFileHistory& files) {
  std::map<std::string, BodyRef> refOf{{palmName, BodyRef{-1, 0}}};
  const std::function<void(const std::string&)> walk = [&](const std::string& link) {
    const auto& kids = childJoints[link];
    const BodyRef at = refOf.at(link);
    for (const auto& jn : kids) {
      const urdf::Joint& j = *r.model->joints_.at(jn);
      int c = at.chain;
      const bool continues = at.chain >= 0 && kids.size() == 1 &&
                             at.link + 1 == static_cast<int>(robot.chains[at.chain].links.size());
      if (!continues) {
        Chain chain;
        if (at.chain >= 0) {
          chain.parent = at;
          robot.disabledPairs.emplace_back(at, BodyRef{static_cast<int>(robot.chains.size()), 0});
        }
        robot.chains.push_back(std::move(chain));
        files.linkFiles.emplace_back();
        c = static_cast<int>(robot.chains.size()) - 1;
      }
      const auto e = exprs.find(jn);
      robot.chains[c].joints.push_back(toJoint(r, j, e == exprs.end() ? DofExpression{-1, 1, 0} : e->second));
      Link l;
      l.jointType = j.type == urdf::Joint::PRISMATIC ? LinkJointType::Prismatic : LinkJointType::Revolute;
      l.lastJoint = static_cast<int>(robot.chains[c].joints.size()) - 1;
      l.body = linkBody(r, *r.model->links_.at(j.child_link_name));
      l.collisionOff = !l.body.collisionEnabled;
      robot.chains[c].links.push_back(std::move(l));
      files.linkFiles[c].push_back(j.child_link_name);
      refOf[j.child_link_name] = {c, static_cast<int>(robot.chains[c].links.size()) - 1};
      walk(j.child_link_name);
    }
  };
  walk(palmName);
  return refOf;
}

// One DOF per moving joint below the palm, with the sidecar's settings; defaults clamped to the ranges.
void addDofs(const UrdfReader& r, const std::vector<std::string>& dofJoints, Robot& robot) {
  for (const auto& jn : dofJoints) {
    const urdf::Joint& j = *r.model->joints_.at(jn);
    Dof d;
    d.defaultVelocity = 1.0;  // closes toward the upper limit
    d.draggerScale = kDefaultDraggerScale;
    if (j.limits && std::isfinite(j.limits->effort))  // N·m -> 1e-6 N·mm, N -> 1e-6 N (GraspIt!'s units)
      d.maxEffort = j.limits->effort * (j.type == urdf::Joint::PRISMATIC ? 1e6 : 1e9);
    double value = 0;
    if (const auto s = r.sidecar.dofs.find(jn); s != r.sidecar.dofs.end()) {
      d.type = s->second.type.value_or(d.type);
      d.defaultVelocity = s->second.defaultVelocity.value_or(d.defaultVelocity);
      d.breakAwayTorque = s->second.breakAwayTorque.value_or(0.0);
      value = s->second.defaultValue.value_or(0.0);
    }
    d.defaultValue = value;
    robot.dofs.push_back(d);
  }
  computeDofRanges(robot);
  {
    std::vector<double> defaults;
    for (const auto& d : robot.dofs) defaults.push_back(d.defaultValue);
    defaults = clampToRanges(robot, defaults);
    for (std::size_t k = 0; k < robot.dofs.size(); ++k) robot.dofs[k].defaultValue = defaults[k];
  }
}

// What only the sidecar gives: the approach direction, eigengrasps and virtual contacts.
void applySidecarExtras(const UrdfReader& r, Robot& robot) {
  if (r.sidecar.approach) {
    const Vec3 z = r.sidecar.approach->direction.normalized();
    Vec3 x = std::abs(z.dot(Vec3::UnitX())) > std::cos(degToRad(25.0)) ? Vec3::UnitY() : Vec3::UnitX();
    const Vec3 y = z.cross(x).normalized();
    x = y.cross(z).normalized();
    Mat3 R;
    R.col(0) = x, R.col(1) = y, R.col(2) = z;
    robot.approach = Transform::fromMatrix(R, r.sidecar.approach->reference_mm);
  }
  if (r.sidecar.eigenGraspsFile) {
    try {
      robot.eigengrasps = loadEigenGrasps(*r.sidecar.eigenGraspsFile, static_cast<int>(robot.dofs.size()));
    } catch (const Error& err) {
      throw err.withContext("eigengrasps of " + r.sidecar.file + ":" + std::to_string(r.sidecar.eigenGraspsLine));
    }
  } else {
    robot.eigengrasps = identityEigenGrasps(robot);
  }
  if (r.sidecar.virtualContactsFile) {
    try {
      robot.virtualContacts = loadVirtualContacts(*r.sidecar.virtualContactsFile);
    } catch (const Error& err) {
      throw err.withContext("virtual contacts of " + r.sidecar.file + ":" +
                            std::to_string(r.sidecar.virtualContactsLine));
    }
    for (std::size_t i = 0; i < robot.virtualContacts.size(); ++i) {
      const auto& c = robot.virtualContacts[i];
      const bool ok = c.chain == -1 || (c.chain >= 0 && c.chain < static_cast<int>(robot.chains.size()) &&
                                        c.link >= 0 && c.link < static_cast<int>(robot.chains[c.chain].links.size()));
      if (!ok)
        throw Error("virtual contact " + std::to_string(i) + " is on chain " + std::to_string(c.chain) + " link " +
                        std::to_string(c.link) + ", which robot " + robot.name + " does not have",
                    *r.sidecar.virtualContactsFile);
    }
  }
}

}  // namespace

Robot loadUrdfRobot(const std::string& path, const MaterialTable& materials, const LoadOptions& options,
                    RobotFileHistory* history) {
  UrdfReader r{absolutePath(path), materials, options, {}, {}, {}, {}};
  std::string text;
  {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(r.file, ec)) throw Error("cannot open URDF (no such file)", r.file);
    r.layout = layoutOf(r.file);  // also a clear "file:line: XML error" before urdfdom sees the file
    std::ifstream in(r.file, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  r.model = parseWithUrdfdom(r.file, text, r.warnings);

  const std::string sidecarPath = urdfio::sidecarPathFor(r.file);
  std::error_code ec;
  if (std::filesystem::is_regular_file(sidecarPath, ec)) {
    r.sidecar = urdfio::readSidecar(sidecarPath);
  } else {
    r.warnings.push_back(r.file + ": no sidecar " + sidecarPath +
                         "; defaults used: root link = palm, every DOF closes toward its upper limit, rigid links "
                         "of material '" + Body().material + "'");
  }

  ChildJoints childJoints = checkedJointTree(r);

  const std::string rootName = r.model->getRoot()->name;
  const std::string palmName = r.sidecar.palmLink.value_or(rootName);
  if (!r.model->links_.count(palmName))
    throw Error("palm link '" + palmName + "' is not a link of " + r.file, r.sidecar.file);

  Robot robot;
  robot.name = fileStem(r.file);
  robot.sourceFile = r.file;
  robot.type = "Hand";
  robot.dbName = r.model->getName();
  robot.palm = linkBody(r, *r.model->links_.at(palmName));
  RobotFileHistory files;
  files.palmFile = palmName;

  const std::set<std::string> below = jointsBelow(r, childJoints, palmName);
  std::vector<std::string> dofJoints;
  const auto exprs = dofExpressions(r, below, dofJoints);
  if (dofJoints.empty()) throw Error("the hand below palm link '" + palmName + "' has no moving joint", r.file);
  if (below.size() + 1 < r.model->links_.size())
    r.warnings.push_back(r.file + ": " + std::to_string(r.model->links_.size() - below.size() - 1) +
                         " link(s) not below palm link '" + palmName + "' are ignored");

  const std::map<std::string, BodyRef> refOf = buildChains(r, childJoints, exprs, palmName, robot, files);

  for (const auto& [joint, d] : r.sidecar.dofs)
    if (std::find(dofJoints.begin(), dofJoints.end(), joint) == dofJoints.end())
      throw Error("<dof> names joint '" + joint + "', which is not a DOF of " + r.file +
                      " (DOFs are the revolute, continuous and prismatic joints below the palm that mimic no other)",
                  r.sidecar.file, d.line);
  for (const auto& [link, l] : r.sidecar.links)
    if (!refOf.count(link))
      throw Error("<link> names '" + link + "', which is not a link of the hand in " + r.file, r.sidecar.file, l.line);

  addDofs(r, dofJoints, robot);

  applySidecarExtras(r, robot);
  robot.loadWarnings = std::move(r.warnings);
  checkChainTree(robot);
  if (history) *history = std::move(files);
  return robot;
}

std::vector<std::string> urdfDofNames(const std::string& path, const LoadOptions& options) {
  // The first steps of loadUrdfRobot, up to the DOF numbering.
  const MaterialTable materials;
  UrdfReader r{absolutePath(path), materials, options, {}, {}, {}, {}};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(r.file, ec)) throw Error("cannot open URDF (no such file)", r.file);
  r.layout = layoutOf(r.file);
  std::ifstream in(r.file, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  r.model = parseWithUrdfdom(r.file, buffer.str(), r.warnings);
  const std::string sidecarPath = urdfio::sidecarPathFor(r.file);
  if (std::filesystem::is_regular_file(sidecarPath, ec)) r.sidecar = urdfio::readSidecar(sidecarPath);
  ChildJoints childJoints = checkedJointTree(r);
  const std::string palmName = r.sidecar.palmLink.value_or(r.model->getRoot()->name);
  if (!r.model->links_.count(palmName))
    throw Error("palm link '" + palmName + "' is not a link of " + r.file, r.sidecar.file);
  std::vector<std::string> dofJoints;
  dofExpressions(r, jointsBelow(r, childJoints, palmName), dofJoints);
  return dofJoints;
}

bool isUrdfPath(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".urdf";
}

}  // namespace sg
