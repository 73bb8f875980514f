#pragma once
// The live analysis of the open world: an adapter over the engine's one analysis call (src/grasp/Analysis.h,
// the call `softgrasp-cli quality` makes): every contact in the canonical order, and the grasp evaluation of
// one graspable body under the chosen contact model with the cheap quality measures. Recomputed from the
// model after each change — coalesced through a zero-time timer, so a burst of edits (a slider drag) costs
// one update — and read by the views that show it (contacts dock, viewport overlays, quality dock, GWS
// window, soft inspector). Results only: nothing here edits the model. Settings are not part of the world
// and are not undoable.
//
// Every ε (L1, L∞, exact cones) comes from support functions with each update, no hull. Live warm, export cold
// (src/grasp/QUALITY.md §Live warm and export cold): each update continues the previous update's ε polytopes
// (EpsilonWarmStarts), so the window shows warm solves (the cold ε to 1e-9, other certified bounds);
// exportEvaluation() solves them again cold, the values `softgrasp-cli quality` prints for the same state. The measures that read a
// Qhull hull (volume-l1, volume-linf) and the GWS projection never run on the GUI thread: recompute() emits
// updated() with them pending, and a JobRunner per space runs the engine's deferred hull
// (grasp/DeferredMeasures.h, through DeferredHullJob.h) from the evaluation's own wrenches — the L1 hull after every update (milliseconds), the L∞ hull of the Minkowski sum
// (seconds) only while a view shows it (AnalysisSettings::computeLInfinity). While the hand is dragged the runner
// coalesces: the running build finishes, only the latest waiting one starts. If the model has not changed
// meanwhile the result is merged in and l1HullUpdated() / lInfinityUpdated() follows.
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <optional>
#include <vector>

#include "contact/CollisionSettings.h"
#include "contact/ContactCache.h"
#include "contact/Contact.h"
#include "contact/Interpenetration.h"
#include "grasp/Analysis.h"
#include "grasp/DeferredMeasures.h"

namespace sg::app {

class Document;
class JobRunner;

struct AnalysisSettings {
  CollisionSettings collision;  // contact threshold (mm), duplicate radius, pair switches
  QualitySettings quality;      // soft model and normal force (N), edge counts, torque length (mm)
  std::string contactModel = defaultContactModel().name();  // a registered contact model
  bool computeLInfinity = false;  // the L∞ hull (volume-linf, projection), in the background, only while a view shows it
};

// The engine request the live analysis makes for these settings: no hand motion, the chosen model, the
// measures that need no hull (grasp/DeferredMeasures.h: immediateMeasureNames); `graspable` as AnalysisRequest::graspable.
AnalysisRequest liveAnalysisRequest(const AnalysisSettings& settings, std::optional<int> graspable);

class GraspAnalysis : public QObject {
  Q_OBJECT
 public:
  explicit GraspAnalysis(Document* doc, QObject* parent = nullptr);

  const AnalysisSettings& settings() const { return settings_; }
  // Replaces the settings and recomputes (at once).
  void setSettings(const AnalysisSettings& settings);

