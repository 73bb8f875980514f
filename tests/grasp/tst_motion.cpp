// Collision-stopped motion, approach to contact, auto-grasp/auto-open (rigid and break-away DOFs).
#include <algorithm>

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QtTest>

#include "ContactTestWorlds.h"
#include "contact/ContactDetection.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "grasp/AutoGrasp.h"
#include "grasp/HandMotion.h"
#include "grasp/Motion.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sgtest;

namespace {

using K = BodyHandle::Kind;
const BodyHandle kTable{K::Obstacle, 0, {}};
const BodyHandle kBall{K::Graspable, 0, {}};

World ballAbove(double height) {
  World w;
  sgtest::addObstacle(w, makeTable());
  sgtest::addGraspable(w, makeBody("ball", shared(makeIcosphere(10, 3)), Transform::fromTranslation(Vec3(0, 0, height)),
                                  BodyKind::Graspable, "rubber"));
  return w;
}

// The gripper at the origin and a 20 mm cube centred 30 mm above its palm, between the fingers.
World gripperAndCube() {
  World w;
  sgtest::addRobot(w, makeGripper());
  sgtest::addGraspable(w, 
      makeBody("cube", shared(makeBox(Vec3(20, 20, 20))), Transform::fromTranslation(Vec3(0, 0, 30)), BodyKind::Graspable));
  return w;
}

int contactsOn(const std::vector<Contact>& contacts, const BodyHandle& h) {
  int n = 0;
  for (const auto& c : contacts) n += (c.side1.body == h) + (c.side2.body == h);
  return n;
}

bool inStopBand(double d, const CollisionSettings& s = {}) { return d > 0 && d <= 0.5 * s.threshold_mm() + 1e-12; }

// Every chain of the three-finger hand has a contact with `object` (the object is side 1: it comes before
// robot bodies in World::bodyHandles()).
void verifyEveryFingerTouches(const std::vector<Contact>& contacts, const BodyHandle& object) {
  for (int c = 0; c < 3; ++c) {
    bool touched = false;
    for (const auto& ct : contacts)
      touched |= ct.side1.body == object && ct.side2.body.kind == K::Robot && ct.side2.body.ref.chain == c;
    QVERIFY2(touched, qPrintable(QString("no contact on finger %1").arg(c)));
  }
}

}  // namespace

class TestMotion : public QObject {
  Q_OBJECT
 private slots:
  void dropStopsInContact() {
    World w = ballAbove(60);
    const auto r = moveBodyTo(w, kBall, Transform::fromTranslation(Vec3(0, 0, -40)));
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(!anyCollision(w));
    QVERIFY(inStopBand(bodyDistance(w, kTable, kBall).distance_mm));
    QVERIFY(!r.contacts.empty());
    QVERIFY(r.fraction > 0.49 && r.fraction < 0.51);  // 50 of 100 mm
    // Pushing further into the table is refused; lifting is free.
    const Transform rest = w.state.X_WG[0];
    const auto blocked = moveBodyTo(w, kBall, Transform::fromTranslation(Vec3(0, 0, -5)) * rest);
    QCOMPARE(blocked.outcome, MotionOutcome::Blocked);
    QVERIFY(w.state.X_WG[0].isApprox(rest));
    const auto lifted = moveBodyTo(w, kBall, Transform::fromTranslation(Vec3(3, 0, 20)) * rest);
    QCOMPARE(lifted.outcome, MotionOutcome::Reached);
    QVERIFY(lifted.contacts.empty());
  }

  void rotationStopsToo() {
    // A long bar above the table swung down about its end.
    World w;
    sgtest::addObstacle(w, makeTable());
    sgtest::addGraspable(w, makeBody("bar", shiftedBox(Vec3(60, 4, 4), Vec3(30, 0, 0)),
                                    Transform::fromTranslation(Vec3(0, 0, 20)), BodyKind::Graspable));
    const Transform target(Quat(Eigen::AngleAxisd(degToRad(60), Vec3::UnitY())), Vec3(0, 0, 20));
    const auto r = moveBodyTo(w, kBall, target);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(inStopBand(bodyDistance(w, kTable, kBall).distance_mm));
  }

