#pragma once
// Shard files (BATCH.md §Shard files): DIR/shard-K-of-N.jsonl, JSON Lines, one self-checking line per record:
//   {"sum":"<FNV-1a 64 of the record text, 16 hex digits>","record":<the record on one line>}
// Line 1 is the header (format, shard, shards, rows, job-list digest), every further line one finished row.
// A row line is appended with one write() and fsync'ed, so after a crash, a kill or a pre-emption every
// earlier line is intact and at worst the last one is cut short: its missing newline or wrong sum gives it
// away. Resuming drops such lines (rewriting the file atomically with the good ones) and redoes their rows;
// the merge refuses them.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/Json.h"
#include "core/JsonFormat.h"

namespace sg::batch {

// The header line's tag: "softgrasp.batch-shard" version 1 (docs/schemas/batch-shard.schema.json); the former
// name is read too, so shards written before it resume and merge.
constexpr int kShardVersion = 1;
inline const JsonFormat kShardFormat{"batch-shard", kShardVersion, {"softgrasp-batch-shard"}};

// "shard-K-of-N.jsonl" and back (nullopt for other names).
std::string shardFileName(int shard, int shards);
std::optional<std::pair<int, int>> parseShardFileName(const std::string& name);

// The shard of row `row` among `shards` (row i → i mod N) and the rows of shard K out of `rows`.
inline int shardOfRow(long row, int shards) { return static_cast<int>(row % shards); }
std::vector<long> rowsOfShard(long rows, int shard, int shards);

struct ShardHeader {
  int shard = 0, shards = 1;
  long rows = 0;                  // rows of the whole job list
  std::string jobList;            // the job list's digest (JobList::digest)
  Json toJson() const;
  bool operator==(const ShardHeader&) const = default;
};

// The framed line of a record, newline included.
std::string frameRecord(const Json& record);

struct ShardProblem {
  int line = 0;                   // 1-based
  std::string problem;
};

struct ShardContent {
  std::optional<ShardHeader> header;                  // nullopt: line 1 is missing or not a valid header
  std::vector<std::pair<long, std::string>> rows;     // (row, record text) in file order, each row once
  std::vector<ShardProblem> problems;                 // every line that is not a good record of this shard
  std::size_t bytes = 0;
};

// Reads and checks every line: framing, checksum, JSON, the header on line 1, each row record's "row" (an
// integer of this shard below header.rows, not seen before). Problems are collected, not thrown; sg::Error
// naming the file only when it cannot be read.
ShardContent readShard(const std::string& path);
// The same checks, but each good row record goes to `visit` (row, record text) as it is read, and rows stays
// empty: one line in memory at a time (batch-merge --db). A row is visited before a later line's problem shows.
// Line 1 only: the header, or nullopt and the reason in `why`. sg::Error naming the file when it cannot be read.
std::optional<ShardHeader> readShardHeader(const std::string& path, std::string& why);
ShardContent scanShard(const std::string& path, const std::function<void(long, const std::string&)>& visit);

// The writer side of one shard of a batch run.
class ShardWriter {
 public:
  // Opens DIR/shard-K-of-N.jsonl (creating DIR): a new file gets its header (written atomically); an existing
  // one must carry the same header (sg::Error naming the file otherwise: another job list or sharding), and
  // its bad lines are dropped (see dropped()) by rewriting the file atomically with the good ones. Holds an
  // exclusive lock on DIR/shard-K-of-N.lock while it lives: a second writer of the same shard is refused.
  ShardWriter(const std::string& dir, const ShardHeader& header);
  ~ShardWriter();
  ShardWriter(const ShardWriter&) = delete;
  ShardWriter& operator=(const ShardWriter&) = delete;

  const std::string& path() const { return path_; }
  const std::set<long>& doneRows() const { return done_; }
  const std::vector<ShardProblem>& dropped() const { return dropped_; }
  // Appends one row record (it must have an integer "row"): one write(), then fsync. Thread-safe.
  void append(const Json& record);

 private:
  std::string path_;
  int lockFd_ = -1;
  std::mutex mutex_;
  std::set<long> done_;
  std::vector<ShardProblem> dropped_;
};

}  // namespace sg::batch
