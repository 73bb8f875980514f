#include "grasp/Analysis.h"

#include <algorithm>

#include "contact/ContactCache.h"
#include "contact/ContactDetection.h"
#include "core/Error.h"

namespace sg {

const GraspEvaluation* AnalysisResult::evaluation(const std::string& model) const {
  for (const GraspEvaluation& e : evaluations)
    if (e.contactModel == model) return &e;
  return nullptr;
}

bool isHandContact(const Contact& c) {
  return c.side1.body.kind == BodyHandle::Kind::Robot || c.side2.body.kind == BodyHandle::Kind::Robot;
}

void orderContacts(std::vector<Contact>& contacts) {
  // The hand's contacts first: they make the grasp, and an object resting on a table can add dozens.
  std::stable_partition(contacts.begin(), contacts.end(), isHandContact);
}

int chooseGraspable(const World& world, const std::vector<Contact>& contacts) {
  if (world.graspables.empty()) return -1;
  for (const Contact& c : contacts) {
    const BodyHandle& a = c.side1.body;
    const BodyHandle& b = c.side2.body;
    if (a.kind == BodyHandle::Kind::Graspable && b.kind == BodyHandle::Kind::Robot) return a.index;
    if (b.kind == BodyHandle::Kind::Graspable && a.kind == BodyHandle::Kind::Robot) return b.index;
  }
  return 0;
}

namespace {

// The allowed pairs in the request's scope, in findAllContacts order.
std::vector<BodyPair> pairsInScope(const World& world, const AnalysisRequest& request) {
  std::vector<BodyPair> pairs = activePairs(world, request.collision);
  if (request.contactScope == ContactScope::World) return pairs;
  const auto isObject = [&](const BodyHandle& h) {
    return h.kind == BodyHandle::Kind::Graspable && (!request.graspable || h.index == *request.graspable);
  };
  const auto mayGrasp = [&](const BodyHandle& h) {
    return !request.quality.handContactsOnly || h.kind == BodyHandle::Kind::Robot;
  };
  std::erase_if(pairs, [&](const BodyPair& p) {
    return !((isObject(p.first) && mayGrasp(p.second)) || (isObject(p.second) && mayGrasp(p.first)));
  });
  return pairs;
}

}  // namespace

AnalysisResult analyzeGrasp(const World& world, const WorldState& state, const AnalysisRequest& request,
                            ProgressSink& progress) {
  requireFits(world, state);
  std::vector<const ContactModel*> models;
  for (const std::string& name : request.contactModels) {
    const ContactModel* m = findContactModel(name);
    if (!m) throw Error("unknown contact model '" + name + "' (known: " + contactModelNames() + ")");
    models.push_back(m);
  }
  for (const std::string& name : request.measures)
    if (!findQualityMeasure(name)) throw Error("unknown quality measure '" + name + "'");

  AnalysisResult out;
  progress.report(0.0, "contacts");
  std::vector<RawPairContacts> raw;  // for the soft models' touching points (no second query per pair)
  if (request.contacts) {
    if (!request.graspable) throw Error("an analysis of given contacts needs the graspable's index");
    out.contacts = *request.contacts;
  } else {
    const std::vector<BodyPair> pairs = pairsInScope(world, request);
    out.contacts = request.contactCache
                       ? findContacts(world, state, pairs, request.collision, *request.contactCache, &raw)
                       : findContacts(world, state, pairs, request.collision, &raw);
    orderContacts(out.contacts);
  }
  if (request.graspable) {
    if (*request.graspable < 0 || *request.graspable >= static_cast<int>(world.graspables.size()))
      throw Error("no graspable body with index " + std::to_string(*request.graspable));
    out.graspable = *request.graspable;
  } else {
    out.graspable = chooseGraspable(world, out.contacts);
  }
  if (out.graspable < 0) return out;
  const double n = static_cast<double>(models.size());
  for (std::size_t k = 0; k < models.size(); ++k) {
    // Model k owns [begin, end] of the bar: its evaluation the first half, its measures the second.
    const double begin = 0.1 + 0.9 * static_cast<double>(k) / n, end = 0.1 + 0.9 * static_cast<double>(k + 1) / n;
    const double middle = 0.5 * (begin + end);
    progress.report(begin, models[k]->label());
    if (progress.cancelRequested()) throw Cancelled("analysis cancelled");
    SubProgress evaluation(progress, begin, middle), measures(progress, middle, end);
    GraspEvaluation e;
    std::string error;
    try {
      e = evaluateGrasp(world, state, out.contacts, out.graspable, *models[k], request.quality, &evaluation,
                        request.contacts ? nullptr : &raw);
      if (k == 0) e.warmStart = request.warmStart;
      computeMeasures(e, request.measures, measures);
      e.warmStart = nullptr;
    } catch (const Cancelled&) {
      throw;
    } catch (const Error& failure) {
      if (!request.keepFailedModels) throw;
      error = failure.message();
      e = {};
      e.contactModel = models[k]->name();
    }
    out.evaluations.push_back(std::move(e));
    out.modelErrors.push_back(std::move(error));
  }
  progress.report(1.0, "done");
  return out;
}

AnalysisResult runAnalysis(const World& world, WorldState& state, const AnalysisRequest& request,
                           ProgressSink& progress) {
  HandMotionReport motion;
  if (request.motion.movesHand()) {
    HandMotionRequest move = request.motion;
    move.settings.motion.collision = request.collision;
    motion = moveHand(world, state, request.robot, move);
  }
  AnalysisResult out = analyzeGrasp(world, state, request, progress);
  out.motion = motion;
  return out;
}

}  // namespace sg
