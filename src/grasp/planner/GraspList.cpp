#include "grasp/planner/GraspList.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/Error.h"
#include "core/Json.h"
#include "io/AtomicFile.h"

namespace sg::planner {

namespace {

Json vec(const Vec3& v) {
  Json a = Json::array();
  for (int i = 0; i < 3; ++i) a.push(v[i]);
  return a;
}
Json numbers(const std::vector<double>& values) {
  Json a = Json::array();
  for (double v : values) a.push(v);
  return a;
}
Json pose(const Transform& X) {
  Json o = Json::object();
  o.set("position_mm", vec(X.translation()));
  const Quat& q = X.rotation();
  Json r = Json::array();
  for (double c : {q.w(), q.x(), q.y(), q.z()}) r.push(c);
  o.set("quaternion_wxyz", r);
  return o;
}
}  // namespace

Json breakAwayToJson(const BreakAwayState& state) {
  Json a = Json::array();
  for (std::size_t c = 0; c < state.size(); ++c)
    for (std::size_t j = 0; j < state[c].size(); ++j)
      if (state[c][j].active) {
        Json e = Json::object();
        e.set("chain", static_cast<long>(c));
        e.set("joint", static_cast<long>(j));
        e.set("dofValue", state[c][j].dofValue);
        a.push(e);
      }
  return a;
}

namespace {

Json configuration(const HandConfiguration& c) {
  Json o = Json::object();
  o.set("palm", pose(c.X_WP));
  o.set("dofs", numbers(c.dofValues));
  if (anyBreakAway(c.breakAway)) o.set("breakAway", breakAwayToJson(c.breakAway));
  return o;
}

std::vector<double> readNumbers(const Json& j, const std::string& what, std::size_t size = 0) {
  std::vector<double> out;
  for (const Json& v : j.items(what)) out.push_back(v.number(what));
  if (size && out.size() != size)
    throw Error(what + ": expected " + std::to_string(size) + " numbers, found " + std::to_string(out.size()));
  return out;
}
Vec3 readVec(const Json& j, const std::string& what) {
  const std::vector<double> v = readNumbers(j, what, 3);
  return {v[0], v[1], v[2]};
}
Transform readPose(const Json& j, const std::string& what) {
  const Vec3 t = readVec(j.at("position_mm", what), what + ".position_mm");
  const std::vector<double> q = readNumbers(j.at("quaternion_wxyz", what), what + ".quaternion_wxyz", 4);
  Quat quat(q[0], q[1], q[2], q[3]);
  if (!(quat.norm() > 1e-9)) throw Error(what + ".quaternion_wxyz: not a rotation (zero quaternion)");
  return Transform(quat.normalized(), t);
}
std::size_t readIndex(const Json& j, const std::string& what) {
  const double v = j.number(what);
  if (!(v >= 0 && v <= 1e6) || v != std::floor(v)) throw Error(what + ": expected an index (an integer ≥ 0)");
  return static_cast<std::size_t>(v);
}
}  // namespace

BreakAwayState breakAwayFromJson(const Json& j, const std::string& what) {
  BreakAwayState out;
  const auto& entries = j.items(what);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const std::string at = what + "[" + std::to_string(k) + "]";
    const Json* chain = nullptr;
    const Json* joint = nullptr;
    const Json* value = nullptr;
    for (const auto& [name, v] : entries[k].members(at)) {
      if (name == "chain") chain = &v;
      else if (name == "joint") joint = &v;
      else if (name == "dofValue") value = &v;
      else throw Error(at + ": unknown field '" + name + "' (chain, joint, dofValue)");
    }
    if (!chain || !joint || !value) throw Error(at + ": needs chain, joint and dofValue");
    const std::size_t c = readIndex(*chain, at + ".chain");
    const std::size_t jj = readIndex(*joint, at + ".joint");
    const double q = value->number(at + ".dofValue");
    if (!std::isfinite(q)) throw Error(at + ".dofValue: not a finite number");
    if (out.size() <= c) out.resize(c + 1);
    if (out[c].size() <= jj) out[c].resize(jj + 1);
    if (out[c][jj].active)
      throw Error(at + ": chain " + std::to_string(c) + " joint " + std::to_string(jj) + " is listed twice");
    out[c][jj] = {true, q};
  }
  return out;
}

namespace {

HandConfiguration readConfiguration(const Json& j, const std::string& what) {
  HandConfiguration c{readPose(j.at("palm", what), what + ".palm"), readNumbers(j.at("dofs", what), what + ".dofs"), {}};
  if (const Json* b = j.find("breakAway")) c.breakAway = breakAwayFromJson(*b, what + ".breakAway");
  return c;
}
std::string optionalString(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v && !v->isNull() ? v->string(key) : std::string();
}

}  // namespace

GraspList makeGraspList(const World& world, const std::string& worldFile, const PlanRequest& request,
                        const PlanResult& result) {
  GraspList list;
  list.world = worldFile;
  list.robotIndex = request.robot;
  list.robot = world.robots.at(static_cast<std::size_t>(request.robot)).name;
  list.graspableIndex = result.graspable;
  list.object = world.bodyLabel(BodyHandle{BodyHandle::Kind::Graspable, result.graspable, {}});
  list.planner = toString(request.planner);
  list.energy = toString(request.planner == PlannerKind::Guided ? request.guided.childEnergy : request.energy.kind);
  if (request.planner == PlannerKind::Guided) list.parentEnergy = toString(EnergyKind::GuidedPotentialQuality);
  list.space = toString(request.space);
  list.params = request.params.name;
  list.stopReason = toString(result.annealing.stopReason);
  list.seed = std::to_string(request.seed);
  list.maxSteps = request.maxSteps;
  for (const SearchVariable& v : result.space.variables) list.variableNames.push_back(v.name);
  list.grasps = result.grasps;
  return list;
}

