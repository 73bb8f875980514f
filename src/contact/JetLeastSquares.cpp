#include "contact/JetLeastSquares.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/Decompositions.h"

namespace sg::jet {

namespace {

constexpr int kMaxPower = 2 * kMaxDegree;  // of a product of two monomials

using MatrixMap = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;
using VectorMap = Eigen::Map<Eigen::VectorXd>;

// The design matrix (row-major), right-hand side and residual of the last fit on this thread (the planner fits on several).
struct Scratch {
  std::vector<double> A, b, r;
};
thread_local Scratch scratch;

// x⁰ … x^n, each the product of its predecessor and x (so the first ones are those the design matrix uses).
void powers(double x, int n, double* p) {
  p[0] = 1;
  for (int k = 1; k <= n; ++k) p[k] = p[k - 1] * x;
}

// Weighted moments Σ w²·u^p·v^q, p + q ≤ 2·degree, over the samples with a slope and over those without one
// (a sample adds to one table only; the positions' moments are the sum of both). Sized for degree D.
template <int D>
struct Moments {
  double withSlope[2 * D + 1][2 * D + 1] = {};
  double withoutSlope[2 * D + 1][2 * D + 1] = {};
};

// The normal matrix AᵀA (n × n, row-major, lower triangle and diagonal used) and, after factor(), its Cholesky
// factor L (G = L·Lᵀ) in the same place. n × n for degree D (at most 28 × 28): on the stack. Every loop below has
// its bound known at compile time, so it is unrolled, in the same order of operations as a loop to a run-time n.
template <int D>
struct Normal {
  static constexpr int n = unknowns(D);
  double G[n][n];

  // AᵀA from the moments. Every row of A is w times a monomial (a position row, u^i·v^j) or a derivative of one
  // (the slope rows, i·u^(i−1)·v^j and j·u^i·v^(j−1)), so an entry of AᵀA is a moment of the samples: for
  // monomials (i, j) and (k, l), Σ w²·u^(i+k)·v^(j+l) over the positions plus i·k·Σ w²·u^(i+k−2)·v^(j+l) and
  // j·l·Σ w²·u^(i+k)·v^(j+l−2) over the slopes. 91 moments per sample instead of ~3·406 products of row entries
  // (degree 6); the sums are the same up to round-off, which the refinement with the true residual removes
  // (solveBySemiNormalEquations).
  explicit Normal(const Moments<D>& m) {
    for (int c = 0; c < n; ++c) {
      const auto [i, j] = kMonomials[static_cast<std::size_t>(c)];
      for (int d = 0; d <= c; ++d) {
        const auto [k, l] = kMonomials[static_cast<std::size_t>(d)];
        double g = m.withSlope[i + k][j + l] + m.withoutSlope[i + k][j + l];
        if (i > 0 && k > 0) g += static_cast<double>(i * k) * m.withSlope[i + k - 2][j + l];
        if (j > 0 && l > 0) g += static_cast<double>(j * l) * m.withSlope[i + k][j + l - 2];
        G[c][d] = g;
      }
    }
  }

  // Cholesky–Banachiewicz in place; false when a pivot is not positive (or not a number).
  bool factor() {
    for (int i = 0; i < n; ++i)
      for (int j = 0; j <= i; ++j) {
        double s = G[i][j];
        for (int k = 0; k < j; ++k) s -= G[i][k] * G[j][k];
        if (i > j) {
          G[i][j] = s / G[j][j];
        } else {
          if (!(s > 0)) return false;
          G[i][i] = std::sqrt(s);
        }
      }
    return true;
  }

  double pivotRatio() const {
    double lo = G[0][0], hi = G[0][0];
    for (int i = 1; i < n; ++i) {
      lo = std::min(lo, G[i][i]);
      hi = std::max(hi, G[i][i]);
    }
    return lo / hi;
  }

