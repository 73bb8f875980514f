#pragma once
// The geom pairs MuJoCo tests, chosen before every step (README.md §Pair list). MuJoCo 2.2's dynamic collision
// runs every geom pair of every body pair its broad phase returns through mj_collideGeoms (filters, parameter
// mixing, then the bounding-sphere test): the mug's 43 pieces against each overlapping hand body's geoms, ~1,600
// pairs a step. Here the pairs whose bounding spheres can meet and whose boxes are not apart
// (CollisionPrefilter.h) are written into the model's predefined-pair slots, in the order MuJoCo's own loop
// visits them and with the parameters its mixing rules give, and the step runs with `collision="predefined"`:
// the same contacts in the same order, so the same trajectory bit for bit (tests/sim, bench_sim). A list is chosen
// with a slack and kept over the following steps while a bound of the bodies' motion stays within it.
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

  // Before mj_forward or mj_step: makes sure the slots hold every pair that can touch at this step's positions
  // (README.md §Pair list). The list is chosen with a slack from the geom poses of MuJoCo's last kinematics (or,
  // when those are not of the positions the last call left, from mj_kinematics on a scratch copy of qpos: it
  // normalises the free joint's quaternion in place, and doing that twice would change the step's bits), and kept
  // for the following steps while a certified bound of every body's motion since those poses (motionBound) stays
  // within the slack. Falls back to MuJoCo's dynamic collision for the step when the pairs do not fit, and from
  // the first bad state on (MuJoCo resets the data then). The model's geometry (bodies, geoms) must not change
  // between calls: a kept list depends on qpos only.
  void prepare(mjModel* m, mjData* d);
  // After that mj_forward (`stepped` false) or mj_step: notes the positions MuJoCo's kinematics saw, so the next
  // prepare() can choose from d's geom poses.
  void finish(const mjModel* m, const mjData* d, bool stepped);
  // The slots back to their compiled count (before mj_deleteModel).
  void restore(mjModel* m) const;

  struct Stats {
    long listed = 0, dynamic = 0;  // steps run with the list, with MuJoCo's dynamic collision
    long kept = 0;                 // of the listed steps, those that kept the list of an earlier step
    long scratch = 0;              // lists chosen from the scratch kinematics (the others: from d's poses)
    int largest = 0;               // most pairs in one step's list
  };
  const Stats& stats() const { return stats_; }
  int candidates() const { return static_cast<int>(candidates_.size()); }

  // How far any geom point of any two bodies (their origins, geom centres and prefilter boxes) can have moved
  // between positions qa and qb, summed over the two bodies that moved most: the joints' changes times their
  // lever arms (README.md §Pair list). +∞ when the model has a joint the bound does not cover.
  mjtNum motionBound(const mjModel* m, const mjtNum* qa, const mjtNum* qb) const;
  // The slack a list is chosen with beyond MuJoCo's own reach, on top of the motion already made, m.
  static constexpr mjtNum kSlack_m = 1e-3;

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
  void setUpBound(const mjModel* m);
  // Writes the candidates that can touch within `slack` of the poses in `s` into the slots; false when they do not
  // fit.
  bool select(mjModel* m, const mjData* s, mjtNum slack);

  std::vector<Candidate> candidates_;  // in MuJoCo's loop order: body pairs by signature, then g1, then g2
  std::vector<Run> runs_;
  std::vector<mjtNum> centres_;        // this step's box centres, 3 per geom
  int slots_ = 0;
  bool enabled_ = false;
  int collision0_ = mjCOL_ALL;
  Stats stats_;
  mjData* scratch_ = nullptr;  // this step's geom poses

  // The motion bound (setUpBound, at the first prepare: the prefilter's boxes are written after construction).
  bool boundReady_ = false, bounded_ = false;
  std::vector<int> bodyJoint_;           // per body: its one joint, −1 for none
  std::vector<mjtNum> pointRadius_;      // per body: farthest origin, geom centre or box corner from its origin
  std::vector<mjtNum> offset_;           // per body: |body_pos|, its nominal origin in the parent frame
  // The list in the slots, and the positions its poses were of.
  bool listValid_ = false;
  int listCount_ = 0;
  mjtNum listSlack_ = 0;
  std::vector<mjtNum> listQpos_;
  // The positions d's geom poses are of (posesQpos_), valid while qpos is still the one the call left (postQpos_).
  bool posesValid_ = false;
  std::vector<mjtNum> callQpos_, posesQpos_, postQpos_;
  int warnings_ = 0;                     // MuJoCo's bad-state warnings before the call (a reset in the step)
};

}  // namespace sg::sim
