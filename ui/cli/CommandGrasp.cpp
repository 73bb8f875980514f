// softgrasp-cli grasp MODEL [--robot N] [--approach MM] [--open] [--no-close] [--threshold MM] [--json]
//                          [--model-root DIR]...
// Closes a hand with collision-stopped auto-grasp (optionally after approaching the object along the
// approach direction) and reports the stopping DOF values and every contact of the world.
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "JsonWriter.h"
#include "ModelInput.h"
#include "TextPrinter.h"
#include "contact/ContactDetection.h"
#include "grasp/AutoGrasp.h"
#include "model/Kinematics.h"

namespace sg::cli {

namespace {

double positiveNumber(const ParsedArgs& args, const std::string& option, double fallback) {
  const auto text = args.value(option);
  if (!text) return fallback;
  const std::vector<double> v = parseNumberList(option, *text);
  if (v.size() != 1 || !(v[0] > 0)) throw UsageError(option + ": expected one positive number, got '" + *text + "'");
  return v[0];
}

std::string outcomeName(MotionOutcome o) {
  switch (o) {
    case MotionOutcome::Reached: return "reached";
    case MotionOutcome::Contact: return "contact";
    case MotionOutcome::Blocked: return "blocked";
    case MotionOutcome::StartInCollision: return "start-in-collision";
  }
  return "unknown";
}

std::string frictionName(FrictionType f) {
  switch (f) {
    case FrictionType::Frictionless: return "frictionless";
    case FrictionType::PointWithFriction: return "point-with-friction";
    case FrictionType::SoftFinger: return "soft-finger";
  }
  return "unknown";
}

int runGrasp(const ParsedArgs& args) {
  LoadedModel model = loadModelFile(args.positional(0), loadOptionsFrom(args));
  World& world = model.world;
  int robot = 0;
  if (const auto r = args.value("--robot")) {
    const auto v = parseNumberList("--robot", *r);
    if (v.size() != 1 || v[0] < 0 || v[0] != static_cast<int>(v[0]))
      throw UsageError("--robot: expected a robot index, got '" + *r + "'");
    robot = static_cast<int>(v[0]);
  }
  if (robot >= static_cast<int>(world.robots.size()))
    throw UsageError("--robot: " + model.path + " has " + std::to_string(world.robots.size()) + " robot(s)");

  AutoGraspSettings settings;
  settings.motion.collision.contacts.threshold_mm = positiveNumber(args, "--threshold", 0.2);
  std::string approachOutcome;
  if (args.has("--approach"))
    approachOutcome = outcomeName(
        findInitialContact(world, robot, positiveNumber(args, "--approach", 0), settings.motion).outcome);
  std::string graspOutcome = "not run";
  if (!args.has("--no-close"))
    graspOutcome = outcomeName((args.has("--open") ? autoOpen(world, robot, settings) : autoGrasp(world, robot, settings)).outcome);

  const std::vector<Contact> contacts = findAllContacts(world, settings.motion.collision);
  const bool colliding = anyCollision(world, settings.motion.collision);
  const Robot& hand = world.robots[robot];

  if (args.has("--json")) {
    QJsonArray dofs, list;
    for (const auto& d : hand.dofs) dofs.append(jsonNumber(d.value));
    for (const auto& c : contacts)
      list.append(QJsonObject{{"body1", jsonString(world.bodyLabel(c.side1.body))},
                              {"body2", jsonString(world.bodyLabel(c.side2.body))},
                              {"position1", jsonVec(c.side1.position_mm)},
                              {"normal1", jsonVec(c.side1.normal)},
                              {"position2", jsonVec(c.side2.position_mm)},
                              {"normal2", jsonVec(c.side2.normal)},
                              {"separation", jsonNumber(c.separation_mm)},
                              {"muStatic", jsonNumber(c.muStatic)},
                              {"muKinetic", jsonNumber(c.muKinetic)},
                              {"friction", jsonString(frictionName(c.friction))}});
    QJsonObject doc{{"file", jsonString(model.path)},
                    {"robot", jsonString(hand.name)},
                    {"grasp", jsonString(graspOutcome)},
                    {"dofs", dofs},
                    {"palm", jsonPose(hand.pose)},
                    {"collision", colliding},
                    {"contacts", list}};
    if (!approachOutcome.empty()) doc.insert("approach", jsonString(approachOutcome));
    writeJson(std::cout, doc);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("robot " + hand.name);
  TextPrinter::Indent indent(out);
  if (!approachOutcome.empty()) out.field("approach", approachOutcome);
  out.field("grasp", graspOutcome);
  std::string dofText;
  for (std::size_t k = 0; k < hand.dofs.size(); ++k) dofText += (k ? ", " : "") + TextPrinter::number(hand.dofs[k].value);
  out.field("dof values", dofText);
  out.field("palm", TextPrinter::pose(hand.pose));
  out.field("collision", colliding ? "yes" : "no");
  out.field("contacts", std::to_string(contacts.size()));
  TextPrinter::Indent inner(out);
  for (const auto& c : contacts)
    out.line(world.bodyLabel(c.side1.body) + " – " + world.bodyLabel(c.side2.body) + ": at " +
             TextPrinter::vec(c.side1.position_mm) + " mm, normal " + TextPrinter::vec(c.side1.normal) + ", gap " +
             TextPrinter::number(c.separation_mm) + " mm, mu " + TextPrinter::number(c.muStatic) + ", " +
             frictionName(c.friction));
  return kExitOk;
}

const RegisterCommand registerGrasp{Command{
    "grasp",
    "auto-grasp a hand (collision-stopped) and list the contacts",
    "Loads a world (or robot) file, optionally moves the hand along its approach direction until contact\n"
    "(--approach MM), closes every DOF with its default velocity until its links touch (or opens with\n"
    "--open), then prints the DOF values and every contact (positions and inward normals in world mm).",
    CommandSyntax{{{"MODEL", "world or robot XML"}},
                  {{"--robot", "N", "which robot of the world to move (default 0)"},
                   {"--approach", "MM", "first approach the object along the approach direction, at most MM"},
                   {"--open", "", "auto-open instead of auto-grasp"},
                   {"--no-close", "", "do not move the DOFs; only report contacts"},
                   {"--threshold", "MM", "contact threshold (default 0.2 mm)"},
                   common_options::json(),
                   common_options::modelRoot()}},
    runGrasp}};

}  // namespace

}  // namespace sg::cli
