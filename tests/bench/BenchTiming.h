#pragma once
// Wall-clock timing shared by the benchmarks: one call, and the median of repeated calls.
#include <algorithm>
#include <chrono>
#include <ctime>
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

// CPU time of the calling thread (s): unlike the wall clock it does not count the time other processes hold the
// core, so it is the steadier number on a loaded machine (it still counts cache and frequency effects).
inline double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Median wall-clock and median thread-CPU seconds per call, as medianSeconds.
struct Medians {
  double wall_s = 0, cpu_s = 0;
  std::size_t calls = 0;
};
inline Medians medians(const std::function<void()>& f, double budget_s, std::size_t maxCalls) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> wall, cpu;
  double total = 0;
  while (wall.size() < 5 || (total < budget_s && wall.size() < maxCalls)) {
    const double c0 = threadCpuSeconds();
    const auto t0 = Clock::now();
    f();
    wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    cpu.push_back(threadCpuSeconds() - c0);
    total += wall.back();
  }
  auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  Medians m;
  m.calls = wall.size();
  m.wall_s = median(wall);
  m.cpu_s = median(cpu);
  return m;
}

}  // namespace sg::bench