  void startInCollisionIsAnError() {
    World w = ballAbove(5);
    const Transform before = w.state.X_WG[0];
    const auto r = moveBodyTo(w, kBall, Transform::fromTranslation(Vec3(0, 0, 50)));
    QCOMPARE(r.outcome, MotionOutcome::StartInCollision);
    QVERIFY(w.state.X_WG[0].isApprox(before));
  }

  void approachStopsAtPalmContact() {
    World w = gripperAndCube();
    QVERIFY(approachDirection(w.robots[0], w.state.robots[0]).isApprox(Vec3::UnitZ()));
    const auto r = approachToContact(w, 0, 100);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    const BodyHandle palm{K::Robot, 0, {-1, 0}}, cube{K::Graspable, 0, {}};
    QVERIFY(inStopBand(bodyDistance(w, palm, cube).distance_mm));
    QCOMPARE_LE(std::abs(w.state.robots[0].X_WP.translation().z() - 15), 0.11);
    // The fingers moved with the palm.
    QVERIFY(w.state.robots[0].X_WL[0][0].translation().isApprox(Vec3(-20, 0, 5) + w.state.robots[0].X_WP.translation(), 1e-9));
  }

  void findInitialContactBacksOut() {
    World w = gripperAndCube();
    setRobotPose(w.robots[0], w.state.robots[0], Transform::fromTranslation(Vec3(0, 0, 20)));  // palm inside the cube
    QVERIFY(anyCollision(w));
    const auto r = findInitialContact(w, 0, 30);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(!anyCollision(w));
  }

  void autoGraspTouchesWithEveryFinger() {
    World w = gripperAndCube();
    const auto r = autoGrasp(w, 0);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(!anyCollision(w));
    const BodyHandle left{K::Robot, 0, {0, 0}}, right{K::Robot, 0, {1, 0}}, cube{K::Graspable, 0, {}};
    QVERIFY(contactsOn(r.contacts, left) > 0);
    QVERIFY(contactsOn(r.contacts, right) > 0);
    QVERIFY(inStopBand(bodyDistance(w, left, cube).distance_mm));
    QVERIFY(inStopBand(bodyDistance(w, right, cube).distance_mm));
    for (std::size_t k = 0; k < 2; ++k) {
      const double value = w.state.robots[0].dofValues[k];
      QVERIFY(value > 0.05 && value < w.robots[0].dofs[k].maxValue);
    }
    // Symmetric set-up, symmetric result.
    QCOMPARE_LE(std::abs(w.state.robots[0].dofValues[0] - w.state.robots[0].dofValues[1]), 1e-3);
    // Contact normals on the cube point into it, away from each finger.
    for (const auto& c : r.contacts)
      if (c.side2.body == cube && c.side1.body == left) QVERIFY(c.side2.n_W.x() > 0.5);

    const auto open = autoOpen(w, 0);
    QCOMPARE(open.outcome, MotionOutcome::Reached);
    for (std::size_t k = 0; k < 2; ++k) QCOMPARE(w.state.robots[0].dofValues[k], w.robots[0].dofs[k].minValue);
  }

  void autoGraspWithoutObjectReachesLimits() {
    World w;
    sgtest::addRobot(w, makeGripper());
    const auto r = autoGrasp(w, 0);
    // The fingertips meet each other before the 90° limit.
    QVERIFY(!anyCollision(w));
    const auto contacts = findAllContacts(w);
    QVERIFY(r.outcome == MotionOutcome::Contact || r.outcome == MotionOutcome::Reached);
    if (r.outcome == MotionOutcome::Contact) QVERIFY(!contacts.empty());
  }

