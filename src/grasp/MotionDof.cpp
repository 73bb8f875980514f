#include "grasp/MotionDof.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "contact/ContactDetection.h"
#include "core/Error.h"
#include "contact/ContactMotion.h"
#include "contact/PairScreen.h"
#include "model/Kinematics.h"
#include "model/LinkPoseCache.h"

namespace sg {

namespace {

struct JointRef {
  int chain = 0, joint = 0;
};

using Stops = std::vector<std::vector<bool>>;  // [chain][joint]

std::vector<std::vector<JointRef>> jointsByDof(const Robot& robot) {
  std::vector<std::vector<JointRef>> out(robot.dofs.size());
  for (int c = 0; c < static_cast<int>(robot.chains.size()); ++c)
    for (int j = 0; j < static_cast<int>(robot.chains[c].joints.size()); ++j) {
      const int k = robot.chains[c].joints[j].expr.dof;
      if (k >= 0 && k < static_cast<int>(out.size())) out[k].push_back({c, j});
    }
  return out;
}

bool isRobotLink(const BodyHandle& h, int robot) {
  return h.kind == BodyHandle::Kind::Robot && h.index == robot && h.ref.chain >= 0;
}

// Marks every joint of `link`'s chain up to the link's last joint, and so on up the chains it hangs off
// (their joints move it too). Returns true if anything changed.
bool stopChainUpTo(const Robot& robot, const BodyRef& link, Stops& stops) {
  bool changed = false;
  for (BodyRef at = link; at.chain >= 0;) {
    const Chain& chain = robot.chains[at.chain];
    const int last = std::min(chain.links[at.link].lastJoint, static_cast<int>(chain.joints.size()) - 1);
    for (int j = 0; j <= last; ++j)
      if (!stops[at.chain][j]) stops[at.chain][j] = changed = true;
    at = chain.parent.value_or(BodyRef{});
  }
  return changed;
}

// The DOF values this iteration may reach given the stops, and the joints that enter break-away.
std::vector<double> propose(const Robot& robot, const BreakAwayState& breakAway,
                            const std::vector<std::vector<JointRef>>& byDof,
                            const std::vector<double>& cur, const std::vector<double>& next, const Stops& stops,
                            std::vector<JointRef>& enterBreakAway) {
  enterBreakAway.clear();
  std::vector<double> p = next;
  for (std::size_t k = 0; k < p.size(); ++k) {
    if (p[k] == cur[k] || byDof[k].empty()) continue;
    const bool positive = p[k] > cur[k];
    const DofType type = robot.dofs[k].type;
    const bool perJoint = type == DofType::Compliant || (type == DofType::BreakAway && positive);
    if (!perJoint) {
      for (const auto& jr : byDof[k])
        if (stops[jr.chain][jr.joint] && !breakAway[jr.chain][jr.joint].active) p[k] = cur[k];
      continue;
    }
    bool anyFree = false;
    std::vector<JointRef> entering;
    for (const auto& jr : byDof[k]) {
      if (breakAway[jr.chain][jr.joint].active) continue;
      if (stops[jr.chain][jr.joint]) entering.push_back(jr);
      else anyFree = true;
    }
    if (!anyFree) {
      p[k] = cur[k];
      continue;
    }
    enterBreakAway.insert(enterBreakAway.end(), entering.begin(), entering.end());
  }
  return p;
}

// Enters break-away for `entering` joints at the current DOF values `cur`.
void enterBreakAway(const Robot& robot, BreakAwayState& breakAway, const std::vector<JointRef>& entering,
                    const std::vector<double>& cur) {
  for (const auto& jr : entering)
    breakAway[jr.chain][jr.joint] = {true, cur[robot.chains[jr.chain].joints[jr.joint].expr.dof]};
}

// Marks joints stopped when an existing contact on a link opposes that link's motion. Returns true if a
// new stop was added.
bool stopOpposedLinks(const World& world, const WorldState& state, int robot, const std::vector<Contact>& contacts,
                      const std::vector<std::vector<Transform>>& from, const std::vector<std::vector<Transform>>& to,
                      Stops& stops) {
  const Robot& r = world.robots[robot];
  auto poses = [&](const BodyHandle& h, bool after) -> Transform {
    if (isRobotLink(h, robot)) return (after ? to : from)[h.ref.chain][h.ref.link];
    return X_WB(state, h);  // anything else stays put during a DOF step
  };
  bool changed = false;
  for (const auto& c : contacts) {
    for (int s = 0; s < 2; ++s) {
      const ContactSide& side = s == 0 ? c.side1 : c.side2;
      const ContactSide& other = s == 0 ? c.side2 : c.side1;
      if (!isRobotLink(side.body, robot)) continue;
      // Motion of this side relative to the other body.
      const Transform otherMotion = poses(other.body, true) * poses(other.body, false).inverse();
      const Transform toRel = otherMotion.inverse() * poses(side.body, true);
      if (preventsMotion(side, poses(side.body, false), toRel)) changed |= stopChainUpTo(r, side.body.ref, stops);
    }
  }
  return changed;
}

}  // namespace

// ~140 lines kept whole: one stepping loop whose caches, stops and pair screen every step shares (MOTION.md).
DofMotionResult moveDofsToContacts(const World& world, WorldState& state, int robotIndex,
                                   const std::vector<double>& targetIn, const DofMotionSettings& settings) {
  DofMotionResult result;
  requireRobot(world, robotIndex);
  requireFits(world, state);
  const Robot& robot = world.robots[robotIndex];
  RobotState& rs = state.robots.at(robotIndex);
  const std::size_t n = robot.dofs.size();
  // Every joint has a break-away entry from here on.
  rs.breakAway.resize(robot.chains.size());
  for (std::size_t c = 0; c < robot.chains.size(); ++c) rs.breakAway[c].resize(robot.chains[c].joints.size());
  result.dofStopped.assign(n, false);
  const std::vector<double> target = clampToRanges(robot, targetIn);
  std::vector<double> step(n);
  for (std::size_t k = 0; k < n; ++k)
    step[k] = std::abs(k < settings.stepSizes.size() ? settings.stepSizes[k]
                                                     : (robot.dofs[k].prismatic ? 10.0 : degToRad(5.0)));
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(target[k]) || !std::isfinite(step[k]) || !std::isfinite(rs.dofValues.at(k)))
      throw Error("DOF motion did not converge: DOF " + std::to_string(k) + " has a value, target or step that is "
                  "not finite");
  if (settings.maxIterations < 0) throw Error("DOF motion: maxIterations must not be negative");
  const auto byDof = jointsByDof(robot);
  Stops stops;
  for (const auto& ch : robot.chains) stops.emplace_back(ch.joints.size(), false);