Json graspListToJsonValue(const GraspList& list) {
  Json doc = withFormat(kGraspListFormat, Json::object());
  doc.set("world", list.world);
  doc.set("robot", list.robot);
  doc.set("robotIndex", list.robotIndex);
  doc.set("object", list.object);
  doc.set("graspableIndex", list.graspableIndex);
  Json planning = Json::object();
  if (!list.planner.empty()) planning.set("planner", list.planner);
  planning.set("energy", list.energy);
  if (!list.parentEnergy.empty()) planning.set("parentEnergy", list.parentEnergy);
  planning.set("space", list.space);
  planning.set("params", list.params);
  planning.set("seed", list.seed);
  planning.set("maxSteps", list.maxSteps);
  planning.set("stopReason", list.stopReason);
  Json names = Json::array();
  for (const std::string& n : list.variableNames) names.push(n);
  planning.set("variables", names);
  doc.set("planning", planning);
  Json grasps = Json::array();
  for (std::size_t i = 0; i < list.grasps.size(); ++i) {
    const PlannedGrasp& g = list.grasps[i];
    Json o = Json::object();
    o.set("rank", static_cast<int>(i + 1));
    o.set("energy", g.energy);
    o.set("state", numbers(g.variables));
    o.set("preGrasp", configuration(g.preGrasp));
    o.set("grasp", configuration(g.grasp));
    o.set("forceClosure", g.forceClosure);
    Json measures = Json::object();
    for (const MeasureValue& m : g.measures) measures.set(m.measure, m.ok ? Json(m.value) : Json());
    o.set("measures", measures);
    Json contacts = Json::array();
    for (const GraspContactRecord& c : g.contacts) {
      Json cj = Json::object();
      cj.set("handBody", c.handBody);
      cj.set("otherBody", c.otherBody);
      cj.set("position_mm", vec(c.position_mm));
      cj.set("normal", vec(c.normal));
      contacts.push(cj);
    }
    o.set("contacts", contacts);
    grasps.push(o);
  }
  doc.set("grasps", grasps);
  return doc;
}

std::string graspListToJson(const GraspList& list) { return graspListToJsonValue(list).dump(); }

GraspList graspListFromJson(const std::string& text) {
  const Json doc = Json::parse(text);
  (void)checkFormat(doc, kGraspListFormat, {});  // the caller names the file
  GraspList list;
  list.world = optionalString(doc, "world");
  list.robot = optionalString(doc, "robot");
  list.object = optionalString(doc, "object");
  if (const Json* r = doc.find("robotIndex")) list.robotIndex = static_cast<int>(r->number("robotIndex"));
  if (const Json* g = doc.find("graspableIndex")) list.graspableIndex = static_cast<int>(g->number("graspableIndex"));
  if (const Json* p = doc.find("planning"); p && p->type() == Json::Type::Object) {
    list.planner = optionalString(*p, "planner");
    list.energy = optionalString(*p, "energy");
    list.parentEnergy = optionalString(*p, "parentEnergy");
    list.space = optionalString(*p, "space");
    list.params = optionalString(*p, "params");
    list.seed = optionalString(*p, "seed");
    list.stopReason = optionalString(*p, "stopReason");
    if (const Json* s = p->find("maxSteps")) list.maxSteps = static_cast<long>(s->number("planning.maxSteps"));
    if (const Json* v = p->find("variables"))
      for (const Json& n : v->items("planning.variables")) list.variableNames.push_back(n.string("planning.variables"));
  }
  const auto& grasps = doc.at("grasps", "grasp list").items("grasps");
  for (std::size_t i = 0; i < grasps.size(); ++i) {
    const std::string what = "grasps[" + std::to_string(i) + "]";
    const Json& o = grasps[i];
    PlannedGrasp g;
    g.energy = o.at("energy", what).isNull() ? std::numeric_limits<double>::quiet_NaN() : o.at("energy", what).number(what + ".energy");
    if (const Json* s = o.find("state")) g.variables = readNumbers(*s, what + ".state");
    g.grasp = readConfiguration(o.at("grasp", what), what + ".grasp");
    g.preGrasp = o.find("preGrasp") ? readConfiguration(o.at("preGrasp", what), what + ".preGrasp") : g.grasp;
    if (const Json* fc = o.find("forceClosure")) g.forceClosure = fc->boolean(what + ".forceClosure");
    if (const Json* m = o.find("measures"))
      for (const auto& [name, value] : m->members(what + ".measures")) {
        MeasureValue mv;
        mv.measure = name;
        mv.ok = !value.isNull();
        mv.value = mv.ok ? value.number(what + ".measures." + name) : 0.0;
        g.measures.push_back(mv);
      }
    if (const Json* c = o.find("contacts"))
      for (const Json& cj : c->items(what + ".contacts")) {
        GraspContactRecord r;
        r.handBody = optionalString(cj, "handBody");
        r.otherBody = optionalString(cj, "otherBody");
        r.position_mm = readVec(cj.at("position_mm", what + ".contacts"), what + ".contacts.position_mm");
        r.normal = readVec(cj.at("normal", what + ".contacts"), what + ".contacts.normal");
        g.contacts.push_back(r);
      }
    list.grasps.push_back(std::move(g));
  }
  return list;
}

void saveGraspList(const GraspList& list, const std::string& path) { writeFileAtomically(path, graspListToJson(list)); }

GraspList loadGraspList(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open the grasp list", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error("cannot read the grasp list", path);
  try {
    return graspListFromJson(text.str());
  } catch (const Error& e) {
    throw Error("bad grasp list: " + e.message(), path);
  }
}

}  // namespace sg::planner
