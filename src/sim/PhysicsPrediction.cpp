#include "sim/PhysicsPrediction.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/Error.h"

namespace sg::sim {

namespace {

void requireFinite(const std::vector<double>& values, const char* what) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!std::isfinite(values[i])) throw Error(std::string(what) + " " + std::to_string(i) + " is not a finite number");
}

}  // namespace

std::vector<double> averageRanks(const std::vector<double>& values) {
  requireFinite(values, "value");
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> ranks(values.size());
  for (std::size_t begin = 0; begin < order.size();) {
    std::size_t end = begin + 1;
    while (end < order.size() && values[order[end]] == values[order[begin]]) ++end;
    // Positions begin..end-1 hold equal values: each gets the mean of the 1-based ranks begin+1..end.
    const double mean = 0.5 * static_cast<double>(begin + 1 + end);
    for (std::size_t k = begin; k < end; ++k) ranks[order[k]] = mean;
    begin = end;
  }
  return ranks;
}

std::optional<double> rocAuc(const std::vector<double>& scores, const std::vector<bool>& positive) {
  if (scores.size() != positive.size())
    throw Error("ROC AUC: " + std::to_string(scores.size()) + " scores but " + std::to_string(positive.size()) +
                " labels");
  const std::vector<double> ranks = averageRanks(scores);
  double positives = 0, rankSum = 0;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (positive[i]) {
      positives += 1;
      rankSum += ranks[i];
    }
  const double negatives = static_cast<double>(scores.size()) - positives;
  if (positives == 0 || negatives == 0) return std::nullopt;
  // Mann–Whitney: U = R₊ − P(P+1)/2 counts the (positive, negative) pairs ordered right, ties as one half.
  const double u = rankSum - positives * (positives + 1) / 2;
  return u / (positives * negatives);
}

std::optional<double> spearman(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    throw Error("Spearman: " + std::to_string(x.size()) + " values against " + std::to_string(y.size()));
  if (x.size() < 2) {
    requireFinite(x, "value");
    requireFinite(y, "value");
    return std::nullopt;
  }
  const std::vector<double> rx = averageRanks(x), ry = averageRanks(y);
  const double n = static_cast<double>(x.size());
  const double mean = (n + 1) / 2;  // the mean of average ranks is always (n+1)/2
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) * (rx[i] - mean);
    syy += (ry[i] - mean) * (ry[i] - mean);
  }
  if (sxx == 0 || syy == 0) return std::nullopt;
  return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

PredictionTable predictionTable(const std::vector<Predictor>& predictors, const std::vector<PredictionSample>& samples,
                                double successScore) {
  if (!(successScore > 0 && successScore <= 1))
    throw Error("success score must be in (0, 1], got " + std::to_string(successScore));
  PredictionTable table;
  table.successScore = successScore;
  table.grasps = static_cast<int>(samples.size());
  for (std::size_t s = 0; s < samples.size(); ++s) {
    if (!std::isfinite(samples[s].trialScore))
      throw Error("grasp " + std::to_string(s) + ": trial score is not a finite number");
    if (samples[s].predictors.size() != predictors.size())
      throw Error("grasp " + std::to_string(s) + ": " + std::to_string(samples[s].predictors.size()) +
                  " predictor values for " + std::to_string(predictors.size()) + " predictors");
    if (samples[s].trialScore >= successScore) ++table.successes;
  }
  for (std::size_t p = 0; p < predictors.size(); ++p) {
    PredictorRow row;
    row.predictor = predictors[p];
    std::vector<double> values, scores;
    std::vector<bool> success;
    double lowest = 0;
    bool any = false;
    for (const PredictionSample& s : samples) {
      const std::optional<double>& v = s.predictors[p];
      if (v && !std::isfinite(*v))
        throw Error(predictors[p].model + " " + predictors[p].measure + ": a value is not a finite number");
      if (v) lowest = any ? std::min(lowest, *v) : *v;
      any = any || v.has_value();
    }
    for (const PredictionSample& s : samples) {
      const std::optional<double>& v = s.predictors[p];
      if (!v) ++row.missing;
      values.push_back(v ? *v : lowest - 1);  // below every value: only the order matters (header)
      scores.push_back(s.trialScore);
      success.push_back(s.trialScore >= successScore);
    }
    row.grasps = static_cast<int>(values.size());
    row.successes = static_cast<int>(std::count(success.begin(), success.end(), true));
    row.auc = rocAuc(values, success);
    row.spearman = spearman(values, scores);
    std::vector<std::string> why;
    if (!row.auc)
      why.push_back(row.grasps == 0 ? "no grasp"
                    : row.successes == 0 ? "AUC undefined: no grasp succeeded"
                                         : "AUC undefined: every grasp succeeded");
    if (!row.spearman && row.grasps > 0) why.push_back("Spearman undefined: constant predictor or trial score");
    for (const std::string& w : why) row.undefined += (row.undefined.empty() ? "" : "; ") + w;
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace sg::sim
