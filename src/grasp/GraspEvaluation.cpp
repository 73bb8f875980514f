#include "grasp/GraspEvaluation.h"

#include <algorithm>

#include "core/Error.h"

namespace sg {

namespace {

bool isObject(const BodyHandle& h, int g) { return h.kind == BodyHandle::Kind::Graspable && h.index == g; }

FrictionType chooseModel(const World& world, const Contact& c, ContactModelChoice choice) {
  if (choice == ContactModelChoice::AllFrictionless || c.friction == FrictionType::Frictionless || c.muStatic <= 0)
    return FrictionType::Frictionless;
  const bool elastic = hasElasticBody(world, c);
  switch (choice) {
    case ContactModelChoice::AllPoint: return FrictionType::PointWithFriction;
    case ContactModelChoice::AllSoft: return elastic ? FrictionType::SoftFinger : FrictionType::PointWithFriction;
    default: break;
  }
  if (c.friction == FrictionType::SoftFinger || elastic)
    return elastic ? FrictionType::SoftFinger : FrictionType::PointWithFriction;
  return FrictionType::PointWithFriction;
}

}  // namespace

GraspEvaluation evaluateGrasp(const World& world, const std::vector<Contact>& contacts, int g,
                              const QualitySettings& s) {
  if (g < 0 || g >= static_cast<int>(world.graspables.size()))
    throw Error("evaluateGrasp: no graspable body with index " + std::to_string(g));
  GraspEvaluation out;
  const Body& object = world.graspables[static_cast<std::size_t>(g)];
  out.reference = wrenchReferenceFor(object, s.torqueLength_mm);

  // Contacts on the object, each with its model.
  std::vector<Contact> mine;
  std::vector<FrictionType> models;
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
    models.push_back(chooseModel(world, c, s.contactModel));
    sources.push_back(static_cast<int>(i));
  }

  // Soft contacts: neighbourhoods, then GraspIt!'s merge of overlapping ones.
  std::vector<Contact> softContacts;
  std::vector<int> softSources;
  for (std::size_t i = 0; i < mine.size(); ++i)
    if (models[i] == FrictionType::SoftFinger) { softContacts.push_back(mine[i]); softSources.push_back(sources[i]); }
  auto pairs = gatherSoftNeighbourhoods(world, softContacts, s.soft);
  for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i].sourceContacts = {softSources[i]};
  if (s.soft.neighbourhood.mergeOverlapping) mergeOverlappingContacts(softContacts, pairs);

  auto addContact = [&](ContactEvaluation e) {
    e.objectIsSide1 = isObject(e.contact.side1.body, g);
    const ContactSide& onObject = e.objectIsSide1 ? e.contact.side1 : e.contact.side2;
    e.mu = e.model == FrictionType::Frictionless ? 0.0 : e.contact.muStatic;
    if (e.frictionEdges.empty()) e.frictionEdges = frictionEdgesFor(e.model, e.torsion_mm, s.edges);
    e.wrenches = contactWrenches(onObject, e.mu, e.frictionEdges, out.reference);
    out.contacts.push_back(std::move(e));
  };
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (models[i] == FrictionType::SoftFinger) continue;
    ContactEvaluation e;
    e.sourceContacts = {sources[i]};
    e.contact = mine[i];
    e.model = models[i];
    addContact(std::move(e));
  }
  for (std::size_t i = 0; i < softContacts.size(); ++i) {
    ContactEvaluation e;
    e.sourceContacts = pairs[i].sourceContacts;
    e.contact = softContacts[i];
    e.model = FrictionType::SoftFinger;
    e.soft = true;
    e.neighbourhoodSize1 = static_cast<int>(pairs[i].side1.size());
    e.neighbourhoodSize2 = static_cast<int>(pairs[i].side2.size());
    try {
      SoftContactResult r = analyseSoftContact(world, softContacts[i], std::move(pairs[i]), s.soft);
      e.neighbourhoodRadius_mm = r.neighbourhoodRadius_mm;
      e.fit1 = r.fit1;
      e.fit2 = r.fit2;
      e.relative = r.relative;
      e.patch = r.patch;
      e.torsion_mm = r.patch.torsionPerFriction_mm;
      e.maxTorsionalFriction_Nmm = r.patch.maxTorsionalFriction_Nmm(e.contact.muStatic);
    } catch (const Error& err) {
      e.soft = false;
      e.model = FrictionType::PointWithFriction;
      e.note = "soft contact fell back to a point contact: " + err.message();
    }
    addContact(std::move(e));
  }

  // Report in input order (soft contacts were handled after the others).
  std::stable_sort(out.contacts.begin(), out.contacts.end(), [](const ContactEvaluation& a, const ContactEvaluation& b) {
    return a.sourceContacts.front() < b.sourceContacts.front();
  });
  std::vector<std::vector<Vec6>> perContact;
  for (const auto& e : out.contacts) perContact.push_back(e.wrenches);
  GwsSettings gws = s.gws;
  if (s.gravity) gws.l1ForceOffset = 0.5 * out.reference.objectPose.inverse().applyToVector(Vec3::UnitZ());
  if (s.computeL1) {
    out.l1 = buildL1Gws(perContact, gws);
    out.l1Quality = evaluateQuality(out.l1, s.forceClosureTolerance);
  }
  if (s.computeLInfinity) {
    out.lInfinity = buildLInfinityGws(perContact, gws);
    out.lInfinityQuality = evaluateQuality(out.lInfinity, s.forceClosureTolerance);
  }
  return out;
}

double l1Epsilon(const std::vector<std::vector<Vec6>>& perContact, const GwsSettings& settings) {
  return epsilonOf(buildL1Gws(perContact, settings).hull);
}

}  // namespace sg
