// softgrasp-cli convert ROBOT --to graspit OUTDIR [--json] [--model-root DIR]... [--package-path DIR]...
// Writes a robot (a URDF hand, or any robot SoftGrasp reads) as a GraspIt! robot directory: robot XML with DH
// joints, one body XML and OFF mesh per body, the eigengrasp file (src/io/ModelIO.h exportGraspItRobot).
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "TextPrinter.h"
#include "Warnings.h"

namespace sg::cli {

namespace {

int runConvert(const ParsedArgs& args) {
  const std::string target = *args.value("--to");
  if (target != "graspit") throw UsageError("--to: '" + target + "' is not a known format (expected graspit)");
  World world;
  world.addRobot(loadRobotFile(args.positional(0), loadOptionsFrom(args)));
  const std::string written = exportGraspItRobot(world.robots.front(), args.positional(1));
  Warnings warnings;
  warnings.addLoadWarnings(world);
  if (!world.robots.front().virtualContacts.empty())
    warnings.add("the robot's " + std::to_string(world.robots.front().virtualContacts.size()) +
                 " virtual contacts are not written");
  if (args.has("--json")) {
    writeJson(std::cout, formats::convert, jsonObject({{"file", Json(absolutePath(args.positional(0)))},
                                     {"written", Json(written)},
                                     {"warnings", warnings.json()}}));
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("wrote " + written);
  return kExitOk;
}

const RegisterCommand registerConvert{Command{
    "convert",
    "write a robot (e.g. a URDF hand) as a GraspIt! robot directory",
    "Joints become DH joints (fixed joints are folded into the links before them; chains hanging off a link\n"
    "cannot be written), every body gets OUTDIR/iv/<name>.xml and its collision mesh as OUTDIR/iv/<name>.off,\n"
    "the eigengrasp file is copied to OUTDIR/eigen/. Virtual contacts are not written.",
    CommandSyntax{{{"ROBOT", "robot XML or URDF"}, {"OUTDIR", "directory to write (created if missing)"}},
                  {{"--to", "FORMAT", "output format: graspit", false, true},
                   common_options::json(),
                   common_options::modelRoot(), common_options::packagePath()}},
    runConvert}};

}  // namespace

}  // namespace sg::cli
