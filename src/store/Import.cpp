#include "store/Import.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <map>

#include "batch/ShardFile.h"
#include "core/Error.h"
#include "core/Version.h"

namespace sg::store {
namespace {

Vec3 readVec3(const Json& j, const std::string& what) {
  const auto& items = j.items(what);
  if (items.size() != 3) throw Error(what + ": expected 3 numbers");
  return {items[0].number(what), items[1].number(what), items[2].number(what)};
}

Transform readPose(const Json& j, const std::string& what) {
  const Vec3 t = readVec3(j.at("position_mm", what), what + ".position_mm");
  const auto& q = j.at("quaternion_wxyz", what).items(what + ".quaternion_wxyz");
  if (q.size() != 4) throw Error(what + ".quaternion_wxyz: expected 4 numbers");
  return Transform(Quat(q[0].number(what), q[1].number(what), q[2].number(what), q[3].number(what)), t);
}

}  // namespace

std::string utcNow() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "unknown";
  return name;
}

ModelIdentity modelIdentityFromJson(const Json& identity, const std::string& what) {
  ModelIdentity m;
  m.name = identity.at("name", what).string(what + ".name");
  m.contentHash = identity.at("sha256", what).string(what + ".sha256");
  for (const Json& f : identity.at("files", what).items(what + ".files")) {
    FileHash h;
    h.path = f.at("path", what + ".files").string(what + ".files.path");
    h.sha256 = f.at("sha256", what + ".files").string(what + ".files.sha256");
    h.bytes = static_cast<std::int64_t>(f.at("bytes", what + ".files").number(what + ".files.bytes"));
    m.files.push_back(std::move(h));
  }
  return m;
}

RowRecord rowFromGraspList(const planner::GraspList& list, const Json& provenance, const std::string& contactModel,
                           std::int64_t row, std::int64_t job, const std::string& spec) {
  RowRecord r;
  r.row = row;
  r.job = job;
  r.seed = list.seed;
  r.spec = spec;
  r.contactModel = contactModel;
  r.stopReason = list.stopReason;
  if (const Json* w = provenance.find("world")) {
    const ModelIdentity m = modelIdentityFromJson(*w, "provenance.world");
    r.world = WorldIdentity{m.name, m.contentHash, m.files};
  }
  r.robot = modelIdentityFromJson(provenance.at("robot", "provenance"), "provenance.robot");
  r.object = modelIdentityFromJson(provenance.at("object", "provenance"), "provenance.object");
  // The list names the robot and the object as the planner saw them; the query filters by these names.
  r.robot->name = list.robot;
  r.object->name = list.object;
  const Transform X_OW = readPose(provenance.at("X_WO", "provenance"), "provenance.X_WO").inverse();
  int rank = 0;
  for (const planner::PlannedGrasp& p : list.grasps) {
    GraspRecord g;
    g.rank = ++rank;
    if (std::isfinite(p.energy)) g.energy = p.energy;
    g.X_OP = X_OW * p.grasp.X_WP;
    g.dofs = p.grasp.dofValues;
    g.breakAway = p.grasp.breakAway;
    g.preGrasp_X_OP = X_OW * p.preGrasp.X_WP;
    g.preGraspDofs = p.preGrasp.dofValues;
    g.preGraspBreakAway = p.preGrasp.breakAway;
    g.state = p.variables;
    g.forceClosure = p.forceClosure;
    for (const MeasureValue& m : p.measures) {
      MeasureRecord mr;
      mr.contactModel = contactModel;
      mr.measure = m.measure;
      if (m.ok) mr.value = m.value;
      if (m.ok && m.bounds) {
        mr.lower = m.bounds->lower;
        mr.upper = m.bounds->upper;
      }
      g.measures.push_back(std::move(mr));
    }
    for (const planner::GraspContactRecord& c : p.contacts)
      g.contacts.push_back({c.handBody, c.otherBody, X_OW * c.position_mm, X_OW.applyToVector(c.normal)});
    r.grasps.push_back(std::move(g));
  }
  return r;
}

