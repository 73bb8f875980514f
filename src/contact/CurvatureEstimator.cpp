#include "contact/CurvatureEstimator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "contact/CornerNormalTerms.h"
#include "contact/JetLeastSquares.h"
#include "core/Decompositions.h"
#include "core/NumberFormat.h"
#include "geometry/Bvh.h"

namespace sg {

std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const std::vector<std::uint32_t>& indices) {
  return vertexNormals(mesh, indices, Vec3::Zero(), -2.0);  // every face agrees
}

namespace {

// Adds Max's weighted term of triangle `tri` at `corner` to `sum` (CornerNormalTerms.h: the same rule as the
// cached terms, so both paths give the same normals bit for bit).
template <class Triangle>
void addCornerTerm(const TriangleMesh& mesh, const Triangle& tri, int corner, const Vec3& outward, double minFaceCosine,
                   Vec3& sum) {
  addCornerNormalTerm(cornerNormalTerm(mesh.vertices, tri, corner), outward, minFaceCosine, sum);
}

// Max's weighted face sums at the vertices `indices` over the triangles `each` visits (in ascending mesh order,
// so that every sum adds the same terms in the same order), normalised. slotOf(v): the slot of vertex v's sum
// (−1: not asked for).
template <class SlotOf, class EachTriangle>
std::vector<Vec3> weightedVertexNormals(const TriangleMesh& mesh, const std::vector<std::uint32_t>& indices,
                                        const Vec3& outward, double minFaceCosine, const SlotOf& slotOf,
                                        const EachTriangle& each) {
  std::vector<Vec3> sum(indices.size(), Vec3::Zero());
  each([&](std::size_t t) {
    const auto& tri = mesh.triangles[t];
    for (int corner = 0; corner < 3; ++corner) {
      const int s = slotOf(tri[corner]);
      if (s >= 0) addCornerTerm(mesh, tri, corner, outward, minFaceCosine, sum[static_cast<std::size_t>(s)]);
    }
  });
  std::vector<Vec3> out(indices.size(), Vec3::Zero());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const int s = slotOf(indices[k]);  // a repeated index shares one slot's sum
    const double n = s >= 0 ? sum[static_cast<std::size_t>(s)].norm() : 0.0;
    if (n > 0 && std::isfinite(n)) out[k] = sum[static_cast<std::size_t>(s)] / n;
  }
  return out;
}

}  // namespace

std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const std::vector<std::uint32_t>& indices,
                                const Vec3& outward, double minFaceCosine) {
  std::vector<int> slot(mesh.vertices.size(), -1);
  for (std::size_t k = 0; k < indices.size(); ++k)
    if (indices[k] < slot.size()) slot[indices[k]] = static_cast<int>(k);
  const auto slotOf = [&](std::uint32_t v) { return v < slot.size() ? slot[v] : -1; };
  return weightedVertexNormals(mesh, indices, outward, minFaceCosine, slotOf, [&](const auto& visit) {
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t) visit(t);
  });
}

namespace {

// Each asked vertex sums the terms of its own incident triangles (Bvh::trianglesAtVertex lists them in mesh
// order), corner by corner: exactly the terms, in the same order, that the pass over every face adds to it, so
// the same normal bit for bit, without sorting the neighbourhood's triangles or looking up slots. `addTerm(t,
// triangle, corner, sum)` adds one corner's term.
template <class AddTerm>
std::vector<Vec3> sumCornerTermsPerVertex(const TriangleMesh& mesh, const Bvh& bvh,
                                          const std::vector<std::uint32_t>& indices, AddTerm addTerm) {
  std::vector<Vec3> out(indices.size(), Vec3::Zero());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const std::uint32_t v = indices[k];
    const auto [first, last] = bvh.trianglesAtVertex(v);
    if (!first) continue;
    Vec3 sum = Vec3::Zero();
    for (const std::uint32_t* t = first; t != last; ++t) {
      if (t != first && *t == t[-1]) continue;  // listed once per corner at v: its corners are visited below
      const auto& tri = mesh.triangles[*t];
      for (int corner = 0; corner < 3; ++corner)
        if (tri[static_cast<std::size_t>(corner)] == v) addTerm(*t, tri, corner, sum);
    }
    const double n = sum.norm();
    if (n > 0 && std::isfinite(n)) out[k] = sum / n;
  }
  return out;
}

}  // namespace

