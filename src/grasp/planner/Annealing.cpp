#include "grasp/planner/Annealing.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>

#include "core/Error.h"
#include "core/NumberFormat.h"

namespace sg::planner {

AnnealingParams AnnealingParams::byName(const std::string& name) {
  //                 name        YC    HC    YDIMS HDIMS NBR_ADJ ERR_ADJ T0    K0
  auto make = [](const char* n, double yc, double hc, double yd, double hd, double nbr, double err, double t0,
                 long k0) { return AnnealingParams{n, yc, hc, yd, hd, nbr, err, t0, k0}; };
  if (name == "default") return make("default", 7.0, 7.0, 8, 8, 1.0, 1e-6, 1e6, 30000);
  if (name == "loop") return make("loop", 7.0, 7.0, 8, 8, 1.0, 1e-6, 1e6, 35000);
  if (name == "modified") return make("modified", 2.38, 2.38, 8, 8, 1e-3, 0.1, 1e3, 0);
  if (name == "strict") return make("strict", 0.72, 0.22, 2, 2, 1.0, 1.0, 10, 0);
  if (name == "online") return make("online", 0.24, 0.54, 2, 3, 1.0, 1e-2, 10, 100);
  throw Error("unknown annealing parameter set '" + name + "' (default, loop, modified, strict, online)");
}

std::vector<std::string> AnnealingParams::names() { return {"default", "loop", "modified", "strict", "online"}; }

bool AcceptanceTest::rejects(double lowerBound) {
  // E' ≥ L > E, with a margin for the rounding of the evaluator's sum: the annealer would now draw u.
  if (!std::isfinite(current_) || !(lowerBound > current_ + 1e-9 * (std::abs(current_) + 1.0))) return false;
  if (!u_) u_ = rng_.uniform();
  // Rejected when exp((E − L)·s) < u with a margin of 1e-9 in the exponent, which covers the rounding of the
  // annealer's exp((E − E')·s) for every E' ≥ L. (u = 0: log u = −∞, never rejected here, as in the annealer.)
  return (current_ - lowerBound) * scale_ < std::log(*u_) - 1e-9;
}

void requireStepsBeyondStart(long maxSteps, const AnnealingParams& params) {
  if (maxSteps > params.k0) return;
  const std::string k0 = std::to_string(params.k0);
  throw Error("the step limit " + std::to_string(maxSteps) + " does not exceed the first step of the '" + params.name +
              "' parameters, " + k0 + ": the annealing's step counter runs from " + k0 +
              " to the limit (as in GraspIt!), so N iterations need a limit of " + k0 + " + N");
}

double coolingTemperature(double t0, double c, double k, double dims) {
  return t0 * std::exp(-c * std::pow(std::max(k, 0.0), 1.0 / dims));
}

double ingberStep(double u, double temperature) {
  const double t = std::max(temperature, 1e-300);
  const double a = std::abs(2.0 * u - 1.0);
  // (1 + 1/T)^a − 1 computed as expm1(a·log1p(1/T)) to keep precision for small a.
  const double y = t * std::expm1(a * std::log1p(1.0 / t));
  return std::clamp(u < 0.5 ? -y : y, -1.0, 1.0);
}

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t chainSeed(std::uint64_t seed, int chain) {
  Rng r(seed ^ (0xd1b54a32d192ed03ULL * static_cast<std::uint64_t>(chain + 1)));
  r.next();
  return r.next();
}

double ingberInverse(double y, double temperature) {
  const double t = std::max(temperature, 1e-300);
  const double a = std::clamp(std::log1p(std::abs(y) / t) / std::log1p(1.0 / t), 0.0, 1.0);
  return y < 0 ? 0.5 - 0.5 * a : 0.5 + 0.5 * a;
}

double Rng::normal() {
  // Box–Muller (portable: no library distribution, whose algorithm differs between standard libraries).
  const double u1 = 1.0 - uniform();  // (0, 1]
  const double u2 = uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

namespace {

double wrapInto(const SearchVariable& v, double value) {
  const double range = v.max - v.min;
  return v.min + std::fmod(std::fmod(value - v.min, range) + range, range);
}

// The step in [−1, 1] (in units of maxJump) for variable v at x: Ingber's generator, or with a target the
// biased draw u ~ N(ingberInverse(d), 1 − confidence) with d the step to the target (PLANNER.md §Annealing).
double drawStep(const SearchVariable& v, double x, double temperature, Rng& rng) {
  const double confidence = std::clamp(v.confidence, 0.0, 1.0);
  if (!v.target || confidence <= 0 || v.maxJump <= 0) return ingberStep(rng.uniform(), temperature);
  const double range = v.max - v.min;
  double delta = std::clamp(*v.target, v.min, v.max) - x;
  if (v.circular && range > 0) delta = std::remainder(delta, range);
  const double mean = ingberInverse(std::clamp(delta / v.maxJump, -1.0, 1.0), temperature);
  const double sigma = std::sqrt(1.0 - confidence);
  // Exactly the target when it is within one jump and the confidence is 1 (no rounding through the generator).
  if (sigma == 0 && std::abs(delta) <= v.maxJump) return delta / v.maxJump;
  double u = mean;
  for (int attempt = 0; attempt < 20; ++attempt) {
    u = mean + sigma * rng.normal();
    if (u >= 0 && u <= 1) break;
  }
  u = std::clamp(u, 0.0, 1.0);
  return ingberStep(u, temperature);
}

}  // namespace

std::vector<double> neighbour(const std::vector<SearchVariable>& vars, const std::vector<double>& x,
                              double temperature, Rng& rng, double stepScale) {
  std::vector<double> out = x;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const SearchVariable& v = vars[i];
    if (v.fixed) continue;
    const double range = v.max - v.min;
    // A variable with a target keeps its whole step: the biased draw already aims it (c = 1 lands on the target).
    const double scale = v.target && v.confidence > 0 ? 1.0 : stepScale;
    double candidate = x[i];
    bool inside = false;
    for (int attempt = 0; attempt < 20 && !inside; ++attempt) {
      candidate = x[i] + scale * drawStep(v, x[i], temperature, rng) * v.maxJump;
      if (v.circular && range > 0) {
        candidate = wrapInto(v, candidate);
        inside = true;
      } else {
        inside = candidate >= v.min && candidate <= v.max;
      }
    }
    out[i] = std::clamp(candidate, v.min, v.max);
  }
  return out;
}

AnnealingMonitor::Snapshot AnnealingMonitor::take() {
  const std::lock_guard lock(mutex_);
  Snapshot out = pending_;
  pending_.samples.clear();
  pending_.quality.clear();
  return out;
}

std::pair<std::vector<double>, std::uint64_t> AnnealingMonitor::best() const {
  const std::lock_guard lock(mutex_);
  return {pending_.bestState, pending_.bestRevision};
}

long AnnealingMonitor::iterations() const {
  const std::lock_guard lock(mutex_);
  return pending_.iterations;
}

void AnnealingMonitor::postCurrent(int chain, const std::vector<double>& x, double energy, long iterations) {
  const std::lock_guard lock(mutex_);
  pending_.iterations = std::max(pending_.iterations, iterations);
  if (chain != 0) return;
  pending_.currentState = x;
  pending_.currentEnergy = energy;
  if (std::isfinite(energy) && std::isfinite(bestEnergy_))
    pending_.samples.push_back({pending_.iterations, energy, bestEnergy_});
}

void AnnealingMonitor::offerBest(const std::vector<double>& x, double energy) {
  const std::lock_guard lock(mutex_);
  if (!(energy < bestEnergy_)) return;
  bestEnergy_ = energy;
  pending_.bestState = x;
  pending_.bestEnergy = energy;
  ++pending_.bestRevision;
}

void AnnealingMonitor::postQuality(long iteration, double value) {
  const std::lock_guard lock(mutex_);
  pending_.quality.push_back({iteration, value});
}

void AnnealingMonitor::reset() {
  const std::lock_guard lock(mutex_);
  pending_ = {};
  bestEnergy_ = std::numeric_limits<double>::infinity();
}

std::vector<BestEntry> mergeBestEntries(std::vector<BestEntry> all, std::size_t capacity, double minDistance,
                                        const StateDistance& distance) {
  std::sort(all.begin(), all.end(), [](const BestEntry& a, const BestEntry& b) {
    if (a.energy != b.energy) return a.energy < b.energy;
    if (a.chain != b.chain) return a.chain < b.chain;
    return a.step < b.step;
  });
  BestList merged(capacity, minDistance, distance);
  for (const BestEntry& e : all) merged.offer(e);
  return merged.entries();
}

BestList::BestList(std::size_t capacity, double minDistance, StateDistance distance)
    : capacity_(capacity), minDistance_(minDistance), distance_(std::move(distance)) {}

double BestList::worstEnergy() const {
  return entries_.empty() ? std::numeric_limits<double>::infinity() : entries_.back().energy;
}

bool BestList::offer(const BestEntry& entry) {
  if (capacity_ == 0) return false;
  if (entries_.size() >= capacity_ && entry.energy >= worstEnergy()) return false;
  std::vector<std::size_t> near;
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (distance_(entries_[i].x, entry.x) < minDistance_) {
      if (entries_[i].energy <= entry.energy) return false;
      near.push_back(i);
    }
  for (auto it = near.rbegin(); it != near.rend(); ++it) entries_.erase(entries_.begin() + static_cast<long>(*it));
  auto pos = std::upper_bound(entries_.begin(), entries_.end(), entry.energy,
                              [](double e, const BestEntry& b) { return e < b.energy; });
  entries_.insert(pos, entry);
  if (entries_.size() > capacity_) entries_.resize(capacity_);
  return true;
}

const char* toString(StopReason reason) {
  switch (reason) {
    case StopReason::StepLimit: return "step-limit";
    case StopReason::TimeLimit: return "time-limit";
    case StopReason::Cancelled: return "cancelled";
  }
  return "?";
}

void requireValidIllegalShrink(double illegalShrink) {
  if (!(illegalShrink > 0 && illegalShrink <= 1))
    throw Error("annealing: the illegal-move shrink must be in (0, 1], got " + formatDouble(illegalShrink));
}

long iterationsPerChain(const AnnealingRequest& request) {
  const long span = std::max(0L, request.maxSteps - request.params.k0);
  const long chains = std::max(1, request.chains);
  return (span + chains - 1) / chains;
}

namespace {

struct ChainOutcome {
  std::vector<BestEntry> best;
  std::vector<TracePoint> trace;
  long iterations = 0, evaluations = 0, illegal = 0, fullEvaluations = 0;
};

constexpr int kLegalAttempts = 11;  // GraspIt!: tries for a legal neighbour per iteration
constexpr double kMinStepScale = 1.0 / 1024;  // the legality-aware step scale's floor

ChainOutcome runChain(const AnnealingRequest& request, int chain, StateEvaluator& evaluator,
                      const StateDistance& distance, const std::atomic<bool>& stop,
                      std::atomic<long>& iterationsDone) {
  ChainOutcome out;
  const AnnealingParams& p = request.params;
  Rng rng(chainSeed(request.seed, chain));
  BestList best(request.bestListSize, request.minDistance, distance);
  std::vector<double> x;
  for (const SearchVariable& v : request.variables) x.push_back(std::clamp(v.value, v.min, v.max));
  // The start state may be illegal (a colliding hand): it then has +∞ energy and any legal neighbour is taken.
  double e = evaluator.energy(x).value_or(std::numeric_limits<double>::infinity());
  ++out.evaluations;
  ++out.fullEvaluations;
  AnnealingMonitor* monitor = request.monitor;
  if (monitor && std::isfinite(e)) monitor->offerBest(x, e);
  if (request.listStart && e < request.listThreshold) best.offer({x, e, chain, -1});
  auto avoided = [&](const std::vector<double>& y) {
    for (const std::vector<double>& a : request.avoid)
      if (distance(a, y) < request.avoidDistance) return true;
    return false;
  };
  double bestEnergy = e;
  // Legality-aware neighbours (PLANNER.md §Annealing): the chain's step scale shrinks by illegalShrink after an
  // illegal neighbour and grows by its cube root after a legal one (up to 1), so where most steps collide
  // (a hand pressed against the object) about a quarter of the candidates stay illegal.
  double stepScale = 1.0;
  const double growth = std::cbrt(request.illegalShrink);
  const long n = iterationsPerChain(request);
  const long stride = std::max(1, request.chains);
  const long traceEvery = std::max(1L, n / 100);
  for (long i = 0; i < n; ++i) {
    if (stop.load(std::memory_order_relaxed)) break;
    while (monitor && monitor->paused() && !stop.load(std::memory_order_relaxed))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (stop.load(std::memory_order_relaxed)) break;
    const double k = static_cast<double>(p.k0 + i * stride + chain % stride + 1);
    const double tNeighbour = p.neighbourAdjust * coolingTemperature(p.t0, p.yc, k, p.ydims);
    const double tAccept = coolingTemperature(p.t0, p.hc, k, p.hdims);
    std::optional<double> candidateEnergy;
    std::vector<double> candidate;
    std::optional<double> drawn;  // u, when the evaluator's acceptance test drew it
    for (int attempt = 0; attempt < kLegalAttempts && !candidateEnergy; ++attempt) {
      candidate = neighbour(request.variables, x, tNeighbour, rng, stepScale);
      if (!request.avoid.empty() && avoided(candidate)) {
        ++out.illegal;
        continue;
      }
      AcceptanceTest test(e, p.errorAdjust / tAccept, rng);
      candidateEnergy = evaluator.energy(candidate, test);
      drawn = test.drawn();
      if (candidateEnergy) ++out.evaluations;
      else ++out.illegal;
      stepScale = candidateEnergy ? std::min(1.0, stepScale / growth) : std::max(kMinStepScale, stepScale * request.illegalShrink);
      if (candidateEnergy && std::isfinite(*candidateEnergy)) ++out.fullEvaluations;  // not stopped early
    }
    ++out.iterations;
    iterationsDone.fetch_add(1, std::memory_order_relaxed);
    bool moved = false;
    if (candidateEnergy) {
      const double eNew = *candidateEnergy;
      bool accept = eNew < e;
      if (!accept) {
        const double u = drawn ? *drawn : rng.uniform();
        accept = std::isfinite(eNew) && u < std::exp((e - eNew) * p.errorAdjust / tAccept);
      }
      if (accept) {
        moved = true;
        x = std::move(candidate);
        e = eNew;
        bestEnergy = std::min(bestEnergy, e);
        if (e < request.listThreshold) best.offer({x, e, chain, i});
        if (monitor && e <= bestEnergy) monitor->offerBest(x, e);  // the chain's new best
      }
    }
    if (request.onIteration) request.onIteration(chain, i, x, e, moved);
    if (monitor && (i % AnnealingMonitor::kPostEvery == 0 || i + 1 == n))
      monitor->postCurrent(chain, x, e, iterationsDone.load(std::memory_order_relaxed));
    if (i % traceEvery == 0 || i + 1 == n) out.trace.push_back({i, e, bestEnergy});
  }
  out.best = best.entries();
  return out;
}

}  // namespace

AnnealingResult runAnnealing(const AnnealingRequest& request, const EvaluatorFactory& factory,
                             const StateDistance& distance, ProgressSink& progress) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  requireValidIllegalShrink(request.illegalShrink);
  const int chains = std::max(1, request.chains);
  const int threads = std::clamp(request.threads, 1, chains);
  std::vector<ChainOutcome> outcomes(static_cast<std::size_t>(chains));
  std::atomic<int> nextChain{0};
  std::atomic<bool> stop{false};
  std::atomic<long> iterationsDone{0};
  std::atomic<int> running{threads};
  std::mutex errorMutex;
  std::exception_ptr error;

