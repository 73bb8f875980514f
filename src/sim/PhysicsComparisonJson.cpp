#include "sim/PhysicsComparisonJson.h"

#include "core/JsonFormat.h"
#include "core/JsonGeometry.h"
#include "sim/TrialJson.h"

namespace sg::sim {

namespace {

Json optionalJson(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

Json rowJson(const PredictorRow& r) {
  Json o = Json::object();
  o.set("model", r.predictor.model);
  o.set("measure", r.predictor.measure);
  o.set("grasps", r.grasps);
  o.set("missing", r.missing);
  o.set("successes", r.successes);
  o.set("auc", optionalJson(r.auc));
  o.set("spearman", optionalJson(r.spearman));
  if (!r.undefined.empty()) o.set("undefined", r.undefined);
  return o;
}

// A grasp tried: where it came from, its score, its predictor values and the trial's verdict per direction.
Json sampleJson(const PhysicsSample& s) {
  Json o = Json::object();
  o.set("file", static_cast<int>(s.world));
  o.set("seed", s.seed);
  o.set("rank", s.rank);
  o.set("score", *s.score);
  Json values = Json::array();
  for (const std::optional<double>& v : s.predictors) values.push(optionalJson(v));
  o.set("predictors", values);
  Json held = Json::array();
  for (const bool h : s.held) held.push(h);
  o.set("held", held);
  o.set("displacement_mm", jsonNumbers(s.displacement_mm));
  o.set("rotation_deg", jsonNumbers(s.rotation_deg));
  return o;
}

Json agreementJson(const HoldAgreement& a) {
  Json o = Json::object();
  o.set("model", a.model);
  o.set("direction", a.direction.name());
  o.set("bothHeld", a.bothHeld);
  o.set("staticOnly", a.staticOnly);
  o.set("physicsOnly", a.physicsOnly);
  o.set("neither", a.neither);
  o.set("notApplicable", a.notApplicable);
  return o;
}

}  // namespace

Json physicsComparisonJson(const PhysicsComparison& comparison, const PhysicsComparisonRequest& request,
                           const std::vector<std::string>& files, const std::vector<std::string>& warnings) {
  const PredictionTable& table = comparison.table;
  Json doc = Json::object();
  doc.set("files", jsonStrings(files));
  doc.set("seeds", request.seeds);
  doc.set("iterations", static_cast<double>(request.iterations));
  doc.set("keep", static_cast<int>(request.keep));
  doc.set("settings", trialSettingsJson(request.trial));
  doc.set("successScore", request.successScore);
  doc.set("grasps", table.grasps);
  doc.set("successes", table.successes);
  Json rows = Json::array();
  for (const PredictorRow& r : table.rows) rows.push(rowJson(r));
  doc.set("rows", rows);
  Json tried = Json::array();  // the grasps not tried (a cancelled run) have no score and are left out
  for (const PhysicsSample& s : comparison.samples)
    if (s.score) tried.push(sampleJson(s));
  doc.set("samples", tried);
  Json agreement = Json::array();
  for (const HoldAgreement& a : comparison.agreement) agreement.push(agreementJson(a));
  doc.set("agreement", agreement);
  doc.set("complete", comparison.complete);
  doc.set("warnings", jsonStrings(warnings));
  return withFormat(kPhysicsPredictionFormat, doc);
}

}  // namespace sg::sim
