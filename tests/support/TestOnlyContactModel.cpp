#include "TestOnlyContactModel.h"

#include <memory>

#include "contact/ContactModel.h"

namespace sgtest {

namespace {

using namespace sg;

// Its own data, as every model describes it (ContactModelResult): the gain it applied at each contact.
struct TestOnlyResult final : ContactModelResult {
  double gain_N = 0;
  Json describeContact(std::size_t) const override {
    Json o = Json::object();
    o.set("gain_N", gain_N);
    return o;
  }
  Json describe() const override {
    Json o = Json::object();
    o.set("contactCount", static_cast<int>(contacts.size()));
    return o;
  }
};

class TestOnlyContactModel final : public ContactModel {
 public:
  std::string name() const override { return kTestOnlyModel; }
  std::string label() const override { return "Test-only point contact"; }
  std::string description() const override { return "a point contact reporting its gain as the normal force."; }
  std::vector<ModelParameter> parameters() const override {
    return {{"gain", "Gain", "N", ParameterKind::Number, 0, 10, 1, {}, "the normal force reported at each contact"}};
  }
  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& in, const ContactModelSettings& settings,
                                               ProgressSink&) const override {
    const double gain = modelParameter(settings, *this, "gain");
    auto out = std::make_unique<TestOnlyResult>();
    out->gain_N = gain;
    for (std::size_t i = 0; i < in.contacts.size(); ++i) {
      ModelContact m = pointModelContact(in.contacts[i], in.graspable, in.sourceIndices[i], false, settings.edges);
      m.normalForce_N = gain;
      out->contacts.push_back(m);
    }
    return out;
  }
};

}  // namespace

void registerTestOnlyContactModel() {
  if (!findContactModel(kTestOnlyModel)) registerContactModel(std::make_unique<TestOnlyContactModel>());
}

}  // namespace sgtest
