#include "contact/ContactModel.h"

#include <algorithm>

#include "core/Error.h"

namespace sg {

// BuiltinContactModels.cpp: the one list of models.
std::vector<std::unique_ptr<ContactModel>> makeBuiltinContactModels();

namespace {

struct Registry {
  std::vector<std::unique_ptr<ContactModel>> owned;
  std::vector<const ContactModel*> models;
  Registry() : owned(makeBuiltinContactModels()) {
    for (const auto& m : owned) models.push_back(m.get());
  }
};

Registry& registry() {
  static Registry r;  // thread-safe initialisation; changed only by registerContactModel (before analyses run)
  return r;
}

}  // namespace

const char* toString(ContactKind kind) {
  switch (kind) {
    case ContactKind::Frictionless: return "frictionless";
    case ContactKind::PointWithFriction: return "point-with-friction";
    case ContactKind::SoftFinger: return "soft-finger";
  }
  return "unknown";
}

Json ContactModelResult::describeContact(std::size_t) const { return Json::object(); }
Json ContactModelResult::describe() const { return Json::object(); }

const std::vector<const ContactModel*>& contactModels() { return registry().models; }

void registerContactModel(std::unique_ptr<ContactModel> model) {
  if (!model) throw Error("registerContactModel: no model");
  if (findContactModel(model->name()))
    throw Error("registerContactModel: a contact model named '" + model->name() + "' is already registered");
  Registry& r = registry();
  r.models.push_back(model.get());
  r.owned.push_back(std::move(model));
}

const ContactModel* findContactModel(std::string_view name) {
  // Names of the enum this registry replaced, so old scripts and stored settings keep working.
  if (name == "auto" || name == "soft") name = "soft-finger";
  if (name == "point-with-friction") name = "point";
  for (const ContactModel* m : contactModels())
    if (m->name() == name) return m;
  return nullptr;
}

const ContactModel& defaultContactModel() { return *contactModels().front(); }

std::string contactModelNames() {
  std::string out;
  for (const ContactModel* m : contactModels()) out += (out.empty() ? "" : ", ") + m->name();
  return out;
}

ModelContact pointModelContact(const Contact& contact, int graspable, int source, bool frictionless,
                               const FrictionEdgeSettings& edges) {
  ModelContact m;
  m.sourceContacts = {source};
  m.contact = contact;
  m.objectIsSide1 = contact.side1.body.kind == BodyHandle::Kind::Graspable && contact.side1.body.index == graspable;
  m.kind = frictionless || contact.muStatic <= 0 ? ContactKind::Frictionless : ContactKind::PointWithFriction;
  m.mu = m.kind == ContactKind::Frictionless ? 0.0 : contact.muStatic;
  m.frictionEdges = frictionEdgesFor(m.kind, 0, edges);
  return m;
}

}  // namespace sg