TrialRecord physicsTrialRecord(const Json& settings, const Json& summary) {
  TrialRecord t;
  t.kind = "physics";
  t.success = summary.at("held", "trial").number("trial.held") == summary.at("tried", "trial").number("trial.tried");
  t.score = summary.at("score", "trial").number("trial.score");
  Json details = Json::object();
  details.set("settings", settings);
  details.set("result", summary);
  t.details = details.dumpLine();
  t.createdAt = utcNow();
  return t;
}

std::size_t attachListTrials(RowRecord& row, const Json& listDoc) {
  const Json* settings = listDoc.find("trialSettings");
  const Json* grasps = listDoc.find("grasps");
  if (!settings || !grasps) return 0;
  const auto& items = grasps->items("list.grasps");
  std::size_t attached = 0;
  for (std::size_t i = 0; i < items.size() && i < row.grasps.size(); ++i) {
    const Json* trial = items[i].find("trial");
    if (!trial || trial->isNull()) continue;  // an interrupted plan --validate: later grasps have none
    try {
      row.grasps[i].trial = physicsTrialRecord(*settings, *trial);
    } catch (const Error& e) {
      throw Error("list.grasps[" + std::to_string(i) + "]." + e.message());
    }
    ++attached;
  }
  return attached;
}

RowRecord rowFromShardRecord(const std::string& recordText) {
  const Json record = Json::parse(recordText);
  const Json& job = record.at("job", "record");
  const auto row = static_cast<std::int64_t>(record.at("row", "record").number("record.row"));
  const auto jobIndex = static_cast<std::int64_t>(job.at("job", "record.job").number("record.job.job"));
  const std::string spec = job.dumpLine();
  if (const Json* e = record.find("error")) {
    RowRecord r;
    r.row = row;
    r.job = jobIndex;
    r.seed = job.at("seed", "record.job").string("record.job.seed");
    r.spec = spec;
    r.error = e->string("record.error");
    if (r.error.empty()) r.error = "failed";
    return r;
  }
  const Json* provenance = record.find("provenance");
  if (!provenance)
    throw Error("row " + std::to_string(row) + " has no provenance (written by a SoftGrasp before the grasp "
                "database): rerun its batch to import it");
  const auto& models = job.at("settings", "record.job").at("contactModel", "record.job.settings")
                           .items("record.job.settings.contactModel");
  if (models.empty()) throw Error("record.job.settings.contactModel: empty");
  const Json& listDoc = record.at("list", "record");
  const planner::GraspList list = planner::graspListFromJson(listDoc.dumpLine());
  RowRecord r = rowFromGraspList(list, *provenance, models.front().string("contactModel"), row, jobIndex, spec);
  (void)attachListTrials(r, listDoc);
  r.seed = job.at("seed", "record.job").string("record.job.seed");
  if (const Json* t = record.find("elapsed_s")) r.elapsed_s = t->number("record.elapsed_s");
  if (const Json* n = record.find("iterations")) r.iterations = static_cast<std::int64_t>(n->number("record.iterations"));
  return r;
}

RunRecord batchRunRecord(const std::string& jobListDigest, std::int64_t rows, const std::string& command,
                         bool withContacts) {
  RunRecord run;
  run.key = "batch:" + jobListDigest;
  run.kind = "batch";
  run.softgraspVersion = versionString();
  run.command = command;
  run.settings = "{}";  // each row's settings are in its spec
  run.host = hostName();
  run.startedAt = utcNow();
  run.jobList = jobListDigest;
  run.rowsTotal = rows;
  run.withContacts = withContacts;
  return run;
}

