#pragma once
// bench_plan --yield: what a user of the planner waits for, on every bundled hand/object world (worlds/*.xml with
// a robot and a graspable), seeds 1..N, GraspIt!'s default run (src/grasp/planner/PLANNER.md: simann, contacts
// energy, axis-angle, default parameters, 70 000 steps), one thread: force-closure grasps among the kept list,
// distinct ones, the best-energy grasp's force closure, the time to the first force-closure grasp, the best ε L1
// after 1, 5 and 30 s (time-limited runs), the illegal-move rate and full energy evaluations per second.
// Medians over the seeds.
#include <string>

namespace sg::bench {

struct YieldOptions {
  int seeds = 5;              // seeds 1..seeds
  // The longest time-limited run (the 30 s point is skipped below 30): the ladder's runs up to GraspIt!'s default
  // run are made (those past S skipped once a force-closure grasp was found), the default run always, longer ones
  // while the next is predicted (linear in the iterations from the two runs before) to fit S.
  double maxTime_s = 30;
  std::string world;          // one world file name (worlds/), or every bundled hand/object world
  bool finalStage = true;     // the planner's final stage (PLANNER.md §Final stage); off: the search's list
  int refineSteps = -1;       // the stage's moves per refined state; < 0: the planner's default
  // The contact model the grasps are closed, scored and measured with: "point" (the GraspIt! runs) or
  // the engine's default "soft-finger" (what `softgrasp-cli plan`, the dock and batch use; worlds carry none).
  std::string contactModel = "point";
  // The search's step shrink after an illegal neighbour (PlanRequest::illegalShrink); 1: GraspIt!'s neighbours.
  double illegalShrink = 0.5;
  bool restarts = true;       // the final stage's restart moves (FinalStageSettings::restarts); off: none
  // > 0: only the run of this many iterations per seed (no ladder, no default run): a fixed amount of work for
  // callgrind (--toggle-collect='*planGrasps*'); its FC, first-FC and eps columns are that run's.
  long iterations = 0;
  // The ladder only up to maxTime_s (GraspIt!'s default run too only if it fits): a shorter benchmark whose list
  // columns (FC, bestFC, illegal) are the longest run's instead of the default run's.
  bool quick = false;
};

// Runs the benchmark and prints its table; returns the process status (0, or 1 when a check failed).
int planYield(const YieldOptions& options);

}  // namespace sg::bench
