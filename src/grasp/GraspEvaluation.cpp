#include "grasp/GraspEvaluation.h"

#include "core/Error.h"

namespace sg {

namespace {

bool isObject(const BodyHandle& h, int g) { return h.kind == BodyHandle::Kind::Graspable && h.index == g; }

}  // namespace

const MeasureValue* GraspEvaluation::measure(const std::string& name) const {
  for (const MeasureValue& m : measures)
    if (m.measure == name) return &m;
  return nullptr;
}

std::vector<std::vector<Vec6>> GraspEvaluation::perContactWrenches() const {
  std::vector<std::vector<Vec6>> out;
  out.reserve(contacts.size());
  for (const ContactEvaluation& c : contacts) out.push_back(c.wrenches);
  return out;
}

std::vector<ExactContactCone> GraspEvaluation::exactCones() const {
  std::vector<ExactContactCone> out;
  out.reserve(contacts.size());
  for (const ContactEvaluation& c : contacts) {
    const double torsion_mm = c.kind == ContactKind::SoftFinger ? c.torsion_mm : 0.0;
    out.push_back(exactConeFor(c.onObject(), c.kind == ContactKind::Frictionless ? 0.0 : c.mu, torsion_mm, reference));
  }
  return out;
}

bool GraspEvaluation::forceClosure() const {
  if (l1Support) return l1Support->forceClosure;
  return l1Built && l1Quality.forceClosure;
}

GraspEvaluation evaluateGrasp(const World& world, const WorldState& state, const std::vector<Contact>& contacts, int g,
                              const ContactModel& model, const QualitySettings& s, ProgressSink* progress,
                              const std::vector<RawPairContacts>* rawContacts) {
  if (g < 0 || g >= static_cast<int>(world.graspables.size()))
    throw Error("evaluateGrasp: no graspable body with index " + std::to_string(g));
  GraspEvaluation out;
  out.contactModel = model.name();
  const auto gi = static_cast<std::size_t>(g);
  out.reference = wrenchReferenceFor(world.graspables[gi], state.X_WG.at(gi), s.torqueLength_mm);
  out.gws = s.gws;
  if (s.gravity) out.gws.l1ForceOffset = 0.5 * out.reference.objectPose.inverse().applyToVector(Vec3::UnitZ());
  out.forceClosureTolerance = s.forceClosureTolerance;
  out.exactConeRelativeGap = s.exactConeRelativeGap;
  out.exactConeMaxIterations = s.exactConeMaxIterations;

  // The grasp's contacts: on the object and (by default) by a hand.
  std::vector<Contact> mine;
  std::vector<int> sources;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const Contact& c = contacts[i];
    const bool onObject1 = isObject(c.side1.body, g), onObject2 = isObject(c.side2.body, g);
    const BodyHandle& other = onObject1 ? c.side2.body : c.side1.body;
    if ((!onObject1 && !onObject2) || (s.handContactsOnly && other.kind != BodyHandle::Kind::Robot)) {
      out.ignoredContacts.push_back(static_cast<int>(i));
      continue;
    }
    mine.push_back(c);
    sources.push_back(static_cast<int>(i));
  }

  NullProgress none;
  std::shared_ptr<ContactModelResult> result =
      model.evaluate(ContactModelInput{world, state, g, mine, sources, rawContacts}, s, progress ? *progress : none);
  for (const ModelContact& m : result->contacts) {
    ContactEvaluation e;
    static_cast<ModelContact&>(e) = m;
    e.wrenches = contactWrenches(e.onObject(), e.mu, e.frictionEdges, out.reference);
    out.contacts.push_back(std::move(e));
  }
  out.modelResult = std::move(result);
  return out;
}

void ensureWrenchSpace(GraspEvaluation& e, GwsType type) {
  bool& built = type == GwsType::L1 ? e.l1Built : e.lInfinityBuilt;
  if (built) return;
  GraspWrenchSpace& space = type == GwsType::L1 ? e.l1 : e.lInfinity;
  space = buildGws(type, e.perContactWrenches(), e.gws);
  (type == GwsType::L1 ? e.l1Quality : e.lInfinityQuality) = evaluateQuality(space, e.forceClosureTolerance);
  built = true;
}

const SupportEpsilon& ensureSupportEpsilon(GraspEvaluation& e, EpsilonSet set) {
  std::optional<SupportEpsilon>& slot =
      set == EpsilonSet::L1 ? e.l1Support : set == EpsilonSet::LInfinity ? e.lInfinitySupport : e.exactSupport;
  if (slot) return *slot;
  SupportEpsilonSettings s = supportEpsilonSettingsFor(e.gws, e.forceClosureTolerance);
  EpsilonWarmStarts* warm = e.warmStart;
  switch (set) {
    case EpsilonSet::L1: slot = l1EpsilonFromSupport(e.perContactWrenches(), s, warm ? &warm->l1 : nullptr); break;
    case EpsilonSet::LInfinity:
      slot = lInfinityEpsilonFromSupport(e.perContactWrenches(), s, warm ? &warm->lInfinity : nullptr);
      break;
    case EpsilonSet::ExactL1:
      s.relativeGap = e.exactConeRelativeGap;
      s.maxIterations = e.exactConeMaxIterations;
      slot = exactConeEpsilon(e.exactCones(), e.reference.torqueScale_mm, GwsType::L1, s);
      break;
  }
  return *slot;
}

double l1Epsilon(const std::vector<std::vector<Vec6>>& perContact, const GwsSettings& settings) {
  return epsilonOf(buildL1Gws(perContact, settings).hull);
}

}  // namespace sg
