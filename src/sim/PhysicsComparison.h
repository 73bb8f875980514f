#pragma once
// Which quality measure predicts a physics trial, as one engine call (README.md §Measures against physics): plan
// each world with seeds 1..N (the planner's final stage on), take each plan's kept grasps, measure each under every
// contact model, run GraspIt!'s static check (grasp/forces/FORCES.md, analyzeHold) per model and the MuJoCo trial
// on it, and rank every (model, measure) and every model's statically-held fraction against the trial scores
// (PhysicsPrediction.h). The CLI (`compare --against-physics`), the application and Python call this alike.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/JsonFormat.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "grasp/ModelComparison.h"
#include "grasp/planner/GraspList.h"
#include "model/World.h"
#include "sim/PhysicsPrediction.h"
#include "sim/TrialSettings.h"

namespace sg::sim {

// The predictor name of the static check's row: directions held by analyzeHold / directions tried.
inline constexpr const char* kStaticHeldMeasure = "static-held";

// The document of compare --against-physics --json (docs/schemas), written by the CLI and read by the
// application. Version 2: the static check (static-held rows, samples[].held, agreement).
inline const JsonFormat kPhysicsPredictionFormat{"physics-prediction", 2};

// One world to plan and try. `analysis` gives the hand (robot), the graspable (nullopt: 0), the collision and
// quality settings the grasps are measured with; its hand motion is not used (the planner closes the hand).
struct PhysicsWorld {
  const World* world = nullptr;  // not owned; read only (every grasp works on its own WorldState)
  std::string label;             // names the world in errors (its file)
  AnalysisRequest analysis;
};

struct PhysicsComparisonRequest {
  int seeds = 3;                 // planner seeds 1..seeds per world
  long iterations = 5000;        // annealing iterations per plan (the final stage on)
  std::size_t keep = 20;         // the best `keep` kept grasps of each plan
  int threads = 1;               // planner threads and grasps measured and tried at once; results do not depend on it
  double successScore = 0.5;     // a grasp succeeds when its trial score ≥ this, in (0, 1]
  TrialSettings trial;
  ComparisonRequest compare;     // contact models (empty: every registered one) and measures
  bool staticCheck = true;       // add a static-held row per model and the per-direction agreement
};

// One kept grasp: where it came from, its hand state, its predictor values and its trial.
struct PhysicsSample {
  std::size_t world = 0;         // index into the worlds
  int seed = 0, rank = 0;        // the planner's seed; 1-based rank in the plan's kept list
  WorldState state;              // the planned grasp (hand placed and closed)
  std::vector<std::optional<double>> predictors;  // per PhysicsComparison::predictors; nullopt: no value
  std::optional<double> score;   // trial score; nullopt: not tried (cancelled before it)
  std::vector<bool> held;        // the trial's verdict per TrialSettings::directions entry
  std::vector<double> displacement_mm, rotation_deg;  // the trial's largest per direction (DirectionTrial)
  // Per contact model (PhysicsComparison::models order): analyzeHold's "held" per direction; nullopt where the
  // static check does not apply (the model failed on the grasp, no contacts, a DOF without effort).
  std::vector<std::optional<std::vector<bool>>> staticHeld;
};

// Static "held" against the trial's "held" for one model and one direction, over the grasps tried on which the
// static check applies.
struct HoldAgreement {
  std::string model;
  PullDirection direction;
  int bothHeld = 0, staticOnly = 0, physicsOnly = 0, neither = 0;
  int notApplicable = 0;         // grasps tried without a static verdict
  int grasps() const { return bothHeld + staticOnly + physicsOnly + neither; }
};

struct PhysicsComparison {
  std::vector<std::string> models;      // contact models, in order
  std::vector<std::string> measures;    // quality measures, in order
  std::vector<Predictor> predictors;    // per model: its measures, then static-held (with staticCheck)
  std::vector<PhysicsSample> samples;   // every kept grasp, by world, seed and rank
  PredictionTable table;                // over the samples tried
  std::vector<HoldAgreement> agreement; // per model, per direction (with staticCheck)
  bool complete = true;                 // false: cancelled during the trials; the table covers the grasps tried
  std::size_t tried() const;
};

// Runs the comparison. Progress: planning takes the first 30 %, the grasps the rest; cancelling during planning
// throws Cancelled (no table), during the trials returns complete = false with the grasps tried so far.
// sg::Error for no world, a world without a hand or graspable, an unknown model or measure, bad numbers, or the
// first grasp whose measures or trial failed (naming its world, seed and rank).
PhysicsComparison comparePhysics(const std::vector<PhysicsWorld>& worlds, const PhysicsComparisonRequest& request,
                                 ProgressSink& progress);

// The same comparison on the grasps of a grasp list (src/grasp/planner/PLANNER.md §Grasp list file) instead of
// planned ones: each grasp placed on `world` (the list's hand at its X_WP with its DOF values, the list's
// graspable analysed) is a sample with seed 0 and rank its 1-based place in the list; request.seeds, iterations
// and keep are not used, and progress starts at 30 % (no planning). sg::Error as comparePhysics, and for an empty
// list or one that does not fit the world (planner::validateGraspList's message).
PhysicsComparison comparePhysicsOnList(const PhysicsWorld& world, const planner::GraspList& list,
                                       const PhysicsComparisonRequest& request, ProgressSink& progress);

// GraspIt!'s static check of one model's evaluation of a grasp as the trial asks it (README.md §Static check
// against the trial): analyzeHold with the object's weight (trial.gravity_mps2) along each of trial.directions,
// "held" per direction. nullopt where it does not apply: analyzeHold's errors (no contacts, a loaded DOF without
// effort, a massless object).
std::optional<std::vector<bool>> staticHeld(const World& world, const WorldState& state,
                                            const GraspEvaluation& evaluation, const Body& object,
                                            const TrialSettings& trial);

// The measures the comparison uses by default: every registered one but volume-linf (README.md §Measures against
// physics: seconds per grasp and over its point limit on most planned grasps).
std::vector<std::string> defaultPhysicsMeasures();

// The agreement counts from the samples (comparePhysics fills PhysicsComparison::agreement with it).
std::vector<HoldAgreement> holdAgreement(const std::vector<std::string>& models,
                                         const std::vector<PullDirection>& directions,
                                         const std::vector<PhysicsSample>& samples);

}  // namespace sg::sim
