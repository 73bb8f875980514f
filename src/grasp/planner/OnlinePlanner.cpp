#include "grasp/planner/OnlinePlanner.h"

#include <cmath>
#include <limits>

#include "core/Error.h"
#include "grasp/Motion.h"

namespace sg::planner {

namespace {

AnnealingParams onlineParams(const PlanRequest& request) {
  return request.params.name == "default" ? AnnealingParams::byName("online") : request.params;
}

}  // namespace

OnlinePlanner::OnlinePlanner(const World& world, const PlanRequest& request, OnlineSettings settings)
    : world_(world), request_(request), settings_(settings), start_(world.state),
      space_(makeSearchSpace(world, request)), best_(20, 0.2, [this](const std::vector<double>& a,
                                                                     const std::vector<double>& b) {
        return space_.distance(a, b);
      }),
      rng_(chainSeed(request.seed, 3000)) {
  if (space_.position == PositionSpace::Approach)
    throw Error("the online planner needs a space fixed to the object (axis-angle, ellipsoid or complete)");
  request_.params = onlineParams(request);
  evaluator_ = std::make_unique<HandEvaluator>(world_, start_, space_, request_.energy);
  for (const SearchVariable& v : space_.variables) target_.push_back(v.value);
  restart();
}

OnlinePlanner::~OnlinePlanner() = default;

void OnlinePlanner::setTarget(const Transform& X_WP, const std::vector<double>& dofValues) {
  // The target's variables: the space's start values for a state with the hand there.
  WorldState moved = start_;
  RobotState& rs = moved.robots.at(static_cast<std::size_t>(request_.robot));
  rs.X_WP = X_WP;
  setDofValues(world_.robots[static_cast<std::size_t>(request_.robot)], rs, dofValues);
  const HandSearchSpace at = makeSearchSpace(world_, moved, request_.robot, space_.graspable, space_.position);
  target_.clear();
  for (std::size_t i = 0; i < at.variables.size(); ++i)
    target_.push_back(space_.variables[i].fixed ? space_.variables[i].value : at.variables[i].value);
  // Keep the best states near the new target only.
  std::vector<BestEntry> kept;
  for (const BestEntry& e : best_.entries())
    if (space_.distance(e.x, target_) <= settings_.keepDistance) kept.push_back(e);
  best_ = BestList(20, 0.2, [this](const std::vector<double>& a, const std::vector<double>& b) {
    return space_.distance(a, b);
  });
  for (const BestEntry& e : kept) best_.offer(e);
  restart();
}

void OnlinePlanner::restart() {
  for (std::size_t i = 0; i < space_.variables.size(); ++i) {
    SearchVariable& v = space_.variables[i];
    v.target = target_[i];
    v.confidence = i < space_.positionCount ? settings_.positionConfidence : settings_.postureConfidence;
  }
  x_ = target_;
  energy_ = evaluator_->energy(x_).value_or(std::numeric_limits<double>::infinity());
  k_ = request_.params.k0;
}

void OnlinePlanner::step(long iterations) {
  const AnnealingParams& p = request_.params;
  for (long i = 0; i < iterations; ++i) {
    if (++k_ > p.k0 + settings_.cycleSteps) k_ = p.k0 + 1;
    const double k = static_cast<double>(k_);
    const double tNeighbour = p.neighbourAdjust * coolingTemperature(p.t0, p.yc, k, p.ydims);
    const double tAccept = coolingTemperature(p.t0, p.hc, k, p.hdims);
    std::optional<double> e;
    std::vector<double> candidate;
    for (int attempt = 0; attempt < 11 && !e; ++attempt) {
      candidate = neighbour(space_.variables, x_, tNeighbour, rng_);
      e = evaluator_->energy(candidate);
    }
    ++iterations_;
    if (!e) continue;
    const bool accept = *e < energy_ || rng_.uniform() < std::exp((energy_ - *e) * p.errorAdjust / tAccept);
    if (!accept) continue;
    x_ = std::move(candidate);
    energy_ = *e;
    if (energy_ < 1e5 && space_.distance(x_, target_) <= settings_.keepDistance)
      best_.offer({x_, energy_, 0, iterations_});
  }
}

std::vector<PlannedGrasp> OnlinePlanner::measuredBest() const {
  std::vector<PlannedGrasp> out;
  for (const BestEntry& e : best_.entries())
    out.push_back(closeAndMeasure(world_, space_, request_.energy, e, request_.reportMeasures));
  return out;
}

}  // namespace sg::planner