namespace {

// Rows per transaction of a streamed import: the commit amortised, memory still bounded (a few MB of rows).
constexpr std::size_t kRowsPerTransaction = 64;

// Streams one shard file into `runId`.
void streamShard(GraspStore& store, std::int64_t runId, const std::string& path, ImportSummary& summary) {
  std::vector<RowRecord> pending;
  auto flush = [&] {
    const std::vector<bool> written = store.insertRows(runId, pending);
    for (std::size_t i = 0; i < pending.size(); ++i) {
      if (written[i]) {
        ++summary.inserted;
        summary.grasps += static_cast<std::int64_t>(pending[i].grasps.size());
        for (const GraspRecord& g : pending[i].grasps) summary.trials += g.trial ? 1 : 0;
      } else {
        ++summary.skipped;
      }
    }
    pending.clear();
  };
  const batch::ShardContent content = batch::scanShard(path, [&](long row, const std::string& text) {
    try {
      pending.push_back(rowFromShardRecord(text));
    } catch (const Error& e) {
      summary.problems.push_back(path + ": row " + std::to_string(row) + ": " + e.message());
      return;
    }
    if (pending.size() >= kRowsPerTransaction) flush();
  });
  if (!pending.empty()) flush();
  for (const batch::ShardProblem& p : content.problems)
    summary.problems.push_back(path + ":" + std::to_string(p.line) + ": " + p.problem);
  ++summary.files;
}

}  // namespace

ImportSummary importShardFile(GraspStore& store, const std::string& path, const std::string& command,
                              bool withContacts) {
  std::string why;
  const auto header = batch::readShardHeader(path, why);
  if (!header) throw Error("not a shard file: " + why, path);
  ImportSummary summary;
  const std::int64_t runId = store.beginRun(batchRunRecord(header->jobList, header->rows, command, withContacts));
  streamShard(store, runId, path, summary);
  summary.rowsTotal = header->rows;
  summary.rowsStored = static_cast<std::int64_t>(store.rowsDone(runId).size());
  return summary;
}

ImportSummary importShardFolder(GraspStore& store, const std::string& dir, const std::string& command,
                                bool withContacts) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error("no such shard folder", dir);
  std::map<int, std::string> files;  // shard → path
  std::vector<std::string> problems;
  std::optional<batch::ShardHeader> first;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto parsed = batch::parseShardFileName(entry.path().filename().string());
    if (!parsed) continue;
    const std::string path = entry.path().string();
    std::string why;
    const auto header = batch::readShardHeader(path, why);
    if (!header) {
      problems.push_back(path + ": not a shard file: " + why);
      continue;
    }
    if (header->shard != parsed->first || header->shards != parsed->second)
      problems.push_back(path + ": its header says shard " + std::to_string(header->shard) + " of " +
                         std::to_string(header->shards));
    if (!first) first = header;
    if (header->shards != first->shards) problems.push_back(path + ": shard files of more than one sharding");
    if (header->jobList != first->jobList) problems.push_back(path + ": shards of another job list");
    files[header->shard] = path;
  }
  if (!first && problems.empty()) throw Error("no shard files (shard-K-of-N.jsonl)", dir);
  if (first)
    for (int k = 0; k < first->shards; ++k)
      if (!files.count(k)) problems.push_back("shard " + batch::shardFileName(k, first->shards) + " is missing");
  if (!problems.empty()) {
    std::string message = "cannot be imported:";
    for (std::size_t i = 0; i < problems.size() && i < 10; ++i) message += "\n  " + problems[i];
    if (problems.size() > 10) message += "\n  … (" + std::to_string(problems.size()) + " problems)";
    throw Error(message, dir);
  }
  ImportSummary summary;
  const std::int64_t runId = store.beginRun(batchRunRecord(first->jobList, first->rows, command, withContacts));
  for (const auto& [shard, path] : files) streamShard(store, runId, path, summary);
  summary.rowsTotal = first->rows;
  const std::set<std::int64_t> done = store.rowsDone(runId);
  summary.rowsStored = static_cast<std::int64_t>(done.size());
  std::vector<std::int64_t> missing;
  for (std::int64_t r = 0; r < first->rows; ++r)
    if (!done.count(r)) missing.push_back(r);
  if (!missing.empty()) {
    std::string list;
    for (std::size_t i = 0; i < missing.size() && i < 12; ++i) list += (i ? ", " : "") + std::to_string(missing[i]);
    if (missing.size() > 12) list += ", … (" + std::to_string(missing.size()) + " rows)";
    summary.problems.push_back(dir + ": rows missing from the shards: " + list);
  }
  if (summary.problems.empty()) store.endRun(runId, utcNow(), "merged");
  return summary;
}

}  // namespace sg::store
