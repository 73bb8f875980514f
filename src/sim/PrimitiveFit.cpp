#include "sim/PrimitiveFit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/Decompositions.h"

namespace sg::sim {

namespace {

using Tris = std::vector<std::array<int, 3>>;

const Vec3& corner(const std::vector<Vec3>& v, const std::array<int, 3>& t, int c) {
  return v[static_cast<std::size_t>(t[static_cast<std::size_t>(c)])];
}

// Unit outward normal of a triangle; zero for a degenerate one.
Vec3 unitNormal(const std::vector<Vec3>& v, const std::array<int, 3>& t) {
  const Vec3 n = (corner(v, t, 1) - corner(v, t, 0)).cross(corner(v, t, 2) - corner(v, t, 0));
  const double len = n.norm();
  return len > 0 ? Vec3(n / len) : Vec3(Vec3::Zero());
}

// A piece of 8 vertices that are the corners of a cuboid: three orthogonal edge vectors from one corner that
// generate all eight corners.
std::optional<FittedPrimitive> fitBox(const std::vector<Vec3>& vertices, double exact_mm) {
  if (vertices.size() != 8) return std::nullopt;
  const Vec3 v0 = vertices[0];
  for (std::size_t i = 1; i < 8; ++i)
    for (std::size_t j = i + 1; j < 8; ++j)
      for (std::size_t k = j + 1; k < 8; ++k) {
        const Vec3 a = vertices[i] - v0, b = vertices[j] - v0, c = vertices[k] - v0;
        const double scale = a.norm() * b.norm() + b.norm() * c.norm() + a.norm() * c.norm();
        if (std::abs(a.dot(b)) + std::abs(b.dot(c)) + std::abs(a.dot(c)) > 1e-9 * scale) continue;
        bool all = true;
        for (int bits = 0; bits < 8 && all; ++bits) {
          const Vec3 p = v0 + ((bits & 1) ? a : Vec3::Zero()) + ((bits & 2) ? b : Vec3::Zero()) +
                         ((bits & 4) ? c : Vec3::Zero());
          all = std::any_of(vertices.begin(), vertices.end(), [&](const Vec3& v) { return (v - p).norm() <= exact_mm; });
        }
        if (!all) continue;
        Mat3 R;
        R.col(0) = a.normalized();
        R.col(1) = b.normalized();
        R.col(2) = R.col(0).cross(R.col(1));
        if (R.col(2).dot(c) < 0) R.col(2) = -R.col(2);
        return FittedPrimitive{Primitive{Box{Vec3(a.norm(), b.norm(), c.norm())}, Transform::fromMatrix(R, v0 + 0.5 * (a + b + c))},
                               0.0};
      }
  return std::nullopt;
}

// Least-squares sphere (or, in 2-D, circle) through points: |p|² = 2·c·p + k is linear in (c, k). Points are
// taken relative to their mean for conditioning. Returns the centre.
template <int D>
Eigen::Matrix<double, D, 1> fitCentre(const std::vector<Eigen::Matrix<double, D, 1>>& points) {
  using V = Eigen::Matrix<double, D, 1>;
  V mean = V::Zero();
  for (const V& p : points) mean += p;
  mean /= static_cast<double>(points.size());
  Eigen::MatrixXd A(static_cast<Eigen::Index>(points.size()), D + 1);
  Eigen::VectorXd b(static_cast<Eigen::Index>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    const V q = points[i] - mean;
    const auto row = static_cast<Eigen::Index>(i);
    A.block<1, D>(row, 0) = 2 * q.transpose();
    A(row, D) = 1;
    b(row) = q.squaredNorm();
  }
  const Eigen::VectorXd x = colPivQrSolve(A, b).x;
  return mean + x.template head<D>();
}

std::optional<FittedPrimitive> fitSphere(const std::vector<Vec3>& vertices, const Tris& triangles, double exact_mm,
                                         double relativeTolerance) {
  if (vertices.size() < 6) return std::nullopt;
  const Vec3 c = fitCentre<3>(vertices);
  double rmin = INFINITY, rmax = 0;
  for (const Vec3& v : vertices) {
    rmin = std::min(rmin, (v - c).norm());
    rmax = std::max(rmax, (v - c).norm());
  }
  if (!(rmax - rmin <= exact_mm) || !(rmin > 0)) return std::nullopt;
  const double r = 0.5 * (rmin + rmax);
  // The sphere bulges beyond each face plane by r minus the plane's distance from the centre.
  double deviation = rmax - r;
  for (const auto& t : triangles) {
    const Vec3 n = unitNormal(vertices, t);
    if (n.isZero()) continue;
    deviation = std::max(deviation, r - n.dot(corner(vertices, t, 0) - c));
  }
  if (!(deviation <= relativeTolerance * r)) return std::nullopt;
  return FittedPrimitive{Primitive{Sphere{r}, Transform::fromTranslation(c)}, deviation};
}

// The cylinder with axis `axis` (a cap's normal), if the piece is one: vertices on two planes normal to the axis
// and on one circle about it (or at a cap's centre), every face a cap or parallel to the axis.
std::optional<FittedPrimitive> cylinderAlong(const Vec3& axis, const std::vector<Vec3>& vertices, const Tris& triangles,
                                             double exact_mm, double relativeTolerance) {
  double hmin = INFINITY, hmax = -INFINITY;
  for (const Vec3& v : vertices) {
    hmin = std::min(hmin, axis.dot(v));
    hmax = std::max(hmax, axis.dot(v));
  }
  if (!(hmax - hmin > exact_mm)) return std::nullopt;
  for (const Vec3& v : vertices) {
    const double h = axis.dot(v);
    if (h - hmin > exact_mm && hmax - h > exact_mm) return std::nullopt;
  }
  // In-plane coordinates; the rim vertices (far from the mean: a cap's centre vertex is near it) fix the circle.
  Mat3 R;
  R.col(2) = axis;
  R.col(0) = axis.unitOrthogonal();
  R.col(1) = axis.cross(R.col(0));
  std::vector<Eigen::Vector2d> planar;
  Eigen::Vector2d mean = Eigen::Vector2d::Zero();
  for (const Vec3& v : vertices) {
    planar.emplace_back(R.col(0).dot(v), R.col(1).dot(v));
    mean += planar.back();
  }
  mean /= static_cast<double>(planar.size());
  double farthest = 0;
  for (const Eigen::Vector2d& p : planar) farthest = std::max(farthest, (p - mean).norm());
  std::vector<Eigen::Vector2d> rim;
  for (const Eigen::Vector2d& p : planar)
    if ((p - mean).norm() > 0.5 * farthest) rim.push_back(p);
  if (rim.size() < 6) return std::nullopt;
  const Eigen::Vector2d c2 = fitCentre<2>(rim);
  double rmin = INFINITY, rmax = 0;
  for (const Eigen::Vector2d& p : rim) {
    rmin = std::min(rmin, (p - c2).norm());
    rmax = std::max(rmax, (p - c2).norm());
  }
  if (!(rmax - rmin <= exact_mm)) return std::nullopt;
  for (const Eigen::Vector2d& p : planar)  // every other vertex is a cap's centre
    if ((p - c2).norm() < rmin && (p - c2).norm() > exact_mm) return std::nullopt;
  const double r = 0.5 * (rmin + rmax);
  const Vec3 centre = R.col(0) * c2.x() + R.col(1) * c2.y() + axis * (0.5 * (hmin + hmax));
  double deviation = rmax - r;
  for (const auto& t : triangles) {
    const Vec3 n = unitNormal(vertices, t);
    if (n.isZero()) continue;
    const double along = std::abs(n.dot(axis));
    if (along >= 1 - 1e-6) continue;  // a cap: on the primitive's surface
    if (along > 1e-4) return std::nullopt;  // neither cap nor side
    // A chord face of the side: the cylinder bulges beyond it by r minus the plane's distance from the axis.
    deviation = std::max(deviation, r - n.dot(corner(vertices, t, 0) - centre));
  }
  if (!(deviation <= relativeTolerance * r)) return std::nullopt;
  return FittedPrimitive{Primitive{Cylinder{r, hmax - hmin}, Transform::fromMatrix(R, centre)}, deviation};
}

std::optional<FittedPrimitive> fitCylinder(const std::vector<Vec3>& vertices, const Tris& triangles, double exact_mm,
                                           double relativeTolerance) {
  if (vertices.size() < 6) return std::nullopt;
  // The axis is the normal of a cap face: try each face's normal once.
  std::vector<Vec3> tried;
  for (const auto& t : triangles) {
    const Vec3 n = unitNormal(vertices, t);
    if (n.isZero() ||
        std::any_of(tried.begin(), tried.end(), [&](const Vec3& a) { return std::abs(a.dot(n)) >= 1 - 1e-9; }))
      continue;
    tried.push_back(n);
    if (auto fit = cylinderAlong(n, vertices, triangles, exact_mm, relativeTolerance)) return fit;
  }
  return std::nullopt;
}

}  // namespace

std::optional<FittedPrimitive> fitPrimitive(const std::vector<Vec3>& vertices, const Tris& triangles, double exact_mm,
                                            double relativeTolerance) {
  if (auto box = fitBox(vertices, exact_mm)) return box;
  if (auto sphere = fitSphere(vertices, triangles, exact_mm, relativeTolerance)) return sphere;
  return fitCylinder(vertices, triangles, exact_mm, relativeTolerance);
}

}  // namespace sg::sim
