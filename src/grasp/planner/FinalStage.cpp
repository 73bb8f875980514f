#include "grasp/planner/FinalStage.h"

#include "core/Error.h"
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
  if (stage.refineBest < 0 || stage.refineBest > 1000)
    throw Error("final stage: refine best must be in [0, 1000], got " + std::to_string(stage.refineBest));
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

// Centring (PLANNER.md §Final stage): links at most this far from the object count as having just missed it,
// and a state gets at most this many centring moves.
constexpr double kCentringGap_mm = 10;
constexpr int kCentringMoves = 3;

// Back-off distances (mm) tried when a move's hand collides: most moves of a pre-grasp that touches the object
// push a finger or the palm into it, and a move backed off a little is legal and closes onto the object.
constexpr double kBackOff_mm[] = {2, 5, 10};

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
  std::vector<Score> scores;
  // Per state: the centring shift of its closed hand (not force closure only), or nullopt.
  std::vector<std::optional<Vec3>> shifts;
  auto shiftOf = [&](const Score& score) {
    return std::isfinite(score.energy) && score.energy > 0 ? evaluator.centringShift(kCentringGap_mm)
                                                           : std::optional<Vec3>{};
  };
  for (std::size_t i = 0; i < kept.size(); ++i) {
    StagedState s;
    s.state = kept[i];
    s.source = i;
    const Score score = scoreOf(evaluator, kept[i].x);
    ++out.evaluations;
    s.startEnergy = s.state.energy = score.energy;
    s.startTieBreak = s.tieBreak = score.tieBreak;
    out.states.push_back(std::move(s));
    scores.push_back(score);
    shifts.push_back(shiftOf(score));  // the evaluator holds this state's closed hand
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
    std::vector<std::optional<Vec3>> keptShifts;
    for (std::size_t i : rank) {
      states.push_back(out.states[i]);
      keptScores.push_back(scores[i]);
      keptShifts.push_back(shifts[i]);
    }
    out.states = std::move(states);
    scores = std::move(keptScores);
    shifts = std::move(keptShifts);
  }
  // Which states are refined, in which order: first every state that is not force closure (list order: the
  // search's best first), each until it is force closure; then the `refineBest` force-closure states of the largest
  // ε (smallest energy, then list order), each for all its moves. Each state has its own random numbers: the
  // result depends on the seed and the list only. A move is taken only when it scores strictly better (so no state
  // gets worse) and stays at least minDistance from every other kept state (so the list keeps its distance rule).
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
  for (std::size_t k = 0; k < order.size() && !stopped; ++k) {
    const std::size_t i = order[k];
    StagedState& s = out.states[i];
    const bool untilClosed = k < notForceClosure;
    Rng rng(chainSeed(seed, 5000 + static_cast<int>(s.source)));
    // Centring moves first: a closing that one link stopped while another missed the object by a little (a
    // coupled DOF such as a parallel jaw's, the palm off the object's middle) is balanced by translating the
    // palm; deterministic, so the random numbers below are the same with or without them.
    for (int c = 0; c < kCentringMoves && settings.refineSteps > 0 && untilClosed && shifts[i] && scores[i].energy > 0;
         ++c) {
      if (stop && stop()) {
        stopped = true;
        break;
      }
      const std::optional<std::vector<double>> y = translated(space, s.state.x, *shifts[i]);
      if (!y) break;
      if (!evaluator.place(*y)) {
        ++out.illegal;
        break;
      }
      bool crowded = false;
      for (std::size_t j = 0; j < out.states.size() && !crowded; ++j)
        crowded = j != i && space.distance(*y, out.states[j].state.x) < minDistance;
      if (crowded) {
        ++out.crowded;
        break;
      }
      const Score score = scoreOf(evaluator, *y);
      ++out.evaluations;
      ++out.centringMoves;
      if (!(score < scores[i])) break;
      scores[i] = score;
      s.state.x = *y;
      s.state.energy = score.energy;
      s.tieBreak = score.tieBreak;
      ++out.improved;
      ++out.centred;
      shifts[i] = shiftOf(score);
    }
    if (stopped) break;
    for (int step = 0; step < settings.refineSteps; ++step) {
      if (untilClosed && scores[i].energy <= 0) break;
      if (stop && stop()) {
        stopped = true;
        break;
      }
      std::vector<double> y = localMove(space.variables, s.state.x, settings.stepScale, rng);
      bool legal = evaluator.place(y);
      // Legality-aware: a colliding move is backed off along the approach direction before it is given up.
      for (std::size_t b = 0; b < std::size(kBackOff_mm) && !legal; ++b) {
        ++out.illegal;
        const std::vector<double> backed = alongApproach(space, y, -kBackOff_mm[b]);
        legal = evaluator.place(backed);
        if (legal) y = backed;
      }
      if (!legal) {
        ++out.illegal;
        continue;
      }
      bool crowded = false;
      for (std::size_t j = 0; j < out.states.size() && !crowded; ++j)
        crowded = j != i && space.distance(y, out.states[j].state.x) < minDistance;
      if (crowded) {
        ++out.crowded;
        continue;
      }
      const Score score = scoreOf(evaluator, y);
      ++out.evaluations;
      if (!(score < scores[i])) continue;
      scores[i] = score;
      s.state.x = y;
      s.state.energy = score.energy;
      s.tieBreak = score.tieBreak;
      ++out.improved;
    }
    progress.report(static_cast<double>(k + 1) / static_cast<double>(order.size()),
                    "final stage: refining grasp " + std::to_string(k + 1) + " of " + std::to_string(order.size()));
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
