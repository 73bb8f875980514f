// bench_plan: planner steps per second for each energy on 1 thread and on all cores, on the default world
// (ThreeFinger + mug) and the FiveFinger world; not a ctest.
// Then the hand-contacts energy's distance queries (one per link and state) over a sequence of nearby states:
// SoftGrasp and FCL (FclReference.h, BVHs built once), each cold and warm-started (SoftGrasp: temporal
// coherence; FCL: seeded with the previous state's closest pair), the same sequence in the same run, ratios warm
// to warm and cold to cold; every answer cross-checked (a mismatch exits with status 3).
//   bench_plan [ITERATIONS_CONTACTS [ITERATIONS_AUTOGRASP]]   (0 skips that energy; FiveFinger's auto-grasp runs a
//                                            tenth; the default 40 000 contacts iterations are GraspIt!'s default run)
//   bench_plan --sequence [STATES [WORLD]]   only the distance-query sequences (default 2000 states; WORLD:
//                                            default.xml or fivefinger_cylinder.xml, default both)
//   bench_plan --search WORLD [ITERATIONS [ENERGY]]   only the annealing search (1 thread, seed 1, no measuring
//                                            of the kept grasps): steps per CPU second of the search alone; a
//                                            fixed run for profiling (callgrind --toggle-collect=*runAnnealing*)
//   bench_plan --yield [--max-time S] [--seeds N] [--world WORLD] [--quick] [--iterations N] [--no-final-stage] [--refine-steps N]
//                      [--contact-model point|soft-finger] [--graspit-neighbours] [--no-restarts]
//                      [--contact-model NAME]
//                                            the planner's yield on every bundled hand/object world (PlanYield.h):
//                                            seeds 1..N (5), runs up to S CPU s (30; GraspIt!'s default run
//                                            always, longer ones while predicted to fit S); --quick: only the runs
//                                            that fit S (no default run unless it fits); --iterations N: only
//                                            the run of N iterations (fixed work, for callgrind)
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <thread>

#include "BenchStats.h"
#include "BenchTiming.h"
#include "FclReference.h"
#include "PlanYield.h"
#include "geometry/BvhCache.h"
#include "geometry/Proximity.h"
#include "grasp/planner/GraspPlanner.h"
#include "io/ModelIO.h"

using namespace sg;
using namespace sg::planner;

