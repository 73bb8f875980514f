#pragma once
// The physics trial of a grasp (README.md §Trial protocol): close the hand's DOFs with their effort for a settle
// time, then pull the object with its weight along each requested axis of its frame in turn, each from the
// same settled state; a direction holds when the object stays within the displacement and rotation limits
// relative to the palm. The result is plain data a player can replay (README.md §Result): per direction the
// object's pose relative to the palm over time, the DOF values, the contact force and slip per hand body.
#include <string>
#include <vector>

#include "core/Progress.h"
#include "model/World.h"
#include "sim/TrialSettings.h"

namespace sg::sim {

class SimModel;

// What one hand body does to the object at one instant.
struct LinkContactSample {
  Vec3 force_W_N = Vec3::Zero();  // total contact force on the object, world frame
  Vec3 p_W_mm = Vec3::Zero();     // where it acts: the contact points' mean weighted by normal force (world)
  double normal_N = 0;            // sum of the normal forces
  double slip_mm_s = 0;           // largest tangential speed of the object relative to the body at a contact
  int contacts = 0;
};

struct TrialSample {
  double t_s = 0;                 // from the start of the phase (settle or the direction's pull)
  Transform X_PO;                 // object frame in the palm frame (mm); in the world without a hand
  double displacement_mm = 0;     // centre of mass moved relative to the palm since the phase began
  double rotation_deg = 0;        // object rotated relative to the palm since the phase began
  std::vector<double> dofValues;  // rad or mm, one per robot DOF (empty without a hand)
  std::vector<LinkContactSample> links;  // per TrialResult::bodyLabels entry
};

struct DirectionTrial {
  PullDirection direction;
  Vec3 pull_W = Vec3::Zero();     // unit direction of the pull in the world (fixed during the phase)
  bool held = false;
  bool diverged = false;          // the simulation produced a non-finite state (counts as not held)
  double displacement_mm = 0;     // largest over the phase
  double rotation_deg = 0;        // largest over the phase
  double finalDisplacement_mm = 0;
  std::vector<TrialSample> samples;
};

struct TrialResult {
  int robot = -1;                 // -1: no hand
  int graspable = 0;
  std::string objectLabel;
  std::vector<std::string> bodyLabels;  // hand bodies (palm, then links) the link samples refer to
  Transform X_WP;                 // palm in world (fixed); identity without a hand
  TrialSettings settings;
  std::vector<TrialSample> settle;      // the closing phase
  std::vector<DirectionTrial> directions;
  std::size_t objectPieces = 0;   // convex geoms the object was split into
  double objectVolumeError = 0;   // their added volume, fraction of the mesh's volume
  bool fullArena = false;         // the compact arena overflowed: the trial ran again in the full one (MjcfBuilder.h)

  int heldCount() const;
  // Directions held / directions tried (directions held / 6 for the full protocol).
  double score() const;
};

struct TrialRequest {
  int robot = 0;                  // -1: no hand
  int graspable = 0;
  TrialSettings settings;
};

// Runs the trial on `state` (the analysed grasp). Deterministic: the same world, state and request give the same
// result bit for bit. Throws sg::Error for a world without the graspable, a closing DOF without effort or bad
// settings; Cancelled when `progress` asks between directions.
TrialResult runTrial(const World& world, const WorldState& state, const TrialRequest& request, ProgressSink& progress);

// The same trial on a model already built for it: `sim` is SimModel(buildMjcf(world, state, request.robot,
// request.graspable, request.settings, capacity)), fresh from its constructor or reset() since. The call above
// is this one on a model of kCompactContactCapacity (again on one of kFullContactCapacity when that overflows),
// with the same result bit for bit; bench_sim times the two parts apart (tests/bench/README.md §Physics trial).
// Throws sg::Error as above, when `sim` was built for another robot, graspable, timestep, impratio or collision
// options, or was stepped since its reset, and when a model smaller than the full arena overflowed.
TrialResult runTrial(SimModel& sim, const World& world, const WorldState& state, const TrialRequest& request,
                     ProgressSink& progress);

// runTrial(world, ...) with room for `contactCapacity` contacts first (kCompactContactCapacity there): the trial
// again in the full arena when that overflows. For tests of the retry.
TrialResult trialCompactFirst(const World& world, const WorldState& state, const TrialRequest& request,
                              ProgressSink& progress, int contactCapacity);

}  // namespace sg::sim