std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const Bvh* bvh, const std::vector<std::uint32_t>& indices,
                                const Vec3& outward, double minFaceCosine) {
  if (!bvh || bvh->sourceIndex().size() != mesh.triangles.size() || bvh->vertices().size() != mesh.vertices.size())
    return vertexNormals(mesh, indices, outward, minFaceCosine);
  return sumCornerTermsPerVertex(mesh, *bvh, indices, [&](std::uint32_t, const auto& tri, int corner, Vec3& sum) {
    addCornerTerm(mesh, tri, corner, outward, minFaceCosine, sum);
  });
}

std::vector<Vec3> vertexNormals(const TriangleMesh& mesh, const Bvh* bvh, const CornerNormalTerms* terms,
                                const std::vector<std::uint32_t>& indices, const Vec3& outward, double minFaceCosine) {
  if (!bvh || !terms || terms->source() != bvh || terms->triangleCount() != mesh.triangles.size() ||
      bvh->sourceIndex().size() != mesh.triangles.size() || bvh->vertices().size() != mesh.vertices.size())
    return vertexNormals(mesh, bvh, indices, outward, minFaceCosine);
  // The same loop with each corner's term read instead of computed: the same terms in the same order.
  return sumCornerTermsPerVertex(mesh, *bvh, indices, [&](std::uint32_t t, const auto&, int corner, Vec3& sum) {
    addCornerNormalTerm(terms->triangle(t)[static_cast<std::size_t>(corner)], outward, minFaceCosine, sum);
  });
}

namespace {

using jet::Sample;
using jet::unknowns;

// x⁰ … x^degree (degree ≤ 6), each the product of its predecessor and x.
struct Powers {
  std::array<double, 7> p;
  Powers(double x, int degree) {
    p[0] = 1;
    for (int k = 1; k <= degree; ++k) p[static_cast<std::size_t>(k)] = p[static_cast<std::size_t>(k - 1)] * x;
  }
  double operator[](int k) const { return p[static_cast<std::size_t>(k)]; }
};

QuadricFit flatFit(QuadricFit fit, QuadricFitStatus status, const std::vector<Sample>& samples, const Transform& frame,
                   const QuadricFitSettings& settings) {
  fit.status = status;
  fit.a = fit.b = fit.c = 0;
  double z2 = 0;
  for (const auto& s : samples) z2 += s.q.z() * s.q.z();
  fit.rmsResidual_mm = samples.empty() ? 0.0 : std::sqrt(z2 / static_cast<double>(samples.size()));
  fit.curvatures = principalCurvatures(0, 0, 0, frame, settings);
  return fit;
}

}  // namespace