namespace {

bench::CrossCheck sequenceCheck;  // the distance sequences' answers and the search's counts: a mismatch fails the run

void run(const World& world, const char* worldName, EnergyKind energy, long iterations, int threads) {
  PlanRequest request;
  request.energy.kind = energy;
  request.energy.analysis.contactModels = {"point"};
  request.maxSteps = request.params.k0 + iterations;
  request.chains = std::max(4, threads);
  request.threads = threads;
  request.seed = 1;
  request.reportMeasures = {"epsilon-l1"};
  NullProgress progress;
  // Process CPU time as well as wall time: on a loaded shared machine steps per CPU second is the stable figure.
  timespec cpu0{}, cpu1{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
  const PlanResult r = planGrasps(world, request, progress);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
  const double cpu_s = static_cast<double>(cpu1.tv_sec - cpu0.tv_sec) + 1e-9 * static_cast<double>(cpu1.tv_nsec - cpu0.tv_nsec);
  const AnnealingResult& a = r.annealing;
  const double rate = static_cast<double>(a.iterations) / a.elapsed_s;
  std::size_t fc = 0;
  for (const PlannedGrasp& g : r.grasps) fc += g.forceClosure;
  // Evaluations: legal candidates whose energy was computed (a contacts-energy candidate stopped early by the
  // acceptance test counts; `--search` separates those): a step tries up to 11 neighbours for a legal one
  // (Annealing.cpp, kLegalAttempts) and may end without one.
  std::printf("%-26s %-18s %2d thread(s): %7ld iterations (%7ld evaluations, %6ld illegal) in %7.3f s = %9.0f steps/s,"
              " %9.0f evaluations/s (%7.0f steps/s per thread); %9.0f steps per CPU s (incl. measuring the list);"
              " %2zu grasps, %2zu force closure\n",
              worldName, toString(energy), threads, a.iterations, a.evaluations, a.illegal, a.elapsed_s, rate,
              static_cast<double>(a.evaluations) / a.elapsed_s, rate / threads, static_cast<double>(a.iterations) / cpu_s,
              r.grasps.size(), fc);
}

// Every link's distance to the graspable along a deterministic random walk of small steps from the world's
// hand pose (palm steps of ~1 mm and ~1.5°, DOF steps of 1 % of their range, pulled back toward the start
// as the annealer's neighbours at low temperature stay near the current state).
void distanceSequence(const World& world, const char* worldName, int states) {
  if (world.robots.empty() || world.graspables.empty() || !world.graspables.front().mesh) return;
  const Robot& robot = world.robots.front();
  RobotState rs = world.state.robots.front();
  const Transform X_WG = world.state.X_WG.front();
  const auto objectBvh = bvhFor(world.graspables.front().mesh);
  std::vector<BodyRef> refs;
  std::vector<std::shared_ptr<const Bvh>> linkBvhs;
  std::vector<const TriangleMesh*> linkMeshes;
  for (const BodyRef& ref : robot.bodyRefs()) {
    const Body& b = robot.body(ref);
    if (!b.mesh || b.mesh->empty()) continue;
    refs.push_back(ref);
    linkBvhs.push_back(bvhFor(b.mesh));
    linkMeshes.push_back(b.mesh.get());
  }
  const std::size_t links = refs.size();
  std::mt19937 rng(1);
  std::normal_distribution<double> n01(0.0, 1.0);
  const Transform X_WP0 = rs.X_WP;
  const std::vector<double> q0 = rs.dofValues;
  Transform X_WP = X_WP0;
  std::vector<double> q = q0;
  std::vector<std::vector<Transform>> X_WL(static_cast<std::size_t>(states), std::vector<Transform>(links));
  for (int s = 0; s < states; ++s) {
    const Vec3 axis = Vec3(n01(rng), n01(rng), n01(rng)).normalized();
    const Vec3 step = Vec3(n01(rng), n01(rng), n01(rng)) + 0.05 * (X_WP0.translation() - X_WP.translation());
    X_WP = Transform(X_WP.rotation() * Quat(Eigen::AngleAxisd(0.026 * n01(rng), axis)), X_WP.translation() + step);
    X_WP = Transform(X_WP.rotation().slerp(0.05, X_WP0.rotation()), X_WP.translation());
    for (std::size_t k = 0; k < q.size(); ++k) {
      const Dof& d = robot.dofs[k];
      q[k] = std::clamp(q[k] + 0.01 * (d.maxValue - d.minValue) * n01(rng) + 0.05 * (q0[k] - q[k]), d.minValue, d.maxValue);
    }
    setRobotPose(robot, rs, X_WP);
    setDofValues(robot, rs, q);
    for (std::size_t l = 0; l < links; ++l) X_WL[static_cast<std::size_t>(s)][l] = X_WB(rs, refs[l]);
  }
  const double queries = static_cast<double>(states) * static_cast<double>(links);

  std::vector<double> warmDistances, coldDistances, fclDistances;
  auto runWarm = [&] {
    std::vector<DistanceWarmStart> warm(links);  // one per link, as HandEvaluator's LinkProbe
    warmDistances.clear();
    for (const auto& poses : X_WL)
      for (std::size_t l = 0; l < links; ++l)
        warmDistances.push_back(meshDistance(*linkBvhs[l], poses[l], *objectBvh, X_WG, warm[l]).distance_mm);
  };
  auto runCold = [&] {
    coldDistances.clear();
    for (const auto& poses : X_WL)
      for (std::size_t l = 0; l < links; ++l)
        coldDistances.push_back(meshDistance(*linkBvhs[l], poses[l], *objectBvh, X_WG).distance_mm);
  };
  // Median of three runs, wall clock and thread CPU time (the CPU figure does not count the time other
  // processes hold the core: the steadier one on a loaded machine).
  auto median3 = [](const std::function<void()>& f) {
    double w[3], c[3];
    for (int k = 0; k < 3; ++k) {
      const double c0 = bench::threadCpuSeconds();
      w[k] = bench::secondsOf(f);
      c[k] = bench::threadCpuSeconds() - c0;
    }
    std::sort(w, w + 3);
    std::sort(c, c + 3);
    return std::pair<double, double>{w[1], c[1]};
  };
  const auto [tWarm, cWarm] = median3(runWarm);
  const auto [tCold, cCold] = median3(runCold);
  std::printf("\ndistance sequence, %s: %d states x %zu links = %.0f queries (link mesh vs %zu-triangle object)\n",
              worldName, states, links, queries, world.graspables.front().mesh->triangleCount());
  std::printf("  wall clock (CPU time) per query:\n");
  std::printf("  SoftGrasp warm-started %9.2f us (%8.2f)\n", 1e6 * tWarm / queries, 1e6 * cWarm / queries);
  std::printf("  SoftGrasp cold         %9.2f us (%8.2f)   warm/cold %.3f (%.3f)\n", 1e6 * tCold / queries,
              1e6 * cCold / queries, tWarm / tCold, cWarm / cCold);
  std::printf("  warm == cold on every query: %s\n", warmDistances == coldDistances ? "yes" : "NO");
  sequenceCheck.expect(warmDistances == coldDistances, std::string(worldName) + ": warm-started distances differ from cold");
#ifdef SG_HAVE_FCL
  std::vector<std::shared_ptr<bench::FclModel>> fclLinks;
  for (const TriangleMesh* m : linkMeshes) fclLinks.push_back(bench::fclModel(*m));
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> linkObjects;
  for (const auto& m : fclLinks) linkObjects.push_back(std::make_unique<fcl::CollisionObjectd>(m));
  const auto fclObjectModel = bench::fclModel(*world.graspables.front().mesh);
  fcl::CollisionObjectd object(fclObjectModel, bench::toFcl(X_WG));
  std::vector<double> fclWarmDistances;
  auto runFcl = [&] {
    fclDistances.clear();
    for (const auto& poses : X_WL)
      for (std::size_t l = 0; l < links; ++l) {
        linkObjects[l]->setTransform(bench::toFcl(poses[l]));
        fcl::DistanceRequestd request(true);  // nearest points, as SoftGrasp returns witness points
        fcl::DistanceResultd result;
        fcl::distance(linkObjects[l].get(), &object, request, result);
        fclDistances.push_back(std::max(0.0, result.min_distance));
      }
  };
  // Warm as SoftGrasp's: one start per link, seeded by the previous state's closest pair (FclReference.h).
  auto runFclWarm = [&] {
    std::vector<bench::FclWarmDistance> warm(links);
    fclWarmDistances.clear();
    for (const auto& poses : X_WL)
      for (std::size_t l = 0; l < links; ++l) {
        linkObjects[l]->setTransform(bench::toFcl(poses[l]));
        const double d = bench::fclDistanceWarm(*linkObjects[l], *fclLinks[l], object, *fclObjectModel, warm[l]);
        fclWarmDistances.push_back(std::max(0.0, d));
      }
  };
  const auto [tFcl, cFcl] = median3(runFcl);
  const auto [tFclWarm, cFclWarm] = median3(runFclWarm);
  double worst = 0, worstWarm = 0;
  for (std::size_t i = 0; i < fclDistances.size(); ++i) {
    worst = std::max(worst, std::abs(fclDistances[i] - coldDistances[i]) / std::max(1.0, coldDistances[i]));
    worstWarm = std::max(worstWarm, std::abs(fclWarmDistances[i] - fclDistances[i]) / std::max(1.0, fclDistances[i]));
  }
  std::printf("  FCL cold               %9.2f us (%8.2f)   largest |FCL - SoftGrasp| %.2e (mm, relative above 1 mm)\n",
              1e6 * tFcl / queries, 1e6 * cFcl / queries, worst);
  std::printf("  FCL warm-started       %9.2f us (%8.2f)   largest |warm - cold| %.2e\n", 1e6 * tFclWarm / queries,
              1e6 * cFclWarm / queries, worstWarm);
  sequenceCheck.expect(worst <= 1e-7, std::string(worldName) + ": FCL's distances differ from SoftGrasp's");
  sequenceCheck.expect(worstWarm <= 1e-9, std::string(worldName) + ": FCL warm-started differs from FCL cold");
  std::printf("  ratio warm/warm %.3f, cold/cold %.3f (CPU time: %.3f, %.3f)   [%s]\n", tWarm / tFclWarm, tCold / tFcl,
              cWarm / cFclWarm, cCold / cFcl, SG_FCL_BUILD_SHORT);
#else
  (void)linkMeshes;
  std::printf("  (FCL not found at configure time: no FCL column)\n");
#endif
}

void distanceSequences(int states, const std::string& only = {}) {
  for (const char* name : {"default.xml", "fivefinger_cylinder.xml"})
    if (only.empty() || only == name) distanceSequence(loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name), name, states);
}

// Counts what an evaluator returns: a finite energy (a full evaluation), +∞ (stopped early by the acceptance
// test, PLANNER.md §Annealing "Stopping an energy early"), or illegal.
struct EvaluationCounts {
  std::atomic<long> full{0}, stoppedEarly{0}, illegal{0};
};
class CountingEvaluator : public StateEvaluator {
 public:
  CountingEvaluator(std::unique_ptr<StateEvaluator> inner, EvaluationCounts& counts)
      : inner_(std::move(inner)), counts_(counts) {}
  std::optional<double> energy(const std::vector<double>& x) override { return count(inner_->energy(x)); }
  std::optional<double> energy(const std::vector<double>& x, AcceptanceTest& test) override {
    return count(inner_->energy(x, test));
  }

