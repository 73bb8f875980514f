#include "grasp/planner/FinalStage.h"

#include "core/Decompositions.h"
#include "core/Error.h"
#include "core/Math.h"
#include "core/NumberFormat.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace sg::planner {

void requireValidFinalStage(const FinalStageSettings& stage) {
  if (stage.refineSteps < 0 || stage.refineSteps > 100000)
    throw Error("final stage: refine steps must be in [0, 100000], got " + std::to_string(stage.refineSteps));
  if (stage.candidates < 1 || stage.candidates > 1000)
    throw Error("final stage: candidates must be in [1, 1000], got " + std::to_string(stage.candidates));
  if (stage.restarts < 0 || stage.restarts > 100000)
    throw Error("final stage: restarts must be in [0, 100000], got " + std::to_string(stage.restarts));
  if (stage.refineBest < 0 || stage.refineBest > 1000)
    throw Error("final stage: refine best must be in [0, 1000], got " + std::to_string(stage.refineBest));
  if (!(stage.movesPerIteration >= 0 && stage.movesPerIteration <= 1000))
    throw Error("final stage: moves per iteration must be in [0, 1000], got " + formatDouble(stage.movesPerIteration));
  if (!(stage.stepScale > 0 && stage.stepScale <= 1))
    throw Error("final stage: the step scale must be in (0, 1], got " + formatDouble(stage.stepScale));
}

