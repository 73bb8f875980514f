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
  int candidates = 60;
  int refineSteps = 8;         // local moves tried per refined state (0: close and score only); ≤ 100 000
  int refineBest = 3;          // force-closure states refined for a larger ε (the best ones); every state that
                               // is not force closure is refined until it is (or the moves run out)
  double stepScale = 0.05;     // a move's standard deviation as a fraction of each variable's max jump, (0, 1]
};

// sg::Error naming the bad setting.
void requireValidFinalStage(const FinalStageSettings& stage);

// One state of the stage's list.
struct StagedState {
  BestEntry state;             // the refined state; state.energy = its stage energy
  std::size_t source = 0;      // index of the search's kept state it started from
  double startEnergy = 0;      // the stage energy of that state (before refining)
  double startTieBreak = 0, tieBreak = 0;  // the contacts energy of the pre-grasp (orders states of equal energy)
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
