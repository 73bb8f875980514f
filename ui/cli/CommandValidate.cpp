// softgrasp-cli validate WORLD [--approach [MM]] [--autograsp | --no-close] [--grasps FILE] [--robot N]
//                             [--graspable N] [--directions all|x+,z-,...] [--duration S]
//                             [--timestep S] [--db URL] [--json]
//                             [--no-progress | --progress] [--model-root DIR]... [--package-path DIR]...
// The physics trial (src/sim/README.md §Trial protocol) of the world's grasp (after --approach/--autograsp as
// `quality` moves the hand) or of every grasp of a grasp list: per grasp and direction whether the object stayed
// in the hand, its largest displacement and rotation, and the score (directions held / directions tried).
// --grasps also takes a db query document; with --db each of its grasps' trials is stored in that database
// (src/store/README.md §Trials).
#include <iostream>
#include <memory>
#include <optional>

#include "AnalysisOptions.h"
#include "CommandRegistry.h"
#include "DbSupport.h"
#include "ExitCodes.h"
#include "HandOptions.h"
#include "InputOptions.h"
#include "Interrupt.h"
#include "JsonWriter.h"
#include "TerminalProgress.h"
#include "TextPrinter.h"
#include "TrialOptions.h"
#include "TrialStore.h"
#include "Warnings.h"
#include "core/Error.h"
#include "grasp/Analysis.h"
#include "grasp/planner/GraspCapture.h"
#include "grasp/planner/GraspList.h"
#include "sim/PhysicsTrial.h"
#include "sim/TrialJson.h"

