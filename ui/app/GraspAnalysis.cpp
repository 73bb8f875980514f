#include "GraspAnalysis.h"

#include "Document.h"
#include "JobRunner.h"
#include "LInfinityJob.h"
#include "contact/ContactDetection.h"
#include <algorithm>
#include <exception>

namespace sg::app {

bool isHandContact(const Contact& c) {
  return c.side1.body.kind == BodyHandle::Kind::Robot || c.side2.body.kind == BodyHandle::Kind::Robot;
}

GraspAnalysis::GraspAnalysis(Document* doc, QObject* parent)
    : QObject(parent), doc_(doc), lInfinityJobs_(new JobRunner(this)) {
  connect(lInfinityJobs_, &JobRunner::finished, this, [this](std::uint64_t, const std::any& result) {
    if (const auto* r = JobRunner::resultAs<LInfinityResult>(result)) mergeLInfinity(*r);
  });
  timer_.setSingleShot(true);
  timer_.setInterval(0);
  connect(&timer_, &QTimer::timeout, this, &GraspAnalysis::recompute);
  connect(doc_, &Document::worldChanged, this, &GraspAnalysis::schedule);
  // Collision switches name bodies of the world they were set in.
  connect(doc_, &Document::worldReplaced, this, [this] {
    settings_.collision.disabledBodies.clear();
    settings_.collision.userDisabledPairs.clear();
  });
  // The selected graspable is the one evaluated.
  connect(doc_, &Document::selectionChanged, this, [this] {
    if (chooseGraspable() != graspable_) schedule();
  });
  recompute();
}

void GraspAnalysis::setSettings(const AnalysisSettings& settings) {
  settings_ = settings;
  recompute();
}

void GraspAnalysis::setLive(bool on) {
  live_ = on;
  if (live_) recompute();
}

void GraspAnalysis::schedule() {
  if (live_) timer_.start();
}

int GraspAnalysis::chooseGraspable() const {
  const World& world = doc_->world();
  if (world.graspables.empty()) return -1;
  if (const auto& sel = doc_->selection(); sel && sel->kind == BodyHandle::Kind::Graspable &&
                                           sel->index < static_cast<int>(world.graspables.size()))
    return sel->index;
  for (const Contact& c : contacts_) {
    const BodyHandle& a = c.side1.body;
    const BodyHandle& b = c.side2.body;
    if (a.kind == BodyHandle::Kind::Graspable && b.kind == BodyHandle::Kind::Robot) return a.index;
    if (b.kind == BodyHandle::Kind::Graspable && a.kind == BodyHandle::Kind::Robot) return b.index;
  }
  return 0;
}

void GraspAnalysis::recompute() {
  timer_.stop();
  // Whatever the runner builds or waits to build now describes an older model.
  ++generation_;
  lInfinityPending_ = false;
  lInfinityJobs_->cancel();
  const World& world = doc_->world();
  error_.clear();
  evaluation_.reset();
  try {
    contacts_ = findAllContacts(world, settings_.collision);
    // The hand's contacts first: they make the grasp, and an object resting on a table can add dozens.
    std::stable_partition(contacts_.begin(), contacts_.end(), [](const Contact& c) { return isHandContact(c); });
  } catch (const std::exception& e) {
    contacts_.clear();
    error_ = QString::fromStdString(e.what());
  }
  graspable_ = chooseGraspable();
  if (graspable_ >= 0 && error_.isEmpty()) {
    try {
      QualitySettings now = settings_.quality;
      now.computeLInfinity = false;  // below, in the background
      evaluation_ = evaluateGrasp(world, contacts_, graspable_, now);
      if (settings_.quality.computeLInfinity) startLInfinity();
    } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
      error_ = QString::fromStdString(e.what());
      evaluation_.reset();
      lInfinityPending_ = false;
    }
  }
  ++updateCount_;
  const bool selectionDropped = selectedContact_.has_value();
  selectedContact_.reset();  // indices refer to the previous contacts
  emit updated();
  if (selectionDropped) emit selectedContactChanged();
}

void GraspAnalysis::startLInfinity() {
  const QualitySettings& q = settings_.quality;
  LInfinityJob job;
  job.generation = generation_;
  job.gws = q.gws;
  job.forceClosureTolerance = q.forceClosureTolerance;
  // The same wrenches, in the same order, as evaluateGrasp's own L∞ space (the soft fits are not redone).
  for (const ContactEvaluation& c : evaluation_->contacts) job.perContactWrenches.push_back(c.wrenches);
  if (evaluation_->contacts.empty()) {  // a hull of {0}: instant
    LInfinityResult r = buildLInfinity(job);
    evaluation_->lInfinity = std::move(r.space);
    evaluation_->lInfinityQuality = std::move(r.quality);
    return;
  }
  // Until the result arrives: an L∞ space with no hull yet.
  evaluation_->lInfinity = GraspWrenchSpace{};
  evaluation_->lInfinity.type = GwsType::LInfinity;
  evaluation_->lInfinity.dimensions = q.gws.dimensions;
  evaluation_->lInfinity.hull.message = "L-infinity GWS: being built";
  evaluation_->lInfinityQuality = GraspQuality{};
  evaluation_->lInfinityQuality.message = evaluation_->lInfinity.hull.message;
  lInfinityJobs_->submit(generation_, [job = std::move(job)](ProgressSink& progress) {
    return buildLInfinity(job, progress);
  });
  lInfinityPending_ = true;
}

void GraspAnalysis::mergeLInfinity(const LInfinityResult& result) {
  if (!lInfinityPending_ || result.generation != generation_ || !evaluation_) return;  // stale
  lInfinityPending_ = false;
  evaluation_->lInfinity = result.space;
  evaluation_->lInfinityQuality = result.quality;
  if (!result.error.empty()) {
    evaluation_->lInfinity.hull.status = HullStatus::Failed;
    evaluation_->lInfinity.hull.message = result.error;
    evaluation_->lInfinityQuality.hullStatus = HullStatus::Failed;
    evaluation_->lInfinityQuality.message = result.error;
  }
  emit lInfinityUpdated();
}

std::optional<int> GraspAnalysis::evaluationOfContact(int contactIndex) const {
  if (!evaluation_) return std::nullopt;
  for (std::size_t i = 0; i < evaluation_->contacts.size(); ++i)
    for (int source : evaluation_->contacts[i].sourceContacts)
      if (source == contactIndex) return static_cast<int>(i);
  return std::nullopt;
}

void GraspAnalysis::setSelectedContact(std::optional<int> index) {
  if (index && (*index < 0 || *index >= static_cast<int>(contacts_.size()))) index.reset();
  if (index == selectedContact_) return;
  selectedContact_ = index;
  emit selectedContactChanged();
}

}  // namespace sg::app
