#pragma once
// The grasp database (src/store/README.md): runs, their rows and grasps, measures per contact model, contacts
// and later results, over any Connection. All SQL lives here and in Schema.cpp, written once for SQLite and
// PostgreSQL. Every write of a unit of work (a row with its grasps) is one transaction and idempotent: a row
// already stored (unique key run, job, seed, rank on grasps; run, row on rows) is skipped, so a resumed or
// re-run process inserts nothing twice.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/Connection.h"
#include "store/Records.h"
#include "store/StoreUrl.h"

namespace sg::store {

// db query's filters and order (src/store/README.md §Queries).
struct GraspQuery {
  std::string robot;              // robot name; empty = any
  std::string object;             // object name; empty = any
  std::string contactModel;       // the model the measure is read under; empty = each grasp's primary model
  std::string measure;            // the measure reported (and filtered/ordered by); empty = none
  std::optional<double> minValue; // measure ≥ minValue (needs measure)
  std::optional<bool> forceClosure;
  std::string run;                // run key; empty = any
  std::optional<std::int64_t> graspId;      // this one grasp (validate --db checks its grasps with it)
  std::optional<double> minTrialScore;      // grasps with a stored trial scoring ≥ this
  // Measure: highest first; Energy: lowest; TrialScore: the grasp's best stored trial score, highest first.
  enum class Order { Measure, Energy, Row, TrialScore } order = Order::Row;
  std::int64_t limit = 0;         // 0 = all
};

// One grasp as a query returns it.
struct GraspRow {
  std::int64_t id = 0;
  std::string run;                // run key
  std::int64_t row = 0, job = 0;
  std::string seed;
  std::string robot, robotHash, object, objectHash;
  std::string world;              // path, empty for hand + object rows
  std::string primaryModel;
  GraspRecord grasp;              // measures: every stored one (all models); contacts when stored
  std::optional<double> value;    // the queried measure under the queried (or primary) model
};

struct StoreInfo {
  int schemaVersion = 0;
  std::string backend;            // "sqlite" | "postgresql"
  std::string url;
  std::int64_t sizeBytes = 0;
  std::int64_t robots = 0, objects = 0, worlds = 0, runs = 0, rows = 0, failedRows = 0, grasps = 0,
               measures = 0, contacts = 0, trials = 0;
};

class GraspStore {
 public:
  // Opens `url` (StoreUrl.h). ReadWrite creates the database when missing and upgrades its schema;
  // ReadOnly requires the current schema. sg::Error naming the URL/file: not a database, not a SoftGrasp
  // database, corrupt, newer schema, unknown URL scheme.
  static std::unique_ptr<GraspStore> open(const std::string& url, OpenMode mode);
  GraspStore(std::unique_ptr<Connection> connection, OpenMode mode);
  ~GraspStore();
  GraspStore(const GraspStore&) = delete;
  GraspStore& operator=(const GraspStore&) = delete;

  Connection& connection() { return *connection_; }
  const std::string& url() const { return connection_->url(); }

  // The run with run.key, created when missing (its other fields are then stored); returns its id. A run
  // that exists keeps the fields it was created with (the first shard process's command and host).
  std::int64_t beginRun(const RunRecord& run);
  // Sets ended_at (to the later of the stored and the given time) and the stop reason.
  void endRun(std::int64_t runId, const std::string& endedAt, const std::string& stopReason);
  std::optional<RunRecord> run(const std::string& key);
  // The row numbers of a run already stored (resume: the rows left to do are the others).
  std::set<std::int64_t> rowsDone(std::int64_t runId);

  // One transaction: the row, its robot, object and world (found by content hash or added), its grasps, their
  // measures and (when the run keeps them) contacts. False when the row was already stored (nothing written).
  bool insertRow(std::int64_t runId, const RowRecord& row);
  // Several rows in one transaction (each still whole or not at all, each skipped when already stored): what
  // streaming imports use to amortise the commit. Returns, per row, whether it was written.
  std::vector<bool> insertRows(std::int64_t runId, const std::vector<RowRecord>& rows);

  std::int64_t insertTrial(const TrialRecord& trial);

  // Grasps matching `query`, in its order, one callback each (streamed: memory does not grow with the result).
  void query(const GraspQuery& query, const std::function<void(const GraspRow&)>& visit);
  StoreInfo info();

 private:
  struct Statements;
  bool writeRow(std::int64_t runId, const RowRecord& row);  // inside a transaction
  std::unique_ptr<Connection> connection_;
  std::unique_ptr<Statements> statements_;
};

}  // namespace sg::store
