#include "grasp/AnalysisJson.h"

#include "contact/ContactModel.h"
#include "core/JsonGeometry.h"
#include "core/NumberFormat.h"
#include "grasp/WrenchHull.h"

namespace sg {

namespace {

// The model's tree, an empty object when the model describes nothing (or there is no model result).
Json describedContact(const GraspEvaluation& e, std::size_t index) {
  if (!e.modelResult || index >= e.modelResult->contacts.size()) return Json::object();
  Json tree = e.modelResult->describeContact(index);
  return tree.isNull() ? Json::object() : tree;
}

}  // namespace

double lInfinityPointBound(const GraspEvaluation& e) {
  double points = 1;
  for (const auto& c : e.contacts)
    if (!c.wrenches.empty()) points *= static_cast<double>(c.wrenches.size() + 1);
  return points;
}

bool lInfinityHullNotBuilt(const GraspWrenchSpace& gws) {
  return gws.type == GwsType::LInfinity && gws.limitExceeded;
}

std::string lInfinityNotBuiltReason(const GraspEvaluation& e, const QualitySettings& settings) {
  std::string s = "the Minkowski sum of the ";  // built with += (g++ 12 warns falsely on long + chains)
  s += std::to_string(e.contacts.size()) + " contacts' wrenches needs up to ";
  s += formatDouble(lInfinityPointBound(e)) + " points, above the limit of ";
  s += std::to_string(settings.gws.maxLInfinityPoints) + " for its hull (6-D hulls of thousands of points take";
  s += " seconds to minutes): only volume-linf needs it; epsilon-linf comes from support functions";
  return s;
}

Json foundContactJson(const World& world, const Contact& c, std::size_t index, const std::string& friction) {
  Json o = Json::object();
  o.set("index", jsonCount(index));
  o.set("body1", world.bodyLabel(c.side1.body));
  o.set("body2", world.bodyLabel(c.side2.body));
  o.set("position1", jsonVec(c.side1.p_WC_mm));
  o.set("normal1", jsonVec(c.side1.n_W));
  o.set("position2", jsonVec(c.side2.p_WC_mm));
  o.set("normal2", jsonVec(c.side2.n_W));
  o.set("separation", c.separation_mm);
  o.set("penetrating", c.penetrating);
  o.set("depth_mm", c.depth_mm());
  o.set("muStatic", c.muStatic);
  o.set("muKinetic", c.muKinetic);
  o.set("friction", friction);
  return o;
}

std::vector<std::string> contactKinds(const GraspEvaluation* e, std::size_t contactsFound) {
  std::vector<std::string> kinds(contactsFound);
  if (e)
    for (const ContactEvaluation& c : e->contacts)
      for (int source : c.sourceContacts)
        if (source >= 0 && static_cast<std::size_t>(source) < contactsFound)
          kinds[static_cast<std::size_t>(source)] = toString(c.kind);
  return kinds;
}

Json contactEvaluationJson(const World& world, const GraspEvaluation& e, std::size_t index) {
  const ContactEvaluation& c = e.contacts[index];
  Json sources = Json::array();
  for (int i : c.sourceContacts) sources.push(i);
  const ContactSide& side = c.onObject();
  Json o = Json::object();
  // "contacts": the 0-based indices ("found"[].index; #index+1 in the text and the GUI's table) of the contacts
  // found that this evaluated contact came from; several when the model merged them.
  o.set("contacts", sources);
  o.set("merged", c.sourceContacts.size() > 1);
  o.set("body1", world.bodyLabel(c.contact.side1.body));
  o.set("body2", world.bodyLabel(c.contact.side2.body));
  o.set("position_mm", jsonVec(side.p_WC_mm));
  o.set("normal", jsonVec(side.n_W));
  o.set("separation_mm", c.contact.separation_mm);
  o.set("penetrating", c.contact.penetrating);
  o.set("depth_mm", c.contact.depth_mm());
  o.set("kind", toString(c.kind));
  o.set("mu", c.mu);
  o.set("torsion_mm", c.torsion_mm);
  o.set("maxTorsionalFriction_Nmm", c.maxTorsionalFriction_Nmm);
  o.set("frictionEdgeCount", jsonCount(c.frictionEdges.size()));
  o.set("frictionEdges", jsonVec6List(c.frictionEdges));
  o.set("wrenches", jsonVec6List(c.wrenches));
  o.set("note", c.note);
  o.set("model", describedContact(e, index));
  return o;
}

Json hullJson(const GraspEvaluation& e, const GraspWrenchSpace& gws, const GraspQuality& q,
              const QualitySettings& settings) {
  Json o = Json::object();
  if (lInfinityHullNotBuilt(gws)) {
    o.set("built", false);
    o.set("status", "not built");
    o.set("message", lInfinityNotBuiltReason(e, settings));
    o.set("pointsNeeded", lInfinityPointBound(e));
    o.set("pointLimit", static_cast<double>(settings.gws.maxLInfinityPoints));
    return o;
  }
  o.set("built", q.hullStatus == HullStatus::Ok);
  o.set("status", toString(q.hullStatus));
  o.set("points", static_cast<double>(gws.inputPointCount));
  o.set("facets", q.facetCount);
  if (q.hullStatus != HullStatus::Ok) o.set("message", q.message);
  return o;
}

Json measuresJson(const GraspEvaluation& e) {
  Json o = Json::object();
  for (const MeasureValue& m : e.measures) {
    const QualityMeasure* q = findQualityMeasure(m.measure);
    Json v = Json::object();
    v.set("label", q ? q->label() : m.measure);
    v.set("value", m.ok ? Json(m.value) : Json());  // no value (no contacts, no hull): null, never a stand-in 0
    v.set("ok", m.ok);
    if (!m.message.empty()) v.set("message", m.message);
    if (m.bounds) {
      v.set("lowerBound", m.bounds->lower);
      v.set("upperBound", m.bounds->upper);
      v.set("gap", m.bounds->gap());
      v.set("iterations", m.bounds->iterations);
      v.set("converged", m.bounds->converged);
      v.set("status", m.bounds->status);
      v.set("weakestDirection", jsonVec6(m.bounds->weakestDirection));
    }
    o.set(m.measure, std::move(v));
  }
  return o;
}

Json evaluationJson(const World& world, const GraspEvaluation& e, const QualitySettings& settings) {
  Json list = Json::array();
  for (std::size_t i = 0; i < e.contacts.size(); ++i) list.push(contactEvaluationJson(world, e, i));
  // Each measure's value once (in "measures"); the hulls only say how they were built, and only when a
  // requested measure built them (the volumes).
  Json hulls = Json::object();
  if (e.l1Built) hulls.set("l1", hullJson(e, e.l1, e.l1Quality, settings));
  if (e.lInfinityBuilt) hulls.set("lInfinity", hullJson(e, e.lInfinity, e.lInfinityQuality, settings));
  Json model = e.modelResult ? e.modelResult->describe() : Json::object();
  Json o = Json::object();
  o.set("contactModel", e.contactModel);
  o.set("torqueScale_mm", e.reference.torqueScale_mm);
  o.set("contacts", list);
  o.set("forceClosure", e.forceClosure());
  o.set("measures", measuresJson(e));
  o.set("hulls", hulls);
  o.set("model", model.isNull() ? Json::object() : model);
  return o;
}

Json analysisJson(const AnalysisJsonInput& in) {
  const World& world = in.world;
  Json doc = withFormat(kAnalysisFormat, Json::object());
  doc.set("file", in.file);
  if (in.graspable >= 0) doc.set("graspable", world.bodyLabel({BodyHandle::Kind::Graspable, in.graspable, {}}));
  if (in.robot >= 0 && in.robot < static_cast<int>(world.robots.size())) {
    doc.set("robot", world.robots[static_cast<std::size_t>(in.robot)].name);
    const WorldState& state = in.state ? *in.state : world.state;
    doc.set("dofs", jsonNumbers(state.robots.at(static_cast<std::size_t>(in.robot)).dofValues));
  }
  doc.set("contactsFound", jsonCount(in.contacts.size()));
  const GraspEvaluation* primary = in.evaluations.empty() ? nullptr : in.evaluations.front();
  const std::vector<std::string> kinds = contactKinds(primary, in.contacts.size());
  Json found = Json::array();
  for (std::size_t i = 0; i < in.contacts.size(); ++i) found.push(foundContactJson(world, in.contacts[i], i, kinds[i]));
  doc.set("found", found);
  if (primary) {  // the primary model at the top level, as the single-model documents always had it
    const Json evaluation = evaluationJson(world, *primary, in.settings);
    for (const auto& [key, value] : evaluation.members("evaluation")) doc.set(key, value);
  }
  Json evaluations = Json::array();
  for (const GraspEvaluation* e : in.evaluations) evaluations.push(evaluationJson(world, *e, in.settings));
  doc.set("evaluations", evaluations);
  doc.set("warnings", jsonStrings(in.warnings));
  return doc;
}

std::string approachOutcome(const HandMotionReport& r) { return r.approach.run ? toString(r.approach.outcome) : ""; }
std::string fingersOutcome(const HandMotionReport& r) { return r.fingers.run ? toString(r.fingers.outcome) : "not run"; }

Json analysisRunJson(const std::string& file, const World& world, const WorldState& state,
                     const AnalysisRequest& request, const AnalysisResult& result,
                     const std::vector<std::string>& warnings) {
  std::vector<const GraspEvaluation*> evaluations;
  for (const GraspEvaluation& each : result.evaluations) evaluations.push_back(&each);
  const bool hasRobot = request.robot >= 0 && request.robot < static_cast<int>(world.robots.size());
  Json doc = analysisJson({.file = file,
                           .world = world,
                           .contacts = result.contacts,
                           .graspable = result.graspable,
                           .evaluations = evaluations,
                           .settings = request.quality,
                           .robot = hasRobot ? request.robot : -1,
                           .warnings = warnings,
                           .state = &state});
  if (hasRobot) {
    doc.set("grasp", fingersOutcome(result.motion));
    if (result.motion.approach.run) doc.set("approach", approachOutcome(result.motion));
  }
  return doc;
}

}  // namespace sg
