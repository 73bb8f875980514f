// The rigid contact models (src/contact/README.md §Point contacts): a point contact with friction (GraspIt!'s
// m-edge pyramid, frictionless where μ = 0) and the frictionless contact (the normal force only), whatever the
// bodies' elasticity.
#include "contact/ContactModel.h"

namespace sg {

namespace {

class PointContactModel : public ContactModel {
 public:
  explicit PointContactModel(bool frictionless) : frictionless_(frictionless) {}
  std::string name() const override { return frictionless_ ? "frictionless" : "point"; }
  std::string label() const override { return frictionless_ ? "Frictionless point" : "Point with friction"; }
  std::string description() const override {
    return frictionless_ ? "every contact transmits its normal force only."
                         : "every contact is a point contact with a linearised Coulomb cone (frictionless where "
                           "the materials' friction is 0), soft bodies included.";
  }
  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink&) const override {
    auto out = std::make_unique<ContactModelResult>();
    for (std::size_t i = 0; i < in.contacts.size(); ++i)
      out->contacts.push_back(
          pointModelContact(in.contacts[i], in.graspable, in.sourceIndices[i], frictionless_, settings.edges));
    return out;
  }

 private:
  bool frictionless_;
};

}  // namespace

std::unique_ptr<ContactModel> makePointContactModel() { return std::make_unique<PointContactModel>(false); }
std::unique_ptr<ContactModel> makeFrictionlessContactModel() { return std::make_unique<PointContactModel>(true); }

}  // namespace sg
