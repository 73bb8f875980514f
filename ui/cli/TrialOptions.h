#pragma once
// Physics trials for the commands (src/sim/README.md §Trial protocol): the trial options validate, plan and
// batch share (--directions, --duration, --validate), the trial of every grasp of a grasp list and where its
// summary goes in a row (ui/cli/README.md §Physics trials of planned grasps).
#include <optional>
#include <string>
#include <vector>

#include "OptionParser.h"
#include "core/Json.h"
#include "core/Progress.h"
#include "grasp/planner/GraspList.h"
#include "model/World.h"
#include "sim/PhysicsTrial.h"

namespace sg::cli {

namespace trial_options {
OptionSpec validate(const std::string& what);  // --validate
OptionSpec directions();                      // --directions LIST
OptionSpec duration();                        // --duration S
OptionSpec timestep();                        // --timestep S
}  // namespace trial_options

// --timestep S (MuJoCo's step, src/sim/README.md §Timestep), nullopt when not given; UsageError unless a finite
// number of seconds in (0, 0.01].
std::optional<double> timestepOption(const ParsedArgs& args);

// The trial settings of --directions, --duration and --timestep (defaults otherwise); UsageError naming the option.
sim::TrialSettings trialSettingsFrom(const ParsedArgs& args);
// A job-list row's trial settings (its trialDirections and trialDuration_s); sg::Error naming the setting.
sim::TrialSettings trialSettingsOf(const std::string& directions, double duration_s);

// Grasp `index` of `list` in `world`: the palm at its final pose, its final DOF values (as validate --grasps
// takes a saved grasp).
WorldState graspListState(const World& world, const planner::GraspList& list, std::size_t index);

// The trial of every grasp of `list` (the list's robot and graspable), in list order, progress over the whole
// list. Stops between grasps when `progress` is cancelled (Ctrl+C): the trials done so far are kept and
// `stopped` is set. sg::Error prefixed "grasps[i]: " when a trial cannot run.
struct ListTrials {
  std::vector<sim::TrialResult> results;  // grasps 0 .. results.size() - 1
  bool stopped = false;
};
ListTrials runListTrials(const World& world, const planner::GraspList& list, const sim::TrialSettings& settings,
                         ProgressSink& progress);

// The grasp-list document `doc` with each grasp i < trials.size() given "trial": trials[i] (the
// softgrasp.validation summary of src/sim/TrialJson.h); later grasps (an interrupted run) get none.
Json withTrials(const Json& doc, const std::vector<Json>& trials);
// withTrials with the trials' summaries, plus the document's "trialSettings" (sim::trialSettingsJson).
Json withTrials(const Json& doc, const sim::TrialSettings& settings, const std::vector<sim::TrialResult>& results);
std::vector<Json> trialSummaries(const std::vector<sim::TrialResult>& results);

// The CSV columns a trial adds to a grasp's line: trial_score, then per direction tried
// <dir>_held, <dir>_displacement_mm, <dir>_rotation_deg (e.g. x+_held). Empty fields for a grasp without a trial.
std::string trialCsvHeader(const sim::TrialSettings& settings);
std::string trialCsvFields(const sim::TrialSettings& settings, const sim::TrialResult* result);

}  // namespace sg::cli
