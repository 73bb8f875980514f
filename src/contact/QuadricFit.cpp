#include "contact/QuadricFit.h"

#include <cmath>
#include <limits>

#include "core/Decompositions.h"

namespace sg {

namespace {
double radiusOf(double kappa) {
  return kappa == 0 ? std::numeric_limits<double>::infinity() : 1.0 / kappa;
}
}  // namespace

const char* curvatureEstimatorName(CurvatureEstimator e) {
  switch (e) {
    case CurvatureEstimator::GraspItParaboloid: return "GraspIt! paraboloid";
    case CurvatureEstimator::OsculatingJet: return "osculating jet";
    case CurvatureEstimator::Exact: return "exact (primitive)";
  }
  return "?";
}

const char* quadricFitStatusKey(QuadricFitStatus s) {
  switch (s) {
    case QuadricFitStatus::Ok: return "ok";
    case QuadricFitStatus::TooFewPoints: return "too-few-points";
    case QuadricFitStatus::Degenerate: return "degenerate";
    case QuadricFitStatus::Unreliable: return "unreliable";
  }
  return "?";
}

double PrincipalCurvatures::radiusMax_mm() const { return radiusOf(kappaMax_per_mm); }
double PrincipalCurvatures::radiusMin_mm() const { return radiusOf(kappaMin_per_mm); }

PrincipalCurvatures principalCurvatures(double a, double b, double c, const Transform& frame,
                                        const QuadricFitSettings& settings) {
  Eigen::Matrix2d hessian;
  hessian << 2 * a, c, c, 2 * b;
  const SymmetricEigen2 eig = symmetricEigen(hessian);  // eigenvalues ascending
  PrincipalCurvatures out;
  auto flatten = [&](double k) { return std::abs(k) < settings.flatCurvature_per_mm ? 0.0 : k; };
  out.kappaMax_per_mm = flatten(eig.values(1));
  out.kappaMin_per_mm = flatten(eig.values(0));
  const Eigen::Vector2d dMax = eig.vectors.col(1);
  const Mat3 R = frame.rotationMatrix();
  out.directionMax = (R.col(0) * dMax.x() + R.col(1) * dMax.y()).normalized();
  out.directionMin = R.col(2).cross(out.directionMax).normalized();
  return out;
}

QuadricFit fitQuadric(const std::vector<Vec3>& points_mm, const Transform& frame, const QuadricFitSettings& settings) {
  QuadricFit fit;
  fit.pointCount = static_cast<int>(points_mm.size());
  const Transform toFrame = frame.inverse();  // full transform: rotation AND translation (src/contact/README.md §Differences from GraspIt!)
  Eigen::MatrixXd design(points_mm.size(), 3);
  Eigen::VectorXd z(points_mm.size());
  for (std::size_t i = 0; i < points_mm.size(); ++i) {
    const Vec3 q = toFrame * points_mm[i];
    design.row(static_cast<Eigen::Index>(i)) << q.x() * q.x(), q.y() * q.y(), q.x() * q.y();
    z(static_cast<Eigen::Index>(i)) = q.z();
  }
  // Points at the origin carry no information; count the others.
  const Eigen::Index informative = (design.rowwise().norm().array() > 1e-12).count();
  if (informative < 3) {
    fit.status = QuadricFitStatus::TooFewPoints;
  } else {
    const ColPivQrSolution qr = colPivQrSolve(design, z, 1e-10, 3);
    if (qr.rank < 3) {
      fit.status = QuadricFitStatus::Degenerate;
    } else {
      const Eigen::Vector3d abc = qr.x;
      fit.a = abc(0);
      fit.b = abc(1);
      fit.c = abc(2);
      fit.status = QuadricFitStatus::Ok;
      if (points_mm.size() > 0) fit.rmsResidual_mm = std::sqrt((design * abc - z).squaredNorm() / z.size());
    }
  }
  if (fit.status != QuadricFitStatus::Ok && z.size() > 0) fit.rmsResidual_mm = std::sqrt(z.squaredNorm() / z.size());
  fit.curvatures = principalCurvatures(fit.a, fit.b, fit.c, frame, settings);
  return fit;
}

}  // namespace sg
