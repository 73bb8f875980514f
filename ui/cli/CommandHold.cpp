// softgrasp-cli hold WORLD [--robot N] [--graspable N] [--approach [MM]] [--autograsp | --no-close] [--threshold MM]
//                         [--contact-model M[,M...]] [--directions all|x+,z-,...] [--wrench FX,FY,FZ,TX,TY,TZ]
//                         [--json | --csv] [--model-root DIR]...
// GraspIt!'s grasp force optimisation (src/grasp/forces/FORCES.md): does the grasp hold the object's weight
// along each object-frame axis direction (or a given wrench) with forces inside the contacts' friction sets
// and every DOF within its maxEffort? Per direction: held, the busiest DOF's share of its effort, the joint
// torques and every contact's force.
#include <cmath>
#include <iostream>

#include "AnalysisOptions.h"
#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "InputOptions.h"
#include "Interrupt.h"
#include "JsonWriter.h"
#include "TerminalProgress.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "core/Error.h"
#include "core/NumberFormat.h"
#include "grasp/AnalysisJson.h"  // fingersOutcome, approachOutcome
#include "grasp/forces/HoldJson.h"

namespace sg::cli {

namespace {

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

// The loads: --wrench (object frame, N and N·mm, at the CoG) or the weight along --directions (default all).
std::vector<HoldLoad> loadsFrom(const ParsedArgs& args, const Body& object, const std::string& file) {
  if (args.has("--wrench") && args.has("--directions"))
    throw UsageError("--wrench and --directions contradict each other");
  if (const auto text = args.value("--wrench")) {
    const std::vector<double> v = parseNumberList("--wrench", *text);
    if (v.size() != 6) throw UsageError("--wrench: expected six numbers FX,FY,FZ,TX,TY,TZ, got '" + *text + "'");
    for (double x : v)
      if (!std::isfinite(x)) throw UsageError("--wrench: every number must be finite, got '" + *text + "'");
    HoldLoad l;
    l.label = "wrench";
    l.force_O_N = Vec3(v[0], v[1], v[2]);
    l.torque_O_Nmm = Vec3(v[3], v[4], v[5]);
    return {l};
  }
  const std::vector<std::string> names = splitList(args.value("--directions").value_or("all"));
  try {
    return weightLoads(object, names);
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.find("unknown direction") != std::string::npos) throw UsageError("--directions: " + what);
    throw Error(what, file);
  }
}

std::string percent(double share) {
  return std::isfinite(share) ? TextPrinter::number(std::round(share * 1000) / 10) + " %" : "-";
}

void printHold(TextPrinter& out, const World& world, const HoldResult& r) {
  out.line("contact model " + r.contactModel + ": " + (r.heldAll() ? "holds every load" : "does not hold every load"));
  TextPrinter::Indent indent(out);
  out.field("friction polytopes", std::to_string(r.pointEdges) + " edges per point contact (r = " +
                                      TextPrinter::number(r.pointInradius) + "), " + std::to_string(r.softPoints) +
                                      " points per soft contact (r = " + TextPrinter::number(r.softInradius) + ")");
  for (const HoldDof& d : r.dofs)
    out.field(d.robotName + " DOF " + std::to_string(d.dof) + " effort",
              TextPrinter::number(d.effort) + (d.prismatic ? " N" : " N·mm"));
  for (const HoldDirection& d : r.directions) {
    std::string line = d.load.label + ": ";
    if (!d.balanced) line += "not held (no forces in the friction sets balance it)";
    else
      line += std::string(d.held ? "held" : "not held") + ", busiest DOF at " + percent(d.effortRatio) +
              " of its effort (exact sets ≥ " + percent(d.effortRatioLower) + "), load factor " +
              TextPrinter::number(d.loadFactor);
    out.line(line);
    if (!d.balanced) continue;
    TextPrinter::Indent more(out);
    std::string torques;
    for (std::size_t k = 0; k < d.dofTorques.size(); ++k)
      torques += (k ? ", " : "") + TextPrinter::number(d.dofTorques[k]);
    out.field("DOF torques (N·mm or N)", torques);
    for (const HoldContactForce& f : d.forces)
      out.field(world.bodyLabel(f.pusher), TextPrinter::vec(f.force_W_N) + " N, normal " +
                                               TextPrinter::number(f.normal_N) + " N, torsion " +
                                               TextPrinter::number(f.torsion_Nmm) + " N·mm, friction use " +
                                               percent(f.frictionUse));
  }
}

// ~90 lines kept whole: one command's option checks, run and text/JSON/CSV output, read top to bottom.
int runHold(const ParsedArgs& args) {
  if (args.has("--json") && args.has("--csv")) throw UsageError("--json and --csv contradict each other");
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  AnalysisRequest request = analysisRequest(args, input, /*closeByDefault=*/false);
  request.measures.clear();  // the forces need the contacts and their friction sets, no quality measure
  if (input.world.graspables.empty()) throw Error("no graspable body to hold", input.path);
  World& world = input.world;
  const int graspableForLoads = request.graspable.value_or(0);
  const std::vector<HoldLoad> loadsCheck =
      loadsFrom(args, world.graspables[static_cast<std::size_t>(graspableForLoads)], input.path);
  Warnings warnings;  // after the last usage check: a failing run prints only its error
  warnings.addLoadWarnings(world);
  installInterruptHandler();  // Ctrl+C: Cancelled, nothing printed (main.cpp)
  TerminalProgress progress(progressWanted(args));
  const AnalysisResult result = runAnalysis(world, request, progress);
  progress.clear();
  const Body& object = world.graspables[static_cast<std::size_t>(result.graspable)];
  const std::vector<HoldLoad> loads = result.graspable == graspableForLoads ? loadsCheck
                                                                             : loadsFrom(args, object, input.path);
  std::vector<HoldResult> holds;
  for (std::size_t m = 0; m < result.evaluations.size(); ++m) {
    if (result.evaluations[m].contacts.empty())
      throw Error("the grasp of " + world.bodyLabel({BodyHandle::Kind::Graspable, result.graspable, {}}) +
                      " has no contacts, so nothing holds it (try --approach --autograsp)",
                  input.path);
    holds.push_back(analyzeHold(world, world.state, result.evaluations[m], object, loads));
  }
  const bool hasRobot = request.robot < static_cast<int>(world.robots.size());

  if (args.has("--csv")) {
    std::cout << "contact_model,direction,balanced,held,effort_ratio,effort_ratio_lower_bound,margin,load_factor,"
                 "residual_force_N,residual_torque_Nmm\n";
    for (const HoldResult& h : holds)
      for (const HoldDirection& d : h.directions)
        std::cout << h.contactModel << "," << d.load.label << "," << (d.balanced ? "1" : "0") << ","
                  << (d.held ? "1" : "0") << "," << formatDouble(d.effortRatio) << ","
                  << formatDouble(d.effortRatioLower) << "," << formatDouble(d.margin) << ","
                  << formatDouble(d.loadFactor) << "," << formatDouble(d.residualForce_N) << ","
                  << formatDouble(d.residualTorque_Nmm) << "\n";
    return kExitOk;
  }
  if (args.has("--json")) {
    Json models = Json::array();
    for (const HoldResult& h : holds) models.push(holdJson(world, h));
    Json doc = jsonObject({{"file", Json(input.path)},
                           {"object", Json(object.name)},
                           {"mass_g", Json(holds.front().mass_g)},
                           {"weight_N", Json(holds.front().weight_N)},
                           {"models", models},
                           {"warnings", warnings.json()}});
    if (hasRobot) {
      doc.set("grasp", Json(fingersOutcome(result.motion)));
      if (result.motion.approach.run) doc.set("approach", Json(approachOutcome(result.motion)));
    }
    writeJson(std::cout, formats::hold, doc);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("hold " + object.name + ": mass " + TextPrinter::number(holds.front().mass_g) + " g, weight " +
           TextPrinter::number(holds.front().weight_N) + " N");
  TextPrinter::Indent indent(out);
  if (result.motion.approach.run) out.field("approach", approachOutcome(result.motion));
  if (hasRobot) out.field("auto-grasp", fingersOutcome(result.motion));
  for (const HoldResult& h : holds) printHold(out, world, h);
  return kExitOk;
}

const RegisterCommand registerHold{Command{
    "hold",
    "grasp force optimisation: does the grasp hold the object's weight in each direction",
    "Loads a world, optionally moves the hand (--approach, --autograsp), and for the grasp of one graspable\n"
    "body under each contact model finds the contact forces inside each contact's friction set (the point\n"
    "contact's cone, the soft finger's elliptic limit surface, both as inscribed polytopes) that balance the\n"
    "object's weight (its mass in g times 9.81 m/s^2) pulling along each object-frame axis direction\n"
    "(--directions, default all six), or a wrench (--wrench: force in N and moment in N*mm, object frame, at\n"
    "the centre of mass), with the least joint effort: the smallest share t of its maxEffort any loaded DOF\n"
    "needs (torques = hand Jacobian transpose times the forces). A direction is held when t <= 1; the exact\n"
    "friction sets' t lies between the reported lower bound and t. Linear programmes solved by COIN-OR Clp.\n"
    "--csv writes one row per contact model and direction.",
    [] {
      CommandSyntax syntax{{{"WORLD", "world XML"}},
                           {analysis_options::robot(), analysis_options::graspable(), hand_options::approach(),
                            hand_options::autograsp(false), hand_options::noClose(true), hand_options::threshold(),
                            analysis_options::contactModel(),
                            {"--directions", "LIST", "gravity directions in the object frame: all (default) or some of x+,x-,y+,y-,z+,z-"},
                            {"--wrench", "FX,FY,FZ,TX,TY,TZ", "resist this wrench instead (N, N*mm; object frame, at the centre of mass)"}}};
      for (OptionSpec& o : analysis_options::qualitySettings()) syntax.options.push_back(o);
      syntax.options.push_back(common_options::json());
      syntax.options.push_back(common_options::csv("one CSV row per contact model and direction"));
      syntax.options.push_back(progress_options::noProgress());
      syntax.options.push_back(progress_options::progress());
      syntax.options.push_back(common_options::modelRoot());
      syntax.options.push_back(common_options::packagePath());
      return syntax;
    }(),
    runHold}};

}  // namespace

}  // namespace sg::cli
