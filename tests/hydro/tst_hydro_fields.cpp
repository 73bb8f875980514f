// Compliant volumes and their pressure fields (src/geometry/hydro/README.md §Fields): mesh sizes from the
// resolution hint, volumes, field values at vertices and inside tets against the closed forms, the margin,
// the convex fan and the distance field, and the per-body cache.
#include <QtTest>

#include <random>

#include "HydroTestBodies.h"
#include "geometry/MassProperties.h"
#include "geometry/hydro/CompliantGeometry.h"
#include "geometry/hydro/InflateField.h"

using namespace sg;
using namespace sgtest;

namespace {

double tetVolume(const VolumeMesh& m, std::size_t t) {
  const auto& k = m.tets[t];
  const Vec3& a = m.vertices_mm[k[0]];
  return (m.vertices_mm[k[1]] - a).dot((m.vertices_mm[k[2]] - a).cross(m.vertices_mm[k[3]] - a)) / 6;
}

double meshVolume(const VolumeMesh& m) {
  double v = 0;
  for (std::size_t t = 0; t < m.tets.size(); ++t) v += tetVolume(m, t);
  return v;
}

bool allPositive(const VolumeMesh& m) {
  for (std::size_t t = 0; t < m.tets.size(); ++t)
    if (!(tetVolume(m, t) > 0)) return false;
  return true;
}

// The field at x by barycentric interpolation in the tet holding it; nullopt outside the mesh.
std::optional<double> interpolate(const VolumeMeshField& f, const Vec3& x) {
  for (const auto& t : f.mesh.tets) {
    Mat3 A;
    for (int k = 0; k < 3; ++k) A.col(k) = f.mesh.vertices_mm[t[k + 1]] - f.mesh.vertices_mm[t[0]];
    const Vec3 b = A.partialPivLu().solve(x - f.mesh.vertices_mm[t[0]]);
    const double b0 = 1 - b.sum();
    if (b.minCoeff() < -1e-12 || b0 < -1e-12) continue;
    return b0 * f.pressure_Pa[t[0]] + b[0] * f.pressure_Pa[t[1]] + b[1] * f.pressure_Pa[t[2]] + b[2] * f.pressure_Pa[t[3]];
  }
  return std::nullopt;
}

}  // namespace

class TstHydroFields : public QObject {
  Q_OBJECT
 private slots:
  void sphereLevelFollowsTheHint();
  void sphereMeshAndField();
  void sphereMarginKeepsTheZeroLevel();
  void boxFieldIsExactlyTheFaceDistance_data();
  void boxFieldIsExactlyTheFaceDistance();
  void cylinderAndCapsuleMeshes();
  void ellipsoidField();
  void convexMeshFan();
  void surfaceDistanceFieldOfATetMesh();
  void minimumInflationSatisfiesEveryFace();
  void convexMeshMarginKeepsTheZeroLevel();
  void generalMeshMarginInflatesTheSurface();
  void meshBodyMarginIsApplied();
  void badOptionsAreErrors();
  void cacheSharesPerBodyAndSpec();
};

void TstHydroFields::sphereLevelFollowsTheHint() {
  QCOMPARE(sphereRefinementLevel(10, 0), 0);   // no hint: the octahedron
  QCOMPARE(sphereRefinementLevel(10, 5), 2);   // h = R/2 ⇒ L = 2 (128 tets)
  QCOMPARE(sphereRefinementLevel(10, 100), 0);
  QCOMPARE(sphereRefinementLevel(10, 1e-6), 8);  // capped
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  o.resolutionHint_mm = 5;
  QCOMPARE(makeSphereField(Sphere{10}, o).mesh.tetCount(), std::size_t(128));
  o.resolutionHint_mm = 0;
  QCOMPARE(makeSphereField(Sphere{10}, o).mesh.tetCount(), std::size_t(8));
}

void TstHydroFields::sphereMeshAndField() {
  CompliantFieldOptions o;
  o.modulus_Pa = 2e5;
  double previous = 0;
  for (double hint : {10.0, 5.0, 2.5, 1.25}) {
    o.resolutionHint_mm = hint;
    const VolumeMeshField f = makeSphereField(Sphere{10}, o);
    QVERIFY(allPositive(f.mesh));
    const double v = meshVolume(f.mesh);
    QVERIFY(v < 4.0 / 3 * kPi * 1000 && v > previous);  // inscribed, growing with refinement
    previous = v;
    for (std::size_t i = 0; i < f.mesh.vertexCount(); ++i) {
      const double r = f.mesh.vertices_mm[i].norm();
      QVERIFY(std::abs(f.pressure_Pa[i] - 2e5 * (1 - r / 10)) < 1e-6);
    }
  }
  QVERIFY(relErr(previous, 4.0 / 3 * kPi * 1000) < 0.02);
}

