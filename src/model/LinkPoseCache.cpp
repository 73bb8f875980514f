#include "model/LinkPoseCache.h"

#include <cstring>

#include "model/Kinematics.h"

namespace sg {

namespace {

bool samePose(const Transform& a, const Transform& b) {
  return std::memcmp(a.rotation().coeffs().data(), b.rotation().coeffs().data(), 4 * sizeof(double)) == 0 &&
         std::memcmp(a.translation().data(), b.translation().data(), 3 * sizeof(double)) == 0;
}

// Bit-for-bit equality (so that −0.0 and 0.0 differ and NaN never matches: then the frame is recomputed).
bool sameValue(double a, double b) { return std::memcmp(&a, &b, sizeof(double)) == 0 && a == a; }

}  // namespace

LinkPoseCache::LinkPoseCache(const Robot& robot) : robot_(robot) {
  checkChainTree(robot);
  chains_.resize(robot.chains.size());
  poses_.resize(robot.chains.size());
  for (std::size_t c = 0; c < robot.chains.size(); ++c) {
    chains_[c].q.resize(robot.chains[c].joints.size());
    chains_[c].frames.resize(robot.chains[c].joints.size());
    poses_[c].resize(robot.chains[c].links.size());
  }
}

const std::vector<std::vector<Transform>>& LinkPoseCache::poses(const Transform& X_WP,
                                                               const std::vector<double>& dofValues,
                                                               const BreakAwayState& breakAway) {
  // The same operations in the same order as linkPoses (Kinematics.cpp), skipping those whose inputs are
  // bit for bit the last call's.
  for (std::size_t c = 0; c < robot_.chains.size(); ++c) {
    const Chain& chain = robot_.chains[c];
    ChainCache& cache = chains_[c];
    const auto& parent = chain.parent;
    const Transform X_WB = (parent && parent->chain >= 0 ? poses_[parent->chain][parent->link] : X_WP) * chain.base;
    bool valid = cache.valid && samePose(X_WB, cache.base);
    cache.base = X_WB;
    Transform X_WF = X_WB;
    for (std::size_t k = 0; k < chain.joints.size(); ++k) {
      const Joint& j = chain.joints[k];
      const JointBreakAway ba = c < breakAway.size() && k < breakAway[c].size() ? breakAway[c][k] : JointBreakAway{};
      const double q = jointMotionValue(j, dofValues, ba);
      if (valid && sameValue(q, cache.q[k])) {
        X_WF = cache.frames[k];
        ++reused_;
        continue;
      }
      valid = false;
      X_WF = X_WF * jointTransform(j, q);
      cache.q[k] = q;
      cache.frames[k] = X_WF;
      ++computed_;
    }
    cache.valid = true;
    auto& poses = poses_[c];
    for (std::size_t l = 0; l < chain.links.size(); ++l) {
      const int lj = chain.links[l].lastJoint;
      poses[l] = lj >= 0 && lj < static_cast<int>(cache.frames.size()) ? cache.frames[lj] : X_WB;
    }
  }
  return poses_;
}

void LinkPoseCache::update(RobotState& state) {
  const auto& p = poses(state.X_WP, state.dofValues, state.breakAway);
  state.X_WL.resize(p.size());
  for (std::size_t c = 0; c < p.size(); ++c) state.X_WL[c].assign(p[c].begin(), p[c].end());
}

}  // namespace sg
