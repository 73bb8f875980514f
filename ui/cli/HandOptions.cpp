#include "HandOptions.h"

#include "TextPrinter.h"

namespace sg::cli {

namespace {

double positiveValue(const std::string& option, const std::string& text) {
  const std::vector<double> v = parseNumberList(option, text);
  if (v.size() != 1 || !(v[0] > 0)) throw UsageError(option + ": expected one positive number, got '" + text + "'");
  return v[0];
}

}  // namespace

HandMotionRequest handMotionRequest(const ParsedArgs& args, bool closeByDefault) {
  const bool close = args.has("--autograsp"), keep = args.has("--no-close"), open = args.has("--open");
  if (close && keep) throw UsageError("--autograsp and --no-close contradict each other");
  if (close && open) throw UsageError("--autograsp and --open contradict each other");
  if (open && keep) throw UsageError("--open and --no-close contradict each other");
  FingerMotion fingers = FingerMotion::Keep;
  if (open) fingers = FingerMotion::Open;
  else if (close || (closeByDefault && !keep)) fingers = FingerMotion::Close;
  // The application's switches map the same way (grasp/HandMotionPresets.h); only MM is the CLI's own.
  HandMotionRequest request = switchesMotion(args.has("--approach"), fingers);
  if (const auto text = args.value("--approach")) request.approachDistance_mm = positiveValue("--approach", *text);
  return request;
}

double contactThreshold(const ParsedArgs& args) {
  const auto text = args.value("--threshold");
  return text ? positiveValue("--threshold", *text) : kDefaultThreshold_mm;
}

namespace hand_options {

OptionSpec approach() {
  OptionSpec o{"--approach", "MM",
               "first move the hand along its approach direction until contact, at most MM (default " +
                   TextPrinter::number(kApproachBeforeGrasp_mm) + " mm, as GraspIt!'s G key)"};
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
