// The interpenetration scan (contact/Interpenetration.h) the application draws red and `softgrasp-cli info`
// warns about: a 100 mm box with exact primitive spheres (R = 10 mm) pushed 0.5 mm and 2 mm into its top face
// and one 1 mm above it. The depths are exact for primitives.
#include <QtTest>

#include "contact/Interpenetration.h"
#include "geometry/Primitives.h"
#include "geometry/ShapeTessellation.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

constexpr double kR = 10;

PlacedBody placedPrimitive(const std::string& name, BodyKind kind, const Shape& shape, const Transform& pose) {
  const Primitive p{shape, Transform::identity()};
  PlacedBody b = makeBody(name, kind, tessellatePrimitive(p), pose, 1.5e6);
  b.body.primitive = p;
  return b;
}

// The box (graspable 0, top face z = 0) and spheres whose lowest points are `gaps` above the face (< 0: inside),
// obstacles 0, 1, … 30 mm apart.
World spheresOnBox(const std::vector<double>& gaps) {
  World w;
  addGraspable(w, placedPrimitive("box", BodyKind::Graspable, Box{Vec3::Constant(100)},
                            Transform::fromTranslation(Vec3(0, 0, -50))));
  for (std::size_t i = 0; i < gaps.size(); ++i)
    addObstacle(w, placedPrimitive("sphere" + std::to_string(i), BodyKind::Obstacle, Sphere{kR},
                             Transform::fromTranslation(Vec3(-30.0 + 30.0 * static_cast<double>(i), 0, kR + gaps[i]))));
  return w;
}

bool isPair(const Interpenetration& p, const BodyHandle& a, const BodyHandle& b) {
  return (p.body1 == a && p.body2 == b) || (p.body1 == b && p.body2 == a);
}

}  // namespace

class TstInterpenetration : public QObject {
  Q_OBJECT
 private slots:
  void deepestFirstWithExactDepths() {
    const World w = spheresOnBox({-0.5, -2.0, 1.0});
    const std::vector<Interpenetration> pairs = findInterpenetrations(w);
    QCOMPARE(pairs.size(), std::size_t(2));  // the sphere above the face is apart
    QVERIFY(isPair(pairs[0], graspableHandle(0), obstacleHandle(1)));
    QVERIFY(std::abs(pairs[0].depth_mm - 2.0) < 1e-9);
    QVERIFY(isPair(pairs[1], graspableHandle(0), obstacleHandle(0)));
    QVERIFY(std::abs(pairs[1].depth_mm - 0.5) < 1e-9);
  }

  void noneWhenApartOrSwitchedOff() {
    QVERIFY(findInterpenetrations(spheresOnBox({0.1, 1.0})).empty());
    const World w = spheresOnBox({-0.5, -2.0});
    CollisionSettings settings;
    settings.disabledBodies.push_back(obstacleHandle(1));
    const std::vector<Interpenetration> left = findInterpenetrations(w, settings);
    QCOMPARE(left.size(), std::size_t(1));
    QVERIFY(isPair(left[0], graspableHandle(0), obstacleHandle(0)));
  }

  void readsTheStateItIsGiven() {
    const World w = spheresOnBox({-0.5});
    WorldState lifted = w.state;
    lifted.X_WO[0] = Transform::fromTranslation(Vec3(-30, 0, kR + 5));
    QVERIFY(findInterpenetrations(w, lifted).empty());
    QCOMPARE(findInterpenetrations(w).size(), std::size_t(1));
  }

  void description() {
    const World w = spheresOnBox({-2.0});
    const std::vector<Interpenetration> pairs = findInterpenetrations(w);
    QCOMPARE(pairs.size(), std::size_t(1));
    const QString text = QString::fromStdString(describe(w, pairs[0]));
    QVERIFY2(text.contains("box") && text.contains("sphere0") && text.contains("<->") && text.endsWith("2.00 mm deep"),
             qPrintable(text));
  }
};

QTEST_APPLESS_MAIN(TstInterpenetration)
#include "tst_interpenetration.moc"
