// softgrasp-cli info FILE [--json] [--model-root DIR]...
// Describes a world, robot or body XML or a bare mesh: bodies, robots, kinematics, camera and totals.
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "InputReport.h"
#include "Warnings.h"

namespace sg::cli {

namespace {

int runInfo(const ParsedArgs& args) {
  const InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  Warnings warnings;
  warnings.addLoadWarnings(input.world);
  warnings.addInterpenetrations(input.world);
  if (args.has("--json")) {
    Json doc = inputFileToJson(input);
    doc.set("warnings", warnings.json());
    writeJson(std::cout, formats::info, doc);
  } else {
    printInputFileText(std::cout, input);
  }
  return kExitOk;
}

const RegisterCommand registerInfo{Command{
    "info",
    "describe a world, robot or body XML or a mesh file",
    "Bodies: kind, triangles, bounding boxes (body and world frame), mass properties, volume (closed meshes),\n"
    "material, Young's modulus, max radius, pose. Robots: DOFs, eigengrasps, chains with joints and link\n"
    "poses at the current DOF values. Worlds: camera, connections. Lengths mm, angles rad, mass g.\n"
    "Bodies that interpenetrate as placed are warned about, deepest pair first.",
    CommandSyntax{{{"FILE", "world/robot/body XML, or a mesh (.iv .wrl .off .ply .stl .obj)"}},
                  {common_options::json(), common_options::modelRoot(), common_options::packagePath()}},
    runInfo}};

}  // namespace

}  // namespace sg::cli