  // An iteration bound that ends the motion early is reported, and a NaN pose is an error.
  void iterationBoundIsReportedAsNotConverged() {
    World w;
    sgtest::addRobot(w, makeGripper());
    AutoGraspSettings s;
    s.maxIterations = 2;
    const auto r = autoGrasp(w, 0, s);
    QCOMPARE(r.iterations, 2);
    QVERIFY(!r.converged);
    HandMotionRequest req;
    req.fingers = FingerMotion::Close;
    req.settings.maxIterations = 2;
    World w2;
    sgtest::addRobot(w2, makeGripper());
    const auto report = moveHand(w2, 0, req);
    QVERIFY2(report.summary().find("did not converge after 2 iterations") != std::string::npos,
             report.summary().c_str());
    World w3;
    sgtest::addRobot(w3, makeGripper());
    QVERIFY(autoGrasp(w3, 0).converged);  // the default bound suffices for a real hand
  }
  void nanPosesAreErrorsNotEndlessLoops() {
    World w;
    Robot gripper = makeGripper();
    gripper.chains[0].base = Transform::fromTranslation(Vec3(std::nan(""), 0, 0));
    sgtest::addRobot(w, gripper);
    QVERIFY_THROWS_EXCEPTION(sg::Error, autoGrasp(w, 0));
    QVERIFY_THROWS_EXCEPTION(sg::Error, findInitialContact(w, 0, 30.0));
  }

  void stopAtFirstContact() {
    World w = gripperAndCube();
    w.state.X_WG[0] = Transform::fromTranslation(Vec3(4, 0, 30));  // nearer the right finger
    AutoGraspSettings s;
    s.stopAtContact = true;
    const auto r = autoGrasp(w, 0, s);
    const BodyHandle left{K::Robot, 0, {0, 0}}, right{K::Robot, 0, {1, 0}};
    QVERIFY(contactsOn(r.contacts, right) > 0);
    QCOMPARE(contactsOn(r.contacts, left), 0);
  }

  void breakAwayClutchLetsDistalClose() {
    World w;
    sgtest::addRobot(w, makeBreakAwayFinger());
    // Block 1 stops the proximal link; block 2 is reached only by the distal link after break-away.
    sgtest::addObstacle(w, makeBody("block1", shiftedBox(Vec3(6, 20, 4), Vec3(7, 0, 10)), {}, BodyKind::Obstacle));
    sgtest::addObstacle(w, makeBody("block2", shiftedBox(Vec3(10, 20, 6), Vec3(25, 0, 25)), {}, BodyKind::Obstacle));
    QVERIFY(!anyCollision(w));
    const auto r = autoGrasp(w, 0);
    QVERIFY(!anyCollision(w));
    const RobotState& robot = w.state.robots[0];
    const JointBreakAway& j0 = robot.breakAway[0][0];
    QVERIFY(j0.active);
    QVERIFY(j0.dofValue > 0.1 && j0.dofValue < 0.6);
    QVERIFY(robot.dofValues[0] > j0.dofValue + 0.3);
    const BodyHandle proximal{K::Robot, 0, {0, 0}}, distal{K::Robot, 0, {0, 1}};
    QVERIFY(contactsOn(r.contacts, proximal) > 0);
    QVERIFY(contactsOn(r.contacts, distal) > 0);
    QCOMPARE(r.outcome, MotionOutcome::Contact);

    // Opening brings the proximal joint out of break-away and everything back to 0.
    const auto open = autoOpen(w, 0);
    QCOMPARE(open.outcome, MotionOutcome::Reached);
    QVERIFY(!w.state.robots[0].breakAway[0][0].active);
    QCOMPARE(w.state.robots[0].dofValues[0], 0.0);
  }

  void threeFingerGraspsTheBall() {
    World w = loadWorld(std::string(sg::test::sourceDir()) + "/worlds/threefinger_sphere.xml");
    QCOMPARE(w.robots.size(), std::size_t(1));
    QVERIFY(!anyCollision(w));
    const auto approach = approachToContact(w, 0, 200);
    QCOMPARE(approach.outcome, MotionOutcome::Contact);
    // Back off a little so the fingers close around the ball rather than pressing the palm on it.
    const Robot& hand = w.robots[0];
    RobotState& handState = w.state.robots[0];
    setRobotPose(hand, handState, Transform::fromTranslation(-approachDirection(hand, handState) * 10.0) * handState.X_WP);
    const auto r = autoGrasp(w, 0);
    QVERIFY(!anyCollision(w));
    const BodyHandle ball{K::Graspable, 0, {}};
    for (int c = 0; c < static_cast<int>(w.robots[0].chains.size()); ++c) {
      int onChain = 0;
      for (const auto& ct : r.contacts)
        for (const ContactSide* s : {&ct.side1, &ct.side2})
          if (s->body.kind == K::Robot && s->body.ref.chain == c && (ct.side1.body == ball || ct.side2.body == ball))
            ++onChain;
      QVERIFY2(onChain > 0, qPrintable(QString("no contact on finger %1").arg(c)));
    }
    for (const auto& ct : r.contacts) QVERIFY(ct.separation_mm > 0 && ct.separation_mm <= 0.2);
  }

