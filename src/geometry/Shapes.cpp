#include "geometry/Shapes.h"

#include <cmath>

#include "core/Decompositions.h"
#include "core/Parse.h"

namespace sg {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string positive(const char* what, double v) {
  if (std::isfinite(v) && v > 0) return {};
  return std::string(what) + " must be a finite number > 0 mm, found " + formatDouble(v);
}

std::string firstOf(std::initializer_list<std::string> problems) {
  for (const auto& p : problems)
    if (!p.empty()) return p;
  return {};
}

bool near(double a, double b, double tol) { return std::abs(a - b) <= tol * std::max(std::abs(a), std::abs(b)); }

}  // namespace

const char* shapeTypeName(const Shape& s) {
  return std::visit(Overloaded{[](const Sphere&) { return "sphere"; }, [](const Ellipsoid&) { return "ellipsoid"; },
                               [](const Cylinder&) { return "cylinder"; }, [](const Cone&) { return "cone"; },
                               [](const Box&) { return "box"; }, [](const Torus&) { return "torus"; },
                               [](const Capsule&) { return "capsule"; }, [](const HalfSpace&) { return "halfspace"; }},
                    s);
}

bool isConvex(const Shape& s) { return !std::holds_alternative<Torus>(s) && !std::holds_alternative<HalfSpace>(s); }
bool isSmooth(const Shape& s) {
  return std::holds_alternative<Sphere>(s) || std::holds_alternative<Ellipsoid>(s) || std::holds_alternative<Torus>(s) ||
         std::holds_alternative<HalfSpace>(s);
}
bool isFinite(const Shape& s) { return !std::holds_alternative<HalfSpace>(s); }

std::string shapeProblem(const Shape& s) {
  return std::visit(
      Overloaded{[](const Sphere& x) { return positive("radius", x.radius_mm); },
                 [](const Ellipsoid& x) {
                   return firstOf({positive("semi-axis x", x.semiAxes_mm.x()), positive("semi-axis y", x.semiAxes_mm.y()),
                                   positive("semi-axis z", x.semiAxes_mm.z())});
                 },
                 [](const Cylinder& x) { return firstOf({positive("radius", x.radius_mm), positive("height", x.height_mm)}); },
                 [](const Cone& x) { return firstOf({positive("radius", x.radius_mm), positive("height", x.height_mm)}); },
                 [](const Box& x) {
                   return firstOf({positive("size x", x.size_mm.x()), positive("size y", x.size_mm.y()),
                                   positive("size z", x.size_mm.z())});
                 },
                 [](const Torus& x) {
                   std::string p = firstOf({positive("major radius", x.majorRadius_mm),
                                            positive("minor radius", x.minorRadius_mm)});
                   if (p.empty() && !(x.minorRadius_mm < x.majorRadius_mm))
                     p = "minor radius must be smaller than the major radius, found " + formatDouble(x.minorRadius_mm) +
                         " ≥ " + formatDouble(x.majorRadius_mm);
                   return p;
                 },
                 [](const Capsule& x) {
                   std::string p = positive("radius", x.radius_mm);
                   if (p.empty() && !(std::isfinite(x.length_mm) && x.length_mm >= 0))
                     p = "length must be a finite number ≥ 0 mm, found " + formatDouble(x.length_mm);
                   return p;
                 },
                 [](const HalfSpace&) { return std::string(); }},
      s);
}

