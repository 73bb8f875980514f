#pragma once
// The contact-patch model's results (src/contact/README.md §Contact patches; registered as "patch" in
// BuiltinContactModels.cpp). Views that draw the polygons dynamic_cast a ContactModelResult to this type.
#include <vector>

#include "contact/ContactModel.h"
#include "contact/patch/ContactPatch.h"

namespace sg {

struct PatchContactResult : ContactModelResult {
  std::vector<ContactPatch> patches;  // parallel to `contacts`
};

}  // namespace sg
