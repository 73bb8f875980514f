#pragma once
// Random hand states of a bundled world as the grasp planner visits them (src/grasp/planner/PLANNER.md
// §Search state): search variables drawn half the time near the world's start values (a few maximum jumps
// away, as the annealer's neighbours) and half the time anywhere in their ranges, mapped to a palm pose and DOF
// values in a copy of the world's state. For the auto-grasp equivalence test and bench_autograsp.
#include <algorithm>
#include <random>
#include <vector>

#include "grasp/planner/HandSearch.h"
#include "model/Kinematics.h"

namespace sgtest {

inline std::vector<sg::WorldState> randomHandStates(const sg::World& world, int robot, int graspable, int count,
                                                    unsigned seed) {
  using namespace sg;
  const planner::HandSearchSpace space =
      planner::makeSearchSpace(world, world.state, robot, graspable, planner::PositionSpace::AxisAngle);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<WorldState> out;
  for (int i = 0; i < count; ++i) {
    const bool near = unit(rng) < 0.5;
    std::vector<double> x;
    for (const auto& v : space.variables) {
      double value = near ? v.value + 2.0 * v.maxJump * normal(rng) : v.min + (v.max - v.min) * unit(rng);
      x.push_back(v.fixed ? v.value : std::clamp(value, v.min, v.max));
    }
    WorldState state = world.state;
    RobotState& rs = state.robots[static_cast<std::size_t>(robot)];
    rs.X_WP = space.palmPose(x);
    std::vector<double> dofs = space.dofValues(world, x);
    if (dofs.empty()) dofs = rs.dofValues;
    setDofValues(world.robots[static_cast<std::size_t>(robot)], rs, dofs);
    updateConnections(world, state);
    out.push_back(std::move(state));
  }
  return out;
}

}  // namespace sgtest