  auto worker = [&] {
    try {
      std::unique_ptr<StateEvaluator> evaluator = factory();
      for (int c; (c = nextChain.fetch_add(1)) < chains;) {
        if (stop.load()) break;
        outcomes[static_cast<std::size_t>(c)] = runChain(request, c, *evaluator, distance, stop, iterationsDone);
      }
    } catch (...) {
      std::lock_guard lock(errorMutex);
      if (!error) error = std::current_exception();
      stop.store(true);
    }
    running.fetch_sub(1);
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);

  // The calling thread: progress, cancel, time limit.
  AnnealingResult result;
  const long total = std::max(1L, iterationsPerChain(request) * chains);
  double paused_s = 0;
  auto last = Clock::now();
  while (running.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const auto now = Clock::now();
    if (request.monitor && request.monitor->paused()) paused_s += std::chrono::duration<double>(now - last).count();
    last = now;
    const double elapsed = std::chrono::duration<double>(now - start).count() - paused_s;
    if (!stop.load()) {
      if (progress.cancelRequested()) {
        result.stopReason = StopReason::Cancelled;
        stop.store(true);
      } else if (request.timeLimit_s > 0 && elapsed >= request.timeLimit_s) {
        result.stopReason = StopReason::TimeLimit;
        stop.store(true);
      }
    }
    const long done = iterationsDone.load();
    if (request.poll && !stop.load()) request.poll(done);
    progress.report(static_cast<double>(done) / static_cast<double>(total),
                    "annealing: " + std::to_string(done) + "/" + std::to_string(total) + " iterations");
  }
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);

  std::vector<BestEntry> all;
  for (ChainOutcome& o : outcomes) {
    all.insert(all.end(), o.best.begin(), o.best.end());
    result.iterations += o.iterations;
    result.evaluations += o.evaluations;
    result.fullEvaluations += o.fullEvaluations;
    result.illegal += o.illegal;
    result.traces.push_back(std::move(o.trace));
  }
  result.best = mergeBestEntries(std::move(all), request.bestListSize, request.minDistance, distance);
  result.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
  progress.report(1.0, "annealing: done (" + std::string(toString(result.stopReason)) + ")");
  return result;
}

}  // namespace sg::planner
