#include "store/GraspStore.h"

#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/Error.h"
#include "core/Json.h"
#include "core/JsonGeometry.h"
#include "grasp/planner/GraspList.h"
#include "store/Schema.h"

namespace sg::store {
namespace {

constexpr const char* kPoseColumns = "x_mm, y_mm, z_mm, qw, qx, qy, qz";
constexpr const char* kPrePoseColumns = "pre_x_mm, pre_y_mm, pre_z_mm, pre_qw, pre_qx, pre_qy, pre_qz";

void bindOptional(Statement& s, int index, const std::optional<double>& v) {
  if (v) s.bindDouble(index, *v);
  else s.bindNull(index);
}
// The 7 parameters of an INSERT INTO trials (grasp_id, kind, run_id, success, score, details, created_at).
void bindTrial(Statement& s, const TrialRecord& trial) {
  s.bindInt(1, trial.graspId);
  s.bindText(2, trial.kind);
  if (trial.runId) s.bindInt(3, *trial.runId);
  else s.bindNull(3);
  if (trial.success) s.bindInt(4, *trial.success ? 1 : 0);
  else s.bindNull(4);
  bindOptional(s, 5, trial.score);
  s.bindText(6, trial.details);
  s.bindText(7, trial.createdAt);
}
std::optional<double> optionalColumn(const Statement& s, int column) {
  if (s.isNull(column)) return std::nullopt;
  return s.columnDouble(column);
}

std::string numbersText(const std::vector<double>& values) { return jsonNumbers(values).dumpLine(); }
std::vector<double> numbersFromText(const std::string& text) {
  std::vector<double> out;
  if (text.empty()) return out;
  const Json array = Json::parse(text);  // kept: a range-for over a temporary's member dangles before C++23
  for (const Json& v : array.items("numbers"))
    out.push_back(v.isNull() ? std::numeric_limits<double>::quiet_NaN() : v.number("number"));
  return out;
}

// Binds a pose's seven numbers from `index` on; returns the next index.
int bindPose(Statement& s, int index, const Transform& X) {
  const Vec3& t = X.translation();
  const Quat& q = X.rotation();
  for (const double v : {t.x(), t.y(), t.z(), q.w(), q.x(), q.y(), q.z()}) s.bindDouble(index++, v);
  return index;
}
Transform poseColumnsAt(const Statement& s, int column) {
  const Vec3 t(s.columnDouble(column), s.columnDouble(column + 1), s.columnDouble(column + 2));
  const Quat q(s.columnDouble(column + 3), s.columnDouble(column + 4), s.columnDouble(column + 5),
               s.columnDouble(column + 6));
  return Transform(q, t);
}

}  // namespace

// The statements a write uses, prepared once per store.
struct GraspStore::Statements {
  std::unique_ptr<Statement> findRun, insertRun, endRun, rowExists, insertRow, insertGrasp, insertMeasure,
      insertContact, insertTrial;
  std::map<std::string, std::unique_ptr<Statement>> findModel, insertModel, insertFile;
};

std::unique_ptr<GraspStore> GraspStore::open(const std::string& url, OpenMode mode) {
  return std::make_unique<GraspStore>(openConnection(url, mode), mode);
}

GraspStore::GraspStore(std::unique_ptr<Connection> connection, OpenMode mode)
    : connection_(std::move(connection)), statements_(std::make_unique<Statements>()) {
  if (mode == OpenMode::ReadWrite) upgradeSchema(*connection_);
  else checkSchemaCurrent(*connection_);
}

GraspStore::~GraspStore() = default;

std::int64_t GraspStore::beginRun(const RunRecord& run) {
  Statements& st = *statements_;
  if (!st.findRun) {
    st.findRun = connection_->prepare("SELECT id FROM runs WHERE run_key = ?");
    st.insertRun = connection_->prepare(
        "INSERT INTO runs (run_key, kind, softgrasp_version, command, settings, seed, host, started_at, ended_at, "
        "stop_reason, job_list, rows_total, with_contacts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (run_key) DO NOTHING");
  }
  std::int64_t id = 0;
  connection_->transaction([&] {
    Statement& ins = *st.insertRun;
    ins.reset();
    int i = 1;
    for (const std::string* v : {&run.key, &run.kind, &run.softgraspVersion, &run.command, &run.settings, &run.seed,
                                 &run.host, &run.startedAt, &run.endedAt, &run.stopReason, &run.jobList})
      ins.bindText(i++, *v);
    ins.bindInt(i++, run.rowsTotal);
    ins.bindInt(i++, run.withContacts ? 1 : 0);
    ins.step();
    Statement& find = *st.findRun;
    find.reset();
    find.bindText(1, run.key);
    if (!find.step()) throw Error("run " + run.key + " was not stored", url());
    id = find.columnInt(0);
    find.reset();
  });
  return id;
}

void GraspStore::endRun(std::int64_t runId, const std::string& endedAt, const std::string& stopReason) {
  Statements& st = *statements_;
  if (!st.endRun)
    // ISO 8601 UTC strings order as their times do, so the later end is the larger string.
    st.endRun = connection_->prepare(
        "UPDATE runs SET ended_at = ?, stop_reason = ? WHERE id = ? AND ended_at <= ?");
  connection_->transaction([&] {
    st.endRun->reset();
    st.endRun->bindText(1, endedAt);
    st.endRun->bindText(2, stopReason);
    st.endRun->bindInt(3, runId);
    st.endRun->bindText(4, endedAt);
    st.endRun->step();
  });
}

std::optional<RunRecord> GraspStore::run(const std::string& key) {
  auto s = connection_->prepare(
      "SELECT run_key, kind, softgrasp_version, command, settings, seed, host, started_at, ended_at, stop_reason, "
      "job_list, rows_total, with_contacts FROM runs WHERE run_key = ?");
  s->bindText(1, key);
  if (!s->step()) return std::nullopt;
  RunRecord r;
  int c = 0;
  for (std::string* v : {&r.key, &r.kind, &r.softgraspVersion, &r.command, &r.settings, &r.seed, &r.host,
                         &r.startedAt, &r.endedAt, &r.stopReason, &r.jobList})
    *v = s->columnText(c++);
  r.rowsTotal = s->columnInt(c++);
  r.withContacts = s->columnInt(c++) != 0;
  return r;
}

std::set<std::int64_t> GraspStore::rowsDone(std::int64_t runId) {
  auto s = connection_->prepare("SELECT row_index FROM run_rows WHERE run_id = ?");
  s->bindInt(1, runId);
  std::set<std::int64_t> out;
  while (s->step()) out.insert(s->columnInt(0));
  return out;
}

namespace {

// The id of a robot, an object or a world with this hash and name (or path), inserted with its files when
// new. `table` is robots, objects or worlds; `nameColumn` name or path.
std::int64_t modelId(Connection& c, std::map<std::string, std::unique_ptr<Statement>>& find,
                     std::map<std::string, std::unique_ptr<Statement>>& insert,
                     std::map<std::string, std::unique_ptr<Statement>>& insertFile, const std::string& table,
                     const std::string& owner, const std::string& nameColumn, const std::string& name,
                     const std::string& contentHash, const std::vector<FileHash>& files) {
  auto& f = find[table];
  if (!f) f = c.prepare("SELECT id FROM " + table + " WHERE content_hash = ? AND " + nameColumn + " = ?");
  f->reset();
  f->bindText(1, contentHash);
  f->bindText(2, name);
  if (f->step()) {
    const std::int64_t id = f->columnInt(0);
    f->reset();
    return id;
  }
  f->reset();
  auto& ins = insert[table];
  if (!ins)
    ins = c.prepare("INSERT INTO " + table + " (" + nameColumn + ", content_hash) VALUES (?, ?) "
                    "ON CONFLICT (content_hash, " + nameColumn + ") DO NOTHING RETURNING id");
  ins->reset();
  ins->bindText(1, name);
  ins->bindText(2, contentHash);
  if (!ins->step()) {
    // Inserted by a concurrent writer between the two statements (PostgreSQL; SQLite holds the write lock).
    ins->reset();
    f->bindText(1, contentHash);
    f->bindText(2, name);
    if (!f->step()) throw Error(table + " entry " + name + " was not stored", c.url());
    const std::int64_t id = f->columnInt(0);
    f->reset();
    return id;
  }
  const std::int64_t id = ins->columnInt(0);
  ins->reset();
  auto& fi = insertFile[table];
  if (!fi)
    fi = c.prepare("INSERT INTO " + owner + "_files (" + owner + "_id, file_index, path, sha256, bytes) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT (" + owner + "_id, file_index) DO NOTHING");
  for (std::size_t i = 0; i < files.size(); ++i) {
    fi->reset();
    fi->bindInt(1, id);
    fi->bindInt(2, static_cast<std::int64_t>(i));
    fi->bindText(3, files[i].path);
    fi->bindText(4, files[i].sha256);
    fi->bindInt(5, files[i].bytes);
    fi->step();
  }
  return id;
}

}  // namespace

bool GraspStore::insertRow(std::int64_t runId, const RowRecord& row) {
  bool inserted = false;
  connection_->transaction([&] { inserted = writeRow(runId, row); });
  return inserted;
}

std::vector<bool> GraspStore::insertRows(std::int64_t runId, const std::vector<RowRecord>& rows) {
  std::vector<bool> inserted;
  connection_->transaction([&] {
    inserted.clear();
    for (const RowRecord& r : rows) inserted.push_back(writeRow(runId, r));
  });
  return inserted;
}

bool GraspStore::writeRow(std::int64_t runId, const RowRecord& row) {
  Statements& st = *statements_;
  Connection& c = *connection_;
  if (!st.rowExists) {
    st.rowExists = c.prepare("SELECT with_contacts, (SELECT id FROM run_rows WHERE run_id = ? AND row_index = ?) "
                             "FROM runs WHERE id = ?");
    st.insertRow = c.prepare(
        "INSERT INTO run_rows (run_id, row_index, job, seed, spec, world_id, robot_id, object_id, contact_model, "
        "elapsed_s, iterations, stop_reason, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (run_id, row_index) DO NOTHING RETURNING id");
    st.insertGrasp = c.prepare(
        std::string("INSERT INTO grasps (run_id, row_id, job, seed, grasp_rank, robot_id, object_id, energy, "
                    "force_closure, ") + kPoseColumns + ", dofs, " + kPrePoseColumns +
        ", pre_dofs, state, break_away, pre_break_away) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (run_id, job, seed, grasp_rank) DO NOTHING RETURNING id");
    st.insertMeasure = c.prepare(
        "INSERT INTO grasp_measures (grasp_id, contact_model, measure, value, lower_bound, upper_bound, robot_id, "
        "object_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (grasp_id, contact_model, measure) DO NOTHING");
    st.insertContact = c.prepare(
        "INSERT INTO contacts (grasp_id, contact_index, hand_body, other_body, px_mm, py_mm, pz_mm, nx, ny, nz) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (grasp_id, contact_index) DO NOTHING");
    st.insertTrial = c.prepare(
        "INSERT INTO trials (grasp_id, kind, run_id, success, score, details, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)");
  }
  if (row.error.empty() && (!row.robot || !row.object))
    throw Error("row " + std::to_string(row.row) + " has grasps but no robot or object identity", url());
  {
    Statement& exists = *st.rowExists;
    exists.reset();
    exists.bindInt(1, runId);
    exists.bindInt(2, row.row);
    exists.bindInt(3, runId);
    if (!exists.step()) throw Error("no run with id " + std::to_string(runId), url());
    const bool withContacts = exists.columnInt(0) != 0;
    const bool already = !exists.isNull(1);
    exists.reset();
    if (already) return false;

    std::optional<std::int64_t> worldId, robotId, objectId;
    if (row.world)
      worldId = modelId(c, st.findModel, st.insertModel, st.insertFile, "worlds", "world", "path", row.world->path,
                        row.world->contentHash, row.world->files);
    if (row.robot)
      robotId = modelId(c, st.findModel, st.insertModel, st.insertFile, "robots", "robot", "name", row.robot->name,
                        row.robot->contentHash, row.robot->files);
    if (row.object)
      objectId = modelId(c, st.findModel, st.insertModel, st.insertFile, "objects", "object", "name",
                         row.object->name, row.object->contentHash, row.object->files);

    Statement& ins = *st.insertRow;
    ins.reset();
    ins.bindInt(1, runId);
    ins.bindInt(2, row.row);
    ins.bindInt(3, row.job);
    ins.bindText(4, row.seed);
    ins.bindText(5, row.spec);
    auto bindId = [&](int i, const std::optional<std::int64_t>& id) {
      if (id) ins.bindInt(i, *id);
      else ins.bindNull(i);
    };
    bindId(6, worldId);
    bindId(7, robotId);
    bindId(8, objectId);
    ins.bindText(9, row.contactModel);
    ins.bindDouble(10, row.elapsed_s);
    ins.bindInt(11, row.iterations);
    ins.bindText(12, row.stopReason);
    ins.bindText(13, row.error);
    if (!ins.step()) {  // a concurrent writer stored it first
      ins.reset();
      return false;
    }
    const std::int64_t rowId = ins.columnInt(0);
    ins.reset();

    for (const GraspRecord& g : row.grasps) {
      Statement& gs = *st.insertGrasp;
      gs.reset();
      int i = 1;
      gs.bindInt(i++, runId);
      gs.bindInt(i++, rowId);
      gs.bindInt(i++, row.job);
      gs.bindText(i++, row.seed);
      gs.bindInt(i++, g.rank);
      gs.bindInt(i++, *robotId);
      gs.bindInt(i++, *objectId);
      bindOptional(gs, i++, g.energy);
      gs.bindInt(i++, g.forceClosure ? 1 : 0);
      i = bindPose(gs, i, g.X_OP);
      gs.bindText(i++, numbersText(g.dofs));
      i = bindPose(gs, i, g.preGrasp_X_OP);
      gs.bindText(i++, numbersText(g.preGraspDofs));
      gs.bindText(i++, numbersText(g.state));
      gs.bindText(i++, planner::breakAwayToJson(g.breakAway).dumpLine());
      gs.bindText(i++, planner::breakAwayToJson(g.preGraspBreakAway).dumpLine());
      if (!gs.step()) {  // (run, job, seed, rank) stored by another row of the same job and seed
        gs.reset();
        continue;
      }
      const std::int64_t graspId = gs.columnInt(0);
      gs.reset();
      for (const MeasureRecord& m : g.measures) {
        Statement& ms = *st.insertMeasure;
        ms.reset();
        ms.bindInt(1, graspId);
        ms.bindText(2, m.contactModel.empty() ? row.contactModel : m.contactModel);
        ms.bindText(3, m.measure);
        bindOptional(ms, 4, m.value);
        bindOptional(ms, 5, m.lower);
        bindOptional(ms, 6, m.upper);
        ms.bindInt(7, *robotId);
        ms.bindInt(8, *objectId);
        ms.step();
      }
      // The trial comes with a new grasp only, so a row stored again (skipped above) adds no trial twice.
      if (g.trial) {
        TrialRecord t = *g.trial;
        t.graspId = graspId;
        t.runId = runId;
        bindTrial(*st.insertTrial, t);
        st.insertTrial->step();
        st.insertTrial->reset();
      }
      if (!withContacts) continue;
      for (std::size_t k = 0; k < g.contacts.size(); ++k) {
        const ContactRecord& cr = g.contacts[k];
        Statement& cs = *st.insertContact;
        cs.reset();
        cs.bindInt(1, graspId);
        cs.bindInt(2, static_cast<std::int64_t>(k));
        cs.bindText(3, cr.handBody);
        cs.bindText(4, cr.otherBody);
        int j = 5;
        for (const double v : {cr.p_OC_mm.x(), cr.p_OC_mm.y(), cr.p_OC_mm.z(), cr.n_O.x(), cr.n_O.y(), cr.n_O.z()})
          cs.bindDouble(j++, v);
        cs.step();
      }
    }
  }
  return true;
}

std::int64_t GraspStore::insertTrial(const TrialRecord& trial) {
  auto s = connection_->prepare(
      "INSERT INTO trials (grasp_id, kind, run_id, success, score, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
      "RETURNING id");
  std::int64_t id = 0;
  connection_->transaction([&] {
    s->reset();
    bindTrial(*s, trial);
    if (!s->step()) throw Error("the trial was not stored", url());
    id = s->columnInt(0);
    s->reset();
  });
  return id;
}

namespace {

// The ids of the robots or objects named `name` (several when files changed under one name).
std::vector<std::int64_t> idsNamed(Connection& c, const std::string& table, const std::string& name) {
  auto s = c.prepare("SELECT id FROM " + table + " WHERE name = ? ORDER BY id");
  s->bindText(1, name);
  std::vector<std::int64_t> ids;
  while (s->step()) ids.push_back(s->columnInt(0));
  return ids;
}

std::string inList(const std::string& column, std::size_t n) {
  if (n == 1) return column + " = ?";
  std::string s = column + " IN (";
  for (std::size_t i = 0; i < n; ++i) s += i ? ", ?" : "?";
  return s + ")";
}

// Grasps read per chunk of GraspStore::query (the measures and contacts statements bind one id each, well
// under SQLite's 32766 parameters).
constexpr std::size_t kQueryChunk = 256;

// The query's row at the statement's current result (columns as GraspStore::query selects them), without
// measures and contacts.
GraspRow graspRowAt(const Statement& s, bool withMeasure, bool& withContacts) {
  GraspRow r;
  r.id = s.columnInt(0);
  r.run = s.columnText(1);
  r.row = s.columnInt(2);
  r.job = s.columnInt(3);
  r.seed = s.columnText(4);
  r.robot = s.columnText(5);
  r.robotHash = s.columnText(6);
  r.object = s.columnText(7);
  r.objectHash = s.columnText(8);
  r.world = s.columnText(9);
  r.primaryModel = s.columnText(10);
  GraspRecord& g = r.grasp;
  g.rank = static_cast<int>(s.columnInt(11));
  g.energy = optionalColumn(s, 12);
  g.forceClosure = s.columnInt(13) != 0;
  g.X_OP = poseColumnsAt(s, 14);
  g.dofs = numbersFromText(s.columnText(21));
  g.preGrasp_X_OP = poseColumnsAt(s, 22);
  g.preGraspDofs = numbersFromText(s.columnText(29));
  g.state = numbersFromText(s.columnText(30));
  withContacts = s.columnInt(31) != 0;
  g.breakAway = planner::breakAwayFromJson(Json::parse(s.columnText(32)), "grasp " + std::to_string(r.id) + " break_away");
  g.preGraspBreakAway = planner::breakAwayFromJson(Json::parse(s.columnText(33)),
                                                   "grasp " + std::to_string(r.id) + " pre_break_away");
  if (withMeasure) r.value = optionalColumn(s, 34);
  return r;
}

// Fills the measures (every one stored) and, where `withContacts`, the contacts of `rows`: one statement each
// for all of them, ordered by grasp and then as one grasp's were always read (model, measure; contact index).
void readChunkDetails(Connection& c, std::vector<GraspRow>& rows, const std::vector<bool>& withContacts) {
  std::unordered_map<std::int64_t, GraspRow*> byId;
  std::vector<std::int64_t> ids, contactIds;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    byId[rows[k].id] = &rows[k];
    ids.push_back(rows[k].id);
    if (withContacts[k]) contactIds.push_back(rows[k].id);
  }
  const auto rowOf = [&](std::int64_t id) -> GraspRecord& {
    const auto it = byId.find(id);
    if (it == byId.end()) throw Error("grasp " + std::to_string(id) + " was not asked for", c.url());
    return it->second->grasp;
  };
  auto measures = c.prepare(
      "SELECT grasp_id, contact_model, measure, value, lower_bound, upper_bound FROM grasp_measures WHERE " +
      inList("grasp_id", ids.size()) + " ORDER BY grasp_id, contact_model, measure");
  int i = 1;
  for (const std::int64_t id : ids) measures->bindInt(i++, id);
  while (measures->step()) {
    MeasureRecord m;
    m.contactModel = measures->columnText(1);
    m.measure = measures->columnText(2);
    m.value = optionalColumn(*measures, 3);
    m.lower = optionalColumn(*measures, 4);
    m.upper = optionalColumn(*measures, 5);
    rowOf(measures->columnInt(0)).measures.push_back(std::move(m));
  }
  if (contactIds.empty()) return;
  auto contacts = c.prepare(
      "SELECT grasp_id, hand_body, other_body, px_mm, py_mm, pz_mm, nx, ny, nz FROM contacts WHERE " +
      inList("grasp_id", contactIds.size()) + " ORDER BY grasp_id, contact_index");
  i = 1;
  for (const std::int64_t id : contactIds) contacts->bindInt(i++, id);
  while (contacts->step()) {
    ContactRecord cr;
    cr.handBody = contacts->columnText(1);
    cr.otherBody = contacts->columnText(2);
    cr.p_OC_mm = Vec3(contacts->columnDouble(3), contacts->columnDouble(4), contacts->columnDouble(5));
    cr.n_O = Vec3(contacts->columnDouble(6), contacts->columnDouble(7), contacts->columnDouble(8));
    rowOf(contacts->columnInt(0)).contacts.push_back(std::move(cr));
  }
}

}  // namespace

