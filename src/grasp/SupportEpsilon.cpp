#include "grasp/SupportEpsilon.h"

#include "grasp/ExactConePoint.h"
#include "grasp/ExpandingPolytope.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

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

// The kept polytope (one per dimension the set may use) and the shape of the input it was built for.
struct SupportWarmStart::Impl {
  std::vector<std::uint64_t> key;
  bool valid = false;
  int d = 0;
  int coldFacets = 0;  // live facets after the last cold solve: a kept polytope may grow to about twice that
  double clearance = 0;  // the kept surface's distance from the origin is at least this (smallest offset or block bound)
  std::unique_ptr<support_polytope::Polytope<2>> p2;
  std::unique_ptr<support_polytope::Polytope<3>> p3;
  std::unique_ptr<support_polytope::Polytope<4>> p4;
  std::unique_ptr<support_polytope::Polytope<5>> p5;
  std::unique_ptr<support_polytope::Polytope<6>> p6;
  template <int D>
  support_polytope::Polytope<D>& polytope() {
    auto make = [](auto& p) -> auto& {
      if (!p) p = std::make_unique<typename std::remove_reference_t<decltype(p)>::element_type>();
      return *p;
    };
    if constexpr (D == 2) return make(p2);
    else if constexpr (D == 3) return make(p3);
    else if constexpr (D == 4) return make(p4);
    else if constexpr (D == 5) return make(p5);
    else return make(p6);
  }
};

