#pragma once
// The options that shape one engine analysis (src/grasp/Analysis.h), read into an AnalysisRequest, so every
// command that analyses a grasp spells them alike: --robot, --graspable, the hand motion (HandOptions.h),
// --threshold, --contact-model (one or several registered models, comma-separated: evaluated side by side),
// --measures, --curvature, --force, --edges, --torque-length, --model-param MODEL.KEY=VALUE (a model's own
// setting, as ContactModel::parameters() declares it).
#include "HandOptions.h"
#include "InputOptions.h"
#include "grasp/Analysis.h"

namespace sg::cli {

// UsageError for malformed values or indices out of range for `input`'s world.
AnalysisRequest analysisRequest(const ParsedArgs& args, const InputFile& input, bool closeByDefault);

namespace analysis_options {
OptionSpec robot();
OptionSpec graspable();
OptionSpec contactModel();
OptionSpec measures();
OptionSpec settings();  // --settings FILE (also in qualitySettings())
std::vector<OptionSpec> qualitySettings();  // --settings, --curvature, --force, --edges, --torque-length, --model-param
}  // namespace analysis_options

}  // namespace sg::cli
