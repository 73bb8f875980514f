// bench_sim: the physics trial (src/sim/README.md) of the default grasp (worlds/default.xml approached and closed):
// CPU time of a six-direction trial (settle + 6 × 1 s simulated) over jittered copies of the grasp (the mug moved
// by up to 0.1 mm), the model build time (MJCF text + mj_loadXML, convex pieces cached) and the first
// decomposition of each bundled object, and trials per core-hour. Same run, same states: the trial without the
// collision prefilter (src/sim/CollisionPrefilter.h), which must give the same result bit for bit. Per bundled
// world with a hand, the default grasp's held/lost per direction under the default settings (2 ms step) without
// prefilter and under the faster 4 ms step with it, which must agree (src/sim/README.md §Timestep). Cross-checks (a failure
// exits 3): each trial repeated gives the same result bit for bit, the summary's score equals the held directions
// over six, the prefilter changes nothing, the held directions agree before and after.
//   bench_sim [STATES [trial]]   STATES default 5; "trial": only the timed trial and its repeat per state (for
//   callgrind: two runTrial calls per state), no decomposition, no prefilter or protocol comparison
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>

#include "BenchStats.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "sim/ConvexPieces.h"
#include "sim/PhysicsTrial.h"
#include "sim/SimModel.h"
#include "sim/TrialJson.h"

using namespace sg;
using namespace sg::sim;

