#include "grasp/SupportEpsilon.h"

#include "grasp/ExpandingPolytope.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <Eigen/QR>


namespace sg {

const char* toString(SupportEpsilonStatus s) {
  switch (s) {
    case SupportEpsilonStatus::Converged: return "converged";
    case SupportEpsilonStatus::Flat: return "flat (lower-dimensional) wrench set";
    case SupportEpsilonStatus::Empty: return "no wrenches";
    case SupportEpsilonStatus::InvalidInput: return "invalid input";
    case SupportEpsilonStatus::NotConverged: return "did not converge";
    case SupportEpsilonStatus::StoppedEarly: return "stopped early: not force closure";
  }
  return "?";
}

SupportEpsilonSettings supportEpsilonSettingsFor(const GwsSettings& gws, double tol) {
  SupportEpsilonSettings s;
  s.dimensions = gws.dimensions;
  s.l1ForceOffset = gws.l1ForceOffset;
  s.forceClosureTolerance = tol;
  return s;
}

namespace {

// Packed coordinates, the facet and the expanding polytope: grasp/ExpandingPolytope.h.
using namespace support_polytope;

struct Space {
  int d = 0;
  std::array<int, kMaxDim> idx{};
  explicit Space(const std::array<bool, 6>& dims) {
    for (int k = 0; k < 6; ++k)
      if (dims[static_cast<std::size_t>(k)]) idx[static_cast<std::size_t>(d++)] = k;
  }
  Vec6 embed(const VecD& x) const {
    Vec6 w = Vec6::Zero();
    for (int i = 0; i < d; ++i) w(idx[static_cast<std::size_t>(i)]) = x(i);
    return w;
  }
  VecD pack(const Vec6& w) const {
    VecD x(d);
    for (int i = 0; i < d; ++i) x(i) = w(idx[static_cast<std::size_t>(i)]);
    return x;
  }
};

// Unit vectors spanning the orthogonal complement of the columns of `m` (d × k, k < d).
MatD complementOf(const MatD& m, int d) {
  if (m.cols() == 0) return MatD::Identity(d, d);
  Eigen::HouseholderQR<MatD> qr(m);
  const MatD q = qr.householderQ();
  return q.rightCols(d - m.cols());
}

// --- the solver ---------------------------------------------------------------------------------------------
// Oracle: double(const VecD& u, VecD& point) in packed coordinates.
template <class Oracle>
class Solver {
 public:
  Solver(Oracle& oracle, const Space& space, const SupportEpsilonSettings& s) : h_(oracle), sp_(space), s_(s) {}

  SupportEpsilon run() {
    const int d = sp_.d;
    // (1) Affine hull: supports along ±e_k, then along directions orthogonal to what was found.
    std::vector<VecD> found;
    for (int k = 0; k < d; ++k)
      for (double sgn : {1.0, -1.0}) {
        VecD p;
        if (!query(sgn * VecD::Unit(d, k), p)) return stop();
        found.push_back(p);
      }
    double scale = 0;
    for (const auto& p : found) scale = std::max(scale, p.norm());
    if (!(scale > 0)) return flat(VecD::Unit(d, 0), "all wrenches are zero");
    tolAbs_ = s_.absoluteTolerance * scale;
    const double tolFlat = s_.flatTolerance * scale;

    std::vector<VecD> simplex{found[0]};
    MatD basis(d, 0), flatDirs(d, 0);
    auto residual = [&](const VecD& p) -> VecD {
      VecD r = p - simplex[0];
      for (int pass = 0; pass < 2; ++pass) r -= basis * (basis.transpose() * r);
      return r;
    };
    auto addToBasis = [&](const VecD& p, const VecD& r) {
      simplex.push_back(p);
      basis.conservativeResize(d, basis.cols() + 1);
      basis.col(basis.cols() - 1) = r / r.norm();
    };
    while (basis.cols() < d) {  // greedy: the farthest point from the span so far
      int best = -1;
      double bestNorm = tolFlat;
      for (std::size_t i = 0; i < found.size(); ++i) {
        const double rn = residual(found[i]).norm();
        if (rn > bestNorm) { bestNorm = rn; best = static_cast<int>(i); }
      }
      if (best < 0) break;
      addToBasis(found[static_cast<std::size_t>(best)], residual(found[static_cast<std::size_t>(best)]));
    }
    while (basis.cols() + flatDirs.cols() < d) {
      MatD known(d, basis.cols() + flatDirs.cols());
      known << basis, flatDirs;
      const VecD v = complementOf(known, d).col(0);
      VecD p1, p2;
      if (!query(v, p1)) return stop();
      const double h1 = hLast_;
      if (!query(-v, p2)) return stop();
      const double h2 = hLast_;
      found.push_back(p1);
      found.push_back(p2);
      const VecD r1 = residual(p1), r2 = residual(p2);
      const VecD& r = r1.norm() >= r2.norm() ? r1 : r2;
      if (r.norm() > tolFlat) addToBasis(r1.norm() >= r2.norm() ? p1 : p2, r);
      else {
        flatDirs.conservativeResize(d, flatDirs.cols() + 1);
        flatDirs.col(flatDirs.cols() - 1) = v;
        if (flatDirs.cols() == 1) flatDir_ = h1 <= h2 ? v : VecD(-v);  // the lower side of the flat
      }
    }
    if (flatDirs.cols() > 0) {
      // A flat set holds no ball about the origin (never force closure), but its ε keeps the one sign rule
      // (QUALITY.md "One sign rule"): −dist(0, W) when the origin is outside it (one contact, contacts all on
      // one side), 0 when the origin lies in it (on its boundary, as W has no interior).
      if (!wolfe(found)) return result_;
      if (done_) {
        result_.message = "the wrenches span fewer dimensions than used; the origin is outside them";
        return result_;
      }
      return flat(flatDir_, "the wrenches span fewer dimensions than used");
    }

    // (2) Wolfe's minimum-norm point: is the origin outside, and how far (QUALITY.md "Origin outside")?
    if (!wolfe(found)) return result_;
    if (done_) return result_;

    // (3) Expanding polytope from the simplex, seeded with every support point found so far.
    switch (d) {
      case 2: return expand<2>(simplex, found);
      case 3: return expand<3>(simplex, found);
      case 4: return expand<4>(simplex, found);
      case 5: return expand<5>(simplex, found);
      default: return expand<6>(simplex, found);
    }
  }

