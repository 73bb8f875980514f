// World-level collision filtering, contact records (μ, friction type, frames), sensing and preventsMotion.
#include <QtTest>

#include "ContactTestWorlds.h"
#include "contact/ContactDetection.h"
#include "contact/ContactMotion.h"

using namespace sg;
using namespace sgtest;

namespace {

using K = BodyHandle::Kind;
const BodyHandle kTable{K::Obstacle, 0, {}};
const BodyHandle kBall{K::Graspable, 0, {}};

// A UV sphere of radius 10 (pole down) resting `gap` above the table.
World ballOnTable(double gap, const std::string& ballMaterial = "rubber") {
  World w;
  sgtest::addObstacle(w, makeTable());
  sgtest::addGraspable(w, 
      makeBody("ball", shared(makeUvSphere(10, 32, 16)), Transform::fromTranslation(Vec3(5, 3, 10 + gap)),
               BodyKind::Graspable, ballMaterial));
  return w;
}

}  // namespace

class TestContact : public QObject {
  Q_OBJECT
 private slots:
  void filterRules() {
    World w;
    sgtest::addRobot(w, makeBreakAwayFinger());
    sgtest::addRobot(w, makeGripper());
    sgtest::addObstacle(w, makeTable());
    sgtest::addObstacle(w, makeTable());
    sgtest::addGraspable(w, makeBody("cube", shared(makeBox(Vec3(5, 5, 5))), {}, BodyKind::Graspable));
    const CollisionSettings s;
    const BodyHandle palm{K::Robot, 0, {-1, 0}}, prox{K::Robot, 0, {0, 0}}, dist{K::Robot, 0, {0, 1}};
    const BodyHandle gPalm{K::Robot, 1, {-1, 0}}, left{K::Robot, 1, {0, 0}}, right{K::Robot, 1, {1, 0}};
    const BodyHandle cube{K::Graspable, 0, {}};
    QVERIFY(!collisionAllowed(w, prox, dist, s));     // one chain
    QVERIFY(!collisionAllowed(w, palm, prox, s));     // palm vs first link
    QVERIFY(collisionAllowed(w, palm, dist, s));      // palm vs second link
    QVERIFY(collisionAllowed(w, left, right, s));     // fingers of different chains
    QVERIFY(collisionAllowed(w, gPalm, prox, s));     // two robots
    QVERIFY(!collisionAllowed(w, kTable, BodyHandle{K::Obstacle, 1, {}}, s));  // static pair
    QVERIFY(!collisionAllowed(w, cube, cube, s));
    QVERIFY(collisionAllowed(w, cube, kTable, s));
    // Robot rules, collisionRule="Off", Body::collisionEnabled, user-disabled pairs.
    w.robots[0].disabledPairs.push_back({BodyRef{-1, 0}, BodyRef{0, 1}});
    QVERIFY(!collisionAllowed(w, palm, dist, s));
    w.robots[1].chains[1].links[0].collisionOff = true;
    QVERIFY(!collisionAllowed(w, left, right, s));
    w.graspables[0].collisionEnabled = false;
    QVERIFY(!collisionAllowed(w, cube, kTable, s));
    w.graspables[0].collisionEnabled = true;
    CollisionSettings user;
    user.disablePair(kTable, cube);
    QVERIFY(!collisionAllowed(w, cube, kTable, user));
    user.enablePair(cube, kTable);
    QVERIFY(collisionAllowed(w, cube, kTable, user));
    // activePairs lists each allowed pair once; `involving` restricts.
    const auto pairs = activePairs(w, s, {cube});
    for (const auto& [a, b] : pairs) QVERIFY(a == cube || b == cube);
    QCOMPARE(pairs.size(), std::size_t(2 + 3 + 2));  // 2 tables, clutch palm + 2 links, gripper palm + left finger
  }

