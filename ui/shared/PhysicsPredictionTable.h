#pragma once
// The table of `softgrasp-cli compare --against-physics` (src/sim/README.md §Measures against physics) read back
// for a front end: the softgrasp.physics-prediction document (`--json`, docs/schemas/physics-prediction.schema.json)
// or its CSV (`--csv`: model,measure,grasps,missing,successes,auc,spearman). The application's Measures vs Physics
// window plots it. No Qt: JSON through src/core/Json.h, numbers through src/core/Parse.h.
#include <optional>
#include <string>
#include <vector>

namespace sg::shared {

struct PredictionRow {
  std::string model, measure;
  long grasps = 0, missing = 0, successes = 0;
  std::optional<double> auc;       // ROC AUC; empty: undefined (one class only)
  std::optional<double> spearman;  // Spearman's rho; empty: undefined (a constant side)
};

struct PredictionTable {
  std::vector<PredictionRow> rows;  // in the file's order
  bool fromJson = false;
  // The JSON document's totals (the CSV has none: the rows' own counts are shown then).
  std::optional<long> grasps, successes;
  std::optional<double> successScore;

  // Contact models and measures in order of first appearance (the chart's series and categories).
  std::vector<std::string> models() const;
  std::vector<std::string> measures() const;
  const PredictionRow* find(const std::string& model, const std::string& measure) const;
};

// Parses a document's text: JSON when it starts with '{', CSV otherwise. sg::Error (without a file name) saying
// what is wrong: another JSON kind or a newer version, a missing or mistyped field ("rows[2].auc: ..."), a CSV
// header other than the CLI's, a line with the wrong number of fields or a bad number ("line 3: ...").
PredictionTable physicsPredictionFromText(const std::string& text);
// The file at `path`; sg::Error naming the file when it cannot be read or does not parse.
PredictionTable loadPhysicsPrediction(const std::string& path);

}  // namespace sg::shared
