#include "GraspAnalysis.h"

#include "Document.h"
#include "JobRunner.h"
#include "LInfinityJob.h"
#include <algorithm>
#include <exception>

#include "contact/ContactDetection.h"
#include "grasp/HullMeasures.h"

namespace sg::app {

AnalysisRequest liveAnalysisRequest(const AnalysisSettings& settings, std::optional<int> graspable) {
  AnalysisRequest r;
  r.graspable = graspable;
  r.collision = settings.collision;
  r.quality = settings.quality;
  r.contactModels = {settings.contactModel};
  r.measures.clear();
  for (const QualityMeasure* m : qualityMeasures())
    if (!m->expensive() && !wrenchSpaceHull(*m)) r.measures.push_back(m->name());
  return r;
}

GraspAnalysis::GraspAnalysis(Document* doc, QObject* parent)
    : QObject(parent), doc_(doc), lInfinityJobs_(new JobRunner(this)), l1Jobs_(new JobRunner(this)) {
  lInfinityJobs_->setObjectName("lInfinityJobs");
  l1Jobs_->setObjectName("l1HullJobs");
  connect(lInfinityJobs_, &JobRunner::finished, this, [this](std::uint64_t, const std::any& result) {
    if (const auto* r = JobRunner::resultAs<LInfinityResult>(result)) mergeLInfinity(*r, /*pending=*/true);
  });
  connect(l1Jobs_, &JobRunner::finished, this, [this](std::uint64_t, const std::any& result) {
    if (const auto* r = JobRunner::resultAs<LInfinityResult>(result)) mergeL1Hull(*r, /*pending=*/true);
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
  });
  // The selected graspable is the one evaluated.
  connect(doc_, &Document::selectionChanged, this, [this] {
    if (const auto g = selectedGraspable(); g && *g != graspable_) schedule();
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

void GraspAnalysis::setTargetGraspable(std::optional<int> graspable) {
  if (graspable == target_) return;
  target_ = graspable;
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
    const World& world = doc_->world();
    for (const auto& [a, b] : collidingPairs(world, settings_.collision)) {
      const PairSensing s = sensePair(world, a, b, settings_.collision);
      interpenetrations_.push_back({a, b, std::max(0.0, -s.separation_mm)});
    }
    std::stable_sort(interpenetrations_.begin(), interpenetrations_.end(),
                     [](const Interpenetration& x, const Interpenetration& y) { return x.depth_mm > y.depth_mm; });
  } catch (const std::exception&) {
    interpenetrations_.clear();  // a body without geometry: nothing to report
  }
  try {
    NullProgress progress;
    AnalysisResult result = analyzeGrasp(doc_->world(), liveAnalysisRequest(settings_, selectedGraspable()), progress);
    contacts_ = std::move(result.contacts);
    graspable_ = result.graspable;
    if (!result.evaluations.empty()) evaluation_ = std::move(result.evaluations.front());
    if (evaluation_) startL1Hull();
    if (evaluation_ && settings_.computeLInfinity) startLInfinity();
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

namespace {
// Until a background build's result arrives: a space of `type` with no hull yet, its quality saying so.
void markBeingBuilt(GwsType type, const std::array<bool, 6>& dimensions, const char* message,
                    GraspWrenchSpace& space, GraspQuality& quality) {
  space = GraspWrenchSpace{};
  space.type = type;
  space.dimensions = dimensions;
  space.hull.message = message;
  quality = GraspQuality{};
  quality.message = message;
}
}  // namespace

void GraspAnalysis::startLInfinity() {
  const QualitySettings& q = settings_.quality;
  LInfinityJob job;
  job.generation = generation_;
  job.gws = q.gws;
  job.forceClosureTolerance = q.forceClosureTolerance;
  // The evaluation's own wrenches, in its order (the soft fits are not redone).
  job.perContactWrenches = evaluation_->perContactWrenches();
  if (evaluation_->contacts.empty()) {  // a hull of {0}: instant
    mergeLInfinity(buildLInfinity(job), /*pending=*/false);
    return;
  }
  markBeingBuilt(GwsType::LInfinity, q.gws.dimensions, "L-infinity GWS: being built", evaluation_->lInfinity,
                 evaluation_->lInfinityQuality);
  lInfinityJobs_->submit(generation_, [job = std::move(job)](ProgressSink& progress) {
    return buildLInfinity(job, progress);
  });
  lInfinityPending_ = true;
}

namespace {
// A background hull's result into the evaluation's space and quality; a failed build marks both failed.
void storeHullResult(const LInfinityResult& result, GraspWrenchSpace& space, GraspQuality& quality) {
  space = result.space;
  quality = result.quality;
  if (result.error.empty()) return;
  space.hull.status = HullStatus::Failed;
  space.hull.message = result.error;
  quality.hullStatus = HullStatus::Failed;
  quality.message = result.error;
}
}  // namespace

void GraspAnalysis::mergeLInfinity(const LInfinityResult& result, bool pending) {
  if (pending != lInfinityPending_ || result.generation != generation_ || !evaluation_) return;  // stale
  lInfinityPending_ = false;
  storeHullResult(result, evaluation_->lInfinity, evaluation_->lInfinityQuality);
  evaluation_->lInfinityBuilt = true;
  computeHullMeasures(GwsType::LInfinity);
  if (pending) emit lInfinityUpdated();
}

void GraspAnalysis::computeHullMeasures(GwsType space) {
  // They read the space just merged (ensureWrenchSpace does not build it again).
  std::vector<std::string> names;
  for (const QualityMeasure* m : qualityMeasures())
    if (wrenchSpaceHull(*m) == space) names.push_back(m->name());
  NullProgress progress;
  computeMeasures(*evaluation_, names, progress);
}

void GraspAnalysis::startL1Hull() {
  const QualitySettings& q = settings_.quality;
  LInfinityJob job;
  job.type = GwsType::L1;
  job.generation = generation_;
  job.gws = evaluation_->gws;  // with the gravity term evaluateGrasp may have added
  job.forceClosureTolerance = q.forceClosureTolerance;
  job.perContactWrenches = evaluation_->perContactWrenches();
  if (evaluation_->contacts.empty()) {  // no wrenches: no hull to build
    mergeL1Hull(buildLInfinity(job), /*pending=*/false);
    return;
  }
  markBeingBuilt(GwsType::L1, q.gws.dimensions, "L1 GWS: being built", evaluation_->l1, evaluation_->l1Quality);
  l1Jobs_->submit(generation_, [job = std::move(job)](ProgressSink& progress) { return buildLInfinity(job, progress); });
  l1HullPending_ = true;
}

void GraspAnalysis::mergeL1Hull(const LInfinityResult& result, bool pending) {
  if (pending != l1HullPending_ || result.generation != generation_ || !evaluation_) return;  // stale
  l1HullPending_ = false;
  storeHullResult(result, evaluation_->l1, evaluation_->l1Quality);
  evaluation_->l1Built = true;
  computeHullMeasures(GwsType::L1);
  if (pending) emit l1HullUpdated();
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
