// softgrasp-cli plan WORLD [--energy E] [--space S] [--params P] [--iterations N | --steps N] [--time-limit S] [--seed K]
//                          [--threads T] [--chains C] [--no-final-stage] [--refine-steps N] [--json] [--csv]
//                          [--out grasps.json] [analysis options]
//                          [--validate [--directions all|x+,z-,...] [--duration S] [--timestep S]]
// softgrasp-cli evaluate WORLD --grasps grasps.json [--from-pre-grasp] [--json] [--out FILE] [analysis options]
// The grasp planner (src/grasp/planner/PLANNER.md): simulated annealing over the hand's pose and posture,
// the kept grasps closed with auto-grasp and measured, printed best first and optionally saved as a grasp
// list (--validate: with each grasp's physics trial, src/sim/README.md); `evaluate` re-measures a saved list under other contact models, measures or settings.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

#include "AnalysisOptions.h"
#include "DbSupport.h"
#include "CommandRegistry.h"
#include "core/NumberFormat.h"
#include "ExitCodes.h"
#include "InputOptions.h"
#include "Interrupt.h"
#include "TerminalProgress.h"
#include "TextPrinter.h"
#include "TrialOptions.h"
#include "TrialStore.h"
#include "Warnings.h"
#include "io/AtomicFile.h"
#include "sim/TrialJson.h"
#include "store/GraspStore.h"
#include "grasp/QualityMeasure.h"
#include "grasp/planner/GraspCapture.h"
#include "grasp/planner/GraspList.h"
#include "JsonWriter.h"
#include "core/Json.h"

