// The user's collision switches of CollisionSettings (analysis settings, never the world): a body switched
// off takes part in no collision or contact check, a pair switched off only in none with each other; both
// are undone by switching back on, and neither changes the world.
#include <QtTest>

#include <algorithm>

#include "ContactTestWorlds.h"
#include "contact/ContactDetection.h"

using namespace sg;
using namespace sgtest;

namespace {

using K = BodyHandle::Kind;
const BodyHandle kTable{K::Obstacle, 0, {}};
const BodyHandle kBall{K::Graspable, 0, {}};
const BodyHandle kCube{K::Graspable, 1, {}};

// A ball (r 10 mm) and a 10 mm cube, each resting 0.1 mm above the table (in contact), 50 mm apart.
World twoOnTable() {
  World w;
  sgtest::addObstacle(w, makeTable());
  sgtest::addGraspable(w, makeBody("ball", shared(makeUvSphere(10, 32, 16)),
                                  Transform::fromTranslation(Vec3(-25, 0, 10.1)), BodyKind::Graspable, "rubber"));
  sgtest::addGraspable(w, makeBody("cube", shared(makeBox(Vec3(10, 10, 10))),
                                  Transform::fromTranslation(Vec3(25, 0, 5.1)), BodyKind::Graspable, "rubber"));
  return w;
}

int contactsOf(const std::vector<Contact>& contacts, const BodyHandle& body) {
  return static_cast<int>(std::count_if(contacts.begin(), contacts.end(), [&](const Contact& c) {
    return c.side1.body == body || c.side2.body == body;
  }));
}

}  // namespace

class TestCollisionSwitches : public QObject {
  Q_OBJECT
 private slots:
  void bodySwitchRemovesEveryPairOfTheBody() {
    const World w = twoOnTable();
    CollisionSettings s;
    QVERIFY(collisionAllowed(w, kBall, kTable, s));
    QVERIFY(collisionAllowed(w, kBall, kCube, s));
    const auto before = findAllContacts(w, s);
    QVERIFY(contactsOf(before, kBall) > 0);
    QVERIFY(contactsOf(before, kCube) > 0);

    s.disableBody(kBall);
    s.disableBody(kBall);  // twice is once
    QCOMPARE(s.disabledBodies.size(), std::size_t(1));
    QVERIFY(s.isBodyDisabled(kBall));
    QVERIFY(!s.isBodyDisabled(kCube));
    QVERIFY(!collisionAllowed(w, kBall, kTable, s));
    QVERIFY(!collisionAllowed(w, kTable, kBall, s));
    QVERIFY(!collisionAllowed(w, kCube, kBall, s));
    QVERIFY(collisionAllowed(w, kCube, kTable, s));  // the others keep theirs
    for (const auto& [a, b] : activePairs(w, s)) QVERIFY(a != kBall && b != kBall);
    const auto off = findAllContacts(w, s);
    QCOMPARE(contactsOf(off, kBall), 0);
    QCOMPARE(contactsOf(off, kCube), contactsOf(before, kCube));

    // Pushed into the table, the ball collides with nothing while switched off.
    World sunk = w;
    sunk.state.X_WG[0] = Transform::fromTranslation(Vec3(-25, 0, 8));
    QVERIFY(anyCollision(sunk, CollisionSettings{}));
    QVERIFY(!anyCollision(sunk, s));
    QVERIFY(sunk.graspables[0].collisionEnabled);  // a setting of the analysis, not of the world

    s.enableBody(kBall);
    QVERIFY(s.disabledBodies.empty());
    QVERIFY(collisionAllowed(w, kBall, kTable, s));
    QCOMPARE(findAllContacts(w, s).size(), before.size());
  }

  void pairSwitchRemovesOnlyThatPair() {
    const World w = twoOnTable();
    CollisionSettings s;
    const auto before = findAllContacts(w, s);
    s.disablePair(kTable, kBall);
    s.disablePair(kBall, kTable);  // either order is the same pair
    QCOMPARE(s.userDisabledPairs.size(), std::size_t(1));
    QVERIFY(s.isUserDisabled(kBall, kTable));
    QVERIFY(!collisionAllowed(w, kBall, kTable, s));
    QVERIFY(collisionAllowed(w, kBall, kCube, s));
    QVERIFY(collisionAllowed(w, kCube, kTable, s));
    QVERIFY(!s.isBodyDisabled(kBall));
    const auto off = findAllContacts(w, s);
    QCOMPARE(contactsOf(off, kBall), 0);
    QCOMPARE(contactsOf(off, kCube), contactsOf(before, kCube));
    s.enablePair(kBall, kTable);
    QVERIFY(s.userDisabledPairs.empty());
    QCOMPARE(findAllContacts(w, s).size(), before.size());
  }
};

QTEST_GUILESS_MAIN(TestCollisionSwitches)
#include "tst_collision_switches.moc"
