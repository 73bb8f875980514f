#pragma once
// The grasp list file (PLANNER.md §Grasp list file): JSON, written atomically, read back with errors that
// name the file. Holds the world it was planned in, the hand, the object, how it was planned and per grasp
// its energy, pre-grasp and final hand configurations, measures and contacts.
#include <string>
#include <vector>

#include "core/Json.h"
#include "core/JsonFormat.h"
#include "grasp/planner/GraspPlanner.h"

namespace sg::planner {

// "softgrasp.grasp-list" version 1 (docs/schemas/grasp-list.schema.json); files tagged with the former name are read.
constexpr int kGraspListVersion = 1;
inline const JsonFormat kGraspListFormat{"grasp-list", kGraspListVersion, {"softgrasp-grasp-list"}};

struct GraspList {
  std::string world;              // the world file (as given when planning; may be empty)
  std::string robot;              // robot name
  int robotIndex = 0;
  std::string object;             // graspable body label
  int graspableIndex = 0;
  // How it was planned (informative): planner type (simann, loop, guided; empty in files written before it
  // was recorded), the grasps' energy (guided: the children's; parentEnergy is the parent's), space, parameter
  // set, seed, steps, stop reason.
  std::string planner, energy, parentEnergy, space, params, stopReason;
  std::string seed;               // decimal (64-bit seeds do not fit a JSON double)
  long maxSteps = 0;
  std::vector<std::string> variableNames;
  std::vector<PlannedGrasp> grasps;
};

// The list for a plan result of `world` (file name `worldFile`).
GraspList makeGraspList(const World& world, const std::string& worldFile, const PlanRequest& request,
                        const PlanResult& result);

// A grasp's joints in break-away as the list writes them (PLANNER.md §Grasp list file, "breakAway"): one
// {"chain", "joint", "dofValue"} per active joint (an empty array for none). Read strictly: sg::Error starting
// with `what` for a malformed entry or a joint listed twice; the result is sized to the largest indices (whether
// the robot has those joints is requireHandFits').
Json breakAwayToJson(const BreakAwayState& state);
BreakAwayState breakAwayFromJson(const Json& j, const std::string& what);

Json graspListToJsonValue(const GraspList& list);  // the document, for callers that add to it
std::string graspListToJson(const GraspList& list);
// sg::Error for malformed JSON or content (without the file name).
GraspList graspListFromJson(const std::string& text);

// Atomic save; sg::Error naming the file on failure.
void saveGraspList(const GraspList& list, const std::string& path);
// sg::Error naming the file: missing, unreadable, malformed JSON (with the line), wrong format or fields.
GraspList loadGraspList(const std::string& path);

}  // namespace sg::planner
