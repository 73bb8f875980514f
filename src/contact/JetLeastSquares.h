#pragma once
// The weighted least-squares system of the osculating jet (README.md §Curvature estimators, "Solving"), used by
// fitOsculatingJet (CurvatureEstimator.h). Sizes are bounded (degree ≤ 6: at most 28 unknowns), so the normal
// matrix, its Cholesky factor and the coefficients live on the stack, and the design matrix in a per-thread
// buffer that only grows: a fit allocates nothing on the heap.
#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include "core/Transform.h"

namespace sg::jet {

constexpr int kMaxDegree = 6;
constexpr int kMaxUnknowns = (kMaxDegree + 1) * (kMaxDegree + 2) / 2;

// Coefficients of a bivariate polynomial of total degree d.
constexpr int unknowns(int degree) { return (degree + 1) * (degree + 2) / 2; }

// Exponents (i, j) of the monomials x^i y^j, ordered by total degree, then by j: 1, x, y, x², xy, y², … (the
// first unknowns(d) of them are the monomials of degree ≤ d).
inline constexpr std::array<std::pair<int, int>, kMaxUnknowns> kMonomials = [] {
  std::array<std::pair<int, int>, kMaxUnknowns> m{};
  std::size_t c = 0;
  for (int total = 0; total <= kMaxDegree; ++total)
    for (int j = 0; j <= total; ++j) m[c++] = {total - j, j};
  return m;
}();

// One neighbourhood sample in the contact frame.
struct Sample {
  Vec3 q;           // frame coordinates (mm)
  bool hasSlope;
  double sx, sy;    // slopes f_x, f_y from the normal
  double w;         // sqrt of the weight
};

using Coefficients = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxUnknowns, 1>;

// The coefficients of g(u, v) = Σ_c coef(c)·u^i·v^j (u = x/ρ, v = y/ρ, g = f/ρ; kMonomials[c] = (i, j), degree
// ≤ `degree`) fitting, with the samples' weights, g(u_k, v_k) = z_k/ρ and, where a sample has a slope,
// g_u = s_x, g_v = s_y. `rows` = samples + 2 × samples with a slope. Solved by the semi-normal equations with
// refinement (CSNE), column-pivoted QR (rank threshold 1e-9) deciding when those do not settle; nullopt when
// that finds the system rank deficient at this degree, or when the degree is not 2 … kMaxDegree (each degree has
// its own compiled solver, README.md §Curvature estimators, "Solving").
std::optional<Coefficients> solveJet(const std::vector<Sample>& samples, double rho, int degree, int rows);

}  // namespace sg::jet