 private:
  template <int D>
  SupportEpsilon& expand(const std::vector<VecD>& simplex, const std::vector<VecD>& found) {
    PolytopeLease<D> lease;
    Polytope<D>& poly = *lease;
    poly.reset(tolAbs_);
    // A relative step of 1 % of the gap towards the interior costs the lower bound ≤ 1 % of the gap.
    poly.setPerturbation(std::min(1e-4, std::max(1e-10, 1e-2 * s_.relativeGap)));
    if (!poly.init(simplex)) return breakdown("the initial simplex is degenerate");
    for (const auto& p : found) poly.addIfOutside(p);  // a seed round-off rejects is simply left out
    for (const auto& p : corral_) poly.addIfOutside(p);
    for (;;) {
      poly.setCutoff(upper_);
      const int f0 = poly.lowest();
      if (f0 < 0) {
        // Every live facet lies at or above the upper bound (setCutoff): the inradius of P ⊆ W is too.
        if (upper_ >= -tolAbs_) { lower_ = std::max(lower_, upper_); break; }
        return breakdown("no facets left");
      }
      const double b = poly.facet(f0).b;
      // P ⊆ W convex: if P holds the origin (b ≥ 0) its inradius b bounds ε from below.
      // (b ≥ −round-off: the origin on the boundary, QUALITY.md "Bounds".)
      if (b >= -tolAbs_) lower_ = std::max(lower_, b);
      if (converged()) break;
      VecD q;
      const VecD n = poly.normal(f0);
      if (!query(n, q)) return stop();
      if (converged()) break;
      if (s_.stopWhenNotForceClosure && upper_ <= s_.forceClosureTolerance) {
        result_.workingSetSize = poly.vertexCount();
        return finish(SupportEpsilonStatus::StoppedEarly, upper_, sp_.embed(uBest_), "");
      }
      if (!(poly.distance(f0, pad(q)) > tolAbs_)) {
        // The support lies on the facet's plane to round-off: nothing left to add.
        if (upper_ - lower_ <= gapTolerance() + 4 * tolAbs_) break;
        return breakdown("no progress at the round-off floor");
      }
      if (!poly.add(q, f0)) {
        // Round-off left no manifold horizon even for a moved q (a reflex ridge left by an earlier, nearly
        // degenerate insertion): build P again from the same simplex, q first, then the other vertices in
        // reverse order (each still a point of W). After two rebuilds, stop with the bounds reached (P is
        // still a valid inner polytope, the upper bound a queried value).
        if (rebuilds_ < 2) {
          ++rebuilds_;
          std::vector<VecD> points = poly.vertices();
          poly.reset(tolAbs_);
          if (!poly.init(simplex)) return breakdown("the initial simplex is degenerate");
          poly.addIfOutside(q);
          for (std::size_t i = points.size(); i-- > simplex.size();) poly.addIfOutside(points[i]);
          continue;
        }
        result_.workingSetSize = poly.vertexCount();
        result_.facetCount = poly.facetCount();
        result_.facetsCreated = poly.createdCount();
        return breakdown("round-off left no manifold horizon for a new support point");
      }
    }
    result_.workingSetSize = poly.vertexCount();
    result_.facetCount = poly.facetCount();
    result_.facetsCreated = poly.createdCount();
    return finish(SupportEpsilonStatus::Converged, upper_, sp_.embed(uBest_), "");
  }

