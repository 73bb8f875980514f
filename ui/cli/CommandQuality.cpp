// softgrasp-cli quality WORLD [--robot N] [--graspable N] [--approach [MM]] [--autograsp | --no-close]
//                            [--threshold MM] [--contact-model M[,M...]] [--measures Q[,Q...]] [--force N]
//                            [--edges M] [--torque-length MM] [--json] [--model-root DIR]...
// One engine analysis (src/grasp/Analysis.h, the call the application makes): on the contacts as they are or
// after moving the hand (--approach, --autograsp), the grasp of one graspable body under each contact model —
// per contact the model's data (soft: neighbourhood, fits, relative radii, patch, torsional limit), friction
// edges and wrenches — and every registered quality measure (QualityReport.h).
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "Interrupt.h"
#include "TerminalProgress.h"
#include "AnalysisOptions.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "QualityReport.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "core/Error.h"
#include "grasp/AnalysisJson.h"

namespace sg::cli {

namespace {

int runQuality(const ParsedArgs& args) {
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  const AnalysisRequest request = analysisRequest(args, input, /*closeByDefault=*/false);
  if (input.world.graspables.empty())
    throw Error("no graspable body to evaluate", input.path);
  Warnings warnings;  // after the last usage check: a failing run prints only its error
  warnings.addLoadWarnings(input.world);
  World& world = input.world;
  installInterruptHandler();  // Ctrl+C: Cancelled, nothing printed (main.cpp)
  TerminalProgress progress(progressWanted(args));
  const AnalysisResult result = runAnalysis(world, request, progress);
  progress.clear();
  const std::string object = world.bodyLabel({BodyHandle::Kind::Graspable, result.graspable, {}});
  const bool hasRobot = request.robot < static_cast<int>(world.robots.size());

  if (args.has("--json")) {
    // The engine's one analysis document (what the application's File > Export Analysis writes and the Python
    // module's Analysis.to_json() returns), then how the hand moved.
    writeJson(std::cout, kAnalysisFormat,
              analysisRunJson(input.path, world, world.state, request, result, warnings.all()));
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("grasp of " + object);
  TextPrinter::Indent indent(out);
  if (result.motion.approach.run) out.field("approach", approachOutcome(result.motion));
  if (hasRobot) out.field("auto-grasp", fingersOutcome(result.motion));
  for (const GraspEvaluation& each : result.evaluations) printEvaluation(out, world, each, result.contacts.size(), request.quality);
  return kExitOk;
}

const RegisterCommand registerQuality{Command{
    "quality",
    "evaluate a grasp: soft contacts, wrench spaces, epsilon and volume",
    "Loads a world file and evaluates the grasp of one graspable body on the contacts as they are, or\n"
    "after moving the hand (--approach: along its approach direction until contact, at most MM, default\n"
    "30 mm; --autograsp: close the DOFs until contact) - the same analysis the application runs. Under each\n"
    "contact model (--contact-model, several side by side) it reports per contact the model's data (soft\n"
    "fingers: neighbourhood, paraboloid fits, relative radii, patch at the normal force, torsional friction),\n"
    "friction edges and wrenches (torques divided by the object's max radius), and every quality measure\n"
    "(epsilon of the L1 and L-infinity grasp wrench spaces and of the exact friction cones, computed from\n"
    "support functions with certified lower and upper bounds; volumes of the L1 and L-infinity hulls; the\n"
    "grasp matrix's smallest singular value). The L-infinity volume needs the hull of a Minkowski sum and is\n"
    "computed only while that sum stays within 2000 points; epsilon L-infinity is always computed.",
    [] {
      CommandSyntax syntax{{{"WORLD", "world XML"}},
                           {analysis_options::robot(), analysis_options::graspable(), hand_options::approach(),
                            hand_options::autograsp(false), hand_options::noClose(true), hand_options::threshold(),
                            analysis_options::contactModel(), analysis_options::measures()}};
      for (OptionSpec& o : analysis_options::qualitySettings()) syntax.options.push_back(o);
      syntax.options.push_back(common_options::json());
      syntax.options.push_back(progress_options::noProgress());
      syntax.options.push_back(progress_options::progress());
      syntax.options.push_back(common_options::modelRoot());
      syntax.options.push_back(common_options::packagePath());
      return syntax;
    }(),
    runQuality}};

}  // namespace

}  // namespace sg::cli