  void ballOnTableContact() {
    const World w = ballOnTable(0.1);
    QVERIFY(!anyCollision(w));
    const auto contacts = findAllContacts(w);
    QCOMPARE(contacts.size(), std::size_t(1));
    const Contact& c = contacts[0];
    QVERIFY(c.side1.body == kTable);
    QVERIFY(c.side2.body == kBall);
    QVERIFY(c.side1.p_WC_mm.isApprox(Vec3(5, 3, 0), 1e-9));
    QVERIFY(c.side2.p_WC_mm.isApprox(Vec3(5, 3, 0.1), 1e-9));
    QVERIFY(c.side1.n_W.isApprox(-Vec3::UnitZ(), 1e-9));
    QVERIFY(c.side2.n_W.isApprox(Vec3::UnitZ(), 1e-9));
    QCOMPARE_LE(std::abs(c.separation_mm - 0.1), 1e-9);
    // Frames: origin at the point, z along the inward normal.
    QVERIFY(c.side2.X_WC.translation().isApprox(c.side2.p_WC_mm, 1e-12));
    QVERIFY((c.side2.X_WC.rotationMatrix().col(2) - Vec3::UnitZ()).norm() < 1e-9);
    // μ from the material table (what the contact transmits is the contact model's decision).
    QCOMPARE(c.muStatic, w.materials.staticFriction("wood", "rubber"));
    QCOMPARE(c.muKinetic, w.materials.kineticFriction("wood", "rubber"));
    QCOMPARE(findAllContacts(ballOnTable(0.1, "frictionless")).at(0).muStatic, 0.0);
    // Out of range: no contacts.
    QVERIFY(findAllContacts(ballOnTable(0.3)).empty());
    QVERIFY(!findAllContacts(ballOnTable(0.1)).at(0).penetrating);
    // In collision: one contact at the deepest point (the ball's pole vertex 0.01 mm below the top), flagged
    // penetrating, separation = −depth, the same normals as apart (README.md §Touching and overlapping pairs).
    QVERIFY(anyCollision(ballOnTable(-0.01)));
    const auto inside = findAllContacts(ballOnTable(-0.01));
    QCOMPARE(inside.size(), std::size_t(1));
    QVERIFY(inside[0].penetrating);
    QCOMPARE_LE(std::abs(inside[0].separation_mm + 0.01), 1e-9);
    QCOMPARE_LE(std::abs(inside[0].depth_mm() - 0.01), 1e-9);
    QVERIFY(inside[0].side1.p_WC_mm.isApprox(Vec3(5, 3, 0), 1e-9));
    QVERIFY(inside[0].side2.p_WC_mm.isApprox(Vec3(5, 3, -0.01), 1e-9));
    QVERIFY(inside[0].side1.n_W.isApprox(-Vec3::UnitZ(), 1e-9) && inside[0].side2.n_W.isApprox(Vec3::UnitZ(), 1e-9));
    QCOMPARE(collidingPairs(ballOnTable(-0.01)).size(), std::size_t(1));
    // The threshold is a setting.
    CollisionSettings wide;
    wide.contacts.threshold_mm = 0.5;
    QCOMPARE(findAllContacts(ballOnTable(0.3), wide).size(), std::size_t(1));
  }

  void distanceAndSensing() {
    const World w = ballOnTable(2.5);
    QCOMPARE_LE(std::abs(bodyDistance(w, kTable, kBall).distance_mm - 2.5), 1e-9);
    auto s = sensePair(w, kTable, kBall);
    QVERIFY(!s.contact);
    QCOMPARE_LE(std::abs(s.separation_mm - 2.5), 1e-9);
    QVERIFY(s.frameB.translation().isApprox(Vec3(5, 3, 2.5), 1e-9));
    QVERIFY((s.frameB.rotationMatrix().col(2) - Vec3::UnitZ()).norm() < 1e-9);
    QVERIFY((s.frameA.rotationMatrix().col(2) + Vec3::UnitZ()).norm() < 1e-9);
    s = sensePair(ballOnTable(0.05), kTable, kBall);
    QVERIFY(s.contact);
    s = sensePair(ballOnTable(-0.4), kTable, kBall);
    QVERIFY(s.contact && s.colliding);
    QCOMPARE_LE(std::abs(s.separation_mm + 0.4), 1e-9);
  }

  void contactsPreventOpposingMotion() {
    const World w = ballOnTable(0.05);
    const auto contacts = findAllContacts(w);
    QCOMPARE(contacts.size(), std::size_t(1));
    const Transform from = w.state.X_WG[0];
    auto moved = [&](const Vec3& d) { return Transform::fromTranslation(d) * from; };
    QVERIFY(preventsMotion(contacts[0].side2, from, moved(Vec3(0, 0, -0.01))));
    QVERIFY(!preventsMotion(contacts[0].side2, from, moved(Vec3(0, 0, 0.01))));
    QVERIFY(!preventsMotion(contacts[0].side2, from, moved(Vec3(0.01, 0, 0))));
    QVERIFY(anyContactPreventsMotion(contacts, {kBall}, {from}, {moved(Vec3(0, 0, -1))}));
    QVERIFY(!anyContactPreventsMotion(contacts, {kBall}, {from}, {moved(Vec3(0, 1, 1))}));
    // Both bodies moving together: nothing opposes.
    QVERIFY(!anyContactPreventsMotion(contacts, {kTable, kBall}, {Transform{}, from},
                                      {Transform::fromTranslation(Vec3(0, 0, -1)), moved(Vec3(0, 0, -1))}));
  }
};

QTEST_GUILESS_MAIN(TestContact)
#include "tst_contact.moc"
