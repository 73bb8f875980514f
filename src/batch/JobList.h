#pragma once
// The batch job list (BATCH.md §Job list): a JSON file of jobs, each a world (or a hand file and an object
// file) with planner and quality settings and one or more seeds. Every (job, seed) is one row; rows are
// numbered 0, 1, ... in file order, and row i belongs to shard i mod N.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/Transform.h"
#include "core/Json.h"
#include "core/JsonFormat.h"

namespace sg::batch {

// "softgrasp.batch-jobs" version 1 (docs/schemas/batch-jobs.schema.json); the former name is read too.
constexpr int kJobListVersion = 1;
inline const JsonFormat kJobListFormat{"batch-jobs", kJobListVersion, {"softgrasp-batch-jobs"}};

// Planner and quality settings of one row (the `plan` command's options; PLANNER.md).
struct RowSettings {
  std::string energy = "contacts";          // contacts | autograsp-quality
  std::string space = "axis-angle";         // axis-angle | approach | ellipsoid | complete
  std::string params = "default";           // annealing parameter set
  long steps = 70000;                       // the step counter's end
  int chains = 4;
  std::string qualityMeasure = "epsilon-l1";  // autograsp-quality's ranking measure
  bool liveContacts = false;
  int robot = 0;
  int graspable = 0;
  std::vector<std::string> contactModels = {"soft-finger"};    // the first is the primary one
  std::vector<std::string> measures = {"epsilon-l1", "volume-l1"};  // reported for each grasp
  double threshold_mm = 0.2;
  double force_N = 5;                       // soft patch normal force
  int edges = 8;                            // point-contact friction edges
  double torqueLength_mm = 0;               // 0 = the object's max radius
  // The physics trial of every kept grasp (BATCH.md §Physics trials): run by the front end's RowTrials
  // (src/sim is a later layer); the directions are checked by it before any row runs.
  bool validate = false;
  std::string trialDirections = "all";      // "all" or "x+,z-,..."
  double trialDuration_s = 1;               // pull per direction
};

struct BatchRow {
  long index = 0;                 // row number in the job list
  long job = 0;                   // index into "jobs"
  // As written in the job list (the dataset carries these) and resolved against the job list's folder.
  std::string world, hand, object;
  std::string worldPath, handPath, objectPath;
  std::optional<Transform> handPose;        // hand + object rows: X_WP (default: 300 mm above the object)
  std::uint64_t seed = 1;
  RowSettings settings;
  // The row as a JSON object (files as written, seed as a decimal string, every setting): what the shard
  // records and the dataset carry, and what the job-list digest is computed from.
  Json describe() const;
};

struct JobList {
  std::string path;               // absolute
  std::vector<BatchRow> rows;
  std::string digest;             // 16 hex digits over every row's description: names this list's content
};

// sg::Error naming the file and the field ("jobs[2].seeds[1]: ...") for malformed lists, unknown keys,
// unknown energies, spaces, parameter sets, contact models or measures, and files that do not exist.
JobList loadJobList(const std::string& path);
JobList jobListFromJson(const std::string& text, const std::string& path);

// FNV-1a, 64 bits, as 16 lower-case hex digits (checksums of shard lines, the job-list digest).
std::string fnv1a64Hex(std::string_view bytes);

}  // namespace sg::batch
