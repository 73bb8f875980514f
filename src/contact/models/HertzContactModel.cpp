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
  // ν enters Hertz's E* only; the elastic layer's thickness (the soft finger's parameter) does not apply.
  std::vector<ModelParameter> parameters() const override {
    return {boundParameter({"poissonRatio", "Poisson's ratio ν", "", ParameterKind::Number, 0, 0.5, 0, {},
                            "ν of every elastic body in E* (rubber ≈ 0.5)"},
                           [](auto& s) -> auto& { return s.soft.patch.poissonRatio; })};
  }

 protected:
  PatchModel patchModel() const override { return PatchModel::Hertz; }
};

}  // namespace

std::unique_ptr<ContactModel> makeHertzContactModel() { return std::make_unique<HertzContactModel>(); }

}  // namespace sg
