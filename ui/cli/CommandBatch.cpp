// softgrasp-cli batch JOBS --out DIR [--shard K/N] [--threads T] [--no-progress | --progress] [--json]
// softgrasp-cli batch-merge DIR --out dataset.json|dataset.csv [--rank-by KEY] [--json]
// Batch planning over a job list, sharded (row i → shard i mod N), resumable, and the merge of the shards
// into one dataset (src/batch/BATCH.md; on Slurm: scripts/slurm/README.md).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>

#include "CommandRegistry.h"
#include "DbSupport.h"
#include "ExitCodes.h"
#include "Interrupt.h"
#include "TerminalProgress.h"
#include "TextPrinter.h"
#include "TrialOptions.h"
#include "batch/BatchRun.h"
#include "batch/Merge.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "JsonWriter.h"
#include "core/Json.h"
#include "store/GraspStore.h"
#include "store/Import.h"

namespace sg::cli {

namespace {


std::pair<int, int> shardOption(const ParsedArgs& args) {
  const auto text = args.value("--shard");
  if (!text) return {0, 1};
  int k = -1, n = -1, used = 0;
  if (std::sscanf(text->c_str(), "%d/%d%n", &k, &n, &used) != 2 || used != static_cast<int>(text->size()) || n < 1 ||
      k < 0 || k >= n)
    throw UsageError("--shard: expected K/N with 0 ≤ K < N (e.g. 2/8), got '" + *text + "'");
  return {k, n};
}

int batchThreadsOption(const ParsedArgs& args) {
  const auto text = args.value("--threads");
  if (!text) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));  // the app's default
  const std::vector<double> v = parseNumberList("--threads", *text);
  if (v.size() != 1 || v[0] < 0 || v[0] != std::floor(v[0]) || v[0] > 4096)
    throw UsageError("--threads: expected an integer ≥ 0 (0 = all cores), got '" + *text + "'");
  if (v[0] == 0) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(v[0]);
}

