// softgrasp-cli grasp WORLD [--robot N] [--approach [MM]] [--autograsp | --open | --no-close] [--threshold MM]
//                          [--sensing] [--json] [--model-root DIR]...
// Closes a hand with collision-stopped auto-grasp (optionally after approaching the object along the
// approach direction; see HandMotion.h) and reports the final DOF values and every contact of the world,
// the hand's first; with --sensing also the sensing outputs of every pair of a hand body with another body
// (contact signal, separation, contact frames on both bodies; src/contact/README.md §Sensing outputs).
#include <algorithm>
#include <iostream>

#include "CommandRegistry.h"
#include "ExitCodes.h"
#include "AnalysisOptions.h"
#include "JsonWriter.h"
#include "InputOptions.h"
#include "TextPrinter.h"
#include "Warnings.h"
#include "contact/CollisionFilter.h"
#include "contact/ContactDetection.h"
#include "grasp/AnalysisJson.h"

namespace sg::cli {

namespace {

bool isRobot(const BodyHandle& h) { return h.kind == BodyHandle::Kind::Robot; }

// The sensed pairs: every collision-checked pair of one of the robot's bodies with a body of another kind
// (an object, an obstacle, another robot), robot body first.
struct SensedPair {
  BodyHandle hand, other;
  PairSensing sensing;
};
std::vector<SensedPair> sensePairs(const World& world, int robot, const CollisionSettings& settings) {
  std::vector<SensedPair> out;
  for (const auto& [a, b] : activePairs(world, settings, robotBodies(world, robot))) {
    const bool aIsHand = isRobot(a) && a.index == robot;
    const BodyHandle& hand = aIsHand ? a : b;
    const BodyHandle& other = aIsHand ? b : a;
    if (isRobot(other) && other.index == robot) continue;  // self pairs: not a sensor reading
    out.push_back({hand, other, sensePair(world, hand, other, settings)});
  }
  return out;
}

int runGrasp(const ParsedArgs& args) {
  InputFile input = loadInputFile(args.positional(0), loadOptionsFrom(args));
  AnalysisRequest request = analysisRequest(args, input, /*closeByDefault=*/true);
  World& world = input.world;
  const int robot = request.robot;
  if (robot >= static_cast<int>(world.robots.size()))
    throw UsageError("--robot: " + input.path + " has " + std::to_string(world.robots.size()) + " robot(s)");
  Warnings warnings;  // after the last usage check: a failing run prints only its error
  warnings.addLoadWarnings(world);

  request.measures.clear();  // contacts and what they became; no wrench space
  NullProgress progress;
  const AnalysisResult result = runAnalysis(world, request, progress);
  const std::vector<Contact>& contacts = result.contacts;
  const std::vector<std::string> kinds = contactKinds(result.primary(), contacts.size());
  const auto handContacts = std::count_if(contacts.begin(), contacts.end(), isHandContact);
  std::vector<SensedPair> sensed;
  if (args.has("--sensing")) sensed = sensePairs(world, robot, request.collision);
  const bool colliding = anyCollision(world, request.collision);
  const std::string fingers = fingersOutcome(result.motion), approach = approachOutcome(result.motion);
  if (result.motion.fingers.run && !result.motion.fingers.converged)
    warnings.add("auto-grasp did not converge: stopped after " + std::to_string(result.motion.fingers.iterations) +
                 " iterations with DOFs short of their targets");
  const Robot& hand = world.robots[robot];
  const RobotState& handState = world.state.robots.at(robot);

  if (args.has("--json")) {
    Json list = Json::array();
    for (std::size_t i = 0; i < contacts.size(); ++i) list.push(foundContactJson(world, contacts[i], i, kinds[i]));
    Json doc = jsonObject({{"file", input.path},
                           {"robot", hand.name},
                           {"grasp", fingers},
                           {"dofs", jsonNumbers(handState.dofValues)},
                           {"palm", jsonPose(handState.X_WP)},
                           {"collision", colliding},
                           {"contacts", list},
                           {"warnings", warnings.json()}});
    if (!approach.empty()) doc.set("approach", approach);
    if (args.has("--sensing")) {
      Json pairs = Json::array();
      for (const auto& p : sensed)
        pairs.push(jsonObject({{"body1", world.bodyLabel(p.hand)},
                               {"body2", world.bodyLabel(p.other)},
                               {"contact", p.sensing.contact},
                               {"colliding", p.sensing.colliding},
                               {"separation", p.sensing.separation_mm},
                               {"frame1", jsonPose(p.sensing.frameA)},
                               {"frame2", jsonPose(p.sensing.frameB)}}));
      doc.set("sensing", pairs);
    }
    writeJson(std::cout, formats::grasp, doc);
    return kExitOk;
  }
  TextPrinter out(std::cout);
  out.line("robot " + hand.name);
  TextPrinter::Indent indent(out);
  if (!approach.empty()) out.field("approach", approach);
  out.field("grasp", fingers);
  std::string dofText;
  for (std::size_t k = 0; k < hand.dofs.size(); ++k) dofText += (k ? ", " : "") + TextPrinter::number(handState.dofValues[k]);
  out.field("dof values", dofText);
  out.field("palm", TextPrinter::pose(handState.X_WP));
  out.field("collision", colliding ? "yes" : "no");
  out.field("contacts", std::to_string(contacts.size()) + " (" + std::to_string(handContacts) + " by a hand)");
  {
    TextPrinter::Indent inner(out);
    for (const auto& c : contacts)
      out.line("#" + std::to_string(&c - contacts.data() + 1) + " " + world.bodyLabel(c.side1.body) + " – " +
               world.bodyLabel(c.side2.body) + ": at " +
               TextPrinter::vec(c.side1.p_WC_mm) + " mm, normal " + TextPrinter::vec(c.side1.n_W) +
               (c.penetrating ? ", penetrating, depth " + TextPrinter::number(c.depth_mm())
                              : ", gap " + TextPrinter::number(c.separation_mm)) +
               " mm, mu " + TextPrinter::number(c.muStatic) +
               (kinds[static_cast<std::size_t>(&c - contacts.data())].empty()
                    ? std::string()
                    : ", " + kinds[static_cast<std::size_t>(&c - contacts.data())]));
  }
  if (args.has("--sensing")) {
    out.field("sensing", std::to_string(sensed.size()) + " pair(s)");
    TextPrinter::Indent inner(out);
    for (const auto& p : sensed) {
      out.line(world.bodyLabel(p.hand) + " – " + world.bodyLabel(p.other) + ": contact " +
               (p.sensing.contact ? "yes" : "no") + (p.sensing.colliding ? " (colliding)" : "") + ", separation " +
               TextPrinter::number(p.sensing.separation_mm) + " mm");
      TextPrinter::Indent frames(out);
      out.field("frame 1", TextPrinter::pose(p.sensing.frameA));
      out.field("frame 2", TextPrinter::pose(p.sensing.frameB));
    }
  }
  return kExitOk;
}

const RegisterCommand registerGrasp{Command{
    "grasp",
    "auto-grasp a hand (collision-stopped) and list the contacts",
    "Loads a world (or robot) file, optionally moves the hand along its approach direction until contact\n"
    "(--approach, at most MM, default 30 mm), closes every DOF with its default velocity until its links touch\n"
    "(the default; --autograsp says so explicitly, --open auto-opens instead, --no-close keeps the DOFs), then\n"
    "prints the final DOF values and every contact (positions and inward normals in world mm), the hand's\n"
    "first; a pair that touches or overlaps has one contact, at its deepest point, marked penetrating with\n"
    "its depth. --sensing adds, for every pair of a hand body with another body, the sensing outputs: the\n"
    "contact signal (separation within the threshold), the separation (negative: penetration depth) and\n"
    "the contact frames on both bodies (z = inward normal at the witness points). --contact-model names the\n"
    "model whose view of the grasp's contacts (kind, merges) is printed (default soft-finger).",
    CommandSyntax{{{"WORLD", "world or robot XML"}},
                  {{"--robot", "N", "which robot of the world to move (default 0)"},
                   hand_options::approach(),
                   hand_options::autograsp(true),
                   {"--open", "", "auto-open instead of auto-grasp"},
                   hand_options::noClose(false),
                   hand_options::threshold(),
                   analysis_options::contactModel(),
                   analysis_options::settings(),
                   {"--sensing", "", "also print the sensing outputs of every hand-body pair"},
                   common_options::json(),
                   common_options::modelRoot(), common_options::packagePath()}},
    runGrasp}};

}  // namespace

}  // namespace sg::cli
