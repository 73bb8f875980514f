// The contact threshold's round-off margin (src/contact/README.md §Acceptance margin): a pair whose distance is
// the threshold to within 1e-12 relative is in contact, and one 1e-8 mm beyond it is not, whatever rigid motion
// of the whole world (rotations, translations up to 1e3 mm per axis) it is seen after, and detection, the pair
// screen of the motions, the sensing outputs and the soft model's touching points agree on it. Three pairs: two
// mesh boxes face to face (the parallel jaw's pads on its box: coplanar faces, many reports at the same
// distance), a primitive sphere over a primitive box (a closed form) and a mesh box over a half-space floor.
#include <QtTest>

#include <random>

#include "contact/ContactDetection.h"
#include "contact/PairScreen.h"
#include "contact/TouchingPoint.h"
#include "geometry/BvhCache.h"
#include "geometry/ContactAcceptance.h"
#include "geometry/Primitives.h"
#include "geometry/ShapeTessellation.h"
#include "ModelRun.h"
#include "SoftTestShapes.h"

using namespace sg;
using namespace sgtest;

namespace {

enum class Pair { Meshes, Primitives, HalfSpace };
constexpr double kThreshold_mm = 0.2;  // CollisionSettings' default
constexpr double kSide_mm = 20;        // the boxes' edge, the sphere's diameter

PlacedBody primitiveBody(const std::string& name, BodyKind kind, const Shape& shape, const Transform& pose) {
  const Primitive p{shape, Transform::identity()};
  PlacedBody b = makeBody(name, kind, tessellatePrimitive(p), pose, 1.5e6);
  b.body.primitive = p;
  return b;
}

// Graspable 0 below, obstacle 0 above, `gap` apart along z (the lower body's top face at z = 0). The upper body is
// soft (E = 1.5 MPa) so that the soft model takes touching points.
World pairAt(Pair pair, double gap_mm) {
  World w;
  const Transform below = Transform::fromTranslation(Vec3(0, 0, -kSide_mm / 2));
  const Transform above = Transform::fromTranslation(Vec3(3, -2, kSide_mm / 2 + gap_mm));
  switch (pair) {
    case Pair::Meshes:
      addGraspable(w, makeBody("lower", BodyKind::Graspable, makeBox(Vec3::Constant(kSide_mm)), below));
      addObstacle(w, makeBody("upper", BodyKind::Obstacle, makeBox(Vec3::Constant(kSide_mm)), above, 1.5e6));
      break;
    case Pair::Primitives:
      addGraspable(w, primitiveBody("lower", BodyKind::Graspable, Box{Vec3::Constant(kSide_mm)}, below));
      addObstacle(w, primitiveBody("upper", BodyKind::Obstacle, Sphere{kSide_mm / 2}, above));
      break;
    case Pair::HalfSpace:
      addGraspable(w, primitiveBody("floor", BodyKind::Graspable, HalfSpace{}, Transform::identity()));
      addObstacle(w, makeBody("upper", BodyKind::Obstacle, makeBox(Vec3::Constant(kSide_mm)), above, 1.5e6));
      break;
  }
  return w;
}

void moveWholeWorld(World& w, const Transform& X) {
  for (Transform& X_WG : w.state.X_WG) X_WG = X * X_WG;
  for (Transform& X_WO : w.state.X_WO) X_WO = X * X_WO;
}

// The identity, then random rotations with translations up to 1e3 mm per axis, and pure translations by 1e3 mm.
std::vector<Transform> rigidMotions() {
  std::mt19937 rng(39);
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> t(-1000, 1000);
  std::vector<Transform> out{Transform::identity()};
  for (int k = 0; k < 8; ++k) {
    const Quat q = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
    out.emplace_back(q, Vec3(t(rng), t(rng), t(rng)));
  }
  out.push_back(Transform::fromTranslation(Vec3(1000, 1000, 1000)));
  out.push_back(Transform::fromTranslation(Vec3(-1000, 0, 0)));
  return out;
}

const BodyHandle kLower = graspableHandle(0), kUpper = obstacleHandle(0);

}  // namespace

class TstContactMargin : public QObject {
  Q_OBJECT
 private slots:
  void atThresholdUnderRigidMotions_data() {
    QTest::addColumn<int>("pair");
    QTest::addColumn<double>("gap");
    QTest::addColumn<bool>("inContact");
    const std::pair<Pair, const char*> pairs[] = {
        {Pair::Meshes, "meshes"}, {Pair::Primitives, "primitives"}, {Pair::HalfSpace, "half-space"}};
    for (const auto& [pair, name] : pairs) {
      QTest::addRow("%s, threshold (1 - 1e-12)", name) << static_cast<int>(pair) << kThreshold_mm * (1 - 1e-12) << true;
      QTest::addRow("%s, threshold exactly", name) << static_cast<int>(pair) << kThreshold_mm << true;
      QTest::addRow("%s, threshold (1 + 1e-12)", name) << static_cast<int>(pair) << kThreshold_mm * (1 + 1e-12) << true;
      // 1e-8 mm is 90 times the largest margin here (scale ≤ 1.8e3 mm: 1.0e-10 mm) and far above round-off.
      QTest::addRow("%s, threshold + 1e-8 mm", name) << static_cast<int>(pair) << kThreshold_mm + 1e-8 << false;
    }
  }