std::string clock(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  const long s = std::lround(seconds);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

// Rows with "validate" (BATCH.md §Physics trials): their trial settings, checked before any row runs, and the
// runner that adds each kept grasp's trial to the row's list. A row in flight finishes its trials on Ctrl+C
// (the shard's rule: a row is appended whole).
batch::RowTrials rowTrials(const batch::JobList& list) {
  for (const batch::BatchRow& row : list.rows) {
    if (!row.settings.validate) continue;
    try {
      (void)trialSettingsOf(row.settings.trialDirections, row.settings.trialDuration_s);
    } catch (const Error& e) {
      throw Error("jobs[" + std::to_string(row.job) + "]." + e.message(), list.path);
    }
  }
  return [](const World& world, const planner::GraspList& grasps, const batch::BatchRow& row, const Json& doc) {
    const sim::TrialSettings settings = trialSettingsOf(row.settings.trialDirections, row.settings.trialDuration_s);
    NullProgress quiet;
    return withTrials(doc, settings, runListTrials(world, grasps, settings, quiet).results);
  };
}

// Ctrl+C: the rows in flight were finished and appended; the rest run when the same command runs again.
int batchExit(const batch::ShardProgress& p, const std::string& shardPath) {
  if (!p.stopped) return kExitOk;
  std::cout << std::flush;
  std::cerr << "softgrasp-cli: batch: interrupted: " << (p.skipped + p.done) << " of " << p.shardRows
            << " rows are in " << shardPath << "; run the same command again to resume\n";
  return kExitInterrupted;
}

int runBatch(const ParsedArgs& args) {
  const batch::JobList list = batch::loadJobList(args.positional(0));
  const auto [shard, shards] = shardOption(args);
  const std::string out = *args.value("--out");
  // The per-row lines are the progress: on a terminal, with --progress (Slurm logs: batch-array.sbatch), not
  // with --no-progress (formerly --quiet). Warnings always.
  const bool quiet = !progressWanted(args);
  batch::ShardRunOptions options;
  options.shard = shard;
  options.shards = shards;
  options.threads = batchThreadsOption(args);
  options.trials = rowTrials(list);
  const std::string tag = "softgrasp-cli: batch " + std::to_string(shard) + "/" + std::to_string(shards) + ": ";
  std::string shardPath;
  options.started = [&](const std::string& path, const std::vector<batch::ShardProblem>& dropped,
                        const batch::ShardProgress& p) {
    shardPath = path;
    for (const batch::ShardProblem& d : dropped)
      std::cerr << "softgrasp-cli: warning: " << path << ":" << d.line << ": " << d.problem
                << ": dropped, its row runs again\n";
    if (!quiet)
      std::cerr << tag << p.shardRows << " of " << list.rows.size() << " rows, " << p.skipped
                << " already done, " << (p.shardRows - p.skipped) << " to run on " << options.threads
                << " thread(s) -> " << path << std::endl;
  };
  std::size_t failed = 0;
  options.rowDone = [&](const batch::RowDone& r, const batch::ShardProgress& p) {
    if (!r.error.empty()) {
      ++failed;
      std::cerr << "softgrasp-cli: warning: row " << r.row << " failed (recorded; batch-merge lists it): " << r.error
                << "\n";
    }
    if (quiet) return;
    const std::size_t toRun = p.shardRows - p.skipped;
    const double perRow = p.done ? p.elapsed_s / static_cast<double>(p.done) : 0;
    const std::string rate =
        formatGeneral(p.elapsed_s > 0 ? static_cast<double>(p.grasps) / p.elapsed_s : 0.0, 3);
    std::cerr << tag << "row " << r.row << (r.error.empty() ? "" : " (failed)") << ": " << r.grasps << " grasps in "
              << TextPrinter::number(r.elapsed_s) << " s; " << (p.skipped + p.done) << "/" << p.shardRows
              << " rows done, " << rate << " grasps/s, " << clock(perRow * static_cast<double>(toRun - p.done))
              << " left" << std::endl;
  };
  installInterruptHandler();
  options.stopRequested = [] { return interrupted(); };
  std::unique_ptr<store::GraspStore> db;
  std::int64_t runId = 0;
  if (const auto url = args.value("--db")) {
    // One run per job list: every shard and process of this batch writes into it (src/store/README.md §Tables).
    db = store::GraspStore::open(*url, store::OpenMode::ReadWrite);
    const store::RunRecord runRecord = store::batchRunRecord(
        list.digest, static_cast<std::int64_t>(list.rows.size()), commandLine(), !args.has("--db-no-contacts"));
    runId = db->beginRun(runRecord);
    // Rows the shard file holds but the database lacks (killed between the two writes) go in first; the shard
    // file is the journal the run resumes from.
    const std::string shardFile = (std::filesystem::path(out) / batch::shardFileName(shard, shards)).string();
    std::string why;
    std::error_code ec;
    // A row's trials come with it (store::rowFromShardRecord, src/store/README.md §Trials).
    if (std::filesystem::exists(shardFile, ec))
      if (const auto header = batch::readShardHeader(shardFile, why); header && header->jobList == list.digest)
        (void)store::importShardFile(*db, shardFile, commandLine(), !args.has("--db-no-contacts"));
    options.recorded = [&db, runId](const Json& record) {
      (void)db->insertRow(runId, store::rowFromShardRecord(record.dumpLine()));
    };
  }
  const batch::ShardProgress p = batch::runShard(list, out, options);
  if (db && db->rowsDone(runId).size() == list.rows.size()) db->endRun(runId, store::utcNow(), "complete");
  if (args.has("--json")) {
    Json o = Json::object();
    o.set("jobs", list.path);
    o.set("jobList", list.digest);
    o.set("shard", shard);
    o.set("shards", shards);
    o.set("file", shardPath);
    o.set("shardRows", static_cast<long>(p.shardRows));
    o.set("skipped", static_cast<long>(p.skipped));
    o.set("run", static_cast<long>(p.done));
    o.set("failed", static_cast<long>(failed));
    o.set("grasps", static_cast<long>(p.grasps));
    o.set("elapsed_s", p.elapsed_s);
    writeJson(std::cout, formats::batchRun, o);
    return batchExit(p, shardPath);
  }
  TextPrinter text(std::cout);
  text.line("batch " + list.path);
  TextPrinter::Indent indent(text);
  text.field("shard", std::to_string(shard) + "/" + std::to_string(shards) + " of " + std::to_string(list.rows.size()) +
                          " rows (job list " + list.digest + ")");
  text.field("rows", std::to_string(p.shardRows) + ": " + std::to_string(p.skipped) + " already done, " +
                         std::to_string(p.done) + " run, " + std::to_string(failed) + " failed");
  text.field("grasps", std::to_string(p.grasps) + " in " + TextPrinter::number(p.elapsed_s) + " s");
  text.field("file", shardPath);
  return batchExit(p, shardPath);
}

// batch-merge --db URL: the shards streamed into the database, one line in memory at a time.
int mergeIntoDb(const ParsedArgs& args, const std::string& dir, const std::string& url) {
  auto db = store::GraspStore::open(url, store::OpenMode::ReadWrite);
  const store::ImportSummary s = store::importShardFolder(*db, dir, commandLine(), !args.has("--db-no-contacts"));
  for (const std::string& problem : s.problems) std::cerr << "softgrasp-cli: " << problem << "\n";
  if (args.has("--json") && !args.has("--out")) {
    Json o = Json::object();
    o.set("folder", dir);
    o.set("database", db->url());
    o.set("rows", static_cast<double>(s.rowsStored));
    o.set("inserted", static_cast<double>(s.inserted));
    o.set("skipped", static_cast<double>(s.skipped));
    o.set("grasps", static_cast<double>(s.grasps));
    o.set("trials", static_cast<double>(s.trials));
    o.set("problems", jsonStrings(s.problems));
    writeJson(std::cout, formats::batchMergeDb, o);
  } else if (!args.has("--out")) {
    TextPrinter text(std::cout);
    text.line("batch-merge " + dir + " -> " + db->url());
    TextPrinter::Indent indent(text);
    text.field("rows", std::to_string(s.rowsStored) + " of " + std::to_string(s.rowsTotal) + " in the database (" +
                           std::to_string(s.inserted) + " written now, " + std::to_string(s.skipped) +
                           " already there)");
    text.field("grasps", std::to_string(s.grasps) + " written now");
    if (s.trials) text.field("trials", std::to_string(s.trials) + " written now");
  }
  return s.problems.empty() ? kExitOk : kExitBadInput;
}

int runBatchMerge(const ParsedArgs& args) {
  const std::string dir = args.positional(0);
  if (!args.has("--out") && !args.has("--db")) throw UsageError("missing option --out FILE (or --db URL)");
  if (const auto url = args.value("--db")) {
    const int code = mergeIntoDb(args, dir, *url);
    if (code != kExitOk || !args.has("--out")) return code;
  }
  const std::string out = *args.value("--out");
  try {
    (void)batch::datasetFormatOf(out);
  } catch (const Error& e) {
    throw UsageError("--out: " + e.message() + ", got '" + out + "'");
  }
  const std::string rankBy = args.value("--rank-by").value_or("row");
  try {
    batch::checkRankBy(rankBy);
  } catch (const Error& e) {
    throw UsageError("--rank-by: " + e.message());
  }
  const batch::MergeSummary s = batch::mergeShards(dir, out, rankBy);
  for (const auto& [row, error] : s.failedRows)
    std::cerr << "softgrasp-cli: warning: row " << row << " failed and has no grasps: " << error << "\n";
  if (args.has("--json")) {
    Json o = Json::object();
    o.set("folder", dir);
    o.set("dataset", out);
    o.set("jobList", s.jobList);
    o.set("shards", s.shards);
    o.set("rows", s.rows);
    o.set("grasps", s.grasps);
    Json failed = Json::array();
    for (const auto& [row, error] : s.failedRows) {
      Json f = Json::object();
      f.set("row", row);
      f.set("error", error);
      failed.push(f);
    }
    o.set("failedRows", failed);
    writeJson(std::cout, formats::batchMerge, o);
    return kExitOk;
  }
  TextPrinter text(std::cout);
  text.line("batch-merge " + dir);
  TextPrinter::Indent indent(text);
  text.field("shards", std::to_string(s.shards) + ", every row present (job list " + s.jobList + ")");
  text.field("rows", std::to_string(s.rows) + ", " + std::to_string(s.failedRows.size()) + " failed");
  text.field("grasps", std::to_string(s.grasps));
  text.field("dataset", out + (rankBy == "row" ? "" : " (ranked by " + rankBy + ")"));
  return kExitOk;
}

const RegisterCommand registerBatch{Command{
    "batch",
    "plan the rows of a job list, one shard of them, resumably (for clusters: scripts/slurm)",
    "Reads a job list (JSON: worlds or hand + object files, planner and quality settings, seeds; format in\n"
    "src/batch/BATCH.md). Every (job, seed) is a row; row i belongs to shard i mod N. Runs the rows of shard K\n"
    "that DIR/shard-K-of-N.jsonl does not hold yet and appends each finished row to it (JSON Lines, one\n"
    "checksummed line per row, synced), so a run stopped by a crash, a kill or a pre-emption resumes where it\n"
    "stopped: run the same command again. Progress (one line per row: rows done, grasps/s, time left) goes to\n"
    "stderr when it is a terminal or with --progress. Ctrl+C starts no further row, finishes the rows in flight\n"
    "and exits with code 130, the shard resumable; a second Ctrl+C kills. --threads T runs T rows at once.\n"
    "Rows with \"validate\": true also run the physics trial (validate) of every kept grasp; the trials go into\n"
    "the row's line and, with --db, the database. Merge the shards with batch-merge.",
    CommandSyntax{{{"JOBS", "the job list (JSON)"}},
                  {{"--out", "DIR", "folder of the shard files (created if missing)", false, true},
                   {"--shard", "K/N", "run shard K of N (0 ≤ K < N; default 0/1: every row)"},
                   db_options::db("also write each finished row into this grasp database (one run per job list, "
                                  "shared by every shard)"),
                   db_options::noContacts(),
                   {"--threads", "T", "rows planned at once (default 0 = all cores, as the application; on a "
                                      "cluster give the cores allotted); results do not depend on it"},
                   {"--no-progress", "", "no per-row progress lines on stderr (warnings still; shown by default only "
                                         "when stderr is a terminal)", false, false, false, {"--quiet"}},
                   progress_options::progress(),
                   {"--json", "", "print the run's summary as JSON"}}},
    runBatch}};

const RegisterCommand registerBatchMerge{Command{
    "batch-merge",
    "check a batch's shard files and merge them into one ranked dataset (.json or .csv)",
    "Checks that DIR holds every shard file of one sharding, written for one job list, with every row of\n"
    "each shard and no damaged or half-written line (names what is missing or broken, exit code 3), then\n"
    "writes the grasps in row order, each row's best first (or all by --rank-by), atomically. The dataset does\n"
    "not depend on the number of shards or threads: N shards merge to the file one process running all rows\n"
    "gives.",
    CommandSyntax{{{"DIR", "the folder batch --out wrote"}},
                  {{"--out", "FILE", "the dataset: .json or .csv (required unless --db)"},
                   db_options::db("stream the shards into this grasp database (bounded memory) instead of, or "
                                  "besides, --out"),
                   db_options::noContacts(),
                   {"--rank-by", "KEY", "order: row (default: row order, each row best first), energy (all grasps, "
                                        "lowest first) or a measure (all grasps, highest first)"},
                   {"--json", "", "print the summary as JSON"}}},
    runBatchMerge}};

}  // namespace

}  // namespace sg::cli