  // x ← (L·Lᵀ)⁻¹·x: forward, then backward substitution.
  void solveInPlace(Coefficients& x) const {
    for (int i = 0; i < n; ++i) {
      double s = x(i);
      for (int k = 0; k < i; ++k) s -= G[i][k] * x(k);
      x(i) = s / G[i][i];
    }
    for (int i = n - 1; i >= 0; --i) {
      double s = x(i);
      for (int k = i + 1; k < n; ++k) s -= G[k][i] * x(k);
      x(i) = s / G[i][i];
    }
  }
};

// Weighted least squares A·x ≈ b of the jet (README.md §Curvature estimators, "Solving"): the semi-normal
// equations (R from the Cholesky factor of AᵀA) corrected by refinement steps with the true residual (CSNE),
// each step shrinking the error by about cond(A)² × round-off. About m·n² flops against column-pivoted QR's
// 2·m·n², and as accurate while cond(A)² × round-off is well below 1. Nullopt, and QR decides (rank
// included), when the factor's pivots spread more than kMinPivotRatio or the refinement does not settle.
template <int D>
std::optional<Coefficients> solveBySemiNormalEquations(const MatrixMap& A, const VectorMap& b, Normal<D>& normal,
                                                       VectorMap& residual) {
  constexpr double kMinPivotRatio = 1e-6, kSettled = 1e-12;
  if (!normal.factor() || !(normal.pivotRatio() > kMinPivotRatio)) return std::nullopt;
  Coefficients x(A.cols());
  x.noalias() = A.transpose() * b;
  normal.solveInPlace(x);
  Coefficients dx(A.cols());
  for (int step = 0; step < 4; ++step) {
    residual = b;
    residual.noalias() -= A * x;
    dx.noalias() = A.transpose() * residual;
    normal.solveInPlace(dx);
    x += dx;
    if (!x.allFinite()) return std::nullopt;
    if (dx.norm() <= kSettled * x.norm()) return x;
  }
  return std::nullopt;
}

// solveJet at degree D: the loops' bounds known at compile time, the arithmetic that of a run-time degree.
template <int D>
std::optional<Coefficients> solveJetAt(const std::vector<Sample>& samples, double rho, int rows) {
  constexpr int degree = D;
  constexpr int n = unknowns(degree);
  const auto size = static_cast<std::size_t>(rows);
  if (scratch.A.size() < size * static_cast<std::size_t>(n)) scratch.A.resize(size * static_cast<std::size_t>(n));
  if (scratch.b.size() < size) {
    scratch.b.resize(size);
    scratch.r.resize(size);
  }
  MatrixMap A(scratch.A.data(), rows, n);
  VectorMap b(scratch.b.data(), rows), residual(scratch.r.data(), rows);
  Moments<D> moments;
  constexpr int top = 2 * degree;
  int r = 0;
  for (const Sample& s : samples) {
    double pu[kMaxPower + 1], pv[kMaxPower + 1];
    powers(s.q.x() / rho, top, pu);
    powers(s.q.y() / rho, top, pv);
    const double w = s.w;
    // The entries as w·u^i·v^j = (w·u^i)·v^j and the slopes' (w·i·u^(i−1))·v^j, (w·j·u^i)·v^(j−1).
    double wu[kMaxDegree + 1], wdu[kMaxDegree + 1];
    for (int i = 0; i <= degree; ++i) {
      wu[i] = w * pu[i];
      wdu[i] = i > 0 ? w * i * pu[i - 1] : 0.0;
    }
    // Row-major: a sample's rows are contiguous. Monomial c = (t − j, j) in the order of kMonomials.
    double* position = scratch.A.data() + static_cast<std::size_t>(r) * static_cast<std::size_t>(n);
    for (int t = 0, c = 0; t <= degree; ++t)
      for (int j = 0; j <= t; ++j, ++c) position[c] = wu[t - j] * pv[j];
    b(r++) = w * s.q.z() / rho;
    const double w2 = w * w;
    auto& sums = s.hasSlope ? moments.withSlope : moments.withoutSlope;
    for (int p = 0; p <= top; ++p) {
      const double f = w2 * pu[p];
      for (int q = 0; q <= top - p; ++q) sums[p][q] += f * pv[q];
    }
    if (!s.hasSlope) continue;
    double* slopeX = position + n;
    double* slopeY = slopeX + n;
    for (int t = 0, c = 0; t <= degree; ++t)
      for (int j = 0; j <= t; ++j, ++c) {
        const int i = t - j;
        slopeX[c] = wdu[i] * pv[j];
        slopeY[c] = j > 0 ? w * j * pu[i] * pv[j - 1] : 0.0;
      }
    b(r++) = w * s.sx;
    b(r++) = w * s.sy;
  }
  Normal<D> normal(moments);
  if (auto x = solveBySemiNormalEquations(A, b, normal, residual)) return x;
  // The rare ill-conditioned or unsettled system: column-pivoted QR decides, rank included.
  const Eigen::MatrixXd dense = A;
  const ColPivQrSolution qr = colPivQrSolve(dense, Eigen::VectorXd(b), 1e-9, n);
  if (qr.rank < n) return std::nullopt;
  return Coefficients(qr.x);
}

}  // namespace

std::optional<Coefficients> solveJet(const std::vector<Sample>& samples, double rho, int degree, int rows) {
  switch (degree) {
    case 2: return solveJetAt<2>(samples, rho, rows);
    case 3: return solveJetAt<3>(samples, rho, rows);
    case 4: return solveJetAt<4>(samples, rho, rows);
    case 5: return solveJetAt<5>(samples, rho, rows);
    case 6: return solveJetAt<6>(samples, rho, rows);
    default: return std::nullopt;
  }
}

}  // namespace sg::jet