std::optional<ShapeMassProperties> shapeMassProperties(const Shape& s) {
  ShapeMassProperties m;
  auto diag = [](double x, double y, double z) { return Mat3(Vec3(x, y, z).asDiagonal()); };
  return std::visit(
      Overloaded{
          [&](const Sphere& x) -> std::optional<ShapeMassProperties> {
            const double r = x.radius_mm;
            m.volume_mm3 = 4.0 / 3 * kPi * r * r * r;
            m.inertiaPerMass_mm2 = Mat3::Identity() * 0.4 * r * r;
            return m;
          },
          [&](const Ellipsoid& x) -> std::optional<ShapeMassProperties> {
            const Vec3 a2 = x.semiAxes_mm.cwiseProduct(x.semiAxes_mm);
            m.volume_mm3 = 4.0 / 3 * kPi * x.semiAxes_mm.prod();
            m.inertiaPerMass_mm2 = diag(a2.y() + a2.z(), a2.x() + a2.z(), a2.x() + a2.y()) / 5.0;
            return m;
          },
          [&](const Cylinder& x) -> std::optional<ShapeMassProperties> {
            const double r2 = x.radius_mm * x.radius_mm, h2 = x.height_mm * x.height_mm;
            m.volume_mm3 = kPi * r2 * x.height_mm;
            m.inertiaPerMass_mm2 = diag((3 * r2 + h2) / 12, (3 * r2 + h2) / 12, r2 / 2);
            return m;
          },
          [&](const Cone& x) -> std::optional<ShapeMassProperties> {
            const double r2 = x.radius_mm * x.radius_mm, h2 = x.height_mm * x.height_mm;
            m.volume_mm3 = kPi * r2 * x.height_mm / 3;
            m.centroid_mm = Vec3(0, 0, -x.height_mm / 4);  // a quarter of the height above the base
            const double axial = 0.3 * r2, transverse = 0.15 * r2 + 0.0375 * h2;
            m.inertiaPerMass_mm2 = diag(transverse, transverse, axial);
            return m;
          },
          [&](const Box& x) -> std::optional<ShapeMassProperties> {
            const Vec3 s2 = x.size_mm.cwiseProduct(x.size_mm);
            m.volume_mm3 = x.size_mm.prod();
            m.inertiaPerMass_mm2 = diag(s2.y() + s2.z(), s2.x() + s2.z(), s2.x() + s2.y()) / 12.0;
            return m;
          },
          [&](const Torus& x) -> std::optional<ShapeMassProperties> {
            const double R2 = x.majorRadius_mm * x.majorRadius_mm, r2 = x.minorRadius_mm * x.minorRadius_mm;
            m.volume_mm3 = 2 * kPi * kPi * x.majorRadius_mm * r2;
            const double transverse = R2 / 2 + 5 * r2 / 8;
            m.inertiaPerMass_mm2 = diag(transverse, transverse, R2 + 0.75 * r2);
            return m;
          },
          [&](const Capsule& x) -> std::optional<ShapeMassProperties> {
            const double r = x.radius_mm, L = x.length_mm, r2 = r * r;
            const double vc = kPi * r2 * L, vs = 4.0 / 3 * kPi * r2 * r;
            m.volume_mm3 = vc + vs;
            // Cylinder plus two hemispheres, each shifted from its flat face (L/2 from the centre) by 3r/8.
            const double axial = vc * r2 / 2 + vs * 0.4 * r2;
            const double transverse = vc * (3 * r2 + L * L) / 12 + vs * (0.4 * r2 + L * L / 4 + 3 * L * r / 8);
            m.inertiaPerMass_mm2 = diag(transverse, transverse, axial) / m.volume_mm3;
            return m;
          },
          [](const HalfSpace&) -> std::optional<ShapeMassProperties> { return std::nullopt; }},
      s);
}

std::optional<Primitive> transformedPrimitive(const Primitive& p, const Mat3& A, const Vec3& t, double tol) {
  if (!A.allFinite() || !t.allFinite() || std::abs(A.determinant()) < 1e-300) return std::nullopt;
  const Mat3 R0 = p.X_BS.rotationMatrix();
  const Vec3 origin = A * p.X_BS.translation() + t;
  if (std::holds_alternative<HalfSpace>(p.shape)) {
    // The plane through the mapped origin; normals map by A⁻ᵀ.
    const Vec3 n = (A.inverse().transpose() * R0.col(2)).normalized();
    const Quat q = rotationBetween(Vec3::UnitZ(), n);
    return Primitive{HalfSpace{}, Transform(q, origin)};
  }
  // Columns of M = A·R0 are the images of the shape axes: they must stay orthogonal.
  Mat3 M = A * R0;
  Vec3 scale;
  for (int i = 0; i < 3; ++i) scale[i] = M.col(i).norm();
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (std::abs(M.col(i).dot(M.col(j))) > tol * scale[i] * scale[j]) return std::nullopt;
  Mat3 R = M * scale.cwiseInverse().asDiagonal();
  if (R.determinant() < 0) R.col(0) = -R.col(0);  // a mirror: every shape is symmetric across x = 0
  const Transform pose = Transform::fromMatrix(R, origin);
  const bool uniform = near(scale.x(), scale.y(), tol) && near(scale.y(), scale.z(), tol);
  const bool radialEqual = near(scale.x(), scale.y(), tol);
  std::optional<Shape> shape = std::visit(
      Overloaded{[&](const Sphere& x) -> std::optional<Shape> {
                   if (uniform) return Sphere{x.radius_mm * scale.x()};
                   return Ellipsoid{x.radius_mm * scale};
                 },
                 [&](const Ellipsoid& x) -> std::optional<Shape> { return Ellipsoid{x.semiAxes_mm.cwiseProduct(scale)}; },
                 [&](const Cylinder& x) -> std::optional<Shape> {
                   if (!radialEqual) return std::nullopt;
                   return Cylinder{x.radius_mm * scale.x(), x.height_mm * scale.z()};
                 },
                 [&](const Cone& x) -> std::optional<Shape> {
                   if (!radialEqual) return std::nullopt;
                   return Cone{x.radius_mm * scale.x(), x.height_mm * scale.z()};
                 },
                 [&](const Box& x) -> std::optional<Shape> { return Box{x.size_mm.cwiseProduct(scale)}; },
                 [&](const Torus& x) -> std::optional<Shape> {
                   if (!uniform) return std::nullopt;
                   return Torus{x.majorRadius_mm * scale.x(), x.minorRadius_mm * scale.x()};
                 },
                 [&](const Capsule& x) -> std::optional<Shape> {
                   if (!uniform) return std::nullopt;
                   return Capsule{x.radius_mm * scale.x(), x.length_mm * scale.x()};
                 },
                 [](const HalfSpace&) -> std::optional<Shape> { return HalfSpace{}; }},
      p.shape);
  if (!shape) return std::nullopt;
  return Primitive{*shape, pose};
}

}  // namespace sg
