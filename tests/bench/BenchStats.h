#pragma once
// Timing over a set of varied (jittered) inputs: every call on one of N states is one sample, the states taken in
// turn, so no single input is repeated back to back for the caches and branch predictors to learn; the median and
// the 90th percentile of the samples. Cross-checks that fail the benchmark: CrossCheck counts the failures and
// the benchmark's exit status reports them (kCrossCheckFailed).
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace sg::bench {

struct Spread {
  double median_s = 0, p90_s = 0;
  std::size_t samples = 0;
};

// The sample at rank ⌈q·n⌉ (nearest rank), q in (0, 1].
inline double quantileOf(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const std::size_t n = v.size();
  std::size_t k = static_cast<std::size_t>(q * static_cast<double>(n) + 0.999999);
  k = std::clamp<std::size_t>(k, 1, n) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

inline Spread spreadOf(const std::vector<double>& samples) {
  return {quantileOf(samples, 0.5), quantileOf(samples, 0.9), samples.size()};
}

// Times query(k) for k = 0, 1, …, states − 1, round after round, until at least `minRounds` rounds and then until
// `budget_s` seconds of timed calls or `maxRounds` rounds. prepare(k), untimed, runs before each timed call (e.g.
// moving the reference's objects to state k).
inline Spread spreadOverStates(std::size_t states, const std::function<void(std::size_t)>& query, double budget_s,
                               std::size_t minRounds = 3, std::size_t maxRounds = 200,
                               const std::function<void(std::size_t)>& prepare = {}) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> samples;
  double total = 0;
  for (std::size_t round = 0; round < maxRounds && (round < minRounds || total < budget_s); ++round)
    for (std::size_t k = 0; k < states; ++k) {
      if (prepare) prepare(k);
      const auto t0 = Clock::now();
      query(k);
      samples.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      total += samples.back();
    }
  return spreadOf(samples);
}

inline constexpr int kCrossCheckFailed = 3;  // exit status of a benchmark whose cross-check failed

// Collects cross-check failures: each is printed at once ("CROSS-CHECK FAILED: …") and counted.
struct CrossCheck {
  std::size_t checks = 0, failures = 0;
  void expect(bool ok, const std::string& what) {
    ++checks;
    if (ok) return;
    ++failures;
    std::printf("  CROSS-CHECK FAILED: %s\n", what.c_str());
  }
  // The final line and the exit status: 0 when every check held.
  int finish() const {
    std::printf("\ncross-checks: %zu, failed: %zu\n", checks, failures);
    return failures == 0 ? 0 : kCrossCheckFailed;
  }
};

}  // namespace sg::bench