namespace {

constexpr double kIllegalScore = std::numeric_limits<double>::infinity();

// A state's score: the auto-grasp quality energy (PLANNER.md §Energies) and, to order states of equal energy
// (no force closure, the same number of contacts), the contacts energy of the pre-grasp: nearer and better aimed
// probes first. Illegal (the hand collides): +∞.
struct Score {
  double energy = kIllegalScore, tieBreak = kIllegalScore;
  bool operator<(const Score& o) const { return energy != o.energy ? energy < o.energy : tieBreak < o.tieBreak; }
};

Score scoreOf(HandEvaluator& evaluator, const std::vector<double>& x) {
  if (!evaluator.place(x)) return {};
  Score s;
  s.tieBreak = evaluator.contactsEnergy();  // before closing: the placed hand
  s.energy = evaluator.autoGraspQualityEnergy();
  return s;
}

// A local move: every free variable v + stepScale · maxJump · N(0, 1), circular ones wrapped, others clamped.
std::vector<double> localMove(const std::vector<SearchVariable>& vars, const std::vector<double>& x, double stepScale,
                              Rng& rng) {
  std::vector<double> y = x;
  for (std::size_t i = 0; i < vars.size(); ++i) {
    const SearchVariable& v = vars[i];
    if (v.fixed) continue;
    double value = x[i] + stepScale * v.maxJump * rng.normal();
    if (v.circular) {
      const double span = v.max - v.min;
      value = v.min + std::fmod(std::fmod(value - v.min, span) + span, span);
    } else {
      value = std::clamp(value, v.min, v.max);
    }
    y[i] = value;
  }
  return y;
}

// x with its approach frame moved d_mm along its approach direction (its z axis; d < 0 backs off), in the
// variables of the state's space (PLANNER.md §Search state), clamped to their ranges.
std::vector<double> alongApproach(const HandSearchSpace& space, std::vector<double> x, double d_mm) {
  const Transform X_WA = space.approachFrame(x);
  const Vec3 z_R = space.X_WR.rotation().conjugate() * (X_WA.rotation() * Vec3::UnitZ());
  switch (space.position) {
    case PositionSpace::AxisAngle:
    case PositionSpace::Complete:
      for (int k = 0; k < 3; ++k) x[static_cast<std::size_t>(k)] += d_mm * z_R[k];
      break;
    case PositionSpace::Ellipsoid:  // the frame looks at the object: forward is a smaller distance
      x[3] -= d_mm;
      break;
    case PositionSpace::Approach:
      x[0] -= d_mm;
      break;
  }
  for (std::size_t i = 0; i < space.positionCount; ++i) {
    const SearchVariable& v = space.variables[i];
    if (!v.fixed && !v.circular) x[i] = std::clamp(x[i], v.min, v.max);
  }
  return x;
}

// x with its palm translated by t_W (world frame, mm), in the variables of the state's space, clamped to their
// ranges; nullopt for the spaces whose variables are not a translation (ellipsoid, approach).
std::optional<std::vector<double>> translated(const HandSearchSpace& space, std::vector<double> x, const Vec3& t_W) {
  if (space.position != PositionSpace::AxisAngle && space.position != PositionSpace::Complete) return std::nullopt;
  const Vec3 t_R = space.X_WR.rotation().conjugate() * t_W;
  for (int k = 0; k < 3; ++k) {
    const std::size_t i = static_cast<std::size_t>(k);
    const SearchVariable& v = space.variables[i];
    if (v.fixed) continue;
    x[i] = std::clamp(x[i] + t_R[k], v.min, v.max);
  }
  return x;
}

// x with its approach frame (so the palm) turned by the rotation q_W about the world point pivot_W, in the
// variables of the state's space; nullopt for the spaces whose variables are not a free pose (ellipsoid,
// approach), when a position variable is fixed, or when the result leaves a variable's range.
std::optional<std::vector<double>> rotatedAbout(const HandSearchSpace& space, std::vector<double> x, const Quat& q_W,
                                                const Vec3& pivot_W) {
  if (space.position != PositionSpace::AxisAngle && space.position != PositionSpace::Complete) return std::nullopt;
  for (std::size_t i = 0; i < space.positionCount; ++i)
    if (space.variables[i].fixed) return std::nullopt;
  const Transform turn = Transform::fromTranslation(pivot_W) * Transform::fromRotation(q_W) *
                         Transform::fromTranslation(-pivot_W);
  const Transform X_RA = space.X_WR.inverse() * (turn * space.approachFrame(x));
  const Vec3 t = X_RA.translation();
  for (int k = 0; k < 3; ++k) x[static_cast<std::size_t>(k)] = t[k];
  if (space.position == PositionSpace::AxisAngle) {  // as makeSearchSpace maps a start pose
    const Eigen::AngleAxisd aa(X_RA.rotation());
    Vec3 axis = aa.axis();
    double angle = aa.angle();
    if (angle > kPi) {
      angle = 2 * kPi - angle;
      axis = -axis;
    }
    if (angle < 1e-12) axis = Vec3::UnitZ();
    x[3] = std::acos(std::clamp(axis.z(), -1.0, 1.0));
    x[4] = std::atan2(axis.y(), axis.x());
    x[5] = angle;
  } else {
    Quat q = X_RA.rotation().normalized();
    const Quat old(x[3], x[4], x[5], x[6]);
    if (old.coeffs().dot(q.coeffs()) < 0) q.coeffs() = -q.coeffs();  // the same rotation, the nearer sign
    x[3] = q.w(), x[4] = q.x(), x[5] = q.y(), x[6] = q.z();
  }
  for (std::size_t i = 0; i < space.positionCount; ++i) {
    const SearchVariable& v = space.variables[i];
    if (x[i] < v.min || x[i] > v.max) return std::nullopt;
  }
  return x;
}

// Alignment (PLANNER.md §Final stage, "Alignment"): for palm axis k (x, y, z), the smallest world rotation that
// turns it onto the nearest axis (±) of the reference frame R (the object's axes); nullopt when it already lies
// within 1e-9 rad of one.
std::optional<Quat> alignmentRotation(const HandSearchSpace& space, const std::vector<double>& x, int k) {
  const Quat R_WR = space.X_WR.rotation();
  const Vec3 a_R = (R_WR.conjugate() * space.palmPose(x).rotation()) * Vec3::Unit(k);
  Eigen::Index j = 0;
  a_R.cwiseAbs().maxCoeff(&j);
  const Vec3 target_R = (a_R[j] < 0 ? -1.0 : 1.0) * Vec3::Unit(j);
  const Quat q_R = rotationBetween(a_R, target_R);
  if (q_R.angularDistance(Quat::Identity()) < 1e-9) return std::nullopt;
  return Quat(R_WR * q_R * R_WR.conjugate());
}

// A restart move (PLANNER.md §Final stage, "Restarts"): the force-closure state x translated by 1.1–2 times the
// list's distance rule (so that x does not crowd it out) along a random direction normal to the axis a of its
// contacts' normals when that is known (the pads or fingertips slide along the faces they press and keep their
// closing axis), else normal to its approach direction; in the state's space's variables. nullopt for the spaces
// whose variables are not a translation.
std::optional<std::vector<double>> restartMove(const HandSearchSpace& space, const std::vector<double>& x,
                                               const std::optional<Vec3>& normalAxis_W, double minDistance, Rng& rng) {
  const Vec3 normal_W = normalAxis_W ? *normalAxis_W : space.approachFrame(x).rotation() * Vec3::UnitZ();
  const double phi = 2 * kPi * rng.uniform();
  const double length_mm = minDistance * space.distanceScale_mm * (1.1 + 0.9 * rng.uniform());
  const Vec3 d_W = frameWithZ(normal_W.normalized()) * Vec3(std::cos(phi), std::sin(phi), 0);
  return translated(space, x, length_mm * d_W);
}

// Centring (PLANNER.md §Final stage): links at most this far from the object count as having just missed it,
// and a state gets at most this many centring moves.
constexpr double kCentringGap_mm = 10;
constexpr int kCentringMoves = 3;

// Back-off distances (mm) tried when a move's hand collides: most moves of a pre-grasp that touches the object
// push a finger or the palm into it, and a move backed off a little is legal and closes onto the object.
constexpr double kBackOff_mm[] = {2, 5, 10};

// The outcome of one proposed move of the stage.
enum class MoveResult { Illegal, Crowded, NotBetter, Taken };

}  // namespace

