#include "ComparePhysics.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <iostream>
#include <sstream>
#include <thread>

#include "AnalysisOptions.h"
#include "ExitCodes.h"
#include "InputOptions.h"
#include "Interrupt.h"
#include "JsonWriter.h"
#include "TerminalProgress.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "core/Parse.h"
#include "grasp/ModelComparison.h"
#include "grasp/QualityMeasure.h"
#include "grasp/planner/GraspPlanner.h"
#include "sim/PhysicsPrediction.h"
#include "sim/PhysicsTrial.h"
#include "sim/TrialJson.h"

namespace sg::cli {

namespace {

const JsonFormat kPhysicsPredictionFormat{"physics-prediction", 1};

struct PhysicsOptions {
  std::vector<std::string> files;
  int seeds = 3;
  std::size_t keep = 20;  // the planner's list size
  long iterations = 5000;
  int threads = 1;
  double successScore = 0.5;
  sim::TrialSettings trial;
};

long integerValue(const ParsedArgs& args, const std::string& option, long fallback, long minimum) {
  const auto text = args.value(option);
  if (!text) return fallback;
  const auto v = parseDouble(*text);
  if (!v || *v < static_cast<double>(minimum) || *v != static_cast<double>(static_cast<long>(*v)))
    throw UsageError(option + ": expected an integer ≥ " + std::to_string(minimum) + ", got '" + *text + "'");
  return static_cast<long>(*v);
}

PhysicsOptions physicsOptions(const ParsedArgs& args) {
  for (const char* motion : {"--approach", "--autograsp", "--sweep"})
    if (args.has(motion))
      throw UsageError(std::string("--against-physics plans its grasps: no ") + motion);
  PhysicsOptions o;
  o.files.push_back(args.positional(0));
  for (const std::string& w : args.values("--world")) o.files.push_back(w);
  o.seeds = static_cast<int>(integerValue(args, "--seeds", o.seeds, 1));
  o.iterations = integerValue(args, "--iterations", o.iterations, 1);
  o.keep = static_cast<std::size_t>(integerValue(args, "--keep", static_cast<long>(o.keep), 1));
  o.threads = static_cast<int>(integerValue(args, "--threads", 0, 0));
  if (o.threads == 0) o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (const auto d = args.value("--duration")) {
    const auto v = parseDouble(*d);
    if (!v || !(*v > 0)) throw UsageError("--duration: expected a number of seconds > 0, found '" + *d + "'");
    o.trial.duration_s = *v;
  }
  if (const auto s = args.value("--success-score")) {
    const auto v = parseDouble(*s);
    if (!v || !(*v > 0 && *v <= 1))
      throw UsageError("--success-score: expected a trial score in (0, 1], found '" + *s + "'");
    o.successScore = *v;
  }
  return o;
}

std::vector<std::string> commaList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

// One kept grasp of one world: where it came from, its hand state, its measures and its trial.
struct GraspCase {
  std::size_t world = 0;
  int seed = 0, rank = 0;
  WorldState state;
  std::vector<std::optional<double>> predictors;
  std::optional<double> score;  // nullopt: not tried (Ctrl+C)
};

struct WorldRun {
  InputFile input;
  int robot = 0, graspable = 0;
};

// Measures every case under every model and runs its trial, on `threads` threads, each case with its own
// WorldState copies and MuJoCo data (the planner's analysis is per-state too, GraspPlanner.h).
// Returns false when Ctrl+C stopped it (the cases tried keep their score).
bool runTrials(const std::vector<WorldRun>& worlds, const std::vector<AnalysisRequest>& analyses,
               const ComparisonRequest& compare, const std::vector<sim::Predictor>& predictors,
               std::vector<GraspCase>& cases, const sim::TrialSettings& settings, int threads,
               TerminalProgress& progress) {
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex errorMutex;
  std::string firstError;
  class StopSink final : public ProgressSink {
   public:
    explicit StopSink(const std::atomic<bool>& stop) : stop_(stop) {}
    void report(double, std::string_view) override {}
    bool cancelRequested() const override { return stop_.load(); }

   private:
    const std::atomic<bool>& stop_;
  };
  auto worker = [&] {
    StopSink sink(stop);
    for (std::size_t i = next++; i < cases.size() && !stop.load(); i = next++) {
      const WorldRun& w = worlds[cases[i].world];
      try {
        WorldState measured = cases[i].state;
        NullProgress quiet;
        const ModelComparison comparison =
            runComparison(w.input.world, measured, analyses[cases[i].world], compare, quiet);
        for (const sim::Predictor& p : predictors) {
          const ModelColumn* column = comparison.column(p.model);
          const MeasureValue* m = column && column->ok ? column->measure(p.measure) : nullptr;
          cases[i].predictors.push_back(m && m->ok && std::isfinite(m->value) ? std::optional<double>(m->value)
                                                                              : std::nullopt);
        }
        const sim::TrialResult r =
            sim::runTrial(w.input.world, cases[i].state, {w.robot, w.graspable, settings}, sink);
        cases[i].score = r.score();
      } catch (const Cancelled&) {
        return;
      } catch (const Error& e) {
        std::lock_guard lock(errorMutex);
        if (firstError.empty()) firstError = w.input.path + ": seed " + std::to_string(cases[i].seed) + " grasp " +
                                             std::to_string(cases[i].rank) + ": " + e.message();
        stop = true;
        return;
      }
      ++done;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  while (done.load() < cases.size() && !stop.load()) {
    progress.report(0.3 + 0.7 * static_cast<double>(done.load()) / static_cast<double>(cases.size()),
                    "measures and physics trial of grasp " + std::to_string(done.load() + 1) + " of " + std::to_string(cases.size()));
    if (interrupted()) stop = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (std::thread& t : pool) t.join();
  if (!firstError.empty()) throw Error(firstError);
  return !interrupted();
}

std::string valueText(const std::optional<double>& v) { return v ? formatFixed(*v, 3) : "undefined"; }

Json optionalJson(const std::optional<double>& v) { return v ? Json(*v) : Json(); }

// The table on stdout: CSV, the softgrasp.physics-prediction document, or text.
void writeTable(const ParsedArgs& args, const PhysicsOptions& options, const std::vector<WorldRun>& worlds,
                const std::vector<GraspCase>& cases, const sim::PredictionTable& table, bool complete,
                const Warnings& warnings) {
  if (args.has("--csv")) {
    std::cout << "model,measure,grasps,missing,successes,auc,spearman\n";
    for (const sim::PredictorRow& r : table.rows)
      std::cout << r.predictor.model << ',' << r.predictor.measure << ',' << r.grasps << ',' << r.missing << ','
                << r.successes << ','
                << (r.auc ? formatDouble(*r.auc) : "") << ',' << (r.spearman ? formatDouble(*r.spearman) : "")
                << '\n';
  } else if (args.has("--json")) {
    Json doc = Json::object();
    Json files = Json::array();
    for (const WorldRun& w : worlds) files.push(w.input.path);
    doc.set("files", files);
    doc.set("seeds", options.seeds);
    doc.set("iterations", static_cast<double>(options.iterations));
    doc.set("keep", static_cast<int>(options.keep));
    doc.set("settings", sim::trialSettingsJson(options.trial));
    doc.set("successScore", options.successScore);
    doc.set("grasps", table.grasps);
    doc.set("successes", table.successes);
    Json rows = Json::array();
    for (const sim::PredictorRow& r : table.rows) {
      Json o = Json::object();
      o.set("model", r.predictor.model);
      o.set("measure", r.predictor.measure);
      o.set("grasps", r.grasps);
      o.set("missing", r.missing);
      o.set("successes", r.successes);
      o.set("auc", optionalJson(r.auc));
      o.set("spearman", optionalJson(r.spearman));
      if (!r.undefined.empty()) o.set("undefined", r.undefined);
      rows.push(o);
    }
    doc.set("rows", rows);
    Json tried = Json::array();
    for (const GraspCase& c : cases) {
      if (!c.score) continue;
      Json o = Json::object();
      o.set("file", static_cast<int>(c.world));
      o.set("seed", c.seed);
      o.set("rank", c.rank);
      o.set("score", *c.score);
      Json values = Json::array();
      for (const std::optional<double>& v : c.predictors) values.push(optionalJson(v));
      o.set("predictors", values);
      tried.push(o);
    }
    doc.set("samples", tried);
    doc.set("complete", complete);
    doc.set("warnings", warnings.json());
    writeJson(std::cout, kPhysicsPredictionFormat, doc);
  } else {
    TextPrinter out(std::cout);
    out.line("measures against physics: " + std::to_string(table.grasps) + " grasps of " +
             std::to_string(worlds.size()) + " world(s), " + std::to_string(table.successes) +
             " succeeded (trial score >= " + TextPrinter::number(options.successScore) + ")");
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-14s %-20s %8s %7s %9s", "model", "measure", "no value", "AUC", "Spearman");
    out.line(buf);
    for (const sim::PredictorRow& r : table.rows) {
      std::snprintf(buf, sizeof buf, "%-14s %-20s %8d %7s %9s", r.predictor.model.c_str(),
                    r.predictor.measure.c_str(), r.missing, valueText(r.auc).c_str(), valueText(r.spearman).c_str());
      out.line(buf + (r.undefined.empty() ? std::string() : "  (" + r.undefined + ")"));
    }
  }
}

}  // namespace

std::vector<OptionSpec> againstPhysicsOptions() {
  return {{"--against-physics", "",
           "which measure predicts a physics trial: plan WORLD (and each --world) with --seeds seeds, run the trial "
           "on every kept grasp and print per contact model and measure the ROC AUC and Spearman correlation "
           "against the trial score (src/sim/README.md)"},
          {"--world", "FILE", "--against-physics: another world to plan and try (repeatable)", true},
          {"--seeds", "N", "--against-physics: planner seeds 1..N per world (default 3)"},
          {"--iterations", "N", "--against-physics: annealing iterations per plan (default 5000; the final stage on)"},
          {"--keep", "N", "--against-physics: the best N kept grasps of each plan (default 20, the planner's list)"},
          {"--threads", "T", "--against-physics: trials run at once (default 0 = all cores); the table does not "
                             "depend on it"},
          {"--duration", "S", "--against-physics: seconds of pull per direction (default 1)"},
          {"--success-score", "S", "--against-physics: a grasp succeeds when its trial score (directions held / 6) "
                                   "is at least S (default 0.5; 1 = held in all six)"}};
}

int runCompareAgainstPhysics(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv exclude each other");
  const PhysicsOptions options = physicsOptions(args);
  ComparisonRequest compare;
  if (const auto m = args.value("--contact-model")) {
    for (const std::string& name : commaList(*m)) {
      const ContactModel* model = findContactModel(name);
      if (!model) throw UsageError("--contact-model: expected " + contactModelNames() + ", got '" + name + "'");
      compare.models.push_back(model->name());
    }
  } else {
    for (const ContactModel* model : contactModels()) compare.models.push_back(model->name());
  }
  // Every measure but volume-linf: its hull of the Minkowski sum takes seconds and exceeds its point limit
  // (no value) on most planned grasps (src/sim/README.md §Measures against physics); --measures can name it.
  compare.measures.clear();
  for (const std::string& name : qualityMeasureNames())
    if (name != "volume-linf") compare.measures.push_back(name);
  if (const auto m = args.value("--measures")) compare.measures = commaList(*m);
  if (compare.measures.empty()) throw UsageError("--measures: no measure named");
  for (const std::string& name : compare.measures)
    if (!findQualityMeasure(name)) throw UsageError("--measures: unknown measure '" + name + "'");
  std::vector<sim::Predictor> predictors;
  for (const std::string& model : compare.models)
    for (const std::string& measure : compare.measures) predictors.push_back({model, measure});

  installInterruptHandler();
  TerminalProgress progress(progressWanted(args));
  Warnings warnings;
  std::vector<WorldRun> worlds;
  std::vector<AnalysisRequest> analyses;
  for (const std::string& file : options.files) {
    WorldRun run{loadInputFile(file, loadOptionsFrom(args))};
    if (run.input.world.robots.empty()) throw Error("no hand to plan with", run.input.path);
    if (run.input.world.graspables.empty()) throw Error("no graspable body to plan for", run.input.path);
    warnings.addLoadWarnings(run.input.world);
    analyses.push_back(analysisRequest(args, run.input, /*closeByDefault=*/false));
    run.robot = analyses.back().robot;
    run.graspable = analyses.back().graspable.value_or(0);
    worlds.push_back(std::move(run));
  }

  // Plan every world with every seed (the final stage on) and measure each kept grasp under every model.
  std::vector<GraspCase> cases;
  const double planSteps = static_cast<double>(worlds.size() * static_cast<std::size_t>(options.seeds));
  for (std::size_t w = 0; w < worlds.size(); ++w) {
    const World& world = worlds[w].input.world;
    for (int seed = 1; seed <= options.seeds; ++seed) {
      const double step = static_cast<double>(w * static_cast<std::size_t>(options.seeds) + static_cast<std::size_t>(seed - 1));
      SubProgress sub(progress, 0.3 * step / planSteps, 0.3 * (step + 1) / planSteps);
      planner::PlanRequest plan;
      plan.robot = worlds[w].robot;
      plan.graspable = worlds[w].graspable;
      plan.energy.analysis = analyses[w];
      plan.maxSteps = plan.params.k0 + options.iterations;
      plan.threads = options.threads;
      plan.seed = static_cast<std::uint64_t>(seed);
      plan.finalStage.enabled = true;
      const planner::PlanResult planned = planner::planGrasps(world, plan, sub);
      if (planned.annealing.stopReason == planner::StopReason::Cancelled || interrupted()) {
        progress.clear();
        std::cerr << "softgrasp-cli: compare: interrupted while planning; no table\n";
        return kExitInterrupted;
      }
      const Robot& hand = world.robots[static_cast<std::size_t>(worlds[w].robot)];
      for (std::size_t k = 0; k < std::min(options.keep, planned.grasps.size()); ++k) {
        GraspCase c{w, seed, static_cast<int>(k + 1), world.state, {}, std::nullopt};
        RobotState& rs = c.state.robots[static_cast<std::size_t>(worlds[w].robot)];
        setRobotPose(hand, rs, planned.grasps[k].grasp.X_WP);
        setDofValues(hand, rs, planned.grasps[k].grasp.dofValues);
        updateConnections(world, c.state);
        cases.push_back(std::move(c));
      }
    }
  }

  const bool complete = runTrials(worlds, analyses, compare, predictors, cases, options.trial, options.threads, progress);
  progress.clear();
  std::vector<sim::PredictionSample> samples;
  for (const GraspCase& c : cases)
    if (c.score) samples.push_back({*c.score, c.predictors});
  if (!complete)
    std::cerr << "softgrasp-cli: compare: interrupted: the table covers the " << samples.size() << " of "
              << cases.size() << " grasps tried\n";
  const sim::PredictionTable table = sim::predictionTable(predictors, samples, options.successScore);

  writeTable(args, options, worlds, cases, table, complete, warnings);
  return complete ? kExitOk : kExitInterrupted;
}

}  // namespace sg::cli
