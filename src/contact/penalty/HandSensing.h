#pragma once
// The sensing table of one hand (src/contact/README.md §Penalty contact): the penalty sensing outputs of every
// collision-checked pair of one of the hand's bodies with another body, optionally after a squeeze. What
// `softgrasp-cli sensing` prints and the application's Sensing dock shows.
#include <optional>
#include <vector>

#include "contact/penalty/Squeeze.h"

namespace sg {

struct HandSensingRow {
  BodyHandle hand, other;   // side 1 and side 2 of `sensing.contact`
  PenaltySensing sensing;
};

struct HandSensing {
  std::vector<HandSensingRow> rows;     // in activePairs order
  std::optional<SqueezeResult> squeeze; // when a squeeze ran
};

// Without `squeeze`: every pair as placed in `state`, at rest. With it: squeezes the hand in `state` first
// (its DOFs change); pairs the squeeze pressed report its forces, the others are sensed at the squeezed state.
// Throws sg::Error for an invalid robot or settings.
HandSensing senseHand(const World& world, WorldState& state, int robot, const PenaltySettings& penalty,
                      const std::optional<SqueezeSettings>& squeeze = std::nullopt);

}  // namespace sg
