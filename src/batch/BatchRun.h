#pragma once
// Running rows of a job list (BATCH.md §Running a shard): each row loads its world (or hand + object), plans
// with its seed and settings (PLANNER.md) and becomes one shard record. A shard run skips the rows its
// shard file already holds and runs the rest on worker threads, one row per thread at a time (a row's
// result does not depend on the thread count), appending each record as soon as it is done.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "batch/JobList.h"
#include "batch/Provenance.h"
#include "batch/ShardFile.h"
#include "model/World.h"

namespace sg::batch {

// The world of the last row a worker ran, kept for the next row when that names the same files (rows of one
// job follow each other in a shard).
class WorldCache {
 public:
  const World& get(const BatchRow& row);  // sg::Error from the loaders
  ProvenanceCache provenance;             // the files' hashes, computed once per worker

 private:
  std::string key_;
  std::unique_ptr<World> world_;
};

// The record of one row: {"row", "job" (BatchRow::describe), "elapsed_s", "iterations", "list" (the grasp
// list, PLANNER.md §Grasp list file), "provenance" (Provenance.h)}; a row whose world does not load or whose settings do not fit it
// (say, a robot index it lacks) gives {"row", "job", "error": message} instead. Planner threads: `threads`.
Json runRow(const BatchRow& row, int threads, WorldCache* cache = nullptr);

struct RowDone {
  long row = 0;
  std::size_t grasps = 0;      // 0 for a failed row
  double elapsed_s = 0;
  std::string error;           // empty unless the row failed
};

struct ShardProgress {
  std::size_t shardRows = 0;   // rows of this shard
  std::size_t skipped = 0;     // already in the shard file when the run started
  std::size_t done = 0;        // finished in this run
  std::size_t grasps = 0;      // grasps found in this run
  double elapsed_s = 0;        // wall time of this run so far
  bool stopped = false;        // stopRequested() ended the run early; the rows not run stay to do
};

struct ShardRunOptions {
  int shard = 0, shards = 1;
  int threads = 1;             // rows run at once (each plans on max(1, threads / rows running) threads)
  // Called (serialised) once before the first row with the dropped lines, then after every row.
  std::function<void(const std::string& shardPath, const std::vector<ShardProblem>& dropped,
                     const ShardProgress&)> started;
  std::function<void(const RowDone&, const ShardProgress&)> rowDone;
  // Called (serialised, before rowDone) with each row's record once it is in the shard file: `batch --db`
  // writes it into the database. An exception from it stops the run as a shard file error does. May be empty.
  std::function<void(const Json& record)> recorded;
  // Polled (any worker thread) before a row starts: true starts no further row; the rows in flight finish and
  // are appended, so the shard file stays resumable (the CLI's Ctrl+C). May be empty.
  std::function<bool()> stopRequested;
};

// Runs shard K/N of `list` into `outDir`. sg::Error for an unusable shard file or output folder (see
// ShardWriter); a row's own failure is recorded, not thrown.
ShardProgress runShard(const JobList& list, const std::string& outDir, const ShardRunOptions& options);

}  // namespace sg::batch