QuadricFit fitOsculatingJet(const std::vector<Vec3>& points_mm, const std::vector<Vec3>& outwardNormals_W,
                            const Transform& frame, const QuadricFitSettings& settings) {
  QuadricFit fit;
  fit.estimator = CurvatureEstimator::OsculatingJet;
  const Transform toFrame = frame.inverse();
  const Mat3 R = frame.rotationMatrix();
  std::vector<Sample> samples;
  samples.reserve(points_mm.size());
  double rho = 0;
  for (std::size_t k = 0; k < points_mm.size(); ++k) {
    if (!points_mm[k].allFinite()) continue;
    Sample s{toFrame * points_mm[k], false, 0, 0, 1};
    if (k < outwardNormals_W.size() && outwardNormals_W[k].allFinite() && outwardNormals_W[k].squaredNorm() > 0) {
      const Vec3 m = R.transpose() * outwardNormals_W[k].normalized();
      if (-m.z() >= settings.jetMinNormalCosine) {
        s.hasSlope = true;
        s.sx = -m.x() / m.z();
        s.sy = -m.y() / m.z();
      }
    }
    rho = std::max(rho, std::hypot(s.q.x(), s.q.y()));
    samples.push_back(s);
  }
  fit.pointCount = static_cast<int>(samples.size());
  if (!(rho > 1e-9)) return flatFit(fit, QuadricFitStatus::TooFewPoints, samples, frame, settings);
  const double sigma = std::max(settings.jetWeightWidth, 1e-3) * rho;
  int normals = 0;
  for (auto& s : samples) {
    const double d = std::hypot(s.q.x(), s.q.y());
    s.w = std::exp(-0.5 * (d / sigma) * (d / sigma));  // sqrt of exp(−(d/σ)²)
    normals += s.hasSlope ? 1 : 0;
  }
  const int rows = static_cast<int>(samples.size()) + 2 * normals;
  // Coordinates scaled by ρ for conditioning: u = x/ρ, v = y/ρ, g(u, v) = f(x, y)/ρ; slopes are unchanged.
  for (int degree = std::clamp(settings.jetMaxDegree, 2, 6); degree >= 2; --degree) {
    const int n = unknowns(degree);
    // Ask for some redundancy above degree 2 so that a sparse neighbourhood does not over-fit.
    if (rows < (degree == 2 ? n : 2 * n)) continue;
    const std::optional<jet::Coefficients> solved = jet::solveJet(samples, rho, degree, rows);
    if (!solved) continue;
    const jet::Coefficients& coef = *solved;
    if (!coef.allFinite()) continue;
    fit.degree = degree;
    fit.normalCount = normals;
    // Residuals, unweighted and weighted as the fit weights them, in mm (positions) and slope units.
    double z2 = 0, s2 = 0, wz2 = 0, ws2 = 0, wSum = 0, wSlopeSum = 0;
    for (const auto& s : samples) {
      const Powers pu(s.q.x() / rho, degree), pv(s.q.y() / rho, degree);
      double g = 0, gu = 0, gv = 0;
      for (int t = 0, c = 0; t <= degree; ++t)  // monomial c = (t − j, j), the order of jet::kMonomials
        for (int j = 0; j <= t; ++j, ++c) {
          const int i = t - j;
          g += coef(c) * pu[i] * pv[j];
          if (i > 0) gu += coef(c) * i * pu[i - 1] * pv[j];
          if (j > 0) gv += coef(c) * j * pu[i] * pv[j - 1];
        }
      const double ez2 = (g * rho - s.q.z()) * (g * rho - s.q.z()), w = s.w * s.w;
      z2 += ez2;
      wz2 += w * ez2;
      wSum += w;
      if (!s.hasSlope) continue;
      const double es2 = (gu - s.sx) * (gu - s.sx) + (gv - s.sy) * (gv - s.sy);
      s2 += es2;
      ws2 += w * es2;
      wSlopeSum += 2 * w;
    }
    fit.rmsResidual_mm = std::sqrt(z2 / static_cast<double>(samples.size()));
    fit.rmsSlopeResidual = normals > 0 ? std::sqrt(s2 / (2.0 * normals)) : 0.0;
    fit.weightedResidual_mm = wSum > 0 ? std::sqrt(wz2 / wSum) : fit.rmsResidual_mm;
    fit.weightedSlopeResidual = wSlopeSum > 0 ? std::sqrt(ws2 / wSlopeSum) : 0.0;
    // Monomial order: 1, x, y, x², xy, y², …
    const double fx = coef(1), fy = coef(2);
    const double fxx = 2 * coef(3) / rho, fxy = coef(4) / rho, fyy = 2 * coef(5) / rho;
    const double g = 1 + fx * fx + fy * fy;
    Eigen::Matrix2d I, II;
    I << 1 + fx * fx, fx * fy, fx * fy, 1 + fy * fy;
    II << fxx, fxy, fxy, fyy;
    II /= std::sqrt(g);  // about the inward normal (−f_x, −f_y, 1)/√g: convex positive
    const SymmetricEigen2 eig = generalizedSymmetricEigen(II, I);  // II v = κ I v, ascending
    if (eig.info != Eigen::Success || !eig.values.allFinite()) continue;
    const double kMax = eig.values(1), kMin = eig.values(0);
    // Direction of κmax on the surface: (v, fx·vx + fy·vy); projected onto the contact tangent plane that is
    // just v. The osculating paraboloid in the frame with these curvatures and directions:
    Eigen::Vector2d dMax = eig.vectors.col(1);
    dMax.normalize();
    const Eigen::Vector2d dMin(-dMax.y(), dMax.x());
    const Eigen::Matrix2d K = kMax * dMax * dMax.transpose() + kMin * dMin * dMin.transpose();
    fit.a = K(0, 0) / 2;
    fit.b = K(1, 1) / 2;
    fit.c = K(0, 1);
    fit.curvatures = principalCurvatures(fit.a, fit.b, fit.c, frame, settings);
    fit.status = QuadricFitStatus::Ok;
    return fit;
  }
  return flatFit(fit, rows < unknowns(2) ? QuadricFitStatus::TooFewPoints : QuadricFitStatus::Degenerate, samples,
                 frame, settings);
}

