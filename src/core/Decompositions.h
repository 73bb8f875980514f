#pragma once
// Eigen's heavier solvers behind plain functions. Each is instantiated and optimised once, in
// core/Decompositions.cpp, instead of in every unity batch and test batch that calls it: at -O3 one
// Quat::FromTwoVectors or SelfAdjointEigenSolver<Matrix2d> costs a translation unit about 6-7 CPU s, a
// ColPivHouseholderQR<MatrixXd> about 7 (tests/BUILD_TIME.md §Eigen's solvers compiled once).
// Each function is exactly the Eigen call its comment names, so the results are Eigen's, bit for bit.
#include <optional>

#include "core/Math.h"

namespace sg {

// Quat::FromTwoVectors(from, to): the smallest rotation taking the direction of `from` to that of `to`.
Quat rotationBetween(const Vec3& from, const Vec3& to);

// An eigen decomposition of a symmetric 2×2 problem: eigenvalues ascending, eigenvectors as columns.
struct SymmetricEigen2 {
  Eigen::Vector2d values;
  Eigen::Matrix2d vectors;
  Eigen::ComputationInfo info = Eigen::Success;
};

// Eigen::SelfAdjointEigenSolver<Matrix2d>(m) (Eigen reads the lower triangle).
SymmetricEigen2 symmetricEigen(const Eigen::Matrix2d& m);

// Eigen::GeneralizedSelfAdjointEigenSolver<Matrix2d>(a, b): a·v = λ·b·v with b positive definite.
SymmetricEigen2 generalizedSymmetricEigen(const Eigen::Matrix2d& a, const Eigen::Matrix2d& b);

// Least squares by Eigen::ColPivHouseholderQR<MatrixXd>(a): setThreshold(*threshold) when given (Eigen's default
// otherwise), then rank(); x = qr.solve(b) when rank >= minRank, else empty.
struct ColPivQrSolution {
  Eigen::Index rank = 0;
  VecX x;
};
ColPivQrSolution colPivQrSolve(const MatX& a, const VecX& b, std::optional<double> threshold = std::nullopt,
                               Eigen::Index minRank = 0);

}  // namespace sg
