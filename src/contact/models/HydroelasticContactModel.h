#pragma once
// The hydroelastic contact model's results (src/geometry/hydro/README.md; the model is registered in
// BuiltinContactModels.cpp under "hydroelastic"). Views that draw contact surfaces dynamic_cast a
// ContactModelResult to this type.
#include <vector>

#include "contact/ContactModel.h"
#include "geometry/hydro/ContactSurface.h"

namespace sg {

struct HydroelasticModelResult : ContactModelResult {
  // Every contact surface between a compliant body and another body touching the graspable, world frame.
  std::vector<ContactSurface> surfaces;
  // Parallel to `contacts`: the index into `surfaces` the contact's normal force and torsional limit come
  // from, or -1 (no compliant body in the pair, or no overlap: the contact falls back with a note).
  std::vector<int> surfaceOfContact;
};

}  // namespace sg
