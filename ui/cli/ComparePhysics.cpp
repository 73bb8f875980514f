#include "ComparePhysics.h"

#include <cstdio>
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
#include "TrialOptions.h"
#include "Warnings.h"
#include "core/Error.h"
#include "core/JsonGeometry.h"
#include "core/NumberFormat.h"
#include "core/Parse.h"
#include "grasp/ModelComparison.h"
#include "grasp/QualityMeasure.h"
#include "sim/PhysicsComparison.h"
#include "sim/PhysicsComparisonJson.h"

namespace sg::cli {

namespace {

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
  if (const auto t = timestepOption(args)) o.trial.timestep_s = *t;
  if (const auto s = args.value("--success-score")) {
    const auto v = parseDouble(*s);
    if (!v || !(*v > 0 && *v <= 1))
      throw UsageError("--success-score: expected a trial score in (0, 1], found '" + *s + "'");
    o.successScore = *v;
  }
  return o;
}

std::vector<std::string> physicsCommaList(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct WorldRun {
  InputFile input;
  int robot = 0, graspable = 0;
};

// A model's agreement summed over the directions (the CSV's static-held row).
struct AgreementTotals {
  int both = 0, staticOnly = 0, physicsOnly = 0, neither = 0;
};

AgreementTotals totals(const std::vector<sim::HoldAgreement>& agreement, const std::string& model) {
  AgreementTotals t;
  for (const sim::HoldAgreement& a : agreement)
    if (a.model == model) {
      t.both += a.bothHeld;
      t.staticOnly += a.staticOnly;
      t.physicsOnly += a.physicsOnly;
      t.neither += a.neither;
    }
  return t;
}

std::string valueText(const std::optional<double>& v) { return v ? formatFixed(*v, 3) : "undefined"; }

// The table on stdout: CSV, the softgrasp.physics-prediction document, or text.
void writeTable(const ParsedArgs& args, const PhysicsOptions& options, const std::vector<WorldRun>& worlds,
                const sim::PhysicsComparisonRequest& request, const sim::PhysicsComparison& comparison,
                const Warnings& warnings) {
  const sim::PredictionTable& table = comparison.table;
  if (args.has("--csv")) {
    // One table (ui/cli/README.md): a row per predictor, then per model and direction the static check's
    // agreement with the trial (src/sim/README.md §Static check against the trial); empty cells where not
    // applicable.
    std::cout << "model,measure,grasps,missing,successes,auc,spearman,direction,both_held,static_only,physics_only,"
                 "neither\n";
    for (const sim::PredictorRow& r : table.rows) {
      std::cout << r.predictor.model << ',' << r.predictor.measure << ',' << r.grasps << ',' << r.missing << ','
                << r.successes << ','
                << (r.auc ? formatDouble(*r.auc) : "") << ',' << (r.spearman ? formatDouble(*r.spearman) : "");
      if (r.predictor.measure == sim::kStaticHeldMeasure) {
        const AgreementTotals t = totals(comparison.agreement, r.predictor.model);
        std::cout << ",all," << t.both << ',' << t.staticOnly << ',' << t.physicsOnly << ',' << t.neither << '\n';
      } else {
        std::cout << ",,,,,\n";
      }
    }
    for (const sim::HoldAgreement& a : comparison.agreement)
      std::cout << a.model << ',' << sim::kStaticHeldMeasure << ',' << a.grasps() << ',' << a.notApplicable
                << ",,,," << a.direction.name() << ',' << a.bothHeld << ',' << a.staticOnly << ','
                << a.physicsOnly << ',' << a.neither << '\n';
  } else if (args.has("--json")) {
    // The engine's document (src/sim/PhysicsComparisonJson.h), the one the application saves.
    std::vector<std::string> files;
    for (const WorldRun& w : worlds) files.push_back(w.input.path);
    writeJson(std::cout, sim::kPhysicsPredictionFormat,
              sim::physicsComparisonJson(comparison, request, files, warnings.all()));
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
    if (comparison.agreement.empty()) return;
    out.line("static check (" + std::string(sim::kStaticHeldMeasure) + ") against the trial, per direction: grasps "
             "held by both, by the static check only, by the trial only, by neither; n/a: no static verdict");
    std::snprintf(buf, sizeof buf, "%-14s %-9s %6s %7s %8s %8s %5s", "model", "direction", "both", "static",
                  "physics", "neither", "n/a");
    out.line(buf);
    for (const sim::HoldAgreement& a : comparison.agreement) {
      std::snprintf(buf, sizeof buf, "%-14s %-9s %6d %7d %8d %8d %5d", a.model.c_str(), a.direction.name().c_str(),
                    a.bothHeld, a.staticOnly, a.physicsOnly, a.neither, a.notApplicable);
      out.line(buf);
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
          {"--timestep", "S", "--against-physics: MuJoCo's timestep of the trials (default 0.002)"},
          {"--success-score", "S", "--against-physics: a grasp succeeds when its trial score (directions held / 6) "
                                   "is at least S (default 0.5; 1 = held in all six)"}};
}

int runCompareAgainstPhysics(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv exclude each other");
  const PhysicsOptions options = physicsOptions(args);
  ComparisonRequest compare;
  if (const auto m = args.value("--contact-model")) {
    for (const std::string& name : physicsCommaList(*m)) {
      const ContactModel* model = findContactModel(name);
      if (!model) throw UsageError("--contact-model: expected " + contactModelNames() + ", got '" + name + "'");
      compare.models.push_back(model->name());
    }
  } else {
    for (const ContactModel* model : contactModels()) compare.models.push_back(model->name());
  }
  // Every measure but volume-linf: its hull of the Minkowski sum takes seconds and exceeds its point limit
  // (no value) on most planned grasps (src/sim/README.md §Measures against physics); --measures can name it.
  compare.measures = sim::defaultPhysicsMeasures();
  if (const auto m = args.value("--measures")) compare.measures = physicsCommaList(*m);
  if (compare.measures.empty()) throw UsageError("--measures: no measure named");
  for (const std::string& name : compare.measures)
    if (!findQualityMeasure(name)) throw UsageError("--measures: unknown measure '" + name + "'");

  installInterruptHandler();
  TerminalProgress progress(progressWanted(args));
  Warnings warnings;
  std::vector<WorldRun> worlds;
  std::vector<sim::PhysicsWorld> physicsWorlds;
  for (const std::string& file : options.files) {
    WorldRun run{loadInputFile(file, loadOptionsFrom(args))};
    if (run.input.world.robots.empty()) throw Error("no hand to plan with", run.input.path);
    if (run.input.world.graspables.empty()) throw Error("no graspable body to plan for", run.input.path);
    warnings.addLoadWarnings(run.input.world);
    const AnalysisRequest analysis = analysisRequest(args, run.input, /*closeByDefault=*/false);
    run.robot = analysis.robot;
    run.graspable = analysis.graspable.value_or(0);
    worlds.push_back(std::move(run));
    physicsWorlds.push_back({nullptr, worlds.back().input.path, analysis});
  }
  for (std::size_t w = 0; w < worlds.size(); ++w) physicsWorlds[w].world = &worlds[w].input.world;

  sim::PhysicsComparisonRequest request;
  request.seeds = options.seeds;
  request.iterations = options.iterations;
  request.keep = options.keep;
  request.threads = options.threads;
  request.successScore = options.successScore;
  request.trial = options.trial;
  request.compare = compare;
  sim::PhysicsComparison comparison;
  try {
    comparison = sim::comparePhysics(physicsWorlds, request, progress);
  } catch (const Cancelled&) {
    progress.clear();
    std::cerr << "softgrasp-cli: compare: interrupted while planning; no table\n";
    return kExitInterrupted;
  }
  progress.clear();
  if (!comparison.complete)
    std::cerr << "softgrasp-cli: compare: interrupted: the table covers the " << comparison.tried() << " of "
              << comparison.samples.size() << " grasps tried\n";
  writeTable(args, options, worlds, request, comparison, warnings);
  return comparison.complete ? kExitOk : kExitInterrupted;
}

}  // namespace sg::cli
