#pragma once
// GraspIt!'s on-line planner (PLANNER.md §Online planner): annealing steps around a target hand pose that
// the user moves; the search restarts at every new target, its neighbours are biased toward the target and the
// best list keeps only states near it. One thread (the caller's); engine only, no Qt.
#include <cstdint>
#include <memory>
#include <vector>

#include "grasp/planner/GraspPlanner.h"

namespace sg::planner {

struct OnlineSettings {
  long cycleSteps = 2000;              // GraspIt!'s online planner: the step counter runs k0 … k0 + this, then again
  double positionConfidence = 0.9;     // neighbours' bias toward the target: position variables
  double postureConfidence = 0.0;      //                                       posture variables (free)
  double keepDistance = 0.5;           // best states farther than this (state distance) from the target are dropped
};

class OnlinePlanner {
 public:
  // Plans for request.robot / request.graspable in `world` (request.space, request.energy, request.seed; the
  // parameter set is GraspIt!'s `online` unless request.params is changed from `default`). The first target is
  // the hand's configuration in world.state. `world` must outlive the planner.
  OnlinePlanner(const World& world, const PlanRequest& request, OnlineSettings settings = {});
  ~OnlinePlanner();

  // The hand moved: the search restarts at its new palm pose (posture: its DOFs), the step counter at k0, and
  // best states farther than keepDistance from it are dropped.
  void setTarget(const Transform& X_WP, const std::vector<double>& dofValues);
  // Runs `iterations` annealing iterations around the target (GraspIt!'s 11 tries for a legal neighbour each).
  void step(long iterations);

  const std::vector<double>& target() const { return target_; }     // the target's search variables
  const std::vector<BestEntry>& best() const { return best_.entries(); }
  const HandSearchSpace& space() const { return space_; }
  long iterations() const { return iterations_; }
  const PlanRequest& request() const { return request_; }
  // The best states placed, closed and measured (closeAndMeasure, the request's report measures).
  std::vector<PlannedGrasp> measuredBest() const;

 private:
  void restart();
  const World& world_;
  PlanRequest request_;
  OnlineSettings settings_;
  WorldState start_;
  HandSearchSpace space_;
  std::unique_ptr<HandEvaluator> evaluator_;
  BestList best_;
  Rng rng_;
  std::vector<double> target_, x_;
  double energy_ = 0;
  long k_ = 0, iterations_ = 0;
};

}  // namespace sg::planner
