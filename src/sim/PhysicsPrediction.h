#pragma once
// Which quality measure predicts a physics trial (README.md §Measures against physics): ROC AUC and Spearman's
// rank correlation of a predictor (a measure under a contact model) against the trial score of the same grasps.
// Plain statistics on numbers; no MuJoCo here.
#include <optional>
#include <string>
#include <vector>

namespace sg::sim {

// 1-based ranks of `values`, tied values sharing the mean of the ranks they span ({5, 1, 5} → {2.5, 1, 2.5}).
// sg::Error for a non-finite value.
std::vector<double> averageRanks(const std::vector<double>& values);

// Area under the ROC curve of `scores` predicting `positive`: the probability that a random positive grasp scores
// above a random negative one, a tie counting one half (Mann–Whitney U / (P·N)). nullopt when there is no
// positive or no negative ("undefined": one class only). sg::Error for different lengths or a non-finite score.
std::optional<double> rocAuc(const std::vector<double>& scores, const std::vector<bool>& positive);

// Spearman's ρ: Pearson's correlation of the average ranks of x and y. nullopt when fewer than two pairs or
// either side is constant (no ranking to correlate). sg::Error for different lengths or a non-finite value.
std::optional<double> spearman(const std::vector<double>& x, const std::vector<double>& y);

// One grasp: its trial score (directions held / directions tried) and the value of every predictor (nullopt
// where the measure has no value on this grasp: no contacts, a wrench space without interior). A grasp without a
// value ranks below every value of that predictor (ties among themselves): larger is better for every measure,
// and a grasp the measure cannot even evaluate is the worst grasp. AUC and Spearman depend on ranks only, so
// this is exact, not a stand-in number.
struct PredictionSample {
  double trialScore = 0;
  std::vector<std::optional<double>> predictors;  // one per PredictionTable::predictors entry
};

struct Predictor {
  std::string model;    // contact model name, or "" for a predictor that has none
  std::string measure;  // quality measure name
};

struct PredictorRow {
  Predictor predictor;
  int grasps = 0;                 // every sample
  int missing = 0;                // of them, grasps without a value (ranked lowest)
  int successes = 0;              // grasps with trialScore ≥ successScore
  std::optional<double> auc;      // nullopt: undefined (one class only)
  std::optional<double> spearman; // nullopt: undefined (constant predictor or score, or < 2 grasps)
  std::string undefined;          // why auc or spearman is undefined ("" when both are defined)
};

struct PredictionTable {
  double successScore = 1;        // a grasp succeeds when its trial score ≥ this
  int grasps = 0;
  int successes = 0;
  std::vector<PredictorRow> rows; // in the order of the predictors
};

// Every predictor's AUC and Spearman over the samples. sg::Error when a sample's predictor count differs from
// `predictors`, a trial score is not finite or successScore is outside (0, 1].
PredictionTable predictionTable(const std::vector<Predictor>& predictors, const std::vector<PredictionSample>& samples,
                                double successScore);

}  // namespace sg::sim
