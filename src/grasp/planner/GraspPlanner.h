#pragma once
// The grasp planner (PLANNER.md): simulated annealing (Annealing.h) over a hand search space (HandSearch.h)
// with a hand energy, then every kept pre-grasp closed with auto-grasp and measured. One const World; every
// worker thread evaluates its own WorldState.
#include <cstdint>
#include <string>
#include <vector>

#include "grasp/planner/HandSearch.h"

namespace sg::planner {

struct PlanRequest {
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
};

struct GraspContactRecord {
  std::string handBody, otherBody;       // World::bodyLabel
  Vec3 position_mm = Vec3::Zero();       // on the hand body, world
  Vec3 normal = Vec3::UnitZ();           // inward on the hand body, world
};

struct HandConfiguration {
  Transform X_WP;                        // palm in world
  std::vector<double> dofValues;
};

struct PlannedGrasp {
  double energy = 0;
  std::vector<double> variables;         // the search state (empty for grasps read without one)
  HandConfiguration preGrasp, grasp;     // before and after auto-grasp
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
};

// Plans grasps of `request.graspable` with robot `request.robot`, starting from the hand's configuration
// in `world.state`. sg::Error for invalid indices, names or settings. Cancel and the time limit return
// what was found so far (annealing.stopReason says why it stopped).
PlanResult planGrasps(const World& world, const PlanRequest& request, ProgressSink& progress);

// Measures one grasp: the hand at `grasp` (or at `preGrasp` closed with auto-grasp when closeFromPreGrasp),
// analysed with `analysis` and `measures`. Fills grasp (when closing), measures, forceClosure, contacts.
void measureGrasp(const World& world, int robot, int graspable, PlannedGrasp& grasp, const AnalysisRequest& analysis,
                  const AutoGraspSettings& autoGrasp, const std::vector<std::string>& measures,
                  bool closeFromPreGrasp, ProgressSink& progress);

}  // namespace sg::planner