 private:
  std::optional<double> count(std::optional<double> e) {
    (!e ? counts_.illegal : std::isfinite(*e) ? counts_.full : counts_.stoppedEarly).fetch_add(1, std::memory_order_relaxed);
    return e;
  }
  std::unique_ptr<StateEvaluator> inner_;
  EvaluationCounts& counts_;
};

// The annealing search alone (as planGrasps' simann run, without closing and measuring the kept grasps).
void searchOnly(const std::string& worldName, long iterations, EnergyKind energy) {
  const World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + worldName);
  PlanRequest request;
  request.energy.kind = energy;
  request.energy.analysis.contactModels = {"point"};
  request.maxSteps = request.params.k0 + iterations;
  request.seed = 1;
  const HandSearchSpace space = makeSearchSpace(world, request);
  AnnealingRequest ar;
  ar.variables = space.variables;
  ar.params = request.params;
  ar.maxSteps = request.maxSteps;
  ar.chains = 4;
  ar.threads = 1;
  ar.seed = request.seed;
  EvaluationCounts counts;
  EvaluatorFactory factory = [&] {
    return std::make_unique<CountingEvaluator>(std::make_unique<HandEvaluator>(world, world.state, space, request.energy), counts);
  };
  StateDistance distance = [&](const std::vector<double>& a, const std::vector<double>& b) { return space.distance(a, b); };
  NullProgress progress;
  timespec cpu0{}, cpu1{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
  const AnnealingResult a = runAnnealing(ar, factory, distance, progress);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
  const double cpu_s = static_cast<double>(cpu1.tv_sec - cpu0.tv_sec) + 1e-9 * static_cast<double>(cpu1.tv_nsec - cpu0.tv_nsec);
  std::printf("%-26s %-18s search only, 1 thread: %7ld iterations (%7ld evaluations, %6ld illegal) in %7.3f s wall"
              " = %9.0f steps/s; %7.3f CPU s = %9.0f steps per CPU s; best energy %.9g\n",
              worldName.c_str(), toString(energy), a.iterations, a.evaluations, a.illegal, a.elapsed_s,
              static_cast<double>(a.iterations) / a.elapsed_s, cpu_s, static_cast<double>(a.iterations) / cpu_s,
              a.best.empty() ? 0.0 : a.best.front().energy);
  const long full = counts.full.load();
  std::printf("%-26s %-18s full energy evaluations: %ld (%9.0f /s, %9.0f per CPU s); stopped early: %ld; illegal: %ld\n",
              worldName.c_str(), toString(energy), full, static_cast<double>(full) / a.elapsed_s,
              static_cast<double>(full) / cpu_s, counts.stoppedEarly.load(), counts.illegal.load());
  sequenceCheck.expect(full + counts.stoppedEarly.load() == a.evaluations,
                       "full + stopped-early evaluations differ from the annealer's evaluation count");
}

// A count argument: a non-negative integer, else nullopt (the caller prints the usage).
std::optional<long> countArgument(const char* text) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || errno != 0 || n < 0) return std::nullopt;
  return n;
}

