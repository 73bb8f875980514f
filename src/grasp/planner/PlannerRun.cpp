#include "grasp/planner/PlannerRun.h"

#include <algorithm>
#include <chrono>

#include "core/Error.h"
#include "grasp/planner/OnlinePlanner.h"

namespace sg::planner {

std::unique_ptr<PlannerRun> PlannerRun::startAnnealing(std::shared_ptr<const World> world, PlanRequest request) {
  if (!world) throw Error("a planner run needs a world");
  std::unique_ptr<PlannerRun> run(new PlannerRun(Kind::Annealing, std::move(world), std::move(request)));
  run->worker_ = std::thread([r = run.get()] { r->runAnnealing(); });
  return run;
}

std::unique_ptr<PlannerRun> PlannerRun::startOnline(std::shared_ptr<const World> world, PlanRequest request,
                                                    long stepsPerRound) {
  if (!world) throw Error("a planner run needs a world");
  if (request.space == PositionSpace::Approach)
    throw Error("the online planner needs a space fixed to the object (not approach)");
  std::unique_ptr<PlannerRun> run(new PlannerRun(Kind::Online, std::move(world), std::move(request)));
  run->worker_ = std::thread([r = run.get(), steps = std::max(1L, stepsPerRound)] { r->runOnline(steps); });
  return run;
}

PlannerRun::PlannerRun(Kind kind, std::shared_ptr<const World> world, PlanRequest request)
    : kind_(kind), world_(std::move(world)), request_([&] {
        request.monitor = nullptr;  // the run's own, set on the worker's copy
        return std::move(request);
      }()) {}

PlannerRun::~PlannerRun() {
  cancel();
  if (worker_.joinable()) worker_.join();
}

void PlannerRun::setPaused(bool paused) {
  if (kind_ == Kind::Annealing && !done()) monitor_.setPaused(paused);
}

void PlannerRun::setTarget(const Transform& X_WP, const std::vector<double>& dofValues) {
  if (kind_ != Kind::Online) return;
  const std::lock_guard lock(mutex_);
  target_ = std::make_pair(X_WP, dofValues);
}

void PlannerRun::cancel() {
  progress_.cancel();
  monitor_.setPaused(false);  // paused chains wait; they must run on to see the cancel
}

void PlannerRun::wait() {
  if (worker_.joinable()) worker_.join();
}

PlannerRun::Status PlannerRun::status() const {
  Status out;
  if (kind_ == Kind::Online) {
    const std::lock_guard lock(mutex_);
    out = online_;
  } else {
    out.iterations = monitor_.iterations();
  }
  const CancellableProgress::Snapshot p = progress_.snapshot();
  out.fraction = p.fraction;
  out.message = p.message;
  if (done()) {
    const std::lock_guard lock(mutex_);
    out.state = result_ ? State::Finished : State::Failed;
    out.error = error_;
    if (result_) out.iterations = std::max(out.iterations, result_->annealing.iterations);
  }
  return out;
}

std::shared_ptr<const PlanResult> PlannerRun::result() const {
  if (!done()) return nullptr;
  const std::lock_guard lock(mutex_);
  return result_;
}

GraspList PlannerRun::graspList(const std::string& worldFile) const {
  const std::shared_ptr<const PlanResult> r = result();
  if (!r) throw Error(done() ? "the planner run failed: " + status().error : "the planner run has not finished");
  GraspList list = makeGraspList(*world_, worldFile, request_, *r);
  if (kind_ == Kind::Online) {  // OnlinePlanner, not planGrasps (PLANNER.md §Online planner)
    list.planner = "online";
    if (request_.params.name == "default") list.params = "online";
  }
  return list;
}

void PlannerRun::finish(std::shared_ptr<const PlanResult> result, std::string error) {
  {
    const std::lock_guard lock(mutex_);
    result_ = std::move(result);
    error_ = std::move(error);
  }
  done_.store(true, std::memory_order_release);
}

void PlannerRun::runAnnealing() {
  try {
    PlanRequest request = request_;
    request.monitor = &monitor_;
    finish(std::make_shared<const PlanResult>(planGrasps(*world_, request, progress_)), {});
  } catch (const Cancelled&) {
    finish(nullptr, "cancelled before any grasp was found");
  } catch (const std::exception& e) {
    finish(nullptr, e.what());
  }
}

void PlannerRun::runOnline(long stepsPerRound) {
  try {
    OnlinePlanner planner(*world_, request_);
    auto lastReport = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    while (!progress_.cancelRequested()) {
      std::optional<std::pair<Transform, std::vector<double>>> target;
      {
        const std::lock_guard lock(mutex_);
        target.swap(target_);
      }
      if (target) planner.setTarget(target->first, target->second);
      planner.step(stepsPerRound);
      {
        const std::lock_guard lock(mutex_);
        online_.iterations = planner.iterations();
        online_.bestCount = planner.best().size();
        online_.bestState = planner.best().empty() ? std::vector<double>{} : planner.best().front().x;
        online_.bestEnergy = planner.best().empty() ? 0.0 : planner.best().front().energy;
      }
      if (std::chrono::steady_clock::now() - lastReport > std::chrono::milliseconds(200)) {
        lastReport = std::chrono::steady_clock::now();
        progress_.report(0, "online: " + std::to_string(planner.iterations()) + " iterations");
      }
    }
    auto out = std::make_shared<PlanResult>();
    out->space = planner.space();
    out->graspable = planner.space().graspable;
    out->annealing.best = planner.best();
    out->annealing.iterations = planner.iterations();
    out->annealing.stopReason = StopReason::Cancelled;
    out->grasps = planner.measuredBest();
    finish(std::move(out), {});
  } catch (const std::exception& e) {
    finish(nullptr, e.what());
  }
}

}  // namespace sg::planner
