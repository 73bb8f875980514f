// bench_sim: the physics trial (src/sim/README.md) of the default grasp (worlds/default.xml approached and closed):
// CPU time of a six-direction trial over jittered copies of the grasp (the mug moved by up to 0.1 mm), split on
// each state into the model build (SimModel: MJCF text + mj_loadXML, convex pieces cached) and the simulation on
// it (settle + 6 × 1 s simulated), and the whole trial (one runTrial call: build and simulation) with trials per
// core-hour from it; the first decomposition of each bundled object and the hands' tessellated primitives. Same run, same
// states: the trial without the collision prefilter (src/sim/CollisionPrefilter.h), which must give the same result
// bit for bit, without the pair list (src/sim/PairList.h: MuJoCo's own broad phase and geom-pair loop), which must
// give the same trajectory bit for bit, and with the tessellated spheres and cylinders as meshes (TrialSettings::tessellatedPrimitives off,
// src/sim/README.md §Geometry). Per bundled world with a hand, the default grasp's held/lost per direction with
// primitives off, under the default settings, and under the 4 ms step, which must agree (src/sim/README.md
// §Timestep), and its trajectory with and without the pair list (equal bit for bit). The same trials with MuJoCo's
// MPR instead of the exact sphere-mesh contact (TrialSettings::exactSphereMesh off, src/sim/README.md §Exact
// sphere–mesh contact). Cross-checks (a failure exits
// 3): each trial repeated (the whole trial after the split one) gives the same trajectory bit for bit, the summary's score equals the held directions over
// six, the prefilter and the pair list change nothing, the held directions agree (primitives, 4 ms, MPR).
//   bench_sim [STATES [trial]]   STATES default 5; "trial": only the timed trial and its repeat per state (for
//   callgrind's --toggle-collect='sg::sim::runTrial*': per state one simulation on a model built outside runTrial
//   and one whole trial, its model build included), no decomposition, no hand pieces, no prefilter, primitives or protocol
//   comparison
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
#include "sim/PairList.h"
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

// Every recorded sample equal bit for bit: the object's pose, the DOF values, per hand body the contact force,
// its point, normal force and number of contacts.
bool sameTrajectory(const TrialResult& a, const TrialResult& b) {
  auto samePhase = [](const std::vector<TrialSample>& x, const std::vector<TrialSample>& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t k = 0; k < x.size(); ++k) {
      if (x[k].X_PO.translation() != y[k].X_PO.translation() ||
          x[k].X_PO.rotation().coeffs() != y[k].X_PO.rotation().coeffs() || x[k].dofValues != y[k].dofValues ||
          x[k].links.size() != y[k].links.size())
        return false;
      for (std::size_t l = 0; l < x[k].links.size(); ++l) {
        const LinkContactSample &p = x[k].links[l], &q = y[k].links[l];
        if (p.force_W_N != q.force_W_N || p.p_W_mm != q.p_W_mm || p.normal_N != q.normal_N || p.contacts != q.contacts)
          return false;
      }
    }
    return true;
  };
  if (!samePhase(a.settle, b.settle) || a.directions.size() != b.directions.size()) return false;
  for (std::size_t i = 0; i < a.directions.size(); ++i)
    if (!samePhase(a.directions[i].samples, b.directions[i].samples)) return false;
  return true;
}

std::string heldList(const TrialResult& r) {
  std::string out;
  for (const DirectionTrial& d : r.directions) out += d.direction.name() + (d.held ? " held " : " LOST ");
  return out;
}