namespace {

double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The world approached and closed, as `softgrasp-cli validate WORLD --approach --autograsp` does.
World graspedWorld(const std::string& name) {
  World w = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
  AnalysisRequest request;
  request.motion.approach = true;
  request.motion.fingers = FingerMotion::Close;
  request.contactModels.clear();
  request.measures.clear();
  NullProgress progress;
  runAnalysis(w, request, progress);
  return w;
}

std::string heldList(const TrialResult& r) {
  std::string out;
  for (const DirectionTrial& d : r.directions) out += d.direction.name() + (d.held ? " held " : " LOST ");
  return out;
}

// Per bundled world with a hand and an object: the default grasp's held/lost per direction under the default
// settings (MuJoCo's 2 ms step) without prefilter and under the 4 ms step option with it (src/sim/README.md
// §Timestep). They must agree.
void compareProtocols(bench::CrossCheck& check) {
  TrialSettings before;
  before.collisionPrefilter = false;
  TrialSettings after;
  after.timestep_s = 2 * before.timestep_s;
  std::printf("\nheld per direction of each bundled world's default grasp, %.0f ms step without prefilter -> %.0f ms step:\n",
              1e3 * before.timestep_s, 1e3 * after.timestep_s);
  NullProgress progress;
  for (const char* name : {"default.xml", "threefinger_urdf.xml", "threefinger_sphere.xml", "hydro_fingertips.xml",
                           "paralleljaw_box.xml", "fivefinger_cylinder.xml"}) {
    const World w = graspedWorld(name);
    const TrialResult a = runTrial(w, w.state, {0, 0, before}, progress);
    const double t0 = cpuSeconds();
    const TrialResult b = runTrial(w, w.state, {0, 0, after}, progress);
    const double t_s = cpuSeconds() - t0;
    double worstBefore = 0, worstAfter = 0;
    for (const DirectionTrial& d : a.directions) worstBefore = std::max(worstBefore, d.displacement_mm);
    for (const DirectionTrial& d : b.directions) worstAfter = std::max(worstAfter, d.displacement_mm);
    std::printf("  %-24s before: %s(largest %.1f mm)\n  %-24s after:  %s(largest %.1f mm; %.1f ms CPU)\n", name,
                heldList(a).c_str(), worstBefore, "", heldList(b).c_str(), worstAfter, 1e3 * t_s);
    check.expect(heldList(a) == heldList(b), std::string(name) + ": held directions changed with the timestep");
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int count = argc > 1 ? std::atoi(argv[1]) : 5;
  bench::CrossCheck check;

  const bool trialOnly = argc > 2 && std::string(argv[2]) == "trial";
  std::printf("convex pieces of the bundled objects (HACD for non-convex components, first decomposition):\n");
  const World gallery = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/objects_gallery.xml");
  for (const Body& body : gallery.graspables) {
    if (trialOnly) break;
    if (!body.mesh) continue;
    const double t0 = cpuSeconds();
    const auto pieces = convexPieces(body.mesh);
    std::printf("  %-10s %6zu triangles: %3zu pieces, volume error %+7.2f %%, %8.1f ms CPU%s\n", body.name.c_str(),
                body.mesh->triangleCount(), pieces->pieces.size(), 100 * pieces->volumeError(),
                1e3 * (cpuSeconds() - t0), body.primitive ? " (a primitive: the trial uses the shape)" : "");
  }

  const World world = graspedWorld("default.xml");
  std::mt19937 rng(38);
  std::uniform_real_distribution<double> jitter(-0.1, 0.1);
  std::vector<WorldState> states;
  for (int i = 0; i < count; ++i) {
    WorldState s = world.state;
    if (i > 0) {
      Transform& X = s.X_WG[0];
      X.setTranslation(X.translation() + Vec3(jitter(rng), jitter(rng), jitter(rng)));
    }
    states.push_back(s);
  }

  // Model build: MJCF text and mj_loadXML (the mug's pieces cached after the first build).
  std::vector<double> build_s;
  TrialSettings settings;
  for (int round = 0; round < 3; ++round)
    for (const WorldState& s : states) {
      const double t0 = cpuSeconds();
      SimModel sim(buildMjcf(world, s, 0, 0, settings));
      build_s.push_back(cpuSeconds() - t0);
    }
  const bench::Spread build = bench::spreadOf(build_s);
  {
    const SimModel sim(buildMjcf(world, states[0], 0, 0, settings));
    int vertices = 0;
    for (int k = 0; k < sim.model()->nmesh; ++k) vertices += sim.model()->mesh_vertnum[k];
    std::printf("\nmodel build (MJCF + mj_loadXML; %zu geoms of the mug, %d geoms, %d meshes of %d vertices): median %.2f ms, p90 %.2f ms CPU\n",
                sim.layout().objectPieces, sim.model()->ngeom, sim.model()->nmesh, vertices,
                1e3 * build.median_s, 1e3 * build.p90_s);
  }

  std::vector<double> trial_s, unfiltered_s;
  TrialSettings unfiltered = settings;
  unfiltered.collisionPrefilter = false;
  NullProgress progress;
  int heldTotal = 0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    const double t0 = cpuSeconds();
    const TrialResult a = runTrial(world, states[i], {0, 0, settings}, progress);
    trial_s.push_back(cpuSeconds() - t0);
    const TrialResult b = runTrial(world, states[i], {0, 0, settings}, progress);
    check.expect(trialSummaryJson(a).dump() == trialSummaryJson(b).dump(), "state " + std::to_string(i) + ": repeated trial differs");
    check.expect(a.score() == static_cast<double>(a.heldCount()) / 6.0, "score is not held/6");
    if (!trialOnly) {
      const double t1 = cpuSeconds();
      const TrialResult c = runTrial(world, states[i], {0, 0, unfiltered}, progress);
      unfiltered_s.push_back(cpuSeconds() - t1);
      check.expect(trialSummaryJson(a).dump() == trialSummaryJson(c).dump(),
                   "state " + std::to_string(i) + ": the collision prefilter changed the trial");
    }
    heldTotal += a.heldCount();
    std::printf("  state %zu: %s  held %d/6 (", i, i == 0 ? "as grasped" : "mug jittered", a.heldCount());
    for (const DirectionTrial& d : a.directions)
      std::printf(" %s %s %.1f mm %.1f deg;", d.direction.name().c_str(), d.held ? "held" : "LOST", d.displacement_mm,
                  d.rotation_deg);
    std::printf(")\n");
  }
  const bench::Spread trial = bench::spreadOf(trial_s);
  const double simulated_s = settings.settle_s + 6 * settings.duration_s;
  std::printf("\nsix-direction trial (settle %.1f s + 6 x %.1f s simulated, timestep %.3f s): median %.1f ms, p90 %.1f ms "
              "CPU; %.0fx real time; %.0f trials per core-hour (model build included: %.0f)\n",
              settings.settle_s, settings.duration_s, settings.timestep_s, 1e3 * trial.median_s, 1e3 * trial.p90_s,
              simulated_s / trial.median_s, 3600 / trial.median_s, 3600 / (trial.median_s + build.median_s));
  if (!trialOnly) {
    const bench::Spread plain = bench::spreadOf(unfiltered_s);
    std::printf("  the same trials without the collision prefilter (same result, asserted): median %.1f ms, p90 %.1f ms CPU "
                "(prefilter %.2fx faster)\n",
                1e3 * plain.median_s, 1e3 * plain.p90_s, plain.median_s / trial.median_s);
  }
  std::printf("held directions over all states: %d of %zu\n", heldTotal, 6 * states.size());
  if (!trialOnly) compareProtocols(check);
  return check.finish();
}
