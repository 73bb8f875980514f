#include "batch/BatchRun.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <thread>

#include "core/Error.h"
#include "core/NumberFormat.h"
#include "core/Progress.h"
#include "grasp/planner/GraspList.h"
#include "io/ModelIO.h"

namespace sg::batch {


namespace {

// Loading goes through Coin for Inventor meshes; one load at a time keeps that on one thread.
std::mutex& loadMutex() {
  static std::mutex m;
  return m;
}

World loadRowWorld(const BatchRow& row) {
  std::lock_guard<std::mutex> lock(loadMutex());
  if (!row.worldPath.empty()) return loadWorld(row.worldPath);
  World world;
  world.addGraspable(loadBody(row.objectPath, BodyKind::Graspable, world.materials));
  world.addRobot(loadRobot(row.handPath, world.materials), row.handPose.value_or(Transform()));
  return world;
}

planner::PlanRequest planRequest(const World& world, const BatchRow& row, int threads) {
  const RowSettings& s = row.settings;
  if (s.robot >= static_cast<int>(world.robots.size()))
    throw Error("robot " + std::to_string(s.robot) + ": the world has " + std::to_string(world.robots.size()) +
                " robot(s)");
  if (s.graspable >= static_cast<int>(world.graspables.size()))
    throw Error("graspable " + std::to_string(s.graspable) + ": the world has " +
                std::to_string(world.graspables.size()) + " graspable body(ies)");
  planner::PlanRequest r;
  r.robot = s.robot;
  r.graspable = s.graspable;
  r.space = planner::positionSpaceFromString(s.space);
  r.params = planner::AnnealingParams::byName(s.params);
  r.energy.kind = planner::energyFromString(s.energy);
  r.energy.presetContacts = !s.liveContacts;
  r.energy.measure = s.qualityMeasure;
  AnalysisRequest& a = r.energy.analysis;
  a.robot = s.robot;
  a.graspable = s.graspable;
  a.contactModels = s.contactModels;
  a.measures = s.measures;
  a.collision.contacts.threshold_mm = s.threshold_mm;
  a.quality.soft.patch.normalForce_N = s.force_N;
  a.quality.edges.pointContactEdges = s.edges;
  a.quality.torqueLength_mm = s.torqueLength_mm;
  r.maxSteps = s.steps;
  r.chains = s.chains;
  r.threads = std::max(1, threads);
  r.seed = row.seed;
  r.reportMeasures = s.measures;
  return r;
}

}  // namespace

const World& WorldCache::get(const BatchRow& row) {
  std::string key = row.worldPath;
  if (key.empty()) {
    const Transform X = row.handPose.value_or(Transform());
    const double pose[7] = {X.translation().x(), X.translation().y(), X.translation().z(), X.rotation().w(),
                            X.rotation().x(),    X.rotation().y(),    X.rotation().z()};
    key = row.handPath + "\n" + row.objectPath + "\n";
    for (const double v : pose) key += formatDouble(v) + " ";
  }
  if (!world_ || key != key_) {
    world_.reset();
    world_ = std::make_unique<World>(loadRowWorld(row));
    key_ = key;
  }
  return *world_;
}

Json runRow(const BatchRow& row, int threads, WorldCache* cache) {
  Json record = Json::object();
  record.set("row", row.index);
  record.set("job", row.describe());
  const auto start = std::chrono::steady_clock::now();
  try {
    WorldCache own;
    const World& world = (cache ? *cache : own).get(row);
    const planner::PlanRequest request = planRequest(world, row, threads);
    NullProgress quiet;
    const planner::PlanResult result = planner::planGrasps(world, request, quiet);
    const planner::GraspList list =
        planner::makeGraspList(world, row.world.empty() ? row.hand + " + " + row.object : row.world, request, result);
    record.set("elapsed_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    record.set("iterations", static_cast<double>(result.annealing.iterations));
    record.set("list", planner::graspListToJsonValue(list));
    record.set("provenance", (cache ? *cache : own).provenance.provenance(world, row.settings.robot,
                                                                          row.settings.graspable));
  } catch (const Cancelled&) {
    throw;
  } catch (const Error& e) {
    record.set("error", std::string(e.what()));
  }
  return record;
}

ShardProgress runShard(const JobList& list, const std::string& outDir, const ShardRunOptions& options) {
  if (options.shards < 1 || options.shard < 0 || options.shard >= options.shards)
    throw Error("shard " + std::to_string(options.shard) + "/" + std::to_string(options.shards) + " is not a shard");
  ShardHeader header;
  header.shard = options.shard;
  header.shards = options.shards;
  header.rows = static_cast<long>(list.rows.size());
  header.jobList = list.digest;
  ShardWriter writer(outDir, header);

  ShardProgress progress;
  std::vector<long> todo;
  for (const long r : rowsOfShard(header.rows, options.shard, options.shards)) {
    ++progress.shardRows;
    if (writer.doneRows().count(r)) ++progress.skipped;
    else todo.push_back(r);
  }
  if (options.started) options.started(writer.path(), writer.dropped(), progress);

  const int workers = static_cast<int>(std::min<std::size_t>(std::max(1, options.threads), std::max<std::size_t>(1, todo.size())));
  const int plannerThreads = std::max(1, options.threads / workers);
  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> stoppedEarly{false};
  std::mutex reportMutex;
  std::exception_ptr failure;
  auto work = [&] {
    WorldCache cache;
    while (!stop.load()) {
      if (options.stopRequested && next.load() < todo.size() && options.stopRequested()) {
        stoppedEarly.store(true);
        return;
      }
      const std::size_t i = next.fetch_add(1);
      if (i >= todo.size()) return;
      try {
        const BatchRow& row = list.rows[static_cast<std::size_t>(todo[i])];
        const Json record = runRow(row, plannerThreads, &cache);
        writer.append(record);
        RowDone done;
        done.row = row.index;
        if (const Json* e = record.find("error")) {
          done.error = e->string("error");
        } else {
          done.grasps = record.at("list", "record").at("grasps", "list").items("grasps").size();
          done.elapsed_s = record.at("elapsed_s", "record").number("elapsed_s");
        }
        std::lock_guard<std::mutex> lock(reportMutex);
        if (options.recorded) options.recorded(record);
        ++progress.done;
        progress.grasps += done.grasps;
        progress.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (options.rowDone) options.rowDone(done, progress);
      } catch (...) {
        std::lock_guard<std::mutex> lock(reportMutex);
        if (!failure) failure = std::current_exception();
        stop.store(true);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  progress.stopped = stoppedEarly.load();
  progress.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return progress;
}

}  // namespace sg::batch
