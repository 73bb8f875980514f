// Touching and overlapping bodies have contacts (src/contact/README.md §Touching and overlapping
// pairs). A R = 10 mm sphere over the top face (z = 0) of a 100 mm box, 0.1 mm apart, touching and 0.05 / 0.5 mm
// into it, with exact primitives on both sides, a primitive sphere on a mesh box and a mesh sphere (a UV sphere:
// its pole vertex is its lowest point) on a mesh box: one contact at the deepest point, flagged penetrating
// from separation 0 on, with the depth; the pair screen, the sensing outputs and every contact model agree.
#include <QtTest>

#include "contact/ContactDetection.h"
#include "contact/PairScreen.h"
#include "core/Math.h"
#include "geometry/Primitives.h"
#include "geometry/ShapeTessellation.h"
#include "ModelRun.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

enum class Pair { Primitives, SphereOnMesh, Meshes };
const Vec3 kXY(3, -2, 0);  // where the sphere's pole is above the face
constexpr double kR = 10;

PlacedBody placedPrimitive(const std::string& name, BodyKind kind, const Shape& shape, const Transform& pose) {
  const Primitive p{shape, Transform::identity()};
  PlacedBody b = makeBody(name, kind, tessellatePrimitive(p), pose, 1.5e6);
  b.body.primitive = p;
  return b;
}

// The box is graspable 0, the sphere obstacle 0; `gap` > 0 apart, < 0 overlapping.
World sphereOnBox(Pair pair, double gap) {
  World w;
  const Transform boxPose = Transform::fromTranslation(Vec3(0, 0, -50));
  const Transform spherePose = Transform::fromTranslation(kXY + Vec3(0, 0, kR + gap));
  if (pair == Pair::Primitives) addGraspable(w, placedPrimitive("box", BodyKind::Graspable, Box{Vec3::Constant(100)}, boxPose));
  else addGraspable(w, makeBody("box", BodyKind::Graspable, makeBox(Vec3::Constant(100)), boxPose, 1.5e6));
  if (pair == Pair::Meshes) addObstacle(w, makeBody("sphere", BodyKind::Obstacle, makeUvSphere(kR, 64, 32), spherePose, 1.5e6));
  else addObstacle(w, placedPrimitive("sphere", BodyKind::Obstacle, Sphere{kR}, spherePose));
  return w;
}

const BodyHandle kBox = graspableHandle(0), kSphere = obstacleHandle(0);

bool sameContact(const Contact& a, const Contact& b) {
  return a.side1.body == b.side1.body && a.side2.body == b.side2.body && a.side1.p_WC_mm == b.side1.p_WC_mm &&
         a.side2.p_WC_mm == b.side2.p_WC_mm && a.side1.n_W == b.side1.n_W && a.side2.n_W == b.side2.n_W &&
         a.separation_mm == b.separation_mm && a.penetrating == b.penetrating;
}

}  // namespace

class TstPenetrating : public QObject {
  Q_OBJECT
 private slots:
  void oneContactAtTheDeepestPoint_data() {
    QTest::addColumn<int>("pair");
    QTest::addColumn<double>("gap");
    const std::pair<Pair, const char*> pairs[] = {
        {Pair::Primitives, "primitives"}, {Pair::SphereOnMesh, "sphere on mesh"}, {Pair::Meshes, "meshes"}};
    for (const auto& [pair, name] : pairs)
      for (double gap : {0.1, 0.0, -0.05, -0.5})
        QTest::addRow("%s %g mm", name, gap) << static_cast<int>(pair) << gap;
  }