  const auto moving = robotBodies(world, robotIndex);
  const auto pairs = activePairs(world, settings.motion.collision, moving);
  const CollisionSettings& cs = settings.motion.collision;
  // Forward kinematics through caches (LinkPoseCache.h: the same poses as linkPoses, recomputing only the
  // joints that moved): the state's, and the proposal's for the opposed-contact test.
  LinkPoseCache stateKinematics(robot), proposalKinematics(robot);
  auto apply = [&](const std::vector<double>& v) {
    rs.dofValues = clampToRanges(robot, v);  // == setDofValues(robot, rs, v)
    stateKinematics.update(rs);
    updateConnections(world, state);
  };
  // The pair tests: plain, or through a PairScreen (the same answers, PairScreen.h).
  std::optional<PairScreen> screen;
  if (settings.screenPairs) screen.emplace(world, pairs, cs);
  auto anyCollides = [&]() {
    if (screen) return screen->anyCollides(state);
    return std::any_of(pairs.begin(), pairs.end(), [&](const BodyPair& p) { return pairCollides(world, state, p); });
  };
  auto contactsNow = [&]() { return screen ? screen->contacts(state) : findContacts(world, state, pairs, cs); };
  requireFinitePoses(world, state, moving, "DOF motion");
  if (anyCollides()) {
    result.outcome = MotionOutcome::StartInCollision;
    result.contacts = contactsNow();
    return result;
  }

