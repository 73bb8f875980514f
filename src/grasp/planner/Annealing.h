#pragma once
// GraspIt!-style simulated annealing over a box of named variables (PLANNER.md §Annealing): Ingber's
// temperature schedule and neighbour generator, the Metropolis-like acceptance with GraspIt!'s parameter
// sets, a best list with a minimum state distance, several independent chains seeded from one seed and
// run on worker threads, merged deterministically. No Qt, no world: the caller supplies the energy through
// a per-thread evaluator (tests use analytic energies; GraspPlanner.h supplies hand energies).
#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Progress.h"

namespace sg::planner {

// One search variable: a value in [min, max]; circular variables wrap (max ≡ min).
struct SearchVariable {
  std::string name;
  double min = 0, max = 1;
  double maxJump = 0.5;   // neighbour step scale
  bool circular = false;
  bool fixed = false;     // kept at `value`
  double value = 0;       // the start value (the input value)
  // Target-biased neighbours (PLANNER.md §Annealing, GraspIt!'s): with a target and confidence c ∈ (0, 1],
  // the generator's u is drawn from N(u_target, 1 − c), u_target the u that steps onto the target (or a full
  // jump toward it); c = 1 always steps to the target, c = 0 is the plain neighbour.
  std::optional<double> target;
  double confidence = 0;
};

// GraspIt!'s annealing parameter sets (PLANNER.md §Annealing).
struct AnnealingParams {
  std::string name = "default";
  double yc = 7.0, hc = 7.0;          // cooling constants: neighbour (y) and acceptance (h)
  double ydims = 8, hdims = 8;        // their "dimensions" (k^(1/D))
  double neighbourAdjust = 1.0;       // NBR_ADJ: scales the neighbour temperature
  double errorAdjust = 1e-6;          // ERR_ADJ: scales the energy difference in the acceptance
  double t0 = 1e6;                    // starting temperature
  long k0 = 30000;                    // the step counter's start

  static AnnealingParams byName(const std::string& name);  // sg::Error for an unknown name
  static std::vector<std::string> names();                  // default, loop, modified, strict, online
};

// sg::Error unless maxSteps > params.k0. The step counter runs from k0 to maxSteps, as in GraspIt!'s planner
// (DEFAULT starts at 30 000), so a limit at or below the start would run no iteration at all: "3000 steps" with
// the default parameters is a mistake to report, not an empty result.
void requireStepsBeyondStart(long maxSteps, const AnnealingParams& params);

// T(k) = t0 · exp(−c · k^(1/dims)).
double coolingTemperature(double t0, double c, double k, double dims);
// Ingber's generator: y = sgn(u − ½) · T · ((1 + 1/T)^|2u − 1| − 1) ∈ [−1, 1], for u ∈ [0, 1).
double ingberStep(double u, double temperature);
// Its inverse: the u ∈ [0, 1] with ingberStep(u, T) = y, for y ∈ [−1, 1].
double ingberInverse(double y, double temperature);

// Portable reproducible random numbers (SplitMix64): identical sequences on every platform and library.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double normal();  // standard normal (Box–Muller on two uniforms)
 private:
  std::uint64_t state_;
};
// The seed of chain `chain` of a run seeded with `seed`.
std::uint64_t chainSeed(std::uint64_t seed, int chain);

// A neighbour of `x`: each free variable moves by ingberStep(u, T)·maxJump (u uniform, or Gaussian around the
// target's u for a variable with a target), resampled until inside its range (circular ones wrap); after 20
// draws outside the range it is clamped. `stepScale` ∈ (0, 1] scales every step (the search's shrink after an
// illegal neighbour, PLANNER.md §Annealing "Legality-aware neighbours") of the variables without a target; 1 is
// GraspIt!'s neighbour.
std::vector<double> neighbour(const std::vector<SearchVariable>& vars, const std::vector<double>& x,
                              double temperature, Rng& rng, double stepScale = 1.0);

