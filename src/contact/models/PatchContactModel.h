#pragma once
// The contact-patch model's results (src/contact/README.md §Contact patches; registered as "patch" in
// BuiltinContactModels.cpp). Views read describeContact() (the polygon as data); the polygon drawing is
// registered under the model's name (src/render/ModelOverlays.h).
#include <vector>

#include "contact/ContactModel.h"
#include "contact/patch/ContactPatch.h"

namespace sg {

struct PatchContactResult : ContactModelResult {
  std::vector<ContactPatch> patches;  // parallel to `contacts`

  // The contact's patch: shape, vertex count, separation, support-set sources, normal, centroid, mean radius,
  // vertices (world, mm) and why it is a point when it is one.
  Json describeContact(std::size_t i) const override;
};

}  // namespace sg