// Per bundled world with a hand and an object: the default grasp's held/lost per direction with the tessellated
// spheres and cylinders as meshes (before, src/sim/README.md §Geometry), under the default settings (now), and
// under the 4 ms step option (src/sim/README.md §Timestep). They must agree.
void compareProtocols(bench::CrossCheck& check) {
  const TrialSettings now;
  TrialSettings before = now;
  before.tessellatedPrimitives = false;
  TrialSettings coarse = now;
  coarse.timestep_s = 2 * now.timestep_s;
  TrialSettings unlisted = now;
  unlisted.pairList = false;
  TrialSettings mpr = now;
  mpr.exactSphereMesh = false;
  std::printf("\nheld per direction of each bundled world's default grasp: tessellated primitives as meshes (before), "
              "the default settings (now), the %.0f ms step:\n", 1e3 * coarse.timestep_s);
  NullProgress progress;
  for (const char* name : {"default.xml", "threefinger_urdf.xml", "threefinger_sphere.xml", "hydro_fingertips.xml",
                           "paralleljaw_box.xml", "fivefinger_cylinder.xml"}) {
    const World w = graspedWorld(name);
    const SimModel decomposed(buildMjcf(w, w.state, 0, 0, now));  // this world's meshes decomposed before timing
    auto run = [&](const TrialSettings& s, double& cpu_s, double& worst_mm) {
      const double t0 = cpuSeconds();
      TrialResult r = runTrial(w, w.state, {0, 0, s}, progress);
      cpu_s = cpuSeconds() - t0;
      worst_mm = 0;
      for (const DirectionTrial& d : r.directions) worst_mm = std::max(worst_mm, d.displacement_mm);
      return r;
    };
    double tb = 0, tn = 0, tc = 0, tu = 0, tm = 0, wb = 0, wn = 0, wc = 0, wu = 0, wm = 0;
    const TrialResult a = run(before, tb, wb);
    const TrialResult b = run(now, tn, wn);
    const TrialResult c = run(coarse, tc, wc);
    const TrialResult u = run(unlisted, tu, wu);
    const TrialResult x = run(mpr, tm, wm);
    std::printf("  %-24s pair list: same trajectory without it: %s (%.1f ms CPU with, %.1f ms without)\n", name,
                sameTrajectory(b, u) ? "yes" : "NO", 1e3 * tn, 1e3 * tu);
    check.expect(sameTrajectory(b, u), std::string(name) + ": the pair list changed the trajectory");
    std::printf("  %-24s before: %s(largest %.1f mm; %.1f ms CPU)\n  %-24s now:    %s(largest %.1f mm; %.1f ms CPU)\n"
                "  %-24s 4 ms:   %s(largest %.1f mm; %.1f ms CPU)\n",
                name, heldList(a).c_str(), wb, 1e3 * tb, "", heldList(b).c_str(), wn, 1e3 * tn, "",
                heldList(c).c_str(), wc, 1e3 * tc);
    check.expect(heldList(a) == heldList(b), std::string(name) + ": held directions changed with the primitives");
    check.expect(heldList(b) == heldList(c), std::string(name) + ": held directions changed with the timestep");
    std::printf("  %-24s MPR:    %s(largest %.1f mm; %.1f ms CPU; sphere-mesh pairs by MuJoCo's MPR)\n", "",
                heldList(x).c_str(), wm, 1e3 * tm);
    check.expect(heldList(b) == heldList(x), std::string(name) + ": held directions changed with MPR");
    check.expect(!b.fullArena, std::string(name) + ": the compact arena overflowed");
  }
}

