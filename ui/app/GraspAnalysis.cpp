#include "GraspAnalysis.h"

#include "Document.h"
#include "JobRunner.h"
#include "DeferredHullJob.h"
#include <algorithm>
#include <exception>
#include <utility>

#include "contact/Interpenetration.h"
#include "grasp/DeferredMeasures.h"
#include "grasp/EpsilonCold.h"

namespace sg::app {

AnalysisRequest liveAnalysisRequest(const AnalysisSettings& settings, std::optional<int> graspable) {
  AnalysisRequest r;
  r.graspable = graspable;
  r.collision = settings.collision;
  r.quality = settings.quality;
  r.contactModels = {settings.contactModel};
  r.measures = immediateMeasureNames();
  return r;
}

GraspAnalysis::GraspAnalysis(Document* doc, QObject* parent)
    : QObject(parent), doc_(doc), lInfinityJobs_(new JobRunner(this)), l1Jobs_(new JobRunner(this)) {
  lInfinityJobs_->setObjectName("lInfinityJobs");
  l1Jobs_->setObjectName("l1HullJobs");
  for (JobRunner* jobs : {lInfinityJobs_, l1Jobs_})
    connect(jobs, &JobRunner::finished, this, [this](std::uint64_t generation, const std::any& result) {
      if (const auto* r = deferredHullResult(result)) mergeHull(*r, generation, /*pending=*/true);
    });
  timer_.setSingleShot(true);
  timer_.setInterval(0);
  connect(&timer_, &QTimer::timeout, this, &GraspAnalysis::recompute);
  connect(doc_, &Document::worldChanged, this, &GraspAnalysis::schedule);
  // Collision switches name bodies of the world they were set in.
  connect(doc_, &Document::worldReplaced, this, [this] {
    settings_.collision.disabledBodies.clear();
    settings_.collision.userDisabledPairs.clear();
    target_.reset();
    warmStarts_.clear();
  });
  // The selected graspable is the one evaluated.
  connect(doc_, &Document::selectionChanged, this, [this] {
    if (const auto g = selectedGraspable(); g && *g != graspable_) schedule();
  });
  recompute();
}

void GraspAnalysis::setSettings(const AnalysisSettings& settings) {
  settings_ = settings;
  warmStarts_.clear();  // another set or tolerances would solve cold anyway (SupportEpsilon.cpp's shape key)
  recompute();
}

void GraspAnalysis::setLive(bool on) {
  live_ = on;
  if (live_) recompute();
}

void GraspAnalysis::schedule() {
  if (live_) timer_.start();
}

void GraspAnalysis::setTargetGraspable(std::optional<int> graspable) {
  if (graspable == target_) return;
  target_ = graspable;
  warmStarts_.clear();
  recompute();
}

std::optional<int> GraspAnalysis::selectedGraspable() const {
  if (target_ && *target_ >= 0 && *target_ < static_cast<int>(doc_->world().graspables.size())) return target_;
  const auto& sel = doc_->selection();
  if (sel && sel->kind == BodyHandle::Kind::Graspable && sel->index < static_cast<int>(doc_->world().graspables.size()))
    return sel->index;
  return std::nullopt;
}

void GraspAnalysis::recompute() {
  timer_.stop();
  // Whatever the runner builds or waits to build now describes an older model.
  ++generation_;
  lInfinityPending_ = false;
  lInfinityJobs_->cancel();
  // The running L1 build is not interrupted (it ends within milliseconds and its result is dropped); only a
  // waiting one is replaced: dragging the hand costs one build at a time, never a queue.
  l1HullPending_ = false;
  l1Jobs_->dropWaiting();
  error_.clear();
  evaluation_.reset();
  contacts_.clear();
  interpenetrations_.clear();
  graspable_ = -1;
  try {
    interpenetrations_ = findInterpenetrations(doc_->world(), settings_.collision);
  } catch (const std::exception&) {
    interpenetrations_.clear();  // a body without geometry: nothing to report
  }
  try {
    NullProgress progress;
    AnalysisRequest request = liveAnalysisRequest(settings_, selectedGraspable());
    // Contacts of the pairs a drag did not move are reused (bit-identical, contact/ContactCache.h), and every ε
    // continues the last update's polytope (src/grasp/QUALITY.md §Warm start): the same ε to 1e-9, other
    // certified bounds; exportEvaluation() gives the cold ones (§Live warm and export cold).
    request.contactCache = &contactCache_;
    request.warmStart = &warmStarts_;
    AnalysisResult result = analyzeGrasp(doc_->world(), request, progress);
    contacts_ = std::move(result.contacts);
    graspable_ = result.graspable;
    if (!result.evaluations.empty()) evaluation_ = std::move(result.evaluations.front());
    if (evaluation_) startHull(GwsType::L1);
    if (evaluation_ && settings_.computeLInfinity) startHull(GwsType::LInfinity);
  } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
    error_ = QString::fromStdString(e.what());
    evaluation_.reset();
    lInfinityPending_ = false;
    l1HullPending_ = false;
  }
  ++updateCount_;
  const bool selectionDropped = selectedContact_.has_value();
  selectedContact_.reset();  // indices refer to the previous contacts
  emit updated();
  if (selectionDropped) emit selectedContactChanged();
}

std::optional<GraspEvaluation> GraspAnalysis::exportEvaluation() const {
  std::optional<GraspEvaluation> out = evaluation_;
  if (out) resolveEpsilonCold(*out);
  return out;
}

void GraspAnalysis::startHull(GwsType type) {
  const bool l1 = type == GwsType::L1;
  DeferredHull hull = deferredHull(*evaluation_, type);
  if (evaluation_->contacts.empty()) {  // a hull of {0}: instant
    NullProgress none;
    mergeHull(computeDeferredHull(hull, none), generation_, /*pending=*/false);
    return;
  }
  markHullPending(*evaluation_, type);
  (l1 ? l1Jobs_ : lInfinityJobs_)->submit(generation_, deferredHullJob(std::move(hull)));
  (l1 ? l1HullPending_ : lInfinityPending_) = true;
}

void GraspAnalysis::mergeHull(const DeferredHullResult& result, std::uint64_t generation, bool pending) {
  const bool l1 = result.type == GwsType::L1;
  bool& waiting = l1 ? l1HullPending_ : lInfinityPending_;
  if (pending != waiting || generation != generation_ || !evaluation_) return;  // stale
  waiting = false;
  mergeDeferredHull(*evaluation_, result);
  if (!pending) return;
  if (l1)
    emit l1HullUpdated();
  else
    emit lInfinityUpdated();
}

QString GraspAnalysis::describeInterpenetrations(int maxPairs) const {
  if (interpenetrations_.empty()) return {};
  const World& world = doc_->world();
  auto label = [&](const BodyHandle& h) {
    return world.isValid(h) ? QString::fromStdString(world.bodyLabel(h)) : tr("?");
  };
  QStringList parts;
  const int n = static_cast<int>(interpenetrations_.size());
  for (int i = 0; i < std::min(n, maxPairs); ++i) {
    const Interpenetration& p = interpenetrations_[static_cast<std::size_t>(i)];
    parts << tr("%1 \u2194 %2 %3 mm deep").arg(label(p.body1), label(p.body2)).arg(p.depth_mm, 0, 'f', 2);
  }
  QString text = tr("%n interpenetrating pair(s): ", nullptr, n) + parts.join(QStringLiteral("; "));
  if (n > maxPairs) text += tr("; and %n more", nullptr, n - maxPairs);
  return text;
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
