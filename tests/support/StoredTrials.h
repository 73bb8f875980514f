#pragma once
// The physics trials a grasp database holds (src/store/README.md §Trials), keyed by where their grasp sits
// (row of the job list, rank in the row) rather than by ids, so databases written by different commands
// (batch --db, batch-merge --db, db import) and backends compare directly. Read with SQL over the store's
// connection: the tests check what is in the tables, not what a query API makes of it.
#include <cstdint>
#include <string>
#include <vector>

#include "store/GraspStore.h"

namespace sg::test {

struct StoredTrial {
  std::int64_t row = 0, rank = 0;
  std::string kind;
  bool success = false;
  double score = 0;
  std::string details;  // JSON text: {"settings", "result"}
  bool runIsGraspRun = false;  // the trial's run_id is its grasp's run (trials that came with their row)
};

inline std::vector<StoredTrial> storedTrials(const std::string& url) {
  auto db = store::GraspStore::open(url, store::OpenMode::ReadOnly);
  auto s = db->connection().prepare(
      "SELECT r.row_index, g.grasp_rank, t.kind, t.success, t.score, t.details, "
      "CASE WHEN t.run_id = g.run_id THEN 1 ELSE 0 END FROM trials t JOIN grasps g ON g.id = t.grasp_id "
      "JOIN run_rows r ON r.id = g.row_id ORDER BY r.row_index, g.grasp_rank, t.id");
  std::vector<StoredTrial> out;
  while (s->step()) {
    StoredTrial t;
    t.row = s->columnInt(0);
    t.rank = s->columnInt(1);
    t.kind = s->columnText(2);
    t.success = s->columnInt(3) != 0;
    t.score = s->columnDouble(4);
    t.details = s->columnText(5);
    t.runIsGraspRun = !s->isNull(6) && s->columnInt(6) != 0;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace sg::test