void TstHydroFields::sphereMarginKeepsTheZeroLevel() {
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  o.resolutionHint_mm = 2;
  o.margin_mm = 0.5;
  const VolumeMeshField f = makeSphereField(Sphere{10}, o);
  double minP = 0;
  for (std::size_t i = 0; i < f.mesh.vertexCount(); ++i) {
    QVERIFY(std::abs(f.mesh.vertices_mm[i].norm() - (i + 1 == f.mesh.vertexCount() ? 0 : 10.5)) < 1e-9);
    minP = std::min(minP, f.pressure_Pa[i]);
  }
  QVERIFY(std::abs(minP - (-1e5 * 0.5 / 10)) < 1e-6);  // −E·δ/R at the inflated boundary
  // Along a vertex ray the field crosses zero at the original radius.
  const Vec3 dir = f.mesh.vertices_mm[0].normalized();
  QVERIFY(std::abs(*interpolate(f, 10 * dir)) < 1e-6);
}

void TstHydroFields::boxFieldIsExactlyTheFaceDistance_data() {
  QTest::addColumn<Vec3>("size");
  QTest::addColumn<double>("margin");
  QTest::newRow("cube") << Vec3(20, 20, 20) << 0.0;
  QTest::newRow("two square faces") << Vec3(40, 20, 20) << 0.0;
  QTest::newRow("general") << Vec3(100, 60, 80) << 0.0;
  QTest::newRow("flat, with margin") << Vec3(30, 50, 6) << 0.4;
}

void TstHydroFields::boxFieldIsExactlyTheFaceDistance() {
  QFETCH(Vec3, size);
  QFETCH(double, margin);
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  o.margin_mm = margin;
  const VolumeMeshField f = makeBoxField(Box{size}, o);
  QVERIFY(allPositive(f.mesh));
  const Vec3 hi = 0.5 * size.array() + margin;
  QVERIFY(relErr(meshVolume(f.mesh), 8 * hi.prod()) < 1e-12);
  const double H = 0.5 * size.minCoeff();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 300; ++i) {
    const Vec3 x = hi.cwiseProduct(Vec3(u(rng), u(rng), u(rng)));
    const auto p = interpolate(f, x);
    QVERIFY(p.has_value());
    const double exact = 1e5 * ((hi - x.cwiseAbs()).minCoeff() - margin) / H;
    QVERIFY2(std::abs(*p - exact) < 1e-9 * 1e5, qPrintable(QString::number(*p - exact)));
  }
}

void TstHydroFields::cylinderAndCapsuleMeshes() {
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  for (double height : {60.0, 20.0, 8.0}) {  // long, equal, short (disc medial axis)
    o.resolutionHint_mm = 1;
    const VolumeMeshField f = makeCylinderField(Cylinder{10, height}, o);
    QVERIFY(allPositive(f.mesh));
    QVERIFY(relErr(meshVolume(f.mesh), kPi * 100 * height) < 0.005);
    const auto centre = interpolate(f, Vec3::Zero());
    QVERIFY(centre && std::abs(*centre - 1e5) < 1e-6);  // the deepest point carries E
    QVERIFY(std::abs(*std::min_element(f.pressure_Pa.begin(), f.pressure_Pa.end())) < 1e-9);
  }
  o.resolutionHint_mm = 0;  // coarsest: a triangular prism
  QCOMPARE(makeCylinderField(Cylinder{10, 60}, o).mesh.vertexCount(), std::size_t(3 * 2 + 2 + 2));
  for (double length : {30.0, 0.0}) {
    o.resolutionHint_mm = 1;
    const VolumeMeshField f = makeCapsuleField(Capsule{5, length}, o);
    QVERIFY(allPositive(f.mesh));
    QVERIFY(meshVolume(f.mesh) < kPi * 25 * length + 4.0 / 3 * kPi * 125);  // inscribed
    QVERIFY(relErr(meshVolume(f.mesh), kPi * 25 * length + 4.0 / 3 * kPi * 125) < 0.02);
    const auto end = interpolate(f, Vec3(0, 0, 0.5 * length));
    QVERIFY(end && std::abs(*end - 1e5) < 1e-6);
  }
}