FinalStageOutcome runFinalStage(const World& world, const HandSearchSpace& space, const EnergySettings& stageEnergy,
                                const std::vector<BestEntry>& kept, const FinalStageSettings& settings,
                                std::uint64_t seed, std::size_t keep, double minDistance,
                                const std::function<bool()>& stop, ProgressSink& progress) {
  requireValidFinalStage(settings);
  if (stageEnergy.kind != EnergyKind::AutoGraspQuality)
    throw Error("final stage: the stage scores with the autograsp-quality energy");
  const auto start = std::chrono::steady_clock::now();
  FinalStageOutcome out;
  out.ran = true;
  HandEvaluator evaluator(world, world.state, space, stageEnergy);
  const Robot& hand = world.robots.at(static_cast<std::size_t>(space.robot));
  // A one-DOF gripper cannot shape its fingers to the object: its pads lie flat on a face only when the palm
  // is aligned with it (PLANNER.md §Final stage, "Alignment").
  const bool alignable = hand.dofCount() == 1;
  std::vector<Score> scores;
  // Per state: the centring shift of its closed hand (not force closure only), or nullopt.
  std::vector<std::optional<Vec3>> shifts;
  // Per state: the centroid of its closed grasp's contacts on the object (the alignment's pivot) and the axis of
  // their normals (the sliding moves'), or nullopt.
  std::vector<std::optional<Vec3>> pivots, axes;
  auto shiftOf = [&](const Score& score) {
    return std::isfinite(score.energy) && score.energy > 0 ? evaluator.centringShift(kCentringGap_mm)
                                                           : std::optional<Vec3>{};
  };
  // The evaluator holds the hand the last scoring closed: remembered with the state that scored it.
  auto rememberClosed = [&](StagedState& s) {
    s.closed = evaluator.lastScoreClosed();
    const RobotState& rs = evaluator.scratch().robots[static_cast<std::size_t>(space.robot)];
    s.X_WP_closed = rs.X_WP;
    s.closedDofs = rs.dofValues;
    s.closedBreakAway = rs.breakAway;
  };
  // The scored moves allowed (PLANNER.md §Final stage, "Budget").
  if (settings.movesPerIteration > 0)
    out.moveBudget = std::max(static_cast<long>(keep),
                              static_cast<long>(settings.movesPerIteration * static_cast<double>(settings.searchIterations)));
  // Candidates are scored in the search's order. Once `keep` of them are force closure the list is full of
  // force-closure grasps, and the rest are not scored (nor closed) when the scorings so far have reached the move
  // budget: the search's order (its energy) does not rank force-closure grasps by ε, so the first `keep` of them
  // are not the list's best (PLANNER.md §Final stage, "Score"); within the budget every candidate is scored.
  std::size_t forceClosure = 0;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (forceClosure >= keep && out.moveBudget >= 0 && static_cast<long>(i) >= out.moveBudget) {
      out.unscored = static_cast<long>(kept.size() - i);
      break;
    }
    StagedState s;
    s.state = kept[i];
    s.source = i;
    const Score score = scoreOf(evaluator, kept[i].x);
    ++out.evaluations;
    s.startEnergy = s.state.energy = score.energy;
    s.startTieBreak = s.tieBreak = score.tieBreak;
    if (std::isfinite(score.energy)) rememberClosed(s);
    if (score.energy <= 0) ++forceClosure;
    out.states.push_back(std::move(s));
    scores.push_back(score);
    shifts.push_back(shiftOf(score));  // the evaluator holds this state's closed hand
    pivots.push_back(std::isfinite(score.energy) ? evaluator.lastContactCentroid_W() : std::nullopt);
    axes.push_back(std::isfinite(score.energy) ? evaluator.lastContactNormalAxis_W() : std::nullopt);
  }
  // The best `keep` by score (ties: the search's order) go on; the others are dropped before refining.
  {
    std::vector<std::size_t> rank(out.states.size());
    for (std::size_t i = 0; i < rank.size(); ++i) rank[i] = i;
    std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
    rank.resize(std::min(rank.size(), keep));
    std::sort(rank.begin(), rank.end());  // back to the search's order
    std::vector<StagedState> states;
    std::vector<Score> keptScores;
    std::vector<std::optional<Vec3>> keptShifts, keptPivots, keptAxes;
    for (std::size_t i : rank) {
      states.push_back(out.states[i]);
      keptScores.push_back(scores[i]);
      keptShifts.push_back(shifts[i]);
      keptPivots.push_back(pivots[i]);
      keptAxes.push_back(axes[i]);
    }
    out.states = std::move(states);
    scores = std::move(keptScores);
    shifts = std::move(keptShifts);
    pivots = std::move(keptPivots);
    axes = std::move(keptAxes);
  }
  // One proposed move y of state i: with `backOff`, a colliding y is backed off along the approach direction
  // before it is given up; a legal one closer than minDistance to another kept state is refused (the list
  // keeps its distance rule); otherwise it is scored and taken only when it scores strictly better (so no state
  // gets worse).
  long moves = 0;  // scored moves so far
  auto spent = [&] { return out.moveBudget >= 0 && moves >= out.moveBudget; };
  auto propose = [&](std::size_t i, std::vector<double> y, bool backOff) {
    bool legal = evaluator.place(y);
    for (std::size_t b = 0; backOff && b < std::size(kBackOff_mm) && !legal; ++b) {
      ++out.illegal;
      const std::vector<double> backed = alongApproach(space, y, -kBackOff_mm[b]);
      legal = evaluator.place(backed);
      if (legal) y = backed;
    }
    if (!legal) {
      ++out.illegal;
      return MoveResult::Illegal;
    }
    for (std::size_t j = 0; j < out.states.size(); ++j)
      if (j != i && space.distance(y, out.states[j].state.x) < minDistance) {
        ++out.crowded;
        return MoveResult::Crowded;
      }
    const Score score = scoreOf(evaluator, y);
    ++out.evaluations;
    ++moves;
    if (!(score < scores[i])) return MoveResult::NotBetter;
    StagedState& s = out.states[i];
    scores[i] = score;
    s.state.x = std::move(y);
    s.state.energy = score.energy;
    s.tieBreak = score.tieBreak;
    rememberClosed(s);
    ++out.improved;
    shifts[i] = shiftOf(score);
    pivots[i] = evaluator.lastContactCentroid_W();
    axes[i] = evaluator.lastContactNormalAxis_W();
    return MoveResult::Taken;
  };
  // Which states are refined, in which order: first every state that is not force closure (list order: the
  // search's best first), each until it is force closure; then the `refineBest` force-closure states of the largest
  // ε (smallest energy, then list order), each for all its moves. Each state has its own random numbers: the
  // result depends on the seed and the list only.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < out.states.size(); ++i)
    if (std::isfinite(scores[i].energy) && scores[i].energy > 0) order.push_back(i);
  const std::size_t notForceClosure = order.size();
  std::vector<std::size_t> closed;
  for (std::size_t i = 0; i < out.states.size(); ++i)
    if (scores[i].energy <= 0) closed.push_back(i);
  std::stable_sort(closed.begin(), closed.end(), [&](std::size_t a, std::size_t b) { return scores[a] < scores[b]; });
  closed.resize(std::min(closed.size(), static_cast<std::size_t>(settings.refineBest)));
  order.insert(order.end(), closed.begin(), closed.end());
  bool stopped = false;
  // Asked before every move: cancel, the time limit, or the budget spent.
  auto stopNow = [&] {
    if (spent()) out.budgetSpent = true;
    return out.budgetSpent || (stop && stop());
  };
  for (std::size_t k = 0; k < order.size() && !stopped; ++k) {
    const std::size_t i = order[k];
    const bool untilClosed = k < notForceClosure;
    Rng rng(chainSeed(seed, 5000 + static_cast<int>(out.states[i].source)));
    // Deterministic moves first (so the random numbers below are the same with or without them), only for a
    // state that is not force closure and only with refineSteps > 0. Alignment: each palm axis turned onto the
    // object's nearest axis about the grasp's contacts (one-DOF grippers).
    for (int axis = 0; axis < 3 && alignable && settings.refineSteps > 0 && untilClosed && scores[i].energy > 0;
         ++axis) {
      if (!pivots[i]) break;
      if (stopNow()) {
        stopped = true;
        break;
      }
      const std::optional<Quat> turn = alignmentRotation(space, out.states[i].state.x, axis);
      if (!turn) continue;
      const std::optional<std::vector<double>> y = rotatedAbout(space, out.states[i].state.x, *turn, *pivots[i]);
      if (!y) continue;
      const MoveResult r = propose(i, *y, true);
      if (r == MoveResult::NotBetter || r == MoveResult::Taken) ++out.alignmentMoves;
      if (r == MoveResult::Taken) ++out.aligned;
    }
    // Centring: a closing that one link stopped while another missed the object by a little (a coupled DOF
    // such as a parallel jaw's, the palm off the object's middle) is balanced by translating the palm.
    for (int c = 0; c < kCentringMoves && !stopped && settings.refineSteps > 0 && untilClosed && shifts[i] &&
                    scores[i].energy > 0;
         ++c) {
      if (stopNow()) {
        stopped = true;
        break;
      }
      const std::optional<std::vector<double>> y = translated(space, out.states[i].state.x, *shifts[i]);
      if (!y) break;
      const MoveResult r = propose(i, *y, false);
      if (r == MoveResult::NotBetter || r == MoveResult::Taken) ++out.centringMoves;
      if (r != MoveResult::Taken) break;
      ++out.centred;
    }
    // Sliding: pads that overlap a face only near its edge or corner touch at one or two points; the palm is
    // translated across the contacts' normal axis a toward the object's centre of gravity (the whole offset of
    // the contacts' centroid, then half of it) so that they cover more of the face (one-DOF grippers).
    for (double fraction : {1.0, 0.5}) {
      if (stopped || !alignable || settings.refineSteps <= 0 || !untilClosed || !(scores[i].energy > 0)) break;
      if (!pivots[i] || !axes[i]) break;
      if (stopNow()) {
        stopped = true;
        break;
      }
      const Vec3 offset_W = space.X_WR.translation() - *pivots[i];
      const Vec3 slide_W = fraction * (offset_W - axes[i]->dot(offset_W) * *axes[i]);
      if (slide_W.norm() < 0.1) break;  // already centred across the axis (the contact threshold's half)
      const std::optional<std::vector<double>> y = translated(space, out.states[i].state.x, slide_W);
      if (!y) break;
      const MoveResult r = propose(i, *y, true);
      if (r == MoveResult::NotBetter || r == MoveResult::Taken) ++out.slidingMoves;
      if (r == MoveResult::Taken) {
        ++out.slid;
        break;
      }
    }
    if (stopped) break;
    for (int step = 0; step < settings.refineSteps; ++step) {
      if (untilClosed && scores[i].energy <= 0) break;
      if (stopNow()) {
        stopped = true;
        break;
      }
      propose(i, localMove(space.variables, out.states[i].state.x, settings.stepScale, rng), true);
    }
    progress.report(static_cast<double>(k + 1) / static_cast<double>(order.size()),
                    "final stage: refining grasp " + std::to_string(k + 1) + " of " + std::to_string(order.size()));
  }
  // Restarts: a state that is still not force closure is replaced by a neighbour of a force-closure state beyond
  // the list's distance rule when that scores better (a distinct force-closure grasp). Each state draws from its own
  // numbers, and its sources cycle through the force-closure states (best first) from its own index.
  for (std::size_t i = 0; i < out.states.size() && !stopped && settings.restarts > 0 && settings.refineSteps > 0; ++i) {
    if (scores[i].energy <= 0) continue;
    Rng rng(chainSeed(seed, 6000 + static_cast<int>(out.states[i].source)));
    for (int a = 0; a < settings.restarts && !(scores[i].energy <= 0); ++a) {
      std::vector<std::size_t> sources;
      for (std::size_t j = 0; j < out.states.size(); ++j)
        if (scores[j].energy <= 0) sources.push_back(j);
      if (sources.empty()) break;
      std::stable_sort(sources.begin(), sources.end(), [&](std::size_t p, std::size_t q) { return scores[p] < scores[q]; });
      if (stopNow()) {
        stopped = true;
        break;
      }
      const std::size_t j = sources[(i + static_cast<std::size_t>(a)) % sources.size()];
      const std::optional<std::vector<double>> y =
          restartMove(space, out.states[j].state.x, axes[j], minDistance, rng);
      if (!y) break;
      const MoveResult r = propose(i, *y, true);
      if (r == MoveResult::NotBetter || r == MoveResult::Taken) ++out.restartMoves;
      if (r == MoveResult::Taken) ++out.restarted;
    }
  }
  std::stable_sort(out.states.begin(), out.states.end(), [](const StagedState& a, const StagedState& b) {
    if (a.state.energy != b.state.energy) return a.state.energy < b.state.energy;
    if (a.tieBreak != b.tieBreak) return a.tieBreak < b.tieBreak;
    return a.source < b.source;
  });
  out.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace sg::planner
