#pragma once
// Certified ε (Ferrari–Canny) from a support function, without the full hull (QUALITY.md "ε from support
// functions"). ε = min over unit u of h(u): the inradius about the origin when the origin is inside the
// wrench set W, minus the distance from the origin to W when it is outside.
//
// Method: (1) a few support queries find the affine hull of W (flat sets: never force closure; ε = −dist(0, W)
// when the origin is outside them, else 0, status Flat);
// (2) Wolfe's minimum-norm-point iteration: the origin outside → ε = −|x|, x ∈ W the nearest point;
// (3) otherwise an expanding polytope (incremental 6-D hull of support points, lowest facet first).
// Every step keeps lowerBound ≤ ε ≤ upperBound; it stops when upper − lower ≤ relativeGap·|ε| (plus a
// round-off floor of absoluteTolerance × the set's size) or after maxIterations support queries.
//
// Outside the origin this ε is −dist(0, W), the real "how far"; the Qhull path's min(−offset) over facets
// is ≥ that and equal when the nearest point lies inside a facet (QUALITY.md "Origin outside").
#include <array>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "grasp/GraspWrenchSpace.h"
#include "grasp/WrenchSupport.h"

namespace sg {

enum class SupportEpsilonStatus {
  Converged,      // bounds within the requested gap
  Flat,           // W spans fewer dimensions than used (or < d+1 independent wrenches) and holds the origin: ε = 0
  Empty,          // no wrenches: ε = 0
  InvalidInput,   // NaN/∞ in the wrenches or the support values, ρ ≤ 0, fewer than 2 dimensions
  NotConverged,   // iteration cap or a numerical breakdown: ε = the best upper bound, bounds still valid
  StoppedEarly    // stopWhenNotForceClosure: ε ≤ forceClosureTolerance is certain; ε = upper bound
};
const char* toString(SupportEpsilonStatus status);

struct SupportEpsilonSettings {
  std::array<bool, 6> dimensions = {true, true, true, true, true, true};  // fx fy fz τx τy τz (≥ 2)
  double relativeGap = 1e-9;             // stop when upper − lower ≤ relativeGap·max(|lower|, |upper|)
  double absoluteTolerance = 1e-12;      // × the set's size: round-off floor of the gap (ε ≈ 0)
  double flatTolerance = 1e-10;          // × size: a width below this is flat
  double forceClosureTolerance = 1e-9;   // force closure ⇔ ε > this (GraspQuality's rule)
  int maxIterations = 5000;              // support queries in all
  bool stopWhenNotForceClosure = false;  // stop once upperBound ≤ forceClosureTolerance (planners)
  Vec3 l1ForceOffset = Vec3::Zero();     // added to every L1 force (GwsSettings::l1ForceOffset)
};

// The settings matching a GwsSettings (dimensions, L1 force offset) and a force-closure tolerance.
SupportEpsilonSettings supportEpsilonSettingsFor(const GwsSettings& gws, double forceClosureTolerance = 1e-9);

struct SupportEpsilon {
  SupportEpsilonStatus status = SupportEpsilonStatus::Empty;
  std::string message;
  double epsilon = 0;                   // signed: > 0 inside, < 0 outside (−distance, flat sets too), 0 on the boundary/empty
  double lowerBound = 0, upperBound = 0;
  bool forceClosure = false;            // epsilon > forceClosureTolerance
  bool originInside = false;            // the origin is certainly not outside W (ε ≥ −tolerance)
  Vec6 weakestDirection = Vec6::Zero(); // unit, 6-D (zeros in unused coordinates): h(u) = upperBound
  Vec6 worstCaseWrench = Vec6::Zero();  // epsilon · weakestDirection (outside: the point of W nearest 0)
  int iterations = 0;                   // support-function calls
  int workingSetSize = 0;               // support points kept (polytope vertices / Wolfe's corral)
  int facetCount = 0;                   // live facets of the final inner polytope (0 outside)
  int facetsCreated = 0;                // facets its insertions made (the solver's cost; ≥ facetCount − d − 1)
  bool warmStarted = false;             // continued the previous solve's polytope (SupportWarmStart)
  // What a lent warm start did (measurements for bench_quality --exact-warm, QUALITY.md §Warm start; the result does
  // not depend on them): why it fell back to this cold solve (a fixed phrase; "" when it finished warm or none was
  // lent), the largest vertex move δ (0 if it stopped before moving the vertices), and the lower bound the moved
  // polytope certified before its first insertion (its lowest exact offset; NaN if it did not get that far).
  struct WarmAttempt {
    const char* fallback = "";
    double move = 0;
    double startLower = std::numeric_limits<double>::quiet_NaN();
  } warm;
};

// The inner polytope of one solve, kept for the next solve of a nearby set of the same shape (same contacts and
// wrenches per contact, same settings): QUALITY.md §Warm start. The next solve queries each of its vertices again
// along the direction that found it (a point of the new set), refits every facet and checks that the surface is
// still convex at every ridge and holds the origin; then it continues from there, else it solves cold. The bounds
// are certified either way. One object per set and per caller; not for concurrent solves.
class SupportWarmStart {
 public:
  SupportWarmStart();
  ~SupportWarmStart();
  SupportWarmStart(SupportWarmStart&&) noexcept;
  SupportWarmStart& operator=(SupportWarmStart&&) noexcept;
  SupportWarmStart(const SupportWarmStart&) = delete;
  SupportWarmStart& operator=(const SupportWarmStart&) = delete;
  void clear();                          // the next solve is cold
  bool holdsPolytope() const;            // the last solve converged inside and left its polytope
  struct Impl;
  Impl& impl();

 private:
  std::unique_ptr<Impl> impl_;
};

// Any convex set given by its support function (u has zeros in unused coordinates).
using SupportFunction = std::function<SupportPoint(const Vec6& u)>;
SupportEpsilon epsilonFromSupport(const SupportFunction& support, const SupportEpsilonSettings& settings = {});

// L1 / L∞ spaces of linearised per-contact wrenches (as buildL1Gws / buildLInfinityGws + evaluateQuality).
// `warm` (optional): start from the polytope the previous solve left there, and leave this one's.
SupportEpsilon l1EpsilonFromSupport(const std::vector<std::vector<Vec6>>& perContactWrenches,
                                    const SupportEpsilonSettings& settings = {}, SupportWarmStart* warm = nullptr);
SupportEpsilon lInfinityEpsilonFromSupport(const std::vector<std::vector<Vec6>>& perContactWrenches,
                                           const SupportEpsilonSettings& settings = {},
                                           SupportWarmStart* warm = nullptr);
// Exact cones (WrenchSupport.h), L1 or L∞ combination. Smooth sets converge more slowly than polytopes.
SupportEpsilon exactConeEpsilon(const std::vector<ExactContactCone>& cones, double torqueScale_mm, GwsType type,
                                const SupportEpsilonSettings& settings = {}, SupportWarmStart* warm = nullptr);

}  // namespace sg
