// Contacts with primitive bodies (Body::primitive): world-level detection, distance and sensing through the
// exact pair queries, and the soft-contact model's exact curvature (estimator Exact, PrimitiveCurvature.h).
#include <QtTest>

#include "contact/ContactDetection.h"
#include "contact/PrimitiveCurvature.h"
#include "contact/SoftContactModel.h"
#include "geometry/Primitives.h"
#include "geometry/ShapeTessellation.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

PlacedBody primitiveBody(const std::string& name, BodyKind kind, const Shape& shape, const Transform& pose,
                         std::optional<double> youngs_Pa = std::nullopt) {
  const Primitive p{shape, Transform::identity()};
  PlacedBody b = makeBody(name, kind, tessellatePrimitive(p), pose, youngs_Pa);
  b.body.primitive = p;
  return b;
}

// A soft sphere fingertip R = 10 mm, E = 1.5 MPa, 0.1 mm above the top face (z = 0) of a rigid 100 mm box.
World fingertipOnBox(bool boxIsPrimitive, const Vec3& tipCentre = Vec3(3, -2, 10.1)) {
  World w;
  const Transform boxPose = Transform::fromTranslation(Vec3(0, 0, -50));
  if (boxIsPrimitive) addGraspable(w, primitiveBody("box", BodyKind::Graspable, Box{Vec3::Constant(100)}, boxPose));
  else addGraspable(w, makeBody("box", BodyKind::Graspable, makeBox(Vec3::Constant(100)), boxPose));
  addObstacle(w, primitiveBody("tip", BodyKind::Obstacle, Sphere{10}, Transform::fromTranslation(tipCentre), 1.5e6));
  return w;
}

}  // namespace

class TestPrimitiveContact : public QObject {
  Q_OBJECT
 private slots:
  void detectionUsesTheExactShapes() {
    for (bool boxIsPrimitive : {true, false}) {  // sphere–box closed form, sphere–mesh
      World w = fingertipOnBox(boxIsPrimitive);
      const auto contacts = findAllContacts(w);
      QCOMPARE(contacts.size(), std::size_t(1));
      const Contact& c = contacts[0];
      QVERIFY(std::abs(c.separation_mm - 0.1) < 1e-9);
      // The touching point itself, under the sphere's centre (a mesh sphere would give a vertex near it).
      const ContactSide& tip = c.side1.body.kind == BodyHandle::Kind::Obstacle ? c.side1 : c.side2;
      const ContactSide& box = c.side1.body.kind == BodyHandle::Kind::Obstacle ? c.side2 : c.side1;
      QVERIFY((tip.p_WC_mm - Vec3(3, -2, 0.1)).norm() < 1e-9);
      QVERIFY((box.p_WC_mm - Vec3(3, -2, 0)).norm() < 1e-9);
      QVERIFY((tip.n_W - Vec3::UnitZ()).norm() < 1e-12 && (box.n_W + Vec3::UnitZ()).norm() < 1e-12);
      const auto d = bodyDistance(w, graspableHandle(0), obstacleHandle(0));
      QVERIFY(std::abs(d.distance_mm - 0.1) < 1e-9 && !d.colliding);
      const auto sensed = sensePair(w, graspableHandle(0), obstacleHandle(0));
      QVERIFY(sensed.contact && std::abs(sensed.separation_mm - 0.1) < 1e-9);
      QVERIFY(!anyCollision(w));
      // Pressed 0.3 mm in: colliding, depth exact; one contact at the sphere's deepest point, flagged penetrating.
      w = fingertipOnBox(boxIsPrimitive, Vec3(0, 0, 9.7));
      QVERIFY(anyCollision(w));
      const auto inside = findAllContacts(w);
      QCOMPARE(inside.size(), std::size_t(1));
      QVERIFY(inside[0].penetrating && std::abs(inside[0].depth_mm() - 0.3) < 1e-9);
      const ContactSide& deepest = inside[0].side1.body.kind == BodyHandle::Kind::Obstacle ? inside[0].side1 : inside[0].side2;
      QVERIFY((deepest.p_WC_mm - Vec3(0, 0, -0.3)).norm() < 1e-9 && (deepest.n_W - Vec3::UnitZ()).norm() < 1e-12);
      QVERIFY(std::abs(sensePair(w, graspableHandle(0), obstacleHandle(0)).separation_mm + 0.3) < 1e-9);
    }
  }