namespace sg::cli {

namespace {

struct GraspToTry {
  std::string source;  // "world" or "grasps[i]"
  WorldState state;
  const StoredGrasp* stored = nullptr;  // the database grasp (--grasps from db query)
};

// The grasps of a db query document, each placed on the world's graspable (X_WP = X_WG X_OP).
std::vector<GraspToTry> placeStoredGrasps(const std::vector<StoredGrasp>& stored, const World& world, int robot,
                                          int graspable, const std::string& path) {
  if (robot < 0 || static_cast<std::size_t>(robot) >= world.robots.size())
    throw UsageError("--robot: no robot " + std::to_string(robot) + " in the world");
  if (graspable < 0 || static_cast<std::size_t>(graspable) >= world.graspables.size())
    throw UsageError("--graspable: no graspable " + std::to_string(graspable) + " in the world");
  checkGraspsMatchWorld(stored, world, robot, graspable, path);
  const Robot& hand = world.robots[static_cast<std::size_t>(robot)];
  const Transform& X_WG = world.state.X_WG[static_cast<std::size_t>(graspable)];
  std::vector<GraspToTry> out;
  for (std::size_t i = 0; i < stored.size(); ++i) {
    WorldState s = world.state;
    try {  // the joints in break-away too (PLANNER.md §Grasp list file)
      planner::applyHandConfiguration(hand, s.robots[static_cast<std::size_t>(robot)],
                                      {X_WG * stored[i].X_OP, stored[i].dofs, stored[i].breakAway});
    } catch (const Error& e) {  // "grasp.dofs: ..." named as the document's grasp
      throw Error("grasps[" + std::to_string(i) + "]." + e.message(), path);
    }
    updateConnections(world, s);
    out.push_back({"grasp " + std::to_string(stored[i].id), s, &stored[i]});
  }
  return out;
}

void printTrial(TextPrinter& out, const std::string& title, const sim::TrialResult& r) {
  out.line(title + ": held " + std::to_string(r.heldCount()) + " of " + std::to_string(r.directions.size()) +
           " directions, score " + TextPrinter::number(r.score()));
  TextPrinter::Indent indent(out);
  for (const sim::DirectionTrial& d : r.directions)
    out.field(d.direction.name(), std::string(d.held ? "held" : "lost") + ", displacement " +
                                      TextPrinter::number(d.displacement_mm) + " mm, rotation " +
                                      TextPrinter::number(d.rotation_deg) + " deg" + (d.diverged ? " (diverged)" : ""));
}

int runValidate(const ParsedArgs& args) {
  const sim::TrialSettings settings = trialSettingsFrom(args);
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  World& world = input.world;
  if (world.graspables.empty()) throw Error("no graspable body to run a trial on", input.path);
  if (world.robots.empty()) throw Error("no hand to run a trial with", input.path);
  const bool fromList = args.has("--grasps");
  if (fromList && (args.has("--approach") || args.has("--autograsp")))
    throw UsageError("--grasps takes each grasp as the list saved it: no --approach or --autograsp");
  AnalysisRequest request = analysisRequest(args, input, /*closeByDefault=*/false);
  request.contactModels.resize(std::min<std::size_t>(request.contactModels.size(), 1));
  request.measures.clear();
  Warnings warnings;
  warnings.addLoadWarnings(world);
  installInterruptHandler();
  TerminalProgress progress(progressWanted(args));

  std::vector<GraspToTry> grasps;
  int robot = request.robot;
  int graspable = 0;
  std::optional<std::vector<StoredGrasp>> stored;
  if (fromList) stored = loadDbQueryGrasps(*args.value("--grasps"));
  if (args.has("--db") && !stored)
    throw UsageError("--db stores each trial with its database grasp: --grasps takes a db query --json (or db "
                     "export --out FILE.json) document");
  std::unique_ptr<TrialWriter> writer;
  if (stored) {
    graspable = request.graspable.value_or(0);
    grasps = placeStoredGrasps(*stored, world, robot, graspable, *args.value("--grasps"));
    if (const auto url = args.value("--db")) writer = std::make_unique<TrialWriter>(*url, *stored, settings);
  } else if (fromList) {
    const std::string path = *args.value("--grasps");
    planner::GraspList list = planner::loadGraspList(path);
    if (args.has("--robot")) list.robotIndex = robot;
    if (request.graspable) list.graspableIndex = *request.graspable;
    try {
      planner::validateGraspList(list, world);
    } catch (const Error& e) {
      throw Error(e.message() + " (" + input.path + ")", path);
    }
    robot = list.robotIndex;
    graspable = list.graspableIndex;
    for (std::size_t i = 0; i < list.grasps.size(); ++i)
      grasps.push_back({"grasps[" + std::to_string(i) + "]", graspListState(world, list, i)});
  } else {
    SubProgress motion(progress, 0.0, 0.05);
    const AnalysisResult analysed = runAnalysis(world, request, motion);
    graspable = analysed.graspable >= 0 ? analysed.graspable : 0;
    grasps.push_back({"world", world.state});
  }

  std::vector<sim::TrialResult> results;
  bool stoppedEarly = false;
  for (std::size_t i = 0; i < grasps.size(); ++i) {
    const double begin = 0.05 + 0.95 * static_cast<double>(i) / static_cast<double>(grasps.size());
    SubProgress sub(progress, begin, begin + 0.95 / static_cast<double>(grasps.size()));
    try {
      results.push_back(sim::runTrial(world, grasps[i].state, {robot, graspable, settings}, sub));
      if (writer) writer->store(*grasps[i].stored, results.back());
    } catch (const Cancelled&) {
      stoppedEarly = true;
      break;
    } catch (const Error& e) {
      throw Error((fromList ? grasps[i].source + ": " : std::string()) + e.message(), input.path);
    }
  }
  progress.clear();
  if (writer) writer->finish(stoppedEarly ? "interrupted" : "complete");
  if (stoppedEarly)
    std::cerr << "softgrasp-cli: validate: interrupted; the " << results.size() << " of " << grasps.size()
              << " grasps tried so far are reported\n";

  if (args.has("--json")) {
    Json doc = Json::object();
    doc.set("file", input.path);
    doc.set("robot", robot);
    doc.set("graspable", world.bodyLabel({BodyHandle::Kind::Graspable, graspable, {}}));
    doc.set("settings", sim::trialSettingsJson(settings));
    Json list = Json::array();
    for (std::size_t i = 0; i < results.size(); ++i) {
      Json g = sim::trialSummaryJson(results[i]);
      g.set("source", grasps[i].source);
      list.push(g);
    }
    doc.set("grasps", list);
    doc.set("complete", !stoppedEarly);
    doc.set("warnings", [&] {
      Json w = Json::array();
      for (const std::string& each : warnings.all()) w.push(each);
      return w;
    }());
    writeJson(std::cout, sim::kValidationFormat, doc);
  } else {
    TextPrinter out(std::cout);
    out.line("physics trial of " + world.bodyLabel({BodyHandle::Kind::Graspable, graspable, {}}) + " in " +
             world.robots[static_cast<std::size_t>(robot)].name + " (settle " + TextPrinter::number(settings.settle_s) +
             " s, then each direction for " + TextPrinter::number(settings.duration_s) + " s)");
    TextPrinter::Indent indent(out);
    for (std::size_t i = 0; i < results.size(); ++i)
      printTrial(out, fromList ? "grasp " + std::to_string(i + 1) : "grasp", results[i]);
  }
  return stoppedEarly ? kExitInterrupted : kExitOk;
}

const RegisterCommand registerValidate{Command{
    "validate",
    "physics trial: does the grasp hold under its weight along +-x, +-y, +-z (MuJoCo)?",
    "Runs the physics trial of src/sim/README.md in MuJoCo: the hand's DOFs close with their effort (maxEffort)\n"
    "for a settle time, then the object's weight pulls it along each requested axis of its frame in turn\n"
    "(--directions, default all six), each for --duration seconds (default 1) from the same settled state. A\n"
    "direction holds when the object stays within 10 mm and 15 degrees of its settled pose relative to the\n"
    "palm. The grasp is the world's (after --approach and --autograsp, as quality moves the hand) or each grasp\n"
    "of a grasp list (--grasps, from plan --out, taken as saved). Prints per grasp and direction held or lost,\n"
    "the largest displacement and rotation, and the score (directions held / directions tried). Ctrl+C stops\n"
    "between grasps: the grasps tried so far are printed, exit code 130. --grasps also takes a db query --json\n"
    "(or db export) document: its grasps are placed on the world's object, whose files must be the ones the\n"
    "database names; --db URL then stores each trial (score, per direction held, displacement, rotation, the\n"
    "settings) against its grasp in that database (db query --min-trial-score, --rank-by trial-score).",
    [] {
      CommandSyntax syntax{{{"WORLD", "world XML"}},
                           {analysis_options::robot(), analysis_options::graspable(), hand_options::approach(),
                            hand_options::autograsp(false), hand_options::noClose(true), hand_options::threshold(),
                            {"--grasps", "FILE", "trial every grasp of this grasp list (from plan --out), as saved, "
                                                 "or of a db query --json / db export document"},
                            trial_options::directions(), trial_options::duration(), trial_options::timestep(),
                            db_options::db("store each grasp's trial in this grasp database, the one --grasps "
                                           "(a db query document) came from"),
                            common_options::json(), progress_options::noProgress(), progress_options::progress(),
                            common_options::modelRoot(), common_options::packagePath()}};
      return syntax;
    }(),
    runValidate}};

}  // namespace

}  // namespace sg::cli
