#include "grasp/GraspMatrix.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>

namespace sg {

MatX graspMatrix(const GraspEvaluation& e) {
  const double rho = e.reference.torqueScale_mm;
  std::vector<Vec6> columns;
  auto column = [&](const Vec3& force, const Vec3& torque) {
    Vec6 w;
    w << force, torque / rho;
    columns.push_back(w);
  };
  for (const ContactEvaluation& c : e.contacts) {
    const ContactSide& side = c.onObject();
    const Transform frame = objectContactFrame(side, e.reference.objectPose);
    const Mat3 R = frame.rotationMatrix();
    const Vec3 p = frame.translation() - e.reference.cog_mm;
    const Vec3 tx = R.col(0), ty = R.col(1), n = R.col(2);
    column(n, p.cross(n));
    if (c.kind == ContactKind::Frictionless) continue;
    column(tx, p.cross(tx));
    column(ty, p.cross(ty));
    if (c.kind == ContactKind::SoftFinger) column(Vec3::Zero(), n);
  }
  MatX G(6, static_cast<Eigen::Index>(columns.size()));
  for (std::size_t k = 0; k < columns.size(); ++k) G.col(static_cast<Eigen::Index>(k)) = columns[k];
  return G;
}

double minSingularValue(const MatX& G) {
  if (G.rows() != 6 || G.cols() < 6) return 0.0;
  // σ_i(G)² are the eigenvalues of the 6×6 G·Gᵀ: cheaper than an SVD of a wide matrix.
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 6, 6>> eig(G * G.transpose(), Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, eig.eigenvalues()(0)));
}

}  // namespace sg
