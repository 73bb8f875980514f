#pragma once
// The one analysis call the application, the CLI and screenshots share (QUALITY.md §Analysis): optionally move
// the hand (HandMotion.h), find every contact in one canonical order, choose the graspable, evaluate its grasp
// under each requested contact model (a separate GraspEvaluation per model, each with the model's full
// intermediate data) and compute the requested measures. Plain data in, plain data out; no Qt.
#include <optional>
#include <string>
#include <vector>

#include "contact/CollisionSettings.h"
#include "core/Progress.h"
#include "grasp/HandMotion.h"
#include "grasp/QualityMeasure.h"

namespace sg {

class ContactCache;  // contact/ContactCache.h

// Which body pairs the analysis looks for contacts on.
enum class ContactScope {
  World,  // every allowed pair: the contacts the application draws (a mug on a table adds dozens)
  Grasp   // only pairs whose contacts can belong to a grasp: a graspable (the requested one, when named) and a
          // hand body (any body, with QualitySettings::handContactsOnly off). Same grasp, same measures, fewer
          // queries: batch evaluation and planners.
};

struct AnalysisRequest {
  int robot = 0;                          // the hand moved by `motion` (ignored without motion)
  HandMotionRequest motion;               // its collision settings are replaced by `collision`
  std::optional<int> graspable;           // nullopt: chooseGraspable's rule
  CollisionSettings collision;            // contact threshold (mm), duplicate radius, switched-off bodies/pairs
  QualitySettings quality;                // every model's settings, wrench and space settings
  std::vector<std::string> contactModels = {"soft-finger"};  // registered names; the first is the primary one
  std::vector<std::string> measures = qualityMeasureNames();  // computed for every model
  ContactScope contactScope = ContactScope::World;
  // Set: these contacts (in the canonical order, orderContacts) instead of a search, e.g. the model comparison
  // on the contacts the application shows; `graspable` must then be set.
  std::optional<std::vector<Contact>> contacts;
  // A model that throws sg::Error gives an empty evaluation and its message in AnalysisResult::modelErrors
  // instead of failing the whole analysis (the comparison shows the others).
  bool keepFailedModels = false;
  // Optional, owned by the caller and kept between calls: the primary model's ε solves start from the polytopes
  // the previous call left (QUALITY.md §Warm start; same values and certified bounds as a cold solve). One
  // caller thread at a time.
  EpsilonWarmStarts* warmStart = nullptr;
  // Optional, owned by the caller and kept between calls: pairs whose bodies, geometry and settings did not
  // change since the last call reuse their contacts (contact/ContactCache.h; bit-identical). One caller thread
  // at a time.
  ContactCache* contactCache = nullptr;
};

struct AnalysisResult {
  HandMotionReport motion;
  // Every contact of the world (of the grasp's pairs with ContactScope::Grasp): the hand's contacts (a robot
  // body on either side) first, each group in findAllContacts order. ContactEvaluation::sourceContacts index
  // this list.
  std::vector<Contact> contacts;
  int graspable = -1;                     // -1: the world has no graspable body (no evaluations)
  std::vector<GraspEvaluation> evaluations;  // one per requested model, in request order
  std::vector<std::string> modelErrors;      // parallel to evaluations: "" or why the model failed

  const GraspEvaluation* primary() const { return evaluations.empty() ? nullptr : &evaluations.front(); }
  const GraspEvaluation* evaluation(const std::string& model) const;
};

// True when a robot body (a hand) is on either side of the contact.
bool isHandContact(const Contact& contact);

// The canonical order: hand contacts first, each group in the given order.
void orderContacts(std::vector<Contact>& contacts);

// The graspable whose grasp is evaluated when none is named: the first graspable a robot touches in
// `contacts`, else graspable 0; -1 when the world has none.
int chooseGraspable(const World& world, const std::vector<Contact>& contacts);

// Contacts, graspable and evaluations of the world in `state`. Progress: the contact search to 0.1, then each
// model an equal slice (its evaluation, then its measures), never backwards. sg::Error for an unknown model or measure, an
// invalid graspable index or invalid settings; Cancelled when the progress sink asks for it. Reads nothing
// but `world` and `state`: threads may analyse different states of one const World at once.
AnalysisResult analyzeGrasp(const World& world, const WorldState& state, const AnalysisRequest& request,
                            ProgressSink& progress);
inline AnalysisResult analyzeGrasp(const World& world, const AnalysisRequest& request, ProgressSink& progress) {
  return analyzeGrasp(world, world.state, request, progress);  // the world's current state
}

// moveHand on `state` (when the request names a motion and the world has the robot), then analyzeGrasp.
AnalysisResult runAnalysis(const World& world, WorldState& state, const AnalysisRequest& request,
                           ProgressSink& progress);
inline AnalysisResult runAnalysis(World& world, const AnalysisRequest& request, ProgressSink& progress) {
  return runAnalysis(world, world.state, request, progress);  // moves the world's current state
}

}  // namespace sg