void GraspStore::query(const GraspQuery& q, const std::function<void(const GraspRow&)>& visit) {
  Connection& c = *connection_;
  if (q.minValue && q.measure.empty()) throw Error("a minimum value needs a measure to compare it with");
  if (q.order == GraspQuery::Order::Measure && q.measure.empty()) throw Error("ordering by measure needs a measure");
  std::vector<std::int64_t> robots, objects;
  if (!q.robot.empty() && (robots = idsNamed(c, "robots", q.robot)).empty()) return;
  if (!q.object.empty() && (objects = idsNamed(c, "objects", q.object)).empty()) return;
  const bool withMeasure = !q.measure.empty();
  // With a measure, the query starts from grasp_measures (its index grasp_measures_top orders by value).
  const std::string rcol = withMeasure ? "m.robot_id" : "g.robot_id";
  const std::string ocol = withMeasure ? "m.object_id" : "g.object_id";
  std::string sql =
      std::string("SELECT g.id, r.run_key, rr.row_index, g.job, g.seed, rb.name, rb.content_hash, ob.name, "
                  "ob.content_hash, w.path, rr.contact_model, g.grasp_rank, g.energy, g.force_closure, ") +
      "g.x_mm, g.y_mm, g.z_mm, g.qw, g.qx, g.qy, g.qz, g.dofs, g.pre_x_mm, g.pre_y_mm, g.pre_z_mm, g.pre_qw, "
      "g.pre_qx, g.pre_qy, g.pre_qz, g.pre_dofs, g.state, r.with_contacts, g.break_away, g.pre_break_away" +
      (withMeasure ? ", m.value" : "") + " FROM ";
  if (withMeasure) sql += "grasp_measures m JOIN grasps g ON g.id = m.grasp_id ";
  else sql += "grasps g ";
  sql += "JOIN run_rows rr ON rr.id = g.row_id JOIN runs r ON r.id = g.run_id JOIN robots rb ON rb.id = g.robot_id "
         "JOIN objects ob ON ob.id = g.object_id LEFT JOIN worlds w ON w.id = rr.world_id WHERE 1 = 1";
  if (!robots.empty()) sql += " AND " + inList(rcol, robots.size());
  if (!objects.empty()) sql += " AND " + inList(ocol, objects.size());
  if (withMeasure) {
    sql += q.contactModel.empty() ? " AND m.contact_model = rr.contact_model" : " AND m.contact_model = ?";
    sql += " AND m.measure = ?";
    if (q.minValue) sql += " AND m.value >= ?";
  }
  if (q.forceClosure) sql += " AND g.force_closure = ?";
  if (!q.run.empty()) sql += " AND r.run_key = ?";
  if (q.row) sql += " AND rr.row_index = ?";
  if (q.graspId) sql += " AND g.id = ?";
  if (q.minTrialScore) sql += " AND EXISTS (SELECT 1 FROM trials t WHERE t.grasp_id = g.id AND t.score >= ?)";
  switch (q.order) {
    case GraspQuery::Order::Measure: sql += " ORDER BY m.value DESC NULLS LAST, g.id"; break;
    case GraspQuery::Order::Energy: sql += " ORDER BY g.energy ASC NULLS LAST, g.id"; break;
    case GraspQuery::Order::Row: sql += " ORDER BY g.run_id, rr.row_index, g.grasp_rank, g.id"; break;
    case GraspQuery::Order::TrialScore:
      sql += " ORDER BY (SELECT MAX(t.score) FROM trials t WHERE t.grasp_id = g.id) DESC NULLS LAST, g.id";
      break;
  }
  if (q.limit > 0) sql += " LIMIT ?";

  auto s = c.prepare(sql);
  int i = 1;
  for (const std::int64_t id : robots) s->bindInt(i++, id);
  for (const std::int64_t id : objects) s->bindInt(i++, id);
  if (withMeasure) {
    if (!q.contactModel.empty()) s->bindText(i++, q.contactModel);
    s->bindText(i++, q.measure);
    if (q.minValue) s->bindDouble(i++, *q.minValue);
  }
  if (q.forceClosure) s->bindInt(i++, *q.forceClosure ? 1 : 0);
  if (!q.run.empty()) s->bindText(i++, q.run);
  if (q.row) s->bindInt(i++, *q.row);
  if (q.graspId) s->bindInt(i++, *q.graspId);
  if (q.minTrialScore) s->bindDouble(i++, *q.minTrialScore);
  if (q.limit > 0) s->bindInt(i++, q.limit);

  // The grasps are read in chunks; each chunk's measures and contacts come with one statement each (keyed by
  // the chunk's ids), not one per grasp: a round trip per grasp dominated the top-100 query on PostgreSQL
  // (src/store/POSTGRES.md §Performance and limits). Memory stays bounded by the chunk, not the result.
  std::vector<GraspRow> chunk;
  std::vector<bool> chunkWithContacts;
  chunk.reserve(kQueryChunk);
  bool more = true;
  while (more) {
    chunk.clear();
    chunkWithContacts.clear();
    while (chunk.size() < kQueryChunk && (more = s->step())) {
      bool withContacts = false;
      chunk.push_back(graspRowAt(*s, withMeasure, withContacts));
      chunkWithContacts.push_back(withContacts);
    }
    if (chunk.empty()) break;
    readChunkDetails(c, chunk, chunkWithContacts);
    for (const GraspRow& r : chunk) visit(r);
  }
}