namespace sg::cli {

namespace {

using namespace sg::planner;

long integerOption(const ParsedArgs& args, const std::string& option, long fallback, long minimum) {
  const auto text = args.value(option);
  if (!text) return fallback;
  const std::vector<double> v = parseNumberList(option, *text);
  if (v.size() != 1 || v[0] < static_cast<double>(minimum) || v[0] != static_cast<double>(static_cast<long>(v[0])))
    throw UsageError(option + ": expected an integer ≥ " + std::to_string(minimum) + ", got '" + *text + "'");
  return static_cast<long>(v[0]);
}

std::vector<std::string> reportMeasures(const ParsedArgs& args, const AnalysisRequest& request) {
  if (args.has("--measures")) return request.measures;
  return {"epsilon-l1", "volume-l1"};
}

std::string measureText(const PlannedGrasp& g, const char* name) {
  const MeasureValue* m = g.measure(name);
  return m && m->ok ? TextPrinter::number(m->value) : "-";
}

// `trials` (plan --validate): a last column with each grasp's trial score ("-": not tried, Ctrl+C).
void printGrasps(std::ostream& out, const std::vector<PlannedGrasp>& grasps, const std::vector<std::string>& measures,
                 const std::vector<sim::TrialResult>* trials = nullptr) {
  char buf[64];
  std::string header = "rank    energy";
  for (const std::string& m : measures) {
    std::snprintf(buf, sizeof buf, "  %14s", m.c_str());
    header += buf;
  }
  out << header << "  force-closure  contacts" << (trials ? "  trial-score" : "") << "\n";
  for (std::size_t i = 0; i < grasps.size(); ++i) {
    const PlannedGrasp& g = grasps[i];
    std::snprintf(buf, sizeof buf, "%4zu  %8s", i + 1, TextPrinter::number(g.energy).c_str());
    std::string line = buf;
    for (const std::string& m : measures) {
      std::snprintf(buf, sizeof buf, "  %14s", measureText(g, m.c_str()).c_str());
      line += buf;
    }
    std::snprintf(buf, sizeof buf, "  %13s  %8zu", g.forceClosure ? "yes" : "no", g.contacts.size());
    line += buf;
    if (trials) {
      std::snprintf(buf, sizeof buf, "  %11s",
                    i < trials->size() ? TextPrinter::number((*trials)[i].score()).c_str() : "-");
      line += buf;
    }
    out << line << "\n";
  }
}

// --csv: the same table, one line per grasp, numbers in shortest round-trip form (empty: not computed).
// With trials (plan --validate) the trial columns of TrialOptions.h follow.
struct CsvTrials {
  const sim::TrialSettings* settings = nullptr;
  const std::vector<sim::TrialResult>* results = nullptr;
};

void printGraspsCsv(std::ostream& out, const std::vector<PlannedGrasp>& grasps,
                    const std::vector<std::string>& measures, CsvTrials trials = {}) {
  out << "rank,energy";
  for (const std::string& m : measures) out << "," << m;
  out << ",force_closure,contacts";
  if (trials.settings) out << "," << trialCsvHeader(*trials.settings);
  out << "\n";
  for (std::size_t i = 0; i < grasps.size(); ++i) {
    const PlannedGrasp& g = grasps[i];
    out << (i + 1) << "," << formatDouble(g.energy);
    for (const std::string& m : measures) {
      const MeasureValue* v = g.measure(m);
      out << "," << (v && v->ok ? formatDouble(v->value) : std::string());
    }
    out << "," << (g.forceClosure ? 1 : 0) << "," << g.contacts.size();
    if (trials.settings)
      out << "," << trialCsvFields(*trials.settings, i < trials.results->size() ? &(*trials.results)[i] : nullptr);
    out << "\n";
  }
}

// The step counter's end (GraspIt!'s --steps), or the parameter set's start + --iterations N.
long maxStepsOption(const ParsedArgs& args, const AnnealingParams& params) {
  if (args.has("--steps") && args.has("--iterations"))
    throw UsageError("--steps and --iterations contradict each other (--steps N = --iterations N - " +
                     std::to_string(params.k0) + " with --params " + params.name + ")");
  if (args.has("--iterations")) return params.k0 + integerOption(args, "--iterations", 1, 1);
  const long steps = integerOption(args, "--steps", 70000, 0);
  try {
    requireStepsBeyondStart(steps, params);
  } catch (const Error& e) {
    throw UsageError("--steps: " + e.message() + " (or give --iterations N)");
  }
  return steps;
}

// Worker threads: --threads T, default 0 = every core, the application's default (PlannerSettingsPanel); the
// list does not depend on it.
int threadsOption(const ParsedArgs& args) {
  const long threads = integerOption(args, "--threads", 0, 0);
  if (threads == 0) return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(threads);
}

const char* kPlanMeasuresDefault = "epsilon-l1,volume-l1";

// --save-world FILE [--rank K] [--pre-grasp]: grasp K (1-based, default 1) of the list as a GraspIt! world.
void saveWorldIfAsked(const ParsedArgs& args, const World& world, const GraspList& list) {
  const auto path = args.value("--save-world");
  if (!path) return;
  const long rank = integerOption(args, "--rank", 1, 1);
  if (rank > static_cast<long>(list.grasps.size()))
    throw Error("--rank " + std::to_string(rank) + ": the list has " + std::to_string(list.grasps.size()) + " grasps",
                *path);
  const PlannedGrasp& g = list.grasps[static_cast<std::size_t>(rank - 1)];
  saveGraspAsWorld(world, list.robotIndex, args.has("--pre-grasp") ? g.preGrasp : g.grasp, *path);
}

// After Ctrl+C the grasps found so far are printed and saved as usual; stderr says so and the exit code is
// kExitInterrupted (ui/cli/README.md §Progress and Ctrl+C). Ctrl+C during the trials (--validate) keeps the
// grasps and the trials done.
int planExit(bool stoppedEarly, long iterations, std::size_t grasps, const ParsedArgs& args,
             const std::string& trialsNote = {}) {
  if (!stoppedEarly) return kExitOk;
  std::cout << std::flush;
  std::cerr << "softgrasp-cli: plan: interrupted after " << iterations << " iterations; the " << grasps
            << " best grasp(s) found so far are " << (args.has("--out") ? "saved and " : "") << "printed"
            << trialsNote << "\n";
  return kExitInterrupted;
}

// plan --validate: the trial of every kept grasp (TrialOptions.h), stored with the list.
struct PlanTrials {
  std::optional<sim::TrialSettings> settings;  // set with --validate
  ListTrials run;
  std::vector<Json> summaries;

