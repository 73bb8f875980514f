#pragma once
// The grasp planner (PLANNER.md): simulated annealing (Annealing.h) over a hand search space (HandSearch.h)
// with a hand energy, then every kept pre-grasp closed with auto-grasp and measured. One const World; every
// worker thread evaluates its own WorldState.
#include <cstdint>
#include <string>
#include <vector>

#include "grasp/planner/FinalStage.h"
#include "grasp/planner/GuidedPlanner.h"
#include "grasp/planner/HandConfiguration.h"
#include "grasp/planner/HandSearch.h"

namespace sg::planner {

// GraspIt!'s planner types (PLANNER.md §Planners): one annealing run, the loop planner's repeated runs with
// an avoid list, or the guided planner's parent search with child searches (GuidedPlanner.h).
enum class PlannerKind { SimAnn, Loop, Guided };
const char* toString(PlannerKind kind);             // "simann", "loop", "guided"
std::vector<std::string> plannerNames();
PlannerKind plannerFromString(const std::string& name);

struct PlanRequest {
  PlannerKind planner = PlannerKind::SimAnn;
  int loops = 3;                         // loop planner: annealing runs
  double avoidThreshold = 10;            // loop planner: kept states with energy ≤ this join the avoid list
  double avoidDistance = 0.1;            // loop, guided: states this close to an avoided one are illegal
  // Guided planner: the parent searches with guided-potential-quality (energy.kind is not used), the children
  // with guided.childEnergy; the grasps are the children's (closed and measured as the child energy closes).
  GuidedSettings guided;
  int robot = 0;
  std::optional<int> graspable;          // nullopt: graspable 0
  PositionSpace space = PositionSpace::AxisAngle;
  EnergySettings energy;                 // kind, preset contacts, ranking measure, analysis settings
  AnnealingParams params = AnnealingParams::byName("default");
  long maxSteps = 70000;                 // GraspIt!'s dialog default (40 000 iterations with DEFAULT)
  int chains = 4;
  int threads = 1;
  std::uint64_t seed = 1;
  double timeLimit_s = 0;
  std::vector<std::string> reportMeasures = {"epsilon-l1", "volume-l1"};  // computed for each result
  // Start values (and fixed flags, targets) of the search variables; empty: the hand's configuration. Must
  // match the space's variables by count (sg::Error otherwise).
  std::vector<SearchVariable> variables;
  // Live view (pause, current state, trace); the planner also posts the best state's ε (epsilon-l1, first
  // contact model) to it at most every `qualityInterval_s`. Not owned; may be null.
  AnnealingMonitor* monitor = nullptr;
  double qualityInterval_s = 0.5;
  FinalStageSettings finalStage;
  // Every search's neighbour after an illegal one is drawn with steps this much shorter (AnnealingRequest::
  // illegalShrink, PLANNER.md §Annealing "Legality-aware neighbours"); 1: GraspIt!'s neighbours.
  double illegalShrink = 0.5;
};

struct GraspContactRecord {
  std::string handBody, otherBody;       // World::bodyLabel
  Vec3 position_mm = Vec3::Zero();       // on the hand body, world
  Vec3 normal = Vec3::UnitZ();           // inward on the hand body, world
};

struct PlannedGrasp {
  double energy = 0;
  std::vector<double> variables;         // the search state (empty for grasps read without one)
  HandConfiguration preGrasp, grasp;     // before and after auto-grasp (grasp: with its break-away joints)
  std::vector<MeasureValue> measures;    // of the final grasp, primary contact model
  bool forceClosure = false;
  std::vector<GraspContactRecord> contacts;  // hand contacts of the final grasp
  const MeasureValue* measure(const std::string& name) const;
};

struct PlanResult {
  std::vector<PlannedGrasp> grasps;      // ascending energy
  AnnealingResult annealing;             // stop reason, counts, traces (best entries = grasps' states)
  HandSearchSpace space;
  int graspable = 0;
  // Loop planner: the avoid list at the end and the run (0-based) each state came from. Guided planner: the
  // children's results and the child each came from.
  std::vector<std::vector<double>> avoided;
  std::vector<int> avoidedRun;
  std::vector<std::vector<double>> seeds;   // guided planner: the seeds of its children, in child order
  // The final stage (when enabled): grasps[i] is finalStage.states[i] closed and measured (the search's states
  // stay in annealing.best).
  FinalStageOutcome finalStage;
};

// Plans grasps of `request.graspable` with robot `request.robot`, starting from the hand's configuration
// in `world.state`. sg::Error for invalid indices, names or settings. Cancel and the time limit return
// what was found so far (annealing.stopReason says why it stopped).
PlanResult planGrasps(const World& world, const PlanRequest& request, ProgressSink& progress);

// Measures one grasp: the hand at `grasp` (its break-away joints included: applyHandConfiguration), or at
// `preGrasp` closed with auto-grasp when closeFromPreGrasp, analysed with `analysis` and `measures`. Fills grasp
// (when closing: pose, DOF values and the joints that broke away), measures, forceClosure, contacts.
void measureGrasp(const World& world, int robot, int graspable, PlannedGrasp& grasp, const AnalysisRequest& analysis,
                  const AutoGraspSettings& autoGrasp, const std::vector<std::string>& measures,
                  bool closeFromPreGrasp, ProgressSink& progress);

// A kept search state as the planners list it: placed (the pre-grasp), closed as `energy` closes the hand (the
// final grasp) and measured with `measures` under the first contact model.
PlannedGrasp closeAndMeasure(const World& world, const HandSearchSpace& space, const EnergySettings& energy,
                             const BestEntry& state, const std::vector<std::string>& measures);

// The search space of a request (its variables' start values, fixed flags and targets applied).
HandSearchSpace makeSearchSpace(const World& world, const PlanRequest& request);

// `world` with robot `robot` in configuration `hand` (break-away joints included, written as GraspIt!'s
// <dofValues> flags: src/io/DEVIATIONS.md) written as a GraspIt! world file (atomically;
// sg::Error naming the file on failure). The world's other bodies and robots stay as in world.state.
void saveGraspAsWorld(const World& world, int robot, const HandConfiguration& hand, const std::string& path);

}  // namespace sg::planner
