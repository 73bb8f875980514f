#pragma once
// Building blocks of the contact models' self-descriptions (ContactModel.h §ContactModelResult::describe):
// vectors, number lists and the pieces several models share, as sg::Json with unit-suffixed keys.
#include <vector>

#include "contact/Contact.h"
#include "contact/QuadricFit.h"
#include "core/Json.h"
#include "core/Math.h"

namespace sg {

struct PenaltySensing;

Json describeVec(const Vec3& v);                       // [x, y, z]
Json describeNumbers(const std::vector<double>& values);  // [v0, v1, ...]
// A paraboloid fit (keys as the CLI's quality --json "soft.fit1" object).
Json describeFit(const QuadricFit& fit);
// A penalty contact's sensing outputs (forces on body 1, penetration, slip).
Json describeSensing(const PenaltySensing& sensing);

}  // namespace sg
