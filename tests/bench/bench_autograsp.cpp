// bench_autograsp: the auto-grasp closing loop (src/grasp/MotionDof.cpp) on random planner states of the bundled
// worlds, with the pair screen (DofMotionSettings::screenPairs, the default) and with the plain pair tests:
// CPU time per auto-grasp and per closing step, and whether both gave the same final DOFs. Not a
// ctest (tests/grasp/tst_motion_screen.cpp checks the equality); different final DOFs fail the run (exit status 3).
//   bench_autograsp [STATES [MODE [WORLD]]]   STATES default 200; MODE both (default), screened or plain (one
//                                             mode only, e.g. under callgrind); WORLD default.xml or
//                                             fivefinger_cylinder.xml (default both)
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

#include "../support/RandomHandStates.h"
#include "BenchStats.h"
#include "contact/ContactDetection.h"
#include "grasp/AutoGrasp.h"
#include "io/ModelIO.h"

using namespace sg;

namespace {

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

struct Run {
  double cpu_s = 0;
  long iterations = 0;
  std::vector<std::vector<double>> dofs;
};

Run closeAll(const World& world, const std::vector<WorldState>& states, bool screened) {
  Run r;
  AutoGraspSettings s;
  s.screenPairs = screened;
  const double t0 = cpuSeconds();
  for (const WorldState& start : states) {
    WorldState state = start;
    r.iterations += autoGrasp(world, state, 0, s).iterations;
    r.dofs.push_back(state.robots[0].dofValues);
  }
  r.cpu_s = cpuSeconds() - t0;
  return r;
}

void report(const char* worldName, const char* mode, const Run& r, std::size_t states) {
  std::printf("%-24s %-9s %4zu auto-grasps, %6ld closing steps: %8.3f ms CPU per auto-grasp, %7.1f us per step, "
              "%7.0f auto-grasps per CPU s\n",
              worldName, mode, states, r.iterations, 1e3 * r.cpu_s / static_cast<double>(states),
              1e6 * r.cpu_s / static_cast<double>(std::max(1L, r.iterations)), static_cast<double>(states) / r.cpu_s);
}

// Returns false when the two modes end at different DOFs (a cross-check: the screen must not change the result).
bool benchWorld(const char* worldName, int count, const std::string& mode) {
  const World world = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + worldName);
  // The planner evaluates legal states only: the hand free of collisions.
  std::vector<WorldState> states;
  for (const WorldState& s : sgtest::randomHandStates(world, 0, 0, 4 * count, 7))
    if (static_cast<int>(states.size()) < count && !anyCollision(world, s, {}, robotBodies(world, 0))) states.push_back(s);
  Run screened, plain;
  if (mode != "plain") report(worldName, "screened", screened = closeAll(world, states, true), states.size());
  if (mode != "screened") report(worldName, "plain", plain = closeAll(world, states, false), states.size());
  if (mode == "both") {
    std::size_t same = 0;
    for (std::size_t i = 0; i < states.size(); ++i) same += screened.dofs[i] == plain.dofs[i];
    std::printf("%-24s final DOFs identical on %zu of %zu states; speed-up %.2fx (CPU time)\n", worldName, same,
                states.size(), plain.cpu_s / screened.cpu_s);
    if (same != states.size()) {
      std::printf("  CROSS-CHECK FAILED: %s: the screened and plain closings differ on %zu states\n", worldName,
                  states.size() - same);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
  const std::string mode = argc > 2 ? argv[2] : "both";
  const std::string only = argc > 3 ? argv[3] : "";
  bool ok = true;
  for (const char* w : {"default.xml", "fivefinger_cylinder.xml"})
    if (only.empty() || only == w) ok = benchWorld(w, count, mode) && ok;
  return ok ? 0 : sg::bench::kCrossCheckFailed;
}