  void oneContactAtTheDeepestPoint() {
    QFETCH(int, pair);
    QFETCH(double, gap);
    const World w = sphereOnBox(static_cast<Pair>(pair), gap);
    QCOMPARE(anyCollision(w), gap <= 0);
    const std::vector<Contact> contacts = findAllContacts(w);
    QCOMPARE(contacts.size(), std::size_t(1));
    const Contact& c = contacts[0];
    QCOMPARE(c.penetrating, gap <= 0);
    QVERIFY2(std::abs(c.separation_mm - gap) < 1e-9, qPrintable(QString::number(c.separation_mm, 'g', 17)));
    QVERIFY(std::abs(c.depth_mm() - std::max(0.0, -gap)) < 1e-9);
    // The sphere's pole (its deepest point in the box when overlapping) and the face point under it; normals
    // into each body.
    const ContactSide& sphere = sideOn(c, kSphere);
    const ContactSide& box = sideOn(c, kBox);
    QVERIFY2((sphere.p_WC_mm - (kXY + Vec3(0, 0, gap))).norm() < 1e-9, qPrintable(QString::number(sphere.p_WC_mm.z())));
    QVERIFY((box.p_WC_mm - kXY).norm() < 1e-9);
    QVERIFY((sphere.n_W - Vec3::UnitZ()).norm() < 1e-9 && (box.n_W + Vec3::UnitZ()).norm() < 1e-9);
    QVERIFY((sphere.X_WC.rotationMatrix().col(2) - Vec3::UnitZ()).norm() < 1e-9);

    // The pair screen of the motion loops answers exactly as findContacts.
    PairScreen screen(w, activePairs(w, CollisionSettings{}), CollisionSettings{});
    const std::vector<Contact> screened = screen.contacts(w.state);
    QCOMPARE(screened.size(), contacts.size());
    QVERIFY(sameContact(screened[0], c));

    // The sensing outputs name the same point, separation and normal.
    const PairSensing s = sensePair(w, c.side1.body, c.side2.body);
    QCOMPARE(s.colliding, gap <= 0);
    QCOMPARE(s.separation_mm, c.separation_mm);
    QVERIFY((s.frameA.translation() - c.side1.p_WC_mm).norm() < 1e-12);
    QVERIFY((s.frameB.translation() - c.side2.p_WC_mm).norm() < 1e-12);
    QVERIFY((s.frameA.rotationMatrix().col(2) - c.side1.n_W).norm() < 1e-12);

    // Every contact model reports it (on a soft sphere and a rigid box): its record at the same place (the soft
    // models' touching point, the patch's centroid) with the same separation and flag.
    for (const ContactModel* model : contactModels()) {
      const std::string name = model->name();
      const ModelRun run = runModel(w, name);
      QVERIFY2(run.result && run.result->contacts.size() == 1, name.c_str());
      const ModelContact& m = run.result->contacts[0];
      QVERIFY2(m.sourceContacts == std::vector<int>{0}, name.c_str());
      QVERIFY2(m.contact.penetrating == c.penetrating && std::abs(m.contact.separation_mm - gap) < 1e-9, name.c_str());
      QVERIFY2((sideOn(m.contact, kBox).p_WC_mm - kXY).norm() < 1e-6, name.c_str());
      QVERIFY2((sideOn(m.contact, kBox).n_W + Vec3::UnitZ()).norm() < 1e-9, name.c_str());
      QVERIFY2(!m.frictionEdges.empty(), name.c_str());
    }
  }

  // Meshes whose only overlap is crossing edges (no vertex of either inside the other) still give a contact:
  // a box turned 45° about x resting its edge across the top edge of a box turned 45° about y.
  void crossingEdgesTouch() {
    World w;
    const Mat3 aboutY = Eigen::AngleAxisd(kPi / 4, Vec3::UnitY()).toRotationMatrix();
    const Mat3 aboutX = Eigen::AngleAxisd(kPi / 4, Vec3::UnitX()).toRotationMatrix();
    const double h = 10 * std::sqrt(0.5);  // half the diagonal of a 10 mm face: the top edge's height
    addGraspable(w, makeBody("lower", BodyKind::Graspable, makeBox(Vec3::Constant(10)), Transform::fromMatrix(aboutY, Vec3::Zero())));
    addObstacle(w, makeBody("upper", BodyKind::Obstacle, makeBox(Vec3::Constant(10)),
                            Transform::fromMatrix(aboutX, Vec3(0, 0, 2 * h - 0.01))));
    QVERIFY(anyCollision(w));
    const auto contacts = findAllContacts(w);
    QCOMPARE(contacts.size(), std::size_t(1));
    QVERIFY(contacts[0].penetrating);
    // The edges cross 0.01 mm deep: moving the upper box up by that separates them.
    QVERIFY2(std::abs(contacts[0].depth_mm() - 0.01) < 1e-9, qPrintable(QString::number(contacts[0].depth_mm())));
    QVERIFY((sideOn(contacts[0], obstacleHandle(0)).p_WC_mm - Vec3(0, 0, h - 0.01)).norm() < 1e-9);
    QVERIFY((sideOn(contacts[0], graspableHandle(0)).p_WC_mm - Vec3(0, 0, h)).norm() < 1e-9);
    QVERIFY((sideOn(contacts[0], obstacleHandle(0)).n_W - Vec3::UnitZ()).norm() < 1e-9);
  }
};

QTEST_GUILESS_MAIN(TstPenetrating)
#include "tst_penetrating.moc"
