#pragma once
// Exact curvature at a contact on a body whose geometry is an analytic primitive (Body::primitive,
// src/geometry/README.md §Analytic shapes): the primitive's principal curvatures and directions at the surface
// point nearest to the contact point, as a QuadricFit with estimator Exact and zero residual, in the contact
// frame of the side (the soft-contact model's hook, src/contact/README.md §Curvature estimators).
#include <optional>

#include "contact/Contact.h"
#include "contact/QuadricFit.h"
#include "model/World.h"
#include "model/WorldState.h"

namespace sg {

// The exact fit at `side`, or nullopt when the body has no primitive or settings.exactOnPrimitives is off.
std::optional<QuadricFit> exactPrimitiveFit(const World& world, const WorldState& state, const ContactSide& side,
                                            const QuadricFitSettings& settings = {});

// The same for a primitive placed by X_WS directly: the osculating paraboloid z = a x² + b y² + c xy in the
// contact frame (origin p_WC_mm, z = inward normal), curvatures > 0 where convex.
QuadricFit exactShapeFit(const Shape& shape, const Transform& X_WS, const Vec3& p_WC_mm, const Vec3& inwardNormal_W,
                         const QuadricFitSettings& settings = {});

}  // namespace sg
