#pragma once
// The live analysis of the open world: every contact, and the grasp evaluation of one graspable body
// (soft fits, wrenches, L1/L∞ wrench spaces, ε, volume). Recomputed from the model after each change —
// coalesced through a zero-time timer, so a burst of edits (a slider drag) costs one update — and read by
// the views that show it (contacts dock, viewport overlays, quality dock, GWS window, soft inspector).
// Results only: nothing here edits the model. Settings are not part of the world and are not undoable.
//
// The L∞ space (QualitySettings::computeLInfinity) is a Minkowski sum whose 6-D hull can take seconds, so
// it is built off the GUI thread: recompute() does contacts, soft fits and L1 at once and emits updated()
// with the L∞ part pending; a JobRunner builds it from the evaluation's own per-contact wrenches and, if
// the model has not changed meanwhile, it is merged in and lInfinityUpdated() follows.
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <optional>
#include <vector>

#include "contact/CollisionSettings.h"
#include "contact/Contact.h"
#include "grasp/GraspEvaluation.h"

namespace sg::app {

class Document;
class JobRunner;
struct LInfinityResult;

struct AnalysisSettings {
  CollisionSettings collision;  // contact threshold (mm), duplicate radius, pair switches
  QualitySettings quality;      // contact model, soft model and normal force (N), edge counts, torque length (mm)
};

// True when a robot body (a hand) is on either side of the contact.
bool isHandContact(const Contact& c);

class GraspAnalysis : public QObject {
  Q_OBJECT
 public:
  explicit GraspAnalysis(Document* doc, QObject* parent = nullptr);

  const AnalysisSettings& settings() const { return settings_; }
  // Replaces the settings and recomputes (at once).
  void setSettings(const AnalysisSettings& settings);

  // Every contact of the world at the last update (world frame, mm): the hand's contacts (a robot body on
  // either side) first, each group in findAllContacts order.
  const std::vector<Contact>& contacts() const { return contacts_; }
  // The graspable whose grasp is evaluated: the selected graspable if any, else the first graspable some
  // robot touches, else the first graspable; -1 when the world has none.
  int graspableIndex() const { return graspable_; }
  // The evaluation of that graspable's grasp; empty without a graspable or when the evaluation failed
  // (then error() says why). Its ContactEvaluation::sourceContacts index contacts(). While
  // lInfinityPending(), its lInfinity / lInfinityQuality are placeholders (no hull).
  const std::optional<GraspEvaluation>& evaluation() const { return evaluation_; }
  // The L∞ space of the current evaluation is being built in the background.
  bool lInfinityPending() const { return lInfinityPending_; }
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
  void selectedContactChanged();

 private:
  void schedule();
  int chooseGraspable() const;
  void startLInfinity();
  void mergeLInfinity(const LInfinityResult& result);

  Document* doc_;
  AnalysisSettings settings_;
  std::vector<Contact> contacts_;
  int graspable_ = -1;
  std::optional<GraspEvaluation> evaluation_;
  QString error_;
  std::optional<int> selectedContact_;
  bool live_ = true;
  int updateCount_ = 0;
  QTimer timer_;
  JobRunner* lInfinityJobs_;          // child: deleting it cancels a running build and waits for it to stop
  std::uint64_t generation_ = 0;      // one per recompute: results of older ones are dropped
  bool lInfinityPending_ = false;
};

}  // namespace sg::app
