// bench_plan: planner steps per second for each energy on 1 thread and on all cores, on the default world
// (ThreeFinger + mug) and the FiveFinger world. Figures only, nothing asserted; not a ctest.
//   bench_plan [ITERATIONS_CONTACTS] [ITERATIONS_AUTOGRASP]
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>

#include "grasp/planner/GraspPlanner.h"
#include "io/ModelIO.h"

using namespace sg;
using namespace sg::planner;

namespace {

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
  std::printf("%-26s %-18s %2d thread(s): %7ld iterations (%7ld evaluations, %6ld illegal) in %7.3f s = %9.0f steps/s"
              " (%7.0f /thread); %9.0f steps per CPU s (incl. measuring the list); %2zu grasps, %2zu force closure\n",
              worldName, toString(energy), threads, a.iterations, a.evaluations, a.illegal, a.elapsed_s, rate,
              rate / threads, static_cast<double>(a.iterations) / cpu_s, r.grasps.size(), fc);
}

}  // namespace

int main(int argc, char** argv) {
  const long contactsIterations = argc > 1 ? std::atol(argv[1]) : 40000;
  const long autograspIterations = argc > 2 ? std::atol(argv[2]) : 400;
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (const char* name : {"default.xml", "fivefinger_cylinder.xml"}) {
    const World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
    for (EnergyKind e : {EnergyKind::Contacts, EnergyKind::AutoGraspQuality}) {
      long n = e == EnergyKind::Contacts ? contactsIterations : autograspIterations;
      if (std::string(name) != "default.xml") n = std::max(1L, n / 10);  // live contacts on 16 links: slower
      run(world, name, e, n, 1);
      if (cores > 1) run(world, name, e, n, cores);
    }
  }
  return 0;
}