  void threeFingerGraspsTheMug() {
    World w;
    sgtest::addGraspable(w, loadBody(sg::test::inSourceTree("models/objects/mug.xml"), BodyKind::Graspable, w.materials));
    sgtest::addRobot(w, loadRobot(sg::test::inSourceTree("models/robots/ThreeFinger/ThreeFinger.xml"), w.materials));
    std::vector<double> dofs = w.state.robots[0].dofValues;
    dofs[0] = degToRad(60);  // tripod spread
    setDofValues(w.robots[0], w.state.robots[0], dofs);
    // Palm down (approach −z), 250 mm above the mug's base.
    setRobotPose(w.robots[0], w.state.robots[0], Transform(Quat(Eigen::AngleAxisd(kPi, Vec3::UnitX())), Vec3(0, 0, 250)));
    QCOMPARE(findInitialContact(w, 0, 300).outcome, MotionOutcome::Contact);
    const auto r = autoGrasp(w, 0);
    QVERIFY(!anyCollision(w));
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    verifyEveryFingerTouches(r.contacts, BodyHandle{K::Graspable, 0, {}});
    for (const auto& ct : r.contacts) QVERIFY(ct.separation_mm > 0 && ct.separation_mm <= 0.2);
  }

  // Bundled worlds start free: objects resting on the table and hands at any DOF value of their saved pose
  // do not interpenetrate (else every motion of theirs would be refused as starting in collision).
  void bundledWorldsStartFree_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(sg::test::qInSourceTree("worlds"));
    for (const QString& name : dir.entryList({"*.xml"}, QDir::Files)) QTest::newRow(qPrintable(name)) << dir.filePath(name);
  }
  void bundledWorldsStartFree() {
    QFETCH(QString, file);
    const World w = loadWorld(file.toStdString());
    CollisionSettings all;
    all.checkStaticPairs = true;
    for (const auto& [a, b] : collidingPairs(w, all))
      QFAIL(qPrintable(QString("%1 and %2 interpenetrate").arg(QString::fromStdString(w.bodyLabel(a)),
                                                               QString::fromStdString(w.bodyLabel(b)))));
  }

  // A bundled hand never collides with itself when one DOF at a time goes to its minimum or maximum.
  void bundledRobotsFreeOverTheirDofRanges_data() {
    QTest::addColumn<QString>("file");
    QDirIterator it(sg::test::qInSourceTree("models/robots"), {"*.xml"}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString f = it.next();
      if (QFileInfo(f).dir().dirName() == QFileInfo(f).completeBaseName())  // robots/X/X.xml
        QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }
  }
  void bundledRobotsFreeOverTheirDofRanges() {
    QFETCH(QString, file);
    World w;
    sgtest::addRobot(w, loadRobot(file.toStdString(), w.materials));
    const std::vector<double> start = w.state.robots[0].dofValues;
    for (std::size_t d = 0; d < start.size(); ++d)
      for (const double v : {w.robots[0].dofs[d].minValue, w.robots[0].dofs[d].maxValue}) {
        std::vector<double> values = start;
        values[d] = v;
        setDofValues(w.robots[0], w.state.robots[0], values);
        for (const auto& [a, b] : collidingPairs(w))
          QFAIL(qPrintable(QString("DOF %1 at %2: %3 and %4 interpenetrate").arg(d).arg(v).arg(
              QString::fromStdString(w.bodyLabel(a)), QString::fromStdString(w.bodyLabel(b)))));
      }
  }

  // The README's default world grasps the mug with every finger, never the table:
  // Ctrl+G (grasp from the saved pose) and G (approach 30 mm, as GraspIt!, then grasp).
  void defaultWorldAutoGraspHoldsTheMug_data() {
    QTest::addColumn<double>("approach_mm");
    QTest::newRow("Ctrl+G") << 0.0;
    QTest::newRow("G") << 30.0;
  }
  void defaultWorldAutoGraspHoldsTheMug() {
    QFETCH(double, approach_mm);
    World w = loadWorld(std::string(sg::test::sourceDir()) + "/worlds/default.xml");
    if (approach_mm > 0) QCOMPARE(approachToContact(w, 0, approach_mm).outcome, MotionOutcome::Reached);
    const auto r = autoGrasp(w, 0);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(!anyCollision(w));
    verifyEveryFingerTouches(r.contacts, BodyHandle{K::Graspable, 0, {}});
    for (const auto& ct : findAllContacts(w)) {  // the mug rests on the table; the hand must not touch it
      const bool handOnTable = (ct.side1.body.kind == K::Obstacle && ct.side2.body.kind == K::Robot) ||
                               (ct.side2.body.kind == K::Obstacle && ct.side1.body.kind == K::Robot);
      QVERIFY2(!handOnTable, "a finger touches the table");
    }
  }

  // worlds/paralleljaw_box.xml: auto-grasp from the open jaws (102 mm apart) clamps the box's 50 mm faces. The
  // pads sit at x = ±(51 − d) and the faces at x = ±25, so the jaws must stop within the contact threshold
  // below d = 26 mm, after a 26 mm travel (the whole of it in the 500-iteration bound), each pad on the box.
  void parallelJawAutoGraspClampsTheBox() {
    World w = loadWorld(std::string(sg::test::sourceDir()) + "/worlds/paralleljaw_box.xml");
    const auto r = autoGrasp(w, 0);
    QVERIFY(r.converged);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(!anyCollision(w));
    const double d = w.state.robots[0].dofValues[0];
    QVERIFY2(d > 26.0 - 0.2 && d <= 26.0, qPrintable(QString::number(d)));
    for (int c = 0; c < 2; ++c) {
      const bool touched = std::any_of(r.contacts.begin(), r.contacts.end(), [&](const Contact& ct) {
        return ct.side1.body == BodyHandle{K::Graspable, 0, {}} && ct.side2.body.kind == K::Robot &&
               ct.side2.body.ref.chain == c;
      });
      QVERIFY2(touched, qPrintable(QString("no contact on jaw %1").arg(c)));
    }
    // Two flat pads on opposite faces: force closure under the default (soft-finger) model.
    NullProgress quiet;
    AnalysisRequest request;
    request.measures = {"epsilon-l1"};
    const AnalysisResult a = analyzeGrasp(w, request, quiet);
    QVERIFY(a.primary() && a.primary()->forceClosure());
  }

  void badHandlesAreErrors() {
    World w = gripperAndCube();
    QVERIFY_THROWS_EXCEPTION(sg::Error, autoGrasp(w, 3));
    QVERIFY_THROWS_EXCEPTION(sg::Error, approachToContact(w, -1, 10));
    QVERIFY_THROWS_EXCEPTION(sg::Error, moveBodyTo(w, BodyHandle{K::Robot, 0, {0, 0}}, Transform{}));
    QVERIFY_THROWS_EXCEPTION(sg::Error, moveBodyTo(w, BodyHandle{K::Graspable, 5, {}}, Transform{}));
  }

  void rigidDofStopsWholeChain() {
    World w;
    sgtest::addRobot(w, makeBreakAwayFinger());
    w.robots[0].dofs[0].type = DofType::Rigid;
    sgtest::addObstacle(w, makeBody("block1", shiftedBox(Vec3(6, 20, 4), Vec3(7, 0, 10)), {}, BodyKind::Obstacle));
    const auto r = autoGrasp(w, 0);
    QCOMPARE(r.outcome, MotionOutcome::Contact);
    QVERIFY(!w.state.robots[0].breakAway[0][0].active);
    QVERIFY(w.state.robots[0].dofValues[0] < 0.6);
  }
};

QTEST_GUILESS_MAIN(TestMotion)
#include "tst_motion.moc"
