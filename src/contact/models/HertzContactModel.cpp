// Hertz contact: the soft-finger pipeline with the patch from Hertz's elliptical solution (HertzContact.h,
// src/contact/README.md §Hertz) instead of GraspIt!'s elastic layer; E* from both bodies' moduli and ν.
#include "contact/models/SoftFingerContactModel.h"

namespace sg {

namespace {

class HertzContactModel final : public SoftFingerContactModel {
 public:
  std::string name() const override { return "hertz"; }
  std::string label() const override { return "Hertz (elliptical contact)"; }
  std::string description() const override {
    return "soft finger whose patch and torsional limit come from Hertz's elliptical contact of the two "
           "fitted paraboloids; point contacts with friction between rigid bodies.";
  }

 protected:
  PatchModel patchModel() const override { return PatchModel::Hertz; }
};

}  // namespace

std::unique_ptr<ContactModel> makeHertzContactModel() { return std::make_unique<HertzContactModel>(); }

}  // namespace sg
