#pragma once
// validate --db (src/store/README.md §Trials): the grasps of a db query document (db query --json, db export
// --out FILE.json) placed in the world, checked against the database they came from, and each one's physics
// trial stored in its `trials` table, keyed by the grasp.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Json.h"
#include "core/Transform.h"
#include "model/World.h"
#include "sim/PhysicsTrial.h"
#include "store/GraspStore.h"

namespace sg::cli {

// One grasp of a softgrasp.db-query document.
struct StoredGrasp {
  std::int64_t id = 0;
  std::string run, robotSha256, objectSha256;
  Transform X_OP;                 // palm in the object's frame
  std::vector<double> dofs;
  BreakAwayState breakAway;       // the joints in break-away (PLANNER.md §Grasp list file); empty: none
};

// The parsed document when `path` is a softgrasp.db-query document, nullopt when it is some other JSON (a grasp
// list). sg::Error naming the file when it cannot be read or a grasp is malformed.
std::optional<std::vector<StoredGrasp>> loadDbQueryGrasps(const std::string& path);

// Each grasp's robot and object file hashes against those `world` loads for `robot` and `graspable` (the
// trial would run another hand or object otherwise). sg::Error naming `path` and the grasp on a mismatch.
void checkGraspsMatchWorld(const std::vector<StoredGrasp>& grasps, const World& world, int robot, int graspable,
                           const std::string& path);

// Stores trials of database grasps: opened on the database, every grasp checked to be in it (same id, run and
// file hashes), then one run of kind "validate" and one `trials` row per finished trial, each its own
// transaction (an interrupted validate keeps the trials done).
class TrialWriter {
 public:
  TrialWriter(const std::string& url, const std::vector<StoredGrasp>& grasps, const sim::TrialSettings& settings);
  void store(const StoredGrasp& grasp, const sim::TrialResult& result);
  void finish(const std::string& stopReason);
  std::string url() const { return db_->url(); }

 private:
  std::unique_ptr<store::GraspStore> db_;
  std::int64_t runId_ = 0;
  Json settings_;
};

// The `trials` row of one trial (src/store/README.md §Trials) from its settings (sim::trialSettingsJson) and
// summary (sim::trialSummaryJson): kind physics, success when every direction tried held.
store::TrialRecord trialRecord(std::int64_t graspId, std::optional<std::int64_t> runId, const Json& settings,
                               const Json& summary);

// plan/batch --validate --db: the trials of one stored row's grasps (row `row` of run `runKey`, grasps in rank
// order: summaries[i] is rank i + 1's, a null Json one without a trial), each linked to that run. Returns the
// trials stored. sg::Error naming the database when the row holds fewer grasps than summaries.
std::size_t storeRowTrials(store::GraspStore& db, const std::string& runKey, std::int64_t row, const Json& settings,
                           const std::vector<Json>& summaries);

}  // namespace sg::cli
