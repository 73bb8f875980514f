#include "sim/PhysicsComparison.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "core/Error.h"
#include "contact/ContactModel.h"
#include "grasp/QualityMeasure.h"
#include "grasp/forces/GraspForceOptimization.h"
#include "grasp/planner/GraspCapture.h"
#include "grasp/planner/GraspPlanner.h"
#include "grasp/planner/HandConfiguration.h"
#include "model/WorldState.h"
#include "sim/PhysicsTrial.h"

namespace sg::sim {

namespace {

// The trial's cancel flag: the calling thread sets it when its sink asks, the workers poll it.
class StopSink final : public ProgressSink {
 public:
  explicit StopSink(const std::atomic<bool>& stop) : stop_(stop) {}
  void report(double, std::string_view) override {}
  bool cancelRequested() const override { return stop_.load(); }

 private:
  const std::atomic<bool>& stop_;
};

int graspableOf(const PhysicsWorld& w) { return w.analysis.graspable.value_or(0); }

void checkRequest(const std::vector<PhysicsWorld>& worlds, const PhysicsComparisonRequest& r) {
  if (worlds.empty()) throw Error("physics comparison: no world to plan");
  for (const PhysicsWorld& w : worlds) {
    if (!w.world) throw Error("physics comparison: a world is missing", w.label);
    if (w.world->robots.empty()) throw Error("no hand to plan with", w.label);
    if (w.world->graspables.empty()) throw Error("no graspable body to plan for", w.label);
    const int robot = w.analysis.robot, graspable = graspableOf(w);
    if (robot < 0 || robot >= static_cast<int>(w.world->robots.size()))
      throw Error("hand " + std::to_string(robot) + " does not exist", w.label);
    if (graspable < 0 || graspable >= static_cast<int>(w.world->graspables.size()))
      throw Error("graspable " + std::to_string(graspable) + " does not exist", w.label);
  }
  if (r.seeds < 1) throw Error("physics comparison: seeds must be at least 1");
  if (r.iterations < 1) throw Error("physics comparison: iterations must be at least 1");
  if (r.keep < 1) throw Error("physics comparison: keep must be at least 1");
  if (r.threads < 1) throw Error("physics comparison: threads must be at least 1");
  if (!(r.successScore > 0 && r.successScore <= 1))
    throw Error("physics comparison: success score must be in (0, 1]");
  validateTrialSettings(r.trial);
  if (r.compare.measures.empty()) throw Error("physics comparison: no measure named");
  for (const std::string& m : r.compare.measures)
    if (!findQualityMeasure(m)) throw Error("physics comparison: unknown measure '" + m + "'");
  for (const std::string& m : r.compare.models)
    if (!findContactModel(m)) throw Error("physics comparison: unknown contact model '" + m + "'");
}

// Plans every world with every seed and places each kept grasp in its own state (progress 0 to 0.3).
std::vector<PhysicsSample> plannedSamples(const std::vector<PhysicsWorld>& worlds, const PhysicsComparisonRequest& r,
                                          ProgressSink& progress) {
  std::vector<PhysicsSample> samples;
  const double planSteps = static_cast<double>(worlds.size() * static_cast<std::size_t>(r.seeds));
  for (std::size_t w = 0; w < worlds.size(); ++w) {
    const World& world = *worlds[w].world;
    for (int seed = 1; seed <= r.seeds; ++seed) {
      const double step = static_cast<double>(w * static_cast<std::size_t>(r.seeds) + static_cast<std::size_t>(seed - 1));
      SubProgress sub(progress, 0.3 * step / planSteps, 0.3 * (step + 1) / planSteps);
      planner::PlanRequest plan;
      plan.robot = worlds[w].analysis.robot;
      plan.graspable = graspableOf(worlds[w]);
      plan.energy.analysis = worlds[w].analysis;
      plan.maxSteps = plan.params.k0 + r.iterations;
      plan.threads = r.threads;
      plan.seed = static_cast<std::uint64_t>(seed);
      plan.finalStage.enabled = true;
      const planner::PlanResult planned = planner::planGrasps(world, plan, sub);
      if (planned.annealing.stopReason == planner::StopReason::Cancelled || progress.cancelRequested())
        throw Cancelled("interrupted while planning");
      const Robot& hand = world.robots[static_cast<std::size_t>(plan.robot)];
      for (std::size_t k = 0; k < std::min(r.keep, planned.grasps.size()); ++k) {
        PhysicsSample s;
        s.world = w;
        s.seed = seed;
        s.rank = static_cast<int>(k + 1);
        s.state = world.state;
        RobotState& rs = s.state.robots[static_cast<std::size_t>(plan.robot)];
        planner::applyHandConfiguration(hand, rs, planned.grasps[k].grasp);  // with its break-away joints
        updateConnections(world, s.state);
        samples.push_back(std::move(s));
      }
    }
  }
  return samples;
}

// One grasp: its measures under every model, the static check and the trial. `stop` cancels the trial.
void measureAndTry(const PhysicsWorld& w, const PhysicsComparisonRequest& r, const std::vector<std::string>& models,
                   PhysicsSample& s, const std::atomic<bool>& stop) {
  const World& world = *w.world;
  WorldState measured = s.state;
  NullProgress quiet;
  ComparisonRequest compare = r.compare;
  compare.models = models;
  const ModelComparison comparison = runComparison(world, measured, w.analysis, compare, quiet);
  const Body& object = world.graspables[static_cast<std::size_t>(graspableOf(w))];
  for (const std::string& model : models) {
    const ModelColumn* column = comparison.column(model);
    for (const std::string& measure : r.compare.measures) {
      const MeasureValue* m = column && column->ok ? column->measure(measure) : nullptr;
      s.predictors.push_back(m && m->ok && std::isfinite(m->value) ? std::optional<double>(m->value) : std::nullopt);
    }
    if (!r.staticCheck) continue;
    std::optional<std::vector<bool>> held =
        column && column->ok ? staticHeld(world, measured, column->evaluation, object, r.trial) : std::nullopt;
    std::optional<double> fraction;  // directions held / directions tried
    if (held && !held->empty())
      fraction = static_cast<double>(std::count(held->begin(), held->end(), true)) / static_cast<double>(held->size());
    s.predictors.push_back(fraction);
    s.staticHeld.push_back(std::move(held));
  }
  StopSink sink(stop);
  const TrialResult trial = runTrial(world, s.state, {w.analysis.robot, graspableOf(w), r.trial}, sink);
  for (const DirectionTrial& d : trial.directions) {
    s.held.push_back(d.held);
    s.displacement_mm.push_back(d.displacement_mm);
    s.rotation_deg.push_back(d.rotation_deg);
  }
  s.score = trial.score();
}

// Measures and tries every sample on `threads` threads, each with its own WorldState copies and MuJoCo data (the
// planner's analysis is per-state too, GraspPlanner.h); the calling thread reports progress (0.3 to 1) and
// polls for a cancel. Returns false when cancelled (the samples tried keep their score).
bool measureAndTryAll(const std::vector<PhysicsWorld>& worlds, const PhysicsComparisonRequest& r,
                      const std::vector<std::string>& models, std::vector<PhysicsSample>& samples,
                      ProgressSink& progress) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t done = 0;
  std::string firstError;
  auto worker = [&] {
    for (std::size_t i = next++; i < samples.size() && !stop.load(); i = next++) {
      const PhysicsWorld& w = worlds[samples[i].world];
      try {
        measureAndTry(w, r, models, samples[i], stop);
      } catch (const Cancelled&) {
        return;
      } catch (const Error& e) {
        std::lock_guard lock(mutex);
        if (firstError.empty())
          firstError = w.label + ": seed " + std::to_string(samples[i].seed) + " grasp " +
                       std::to_string(samples[i].rank) + ": " + e.message();
        stop = true;
        changed.notify_all();
        return;
      }
      std::lock_guard lock(mutex);
      ++done;
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < r.threads; ++t) pool.emplace_back(worker);
  {
    std::unique_lock lock(mutex);
    while (done < samples.size() && !stop.load()) {
      const std::size_t d = done;
      lock.unlock();
      progress.report(0.3 + 0.7 * static_cast<double>(d) / static_cast<double>(samples.size()),
                      "measures and physics trial of grasp " + std::to_string(d + 1) + " of " +
                          std::to_string(samples.size()));
      if (progress.cancelRequested()) stop = true;
      lock.lock();
      changed.wait_for(lock, std::chrono::milliseconds(100), [&] { return done != d || stop.load(); });
    }
  }
  for (std::thread& t : pool) t.join();
  if (!firstError.empty()) throw Error(firstError);
  return done == samples.size();
}

// Models and predictors of the request (comparePhysics' and comparePhysicsOnList's common start).
PhysicsComparison emptyComparison(const PhysicsComparisonRequest& request) {
  PhysicsComparison out;
  out.models = request.compare.models;
  if (out.models.empty())
    for (const ContactModel* model : contactModels()) out.models.push_back(model->name());
  out.measures = request.compare.measures;
  for (const std::string& model : out.models) {
    for (const std::string& measure : out.measures) out.predictors.push_back({model, measure});
    if (request.staticCheck) out.predictors.push_back({model, kStaticHeldMeasure});
  }
  return out;
}

// Measures and tries `out.samples`, then the table and the agreement.
PhysicsComparison tryAll(const std::vector<PhysicsWorld>& worlds, const PhysicsComparisonRequest& request,
                         PhysicsComparison out, ProgressSink& progress) {
  out.complete = measureAndTryAll(worlds, request, out.models, out.samples, progress);
  std::vector<PredictionSample> tried;
  for (const PhysicsSample& s : out.samples)
    if (s.score) tried.push_back({*s.score, s.predictors});
  out.table = predictionTable(out.predictors, tried, request.successScore);
  if (request.staticCheck) out.agreement = holdAgreement(out.models, request.trial.directions, out.samples);
  return out;
}

}  // namespace

std::optional<std::vector<bool>> staticHeld(const World& world, const WorldState& state,
                                            const GraspEvaluation& evaluation, const Body& object,
                                            const TrialSettings& trial) {
  std::vector<std::string> names;
  for (const PullDirection& d : trial.directions) names.push_back(d.name());
  try {
    HoldSettings settings;
    settings.gravity_m_per_s2 = trial.gravity_mps2;
    const HoldResult hold =
        analyzeHold(world, state, evaluation, object, weightLoads(object, names, trial.gravity_mps2), settings);
    std::vector<bool> held;
    for (const HoldDirection& d : hold.directions) held.push_back(d.held);
    return held;
  } catch (const Cancelled&) {
    throw;
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::vector<std::string> defaultPhysicsMeasures() {
  std::vector<std::string> out;
  for (const std::string& name : qualityMeasureNames())
    if (name != "volume-linf") out.push_back(name);
  return out;
}

std::size_t PhysicsComparison::tried() const {
  return static_cast<std::size_t>(
      std::count_if(samples.begin(), samples.end(), [](const PhysicsSample& s) { return s.score.has_value(); }));
}

std::vector<HoldAgreement> holdAgreement(const std::vector<std::string>& models,
                                         const std::vector<PullDirection>& directions,
                                         const std::vector<PhysicsSample>& samples) {
  std::vector<HoldAgreement> out;
  for (std::size_t m = 0; m < models.size(); ++m)
    for (std::size_t d = 0; d < directions.size(); ++d) {
      HoldAgreement a;
      a.model = models[m];
      a.direction = directions[d];
      for (const PhysicsSample& s : samples) {
        if (!s.score) continue;
        if (s.held.size() != directions.size())
          throw Error("hold agreement: a grasp has " + std::to_string(s.held.size()) + " trial verdicts for " +
                      std::to_string(directions.size()) + " directions");
        if (m >= s.staticHeld.size() || !s.staticHeld[m]) {
          ++a.notApplicable;
          continue;
        }
        const std::vector<bool>& statics = *s.staticHeld[m];
        if (statics.size() != directions.size())
          throw Error("hold agreement: a grasp has " + std::to_string(statics.size()) + " static verdicts for " +
                      std::to_string(directions.size()) + " directions");
        const bool physics = s.held[d], held = statics[d];
        if (held && physics) ++a.bothHeld;
        else if (held) ++a.staticOnly;
        else if (physics) ++a.physicsOnly;
        else ++a.neither;
      }
      out.push_back(std::move(a));
    }
  return out;
}

PhysicsComparison comparePhysics(const std::vector<PhysicsWorld>& worlds, const PhysicsComparisonRequest& request,
                                 ProgressSink& progress) {
  checkRequest(worlds, request);
  PhysicsComparison out = emptyComparison(request);
  out.samples = plannedSamples(worlds, request, progress);
  return tryAll(worlds, request, std::move(out), progress);
}

PhysicsComparison comparePhysicsOnList(const PhysicsWorld& world, const planner::GraspList& list,
                                       const PhysicsComparisonRequest& request, ProgressSink& progress) {
  PhysicsWorld w = world;
  w.analysis.robot = list.robotIndex;
  w.analysis.graspable = list.graspableIndex;
  const std::vector<PhysicsWorld> worlds{w};
  checkRequest(worlds, request);
  if (list.grasps.empty()) throw Error("the grasp list has no grasp", w.label);
  try {
    planner::validateGraspList(list, *w.world);
  } catch (const Error& e) {
    throw Error("the grasp list does not fit the world: " + e.message(), w.label);
  }
  PhysicsComparison out = emptyComparison(request);
  const Robot& hand = w.world->robots[static_cast<std::size_t>(list.robotIndex)];
  for (std::size_t k = 0; k < list.grasps.size(); ++k) {
    PhysicsSample s;
    s.rank = static_cast<int>(k + 1);
    s.state = w.world->state;
    RobotState& rs = s.state.robots[static_cast<std::size_t>(list.robotIndex)];
    planner::applyHandConfiguration(hand, rs, list.grasps[k].grasp);  // with its break-away joints
    updateConnections(*w.world, s.state);
    out.samples.push_back(std::move(s));
  }
  return tryAll(worlds, request, std::move(out), progress);
}

}  // namespace sg::sim
