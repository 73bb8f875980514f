#include "TrialStore.h"

#include <fstream>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "DbSupport.h"
#include "batch/Provenance.h"
#include "core/Error.h"
#include "core/Version.h"
#include "grasp/planner/GraspList.h"
#include "sim/TrialJson.h"
#include "store/Import.h"

namespace sg::cli {
namespace {

Vec3 vec3At(const Json& j, const std::string& what) {
  const auto& items = j.items(what);
  if (items.size() != 3) throw Error(what + ": expected 3 numbers");
  return {items[0].number(what), items[1].number(what), items[2].number(what)};
}

StoredGrasp storedGraspFrom(const Json& g, const std::string& what) {
  StoredGrasp s;
  const double id = g.at("id", what).number(what + ".id");
  if (!(id >= 1) || id != static_cast<double>(static_cast<std::int64_t>(id)))
    throw Error(what + ".id: expected a grasp id ≥ 1");
  s.id = static_cast<std::int64_t>(id);
  s.run = g.at("run", what).string(what + ".run");
  s.robotSha256 = g.at("robotSha256", what).string(what + ".robotSha256");
  s.objectSha256 = g.at("objectSha256", what).string(what + ".objectSha256");
  const Json& pose = g.at("grasp", what);
  const std::string p = what + ".grasp";
  const Vec3 t = vec3At(pose.at("position_mm", p), p + ".position_mm");
  const auto& q = pose.at("quaternion_wxyz", p).items(p + ".quaternion_wxyz");
  if (q.size() != 4) throw Error(p + ".quaternion_wxyz: expected 4 numbers");
  s.X_OP = Transform(Quat(q[0].number(p), q[1].number(p), q[2].number(p), q[3].number(p)).normalized(), t);
  for (const Json& v : pose.at("dofs", p).items(p + ".dofs")) s.dofs.push_back(v.number(p + ".dofs"));
  if (const Json* b = pose.find("breakAway")) s.breakAway = planner::breakAwayFromJson(*b, p + ".breakAway");
  return s;
}

std::string hashOf(const Json& provenance, const std::string& key) {
  return provenance.at(key, "provenance").at("sha256", "provenance." + key).string("provenance." + key + ".sha256");
}

}  // namespace

std::optional<std::vector<StoredGrasp>> loadDbQueryGrasps(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot be read", path);
  std::stringstream text;
  text << in.rdbuf();
  Json doc;
  try {
    doc = Json::parse(text.str());
  } catch (const Error& e) {
    throw Error(e.message(), path);
  }
  const Json* format = doc.type() == Json::Type::Object ? doc.find("format") : nullptr;
  if (!format || format->type() != Json::Type::String || format->string("format") != "softgrasp.db-query")
    return std::nullopt;
  std::vector<StoredGrasp> out;
  try {
    const auto& grasps = doc.at("grasps", "document").items("grasps");
    for (std::size_t i = 0; i < grasps.size(); ++i)
      out.push_back(storedGraspFrom(grasps[i], "grasps[" + std::to_string(i) + "]"));
  } catch (const Error& e) {
    throw Error(e.message(), path);
  }
  return out;
}

void checkGraspsMatchWorld(const std::vector<StoredGrasp>& grasps, const World& world, int robot, int graspable,
                           const std::string& path) {
  batch::ProvenanceCache cache;
  const Json provenance = cache.provenance(world, robot, graspable);
  const std::string robotHash = hashOf(provenance, "robot"), objectHash = hashOf(provenance, "object");
  for (std::size_t i = 0; i < grasps.size(); ++i) {
    const std::string what = "grasps[" + std::to_string(i) + "] (grasp " + std::to_string(grasps[i].id) + ")";
    if (grasps[i].robotSha256 != robotHash)
      throw Error(what + " is of a robot whose files hash to " + grasps[i].robotSha256 + ", not the world's (" +
                      robotHash + ")", path);
    if (grasps[i].objectSha256 != objectHash)
      throw Error(what + " is on an object whose files hash to " + grasps[i].objectSha256 + ", not the world's (" +
                      objectHash + ")", path);
  }
}

TrialWriter::TrialWriter(const std::string& url, const std::vector<StoredGrasp>& grasps,
                         const sim::TrialSettings& settings)
    : db_(store::GraspStore::open(url, store::OpenMode::ReadWrite)), settings_(sim::trialSettingsJson(settings)) {
  // A trial is keyed by the grasp's id: the id must name the same grasp here as in the query document.
  for (const StoredGrasp& g : grasps) {
    store::GraspQuery q;
    q.graspId = g.id;
    bool same = false, found = false;
    db_->query(q, [&](const store::GraspRow& r) {
      found = true;
      same = r.run == g.run && r.robotHash == g.robotSha256 && r.objectHash == g.objectSha256;
    });
    if (!found)
      throw Error("has no grasp " + std::to_string(g.id) + " (the grasps come from another database?)", db_->url());
    if (!same)
      throw Error("grasp " + std::to_string(g.id) + " is of another run or model than the document's (the grasps "
                  "come from another database?)", db_->url());
  }
  store::RunRecord run;
  run.startedAt = store::utcNow();
  run.host = store::hostName();
  run.key = "validate:" + run.host + ":" + std::to_string(::getpid()) + ":" + run.startedAt;
  run.kind = "validate";
  run.softgraspVersion = versionString();
  run.command = commandLine();
  run.settings = settings_.dumpLine();
  run.rowsTotal = static_cast<std::int64_t>(grasps.size());
  run.withContacts = false;
  runId_ = db_->beginRun(run);
}

void TrialWriter::store(const StoredGrasp& grasp, const sim::TrialResult& result) {
  db_->insertTrial(trialRecord(grasp.id, runId_, settings_, sim::trialSummaryJson(result)));
}

void TrialWriter::finish(const std::string& stopReason) { db_->endRun(runId_, store::utcNow(), stopReason); }

store::TrialRecord trialRecord(std::int64_t graspId, std::optional<std::int64_t> runId, const Json& settings,
                               const Json& summary) {
  store::TrialRecord t = store::physicsTrialRecord(settings, summary);
  t.graspId = graspId;
  t.runId = runId;
  return t;
}

std::size_t storeRowTrials(store::GraspStore& db, const std::string& runKey, std::int64_t row, const Json& settings,
                           const std::vector<Json>& summaries) {
  const std::optional<store::RunRecord> run = db.run(runKey);
  if (!run) throw Error("has no run " + runKey, db.url());
  const std::int64_t runId = db.beginRun(*run);  // the existing run's id
  store::GraspQuery q;
  q.run = runKey;
  q.row = row;
  q.order = store::GraspQuery::Order::Row;  // rank order within the row
  std::vector<std::int64_t> ids;
  db.query(q, [&](const store::GraspRow& r) { ids.push_back(r.id); });
  if (ids.size() < summaries.size())
    throw Error("row " + std::to_string(row) + " of run " + runKey + " holds " + std::to_string(ids.size()) +
                " grasps, " + std::to_string(summaries.size()) + " trials to store", db.url());
  std::size_t stored = 0;
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    if (summaries[i].isNull()) continue;
    db.insertTrial(trialRecord(ids[i], runId, settings, summaries[i]));
    ++stored;
  }
  return stored;
}

}  // namespace sg::cli