void TstHydroFields::ellipsoidField() {
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  o.resolutionHint_mm = 2;
  const Vec3 S(10, 6, 4);
  const VolumeMeshField f = makeEllipsoidField(Ellipsoid{S}, o);
  QVERIFY(allPositive(f.mesh));
  QVERIFY(meshVolume(f.mesh) < 4.0 / 3 * kPi * S.prod());
  for (std::size_t i = 0; i < f.mesh.vertexCount(); ++i)
    QVERIFY(std::abs(f.pressure_Pa[i] - 1e5 * (1 - f.mesh.vertices_mm[i].cwiseQuotient(S).norm())) < 1e-6);
}

void TstHydroFields::convexMeshFan() {
  const Body box = primitiveBody("box", Box{Vec3(10, 20, 30)});
  QVERIFY(isConvexMesh(*box.mesh));
  const Body torus = primitiveBody("torus", Torus{20, 5});
  QVERIFY(!isConvexMesh(*torus.mesh));
  CompliantFieldOptions o;
  o.modulus_Pa = 3e5;
  const VolumeMeshField f = makeConvexMeshField(*box.mesh, o);
  QCOMPARE(f.mesh.tetCount(), box.mesh->triangleCount());
  QVERIFY(allPositive(f.mesh));
  QVERIFY(relErr(meshVolume(f.mesh), 6000) < 1e-12);
  QCOMPARE(*std::max_element(f.pressure_Pa.begin(), f.pressure_Pa.end()), 3e5);
  QVERIFY((f.mesh.vertices_mm.back() - Vec3::Zero()).norm() < 1e-9);  // the centroid
}

void TstHydroFields::surfaceDistanceFieldOfATetMesh() {
  // A hand-made tet mesh of the 20 mm cube: the 12 surface triangles fanned to the centre, plus a vertex
  // on a face's centre: the field is the distance to the surface, E at the deepest vertex.
  const Body box = primitiveBody("box", Box{Vec3(20, 20, 20)});
  VolumeMesh m;
  m.vertices_mm = box.mesh->vertices;
  m.vertices_mm.push_back(Vec3::Zero());
  m.vertices_mm.push_back(Vec3(0, 0, 5));
  const auto c = static_cast<std::uint32_t>(m.vertices_mm.size() - 2);
  for (const auto& t : box.mesh->triangles) m.tets.push_back({c, t[0], t[1], t[2]});
  const VolumeMeshField f = surfaceDistanceField(m, *box.mesh, 1e5);
  QCOMPARE(f.pressure_Pa[c], 1e5);
  QVERIFY(std::abs(f.pressure_Pa[c + 1] - 0.5e5) < 1e-6);  // 5 mm deep of 10
  for (std::uint32_t i = 0; i < c; ++i) QCOMPARE(f.pressure_Pa[i], 0.0);
  // No interior vertex: an error, not a division by zero.
  VolumeMesh flat;
  flat.vertices_mm = {Vec3(10, 10, 10), Vec3(-10, 10, 10), Vec3(10, -10, 10), Vec3(10, 10, -10)};
  flat.tets = {{0, 1, 2, 3}};
  QVERIFY_THROWS_EXCEPTION(Error, surfaceDistanceField(flat, *box.mesh, 1e5));
}