// A live view of a running search for an interactive caller (the application's planner dock): pause, chain
// 0's current state, the best state so far, the energy trace and quality samples. Thread-safe: the chains
// post, any thread reads. It never changes what the search does (the same seed gives the same list with or
// without one, paused or not).
class AnnealingMonitor {
 public:
  struct Sample {
    long iteration = 0;      // iterations of all chains so far
    double current = 0;      // chain 0's current energy
    double best = 0;         // the best energy of all chains so far
  };
  struct QualitySample {
    long iteration = 0;
    double value = 0;        // the best state's quality (the planner measures it, PLANNER.md §Live view)
  };
  struct Snapshot {
    std::vector<Sample> samples;                 // new since the last take()
    std::vector<QualitySample> quality;          // new since the last take()
    std::vector<double> currentState;            // chain 0's current state (empty before its first post)
    double currentEnergy = 0;
    std::vector<double> bestState;               // empty before any legal state
    double bestEnergy = 0;
    std::uint64_t bestRevision = 0;              // grows whenever bestState changes
    long iterations = 0;
  };

  // Chains wait at their next iteration while paused (cancel still stops them; paused time does not count
  // toward the time limit).
  void setPaused(bool paused) { paused_.store(paused); }
  bool paused() const { return paused_.load(); }
  // Takes the news since the last call (samples, quality) and the latest states.
  Snapshot take();
  // The best state so far and its revision (for the planner's quality samples).
  std::pair<std::vector<double>, std::uint64_t> best() const;
  // Iterations of all chains as last posted (never decreases; take() does not clear it).
  long iterations() const;

  // Called by the search.
  void postCurrent(int chain, const std::vector<double>& x, double energy, long iterations);
  void offerBest(const std::vector<double>& x, double energy);
  void postQuality(long iteration, double value);
  void reset();
  static constexpr long kPostEvery = 16;  // chain iterations between posts

 private:
  std::atomic<bool> paused_{false};
  mutable std::mutex mutex_;
  Snapshot pending_;
  double bestEnergy_ = std::numeric_limits<double>::infinity();
};

// The acceptance test of one legal candidate, for an evaluator that can stop early (PLANNER.md §Annealing,
// "Stopping an energy early"). The annealer accepts energy E' when E' < E (the current state's), else when
// u < exp((E − E')·s), s = ERR_ADJ / T_h, u its next uniform number. Given a lower bound L ≤ E' (as the
// evaluator computes E'), rejects(L) is true only when every such E' is rejected. It draws u, once, only when
// L > E for certain: exactly when the annealer would draw u next. So a run is the same number for number.
class AcceptanceTest {
 public:
  AcceptanceTest(double current, double scale, Rng& rng) : current_(current), scale_(scale), rng_(rng) {}
  bool rejects(double lowerBound);
  // The uniform number rejects() drew, if any: the annealer's u for this candidate.
  const std::optional<double>& drawn() const { return u_; }

 private:
  double current_, scale_;
  Rng& rng_;
  std::optional<double> u_;
};

// The energy of a state for one worker thread (it may keep scratch data: one evaluator per thread).
class StateEvaluator {
 public:
  virtual ~StateEvaluator() = default;
  // nullopt: the state is illegal (GraspIt!: the hand collides).
  virtual std::optional<double> energy(const std::vector<double>& x) = 0;
  // As energy(x), but the evaluator may stop once `test` rejects the candidate, and then returns +∞ (too high
  // to accept). It may ask `test` only after it knows the state is legal. By default: energy(x).
  virtual std::optional<double> energy(const std::vector<double>& x, AcceptanceTest& test) {
    (void)test;
    return energy(x);
  }
};
using EvaluatorFactory = std::function<std::unique_ptr<StateEvaluator>()>;
// Distance between two states (the best list's separation rule).
using StateDistance = std::function<double(const std::vector<double>&, const std::vector<double>&)>;

struct BestEntry {
  std::vector<double> x;
  double energy = 0;
  int chain = 0;
  long step = 0;        // the chain's iteration at which it was accepted
};

// The best list (PLANNER.md §Best list): at most `capacity` states, pairwise ≥ minDistance apart.
class BestList {
 public:
  BestList(std::size_t capacity, double minDistance, StateDistance distance);
  // Offers a state; true when it was kept. Rejected when a kept state within minDistance is at least as
  // good, or when the list is full and it is no better than the worst; otherwise the kept states within
  // minDistance (all worse) are dropped, it is inserted in energy order and the list is cut to capacity.
  bool offer(const BestEntry& entry);
  const std::vector<BestEntry>& entries() const { return entries_; }
  double worstEnergy() const;
 private:
  std::size_t capacity_;
  double minDistance_;
  StateDistance distance_;
  std::vector<BestEntry> entries_;  // ascending energy
};