StoreInfo GraspStore::info() {
  Connection& c = *connection_;
  StoreInfo out;
  out.schemaVersion = readSchemaVersion(c);
  out.backend = c.backend() == Backend::Sqlite ? "sqlite" : "postgresql";
  out.url = c.url();
  out.sizeBytes = c.sizeBytes();
  const std::pair<const char*, std::int64_t*> counts[] = {
      {"SELECT COUNT(*) FROM robots", &out.robots},
      {"SELECT COUNT(*) FROM objects", &out.objects},
      {"SELECT COUNT(*) FROM worlds", &out.worlds},
      {"SELECT COUNT(*) FROM runs", &out.runs},
      {"SELECT COUNT(*) FROM run_rows", &out.rows},
      {"SELECT COUNT(*) FROM run_rows WHERE error <> ''", &out.failedRows},
      {"SELECT COUNT(*) FROM grasps", &out.grasps},
      {"SELECT COUNT(*) FROM grasp_measures", &out.measures},
      {"SELECT COUNT(*) FROM contacts", &out.contacts},
      {"SELECT COUNT(*) FROM trials", &out.trials},
  };
  for (const auto& [sql, target] : counts) {
    auto s = c.prepare(sql);
    *target = s->step() ? s->columnInt(0) : 0;
  }
  return out;
}

}  // namespace sg::store
