#pragma once
// Runs a registered contact model on every contact of a small test world (all contacts on graspable 0).
#include <QtTest>

#include <memory>
#include <numeric>

#include "contact/ContactDetection.h"
#include "contact/ContactModel.h"
#include "contact/models/SoftFingerContactModel.h"
#include "core/Progress.h"

namespace sgtest {

using namespace sg;

struct ModelRun {
  std::vector<Contact> detected;               // what detection found (GraspIt!'s compaction)
  std::unique_ptr<ContactModelResult> result;  // the model's evaluation of them
};

inline ModelRun runModel(const World& world, const std::string& model, const ContactModelSettings& settings = {}) {
  ModelRun run;
  run.detected = findAllContacts(world);
  std::vector<int> indices(run.detected.size());
  std::iota(indices.begin(), indices.end(), 0);
  NullProgress progress;
  const ContactModel* m = findContactModel(model);
  if (!m) qFatal("no contact model %s", model.c_str());
  run.result = m->evaluate({world, world.state, 0, run.detected, indices}, settings, progress);
  return run;
}

// Relative error |got − want| / |want|.
inline double relErr(double got, double want) { return std::abs(got - want) / std::abs(want); }

// The side of a contact that lies on body `h`.
inline const ContactSide& sideOn(const Contact& c, const BodyHandle& h) { return c.side1.body == h ? c.side1 : c.side2; }

}  // namespace sgtest
