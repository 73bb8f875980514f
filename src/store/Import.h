#pragma once
// Turning what SoftGrasp writes into database rows (src/store/README.md §Writing): a grasp list with its
// provenance (batch/Provenance.h) becomes a RowRecord with poses in the object's frame; a batch shard record
// (BATCH.md §Shard files) likewise; shard files and folders are streamed into a GraspStore one line at a time.
#include <cstdint>
#include <string>
#include <vector>

#include "core/Json.h"
#include "grasp/planner/GraspList.h"
#include "store/GraspStore.h"

namespace sg::store {

std::string utcNow();     // "2026-11-29T05:10:00Z"
std::string hostName();

// The identities in a provenance document. sg::Error naming the field when one is malformed.
ModelIdentity modelIdentityFromJson(const Json& identity, const std::string& what);

// A plan's (or an evaluate's, or a batch row's) grasp list as row `row` of job `job`: palm poses and contacts
// moved into the object's frame by provenance's X_WO, measures under `contactModel` (the primary model).
RowRecord rowFromGraspList(const planner::GraspList& list, const Json& provenance, const std::string& contactModel,
                           std::int64_t row, std::int64_t job, const std::string& spec);

// The `trials` row of one physics trial (src/store/README.md §Trials) from its settings (the document's
// "trialSettings", src/sim/TrialJson.h) and summary (a grasp's "trial"): kind physics, success when every
// direction tried held, score, details {"settings", "result"}, created now. graspId and runId are left for the
// writer. sg::Error naming the field when the summary lacks score, held or tried.
TrialRecord physicsTrialRecord(const Json& settings, const Json& summary);

// Grasp i of `row` gets the trial of grasp i of the grasp-list document `listDoc` (its "trial" and the list's
// "trialSettings"; plan --validate, a batch row with "validate"). A document without "trialSettings" adds none.
// Returns the trials attached.
std::size_t attachListTrials(RowRecord& row, const Json& listDoc);

// A shard's row record (its text), its grasps' trials attached (attachListTrials). sg::Error when it is
// malformed or was written without "provenance" (shards of SoftGrasp before the database: rerun the rows, or
// import their merged grasp lists).
RowRecord rowFromShardRecord(const std::string& recordText);

// The run of a batch: one per job list, whatever the shards and processes (key "batch:<digest>").
RunRecord batchRunRecord(const std::string& jobListDigest, std::int64_t rows, const std::string& command,
                         bool withContacts);

struct ImportSummary {
  int files = 0;
  std::int64_t inserted = 0;          // rows written
  std::int64_t skipped = 0;           // rows already in the database
  std::int64_t grasps = 0;            // grasps of the rows written
  std::int64_t trials = 0;            // physics trials of the rows written (batch rows with "validate")
  std::int64_t rowsTotal = 0;         // rows of the job list (shards)
  std::int64_t rowsStored = 0;        // rows of its run now in the database
  std::vector<std::string> problems;  // "FILE:LINE: problem", missing shards and rows
};

// One shard file into its batch's run; bad lines are listed in problems, not thrown (the good ones are
// imported). sg::Error naming the file when it cannot be read or has no header.
ImportSummary importShardFile(GraspStore& store, const std::string& path, const std::string& command,
                              bool withContacts = true);

// Every shard-K-of-N.jsonl of `dir` (batch-merge --db): first their headers are checked as batch-merge checks
// them (one sharding, every shard present, one job list: sg::Error naming the folder otherwise), then each
// file is streamed in; rows the run still lacks afterwards are listed in problems.
ImportSummary importShardFolder(GraspStore& store, const std::string& dir, const std::string& command,
                                bool withContacts = true);

}  // namespace sg::store
