#include "contact/PrimitiveCurvature.h"

#include <cmath>

#include "geometry/ShapeQueries.h"

namespace sg {

QuadricFit exactShapeFit(const Shape& shape, const Transform& X_WS, const Vec3& p_WC_mm, const Vec3& n_W,
                         const QuadricFitSettings& settings) {
  const SurfaceCurvature sc = surfaceCurvature(shape, X_WS.inverse() * p_WC_mm);
  const Transform frame = contactFrame(p_WC_mm, n_W);
  const Mat3 R = frame.rotationMatrix();
  // The max-curvature direction in the contact frame's tangent plane (the contact normal may differ slightly
  // from the surface normal, e.g. for a contact found on the tessellation).
  const Vec3 d_W = X_WS.applyToVector(sc.dirMax);
  double theta = std::atan2(d_W.dot(R.col(1)), d_W.dot(R.col(0)));
  if (!std::isfinite(theta)) theta = 0;
  const double cs = std::cos(theta), sn = std::sin(theta);
  const double k1 = sc.kMax_per_mm, k2 = sc.kMin_per_mm;
  QuadricFit fit;
  fit.status = QuadricFitStatus::Ok;
  fit.estimator = CurvatureEstimator::Exact;
  // Hessian [[2a, c], [c, 2b]] = k1·d·dᵀ + k2·e·eᵀ with d = (cos θ, sin θ), e = (−sin θ, cos θ).
  fit.a = 0.5 * (k1 * cs * cs + k2 * sn * sn);
  fit.b = 0.5 * (k1 * sn * sn + k2 * cs * cs);
  fit.c = (k1 - k2) * sn * cs;
  fit.rmsResidual_mm = 0;
  fit.pointCount = 0;
  fit.degree = 2;
  auto flatten = [&](double k) { return std::abs(k) < settings.flatCurvature_per_mm ? 0.0 : k; };
  fit.curvatures.kappaMax_per_mm = flatten(k1);
  fit.curvatures.kappaMin_per_mm = flatten(k2);
  fit.curvatures.directionMax = (cs * R.col(0) + sn * R.col(1)).normalized();
  fit.curvatures.directionMin = R.col(2).cross(fit.curvatures.directionMax).normalized();
  return fit;
}

std::optional<QuadricFit> exactPrimitiveFit(const World& world, const WorldState& state, const ContactSide& side,
                                            const QuadricFitSettings& settings) {
  if (!settings.exactOnPrimitives || !world.isValid(side.body)) return std::nullopt;
  const Body& body = world.body(side.body);
  if (!body.primitive) return std::nullopt;
  return exactShapeFit(body.primitive->shape, X_WB(state, side.body) * body.primitive->X_BS, side.p_WC_mm,
                       side.n_W.normalized(), settings);
}

}  // namespace sg