  bool wanted() const { return settings.has_value(); }
  Json settingsJson() const { return sim::trialSettingsJson(*settings); }
  // The grasp-list document with each tried grasp's "trial" and the trial settings.
  Json document(const Json& listDoc) const {
    return wanted() ? withTrials(listDoc, *settings, run.results) : listDoc;
  }
  std::string note(std::size_t grasps) const {
    if (!wanted() || run.results.size() == grasps) return {};
    return "; " + std::to_string(run.results.size()) + " of them have their trial";
  }
};

std::optional<sim::TrialSettings> planTrialSettings(const ParsedArgs& args) {
  if (args.has("--validate")) return trialSettingsFrom(args);
  if (args.has("--directions") || args.has("--duration") || args.has("--timestep"))
    throw UsageError("--directions, --duration and --timestep set the physics trial of --validate, which is not "
                     "given");
  return std::nullopt;
}

// --out and --db of plan: the list, with its trials when there are.
void savePlan(const ParsedArgs& args, const World& world, const GraspList& list, const std::string& contactModel,
              const PlanTrials& trials) {
  if (const auto out = args.value("--out")) {
    if (trials.wanted()) writeFileAtomically(*out, trials.document(graspListToJsonValue(list)).dump());
    else saveGraspList(list, *out);
  }
  if (const auto db = args.value("--db")) {
    const std::string key = saveGraspListToDb(*db, "plan", world, list, contactModel, !args.has("--db-no-contacts"));
    if (trials.wanted()) {
      auto store = store::GraspStore::open(*db, store::OpenMode::ReadWrite);
      (void)storeRowTrials(*store, key, 0, trials.settingsJson(), trials.summaries);
    }
  }
}

int runPlan(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv contradict each other");
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  AnalysisRequest analysis = analysisRequest(args, input, /*closeByDefault=*/false);
  const World& world = input.world;
  if (world.robots.empty()) throw UsageError(input.path + " has no robot to plan with");
  if (world.graspables.empty()) throw UsageError(input.path + " has no graspable body to plan for");

  PlanRequest request;
  request.robot = analysis.robot;
  request.graspable = analysis.graspable.value_or(0);
  try {
    request.planner = plannerFromString(args.value("--planner").value_or("simann"));
    request.energy.kind = energyFromString(args.value("--energy").value_or("contacts"));
    request.space = positionSpaceFromString(args.value("--space").value_or("axis-angle"));
    request.params = AnnealingParams::byName(args.value("--params").value_or("default"));
  } catch (const Error& e) {
    throw UsageError(e.message());
  }
  request.energy.analysis = analysis;
  request.energy.presetContacts = !args.has("--live-contacts");
  if (const auto q = args.value("--quality-measure")) {
    if (!findQualityMeasure(*q)) throw UsageError("--quality-measure: unknown measure '" + *q + "'");
    request.energy.measure = *q;
  }
  request.maxSteps = maxStepsOption(args, request.params);
  request.loops = static_cast<int>(integerOption(args, "--loops", 3, 1));
  if (const auto e = args.value("--child-energy")) {
    try {
      request.guided.childEnergy = energyFromString(*e);
    } catch (const Error& err) {
      throw UsageError("--child-energy: " + err.message());
    }
  }
  request.guided.childSteps = integerOption(args, "--child-steps", request.guided.childSteps, 1);
  request.chains = static_cast<int>(integerOption(args, "--chains", 4, 1));
  request.threads = threadsOption(args);
  request.seed = static_cast<std::uint64_t>(integerOption(args, "--seed", 1, 0));
  if (const auto t = args.value("--time-limit")) {
    const std::vector<double> v = parseNumberList("--time-limit", *t);
    if (v.size() != 1 || !(v[0] > 0)) throw UsageError("--time-limit: expected a positive number of seconds");
    request.timeLimit_s = v[0];
  }
  request.finalStage.enabled = !args.has("--no-final-stage");
  request.finalStage.refineSteps =
      static_cast<int>(integerOption(args, "--refine-steps", request.finalStage.refineSteps, 0));
  try {
    requireValidFinalStage(request.finalStage);
  } catch (const Error& e) {
    throw UsageError("--refine-steps: " + e.message());
  }
  request.reportMeasures = reportMeasures(args, analysis);
  PlanTrials trials;
  trials.settings = planTrialSettings(args);
  Warnings warnings;
  warnings.addLoadWarnings(world);

  installInterruptHandler();
  TerminalProgress progress(progressWanted(args));
  // With --validate the search takes the first half of the progress bar, the trials the second.
  SubProgress planning(progress, 0.0, trials.wanted() ? 0.5 : 1.0);
  const PlanResult result = planGrasps(world, request, planning);
  // Ctrl+C stops the annealing; the states kept so far are closed and measured as always (GraspPlanner.h).
  bool stoppedEarly = result.annealing.stopReason == StopReason::Cancelled;
  const GraspList list = makeGraspList(world, input.path, request, result);
  if (trials.wanted() && !stoppedEarly) {
    SubProgress trialProgress(progress, 0.5, 1.0);
    trials.run = runListTrials(world, list, *trials.settings, trialProgress);
    trials.summaries = trialSummaries(trials.run.results);
    stoppedEarly = trials.run.stopped;
  }
  progress.clear();
  savePlan(args, world, list, analysis.contactModels.front(), trials);
  saveWorldIfAsked(args, world, list);
  const std::string note = trials.note(list.grasps.size());

  const AnnealingResult& a = result.annealing;
  const double rate = a.elapsed_s > 0 ? static_cast<double>(a.iterations) / a.elapsed_s : 0;
  if (args.has("--json")) {
    Json doc = graspListToJsonValue(list);
    Json run = Json::object();
    run.set("iterations", a.iterations);
    run.set("evaluations", a.evaluations);
    run.set("illegal", a.illegal);
    run.set("elapsed_s", a.elapsed_s);
    run.set("stepsPerSecond", rate);
    run.set("chains", request.chains);
    run.set("threads", request.threads);
    run.set("contactModel", analysis.contactModels.front());
    if (request.energy.kind == EnergyKind::AutoGraspQuality) run.set("qualityMeasure", request.energy.measure);
    if (const FinalStageOutcome& f = result.finalStage; f.ran) {
      Json stage = Json::object();
      stage.set("candidates", static_cast<long>(result.annealing.best.size()));
      stage.set("scored", f.evaluations);
      stage.set("illegal", f.illegal);
      stage.set("crowded", f.crowded);
      stage.set("improved", f.improved);
      stage.set("elapsed_s", f.elapsed_s);
      run.set("finalStage", stage);
    }
    doc.set("run", run);
    Json w = Json::array();
    for (const std::string& line : warnings.all()) w.push(line);
    doc.set("warnings", w);
    doc = trials.document(doc);
    writeJson(std::cout, planner::kGraspListFormat, doc);  // a grasp list `evaluate --grasps` reads
    return planExit(stoppedEarly, a.iterations, list.grasps.size(), args, note);
  }
  if (args.has("--csv")) {
    printGraspsCsv(std::cout, result.grasps, request.reportMeasures,
                   {trials.settings ? &*trials.settings : nullptr, &trials.run.results});
    return planExit(stoppedEarly, a.iterations, list.grasps.size(), args, note);
  }
  TextPrinter out(std::cout);
  out.line("plan " + input.path);
  {
    TextPrinter::Indent indent(out);
    out.field("robot", list.robot + ", object " + list.object);
    out.field("energy", list.energy + (request.energy.kind == EnergyKind::AutoGraspQuality
                                           ? " (" + request.energy.measure + ", " + analysis.contactModels.front() + ")"
                                           : std::string()));
    out.field("space", list.space + ", params " + list.params + ", seed " + list.seed);
    out.field("stopped", std::string(toString(a.stopReason)) + " after " + std::to_string(a.iterations) +
                             " iterations in " + TextPrinter::number(a.elapsed_s) + " s (" +
                             TextPrinter::number(std::round(rate)) + " steps/s, " + std::to_string(request.threads) +
                             " thread(s))");
    if (const FinalStageOutcome& f = result.finalStage; f.ran)
      out.field("final stage", std::to_string(result.annealing.best.size()) + " candidates closed and scored, best " +
                                   std::to_string(result.grasps.size()) + " kept, " + std::to_string(f.improved) +
                                   " refined in " + TextPrinter::number(f.elapsed_s) + " s");
    out.field("grasps", std::to_string(result.grasps.size()) + ", " +
                            std::to_string(std::count_if(result.grasps.begin(), result.grasps.end(),
                                                         [](const PlannedGrasp& g) { return g.forceClosure; })) +
                            " force closure");
    if (const auto path = args.value("--out")) out.field("saved", *path);
  }
  printGrasps(std::cout, result.grasps, request.reportMeasures, trials.wanted() ? &trials.run.results : nullptr);
  return planExit(stoppedEarly, a.iterations, list.grasps.size(), args, note);
}

int runEvaluate(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv contradict each other");
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  AnalysisRequest analysis = analysisRequest(args, input, /*closeByDefault=*/false);
  const World& world = input.world;
  const std::string path = *args.value("--grasps");
  GraspList list = loadGraspList(path);
  const int robot = args.has("--robot") ? analysis.robot : list.robotIndex;
  const int graspable = analysis.graspable.value_or(list.graspableIndex);
  list.robotIndex = robot;
  list.graspableIndex = graspable;
  try {
    validateGraspList(list, world);
  } catch (const Error& e) {
    throw Error(e.message() + " (" + input.path + ")", path);
  }
  const bool reclose = args.has("--from-pre-grasp");
  const std::vector<std::string> measures = reportMeasures(args, analysis);
  Warnings warnings;
  warnings.addLoadWarnings(world);
  installInterruptHandler();
  TerminalProgress progress(progressWanted(args));
  AutoGraspSettings autoGrasp;
  for (std::size_t i = 0; i < list.grasps.size(); ++i) {
    throwIfCancelled(progress);  // Ctrl+C: a half re-measured list is not kept
    try {
      measureGrasp(world, robot, graspable, list.grasps[i], analysis, autoGrasp, measures, reclose, progress);
    } catch (const Cancelled&) {
      throw;
    } catch (const Error& e) {
      throw Error("grasps[" + std::to_string(i) + "]: " + e.message(), path);
    }
    progress.report(static_cast<double>(i + 1) / static_cast<double>(list.grasps.size()), "evaluating grasps");
  }
  progress.clear();
  if (const auto out = args.value("--out")) saveGraspList(list, *out);
  if (const auto db = args.value("--db"))
    saveGraspListToDb(*db, "evaluate", world, list, analysis.contactModels.front(),
                      !args.has("--db-no-contacts"));
  saveWorldIfAsked(args, world, list);
  if (args.has("--json")) {
    Json doc = graspListToJsonValue(list);
    Json w = Json::array();
    for (const std::string& line : warnings.all()) w.push(line);
    doc.set("warnings", w);
    writeJson(std::cout, planner::kGraspListFormat, doc);  // a grasp list `evaluate --grasps` reads
    return kExitOk;
  }
  if (args.has("--csv")) {
    printGraspsCsv(std::cout, list.grasps, measures);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("evaluate " + path + " in " + input.path);
  {
    TextPrinter::Indent indent(out);
    out.field("grasps", std::to_string(list.grasps.size()) + (reclose ? " (closed again from the pre-grasps)" : ""));
    out.field("contact model", analysis.contactModels.front());
    if (const auto o = args.value("--out")) out.field("saved", *o);
  }
  printGrasps(std::cout, list.grasps, measures);
  return kExitOk;
}

std::vector<OptionSpec> commonPlanOptions() {
  std::vector<OptionSpec> o = {analysis_options::robot(), analysis_options::graspable(),
                               analysis_options::contactModel(),
                               {"--measures", "Q[,Q...]",
                                std::string("measures reported for each grasp (default ") + kPlanMeasuresDefault + ")"},
                               hand_options::threshold()};
  for (const OptionSpec& q : analysis_options::qualitySettings()) o.push_back(q);
  o.push_back(progress_options::noProgress());
  o.push_back(progress_options::progress());
  o.push_back(common_options::json());
  o.push_back(common_options::csv("the grasp table as CSV on stdout: rank, energy, the measures, force_closure, contacts"));
  o.push_back({"--out", "FILE", "save the grasp list (JSON, written atomically)"});
  o.push_back(db_options::db("store the grasp list as one run in this grasp database"));
  o.push_back(db_options::noContacts());
  o.push_back({"--save-world", "FILE", "save grasp --rank (default the best) as a GraspIt! world (atomically)"});
  o.push_back({"--rank", "K", "the grasp --save-world saves (1 = the first of the list)"});
  o.push_back({"--pre-grasp", "", "--save-world saves the pre-grasp instead of the final grasp"});
  o.push_back(common_options::modelRoot());
  o.push_back(common_options::packagePath());
  return o;
}

CommandSyntax planSyntax() {
  CommandSyntax s{{{"WORLD", "world XML with a hand and a graspable body"}},
                  {{"--planner", "T", "simann (default), loop (repeated runs with an avoid list) or guided (a "
                                      "guided-potential-quality search spawning child searches on worker threads)"},
                   {"--loops", "N", "loop planner: annealing runs (default 3)"},
                   {"--child-energy", "E", "guided planner: the children's energy (default autograsp-quality)"},
                   {"--child-steps", "N", "guided planner: iterations per child search (default 200)"},
                   {"--energy", "E", "contacts (default), potential-quality, guided-potential-quality, autograsp-quality, "
                                     "strict-autograsp"},
                   {"--space", "S", "hand pose space: axis-angle (default), approach, ellipsoid, complete"},
                   {"--params", "P", "annealing parameters: default, loop, modified, strict, online"},
                   {"--iterations", "N", "annealing iterations over all chains (rounded up to a multiple of "
                                         "--chains; default 40000 with --params default): --steps start + N"},
                   {"--steps", "N", "GraspIt!'s step counter's end, above the parameter set's start (default 70000; "
                                    "default params start at 30000, so N − 30000 iterations)"},
                   {"--time-limit", "S", "stop after S seconds (wall time)"},
                   {"--seed", "K", "random seed (default 1): the same seed and settings give the same list"},
                   {"--threads", "T", "worker threads (default 0 = all cores, as the application); the list "
                                      "does not depend on it"},
                   {"--chains", "C", "independent annealing chains (default 4)"},
                   {"--no-final-stage", "", "list the search's own kept states (no closing, scoring and refining stage)"},
                   {"--refine-steps", "N", "final stage: local moves per refined grasp (default 8; 0 = score only)"},
                   {"--quality-measure", "Q", "the measure autograsp-quality ranks force-closure grasps by "
                                              "(default epsilon-l1)"},
                   {"--live-contacts", "", "contacts energy: one contact per link even if the robot has virtual contacts"},
                   trial_options::validate("run the physics trial (validate) on every kept grasp: its score and "
                                           "per direction held, displacement and rotation join the grasp's row "
                                           "(--json, --csv, --out, --db)"),
                   trial_options::directions(), trial_options::duration(), trial_options::timestep()}};
  for (const OptionSpec& o : commonPlanOptions()) s.options.push_back(o);
  return s;
}

CommandSyntax evaluateSyntax() {
  CommandSyntax s{{{"WORLD", "the world the grasps belong to"}},
                  {{"--grasps", "FILE", "grasp list (from plan --out)", false, true},
                   {"--from-pre-grasp", "", "close each pre-grasp with auto-grasp again instead of using its "
                                            "final DOFs", false, false, false, {"--from-pregrasp"}}}};
  for (const OptionSpec& o : commonPlanOptions()) s.options.push_back(o);
  return s;
}

const RegisterCommand registerPlan{Command{
    "plan",
    "plan grasps with simulated annealing (GraspIt!'s eigengrasp planner)",
    "Searches the hand's pose (in the chosen space, relative to the object) and posture (eigengrasp amplitudes,\n"
    "or DOF values without eigengrasps) with GraspIt!'s simulated annealing, keeps the 20 best states at least\n"
    "0.2 apart, closes each with auto-grasp and prints them best first with their measures and force closure.\n"
    "Energies: contacts (distance and alignment of the hand's virtual contacts, or one point per link, to the\n"
    "object), potential-quality and guided-potential-quality (the contacts' force cones scaled by distance),\n"
    "autograsp-quality (close the hand; force closure ranked by --quality-measure) and strict-autograsp (approach,\n"
    "close, 30·volume + 100·ε). --save-world writes a grasp as a GraspIt! world. Progress goes to stderr when it\n"
    "is a terminal. Ctrl+C stops the search: the grasps found so far are printed and saved (--out), exit code\n"
    "130; a second Ctrl+C kills. --validate runs the physics trial of validate on every kept grasp and adds\n"
    "its score and per direction held, displacement and rotation to the grasp (JSON \"trial\", CSV columns, the\n"
    "--db trials table). See src/grasp/planner/PLANNER.md.",
    planSyntax(), runPlan}};

const RegisterCommand registerEvaluate{Command{
    "evaluate",
    "re-measure a saved grasp list (other contact models, measures or settings)",
    "Loads the world and a grasp list written by `plan --out`, puts the hand in each grasp's final configuration\n"
    "(or closes its pre-grasp again with --from-pre-grasp) and measures it with the given contact model and\n"
    "measures. --out saves the re-measured list.",
    evaluateSyntax(), runEvaluate}};

}  // namespace

}  // namespace sg::cli
