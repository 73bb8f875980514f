#pragma once
// Incremental forward kinematics for a robot whose state changes a little at a time (the DOF motion's closing
// loop, src/grasp/MOTION.md §DOF motion): the same link poses as linkPoses (Kinematics.h), bit for bit, but a
// chain's joint frames are recomputed only from the first joint whose motion value (or whose chain base) changed
// since the last call. Chains of fingers that stopped at a contact cost one comparison per joint.
#include <vector>

#include "model/Robot.h"
#include "model/WorldState.h"

namespace sg {

class LinkPoseCache {
 public:
  // Throws sg::Error for a bad chain tree (checkChainTree).
  explicit LinkPoseCache(const Robot& robot);

  // == linkPoses(robot, X_WP, dofValues, breakAway), bit for bit; valid until the next call.
  const std::vector<std::vector<Transform>>& poses(const Transform& X_WP, const std::vector<double>& dofValues,
                                                   const BreakAwayState& breakAway);
  // state.X_WL = poses(state.X_WP, state.dofValues, state.breakAway) (== forwardKinematics(robot, state)).
  void update(RobotState& state);

  // Joint transforms computed / reused by the calls so far (for tests and benchmarks).
  long computed() const { return computed_; }
  long reused() const { return reused_; }

 private:
  struct ChainCache {
    bool valid = false;
    Transform base;               // X_WB of the chain (parent pose · chain.base)
    std::vector<double> q;        // motion value of each joint
    std::vector<Transform> frames;  // frame after each joint
  };
  const Robot& robot_;
  std::vector<ChainCache> chains_;
  std::vector<std::vector<Transform>> poses_;
  long computed_ = 0, reused_ = 0;
};

}  // namespace sg
