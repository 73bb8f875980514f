#pragma once
// One contact model's evaluation of a grasp (src/grasp/QUALITY.md): the model's per-contact records
// (ContactModel.h) for every contact between the graspable and a hand (QualitySettings::handContactsOnly),
// their wrenches on the object, and — computed lazily, only when a measure or a view asks — ε of the L1, L∞
// and exact-cone sets from support functions (SupportEpsilon.h, no hull) and the Qhull hulls of the L1 and L∞
// grasp wrench spaces (volume, GWS projection). The measures themselves (ε, volume, σ_min, ...) come from the
// registry in QualityMeasure.h.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "contact/ContactModel.h"
#include "grasp/ContactWrenches.h"
#include "grasp/GraspQuality.h"
#include "grasp/SupportEpsilon.h"

namespace sg {

// The contact models' settings (soft: neighbourhood, fit, patch with its nominal normal force (N); edges)
// plus how wrenches and spaces are formed.
struct QualitySettings : ContactModelSettings {
  double torqueLength_mm = 0;             // ρ; 0 = the object's max radius (GraspIt!)
  GwsSettings gws;
  bool gravity = false;                   // GraspIt!'s test term: + 0.5·ẑ_world on every L1 force
  double forceClosureTolerance = 1e-9;
  // Exact-cone ε (measure "epsilon-exact"): smooth sets converge more slowly than polytopes, so a looser gap
  // and a budget of support queries keep it interactive; a run that does not reach the gap reports its
  // certified bounds (value = lower bound). The L1 / L∞ ε use SupportEpsilonSettings' defaults (gap 1e-9).
  double exactConeRelativeGap = 1e-6;
  int exactConeMaxIterations = 400;
  // Only contacts between the object and a robot body make the grasp (GraspIt!: the grasp of a hand;
  // the table an object stands on is not part of it). False: every contact on the object counts, e.g.
  // fixtures modelled as obstacles.
  bool handContactsOnly = true;
};

// A model's contact with its wrenches on the object (object frame, torques / ρ, one per friction edge).
struct ContactEvaluation : ModelContact {
  std::vector<Vec6> wrenches;
};

// Certified bounds of a measure computed iteratively (the support-function ε): lower ≤ true value ≤ upper.
struct MeasureBounds {
  double lower = 0, upper = 0;
  int iterations = 0;                     // support-function queries
  bool converged = false;                 // the gap is within the requested relative gap
  std::string status;                     // SupportEpsilonStatus as text ("converged", ...)
  Vec6 weakestDirection = Vec6::Zero();   // unit, object frame, [f; τ/ρ]: the direction resisted least
  double gap() const { return upper - lower; }
};

// A measure's value (QualityMeasure.h); `ok` false with a message when it could not be computed.
struct MeasureValue {
  std::string measure;                    // the registered name, e.g. "epsilon-l1"
  double value = 0;
  bool ok = false;
  std::string message;
  std::optional<MeasureBounds> bounds;    // iterative measures (the ε's): certified lower / upper bounds
};

// The sets whose ε is computed from support functions (GraspEvaluation::support*).
enum class EpsilonSet {
  L1,          // conv(all linearised edge wrenches): GraspIt!'s ε
  LInfinity,   // ⊕ conv({0} ∪ Wᵢ), never formed: h = Σ max(0, ·)
  ExactL1      // conv(the exact circular cones / elliptic soft-finger limit surfaces)
};

// One warm start per linearised set (SupportEpsilon.h, QUALITY.md §Warm start), kept by a caller that analyses
// nearby states one after another (the application while the hand is dragged) and lent to analyzeGrasp
// (AnalysisRequest). The exact cones are solved cold: warm, they were slower (QUALITY.md §Warm start).
struct EpsilonWarmStarts {
  SupportWarmStart l1, lInfinity;
  void clear() { l1.clear(); lInfinity.clear(); }
};

struct GraspEvaluation {
  std::string contactModel;               // the registered model's name
  // The model's own results (e.g. SoftFingerResult: neighbourhood points, fits, patches), parallel to
  // `contacts`; views render its describeContact / describe trees (contact/ContactModel.h).
  std::shared_ptr<const ContactModelResult> modelResult;
  std::vector<ContactEvaluation> contacts;
  std::vector<int> ignoredContacts;       // input contacts not part of the grasp (not on the graspable, or not by a hand)
  WrenchReference reference;              // object pose, CoG, ρ
  GwsSettings gws;                        // how the spaces are (or will be) built
  double forceClosureTolerance = 1e-9;
  double exactConeRelativeGap = 1e-6;     // QualitySettings'
  int exactConeMaxIterations = 400;
  // ε from support functions, computed on demand by ensureSupportEpsilon (the ε measures do it).
  std::optional<SupportEpsilon> l1Support, lInfinitySupport, exactSupport;
  // Lent while analyzeGrasp computes the primary model's measures (AnalysisRequest::warmStart), else null:
  // ensureSupportEpsilon starts each solve from the polytope kept there.
  EpsilonWarmStarts* warmStart = nullptr;
  // Qhull hulls, built on demand by ensureWrenchSpace (volume measures, the GWS projection); `*Built` says
  // whether they are. ε never needs them.
  bool l1Built = false, lInfinityBuilt = false;
  GraspWrenchSpace l1, lInfinity;
  GraspQuality l1Quality, lInfinityQuality;
  std::vector<MeasureValue> measures;     // in the order they were computed

  // nullptr when the measure was not computed.
  const MeasureValue* measure(const std::string& name) const;
  // Per contact, its wrenches (the input of every wrench space).
  std::vector<std::vector<Vec6>> perContactWrenches() const;
  // Per contact, its exact friction set (WrenchSupport.h), same frame and tangents as the wrenches.
  std::vector<ExactContactCone> exactCones() const;
  // Force closure by the L1 ε: from the support ε when computed, else from the L1 hull when built, else false.
  bool forceClosure() const;
};

// The grasp of graspable `graspableIndex` under `model`, from contacts (world frame). No wrench space is built
// yet. Throws sg::Error for an invalid graspable index or invalid settings; a grasp without contacts is not
// an error. `rawContacts`: the raw points findAllContacts kept for `contacts` (ContactModelInput::rawContacts),
// which spare the soft models a second query per pair; null: they query.
GraspEvaluation evaluateGrasp(const World& world, const WorldState& state, const std::vector<Contact>& contacts,
                              int graspableIndex, const ContactModel& model, const QualitySettings& settings = {},
                              ProgressSink* progress = nullptr,
                              const std::vector<RawPairContacts>* rawContacts = nullptr);
// The same on the world's current state (world.state).
inline GraspEvaluation evaluateGrasp(const World& world, const std::vector<Contact>& contacts, int graspableIndex,
                                     const ContactModel& model, const QualitySettings& settings = {},
                                     ProgressSink* progress = nullptr) {
  return evaluateGrasp(world, world.state, contacts, graspableIndex, model, settings, progress);
}

// Builds the L1 or L∞ space and its quality if not built yet (idempotent).
void ensureWrenchSpace(GraspEvaluation& evaluation, GwsType type);

// Computes ε of the set from support functions if not computed yet (idempotent); no hull is built.
const SupportEpsilon& ensureSupportEpsilon(GraspEvaluation& evaluation, EpsilonSet set);

// Only ε of the L1 space from ready-made per-contact wrenches (for benchmarks and tools).
double l1Epsilon(const std::vector<std::vector<Vec6>>& perContactWrenches, const GwsSettings& settings = {});

}  // namespace sg