// The best list of several chains' (or child searches') entries, independent of the order they finished in:
// entries are offered by (energy, chain, step), so the same runs give the same list on any thread count.
std::vector<BestEntry> mergeBestEntries(std::vector<BestEntry> all, std::size_t capacity, double minDistance,
                                        const StateDistance& distance);

enum class StopReason { StepLimit, TimeLimit, Cancelled };
const char* toString(StopReason reason);

struct AnnealingRequest {
  std::vector<SearchVariable> variables;  // start values in .value
  AnnealingParams params;
  long maxSteps = 70000;       // the step counter runs from params.k0 to maxSteps
  int chains = 4;              // independent chains (part of the settings: results do not depend on threads)
  int threads = 1;             // worker threads (≤ chains are used)
  std::uint64_t seed = 1;
  double timeLimit_s = 0;      // ≤ 0: none
  std::size_t bestListSize = 20;
  double minDistance = 0.2;
  // Accepted states with energy ≥ this are never listed (GraspIt!: 1e5 while the list is not full).
  double listThreshold = 1e5;
  // Offer the start state to the best list too (the guided planner's children start at their seed).
  bool listStart = false;
  // States within avoidDistance of an avoided state are illegal (the loop planner's avoid list).
  std::vector<std::vector<double>> avoid;
  double avoidDistance = 0.1;
  // Legality-aware neighbours (PLANNER.md §Annealing): each chain scales its steps by s (from 1), multiplied by
  // this factor after an illegal neighbour and divided by its cube root after a legal one (at most 1, at least
  // 1/1024), so its next neighbours stay nearer the legal current state. In (0, 1]; 1: GraspIt!'s neighbours.
  double illegalShrink = 0.5;
  AnnealingMonitor* monitor = nullptr;     // optional live view (not owned)
  // Called on the calling thread every ~10 ms while the chains run (the planner's quality samples).
  std::function<void(long iterations)> poll;
  // Called on the chain's worker thread after every iteration with the chain's current state and energy and
  // whether the iteration moved there (the guided planner's parent collects seeds and spawns children here;
  // it may block). Must not change the search.
  std::function<void(int chain, long iteration, const std::vector<double>& x, double energy, bool accepted)>
      onIteration;
};

struct TracePoint {
  long iteration = 0;
  double current = 0, best = 0;
};

struct AnnealingResult {
  std::vector<BestEntry> best;         // merged, ascending energy, pairwise ≥ minDistance apart
  StopReason stopReason = StopReason::StepLimit;
  long iterations = 0;                 // over all chains
  long evaluations = 0;                // energy evaluations over all chains (legal neighbours)
  long fullEvaluations = 0;            // of those, evaluated to the end (not stopped by the acceptance test)
  long illegal = 0;                    // neighbours rejected as illegal
  double elapsed_s = 0;
  std::vector<std::vector<TracePoint>> traces;  // per chain, every 1/100 of its iterations
};

// sg::Error unless illegalShrink ∈ (0, 1].
void requireValidIllegalShrink(double illegalShrink);

// Iterations per chain: ceil((maxSteps − k0) / chains); chain iteration i runs at step k = k0 + i·chains + 1.
long iterationsPerChain(const AnnealingRequest& request);

// Runs the chains (chain c seeded with chainSeed(seed, c)) on min(threads, chains) worker threads, each with
// its own evaluator from `factory`, and merges their best lists: all entries sorted by (energy, chain, step)
// and offered to one list. Progress is reported on the calling thread (~20 Hz); cancel and the time limit
// stop every chain at its next iteration (the result then holds what was found so far). sg::Error from an
// evaluator is rethrown after every worker stopped.
AnnealingResult runAnnealing(const AnnealingRequest& request, const EvaluatorFactory& factory,
                             const StateDistance& distance, ProgressSink& progress);

}  // namespace sg::planner
