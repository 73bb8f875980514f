#include "GraspAnalysis.h"

#include "Document.h"
#include "contact/ContactDetection.h"
#include <algorithm>
#include <exception>

namespace sg::app {

bool isHandContact(const Contact& c) {
  return c.side1.body.kind == BodyHandle::Kind::Robot || c.side2.body.kind == BodyHandle::Kind::Robot;
}

GraspAnalysis::GraspAnalysis(Document* doc, QObject* parent) : QObject(parent), doc_(doc) {
  timer_.setSingleShot(true);
  timer_.setInterval(0);
  connect(&timer_, &QTimer::timeout, this, &GraspAnalysis::recompute);
  connect(doc_, &Document::worldChanged, this, &GraspAnalysis::schedule);
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
      evaluation_ = evaluateGrasp(world, contacts_, graspable_, settings_.quality);
    } catch (const std::exception& e) {  // sg::Error, or Qhull's exceptions
      error_ = QString::fromStdString(e.what());
    }
  }
  ++updateCount_;
  const bool selectionDropped = selectedContact_.has_value();
  selectedContact_.reset();  // indices refer to the previous contacts
  emit updated();
  if (selectionDropped) emit selectedContactChanged();
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