  // Every contact of the world at the last update (world frame, mm), in the engine's canonical order (the
  // hand's contacts first).
  const std::vector<Contact>& contacts() const { return contacts_; }
  // The interpenetrating pairs at the last update (collision checking off, or a world loaded that way), deepest
  // first. Such pairs give no contacts.
  const std::vector<Interpenetration>& interpenetrations() const { return interpenetrations_; }
  // "A ↔ B 8.2 mm deep; …" (World::bodyLabel names), at most `maxPairs` pairs then "and N more"; empty without any.
  QString describeInterpenetrations(int maxPairs = 3) const;
  // The graspable whose grasp is evaluated: the selected graspable if any, else the engine's rule
  // (chooseGraspable: the first graspable some robot touches, else the first); -1 when the world has none.
  int graspableIndex() const { return graspable_; }
  // An explicit target object (the toolbar's Object selector): evaluated whatever is selected. nullopt: the rule above.
  std::optional<int> targetGraspable() const { return target_; }
  void setTargetGraspable(std::optional<int> graspable);
  // The evaluation of that graspable's grasp; empty without a graspable or when the evaluation failed
  // (then error() says why). Its ContactEvaluation::sourceContacts index contacts(). While
  // lInfinityPending(), its lInfinity / lInfinityQuality are placeholders (no hull).
  const std::optional<GraspEvaluation>& evaluation() const { return evaluation_; }
  // What File > Export writes: a copy of evaluation() with every warm-started ε solved again cold and its measures
  // recomputed (grasp/EpsilonCold.h), so values, bounds and iteration counts are those of a cold analysis, the
  // CLI's. nullopt when evaluation() is.
  std::optional<GraspEvaluation> exportEvaluation() const;
  // The L∞ space of the current evaluation is being built in the background.
  bool lInfinityPending() const { return lInfinityPending_; }
  // The L1 hull of the current evaluation (evaluation()->l1, l1Quality, volume-l1) is being built in the
  // background; until then l1Built is false and l1 / l1Quality are placeholders.
  bool l1HullPending() const { return l1HullPending_; }
  const QString& error() const { return error_; }
  // The evaluated contact (index into evaluation()->contacts) that came from contacts()[contactIndex].
  std::optional<int> evaluationOfContact(int contactIndex) const;

  // The contact the user picked (index into contacts()), shared by the contacts dock, the viewport
  // highlight and the soft-contact inspector. Cleared when the contacts change.
  std::optional<int> selectedContact() const { return selectedContact_; }
  void setSelectedContact(std::optional<int> index);

  // Live updates on model changes (default on). Turning them on recomputes.
  bool isLive() const { return live_; }
  void setLive(bool on);
  // Recomputes now (synchronously) and emits updated().
  void recompute();
  // Number of updates so far (tests, status).
  int updateCount() const { return updateCount_; }

 signals:
  // Contacts and evaluation replaced (the L∞ part possibly still pending).
  void updated();
  // The pending L∞ space of the current evaluation arrived (evaluation()->lInfinity, lInfinityQuality).
  void lInfinityUpdated();
  // The pending L1 hull arrived (evaluation()->l1, l1Quality and the measures reading it, e.g. volume-l1).
  void l1HullUpdated();
  void selectedContactChanged();

 private:
  void schedule();
  std::optional<int> selectedGraspable() const;
  // The deferred hull of `type` (grasp/DeferredMeasures.h) for the current evaluation: on its runner, or at once
  // for a grasp without contacts.
  void startHull(GwsType type);
  // `pending`: the result of a background job; `generation`: the recompute it was started by (older: dropped).
  void mergeHull(const DeferredHullResult& result, std::uint64_t generation, bool pending);

  Document* doc_;
  AnalysisSettings settings_;
  std::vector<Contact> contacts_;
  std::vector<Interpenetration> interpenetrations_;
  int graspable_ = -1;
  std::optional<GraspEvaluation> evaluation_;
  ContactCache contactCache_;  // the contacts of pairs whose bodies did not move (contact/ContactCache.h)
  EpsilonWarmStarts warmStarts_;  // the last update's ε polytopes (grasp/GraspEvaluation.h), lent to the next update
  QString error_;
  std::optional<int> selectedContact_;
  std::optional<int> target_;
  bool live_ = true;
  int updateCount_ = 0;
  QTimer timer_;
  JobRunner* lInfinityJobs_;          // child: deleting it cancels a running build and waits for it to stop
  std::uint64_t generation_ = 0;      // one per recompute: results of older ones are dropped
  bool lInfinityPending_ = false;
  JobRunner* l1Jobs_;                 // child, as lInfinityJobs_
  bool l1HullPending_ = false;
};

}  // namespace sg::app