SupportWarmStart::SupportWarmStart() : impl_(std::make_unique<Impl>()) {}
SupportWarmStart::~SupportWarmStart() = default;
SupportWarmStart::SupportWarmStart(SupportWarmStart&&) noexcept = default;
SupportWarmStart& SupportWarmStart::operator=(SupportWarmStart&&) noexcept = default;
void SupportWarmStart::clear() { impl_->valid = false; }
bool SupportWarmStart::holdsPolytope() const { return impl_ && impl_->valid; }
SupportWarmStart::Impl& SupportWarmStart::impl() {
  if (!impl_) impl_ = std::make_unique<Impl>();
  return *impl_;
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
  Solver(Oracle& oracle, const Space& space, const SupportEpsilonSettings& s, SupportWarmStart::Impl* warm)
      : h_(oracle), sp_(space), s_(s), warm_(warm) {}

  SupportEpsilon run() {
    const int d = sp_.d;
    // (1) Affine hull: supports along ±e_k, then along directions orthogonal to what was found.
    std::vector<VecD> found;
    std::vector<Origin> foundDirs;  // how each was found
    for (int k = 0; k < d; ++k)
      for (double sgn : {1.0, -1.0}) {
        VecD p;
        if (!query(sgn * VecD::Unit(d, k), p, k)) return stop();
        found.push_back(p);
        foundDirs.push_back(lastOrigin_);
      }
    double scale = 0;
    for (const auto& p : found) scale = std::max(scale, p.norm());
    if (!(scale > 0)) return flat(VecD::Unit(d, 0), "all wrenches are zero");
    tolAbs_ = s_.absoluteTolerance * scale;
    const double tolFlat = s_.flatTolerance * scale;

    std::vector<VecD> simplex{found[0]};
    std::vector<Origin> simplexDirs{foundDirs[0]};
    MatD basis(d, 0), flatDirs(d, 0);
    auto residual = [&](const VecD& p) -> VecD {
      VecD r = p - simplex[0];
      for (int pass = 0; pass < 2; ++pass) r -= basis * (basis.transpose() * r);
      return r;
    };
    auto addToBasis = [&](const VecD& p, const Origin& u, const VecD& r) {
      simplex.push_back(p);
      simplexDirs.push_back(u);
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
      addToBasis(found[static_cast<std::size_t>(best)], foundDirs[static_cast<std::size_t>(best)],
                 residual(found[static_cast<std::size_t>(best)]));
    }
    while (basis.cols() + flatDirs.cols() < d) {
      MatD known(d, basis.cols() + flatDirs.cols());
      known << basis, flatDirs;
      const VecD v = complementOf(known, d).col(0);
      VecD p1, p2;
      if (!query(v, p1)) return stop();
      const double h1 = hLast_;
      const Origin o1 = lastOrigin_;
      if (!query(-v, p2)) return stop();
      const double h2 = hLast_;
      const Origin o2 = lastOrigin_;
      found.push_back(p1);
      found.push_back(p2);
      foundDirs.push_back(o1);
      foundDirs.push_back(o2);
      const VecD r1 = residual(p1), r2 = residual(p2);
      const VecD& r = r1.norm() >= r2.norm() ? r1 : r2;
      if (r.norm() > tolFlat) addToBasis(r1.norm() >= r2.norm() ? p1 : p2, r1.norm() >= r2.norm() ? o1 : o2, r);
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
      if (!wolfe(found, foundDirs)) return result_;
      if (done_) {
        result_.message = "the wrenches span fewer dimensions than used; the origin is outside them";
        return result_;
      }
      return flat(flatDir_, "the wrenches span fewer dimensions than used");
    }

    // (2) Wolfe's minimum-norm point: is the origin outside, and how far (QUALITY.md "Origin outside")?
    if (!wolfe(found, foundDirs)) return result_;
    if (done_) return result_;

    // (3) Expanding polytope from the simplex, seeded with every support point found so far.
    switch (d) {
      case 2: return expand<2>(simplex, simplexDirs, found, foundDirs);
      case 3: return expand<3>(simplex, simplexDirs, found, foundDirs);
      case 4: return expand<4>(simplex, simplexDirs, found, foundDirs);
      case 5: return expand<5>(simplex, simplexDirs, found, foundDirs);
      default: return expand<6>(simplex, simplexDirs, found, foundDirs);
    }
  }

  // The warm start (QUALITY.md §Warm start): the previous solve's polytope with every vertex queried again along
  // its direction, refitted and checked; then the same loop as a cold solve. nullopt: solve cold instead (the
  // polytope did not survive the move, the origin may be outside, or an insertion needed a rebuild).
  SupportEpsilon::WarmAttempt warmAttempt() const { return {warmWhy_, warmMove_, warmStartLower_}; }
  std::optional<SupportEpsilon> runWarm() {
    switch (sp_.d) {
      case 2: return warmExpand<2>();
      case 3: return warmExpand<3>();
      case 4: return warmExpand<4>();
      case 5: return warmExpand<5>();
      default: return warmExpand<6>();
    }
  }

 private:
  template <int D>
  SupportEpsilon& expand(const std::vector<VecD>& simplex, const std::vector<Origin>& simplexDirs,
                         const std::vector<VecD>& found, const std::vector<Origin>& foundDirs) {
    PolytopeLease<D> lease;
    Polytope<D>& poly = warm_ ? warm_->template polytope<D>() : *lease;
    if (warm_) warm_->valid = false;
    poly.reset(tolAbs_);
    // A relative step of 1 % of the gap towards the interior costs the lower bound ≤ 1 % of the gap.
    poly.setPerturbation(std::min(1e-4, std::max(1e-10, 1e-2 * s_.relativeGap)));
    if (!poly.init(simplex, simplexDirs)) return breakdown("the initial simplex is degenerate");
    for (std::size_t i = 0; i < found.size(); ++i) poly.addIfOutside(found[i], foundDirs[i]);  // round-off may reject a seed
    for (std::size_t i = 0; i < corral_.size(); ++i) poly.addIfOutside(corral_[i], corralDirs_[i]);
    SupportEpsilon& r = iterate(poly, simplex, simplexDirs);
    const double clearance = warm_ ? poly.clearance() : 0;
    if (warm_ && r.status == SupportEpsilonStatus::Converged && poly.reusable() && clearance > tolAbs_) {
      warm_->valid = true;
      warm_->d = D;
      warm_->coldFacets = poly.facetCount();
      warm_->clearance = clearance;
    }
    return r;
  }

  template <int D>
  std::optional<SupportEpsilon> warmExpand() {
    Polytope<D>& poly = warm_->template polytope<D>();
    warm_->valid = false;
    if (!poly.reusable()) return fallBack("the kept polytope was rebuilt");
    if (poly.facetCount() > 2 * warm_->coldFacets + 64)
      return fallBack("the kept polytope grew past twice its cold size");
    const int d = sp_.d;
    // The cold solve's size (its first 2d queries), hence the same tolerances.
    double scale = 0;
    for (int k = 0; k < d; ++k)
      for (double sgn : {1.0, -1.0}) {
        VecD p;
        if (!query(sgn * VecD::Unit(d, k), p, k)) return fallBack("a support query failed");
        scale = std::max(scale, p.norm());
      }
    if (!(scale > 0)) return fallBack("the set is zero");
    tolAbs_ = s_.absoluteTolerance * scale;
    poly.setTolerance(tolAbs_);
    // The initial simplex first (never moved by a step; c is its centroid), then every other vertex: those that
    // later insertions buried too, since moving one costs less than finding the live ones (a pass over every facet).
    std::vector<VecD> simplex;
    std::vector<Origin> simplexDirs;
    std::vector<P6> simplexOld;
    P6 c = P6::Zero();
    for (int k = 0; k <= d; ++k) {
      simplexOld.push_back(poly.vertex(k));
      P6 p;
      if (!again(poly.origin(k), p)) return fallBack("a vertex has no point on the moved set");
      poly.moveVertex(k, p);
      simplex.emplace_back(p.head(d));
      simplexDirs.push_back(poly.origin(k));
      c += p;
    }
    c /= static_cast<double>(d + 1);
    poly.setInterior(c);
    double moved = 0;  // the largest vertex displacement, squared until the last vertex
    for (int k = 0; k <= d; ++k)
      moved = std::max(moved, (simplexOld[static_cast<std::size_t>(k)] - poly.vertex(k)).squaredNorm());
    for (int k = d + 1; k < poly.vertexCount(); ++k) {
      P6 q;
      if (!again(poly.origin(k), q)) return fallBack("a vertex has no point on the moved set");
      const double step = poly.step(k);
      if (step != 0) q += step * (c - q);  // the same step towards the new c: still in W
      moved = std::max(moved, (q - poly.vertex(k)).squaredNorm());
      poly.moveVertex(k, q);
    }
    moved = std::sqrt(moved);
    warmMove_ = moved;
    // The surface moved by less than its distance from the origin: it still winds once around it.
    if (!(moved < warm_->clearance)) return fallBack("the vertices moved farther than the surface's clearance");
    poly.markMoved(moved);
    if (!poly.refitBelowLowest()) return fallBack(kRefitFailed);
    const int f0 = poly.lowestExact();
    if (f0 == -2) return fallBack(kRefitFailed);
    if (f0 < 0 || !(poly.facet(f0).b > tolAbs_)) return fallBack(kOriginOutside);  // cold decides
    warmStartLower_ = poly.facet(f0).b;
    result_.originInside = true;
    warmRun_ = true;
    SupportEpsilon& r = iterate(poly, simplex, simplexDirs);
    if (warmFailed_) return std::nullopt;  // iterate named the reason
    r.warmStarted = true;
    r.warm.move = warmMove_;
    r.warm.startLower = warmStartLower_;
    const double clearance = poly.blockClearance();  // no pass over the ~5,000 offsets of ε L∞ (the cold solve's is exact)
    if (r.status == SupportEpsilonStatus::Converged && clearance > tolAbs_) {
      warm_->valid = true;
      warm_->clearance = clearance;
    }
    return r;
  }

  // Step 3's loop on a polytope P ⊆ W (cold: from the simplex and the seeds; warm: the refitted polytope).
  template <int D>
  SupportEpsilon& iterate(Polytope<D>& poly, const std::vector<VecD>& simplex, const std::vector<Origin>& simplexDirs) {
    for (;;) {
      poly.setCutoff(upper_);
      const int f0 = poly.lowestExact();
      if (f0 == -2) {  // a warm start's facet did not survive the move (only warm polytopes have stale facets)
        warmFailed_ = true;
        warmWhy_ = kRefitFailed;
        return result_;
      }
      if (f0 < 0) {
        // Every live facet lies at or above the upper bound (setCutoff): the inradius of P ⊆ W is too.
        if (upper_ >= -tolAbs_) { lower_ = std::max(lower_, upper_); break; }
        return breakdown("no facets left");
      }
      const double b = poly.facet(f0).b;
      if (warmRun_ && !(b > tolAbs_)) {  // a warm surface must keep the origin strictly inside every facet
        warmFailed_ = true;
        warmWhy_ = kOriginOutside;
        return result_;
      }
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
      if (!poly.add(q, lastOrigin_, f0)) {
        if (warmRun_) {  // a warm polytope is not rebuilt: the caller solves cold
          warmFailed_ = true;
          warmWhy_ = poly.refitFailed() ? "a facet an insertion's walk read could not be refitted"
                                        : "an insertion found no manifold horizon";
          return result_;
        }
        // Round-off left no manifold horizon even for a moved q (a reflex ridge left by an earlier, nearly
        // degenerate insertion): build P again from the same simplex, q first, then the other vertices in
        // reverse order (each still a point of W). After two rebuilds, stop with the bounds reached (P is
        // still a valid inner polytope, the upper bound a queried value).
        if (rebuilds_ < 2) {
          ++rebuilds_;
          std::vector<VecD> points = poly.vertices();
          poly.reset(tolAbs_);
          poly.markNotReusable();  // the re-added vertices' steps are not recorded: no warm start from it
          if (!poly.init(simplex, simplexDirs)) return breakdown("the initial simplex is degenerate");
          poly.addIfOutside(q, lastOrigin_);
          for (std::size_t i = points.size(); i-- > simplex.size();) poly.addIfOutside(points[i], lastOrigin_);
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

  // One support query; keeps the upper bound (ε ≤ h(u) for any unit u). `axis` ≥ 0: u = ±e_axis, which an oracle
  // of explicit wrenches answers from one coordinate row (`axis`: the same value and point, bit for bit).
  bool query(const VecD& u, VecD& p, int axis = -1) {
    if (result_.iterations >= s_.maxIterations) return false;
    ++result_.iterations;
    p.resize(sp_.d);
    double h = 0;
    if constexpr (requires { h_.axis(0, 1.0, p); }) h = axis >= 0 ? h_.axis(axis, u(axis), p) : h_(u, p);
    else h = h_(u, p);
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
    lastOrigin_.u = pad(u);
    if constexpr (requires { h_.choice; }) lastOrigin_.choice = h_.choice;
    if constexpr (requires { h_.xyz; }) lastOrigin_.xyz = h_.xyz;
    return true;
  }

  // A warm start's point of the moved set for a vertex found as `o`: the same wrenches (explicit wrench sets), the
  // same contacts' support points along the same direction (exact cones), else the support point along that
  // direction (a query). Each is a point of the set, and moves continuously with the input.
  bool again(const Origin& o, P6& p) {
    if constexpr (requires { h_.choice; }) {
      if (!h_.evaluate(o, p)) return false;
      return p.allFinite();
    } else {
      VecD x;
      if (!query(o.u.head(sp_.d), x)) return false;
      p = pad(x);
      return true;
    }
  }

  double gapTolerance() const { return s_.relativeGap * std::max(std::abs(lower_), std::abs(upper_)) + tolAbs_; }
  bool converged() const { return upper_ - lower_ <= gapTolerance(); }

  // Wolfe (1976): x = the point of conv(corral) nearest the origin; add the support point of −x while it
  // improves. Returns false when the run must stop (result_ filled); sets done_ when the origin is outside.
  bool wolfe(const std::vector<VecD>& found, const std::vector<Origin>& foundDirs) {
    const int d = sp_.d;
    std::size_t start = 0;
    for (std::size_t i = 1; i < found.size(); ++i)
      if (found[i].squaredNorm() < found[start].squaredNorm()) start = i;
    corral_.assign(1, found[start]);
    corralDirs_.assign(1, foundDirs[start]);
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
      corralDirs_.push_back(lastOrigin_);
      lambda.push_back(0);
      for (int minor = 0; minor <= d + 1; ++minor) {
        const std::vector<double> alpha = affineMinimizer();
        if (alpha.empty()) {  // q on the corral's affine hull to round-off
          corral_.pop_back();
          corralDirs_.pop_back();
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
            corralDirs_.erase(corralDirs_.begin() + static_cast<std::ptrdiff_t>(i));
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

  // Why a warm attempt fell back (SupportEpsilon::warm).
  static constexpr const char* kRefitFailed =
      "a low facet could not be refitted (degenerate, turned > 60 deg or offset <= 0)";
  static constexpr const char* kOriginOutside = "a refitted facet does not hold the origin strictly behind it";
  std::nullopt_t fallBack(const char* why) {
    warmWhy_ = why;
    return std::nullopt;
  }

  Oracle& h_;
  const Space& sp_;
  const SupportEpsilonSettings& s_;
  SupportWarmStart::Impl* warm_ = nullptr;
  bool warmRun_ = false, warmFailed_ = false;
  const char* warmWhy_ = "";
  double warmMove_ = 0, warmStartLower_ = std::numeric_limits<double>::quiet_NaN();
  std::vector<Origin> corralDirs_;
  Origin lastOrigin_;  // how the last query's point was found
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

// `key`: the shape of the input (which set, sizes, settings); a warm start needs the previous solve's key.
template <class Oracle>
SupportEpsilon solve(Oracle& oracle, const Space& space, const SupportEpsilonSettings& s, SupportWarmStart* warm = nullptr,
                     std::vector<std::uint64_t> key = {}) {
  SupportWarmStart::Impl* w = warm ? &warm->impl() : nullptr;
  SupportEpsilon::WarmAttempt attempt;
  if (w) {
    if (w->valid && w->key == key && w->d == space.d) {
      Solver<Oracle> warmSolver(oracle, space, s, w);
      if (std::optional<SupportEpsilon> r = warmSolver.runWarm()) return *r;
      attempt = warmSolver.warmAttempt();
    } else {
      attempt.fallback = !w->valid ? "no polytope kept (none solved yet, or the last solve was rebuilt or did not "
                                     "converge inside)"
                                   : "another input shape";
    }
    w->valid = false;
    w->key = std::move(key);
  }
  Solver<Oracle> solver(oracle, space, s, w);
  SupportEpsilon r = solver.run();
  r.warm = attempt;
  return r;
}

std::uint64_t bitsOf(double x) {
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

// The input's shape for the warm start: the set, the used coordinates, the tolerances, the sizes.
std::vector<std::uint64_t> shapeKey(std::uint64_t set, const SupportEpsilonSettings& s) {
  std::vector<std::uint64_t> key = {set, bitsOf(s.relativeGap), bitsOf(s.absoluteTolerance), bitsOf(s.flatTolerance),
                                    bitsOf(s.forceClosureTolerance), static_cast<std::uint64_t>(s.maxIterations),
                                    s.stopWhenNotForceClosure ? 1u : 0u};
  for (int k = 0; k < 6; ++k) key.push_back(s.dimensions[static_cast<std::size_t>(k)] ? 1u : 0u);
  for (int k = 0; k < 3; ++k) key.push_back(bitsOf(s.l1ForceOffset(k)));
  return key;
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

SupportEpsilon l1EpsilonFromSupport(const std::vector<std::vector<Vec6>>& perContact, const SupportEpsilonSettings& s,
                                    SupportWarmStart* warm) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  PackedWrenches p = packWrenches(perContact, sp, s.l1ForceOffset);
  if (p.m.cols() == 0) return empty();
  if (!p.m.allFinite() || !s.l1ForceOffset.allFinite()) return invalid("non-finite wrench coordinates");
  // The support point is one wrench; `choice` names its column (a warm start's vertex identity).
  struct L1Oracle {
    PackedWrenches& p;
    std::array<std::int16_t, kMaxChoices> choice{};
    double operator()(const VecD& u, VecD& point) {
      p.scores.noalias() = p.m.transpose() * u;
      return pick(point);
    }
    // u = sgn·e_k: every score is ±(the wrench's coordinate k), as the product gives it (the other terms are zeros).
    double axis(int k, double sgn, VecD& point) {
      p.scores.noalias() = sgn * p.m.row(k).transpose();
      return pick(point);
    }
    double pick(VecD& point) {
      Eigen::Index j = 0;
      const double h = p.scores.maxCoeff(&j);
      point = p.m.col(j);
      choice[0] = static_cast<std::int16_t>(j);
      return h;
    }
    bool evaluate(const Origin& o, P6& point) const {
      const auto& c = o.choice;
      if (c[0] < 0 || c[0] >= p.m.cols()) return false;
      point.setZero();
      point.head(p.m.rows()) = p.m.col(c[0]);
      return true;
    }
  } oracle{p};
  std::vector<std::uint64_t> key = shapeKey(1, s);
  for (const auto& ws : perContact) key.push_back(ws.size());
  if (p.m.cols() > 32767) warm = nullptr;  // column ids are 16-bit
  return solve(oracle, sp, s, warm, std::move(key));
}

SupportEpsilon lInfinityEpsilonFromSupport(const std::vector<std::vector<Vec6>>& perContact,
                                           const SupportEpsilonSettings& s, SupportWarmStart* warm) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  PackedWrenches p = packWrenches(perContact, sp, Vec3::Zero());
  if (p.m.cols() == 0) return empty();
  if (!p.m.allFinite()) return invalid("non-finite wrench coordinates");
  // The support point sums one wrench of each contact or none; `choice` names them (a warm start's vertex
  // identity; up to kMaxChoices contacts, else no warm start).
  struct LInfinityOracle {
    PackedWrenches& p;
    int d;
    std::array<std::int16_t, kMaxChoices> choice{};
    double operator()(const VecD& u, VecD& point) {
      p.scores.noalias() = p.m.transpose() * u;
      return pick(point);
    }
    // u = sgn·e_k: every score is ±(the wrench's coordinate k), as the product gives it (the other terms are zeros).
    double axis(int k, double sgn, VecD& point) {
      p.scores.noalias() = sgn * p.m.row(k).transpose();
      return pick(point);
    }
    double pick(VecD& point) {
      double h = 0;
      point.setZero(d);
      for (std::size_t i = 0; i + 1 < p.first.size(); ++i) {
        const Eigen::Index a = p.first[i], n = p.first[i + 1] - a;
        std::int16_t pick = -1;
        if (n > 0) {
          Eigen::Index j = 0;
          const double best = p.scores.segment(a, n).maxCoeff(&j);
          if (best > 0) { h += best; point += p.m.col(a + j); pick = static_cast<std::int16_t>(j); }
        }
        if (i < static_cast<std::size_t>(kMaxChoices)) choice[i] = pick;
      }
      return h;
    }
    // The same sum as a query's, contact by contact (the same additions, so the same point).
    bool evaluate(const Origin& o, P6& point) const {
      const auto& c = o.choice;
      point.setZero();
      for (std::size_t i = 0; i + 1 < p.first.size(); ++i) {
        if (c[i] < 0) continue;
        if (c[i] >= p.first[i + 1] - p.first[i]) return false;
        const double* w = p.m.data() + (p.first[i] + c[i]) * d;
        for (int r = 0; r < d; ++r) point[r] += w[r];
      }
      return true;
    }
  } oracle{p, sp.d};
  std::vector<std::uint64_t> key = shapeKey(2, s);
  for (const auto& ws : perContact) key.push_back(ws.size());
  if (perContact.size() > static_cast<std::size_t>(kMaxChoices)) warm = nullptr;
  for (const auto& ws : perContact)
    if (ws.size() > 32767) warm = nullptr;
  return solve(oracle, sp, s, warm, std::move(key));
}

SupportEpsilon exactConeEpsilon(const std::vector<ExactContactCone>& cones, double rho, GwsType type,
                                const SupportEpsilonSettings& s, SupportWarmStart* warm) {
  const Space sp(s.dimensions);
  if (auto why = checkSettings(s, sp); !why.empty()) return invalid(why);
  if (!(rho > 0) || !std::isfinite(rho)) return invalid("the torque scale must be a positive number");
  if (cones.empty()) return empty();
  for (const auto& c : cones)
    if (!c.p_OC_mm.allFinite() || !c.n_O.allFinite() || !c.t1_O.allFinite() || !c.t2_O.allFinite() ||
        !(c.mu >= 0) || !std::isfinite(c.mu) || !(c.torsion_mm >= 0) || !std::isfinite(c.torsion_mm))
      return invalid("non-finite or negative exact-cone data");
  const Vec3 offset = type == GwsType::L1 ? s.l1ForceOffset : Vec3::Zero();
  // As supportExactL1 / supportExactLInfinity; `choice` names the contacts whose points make the support point
  // (L1: the contact, and `xyz` the point on its cone; L∞: per contact 1 if used, −1 if not), so that a warm start
  // moves each vertex with them (L1: the same point of the contact's cone; L∞: the same contacts' support points
  // along the same direction).
  struct ExactOracle {
    const std::vector<ExactContactCone>& cones;
    double rho;
    bool l1;
    Vec3 offset;
    const Space& sp;
    std::array<std::int16_t, kMaxChoices> choice{};
    Eigen::Vector3d xyz = Eigen::Vector3d::Zero();
    double operator()(const VecD& u, VecD& point) {
      const Vec6 u6 = sp.embed(u);
      SupportPoint r;
      if (l1) r.h = -kInf;
      for (std::size_t i = 0; i < cones.size(); ++i) {
        const ExactConeSupport at = supportExactConeAt(cones[i], rho, u6);
        const SupportPoint& p = at.point;
        if (l1 && p.h > r.h) { r = p; xyz = at.xyz; choice[0] = static_cast<std::int16_t>(i); }
        if (!l1) {
          const bool used = p.h > 0;
          if (used) { r.h += p.h; r.w += p.w; }
          if (i < static_cast<std::size_t>(kMaxChoices)) choice[i] = used ? 1 : -1;
        }
      }
      r.w.head<3>() += offset;
      r.h += offset.dot(u6.head<3>());
      point = sp.pack(r.w);
      return r.h;
    }
    bool evaluate(const Origin& o, P6& point) const {
      if (l1 && (o.choice[0] < 0 || o.choice[0] >= static_cast<int>(cones.size()))) return false;
      const Vec6 u6 = sp.embed(o.u.head(sp.d));
      Vec6 w = Vec6::Zero();
      if (l1) {
        if (!(o.xyz.squaredNorm() <= 1 + 1e-12)) return false;  // a unit (x, y, z) to round-off, else not a point of the set
        w = exactConePoint(cones[static_cast<std::size_t>(o.choice[0])], rho, o.xyz);
      } else {
        for (std::size_t i = 0; i < cones.size(); ++i)
          if (o.choice[i] > 0) w += supportExactCone(cones[i], rho, u6).w;
      }
      w.head<3>() += offset;
      point = pad(sp.pack(w));
      return true;
    }
  } oracle{cones, rho, type == GwsType::L1, offset, sp};
  if (cones.size() > static_cast<std::size_t>(kMaxChoices)) warm = nullptr;
  // Soft (torsion) or not decides each contact's set's dimension, so it is part of the shape.
  std::vector<std::uint64_t> key = shapeKey(type == GwsType::L1 ? 3 : 4, s);
  for (const auto& c : cones) key.push_back(c.torsion_mm > 0 ? 2u : 1u);
  return solve(oracle, sp, s, warm, std::move(key));
}

}  // namespace sg
