#pragma once
// The planner's final stage (PLANNER.md §Final stage): every state the search kept is closed with auto-grasp and
// scored with the auto-grasp quality energy (force closure first, ranked by ε L1 from support functions), then
// refined by local moves that never make it worse, on the calling thread in list order (the same on any thread
// count). The list it returns is ordered by that score.
#include <cstdint>
#include <functional>
#include <vector>

#include "grasp/planner/HandSearch.h"

namespace sg::planner {

struct FinalStageSettings {
  bool enabled = true;
  // The search keeps this many states (pairwise apart by the list's distance rule) for the stage, which scores
  // them all and keeps the best `keep` of them (the list's size, 20).
  int candidates = 120;
  int refineSteps = 8;         // local moves tried per refined state (0: close and score only); ≤ 100 000
  int refineBest = 3;          // force-closure states refined for a larger ε (the best ones); every state that
                               // is not force closure is refined until it is (or the moves run out)
  double stepScale = 0.05;     // a move's standard deviation as a fraction of each variable's max jump, (0, 1]
  // Restart moves per state still not force closure after its refining: a force-closure state of the list
  // slid along the faces it presses by 1.1–2 times the list's distance rule, taken when it is better
  // (PLANNER.md §Final stage, "Restarts"); only with refineSteps > 0. 0: none. In [0, 100 000].
  int restarts = 8;
  // Scored moves over all states (every kind: alignment, centring, random) per search iteration, at least
  // `keep` (the list's size) in all: a short search is not followed by a stage many times its length
  // (PLANNER.md §Final stage, "Budget"); 0: no limit. In [0, 1000].
  double movesPerIteration = 0.1;
  long searchIterations = 0;   // the search's iterations the budget is taken from (planGrasps sets it)
};

// sg::Error naming the bad setting.
void requireValidFinalStage(const FinalStageSettings& stage);

// One state of the stage's list.
struct StagedState {
  BestEntry state;             // the refined state; state.energy = its stage energy
  std::size_t source = 0;      // index of the search's kept state it started from
  double startEnergy = 0;      // the stage energy of that state (before refining)
  double startTieBreak = 0, tieBreak = 0;  // the contacts energy of the pre-grasp (orders states of equal energy)
  // The hand that scoring `state` closed (auto-grasp from state.x: palm pose and DOF values), so that the list
  // need not close it again; closed = false when the scoring did not close it (the closing could not reach the
  // object, PLANNER.md §Energies).
  bool closed = false;
  Transform X_WP_closed;
  std::vector<double> closedDofs;
  // The joints that broke away while closing (their own values): part of the closed hand, without them the
  // link poses of X_WP_closed and closedDofs are not the hand that was scored (PLANNER.md §Final stage, "List").
  BreakAwayState closedBreakAway;
};

struct FinalStageOutcome {
  bool ran = false;
  std::vector<StagedState> states;  // ascending (energy, tie break, source)
  long evaluations = 0;        // legal states scored (closed unless the closing cannot reach the object)
  long illegal = 0;            // placements whose hand collides (a move and each of its back-offs)
  long crowded = 0;            // moves closer than the list's distance rule to another kept state
  long improved = 0;           // accepted moves (centring moves included)
  long centringMoves = 0;      // centring moves scored (PLANNER.md §Final stage, "Centring")
  long centred = 0;            // of them accepted
  long alignmentMoves = 0;     // alignment moves scored (PLANNER.md §Final stage, "Alignment")
  long aligned = 0;            // of them accepted
  long slidingMoves = 0;       // sliding moves scored (PLANNER.md §Final stage, "Alignment")
  long slid = 0;               // of them accepted
  long restartMoves = 0;       // restart moves scored (PLANNER.md §Final stage, "Restarts")
  long restarted = 0;          // of them accepted
  long unscored = 0;           // candidates not scored: `keep` force-closure states were found before them
  long moveBudget = -1;        // the scored moves allowed (< 0: no limit)
  bool budgetSpent = false;    // refining stopped because the budget was spent
  double elapsed_s = 0;
};

// Runs the stage over `kept` (the search's candidates, in its order) and returns the best `keep` of them. `stageEnergy` must be the auto-grasp quality energy's settings;
// `minDistance` is the list's distance rule (no move comes closer to another kept state); `stop` is asked before
// every move (cancel, time limit): the states refined so far are kept, the others scored only.
FinalStageOutcome runFinalStage(const World& world, const HandSearchSpace& space, const EnergySettings& stageEnergy,
                                const std::vector<BestEntry>& kept, const FinalStageSettings& settings,
                                std::uint64_t seed, std::size_t keep, double minDistance,
                                const std::function<bool()>& stop, ProgressSink& progress);

}  // namespace sg::planner