  // One support query; keeps the upper bound (ε ≤ h(u) for any unit u).
  bool query(const VecD& u, VecD& p) {
    if (result_.iterations >= s_.maxIterations) return false;
    ++result_.iterations;
    p.resize(sp_.d);
    const double h = h_(u, p);
    if (h == -kInf) {  // the empty set
      empty_ = true;
      return false;
    }
    if (!std::isfinite(h) || !p.allFinite()) {
      invalid_ = true;
      return false;
    }
    hLast_ = h;
    if (h < upper_) { upper_ = h; uBest_ = u; }
    return true;
  }

  double gapTolerance() const { return s_.relativeGap * std::max(std::abs(lower_), std::abs(upper_)) + tolAbs_; }
  bool converged() const { return upper_ - lower_ <= gapTolerance(); }

  // Wolfe (1976): x = the point of conv(corral) nearest the origin; add the support point of −x while it
  // improves. Returns false when the run must stop (result_ filled); sets done_ when the origin is outside.
  bool wolfe(const std::vector<VecD>& found) {
    const int d = sp_.d;
    std::size_t start = 0;
    for (std::size_t i = 1; i < found.size(); ++i)
      if (found[i].squaredNorm() < found[start].squaredNorm()) start = i;
    corral_.assign(1, found[start]);
    std::vector<double> lambda{1.0};
    VecD x = corral_[0];
    for (;;) {
      const double nx = x.norm();
      if (nx <= tolAbs_) {  // the origin is in W (to round-off): ε ≥ −|x|
        lower_ = std::max(lower_, -nx);
        result_.originInside = true;
        return true;
      }
      lower_ = std::max(lower_, -nx);  // x ∈ W: dist(0, W) ≤ |x|
      const VecD u = -x / nx;
      VecD q;
      if (!query(u, q)) { stop(); return false; }
      if (s_.stopWhenNotForceClosure && upper_ <= s_.forceClosureTolerance) {
        result_.workingSetSize = static_cast<int>(corral_.size());
        finish(SupportEpsilonStatus::StoppedEarly, upper_, sp_.embed(uBest_), "");
        return false;
      }
      if (upper_ < -tolAbs_ && converged()) {  // certainly outside, distance to the gap
        result_.workingSetSize = static_cast<int>(corral_.size());
        finish(SupportEpsilonStatus::Converged, -nx, sp_.embed(u), "");
        done_ = true;
        return true;
      }
      if (static_cast<int>(corral_.size()) > d) return true;  // round-off: let the polytope decide
      corral_.push_back(q);
      lambda.push_back(0);
      for (int minor = 0; minor <= d + 1; ++minor) {
        const std::vector<double> alpha = affineMinimizer();
        if (alpha.empty()) {  // q on the corral's affine hull to round-off
          corral_.pop_back();
          lambda.pop_back();
          return true;
        }
        if (*std::min_element(alpha.begin(), alpha.end()) > 0) {
          lambda = alpha;
          break;
        }
        // Step from λ towards α until a weight reaches zero; drop it.
        double theta = 2;
        std::size_t drop = 0;
        for (std::size_t i = 0; i < alpha.size(); ++i)
          if (alpha[i] <= 0) {
            const double t = lambda[i] > alpha[i] ? lambda[i] / (lambda[i] - alpha[i]) : 0.0;
            if (t < theta) { theta = t; drop = i; }
          }
        for (std::size_t i = 0; i < alpha.size(); ++i) lambda[i] = (1 - theta) * lambda[i] + theta * alpha[i];
        lambda[drop] = 0;
        for (std::size_t i = lambda.size(); i-- > 0;)
          if (lambda[i] <= 0) {
            lambda.erase(lambda.begin() + static_cast<std::ptrdiff_t>(i));
            corral_.erase(corral_.begin() + static_cast<std::ptrdiff_t>(i));
          }
        if (corral_.empty()) return true;
      }
      double sum = 0;
      for (double l : lambda) sum += l;
      VecD next = VecD::Zero(d);
      for (std::size_t i = 0; i < corral_.size(); ++i) next += (lambda[i] / sum) * corral_[i];
      if (!(next.norm() < nx)) return true;  // stalled at round-off: let the polytope decide
      x = next;
    }
  }

