#pragma once
// One contact model's evaluation of a grasp (src/grasp/QUALITY.md): the model's per-contact records
// (ContactModel.h) for every contact between the graspable and a hand (QualitySettings::handContactsOnly),
// their wrenches on the object, and — built lazily, only when a measure or a view asks — the L1 and L∞ grasp
// wrench spaces. The measures themselves (ε, volume, σ_min, ...) come from the registry in QualityMeasure.h.
#include <memory>
#include <string>
#include <vector>

#include "contact/ContactModel.h"
#include "grasp/ContactWrenches.h"
#include "grasp/GraspQuality.h"

namespace sg {

// The contact models' settings (soft: neighbourhood, fit, patch with its nominal normal force (N); edges)
// plus how wrenches and spaces are formed.
struct QualitySettings : ContactModelSettings {
  double torqueLength_mm = 0;             // ρ; 0 = the object's max radius (GraspIt!)
  GwsSettings gws;
  bool gravity = false;                   // GraspIt!'s test term: + 0.5·ẑ_world on every L1 force
  double forceClosureTolerance = 1e-9;
  // Only contacts between the object and a robot body make the grasp (GraspIt!: the grasp of a hand;
  // the table an object stands on is not part of it). False: every contact on the object counts, e.g.
  // fixtures modelled as obstacles.
  bool handContactsOnly = true;
};

// A model's contact with its wrenches on the object (object frame, torques / ρ, one per friction edge).
struct ContactEvaluation : ModelContact {
  std::vector<Vec6> wrenches;
};

// A measure's value (QualityMeasure.h); `ok` false with a message when it could not be computed.
struct MeasureValue {
  std::string measure;                    // the registered name, e.g. "epsilon-l1"
  double value = 0;
  bool ok = false;
  std::string message;
};

struct GraspEvaluation {
  std::string contactModel;               // the registered model's name
  // The model's own results (e.g. SoftFingerResult: neighbourhood points, fits, patches), parallel to
  // `contacts`; views that know the type dynamic_cast to it.
  std::shared_ptr<const ContactModelResult> modelResult;
  std::vector<ContactEvaluation> contacts;
  std::vector<int> ignoredContacts;       // input contacts not part of the grasp (not on the graspable, or not by a hand)
  WrenchReference reference;              // object pose, CoG, ρ
  GwsSettings gws;                        // how the spaces are (or will be) built
  double forceClosureTolerance = 1e-9;
  // Built on demand by ensureWrenchSpace (the measures do it); `*Built` says whether they are.
  bool l1Built = false, lInfinityBuilt = false;
  GraspWrenchSpace l1, lInfinity;
  GraspQuality l1Quality, lInfinityQuality;
  std::vector<MeasureValue> measures;     // in the order they were computed

  // nullptr when the measure was not computed.
  const MeasureValue* measure(const std::string& name) const;
  // Per contact, its wrenches (the input of every wrench space).
  std::vector<std::vector<Vec6>> perContactWrenches() const;
};

// The grasp of graspable `graspableIndex` under `model`, from contacts (world frame). No wrench space is built
// yet. Throws sg::Error for an invalid graspable index or invalid settings; a grasp without contacts is not
// an error.
GraspEvaluation evaluateGrasp(const World& world, const WorldState& state, const std::vector<Contact>& contacts,
                              int graspableIndex, const ContactModel& model, const QualitySettings& settings = {},
                              ProgressSink* progress = nullptr);
// The same on the world's current state (world.state).
inline GraspEvaluation evaluateGrasp(const World& world, const std::vector<Contact>& contacts, int graspableIndex,
                                     const ContactModel& model, const QualitySettings& settings = {},
                                     ProgressSink* progress = nullptr) {
  return evaluateGrasp(world, world.state, contacts, graspableIndex, model, settings, progress);
}

// Builds the L1 or L∞ space and its quality if not built yet (idempotent).
void ensureWrenchSpace(GraspEvaluation& evaluation, GwsType type);

// Only ε of the L1 space from ready-made per-contact wrenches (for benchmarks and tools).
double l1Epsilon(const std::vector<std::vector<Vec6>>& perContactWrenches, const GwsSettings& settings = {});

}  // namespace sg