void TstHydroFields::minimumInflationSatisfiesEveryFace() {
  const double d = 0.5;
  QVERIFY(minimumInflation({}, d).isZero());
  QVERIFY(minimumInflation({Vec3::UnitX()}, 0).isZero());
  // A box corner: δ along each face normal.
  QVERIFY((minimumInflation({Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()}, d) - Vec3(d, d, d)).norm() < 1e-12);
  // Coplanar neighbours count once.
  QVERIFY((minimumInflation({Vec3::UnitX(), Vec3::UnitX(), Vec3::UnitX()}, d) - Vec3(d, 0, 0)).norm() < 1e-12);
  // Two faces 60° apart: both tight, u = δ/(1 + cos 60°)·(n₁ + n₂).
  const Vec3 n2(0.5, std::sqrt(3.0) / 2, 0);
  QVERIFY((minimumInflation({Vec3::UnitX(), n2}, d) - d / 1.5 * (Vec3::UnitX() + n2)).norm() < 1e-10);
  // A cone apex, 8 faces whose normals lean 70° from the axis: u = δ/cos 70° along the axis.
  std::vector<Vec3> fan;
  const double lean = 70 * kPi / 180;
  for (int k = 0; k < 8; ++k)
    fan.push_back(Vec3(std::sin(lean) * std::cos(k * kPi / 4), std::sin(lean) * std::sin(k * kPi / 4), std::cos(lean)));
  QVERIFY((minimumInflation(fan, d) - Vec3(0, 0, d / std::cos(lean))).norm() < 1e-9);
  // One more face, tilted: still every constraint holds.
  std::vector<Vec3> tilted = fan;
  tilted.push_back(Vec3(1, 0.5, 0.5).normalized());
  const Vec3 u = minimumInflation(tilted, d);
  for (const Vec3& n : tilted) QVERIFY(n.dot(u) >= d * (1 - 1e-9));
  QVERIFY(u.norm() < 10 * d);
  // A face pointing against the apex: no displacement meets every face; δ along the mean normal instead.
  std::vector<Vec3> saddle = fan;
  saddle.push_back(Vec3(1, 1, -1).normalized());
  Vec3 mean = Vec3::Zero();
  for (const Vec3& n : saddle) mean += n;
  const Vec3 v = minimumInflation(saddle, d);
  QVERIFY(v.allFinite());
  QVERIFY((v - d * mean.normalized()).norm() < 1e-12);
  // Normals that cancel: no direction, no displacement.
  QVERIFY(minimumInflation({Vec3::UnitX(), -Vec3::UnitX()}, d).isZero());
}

void TstHydroFields::convexMeshMarginKeepsTheZeroLevel() {
  // The 20 mm cube's fan, inflated by 0.5 mm: the 21 mm cube, −E·δ/h on its surface, and (every fan tet
  // linear between E at the centre and the inflated face) zero exactly on the original faces.
  const Body box = primitiveBody("box", Box{Vec3(20, 20, 20)});
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  o.margin_mm = 0.5;
  const VolumeMeshField f = makeConvexMeshField(*box.mesh, o);
  QVERIFY(allPositive(f.mesh));
  QVERIFY(relErr(meshVolume(f.mesh), 21.0 * 21 * 21) < 1e-12);
  for (std::size_t i = 0; i + 1 < f.mesh.vertexCount(); ++i) {
    QVERIFY(std::abs(f.mesh.vertices_mm[i].cwiseAbs().maxCoeff() - 10.5) < 1e-12);
    QVERIFY(std::abs(f.pressure_Pa[i] - (-1e5 * 0.5 / 10)) < 1e-6);
  }
  QCOMPARE(f.pressure_Pa.back(), 1e5);
  for (const Vec3& onFace : {Vec3(10, 3, -2), Vec3(-4, 10, 7), Vec3(1, 1, -10), Vec3(10, 9.9, 9.9)}) {
    const std::optional<double> p = interpolate(f, onFace);
    QVERIFY(p && std::abs(*p) < 1e-6);
  }
  const std::optional<double> halfWay = interpolate(f, Vec3(5, 0, 0));
  QVERIFY(halfWay && std::abs(*halfWay - 0.5e5) < 1e-6);  // E/2, as without margin  // half way in: E/2, as without margin
}

void TstHydroFields::generalMeshMarginInflatesTheSurface() {
  // A torus (not convex: Gmsh's tets, the distance field). Same tets with and without margin; the surface
  // vertices move out by at least δ, take negative pressure, and the original surface stays near p = 0.
  const Body torus = primitiveBody("torus", Torus{20, 5}, {}, 24);
  CompliantFieldOptions o;
  o.modulus_Pa = 1e5;
  o.resolutionHint_mm = 3;
  const VolumeMeshField plain = makeGeneralMeshField(*torus.mesh, o);
  o.margin_mm = 0.3;
  const VolumeMeshField inflated = makeGeneralMeshField(*torus.mesh, o);
  QVERIFY(inflated.mesh.tets == plain.mesh.tets);
  QVERIFY(allPositive(inflated.mesh));
  QVERIFY(meshVolume(inflated.mesh) > meshVolume(plain.mesh));
  double minP = 0, worstZero = 0;
  int moved = 0;
  for (std::size_t i = 0; i < plain.mesh.vertexCount(); ++i) {
    const Vec3 u = inflated.mesh.vertices_mm[i] - plain.mesh.vertices_mm[i];
    if (plain.pressure_Pa[i] > 0) {  // interior: unchanged
      QVERIFY(u.isZero());
      QCOMPARE(inflated.pressure_Pa[i], plain.pressure_Pa[i]);
      continue;
    }
    ++moved;
    QVERIFY(u.norm() >= 0.3 * (1 - 1e-9));
    QVERIFY(inflated.pressure_Pa[i] < 0);
    minP = std::min(minP, inflated.pressure_Pa[i]);
    const std::optional<double> p = interpolate(inflated, plain.mesh.vertices_mm[i]);
    QVERIFY(p);  // the original surface lies inside the inflated mesh
    worstZero = std::max(worstZero, std::abs(*p));
  }
  QVERIFY(moved > 100);
  // The field rises about E/d_max per mm near the surface (d_max ≤ the tube radius 5 mm): the skirt's
  // pressure is of the order −E·δ/d_max, and at the original surface it is small against that.
  qInfo("skirt pressure down to %.0f Pa; |p| on the original surface at most %.0f Pa", minP, worstZero);
  QVERIFY(minP < -1e5 * 0.3 / 5 * 0.5);
  QVERIFY(worstZero < 0.5 * std::abs(minP));
}