  void softFingertipGetsExactCurvature() {
    for (bool boxIsPrimitive : {true, false}) {
      const World w = fingertipOnBox(boxIsPrimitive);
      const auto contacts = findAllContacts(w);
      QCOMPARE(contacts.size(), std::size_t(1));
      SoftContactSettings s;  // default estimator: the sphere's curvature is exact whatever it is
      auto pairs = gatherSoftNeighbourhoods(w, contacts, s);
      const SoftContactResult r = analyzeSoftContact(w, contacts[0], pairs[0], s);
      const bool tipIsSide1 = contacts[0].side1.body.kind == BodyHandle::Kind::Obstacle;
      const QuadricFit& tip = tipIsSide1 ? r.fit1 : r.fit2;
      const QuadricFit& box = tipIsSide1 ? r.fit2 : r.fit1;
      QCOMPARE(tip.estimator, CurvatureEstimator::Exact);
      QCOMPARE(tip.status, QuadricFitStatus::Ok);
      QCOMPARE(tip.rmsResidual_mm, 0.0);
      QVERIFY(std::abs(tip.curvatures.kappaMax_per_mm - 0.1) < 1e-12);
      QVERIFY(std::abs(tip.curvatures.kappaMin_per_mm - 0.1) < 1e-12);
      // The paraboloid coefficients give the same curvatures back.
      const auto back = principalCurvatures(tip.a, tip.b, tip.c, contactFrame(Vec3::Zero(), Vec3::UnitZ()));
      QVERIFY(std::abs(back.kappaMax_per_mm - 0.1) < 1e-12 && std::abs(back.kappaMin_per_mm - 0.1) < 1e-12);
      QCOMPARE(box.estimator, boxIsPrimitive ? CurvatureEstimator::Exact : s.fit.estimator);
      // The box's face is flat: exactly for the primitive, and for the 12-triangle mesh too, whose
      // neighbourhood holds only corner vertices (their normals are taken from the face the contact is on:
      // src/contact/README.md §Curvature estimators).
      QVERIFY2(box.curvatures.flatMax() && box.curvatures.flatMin(),
               qPrintable(QString("box kappa %1 / %2").arg(box.curvatures.kappaMax_per_mm).arg(box.curvatures.kappaMin_per_mm)));
      // Relative radius = the fingertip's radius.
      QVERIFY(std::abs(r.relative.radiusMin_mm() - 10) < 1e-9 && std::abs(r.relative.radiusMax_mm() - 10) < 1e-9);
      QCOMPARE(std::string(curvatureEstimatorName(tip.estimator)), std::string("exact (primitive)"));
    }
    // Switched off: the tessellation is fitted like any mesh, and the paraboloid's bias shows.
    const World w = fingertipOnBox(true);
    const auto contacts = findAllContacts(w);
    SoftContactSettings s;
    s.fit.exactOnPrimitives = false;
    s.fit.estimator = CurvatureEstimator::GraspItParaboloid;  // GraspIt!'s fit, whose bias the jet removes
    auto pairs = gatherSoftNeighbourhoods(w, contacts, s);
    const SoftContactResult r = analyzeSoftContact(w, contacts[0], pairs[0], s);
    const QuadricFit& tip = contacts[0].side1.body.kind == BodyHandle::Kind::Obstacle ? r.fit1 : r.fit2;
    QCOMPARE(tip.estimator, CurvatureEstimator::GraspItParaboloid);
    QVERIFY(std::abs(tip.curvatures.kappaMin_per_mm - 0.1) > 1e-4);
    qInfo("GraspIt! paraboloid on the fingertip's tessellation: kappa %.5f / %.5f per mm (exact 0.1)",
          tip.curvatures.kappaMax_per_mm, tip.curvatures.kappaMin_per_mm);
  }

  void exactFitOnCurvedShapes() {
    // A cylinder (R = 4) touched on its side, in a frame whose x is not the principal direction.
    const Transform X_WS = Transform::fromAxisAngle(Vec3::UnitY(), 0.3);
    const Vec3 p = X_WS * Vec3(4, 0, 1);
    const Vec3 inward = -X_WS.applyToVector(Vec3::UnitX());
    const QuadricFit f = exactShapeFit(Cylinder{4, 20}, X_WS, p, inward);
    QVERIFY(std::abs(f.curvatures.kappaMax_per_mm - 0.25) < 1e-12 && f.curvatures.kappaMin_per_mm == 0);
    QVERIFY(std::abs(std::abs(f.curvatures.directionMin.dot(X_WS.applyToVector(Vec3::UnitZ()))) - 1) < 1e-12);
    const auto back = principalCurvatures(f.a, f.b, f.c, contactFrame(p, inward));
    QVERIFY(std::abs(back.kappaMax_per_mm - 0.25) < 1e-12);
    QVERIFY(std::abs(std::abs(back.directionMax.dot(f.curvatures.directionMax)) - 1) < 1e-12);
    // A torus's inner equator is a saddle: κmin < 0.
    const QuadricFit saddle = exactShapeFit(Torus{20, 5}, Transform::identity(), Vec3(15, 0, 0), Vec3::UnitX());
    QVERIFY(std::abs(saddle.curvatures.kappaMin_per_mm + 1.0 / 15) < 1e-12);
    QVERIFY(saddle.curvatures.concave());
  }
};

QTEST_GUILESS_MAIN(TestPrimitiveContact)
#include "tst_primitive_contact.moc"
