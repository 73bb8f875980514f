#pragma once
// States of a grasped world near its grasp, as a user dragging the hand visits them: the palm moved by up to
// `translation_mm` along each axis and turned by up to `rotation_rad` about a random axis, every DOF moved by up
// to `dof_rad` (rad, or mm for a prismatic DOF: the same number), each drawn uniformly and independently around
// the grasp with a fixed seed. A state is kept only when its grasp has as many contacts as the grasp itself
// (else it is drawn again, at most 50 times per state), so every state has the same contacts, each moved a little.
// For bench_quality --full-update and tests/grasp/tst_warm_epsilon.
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "model/Kinematics.h"

namespace sgtest {

struct Jitter {
  double translation_mm = 0.1;
  double rotation_rad = 0.002;
  double dof_rad = 0.002;
};

// The number of contacts in the primary evaluation of `state` (the grasp's contacts on the graspable).
inline std::size_t graspContactCount(const sg::World& world, const sg::WorldState& state) {
  sg::AnalysisRequest request;
  request.measures.clear();
  sg::NullProgress progress;
  const sg::AnalysisResult r = sg::analyzeGrasp(world, state, request, progress);
  return r.primary() ? r.primary()->contacts.size() : 0;
}

inline std::vector<sg::WorldState> jitteredGraspStates(const sg::World& world, int robot, int count, unsigned seed,
                                                       const Jitter& jitter = {}) {
  using namespace sg;
  const std::size_t wanted = graspContactCount(world, world.state);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> symmetric(-1.0, 1.0);
  std::vector<WorldState> out;
  const RobotState& base = world.state.robots[static_cast<std::size_t>(robot)];
  for (int i = 0; i < count; ++i) {
    for (int attempt = 0;; ++attempt) {
      if (attempt == 50) throw std::runtime_error("no jittered state keeps the grasp's contacts");
      WorldState state = world.state;
      RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
      Vec3 axis(symmetric(rng), symmetric(rng), symmetric(rng));
      if (axis.norm() < 1e-6) axis = Vec3::UnitZ();
      const Vec3 shift(symmetric(rng), symmetric(rng), symmetric(rng));
      const Transform move = Transform::fromTranslation(jitter.translation_mm * shift) *
                             Transform::fromAxisAngle(axis.normalized(), jitter.rotation_rad * symmetric(rng));
      rs.X_WP = base.X_WP * move;  // about the palm's own frame
      std::vector<double> dofs = base.dofValues;
      for (double& v : dofs) v += jitter.dof_rad * symmetric(rng);
      setDofValues(world.robots[static_cast<std::size_t>(robot)], rs, dofs);
      updateConnections(world, state);
      if (graspContactCount(world, state) != wanted) continue;
      out.push_back(std::move(state));
      break;
    }
  }
  return out;
}

}  // namespace sgtest