int usage(int status) {
  std::fprintf(status == 0 ? stdout : stderr,
               "usage: bench_plan [ITERATIONS_CONTACTS [ITERATIONS_AUTOGRASP]]   (0 skips that energy)\n"
               "       bench_plan --sequence [STATES [WORLD]]\n"
               "       bench_plan --search WORLD [ITERATIONS [ENERGY]]\n"
               "       bench_plan --yield [--max-time S] [--seeds N] [--world WORLD] [--quick] [--iterations N] [--no-final-stage] [--refine-steps N]\n"
               "                          [--contact-model point|soft-finger] [--graspit-neighbours] [--no-restarts]\n");
  return status;
}

int runBenchmarks(int argc, char** argv) {
  const std::string first = argc > 1 ? argv[1] : "";
  if (first == "--help" || first == "-h") return usage(0);
  if (first == "--search") {
    if (argc < 3 || argc > 5) return usage(2);
    const auto n = argc > 3 ? countArgument(argv[3]) : std::optional<long>(3000);
    if (!n || *n < 1) return usage(2);
    searchOnly(argv[2], *n, argc > 4 ? energyFromString(argv[4]) : EnergyKind::Contacts);
    return sequenceCheck.finish();
  }
  if (first == "--yield") {
    bench::YieldOptions options;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--no-final-stage") {
        options.finalStage = false;
      } else if (a == "--graspit-neighbours") {
        options.illegalShrink = 1;
      } else if (a == "--quick") {
        options.quick = true;
      } else if (a == "--no-restarts") {
        options.restarts = false;
      } else if ((a == "--max-time" || a == "--seeds" || a == "--world" || a == "--refine-steps" || a == "--iterations" ||
                   a == "--contact-model") && i + 1 < argc) {
        const char* value = argv[++i];
        if (a == "--world") {
          options.world = value;
          continue;
        }
        if (a == "--contact-model") {
          options.contactModel = value;
          continue;
        }
        const auto n = countArgument(value);
        if (a == "--iterations") {
          if (!n || *n < 1 || *n > 100000000) return usage(2);
          options.iterations = *n;
          continue;
        }
        if (!n || *n < 1 || *n > 1000) return usage(2);
        if (a == "--seeds") options.seeds = static_cast<int>(*n);
        else if (a == "--refine-steps") options.refineSteps = static_cast<int>(*n);
        else options.maxTime_s = static_cast<double>(*n);
      } else {
        return usage(2);
      }
    }
    return bench::planYield(options);
  }
  if (first == "--sequence") {
    if (argc > 4) return usage(2);
    const auto n = argc > 2 ? countArgument(argv[2]) : std::optional<long>(2000);
    if (!n || *n < 1 || *n > 1000000) return usage(2);
    distanceSequences(static_cast<int>(*n), argc > 3 ? argv[3] : "");
    return sequenceCheck.finish();
  }
  if (argc > 3) return usage(2);
  const auto contactsIterations = argc > 1 ? countArgument(argv[1]) : std::optional<long>(40000);
  const auto autograspIterations = argc > 2 ? countArgument(argv[2]) : std::optional<long>(400);
  if (!contactsIterations || !autograspIterations) return usage(2);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (const char* name : {"default.xml", "fivefinger_cylinder.xml"}) {
    const World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
    for (EnergyKind e : {EnergyKind::Contacts, EnergyKind::AutoGraspQuality}) {
      long n = e == EnergyKind::Contacts ? *contactsIterations : *autograspIterations;
      if (n == 0) continue;
      // Closing the five-finger hand on every step is slow: a tenth of the iterations.
      if (std::string(name) != "default.xml" && e == EnergyKind::AutoGraspQuality) n = std::max(1L, n / 10);
      run(world, name, e, n, 1);
      if (cores > 1) run(world, name, e, n, cores);
    }
  }
  distanceSequences(2000);
  return sequenceCheck.finish();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runBenchmarks(argc, argv);
  } catch (const std::exception& e) {  // a bad world name or energy, or a refused request: say so, no abort
    std::fprintf(stderr, "bench_plan: %s\n", e.what());
    return 1;
  }
}
