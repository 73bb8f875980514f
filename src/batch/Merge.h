#pragma once
// Merging a batch's shard files into one dataset (BATCH.md §Merge and the dataset): every shard of the
// sharding and every row of each shard must be there and every line intact; the grasps are written in
// row order, each row's grasps best first (its ranks), as JSON or CSV. Shard count, timings and the order
// rows finished in do not enter the dataset, so N shards merge to the file one process writes.
#include <string>
#include <utility>
#include <vector>

#include "core/JsonFormat.h"

namespace sg {
class Json;
}

namespace sg::batch {

// The JSON dataset's tag: "softgrasp.grasp-dataset" version 1 (docs/schemas/grasp-dataset.schema.json).
inline const JsonFormat kDatasetFormat{"grasp-dataset", 1, {"softgrasp-grasp-dataset"}};

struct MergeSummary {
  int shards = 0;
  long rows = 0;
  long grasps = 0;
  std::string jobList;                              // the job list's digest
  std::vector<std::pair<long, std::string>> failedRows;  // rows recorded with an error (row, message)
};

enum class DatasetFormat { Json, Csv };
// From the output file's extension (.json or .csv); sg::Error naming the file otherwise.
DatasetFormat datasetFormatOf(const std::string& path);

// The dataset's order: "row" (row order, each row's grasps best first: the default), "energy" (every grasp
// by planner energy, lowest first) or a measure name (every grasp by that measure, highest first; grasps
// without a value last). Ties keep row order. sg::Error for other names.
void checkRankBy(const std::string& rankBy);

// Checks `dir` (sg::Error naming the folder or the file and listing what is missing or broken: absent
// shards, shard files of another sharding or job list, bad or half-written lines, absent rows) and writes
// the dataset atomically to `outPath`, ordered by `rankBy`.
MergeSummary mergeShards(const std::string& dir, const std::string& outPath, const std::string& rankBy = "row");

// The dataset text for the checked rows (row order): `records` are the rows' record texts (consumed).
std::string datasetText(std::vector<std::string> records, const std::string& jobList, long rows,
                        DatasetFormat format, const std::string& rankBy, MergeSummary& summary);

// A configuration's joints in break-away as the CSV field of the columns grasp_break_away and
// pregrasp_break_away (BATCH.md §Merge and the dataset): "chain:joint:dofValue" per joint of `joints` (a grasp
// list's "breakAway" array, PLANNER.md §Grasp list file), separated by spaces; empty for nullptr or no joint.
// db query --csv writes its grasp_break_away and pregrasp_break_away columns with it too, so the two CSVs agree.
std::string breakAwayCsvField(const Json* joints);

}  // namespace sg::batch
