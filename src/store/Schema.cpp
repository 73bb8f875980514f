#include "store/Schema.h"

#include "core/Error.h"
#include "core/Version.h"
#include "store/Import.h"  // utcNow

namespace sg::store {
namespace {

// The columns of a pose: position in mm, then the w-first quaternion (prefix "" or "pre_").
std::string poseColumns(const std::string& prefix) {
  std::string s;
  for (const char* c : {"x_mm", "y_mm", "z_mm", "qw", "qx", "qy", "qz"})
    s += prefix + c + " DOUBLE PRECISION NOT NULL, ";
  return s;
}

// Files of a robot, an object or a world, in load order.
std::string filesTable(const std::string& owner) {
  return "CREATE TABLE " + owner + "_files (" + owner + "_id BIGINT NOT NULL REFERENCES " + owner +
         "s(id), file_index INTEGER NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL, bytes BIGINT NOT NULL, "
         "PRIMARY KEY (" + owner + "_id, file_index))";
}

}  // namespace

// Written in the SQL both backends accept: TEXT, BIGINT, INTEGER, DOUBLE PRECISION; booleans as INTEGER 0/1;
// the auto-numbered key is the connection's autoIdColumn(). Column names avoid words either dialect reserves
// (row, rank, lower, upper).
std::vector<std::string> migrationStatements(int version, const Connection& connection) {
  const std::string id = "id " + connection.autoIdColumn();
  switch (version) {
    case 1:
      return {
        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL, "
        "softgrasp_version TEXT NOT NULL)",
        "CREATE TABLE robots (" + id + ", name TEXT NOT NULL, content_hash TEXT NOT NULL, "
        "UNIQUE (content_hash, name))",
        filesTable("robot"),
        "CREATE TABLE objects (" + id + ", name TEXT NOT NULL, content_hash TEXT NOT NULL, "
        "UNIQUE (content_hash, name))",
        filesTable("object"),
        "CREATE TABLE worlds (" + id + ", path TEXT NOT NULL, content_hash TEXT NOT NULL, "
        "UNIQUE (content_hash, path))",
        filesTable("world"),
        "CREATE TABLE runs (" + id + ", run_key TEXT NOT NULL UNIQUE, kind TEXT NOT NULL, "
        "softgrasp_version TEXT NOT NULL, command TEXT NOT NULL, settings TEXT NOT NULL, seed TEXT NOT NULL, "
        "host TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT NOT NULL, stop_reason TEXT NOT NULL, "
        "job_list TEXT NOT NULL, rows_total BIGINT NOT NULL, with_contacts INTEGER NOT NULL)",
        // One unit of work: a batch row or a plan's grasp list. error non-empty = a failed row (no grasps).
        "CREATE TABLE run_rows (" + id + ", run_id BIGINT NOT NULL REFERENCES runs(id), "
        "row_index BIGINT NOT NULL, job BIGINT NOT NULL, seed TEXT NOT NULL, spec TEXT NOT NULL, "
        "world_id BIGINT REFERENCES worlds(id), robot_id BIGINT REFERENCES robots(id), "
        "object_id BIGINT REFERENCES objects(id), contact_model TEXT NOT NULL, elapsed_s DOUBLE PRECISION, "
        "iterations BIGINT NOT NULL, stop_reason TEXT NOT NULL, error TEXT NOT NULL, "
        "UNIQUE (run_id, row_index))",
        "CREATE TABLE grasps (" + id + ", run_id BIGINT NOT NULL REFERENCES runs(id), "
        "row_id BIGINT NOT NULL REFERENCES run_rows(id), job BIGINT NOT NULL, seed TEXT NOT NULL, "
        "grasp_rank INTEGER NOT NULL, robot_id BIGINT NOT NULL REFERENCES robots(id), "
        "object_id BIGINT NOT NULL REFERENCES objects(id), energy DOUBLE PRECISION, "
        "force_closure INTEGER NOT NULL, " + poseColumns("") + "dofs TEXT NOT NULL, " + poseColumns("pre_") +
        "pre_dofs TEXT NOT NULL, state TEXT NOT NULL, UNIQUE (run_id, job, seed, grasp_rank))",
        "CREATE INDEX grasps_row ON grasps (row_id)",
        "CREATE INDEX grasps_robot_object ON grasps (robot_id, object_id, energy)",
        // robot_id and object_id repeat the grasp's so that "top N of this hand on this object under this model
        // by this measure" is one range of grasp_measures_top (src/store/README.md §Indexes).
        "CREATE TABLE grasp_measures (grasp_id BIGINT NOT NULL REFERENCES grasps(id), "
        "contact_model TEXT NOT NULL, measure TEXT NOT NULL, value DOUBLE PRECISION, "
        "lower_bound DOUBLE PRECISION, upper_bound DOUBLE PRECISION, robot_id BIGINT NOT NULL, "
        "object_id BIGINT NOT NULL, PRIMARY KEY (grasp_id, contact_model, measure))",
        "CREATE INDEX grasp_measures_top ON grasp_measures (robot_id, object_id, contact_model, measure, value)",
        "CREATE INDEX grasp_measures_any ON grasp_measures (contact_model, measure, value)",
        "CREATE TABLE contacts (grasp_id BIGINT NOT NULL REFERENCES grasps(id), contact_index INTEGER NOT NULL, "
        "hand_body TEXT NOT NULL, other_body TEXT NOT NULL, px_mm DOUBLE PRECISION NOT NULL, "
        "py_mm DOUBLE PRECISION NOT NULL, pz_mm DOUBLE PRECISION NOT NULL, nx DOUBLE PRECISION NOT NULL, "
        "ny DOUBLE PRECISION NOT NULL, nz DOUBLE PRECISION NOT NULL, PRIMARY KEY (grasp_id, contact_index))",
      };
    case 2:
      // Results that come later (physics trials, ...), keyed by grasp.
      return {
        "CREATE TABLE trials (" + id + ", grasp_id BIGINT NOT NULL REFERENCES grasps(id), kind TEXT NOT NULL, "
        "run_id BIGINT REFERENCES runs(id), success INTEGER, score DOUBLE PRECISION, details TEXT NOT NULL, "
        "created_at TEXT NOT NULL)",
        "CREATE INDEX trials_grasp ON trials (grasp_id, kind)",
      };
    case 3:
      // The final grasp's joints in break-away (GraspRecord::breakAway): the grasp list's JSON array, "[]" for
      // none (every grasp stored before it: their hands were stored without it).
      return {"ALTER TABLE grasps ADD COLUMN break_away TEXT NOT NULL DEFAULT '[]'"};
    case 4:
      // The pre-grasp's joints in break-away (GraspRecord::preGraspBreakAway), as break_away: "[]" for none
      // (every grasp stored before it).
      return {"ALTER TABLE grasps ADD COLUMN pre_break_away TEXT NOT NULL DEFAULT '[]'"};
    default:
      throw Error("no schema migration " + std::to_string(version));
  }
}

int readSchemaVersion(Connection& connection) {
  if (!connection.tableExists("schema_version")) {
    // A database with tables of its own but no schema_version is someone else's: never write into it.
    if (connection.tableExists("grasps") || connection.tableExists("runs"))
      throw Error("not a SoftGrasp grasp database (it has no schema_version table)", connection.url());
    return 0;
  }
  auto s = connection.prepare("SELECT MAX(version) FROM schema_version");
  return s->step() && !s->isNull(0) ? static_cast<int>(s->columnInt(0)) : 0;
}

namespace {
[[noreturn]] void refuseNewer(Connection& connection, int found) {
  throw Error("the database has schema version " + std::to_string(found) + ", newer than this SoftGrasp (" +
                  versionString() + ") reads (version " + std::to_string(kSchemaVersion) +
                  "); use a newer softgrasp-cli",
              connection.url());
}
}  // namespace

void upgradeSchema(Connection& connection, int target) {
  if (target < 1 || target > kSchemaVersion) throw Error("no schema version " + std::to_string(target));
  // Read under the schema lock: outside a transaction each check reads its own snapshot, so a process that
  // looks while another creates the schema could see its tables without schema_version and refuse the file.
  int found = 0;
  connection.transaction([&] {
    connection.lockSchema();
    found = readSchemaVersion(connection);
  });
  if (found > kSchemaVersion) refuseNewer(connection, found);
  for (int version = found + 1; version <= target; ++version) {
    connection.transaction([&] {
      connection.lockSchema();
      // Another process may have applied it while this one waited for the lock.
      if (readSchemaVersion(connection) >= version) return;
      for (const std::string& sql : migrationStatements(version, connection)) connection.execute(sql);
      auto s = connection.prepare(
          "INSERT INTO schema_version (version, applied_at, softgrasp_version) VALUES (?, ?, ?)");
      s->bindInt(1, version);
      s->bindText(2, utcNow());
      s->bindText(3, versionString());
      s->step();
    });
  }
}

void checkSchemaCurrent(Connection& connection) {
  const int found = readSchemaVersion(connection);
  if (found == 0)
    throw Error("not a SoftGrasp grasp database yet (no schema; `softgrasp-cli db init` creates it)",
                connection.url());
  if (found > kSchemaVersion) refuseNewer(connection, found);
  if (found < kSchemaVersion)
    throw Error("the database has schema version " + std::to_string(found) + ", older than this SoftGrasp's " +
                    std::to_string(kSchemaVersion) + "; `softgrasp-cli db init` upgrades it",
                connection.url());
}

}  // namespace sg::store
