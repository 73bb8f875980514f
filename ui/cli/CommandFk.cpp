// softgrasp-cli fk ROBOT --dofs v0,v1,... [--json] [--degrees] [--model-root DIR]...
// Forward kinematics: sets the DOF values (clamped into their ranges, as the engine does) and prints the
// palm and link poses in the robot's base frame.
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "ModelNames.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "model/Kinematics.h"

namespace sg::cli {

namespace {

// The requested DOF values in engine units (rad or mm); --degrees converts revolute DOFs only.
std::vector<double> requestedDofValues(const ParsedArgs& args, const Robot& robot) {
  std::vector<double> values = parseNumberList("--dofs", *args.value("--dofs"));
  if (values.size() != robot.dofCount())
    throw UsageError(std::string("--dofs: robot ") + robot.name + " has " + std::to_string(robot.dofCount()) + " DOFs, got " +
                     std::to_string(values.size()) + " values");
  if (args.has("--degrees"))
    for (std::size_t k = 0; k < values.size(); ++k)
      if (!robot.dofs[k].prismatic) values[k] = degToRad(values[k]);
  return values;
}

Json linkPoseJson(const Transform& pose, int chain, int link, const std::string& label) {
  Json entry = jsonPose(pose);
  entry.set("chain", chain);
  entry.set("link", link);
  entry.set("label", Json(label));
  return entry;
}

int runFk(const ParsedArgs& args) {
  const std::string path = args.positional(0);
  World world;  // holds the robot so body labels match "info"
  world.addRobot(loadRobotFile(path, loadOptionsFrom(args)));
  const Robot& robot = world.robots.front();
  RobotState& state = world.state.robots.front();
  const std::vector<double> requested = requestedDofValues(args, robot);
  setDofValues(robot, state, requested);
  const std::vector<double>& values = state.dofValues;

  Warnings warnings;  // after the last usage check: a failing run prints only its error
  warnings.addLoadWarnings(world);
  for (std::size_t k = 0; k < requested.size(); ++k)
    if (values[k] != requested[k]) {
      std::string text = "d";  // built with += (g++ 12 warns falsely on "literal" + string chains)
      text += std::to_string(k) + " = ";
      text += TextPrinter::number(requested[k]) + " ";
      text += dofUnit(robot.dofs[k]) + " is outside its range, clamped to ";
      text += TextPrinter::number(values[k]);
      warnings.add(text);
    }

  const auto label = [&](const BodyRef& ref) { return world.bodyLabel({BodyHandle::Kind::Robot, 0, ref}); };
  if (args.has("--json")) {
    Json dofs = Json::array(), links = Json::array();
    for (std::size_t k = 0; k < robot.dofs.size(); ++k)
      dofs.push(jsonObject({{"index", static_cast<int>(k)},
                            {"unit", Json(dofUnit(robot.dofs[k]))},
                            {"requested", Json(requested[k])},
                            {"value", Json(values[k])},
                            {"clamped", values[k] != requested[k]}}));
    for (const auto& ref : robot.bodyRefs())
      if (ref.chain >= 0) links.push(linkPoseJson(X_WB(state, ref), ref.chain, ref.link, label(ref)));
    writeJson(std::cout, formats::fk, jsonObject({{"file", Json(absolutePath(path))},
                                     {"robot", Json(robot.name)},
                                     {"dofs", dofs},
                                     {"palm", linkPoseJson(state.X_WP, -1, 0, label({-1, 0}))},
                                     {"links", links},
                                     {"warnings", warnings.json()}}));
    return kExitOk;
  }
  TextPrinter out(std::cout);
  std::string dofText;
  for (std::size_t k = 0; k < robot.dofs.size(); ++k)
    dofText += (k ? ", " : "") + TextPrinter::number(values[k]) + " " + dofUnit(robot.dofs[k]);
  out.line(std::string("robot ") + robot.name + ", DOFs " + dofText);
  TextPrinter::Indent indent(out);
  for (const auto& ref : robot.bodyRefs()) out.field(label(ref), TextPrinter::pose(X_WB(state, ref)));
  return kExitOk;
}

const RegisterCommand registerFk{Command{
    "fk",
    "forward kinematics: link poses of a robot for given DOF values",
    "DOF values are radians (revolute) or mm (prismatic); --degrees takes revolute values in degrees.\n"
    "Values outside a DOF's range are clamped (with a warning on stderr). Poses are in the robot base frame.",
    CommandSyntax{{{"ROBOT", "robot XML"}},
                  {{"--dofs", "V0,V1,...", "one value per DOF, comma-separated", false, true},
                   {"--degrees", "", "revolute DOF values are given in degrees"},
                   common_options::json(),
                   common_options::modelRoot(), common_options::packagePath()}},
    runFk}};

}  // namespace

}  // namespace sg::cli