  // Barycentric coordinates of the point of aff(corral) nearest the origin; empty if degenerate.
  std::vector<double> affineMinimizer() const {
    const int d = sp_.d;
    const int k = static_cast<int>(corral_.size()) - 1;
    if (k == 0) return {1.0};
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDim, kMaxDim + 1> D(d, k);
    for (int i = 0; i < k; ++i) D.col(i) = corral_[static_cast<std::size_t>(i + 1)] - corral_[0];
    // Least squares D·β = −s0 by Householder QR; a tiny pivot means q is on the corral's affine hull.
    Eigen::HouseholderQR<decltype(D)> qr(D);
    const auto& R = qr.matrixQR();
    double rmax = 0;
    for (int i = 0; i < k; ++i) rmax = std::max(rmax, std::abs(R(i, i)));
    for (int i = 0; i < k; ++i)
      if (!(std::abs(R(i, i)) > 1e-11 * rmax)) return {};
    VecD rhs = -corral_[0];
    rhs.applyOnTheLeft(qr.householderQ().adjoint());
    const Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxDim, 1> beta =
        R.topLeftCorner(k, k).template triangularView<Eigen::Upper>().solve(rhs.head(k));
    std::vector<double> alpha(static_cast<std::size_t>(k + 1));
    double sum = 0;
    for (int i = 0; i < k; ++i) { alpha[static_cast<std::size_t>(i + 1)] = beta(i); sum += beta(i); }
    alpha[0] = 1 - sum;
    return alpha;
  }

  SupportEpsilon& finish(SupportEpsilonStatus status, double eps, const Vec6& u, const std::string& message) {
    result_.status = status;
    result_.message = message.empty() ? toString(status) : message;
    result_.epsilon = eps;
    result_.lowerBound = std::min(lower_, eps);
    result_.upperBound = std::max(upper_, eps);
    result_.weakestDirection = u;
    result_.worstCaseWrench = eps * u;
    result_.forceClosure = eps > s_.forceClosureTolerance;
    result_.originInside = result_.originInside || lower_ >= -tolAbs_;
    return result_;
  }
  SupportEpsilon& flat(const VecD& v, const std::string& why) {
    lower_ = upper_ = 0;
    finish(SupportEpsilonStatus::Flat, 0, sp_.embed(v), why);
    result_.originInside = false;
    return result_;
  }
  SupportEpsilon& breakdown(const std::string& why) {
    const double eps = std::isfinite(upper_) ? upper_ : 0;
    if (!std::isfinite(lower_)) lower_ = -kInf;
    return finish(SupportEpsilonStatus::NotConverged, eps, std::isfinite(upper_) ? sp_.embed(uBest_) : Vec6::Zero(),
                  std::string("did not converge: ") + why);
  }
  SupportEpsilon& stop() {
    if (empty_) {
      result_ = SupportEpsilon{};
      result_.message = toString(SupportEpsilonStatus::Empty);
      return result_;
    }
    if (invalid_) {
      lower_ = upper_ = 0;
      result_ = SupportEpsilon{};
      result_.status = SupportEpsilonStatus::InvalidInput;
      result_.message = "the support function returned a non-finite value";
      return result_;
    }
    return breakdown("iteration cap (" + std::to_string(s_.maxIterations) + " support queries) reached");
  }

