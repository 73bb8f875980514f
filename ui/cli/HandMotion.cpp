#include "HandMotion.h"

#include "TextPrinter.h"
#include "grasp/Motion.h"

namespace sg::cli {

namespace {

double positiveValue(const std::string& option, const std::string& text) {
  const std::vector<double> v = parseNumberList(option, text);
  if (v.size() != 1 || !(v[0] > 0)) throw UsageError(option + ": expected one positive number, got '" + text + "'");
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

}  // namespace

HandMotionPlan handMotionPlan(const ParsedArgs& args, bool closeByDefault) {
  HandMotionPlan plan;
  if (args.has("--approach")) {
    const auto text = args.value("--approach");
    plan.approach_mm = text ? positiveValue("--approach", *text) : kDefaultApproach_mm;
  }
  const bool close = args.has("--autograsp"), keep = args.has("--no-close"), open = args.has("--open");
  if (close && keep) throw UsageError("--autograsp and --no-close contradict each other");
  if (close && open) throw UsageError("--autograsp and --open contradict each other");
  if (open && keep) throw UsageError("--open and --no-close contradict each other");
  if (open) plan.fingers = FingerMotion::Open;
  else if (close || (closeByDefault && !keep)) plan.fingers = FingerMotion::Close;
  return plan;
}

double contactThreshold(const ParsedArgs& args) {
  const auto text = args.value("--threshold");
  return text ? positiveValue("--threshold", *text) : kDefaultThreshold_mm;
}

HandMotionReport runHandMotion(World& world, int robot, const HandMotionPlan& plan, const AutoGraspSettings& settings) {
  HandMotionReport report;
  if (plan.approach_mm) report.approach = outcomeName(findInitialContact(world, robot, *plan.approach_mm, settings.motion).outcome);
  switch (plan.fingers) {
    case FingerMotion::Keep: report.fingers = "not run"; break;
    case FingerMotion::Close: report.fingers = outcomeName(autoGrasp(world, robot, settings).outcome); break;
    case FingerMotion::Open: report.fingers = outcomeName(autoOpen(world, robot, settings).outcome); break;
  }
  return report;
}

namespace hand_options {

OptionSpec approach() {
  OptionSpec o{"--approach", "MM",
               "first move the hand along its approach direction until contact, at most MM (default " +
                   TextPrinter::number(kDefaultApproach_mm) + " mm, as GraspIt!'s G key)"};
  o.optionalValue = true;
  return o;
}

OptionSpec autograsp(bool isDefault) {
  return {"--autograsp", "",
          std::string("close the hand: every DOF moves with its default velocity until contact stops it") +
              (isDefault ? " (the default)" : "")};
}

OptionSpec noClose(bool isDefault) {
  return {"--no-close", "",
          std::string("do not move the DOFs; use the contacts as they are") + (isDefault ? " (the default)" : "")};
}

OptionSpec threshold() {
  return {"--threshold", "MM", "contact threshold (default " + TextPrinter::number(kDefaultThreshold_mm) + " mm)"};
}

}  // namespace hand_options

}  // namespace sg::cli
