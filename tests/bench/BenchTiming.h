#pragma once
// Wall-clock timing shared by the benchmarks: one call, and the median of repeated calls.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

namespace sg::bench {

inline double secondsOf(const std::function<void()>& f) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Median seconds per call: at least 5 calls, then more until `budget_s` seconds are spent or `maxCalls`
// calls are made. A median, not a mean, so one slow call (another process on the core) does not count.
inline double medianSeconds(const std::function<void()>& f, double budget_s, std::size_t maxCalls) {
  std::vector<double> samples;
  double total = 0;
  while (samples.size() < 5 || (total < budget_s && samples.size() < maxCalls)) {
    samples.push_back(secondsOf(f));
    total += samples.back();
  }
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
  return samples[samples.size() / 2];
}

}  // namespace sg::bench
