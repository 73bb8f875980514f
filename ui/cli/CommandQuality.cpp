// softgrasp-cli quality WORLD [--robot N] [--graspable N] [--approach [MM]] [--autograsp | --no-close]
//                            [--threshold MM] [--contact-model M] [--patch layer|hertz] [--force N] [--edges M]
//                            [--torque-length MM] [--linf-limit N] [--json] [--model-root DIR]...
// Evaluates the grasp of one graspable body with the soft-finger model, on the contacts as they are or after
// moving the hand (--approach, --autograsp; see HandMotion.h): per contact the neighbourhood, fitted
// paraboloids, relative radii, patch and torsional friction limit, friction edges and wrenches; for the grasp
// the L1 and L∞ wrench spaces' ε, volume and force closure (QualityReport.h).
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "HandMotion.h"
#include "JsonWriter.h"
#include "ModelInput.h"
#include "QualityReport.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "contact/ContactDetection.h"

namespace sg::cli {

namespace {

double numberOption(const ParsedArgs& args, const std::string& option, double fallback, bool integer = false) {
  const auto text = args.value(option);
  if (!text) return fallback;
  const std::vector<double> v = parseNumberList(option, *text);
  if (v.size() != 1 || !(v[0] > 0) || (integer && v[0] != static_cast<double>(static_cast<long long>(v[0]))))
    throw UsageError(option + ": expected one positive " + (integer ? "integer" : "number") + ", got '" + *text + "'");
  return v[0];
}

int indexOption(const ParsedArgs& args, const std::string& option) {
  const auto text = args.value(option);
  if (!text) return 0;
  const auto v = parseNumberList(option, *text);
  if (v.size() != 1 || v[0] < 0 || v[0] != static_cast<int>(v[0]))
    throw UsageError(option + ": expected an index, got '" + *text + "'");
  return static_cast<int>(v[0]);
}

QualitySettings settingsFrom(const ParsedArgs& args) {
  QualitySettings s;
  if (const auto m = args.value("--contact-model")) {
    if (*m == "auto") s.contactModel = ContactModelChoice::Auto;
    else if (*m == "point") s.contactModel = ContactModelChoice::AllPoint;
    else if (*m == "soft") s.contactModel = ContactModelChoice::AllSoft;
    else if (*m == "frictionless") s.contactModel = ContactModelChoice::AllFrictionless;
    else throw UsageError("--contact-model: expected auto, point, soft or frictionless, got '" + *m + "'");
  }
  if (const auto p = args.value("--patch")) {
    if (*p == "layer") s.soft.patch.model = PatchModel::ElasticLayer;
    else if (*p == "hertz") s.soft.patch.model = PatchModel::Hertz;
    else throw UsageError("--patch: expected layer or hertz, got '" + *p + "'");
  }
  s.soft.patch.normalForce_N = numberOption(args, "--force", s.soft.patch.normalForce_N);
  s.edges.pointContactEdges = static_cast<int>(numberOption(args, "--edges", s.edges.pointContactEdges, true));
  s.torqueLength_mm = numberOption(args, "--torque-length", 0);
  s.gws.maxLInfinityPoints =
      static_cast<std::size_t>(numberOption(args, "--linf-limit", static_cast<double>(s.gws.maxLInfinityPoints), true));
  return s;
}

int runQuality(const ParsedArgs& args) {
  const HandMotionPlan plan = handMotionPlan(args, /*closeByDefault=*/false);
  AutoGraspSettings grasp;
  grasp.motion.collision.contacts.threshold_mm = contactThreshold(args);
  const QualitySettings settings = settingsFrom(args);
  LoadedModel model = loadModelFile(args.positional(0), loadOptionsFrom(args));
  World& world = model.world;
  const int graspable = indexOption(args, "--graspable");
  if (graspable >= static_cast<int>(world.graspables.size()))
    throw UsageError("--graspable: " + model.path + " has " + std::to_string(world.graspables.size()) +
                     " graspable body(ies)");
  const int robot = indexOption(args, "--robot");
  const bool movesHand = plan.approach_mm || plan.fingers != FingerMotion::Keep;
  if (robot >= static_cast<int>(world.robots.size()) && (movesHand || args.has("--robot")))
    throw UsageError(std::string(args.has("--robot") ? "--robot" : "--approach/--autograsp") + ": " + model.path +
                     " has " + std::to_string(world.robots.size()) + " robot(s)");
  Warnings warnings;  // after the last usage check: a failing run prints only its error
  warnings.addLoadWarnings(world);

  HandMotionReport motion;
  if (robot < static_cast<int>(world.robots.size())) motion = runHandMotion(world, robot, plan, grasp);
  const std::vector<Contact> contacts = findAllContacts(world, grasp.motion.collision);
  const GraspEvaluation e = evaluateGrasp(world, contacts, graspable, settings);
  const std::string object = world.bodyLabel({BodyHandle::Kind::Graspable, graspable, {}});

  if (args.has("--json")) {
    QJsonArray list, dofs;
    for (const auto& c : e.contacts) list.append(contactEvaluationJson(world, c));
    QJsonObject doc{{"file", jsonString(model.path)},
                    {"graspable", jsonString(object)},
                    {"torqueScale_mm", jsonNumber(e.reference.torqueScale_mm)},
                    {"contactsFound", static_cast<int>(contacts.size())},
                    {"contacts", list},
                    {"l1", wrenchSpaceJson(e, e.l1, e.l1Quality, settings)},
                    {"lInfinity", wrenchSpaceJson(e, e.lInfinity, e.lInfinityQuality, settings)},
                    {"warnings", warnings.json()}};
    if (robot < static_cast<int>(world.robots.size())) {
      for (const auto& d : world.robots[robot].dofs) dofs.append(jsonNumber(d.value));
      doc.insert("robot", jsonString(world.robots[robot].name));
      doc.insert("grasp", jsonString(motion.fingers));
      doc.insert("dofs", dofs);
      if (!motion.approach.empty()) doc.insert("approach", jsonString(motion.approach));
    }
    writeJson(std::cout, doc);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("grasp of " + object);
  TextPrinter::Indent indent(out);
  if (!motion.approach.empty()) out.field("approach", motion.approach);
  if (!motion.fingers.empty()) out.field("auto-grasp", motion.fingers);
  out.field("torque scale", TextPrinter::number(e.reference.torqueScale_mm) + " mm");
  out.field("contacts", std::to_string(e.contacts.size()) + " on the object (" + std::to_string(contacts.size()) +
                            " found)");
  {
    TextPrinter::Indent inner(out);
    for (const auto& c : e.contacts) printContactEvaluation(out, world, c);
  }
  printWrenchSpace(out, "L1", e, e.l1, e.l1Quality, settings);
  printWrenchSpace(out, "Linf", e, e.lInfinity, e.lInfinityQuality, settings);
  return kExitOk;
}

const RegisterCommand registerQuality{Command{
    "quality",
    "evaluate a grasp: soft contacts, wrench spaces, epsilon and volume",
    "Loads a world file and evaluates the grasp of one graspable body on the contacts as they are, or\n"
    "after moving the hand (--approach: along its approach direction until contact, at most MM, default\n"
    "30 mm; --autograsp: close the DOFs until contact). Reports soft-finger contacts where a body is elastic\n"
    "(neighbourhood, paraboloid fits, relative radii, contact patch at the normal force, torsional friction),\n"
    "friction edges, contact wrenches (torques divided by the object's max radius) and the L1 and L-infinity\n"
    "grasp wrench spaces with epsilon, volume and force closure. The L-infinity space is built only when\n"
    "its Minkowski sum stays within --linf-limit points (three soft contacts need 9261).",
    CommandSyntax{{{"WORLD", "world XML"}},
                  {{"--robot", "N", "which robot to move (default 0)"},
                   {"--graspable", "N", "which graspable body to evaluate (default 0)"},
                   hand_options::approach(),
                   hand_options::autograsp(false),
                   hand_options::noClose(true),
                   hand_options::threshold(),
                   {"--contact-model", "M", "auto (default), point, soft or frictionless"},
                   {"--patch", "P", "soft patch model: layer (GraspIt!'s elastic layer, default) or hertz"},
                   {"--force", "N", "normal force of the soft patch in newtons (default 5)"},
                   {"--edges", "M", "friction-cone edges of a point contact (default 8)"},
                   {"--torque-length", "MM", "torque scale (default: the object's max radius)"},
                   {"--linf-limit", "N", "largest Minkowski sum built for the L-infinity space (default 2000)"},
                   common_options::json(),
                   common_options::modelRoot()}},
    runQuality}};

}  // namespace

}  // namespace sg::cli
