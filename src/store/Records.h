#pragma once
// What the grasp database holds, as plain structs (src/store/README.md §Tables): the GraspStore writes and
// reads these; the SQL that maps them to tables is in GraspStore.cpp and Schema.cpp only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Math.h"
#include "core/Transform.h"
#include "model/WorldState.h"

namespace sg::store {

// One file a robot, an object or a world loads (its XML, meshes, eigengrasp and contact files, ...).
struct FileHash {
  std::string path;               // absolute, as loaded (informative: the hash is what identifies it)
  std::string sha256;             // 64 lower-case hex digits of the file's bytes
  std::int64_t bytes = 0;
};

// A robot or an object: its name and the SHA-256 over its files' hashes in load order, so the same files
// anywhere on disk are the same model, and a changed mesh is another one.
struct ModelIdentity {
  std::string name;               // robot name / graspable body label
  std::string contentHash;        // 64 hex digits
  std::vector<FileHash> files;
};

// A world file (a batch job's world, the world a plan ran in); absent for hand + object rows.
struct WorldIdentity {
  std::string path;
  std::string contentHash;        // over its files, as ModelIdentity
  std::vector<FileHash> files;
};

// One run of a command that writes grasps: a plan, an evaluate, a whole batch (all its shards and processes:
// the key is the job list's digest, so shards written by several processes land in one run), an import.
struct RunRecord {
  std::string key;                // unique; "batch:<job-list digest>", "plan:<host>:<pid>:<start time>", ...
  std::string kind;               // plan | evaluate | batch | import | validate
  std::string softgraspVersion;
  std::string command;            // the command line
  std::string settings;           // JSON text of the settings that decide the results
  std::string seed;               // decimal; empty for a batch (each row has its own)
  std::string host;
  std::string startedAt, endedAt; // UTC ISO 8601 ("2026-11-29T05:10:00Z"); endedAt empty while it runs
  std::string stopReason;
  std::string jobList;            // batch: the job list's digest
  std::int64_t rowsTotal = 0;     // batch: rows of the job list; otherwise 1
  bool withContacts = true;       // whether its grasps' contacts are stored
};

// Per grasp × contact model × measure.
struct MeasureRecord {
  std::string contactModel;       // e.g. "hertz"
  std::string measure;            // e.g. "epsilon-l1"
  std::optional<double> value;    // absent: not computed or failed
  std::optional<double> lower, upper;  // certified bounds of the iterative measures
};

// A hand contact of the final grasp, in the object's frame.
struct ContactRecord {
  std::string handBody, otherBody;
  Vec3 p_OC_mm = Vec3::Zero();
  Vec3 n_O = Vec3::UnitZ();       // inward on the hand body
};

// A later result about a stored grasp (a physics trial, ...), its own table keyed by grasp.
struct TrialRecord {
  std::int64_t graspId = 0;
  std::string kind;               // e.g. "physics" (softgrasp-cli validate: src/sim/README.md)
  std::optional<std::int64_t> runId;
  std::optional<bool> success;
  std::optional<double> score;
  std::string details;            // JSON text
  std::string createdAt;
};

struct GraspRecord {
  int rank = 1;                   // 1 = best of its row by planner energy
  std::optional<double> energy;   // absent: unknown (a captured grasp whose hand collides)
  Transform X_OP;                 // palm in the object's frame, final grasp
  std::vector<double> dofs;
  // The joints in break-away of the final grasp (HandConfiguration::breakAway, src/grasp/planner/PLANNER.md
  // §Grasp list file); empty: none. Column break_away (schema version 3).
  BreakAwayState breakAway;
  Transform preGrasp_X_OP;
  std::vector<double> preGraspDofs;
  // The pre-grasp's joints in break-away (a captured grasp's pre-grasp is its grasp, with its joints); empty:
  // none. Column pre_break_away (schema version 4).
  BreakAwayState preGraspBreakAway;
  std::vector<double> state;      // the search state (may be empty)
  bool forceClosure = false;
  std::vector<MeasureRecord> measures;
  std::vector<ContactRecord> contacts;   // stored only when the run has withContacts
  // A trial that came with the grasp (a batch row with "validate", a grasp list of plan --validate), written
  // with it in its row's transaction; graspId and runId are then the grasp's (src/store/README.md §Trials).
  std::optional<TrialRecord> trial;
};

// One unit of work, written in one transaction: a batch row, or the grasp list of a plan or evaluate (row 0).
struct RowRecord {
  std::int64_t row = 0;
  std::int64_t job = 0;
  std::string seed;               // decimal
  std::string spec;               // JSON text of the row (the batch row's description, or the grasp list header)
  std::optional<WorldIdentity> world;
  std::optional<ModelIdentity> robot, object;   // absent for a failed row that never loaded them
  std::string contactModel;       // the primary contact model (the one the grasps' rank and forceClosure use)
  double elapsed_s = 0;
  std::int64_t iterations = 0;
  std::string stopReason;
  std::string error;              // non-empty: the row failed (no grasps)
  std::vector<GraspRecord> grasps;
};

}  // namespace sg::store
