#include "PlanYield.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "grasp/planner/GraspPlanner.h"
#include "io/ModelIO.h"

namespace sg::bench {

using namespace sg::planner;

namespace {

// The shorter and longer runs: the same run cut after fewer iterations (the schedule is a function of the
// iteration number, so a run of n iterations is the first n of a longer one), each closed, staged and measured:
// 250, 500, ... iterations, GraspIt!'s 40 000, then doubling while a run takes at most the longest time asked for.
constexpr long kFirstIterations = 250;
constexpr long kDefaultIterations = 40000;
constexpr double kEpsilonTimes_s[3] = {1, 5, 30};

struct RunFigures {
  std::size_t kept = 0, forceClosure = 0, distinct = 0;
  bool firstForceClosure = false;   // the list's first grasp
  bool bestEnergyForceClosure = false;  // the list's grasp of least energy
  double bestEpsilon = 0;           // largest ε L1 of the list (0: no force closure)
  double wall_s = 0;                // planGrasps, search and final stage
  double cpu_s = 0;                 // its process CPU time (one thread: the time on an idle core)
  long iterations = 0;
  long searchEvaluations = 0;       // legal neighbours evaluated (contacts energy), illegal ones not counted
  long closings = 0;                // states the final stage scored (each an auto-grasp closing)
  double illegalRate = 0;           // illegal / (illegal + legal) neighbours
  double fullEvaluationsPerSecond = 0;
  double stepsPerSecond = 0;
  bool invariantsHold = true;
  FinalStageOutcome stage;
};

struct SeedFigures {
  RunFigures full;                  // the step-limited default run
  double firstForceClosure_s = -1;  // < 0: none
  long firstIterations = -1;        // the search iterations of that run (a load-independent count)
  long firstClosings = -1;          // and the final stage's closings
  double epsilonAt[3] = {-1, -1, -1};  // after 1, 5, 30 s; < 0: not run
};

PlanRequest defaultRun(std::uint64_t seed, const YieldOptions& options) {
  PlanRequest request;  // GraspIt!'s default run: simann, contacts, axis-angle, default parameters, 70 000 steps
  request.energy.analysis.contactModels = {options.contactModel};
  request.threads = 1;
  request.seed = seed;
  request.reportMeasures = {"epsilon-l1"};
  request.finalStage.enabled = options.finalStage;
  request.illegalShrink = options.illegalShrink;
  if (!options.restarts) request.finalStage.restarts = 0;
  if (options.refineSteps >= 0) request.finalStage.refineSteps = options.refineSteps;
  return request;
}

double processCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

RunFigures measure(const World& world, const PlanRequest& request) {
  NullProgress quiet;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = processCpuSeconds();
  const PlanResult r = planGrasps(world, request, quiet);
  RunFigures f;
  f.cpu_s = processCpuSeconds() - cpu0;
  f.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  f.stage = r.finalStage;
  f.kept = r.grasps.size();
  std::vector<const PlannedGrasp*> distinct;
  for (const PlannedGrasp& g : r.grasps) {
    if (!g.forceClosure) continue;
    ++f.forceClosure;
    if (const MeasureValue* e = g.measure("epsilon-l1"); e && e->ok) f.bestEpsilon = std::max(f.bestEpsilon, e->value);
    // Distinct: farther than the list's distance rule (0.2, PLANNER.md §Best list) from every distinct one so far.
    const bool far = std::all_of(distinct.begin(), distinct.end(), [&](const PlannedGrasp* d) {
      return r.space.distance(g.variables, d->variables) > 0.2;
    });
    if (far) distinct.push_back(&g);
  }
  f.distinct = distinct.size();
  f.firstForceClosure = !r.grasps.empty() && r.grasps.front().forceClosure;
  // The list's best-energy grasp (least PlannedGrasp::energy, the first of equals), found here rather than taken
  // as the list's first: its force closure is what the issue asks for.
  const auto best = std::min_element(r.grasps.begin(), r.grasps.end(),
                                     [](const PlannedGrasp& a, const PlannedGrasp& b) { return a.energy < b.energy; });
  f.bestEnergyForceClosure = best != r.grasps.end() && best->forceClosure;
  const AnnealingResult& a = r.annealing;
  const double candidates = static_cast<double>(a.illegal + a.evaluations);
  f.iterations = a.iterations;
  f.searchEvaluations = a.evaluations;
  f.closings = r.finalStage.evaluations;
  f.illegalRate = candidates > 0 ? static_cast<double>(a.illegal) / candidates : 0;
  f.fullEvaluationsPerSecond = a.elapsed_s > 0 ? static_cast<double>(a.fullEvaluations) / a.elapsed_s : 0;
  f.stepsPerSecond = a.elapsed_s > 0 ? static_cast<double>(a.iterations) / a.elapsed_s : 0;
  // Checked, not assumed: the list's size and distance rule, ascending energy (with the final stage: within the
  // force-closure grasps and within the others), and its first grasp force closure whenever any is (the final
  // stage's order, PLANNER.md §Final stage).
  f.invariantsHold = r.grasps.size() <= 20;
  for (std::size_t i = 0; i < r.grasps.size(); ++i)
    for (std::size_t j = i + 1; j < r.grasps.size(); ++j) {
      if (r.space.distance(r.grasps[i].variables, r.grasps[j].variables) < 0.2) f.invariantsHold = false;
      const bool samePart = !request.finalStage.enabled || r.grasps[i].forceClosure == r.grasps[j].forceClosure;
      if (samePart && r.grasps[j].energy < r.grasps[i].energy) f.invariantsHold = false;
    }
  if (request.finalStage.enabled && f.forceClosure > 0 && !f.firstForceClosure) f.invariantsHold = false;
  return f;
}

SeedFigures measureSeed(const World& world, std::uint64_t seed, const YieldOptions& options) {
  SeedFigures s;
  // (CPU s, best ε) of every run, shortest first.
  std::vector<std::pair<double, double>> runs;
  std::vector<long> ladder;
  if (options.iterations > 0) {
    ladder.push_back(options.iterations);
  } else {
    for (long n = kFirstIterations; n < kDefaultIterations; n *= 2) ladder.push_back(n);
    for (long n = kDefaultIterations; n <= 64 * kDefaultIterations; n *= 2) ladder.push_back(n);
  }
  std::vector<long> runIterations;  // the iterations of each run made
  for (long n : ladder) {
    // Past GraspIt!'s default run, a run predicted to take more than the longest time asked for adds nothing
    // (the eps columns take runs within their time, the list columns the default run): its CPU time is predicted
    // linear in the iterations from the two runs before (the final stage adds about a constant).
    if (n > kDefaultIterations && runs.size() >= 2 && s.firstForceClosure_s >= 0) {
      const double last_s = runs.back().first, before_s = runs[runs.size() - 2].first;
      const long last = runIterations.back(), before = runIterations[runIterations.size() - 2];
      const double perIteration_s = std::max(0.0, (last_s - before_s) / static_cast<double>(last - before));
      if (last_s + perIteration_s * static_cast<double>(n - last) > options.maxTime_s) break;
    }
    // --quick: no run that would pass the longest time asked for (a run takes about twice the one before) once
    // a force-closure grasp was found, GraspIt!'s default run included; the list columns are the longest run's.
    if (options.quick && !runs.empty() && 2 * runs.back().first > options.maxTime_s && s.firstForceClosure_s >= 0)
      break;
    // Shorter runs past the longest time asked for add nothing once a force-closure grasp was found.
    const bool pastTime = !runs.empty() && runs.back().first > options.maxTime_s && s.firstForceClosure_s >= 0;
    if (n < kDefaultIterations && pastTime) continue;
    PlanRequest request = defaultRun(seed, options);
    request.maxSteps = request.params.k0 + n;
    const RunFigures f = measure(world, request);
    if (n == kDefaultIterations || options.iterations > 0 || options.quick) s.full = f;
    runs.emplace_back(f.cpu_s, f.bestEpsilon);
    runIterations.push_back(n);
    if (s.firstForceClosure_s < 0 && f.forceClosure > 0) {
      s.firstForceClosure_s = f.cpu_s;
      s.firstIterations = f.iterations;
      s.firstClosings = f.closings;
    }
    if (!f.invariantsHold) s.full.invariantsHold = false;
    if (n >= kDefaultIterations && f.cpu_s > options.maxTime_s) break;
  }
  for (int k = 0; k < 3; ++k) {
    if (kEpsilonTimes_s[k] > options.maxTime_s) continue;
    s.epsilonAt[k] = 0;  // no run within the time: nothing found yet
    for (const auto& [cpu_s, epsilon] : runs)
      if (cpu_s <= kEpsilonTimes_s[k]) s.epsilonAt[k] = std::max(s.epsilonAt[k], epsilon);
  }
  return s;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::vector<std::string> bundledHandWorlds(const YieldOptions& options) {
  std::vector<std::string> names;
  if (!options.world.empty()) return {options.world};
  for (const auto& entry : std::filesystem::directory_iterator(std::string(SG_SOURCE_DIR) + "/worlds"))
    if (entry.path().extension() == ".xml") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// "1.23" or "none" (a time < 0: no force-closure grasp within the longest run).
void printTime(double t_s) {
  if (t_s < 0) std::printf(" %7s", "none");
  else std::printf(" %7.2f", t_s);
}

}  // namespace

int planYield(const YieldOptions& options) {
  std::printf("planner yield: GraspIt!'s default run (simann, contacts energy, axis-angle, default parameters, "
              "70000 steps = %ld iterations), 1 thread, %s contacts, final stage %s (restarts %s), illegal-neighbour shrink %g, seeds 1..%d;\n"
              "the same run cut at %ld, %ld, ... iterations and lengthened while it takes at most %g CPU s.\n"
              "Medians over the seeds. FC = force-closure grasps of the list; dist = FC grasps pairwise farther than "
              "0.2 (state distance);\nbestFC = the list's grasp of least energy is FC (med row: seeds where it is); first-FC = CPU s of the shortest run whose "
              "list holds one;\nFC-it, FC-cl = that run's search iterations and final-stage closings (load-independent); eps@t = best eps L1 of the runs\nthat took at most t CPU s; illegal, run s (CPU), full "
              "evaluations/s, steps/s (search only): the default run\n(--quick or --iterations: the longest run made, of run-it search iterations).\n\n",
              kDefaultIterations, options.contactModel.c_str(), options.finalStage ? "on" : "off", options.restarts ? "on" : "off",
              options.illegalShrink, options.seeds, kFirstIterations,
              2 * kFirstIterations, options.maxTime_s);
  std::printf("%-26s %4s %5s %4s %6s %8s %6s %6s %8s %8s %8s %7s %7s %8s %9s %8s\n", "world", "seed", "FC", "dist", "bestFC",
              "first-FC", "FC-it", "FC-cl", "eps@1s", "eps@5s", "eps@30s", "illegal", "run-it", "run s", "fullEv/s", "steps/s");
  int status = 0;
  for (const std::string& name : bundledHandWorlds(options)) {
    const World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
    if (world.robots.empty() || world.graspables.empty()) continue;
    std::vector<SeedFigures> seeds;
    for (int seed = 1; seed <= options.seeds; ++seed) {
      const SeedFigures s = measureSeed(world, static_cast<std::uint64_t>(seed), options);
      seeds.push_back(s);
      std::printf("%-26s %4d %2zu/%-2zu %4zu %6s", name.c_str(), seed, s.full.forceClosure, s.full.kept,
                  s.full.distinct, s.full.bestEnergyForceClosure ? "yes" : "no");
      printTime(s.firstForceClosure_s);
      std::printf(" %6ld %6ld", s.firstIterations, s.firstClosings);
      for (double e : s.epsilonAt) e < 0 ? std::printf(" %8s", "-") : std::printf(" %8.4f", e);
      std::printf(" %6.1f%% %7ld %8.2f %9.0f %8.0f\n", 100 * s.full.illegalRate, s.full.iterations, s.full.cpu_s,
                  s.full.fullEvaluationsPerSecond, s.full.stepsPerSecond);
      if (s.full.stage.ran)
        std::printf("%-26s      final stage of the default run: %.2f s, %ld states scored, %ld illegal and %ld crowded "
                    "moves, %ld improvements (alignment %ld of %ld, sliding %ld of %ld, centring %ld of %ld, restarts %ld of %ld)%s\n", "",
                    s.full.stage.elapsed_s, s.full.stage.evaluations, s.full.stage.illegal, s.full.stage.crowded,
                    s.full.stage.improved, s.full.stage.aligned, s.full.stage.alignmentMoves, s.full.stage.slid,
                    s.full.stage.slidingMoves, s.full.stage.centred,
                    s.full.stage.centringMoves, s.full.stage.restarted, s.full.stage.restartMoves, s.full.stage.budgetSpent ? ", budget spent" : "");
      if (!s.full.invariantsHold) {
        std::printf("  CHECK FAILED: the list breaks its size, distance or order rule\n");
        status = 1;
      }
    }
    auto med = [&](auto get) {
      std::vector<double> v;
      for (const SeedFigures& s : seeds) v.push_back(get(s));
      return median(v);
    };
    // A seed without any force-closure grasp counts as +∞ in the median of the first-FC time.
    const double firstFc = med([](const SeedFigures& s) { return s.firstForceClosure_s < 0 ? 1e300 : s.firstForceClosure_s; });
    std::printf("%-26s %4s %5.1f %4.1f %3.0f/%.0f", name.c_str(), "med", med([](const SeedFigures& s) { return double(s.full.forceClosure); }),
                med([](const SeedFigures& s) { return double(s.full.distinct); }),
                static_cast<double>(std::count_if(seeds.begin(), seeds.end(),
                                                  [](const SeedFigures& s) { return s.full.bestEnergyForceClosure; })),
                static_cast<double>(seeds.size()));
    printTime(firstFc > 1e299 ? -1 : firstFc);
    std::printf(" %6.0f %6.0f", med([](const SeedFigures& s) { return s.firstIterations < 0 ? 1e300 : double(s.firstIterations); }),
                med([](const SeedFigures& s) { return s.firstClosings < 0 ? 1e300 : double(s.firstClosings); }));
    for (int k = 0; k < 3; ++k) {
      const double e = med([k](const SeedFigures& s) { return s.epsilonAt[k]; });
      e < 0 ? std::printf(" %8s", "-") : std::printf(" %8.4f", e);
    }
    std::printf(" %6.1f%% %7.0f %8.2f %9.0f %8.0f\n\n", 100 * med([](const SeedFigures& s) { return s.full.illegalRate; }),
                med([](const SeedFigures& s) { return double(s.full.iterations); }),
                med([](const SeedFigures& s) { return s.full.cpu_s; }),
                med([](const SeedFigures& s) { return s.full.fullEvaluationsPerSecond; }),
                med([](const SeedFigures& s) { return s.full.stepsPerSecond; }));
    std::fflush(stdout);
  }
  return status;
}

}  // namespace sg::bench
