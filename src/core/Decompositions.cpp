#include "core/Decompositions.h"

#include <Eigen/Dense>

namespace sg {

Quat rotationBetween(const Vec3& from, const Vec3& to) { return Quat::FromTwoVectors(from, to); }

SymmetricEigen2 symmetricEigen(const Eigen::Matrix2d& m) {
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(m);
  return {eig.eigenvalues(), eig.eigenvectors(), eig.info()};
}

SymmetricEigen2 generalizedSymmetricEigen(const Eigen::Matrix2d& a, const Eigen::Matrix2d& b) {
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::Matrix2d> eig(a, b);
  return {eig.eigenvalues(), eig.eigenvectors(), eig.info()};
}

ColPivQrSolution colPivQrSolve(const MatX& a, const VecX& b, std::optional<double> threshold, Eigen::Index minRank) {
  Eigen::ColPivHouseholderQR<MatX> qr(a);
  if (threshold) qr.setThreshold(*threshold);
  ColPivQrSolution out;
  out.rank = qr.rank();
  if (out.rank >= minRank) out.x = qr.solve(b);
  return out;
}

}  // namespace sg