  Oracle& h_;
  const Space& sp_;
  const SupportEpsilonSettings& s_;
  SupportEpsilon result_;
  double upper_ = kInf, lower_ = -kInf;
  VecD uBest_;
  double hLast_ = 0;
  VecD flatDir_;
  double tolAbs_ = 0;
  bool empty_ = false, invalid_ = false, done_ = false;
  int rebuilds_ = 0;
  std::vector<VecD> corral_;
};

SupportEpsilon invalid(const std::string& why) {
  SupportEpsilon r;
  r.status = SupportEpsilonStatus::InvalidInput;
  r.message = why;
  return r;
}

SupportEpsilon empty() {
  SupportEpsilon r;
  r.message = toString(SupportEpsilonStatus::Empty);
  return r;
}

template <class Oracle>
SupportEpsilon solve(Oracle& oracle, const Space& space, const SupportEpsilonSettings& s) {
  Solver<Oracle> solver(oracle, space, s);
  return solver.run();
}

// Explicit wrenches packed into the used coordinates, one column each; contact i owns [first[i], first[i+1]).
struct PackedWrenches {
  MatX m;
  std::vector<Eigen::Index> first;
  VecX scores;
};

PackedWrenches packWrenches(const std::vector<std::vector<Vec6>>& perContact, const Space& sp, const Vec3& forceOffset) {
  PackedWrenches p;
  Eigen::Index n = 0;
  for (const auto& ws : perContact) n += static_cast<Eigen::Index>(ws.size());
  p.m.resize(sp.d, n);
  p.scores.resize(n);
  Eigen::Index j = 0;
  for (const auto& ws : perContact) {
    p.first.push_back(j);
    for (Vec6 w : ws) {
      w.head<3>() += forceOffset;
      p.m.col(j++) = sp.pack(w);
    }
  }
  p.first.push_back(j);
  return p;
}

std::string checkSettings(const SupportEpsilonSettings& s, const Space& sp) {
  if (sp.d < 2) return "at least 2 of the 6 wrench coordinates must be used";
  if (!(s.relativeGap >= 0) || !(s.absoluteTolerance >= 0) || !(s.flatTolerance >= 0))
    return "tolerances must be non-negative numbers";
  return {};
}

}  // namespace

SupportEpsilon epsilonFromSupport(const SupportFunction& support, const SupportEpsilonSettings& s) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  if (!support) return empty();
  auto oracle = [&](const VecD& u, VecD& p) {
    const SupportPoint r = support(sp.embed(u));
    p = sp.pack(r.w);
    return r.h;
  };
  return solve(oracle, sp, s);  // an empty set answers −∞: reported as Empty
}

SupportEpsilon l1EpsilonFromSupport(const std::vector<std::vector<Vec6>>& perContact, const SupportEpsilonSettings& s) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  PackedWrenches p = packWrenches(perContact, sp, s.l1ForceOffset);
  if (p.m.cols() == 0) return empty();
  if (!p.m.allFinite() || !s.l1ForceOffset.allFinite()) return invalid("non-finite wrench coordinates");
  auto oracle = [&](const VecD& u, VecD& point) {
    p.scores.noalias() = p.m.transpose() * u;
    Eigen::Index j = 0;
    const double h = p.scores.maxCoeff(&j);
    point = p.m.col(j);
    return h;
  };
  return solve(oracle, sp, s);
}

SupportEpsilon lInfinityEpsilonFromSupport(const std::vector<std::vector<Vec6>>& perContact,
                                           const SupportEpsilonSettings& s) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  PackedWrenches p = packWrenches(perContact, sp, Vec3::Zero());
  if (p.m.cols() == 0) return empty();
  if (!p.m.allFinite()) return invalid("non-finite wrench coordinates");
  auto oracle = [&](const VecD& u, VecD& point) {
    p.scores.noalias() = p.m.transpose() * u;
    double h = 0;
    point.setZero(sp.d);
    for (std::size_t i = 0; i + 1 < p.first.size(); ++i) {
      const Eigen::Index a = p.first[i], n = p.first[i + 1] - a;
      if (n == 0) continue;
      Eigen::Index j = 0;
      const double best = p.scores.segment(a, n).maxCoeff(&j);
      if (best > 0) { h += best; point += p.m.col(a + j); }
    }
    return h;
  };
  return solve(oracle, sp, s);
}

SupportEpsilon exactConeEpsilon(const std::vector<ExactContactCone>& cones, double rho, GwsType type,
                                const SupportEpsilonSettings& s) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  if (!(rho > 0) || !std::isfinite(rho)) return invalid("the torque scale must be a positive number");
  if (cones.empty()) return empty();
  for (const auto& c : cones)
    if (!c.p_OC_mm.allFinite() || !c.n_O.allFinite() || !c.t1_O.allFinite() || !c.t2_O.allFinite() ||
        !(c.mu >= 0) || !std::isfinite(c.mu) || !(c.torsion_mm >= 0) || !std::isfinite(c.torsion_mm))
      return invalid("non-finite or negative exact-cone data");
  const Vec3 offset = type == GwsType::L1 ? s.l1ForceOffset : Vec3::Zero();
  auto oracle = [&](const VecD& u, VecD& point) {
    const Vec6 u6 = sp.embed(u);
    SupportPoint r = type == GwsType::L1 ? supportExactL1(cones, rho, u6) : supportExactLInfinity(cones, rho, u6);
    r.w.head<3>() += offset;
    r.h += offset.dot(u6.head<3>());
    point = sp.pack(r.w);
    return r.h;
  };
  return solve(oracle, sp, s);
}

}  // namespace sg