  bool settled = false;
  for (; result.iterations < settings.maxIterations; ++result.iterations) {
    const std::vector<double> cur = rs.dofValues;
    std::vector<double> next = cur;
    for (std::size_t k = 0; k < n; ++k) {
      if (step[k] == 0) continue;
      next[k] = cur[k] < target[k] ? std::min(target[k], cur[k] + step[k]) : std::max(target[k], cur[k] - step[k]);
    }
    // Stops from existing contacts that oppose the proposed motion, until the proposal settles.
    const std::vector<Contact> contacts = contactsNow();
    std::vector<JointRef> entering;
    std::vector<double> proposal;
    if (contacts.empty()) {
      proposal = propose(robot, rs.breakAway, byDof, cur, next, stops, entering);  // no contact can oppose it
    } else {
      // The link poses at `cur`: after the first iteration the state's (the forward kinematics of cur, the
      // palm pose and the break-away state at the end of the last one).
      std::vector<std::vector<Transform>> firstPoses;
      if (result.iterations == 0) firstPoses = linkPoses(robot, rs.X_WP, cur, rs.breakAway);
      const auto& fromPoses = result.iterations == 0 ? firstPoses : rs.X_WL;
      for (int guard = 0; guard < 64; ++guard) {
        proposal = propose(robot, rs.breakAway, byDof, cur, next, stops, entering);
        BreakAwayState trial = rs.breakAway;
        enterBreakAway(robot, trial, entering, cur);
        const auto& toPoses = proposalKinematics.poses(rs.X_WP, proposal, trial);
        if (!stopOpposedLinks(world, state, robotIndex, contacts, fromPoses, toPoses, stops)) break;
      }
    }
    bool moves = false;
    for (std::size_t k = 0; k < n; ++k) moves |= proposal[k] != cur[k];
    if (!moves) {
      settled = true;
      break;
    }

    enterBreakAway(robot, rs.breakAway, entering, cur);
    apply(proposal);
    requireFinitePoses(world, state, moving, "DOF motion");
    bool touched = false;
    if (anyCollides()) {
      // Bisect on the DOF increments and stop the links that collided.
      std::vector<BodyPair> collided;
      auto applyT = [&](double t) {
        std::vector<double> v(n);
        for (std::size_t k = 0; k < n; ++k) v[k] = cur[k] + t * (proposal[k] - cur[k]);
        apply(v);
      };
      if (screen) bisectToContact(world, state, applyT, *screen, 0.0, 1.0, cs, &collided);
      else bisectToContact(world, state, applyT, pairs, 0.0, 1.0, cs, &collided);
      for (const auto& [a, b] : collided) {
        if (isRobotLink(a, robotIndex)) stopChainUpTo(robot, a.ref, stops);
        if (isRobotLink(b, robotIndex)) stopChainUpTo(robot, b.ref, stops);
      }
      touched = true;
    }
    // Break-away joints rejoin their DOF once it has come back past the value where they broke away.
    bool rejoined = false;
    for (std::size_t c = 0; c < robot.chains.size(); ++c)
      for (std::size_t jj = 0; jj < robot.chains[c].joints.size(); ++jj) {
        const Joint& j = robot.chains[c].joints[jj];
        JointBreakAway& ba = rs.breakAway[c][jj];
        if (ba.active && j.expr.dof >= 0 && j.expr.dof < static_cast<int>(n) &&
            rs.dofValues[j.expr.dof] <= ba.dofValue && proposal[j.expr.dof] < cur[j.expr.dof])
          ba.active = false, rejoined = true;
      }
    // The link poses follow the DOF values already (apply); only a rejoined joint moves them again.
    if (rejoined) {
      stateKinematics.update(rs);
      updateConnections(world, state);
    }
    if (settings.stopAtFirstContact && (touched || !contactsNow().empty())) {
      ++result.iterations;
      settled = true;
      break;
    }
  }
  result.contacts = contactsNow();
  const auto finalValues = rs.dofValues;
  bool anyShort = false;
  for (std::size_t k = 0; k < n; ++k) {
    result.dofStopped[k] = step[k] != 0 && std::abs(finalValues[k] - target[k]) > 1e-12;
    anyShort |= result.dofStopped[k];
  }
  result.outcome = anyShort ? MotionOutcome::Contact : MotionOutcome::Reached;
  // Ran out of iterations with DOFs still short of targets they could move toward: not settled.
  result.converged = settled || !anyShort;
  return result;
}

}  // namespace sg
