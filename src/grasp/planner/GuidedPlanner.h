#pragma once
// GraspIt!'s guided ("multi-threaded") planner (PLANNER.md §Guided planner): a parent annealing with the
// guided-potential-quality energy collects seeds (good states); short child annealings around the seeds, with
// the child energy and GraspIt!'s STRICT parameters, run on worker threads; the children's best grasps form the
// list. Reproducible: child j is seeded with chainSeed(seed, 2000 + j) and what a spawn decision knows of earlier
// children is fixed by the spawn index, never by timing.
#include <cstdint>
#include <vector>

#include "grasp/planner/Annealing.h"
#include "grasp/planner/HandSearch.h"

namespace sg::planner {

struct GuidedSettings {
  // GraspIt!: STRICT_AUTO_GRASP, whose flat 1e8 (nothing grasped) leaves a short child nothing to follow; the
  // auto-grasp quality energy ranks by contact count below force closure (PLANNER.md §Guided planner).
  EnergyKind childEnergy = EnergyKind::AutoGraspQuality;
  AnnealingParams childParams = AnnealingParams::byName("strict");
  long childSteps = 200;               // child iterations
  double seedThreshold = -0.1;         // parent states accepted with energy < this become seeds
  std::size_t maxSeeds = 20;           // at most this many seeds (and children)
  double seedDistance = 0.3;           // seeds are pairwise at least this far apart (state distance)
  long spawnEvery = 100;               // the parent offers a child every this many iterations
  int childSlots = 4;                  // children in flight: child j waits for child j − childSlots (a setting,
                                       // not the thread count, so results do not depend on threads)
  double positionConfidence = 0.65;    // children's target bias toward their seed: position variables
  double postureConfidence = 0.5;      //                                           posture variables
};

struct GuidedOutcome {
  AnnealingResult annealing;           // best: the children's grasps (chain = child index); counts of all runs
  std::vector<std::vector<double>> seeds;   // the seeds children were spawned from, in child order
  std::vector<std::vector<double>> avoided; // the children's results (the avoid list), in child order
  std::vector<int> avoidedChild;
};

struct GuidedRequest {
  std::vector<SearchVariable> variables;  // start values, fixed flags (targets are replaced in children)
  std::size_t positionCount = 0;          // the first variables are the position
  AnnealingParams params;                 // the parent's
  long maxSteps = 70000;                  // the parent's step counter runs from params.k0 to maxSteps
  int threads = 1;                        // child worker threads
  std::uint64_t seed = 1;
  double timeLimit_s = 0;                 // ≤ 0: none (covers the parent and the children)
  double avoidDistance = 0.1;             // states this close to an earlier child's result are avoided
  std::size_t bestListSize = 20;
  double minDistance = 0.2;
  GuidedSettings guided;
  AnnealingMonitor* monitor = nullptr;    // watches and pauses the parent; paused, no new child starts
  double illegalShrink = 0.5;             // the parent's and the children's (AnnealingRequest::illegalShrink)
};

// Runs the guided planner. `parentFactory` evaluates the guided potential quality, `childFactory` the child
// energy (one evaluator per thread). Cancel through `progress` and the time limit stop the parent and every
// child at its next iteration; what the finished children found is kept. sg::Error from an evaluator is rethrown.
GuidedOutcome runGuided(const GuidedRequest& request, const EvaluatorFactory& parentFactory,
                        const EvaluatorFactory& childFactory, const StateDistance& distance, ProgressSink& progress);

}  // namespace sg::planner
