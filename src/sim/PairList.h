#pragma once
// The geom pairs MuJoCo tests, chosen before every step (README.md §Pair list). MuJoCo 2.2's dynamic collision
// runs every geom pair of every body pair its broad phase returns through mj_collideGeoms (filters, parameter
// mixing, then the bounding-sphere test): the mug's 43 pieces against each overlapping hand body's geoms, ~1,600
// pairs a step. Here the pairs whose bounding spheres can meet and whose boxes are not apart
// (CollisionPrefilter.h) are written into the model's predefined-pair slots, in the order MuJoCo's own loop
// visits them and with the parameters its mixing rules give, and the step runs with `collision="predefined"`:
// the same contacts in the same order, so the same trajectory bit for bit (tests/sim, bench_sim).
#include <vector>

#include <mujoco/mujoco.h>

namespace sg::sim {

class PairList {
 public:
  // `slots`: the predefined pairs MjcfBuilder declared as room for the list (placeholders; no other pairs may be
  // declared). The model is switched back to its dynamic collision until the first prepare(). Without slots, or
  // with `enabled` false, prepare() leaves MuJoCo's dynamic collision on (the reference for cross-checks).
  PairList(mjModel* m, int slots, bool enabled);
  ~PairList();
  PairList(const PairList&) = delete;
  PairList& operator=(const PairList&) = delete;

  // Before mj_forward or mj_step: computes this step's geom poses (mj_kinematics on a scratch copy of qpos: it
  // normalises the free joint's quaternion in place, and doing that twice would change the step's bits) and writes the pairs that can touch into the slots. Falls back to MuJoCo's dynamic collision for the
  // step when they do not fit, and from the first bad state on (MuJoCo resets the data then: README.md §Pair list).
  void prepare(mjModel* m, mjData* d);
  // The slots back to their compiled count (before mj_deleteModel).
  void restore(mjModel* m) const;

  struct Stats {
    long listed = 0, dynamic = 0;  // steps run with the list, with MuJoCo's dynamic collision
    int largest = 0;               // most pairs in one step's list
  };
  const Stats& stats() const { return stats_; }
  int candidates() const { return static_cast<int>(candidates_.size()); }

 private:
  // One geom pair the dynamic loop can test (it passes MuJoCo's contype/conaffinity, weld and parent filters),
  // with the contact parameters MuJoCo's mixing gives it. g1 is the geom of the body with the lower id.
  struct Candidate {
    int g1 = 0, g2 = 0, signature = 0, dim = 0;
    mjtNum friction[5] = {}, solref[mjNREF] = {}, solimp[mjNIMP] = {}, margin = 0, gap = 0, reach = 0;
  };
  // Consecutive candidates with one g1 against the geoms of one body b2: skipped together when g1's bounding
  // sphere is out of reach of the sphere about b2's origin that holds all its geoms' bounding spheres.
  struct Run {
    int g1 = 0, b2 = 0, begin = 0, end = 0;
    mjtNum reach = -1;  // < 0: never skipped (a plane)
  };
  void useDynamic(mjModel* m);

  std::vector<Candidate> candidates_;  // in MuJoCo's loop order: body pairs by signature, then g1, then g2
  std::vector<Run> runs_;
  std::vector<mjtNum> centres_;        // this step's box centres, 3 per geom
  int slots_ = 0;
  bool enabled_ = false;
  int collision0_ = mjCOL_ALL;
  Stats stats_;
  mjData* scratch_ = nullptr;  // this step's geom poses
};

}  // namespace sg::sim