namespace {

// The largest distance of a point from the frame's z axis (mm): the neighbourhood's size when none is given.
double tangentExtent(const std::vector<Vec3>& points_mm, const Transform& frame) {
  const Transform toFrame = frame.inverse();
  double rho = 0;
  for (const Vec3& p : points_mm)
    if (p.allFinite()) {
      const Vec3 q = toFrame * p;
      rho = std::max(rho, std::hypot(q.x(), q.y()));
    }
  return rho;
}

}  // namespace

void judgeFitSupport(QuadricFit& fit, const Transform& frame, double neighbourhoodRadius_mm,
                     const QuadricFitSettings& settings) {
  fit.neighbourhoodRadius_mm = neighbourhoodRadius_mm;
  if (fit.estimator == CurvatureEstimator::GraspItParaboloid) fit.weightedResidual_mm = fit.rmsResidual_mm;
  fit.relativeResidual = neighbourhoodRadius_mm > 0 ? fit.weightedResidual_mm / neighbourhoodRadius_mm : 0.0;
  if (fit.status != QuadricFitStatus::Ok || fit.estimator == CurvatureEstimator::Exact) return;
  const bool positionsOff = !(fit.relativeResidual <= settings.maxRelativeResidual);
  const bool slopesOff = !(fit.weightedSlopeResidual <= settings.maxSlopeResidual);
  if (!positionsOff && !slopesOff) return;
  const auto num = [](double v) { return formatGeneral(v, 3); };  // the C locale's '.', whatever the user's
  std::string why;
  if (positionsOff)
    why = "RMS residual " + num(fit.weightedResidual_mm) + " mm is " + num(100 * fit.relativeResidual) +
          " % of the " + num(neighbourhoodRadius_mm) + " mm neighbourhood (limit " +
          num(100 * settings.maxRelativeResidual) + " %)";
  if (slopesOff)
    why += (why.empty() ? "" : "; ") + std::string("RMS slope residual ") + num(fit.weightedSlopeResidual) +
           " (limit " + num(settings.maxSlopeResidual) + ")";
  why += ": the surface is no smooth graph over the neighbourhood (an edge, noise or facets too coarse); ";
  why += "fitted curvatures " + num(fit.curvatures.kappaMax_per_mm) + ", " + num(fit.curvatures.kappaMin_per_mm) +
         " 1/mm";
  fit.status = QuadricFitStatus::Unreliable;
  if (fit.estimator == CurvatureEstimator::OsculatingJet) {
    why += " not used (flat)";
    fit.a = fit.b = fit.c = 0;
    fit.curvatures = principalCurvatures(0, 0, 0, frame, settings);
  } else {
    why += " kept (GraspIt! parity)";
  }
  fit.note = why;
}

QuadricFit fitCurvature(const std::vector<Vec3>& points_mm, const std::vector<Vec3>& outwardNormals_W,
                        const Transform& frame, const QuadricFitSettings& settings, double neighbourhoodRadius_mm) {
  QuadricFit fit;
  switch (settings.estimator) {
    case CurvatureEstimator::OsculatingJet:
    case CurvatureEstimator::Exact:  // asked for on a mesh (no primitive to be exact about): the best mesh estimate
      fit = fitOsculatingJet(points_mm, outwardNormals_W, frame, settings);
      break;
    case CurvatureEstimator::GraspItParaboloid: fit = fitQuadric(points_mm, frame, settings); break;
  }
  judgeFitSupport(fit, frame, neighbourhoodRadius_mm > 0 ? neighbourhoodRadius_mm : tangentExtent(points_mm, frame),
                  settings);
  return fit;
}

const std::vector<CurvatureEstimator>& selectableCurvatureEstimators() {
  static const std::vector<CurvatureEstimator> all = {CurvatureEstimator::OsculatingJet,
                                                      CurvatureEstimator::GraspItParaboloid};
  return all;
}

const char* curvatureEstimatorKey(CurvatureEstimator e) {
  if (e == CurvatureEstimator::OsculatingJet) return "jet";
  if (e == CurvatureEstimator::GraspItParaboloid) return "graspit";
  return "";
}

std::optional<CurvatureEstimator> curvatureEstimatorFromKey(std::string_view key) {
  for (CurvatureEstimator e : selectableCurvatureEstimators())
    if (key == curvatureEstimatorKey(e)) return e;
  return std::nullopt;
}

}  // namespace sg