void TstHydroFields::meshBodyMarginIsApplied() {
  // A body given as a mesh (no primitive), convex: its margin reaches the compliant volume.
  Body box = primitiveBody("box", Box{Vec3(20, 20, 20)});
  box.primitive.reset();
  const auto plain = compliantGeometryOf(compliant(box, 1e5));
  const auto inflated = compliantGeometryOf(compliant(box, 1e5, 0, 0.5));
  QVERIFY(plain && plain->volume && inflated && inflated->volume);
  auto extent = [](const VolumeMeshField& f) {
    double e = 0;
    for (const Vec3& v : f.mesh.vertices_mm) e = std::max(e, v.cwiseAbs().maxCoeff());
    return e;
  };
  QVERIFY(std::abs(extent(plain->volume->field) - 10) < 1e-12);
  QVERIFY(std::abs(extent(inflated->volume->field) - 10.5) < 1e-12);
}

void TstHydroFields::badOptionsAreErrors() {
  CompliantFieldOptions o;
  o.modulus_Pa = 0;
  QVERIFY_THROWS_EXCEPTION(Error, makeSphereField(Sphere{1}, o));
  o.modulus_Pa = 1e5;
  o.margin_mm = -1;
  QVERIFY_THROWS_EXCEPTION(Error, makeBoxField(Box{}, o));
  o.margin_mm = 0;
  QVERIFY_THROWS_EXCEPTION(Error, makeShapeField(Sphere{-2}, o));
  QVERIFY_THROWS_EXCEPTION(Error, makeShapeField(HalfSpace{}, o));
  const Body rigid = primitiveBody("ball", Sphere{5});
  QVERIFY(!compliantGeometryOf(rigid));
  Body slab = compliant(primitiveBody("floor", HalfSpace{}), 1e5);
  slab.hydroelastic->slabThickness_mm = -1;
  QVERIFY_THROWS_EXCEPTION(Error, compliantGeometryOf(slab));
}

void TstHydroFields::cacheSharesPerBodyAndSpec() {
  clearCompliantGeometryCache();
  const Body a = compliant(primitiveBody("ball", Sphere{5}), 1e5, 1);
  const auto g1 = compliantGeometryOf(a);
  QVERIFY(g1 && g1->volume);
  QCOMPARE(compliantGeometryOf(a).get(), g1.get());  // cached
  Body finer = a;
  finer.hydroelastic->resolutionHint_mm = 0.5;
  const auto g2 = compliantGeometryOf(finer);
  QVERIFY(g2.get() != g1.get());
  QVERIFY(g2->volume->field.mesh.tetCount() > g1->volume->field.mesh.tetCount());
  QCOMPARE(compliantGeometryCacheSize(), std::size_t(2));
  // Primitive fields are placed by the primitive's pose in the body frame.
  const Body moved = compliant(primitiveBody("ball", Sphere{5}, Transform::fromTranslation(Vec3(1, 2, 3))), 1e5, 1);
  const auto g3 = compliantGeometryOf(moved);
  QVERIFY((g3->volume->field.mesh.vertices_mm.back() - Vec3(1, 2, 3)).norm() < 1e-12);
}

QTEST_GUILESS_MAIN(TstHydroFields)
#include "tst_hydro_fields.moc"
