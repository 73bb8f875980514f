#pragma once
// GraspIt!'s soft-finger contact model (src/contact/README.md §Soft finger): a contact with an elastic body
// becomes a soft finger — both bodies' neighbourhoods, GraspIt!'s merge of overlapping ones, paraboloid fits,
// the relative curvature, the patch at the nominal normal force and the torsional limit e_n, sampled as the
// 20-edge limit surface. A contact between rigid bodies is a point contact with friction, μ = 0 frictionless.
// The patch comes from the elastic-layer formula here; HertzContactModel.cpp swaps in Hertz's ellipse.
#include <optional>

#include "contact/ContactModel.h"

namespace sg {

// The soft-finger results: per contact (parallel to ContactModelResult::contacts) the whole soft pipeline's
// data — neighbourhood points, fits, relative curvature, patch — or nothing for a point/frictionless one.
// Hertz (HertzContactModel.cpp) shares it: describeContact's "patch" says which patch formula was used.
struct SoftFingerResult : ContactModelResult {
  std::vector<std::optional<SoftContactResult>> soft;
  // A soft contact: neighbourhoods, both fits, relative radii, the patch (its model, semi-axes, pressure,
  // fallback); a point or frictionless contact: nothing.
  Json describeContact(std::size_t i) const override;
};

class SoftFingerContactModel : public ContactModel {
 public:
  std::string name() const override { return "soft-finger"; }
  std::string label() const override { return "GraspIt! soft finger (elastic layer)"; }
  std::string description() const override {
    return "GraspIt!'s soft finger where a body is elastic: paraboloid fits, elastic-layer patch, torsional "
           "friction; point contacts with friction between rigid bodies.";
  }
  // The elastic layer's thickness (the patch formula only this model uses).
  std::vector<ModelParameter> parameters() const override;
  std::unique_ptr<ContactModelResult> evaluate(const ContactModelInput& input, const ContactModelSettings& settings,
                                               ProgressSink& progress) const override;

 protected:
  virtual PatchModel patchModel() const { return PatchModel::ElasticLayer; }
};

}  // namespace sg

namespace sg {

// The soft data of contact `index` of a model's result, or nullptr (not a soft-finger result, index out of
// range, or the contact was not treated as soft).
const SoftContactResult* softContactResult(const ContactModelResult* result, std::size_t index);

}  // namespace sg
