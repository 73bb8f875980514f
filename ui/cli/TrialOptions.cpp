#include "TrialOptions.h"

#include <cmath>

#include "core/Error.h"
#include "core/NumberFormat.h"
#include "core/Parse.h"
#include "sim/TrialJson.h"

namespace sg::cli {

namespace trial_options {
OptionSpec validate(const std::string& what) { return {"--validate", "", what}; }
OptionSpec directions() {
  return {"--directions", "LIST", "all (the default) or a comma-separated list of x+, x-, y+, y-, z+, z-"};
}
OptionSpec duration() { return {"--duration", "S", "seconds of pull per direction (default 1)"}; }
OptionSpec timestep() { return {"--timestep", "S", "MuJoCo's timestep in seconds (default 0.002)"}; }
}  // namespace trial_options

std::optional<double> timestepOption(const ParsedArgs& args) {
  const auto t = args.value("--timestep");
  if (!t) return std::nullopt;
  const auto v = parseDouble(*t);
  // Above 10 ms trials diverge (src/sim/README.md §Timestep): refused rather than run.
  if (!v || !(*v > 0) || !(*v <= 0.01))
    throw UsageError("--timestep: expected a number of seconds in (0, 0.01], found '" + *t + "'");
  return *v;
}

sim::TrialSettings trialSettingsFrom(const ParsedArgs& args) {
  sim::TrialSettings s;
  if (const auto d = args.value("--directions")) {
    try {
      s.directions = sim::parseDirections(*d);
    } catch (const Error& e) {
      throw UsageError("--directions: " + e.message());
    }
  }
  if (const auto t = args.value("--duration")) {
    const auto v = parseDouble(*t);
    if (!v || !(*v > 0) || !std::isfinite(*v))
      throw UsageError("--duration: expected a number of seconds > 0, found '" + *t + "'");
    s.duration_s = *v;
  }
  if (const auto t = timestepOption(args)) s.timestep_s = *t;
  return s;
}

sim::TrialSettings trialSettingsOf(const std::string& directions, double duration_s) {
  sim::TrialSettings s;
  try {
    s.directions = sim::parseDirections(directions);
  } catch (const Error& e) {
    throw Error("trialDirections: " + e.message());
  }
  s.duration_s = duration_s;
  sim::validateTrialSettings(s);
  return s;
}

WorldState graspListState(const World& world, const planner::GraspList& list, std::size_t index) {
  const auto robot = static_cast<std::size_t>(list.robotIndex);
  const Robot& hand = world.robots[robot];
  WorldState s = world.state;
  planner::applyHandConfiguration(hand, s.robots[robot], list.grasps[index].grasp);  // break-away joints too
  updateConnections(world, s);
  return s;
}

ListTrials runListTrials(const World& world, const planner::GraspList& list, const sim::TrialSettings& settings,
                         ProgressSink& progress) {
  ListTrials out;
  const std::size_t n = list.grasps.size();
  for (std::size_t i = 0; i < n; ++i) {
    const double begin = static_cast<double>(i) / static_cast<double>(n);
    SubProgress sub(progress, begin, begin + 1.0 / static_cast<double>(n));
    try {
      out.results.push_back(sim::runTrial(world, graspListState(world, list, i),
                                          {list.robotIndex, list.graspableIndex, settings}, sub));
    } catch (const Cancelled&) {
      out.stopped = true;
      break;
    } catch (const Error& e) {
      throw Error("grasps[" + std::to_string(i) + "]: " + e.message());
    }
  }
  return out;
}

std::vector<Json> trialSummaries(const std::vector<sim::TrialResult>& results) {
  std::vector<Json> out;
  for (const sim::TrialResult& r : results) out.push_back(sim::trialSummaryJson(r));
  return out;
}

Json withTrials(const Json& doc, const std::vector<Json>& trials) {
  Json out = Json::object();
  for (const auto& [key, value] : doc.members("grasp list")) {
    if (key != "grasps") {
      out.set(key, value);
      continue;
    }
    Json grasps = Json::array();
    const auto& items = value.items("grasps");
    for (std::size_t i = 0; i < items.size(); ++i) {
      Json g = items[i];
      if (i < trials.size()) g.set("trial", trials[i]);
      grasps.push(g);
    }
    out.set("grasps", grasps);
  }
  return out;
}

Json withTrials(const Json& doc, const sim::TrialSettings& settings, const std::vector<sim::TrialResult>& results) {
  Json out = withTrials(doc, trialSummaries(results));
  out.set("trialSettings", sim::trialSettingsJson(settings));
  return out;
}

std::string trialCsvHeader(const sim::TrialSettings& settings) {
  std::string h = "trial_score";
  for (const sim::PullDirection& d : settings.directions) {
    const std::string n = d.name();
    h += "," + n + "_held," + n + "_displacement_mm," + n + "_rotation_deg";
  }
  return h;
}

std::string trialCsvFields(const sim::TrialSettings& settings, const sim::TrialResult* result) {
  if (!result) return std::string(3 * settings.directions.size(), ',');
  std::string f = formatDouble(result->score());
  for (const sim::DirectionTrial& d : result->directions)
    f += std::string(",") + (d.held ? "1" : "0") + "," + formatDouble(d.displacement_mm) + "," +
         formatDouble(d.rotation_deg);
  return f;
}

}  // namespace sg::cli