  void atThresholdUnderRigidMotions() {
    QFETCH(int, pair);
    QFETCH(double, gap);
    QFETCH(bool, inContact);
    const CollisionSettings settings;
    QCOMPARE(settings.threshold_mm(), kThreshold_mm);
    std::size_t expectedContacts = 0, expectedSoft = 0;
    bool first = true;
    int k = 0;
    for (const Transform& X : rigidMotions()) {
      const QByteArray at = QByteArray("motion ") + QByteArray::number(k++);
      World w = pairAt(static_cast<Pair>(pair), gap);
      moveWholeWorld(w, X);
      QVERIFY2(!anyCollision(w), at);
      std::vector<RawPairContacts> raw;
      const std::vector<Contact> contacts = findAllContacts(w, w.state, settings, &raw);
      QVERIFY2(contacts.empty() == !inContact, at);
      for (const Contact& c : contacts) QVERIFY2(std::abs(c.separation_mm - gap) < 1e-9, at);
      // The motions' pair screen gives the same contacts.
      PairScreen screen(w, activePairs(w, settings), settings);
      QVERIFY2(screen.contacts(w.state).size() == contacts.size(), at);
      // The sensing outputs' contact signal.
      QVERIFY2(sensePair(w, kLower, kUpper, settings).contact == inContact, at);
      // The soft model's touching points: one region per connected set, whether the raw points come from
      // detection or from a query of their own.
      const std::vector<TouchingRegion> kept = touchingRegions(w, w.state, contacts, {}, &raw);
      const std::vector<TouchingRegion> queried = touchingRegions(w, w.state, contacts, {}, nullptr);
      QVERIFY2(kept.size() == queried.size(), at);
      for (std::size_t i = 0; i < kept.size(); ++i) QVERIFY2(kept[i].rawPointCount == queried[i].rawPointCount, at);
      const ModelRun soft = runModel(w, "soft-finger");
      QVERIFY2(soft.result, at);
      if (first) {
        expectedContacts = contacts.size();
        expectedSoft = soft.result->contacts.size();
        first = false;
      }
      // The same contact set after every motion.
      QVERIFY2(contacts.size() == expectedContacts,
               at + ": " + QByteArray::number(qulonglong(contacts.size())) + " contacts, " +
                   QByteArray::number(qulonglong(expectedContacts)) + " unmoved");
      QVERIFY2(soft.result->contacts.size() == expectedSoft, at);
    }
    if (inContact) QVERIFY(expectedContacts > 0 && expectedSoft > 0);
  }

  // The margin is the one of ContactAcceptance.h for the pair's scale: half of it beyond the threshold is still a
  // contact, twice of it is not (face-to-face meshes, unmoved and translated by 1e3 mm).
  void marginIsThePairsScale() {
    for (const Vec3& t : {Vec3(Vec3::Zero()), Vec3(1000, -1000, 1000)}) {
      const World probe = pairAt(Pair::Meshes, kThreshold_mm);
      const double scale =
          contactScale_mm(*bvhFor(probe.graspables[0].mesh), Transform::fromTranslation(t) * probe.state.X_WG[0],
                          *bvhFor(probe.obstacles[0].mesh), Transform::fromTranslation(t) * probe.state.X_WO[0]);
      const double margin = contactAcceptanceMargin_mm(scale);
      QVERIFY(margin > 1e-13 && margin < 1e-9);
      for (const auto& [beyond, expected] : {std::pair{0.5, true}, std::pair{2.0, false}}) {
        World w = pairAt(Pair::Meshes, kThreshold_mm + beyond * margin);
        moveWholeWorld(w, Transform::fromTranslation(t));
        QCOMPARE(!findAllContacts(w).empty(), expected);
        QCOMPARE(sensePair(w, kLower, kUpper).contact, expected);
      }
    }
  }

  // The margin grows with the scale, is never below that of a 1 mm scene, and a non-finite scale gives the
  // 1 mm margin (not an infinite one).
  void marginBounds() {
    const double eps = std::numeric_limits<double>::epsilon();
    QCOMPARE(contactAcceptanceMargin_mm(0.0), kContactMarginRoundoffs * eps);
    QCOMPARE(contactAcceptanceMargin_mm(1000.0), 1000 * kContactMarginRoundoffs * eps);
    QCOMPARE(contactAcceptanceMargin_mm(std::numeric_limits<double>::infinity()), kContactMarginRoundoffs * eps);
    QCOMPARE(contactAcceptanceMargin_mm(std::nan("")), kContactMarginRoundoffs * eps);
    QCOMPARE(acceptedContactThreshold_mm(0.2, 10.0), 0.2 + contactAcceptanceMargin_mm(10.0));
  }
};

QTEST_GUILESS_MAIN(TstContactMargin)
#include "tst_contact_margin.moc"