// Per bundled hand, its links' convex pieces and the tessellated primitives among them (src/sim/README.md
// §Geometry): how many become MuJoCo boxes, spheres and cylinders, and the largest deviation of a sphere or
// cylinder from its piece's faces, in mm and as a fraction of its radius.
void printHandPieces() {
  std::printf("\nconvex pieces of the bundled hands' bodies (tessellated primitives recognised):\n");
  for (const char* name : {"default.xml", "threefinger_urdf.xml", "hydro_fingertips.xml", "paralleljaw_box.xml",
                           "fivefinger_cylinder.xml"}) {
    const World w = loadWorld(std::string(SG_SOURCE_DIR) + "/worlds/" + name);
    const Robot& robot = w.robots.at(0);
    int pieces = 0, meshes = 0, boxes = 0, spheres = 0, cylinders = 0, vertices = 0;
    double worst_mm = 0, worstRelative = 0;
    for (const BodyRef& ref : robot.bodyRefs()) {
      const Body& body = robot.body(ref);
      if (!body.collisionEnabled || body.primitive || !body.mesh) continue;
      for (const ConvexPiece& piece : convexPieces(body.mesh)->pieces) {
        ++pieces;
        if (!piece.primitive) {
          ++meshes;
          vertices += static_cast<int>(piece.vertices.size());
          continue;
        }
        const Shape& shape = piece.primitive->shape;
        double radius_mm = 0;
        if (std::holds_alternative<Box>(shape)) ++boxes;
        if (const auto* sphere = std::get_if<Sphere>(&shape)) radius_mm = sphere->radius_mm, ++spheres;
        if (const auto* cylinder = std::get_if<Cylinder>(&shape)) radius_mm = cylinder->radius_mm, ++cylinders;
        worst_mm = std::max(worst_mm, piece.primitiveDeviation_mm);
        if (radius_mm > 0) worstRelative = std::max(worstRelative, piece.primitiveDeviation_mm / radius_mm);
      }
    }
    std::printf("  %-24s %-18s %3d pieces: %2d boxes, %2d spheres, %2d cylinders, %2d meshes (%4d vertices); "
                "largest deviation %.3f mm (%.2f %% of a radius)\n",
                name, robot.name.c_str(), pieces, boxes, spheres, cylinders, meshes, vertices, worst_mm,
                100 * worstRelative);
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

  if (!trialOnly) printHandPieces();

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

  // The trial model (the mug's pieces decomposed here, before any timing).
  TrialSettings settings;
  {
    const SimModel sim(buildMjcf(world, states[0], 0, 0, settings));
    int vertices = 0;
    for (int k = 0; k < sim.model()->nmesh; ++k) vertices += sim.model()->mesh_vertnum[k];
    std::printf("\ntrial model: %zu geoms of the mug, %d geoms, %d meshes of %d vertices\n", sim.layout().objectPieces,
                sim.model()->ngeom, sim.model()->nmesh, vertices);
  }

  // The pair list's use on the first state (PairList.h): steps run with it and with MuJoCo's own loop.
  {
    SimModel sim(buildMjcf(world, states[0], 0, 0, settings));
    for (int k = 0; k < 500; ++k) sim.step();
    const PairList::Stats& st = sim.pairList().stats();
    std::printf("pair list: %d geom pairs MuJoCo's loop can test; 500 settle steps: %ld listed (%ld kept the list of "
                "an earlier step, %ld lists chosen from scratch kinematics), %ld on MuJoCo's loop, at most %d pairs "
                "listed\n",
                sim.pairList().candidates(), st.listed, st.kept, st.scratch, st.dynamic, st.largest);
  }

  std::vector<double> build_s, fullBuild_s, simulation_s, trial_s, unfiltered_s, unlisted_s, meshes_s, mpr_s;
  TrialSettings unfiltered = settings;
  unfiltered.collisionPrefilter = false;
  TrialSettings unlisted = settings;
  unlisted.pairList = false;
  TrialSettings meshes = settings;
  meshes.tessellatedPrimitives = false;
  TrialSettings mpr = settings;
  mpr.exactSphereMesh = false;
  {
    const SimModel sim(buildMjcf(world, states[0], 0, 0, settings));
    std::printf("exact sphere-mesh contact: %d of %d meshes have a hull (the others keep MPR)\n",
                sim.sphereHulls()->usableMeshes(), sim.sphereHulls()->meshes());
  }
  NullProgress progress;
  int heldTotal = 0;
  for (std::size_t i = 0; i < states.size(); ++i) {
    // The same state timed in parts (model build, then the simulation on it) and whole (one runTrial call).
    TrialResult a;
    {
      const double t0 = cpuSeconds();
      SimModel built(buildMjcf(world, states[i], 0, 0, settings, kCompactContactCapacity));  // as runTrial builds it
      const double t1 = cpuSeconds();
      a = runTrial(built, world, states[i], {0, 0, settings}, progress);
      build_s.push_back(t1 - t0);
      simulation_s.push_back(cpuSeconds() - t1);
    }
    const double t0 = cpuSeconds();
    const TrialResult b = runTrial(world, states[i], {0, 0, settings}, progress);
    trial_s.push_back(cpuSeconds() - t0);
    check.expect(trialSummaryJson(a).dump() == trialSummaryJson(b).dump() && sameTrajectory(a, b),
                 "state " + std::to_string(i) + ": repeated trial differs");
    check.expect(!b.fullArena, "state " + std::to_string(i) + ": the compact arena overflowed");
    if (!trialOnly) {
      // The full arena (MjcfBuilder.h; every trial's before): its model build, and the same trajectory bit for bit.
      const double t3 = cpuSeconds();
      SimModel full(buildMjcf(world, states[i], 0, 0, settings, kFullContactCapacity));
      fullBuild_s.push_back(cpuSeconds() - t3);
      const TrialResult g = runTrial(full, world, states[i], {0, 0, settings}, progress);
      check.expect(sameTrajectory(a, g), "state " + std::to_string(i) + ": the compact arena changed the trajectory");
    }
    check.expect(a.score() == static_cast<double>(a.heldCount()) / 6.0, "score is not held/6");
    if (!trialOnly) {
      // MuJoCo's MPR for the sphere-mesh pairs (the same run's before and after).
      const double t4 = cpuSeconds();
      const TrialResult f = runTrial(world, states[i], {0, 0, mpr}, progress);
      mpr_s.push_back(cpuSeconds() - t4);
      check.expect(heldList(a) == heldList(f), "state " + std::to_string(i) + ": held directions changed with MPR");
    }
    if (!trialOnly) {
      const double t1 = cpuSeconds();
      const TrialResult c = runTrial(world, states[i], {0, 0, unfiltered}, progress);
      unfiltered_s.push_back(cpuSeconds() - t1);
      check.expect(trialSummaryJson(a).dump() == trialSummaryJson(c).dump(),
                   "state " + std::to_string(i) + ": the collision prefilter changed the trial");
      const double t3 = cpuSeconds();
      const TrialResult e = runTrial(world, states[i], {0, 0, unlisted}, progress);
      unlisted_s.push_back(cpuSeconds() - t3);
      check.expect(sameTrajectory(a, e), "state " + std::to_string(i) + ": the pair list changed the trajectory");
      const double t2 = cpuSeconds();
      const TrialResult d = runTrial(world, states[i], {0, 0, meshes}, progress);
      meshes_s.push_back(cpuSeconds() - t2);
      check.expect(heldList(a) == heldList(d), "state " + std::to_string(i) + ": held directions changed with the primitives");
    }
    heldTotal += a.heldCount();
    std::printf("  state %zu: %s  held %d/6 (", i, i == 0 ? "as grasped" : "mug jittered", a.heldCount());
    for (const DirectionTrial& d : a.directions)
      std::printf(" %s %s %.1f mm %.1f deg;", d.direction.name().c_str(), d.held ? "held" : "LOST", d.displacement_mm,
                  d.rotation_deg);
    std::printf(")\n");
  }
  const bench::Spread build = bench::spreadOf(build_s);
  const bench::Spread simulation = bench::spreadOf(simulation_s);
  const bench::Spread trial = bench::spreadOf(trial_s);
  const double simulated_s = settings.settle_s + 6 * settings.duration_s;
  std::printf("\nsix-direction trial (settle %.1f s + 6 x %.1f s simulated, timestep %.3f s), CPU time, same %zu states:\n"
              "  model build (MJCF + mj_loadXML + drives): median %.2f ms, p90 %.2f ms\n"
              "  simulation (settle + 6 pulls on the built model): median %.1f ms, p90 %.1f ms; %.0fx real time\n"
              "  whole trial (one runTrial call: build + simulation): median %.1f ms, p90 %.1f ms; %.0f trials per "
              "core-hour\n",
              settings.settle_s, settings.duration_s, settings.timestep_s, states.size(), 1e3 * build.median_s,
              1e3 * build.p90_s, 1e3 * simulation.median_s, 1e3 * simulation.p90_s, simulated_s / simulation.median_s,
              1e3 * trial.median_s, 1e3 * trial.p90_s, 3600 / trial.median_s);
  if (!trialOnly) {
    const bench::Spread fullBuild = bench::spreadOf(fullBuild_s);
    std::printf("  model build in the full arena (room for %d contacts against %d; same trajectories bit for bit, "
                "asserted): median %.2f ms, p90 %.2f ms\n",
                kFullContactCapacity, kCompactContactCapacity, 1e3 * fullBuild.median_s, 1e3 * fullBuild.p90_s);
  }
  if (!trialOnly) {
    const bench::Spread withMpr = bench::spreadOf(mpr_s);
    std::printf("  the same trials with MuJoCo's MPR for sphere-mesh pairs (held directions asserted equal): median %.1f "
                "ms, p90 %.1f ms CPU (exact sphere-mesh contact %.2fx faster)\n",
                1e3 * withMpr.median_s, 1e3 * withMpr.p90_s, withMpr.median_s / trial.median_s);
  }
  if (!trialOnly) {
    const bench::Spread plain = bench::spreadOf(unfiltered_s);
    std::printf("  the same trials without the collision prefilter (same result, asserted): median %.1f ms, p90 %.1f ms CPU "
                "(prefilter %.2fx faster)\n",
                1e3 * plain.median_s, 1e3 * plain.p90_s, plain.median_s / trial.median_s);
    const bench::Spread noList = bench::spreadOf(unlisted_s);
    std::printf("  the same trials without the pair list (MuJoCo's broad phase and geom-pair loop; same trajectories "
                "bit for bit, asserted): median %.1f ms, p90 %.1f ms CPU (pair list %.2fx faster)\n",
                1e3 * noList.median_s, 1e3 * noList.p90_s, noList.median_s / trial.median_s);
    const bench::Spread asMeshes = bench::spreadOf(meshes_s);
    std::printf("  the same trials with the tessellated spheres and cylinders as meshes (held directions asserted equal): "
                "median %.1f ms, p90 %.1f ms CPU (primitives %.2fx faster)\n",
                1e3 * asMeshes.median_s, 1e3 * asMeshes.p90_s, asMeshes.median_s / trial.median_s);
  }
  std::printf("held directions over all states: %d of %zu\n", heldTotal, 6 * states.size());
  if (!trialOnly) compareProtocols(check);
  return check.finish();
}
