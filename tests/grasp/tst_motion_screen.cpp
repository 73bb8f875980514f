// The pair screen of the DOF motion (src/contact/PairScreen.h, MOTION.md §DOF motion): on random planner states
// of every bundled world with a hand, auto-grasp, stop-at-first-contact auto-grasp and a coarse-step DOF motion
// to random targets give bit for bit the same result with the screen (the default) as with the plain pair tests;
// the screen's answers equal pairCollides / findContacts along whole closing motions, and it does skip pairs.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

#include "../support/RandomHandStates.h"
#include "contact/ContactDetection.h"
#include "contact/PairScreen.h"
#include "grasp/AutoGrasp.h"
#include "io/ModelIO.h"

using namespace sg;

namespace {

bool samePoint(const Vec3& a, const Vec3& b) { return a == b; }

// Everything a DOF motion leaves behind, compared exactly.
void verifySame(const World& world, const DofMotionResult& fast, const WorldState& fastState,
                const DofMotionResult& plain, const WorldState& plainState, const QString& where) {
  QVERIFY2(fast.outcome == plain.outcome, qPrintable(where + ": outcome"));
  QVERIFY2(fast.iterations == plain.iterations, qPrintable(where + QString(": iterations %1 vs %2").arg(fast.iterations).arg(plain.iterations)));
  QVERIFY2(fast.converged == plain.converged, qPrintable(where + ": converged"));
  QVERIFY2(fast.dofStopped == plain.dofStopped, qPrintable(where + ": stopped DOFs"));
  const RobotState& a = fastState.robots[0];
  const RobotState& b = plainState.robots[0];
  for (std::size_t k = 0; k < a.dofValues.size(); ++k)
    QVERIFY2(a.dofValues[k] == b.dofValues[k],
             qPrintable(where + QString(": DOF %1 is %2 vs %3").arg(k).arg(a.dofValues[k], 0, 'g', 17).arg(b.dofValues[k], 0, 'g', 17)));
  QVERIFY2(a.breakAway.size() == b.breakAway.size(), qPrintable(where + ": break-away"));
  for (std::size_t c = 0; c < a.breakAway.size(); ++c)
    for (std::size_t j = 0; j < a.breakAway[c].size(); ++j)
      QVERIFY2(a.breakAway[c][j].active == b.breakAway[c][j].active && a.breakAway[c][j].dofValue == b.breakAway[c][j].dofValue,
               qPrintable(where + ": break-away state"));
  for (const BodyHandle& h : robotBodies(world, 0))
    QVERIFY2(X_WB(fastState, h).matrix() == X_WB(plainState, h).matrix(), qPrintable(where + ": link pose"));
  QVERIFY2(fast.contacts.size() == plain.contacts.size(), qPrintable(where + ": contact count"));
  for (std::size_t i = 0; i < fast.contacts.size(); ++i) {
    const Contact& x = fast.contacts[i];
    const Contact& y = plain.contacts[i];
    QVERIFY2(x.side1.body == y.side1.body && x.side2.body == y.side2.body && samePoint(x.side1.p_WC_mm, y.side1.p_WC_mm) &&
                 samePoint(x.side2.p_WC_mm, y.side2.p_WC_mm) && samePoint(x.side1.n_W, y.side1.n_W),
             qPrintable(where + QString(": contact %1").arg(i)));
  }
}

std::vector<QString> handWorlds() {
  std::vector<QString> out;
  const QDir dir(QStringLiteral(SG_SOURCE_DIR "/worlds"));
  for (const QString& name : dir.entryList({"*.xml"}, QDir::Files)) {
    const World w = loadWorld(dir.filePath(name).toStdString());
    if (!w.robots.empty() && !w.graspables.empty()) out.push_back(dir.filePath(name));
  }
  return out;
}

}  // namespace

class TestMotionScreen : public QObject {
  Q_OBJECT
 private slots:
  void screenedMotionEqualsPlainMotion_data() {
    QTest::addColumn<QString>("file");
    for (const QString& f : handWorlds()) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
  }
  void screenedMotionEqualsPlainMotion() {
    QFETCH(QString, file);
    const World world = loadWorld(file.toStdString());
    const auto states = sgtest::randomHandStates(world, 0, 0, 16, 11);
    std::mt19937 rng(5);
    int contacts = 0, legal = 0;
    for (std::size_t i = 0; i < states.size(); ++i) {
      legal += !anyCollision(world, states[i], {}, robotBodies(world, 0));
      // Auto-grasp (GraspIt!'s small steps), and stopping at the first contact.
      for (const bool stopAtContact : {false, true}) {
        AutoGraspSettings s;
        s.stopAtContact = stopAtContact;
        WorldState fastState = states[i], plainState = states[i];
        const DofMotionResult fast = autoGrasp(world, fastState, 0, s);
        s.screenPairs = false;
        const DofMotionResult plain = autoGrasp(world, plainState, 0, s);
        verifySame(world, fast, fastState, plain, plainState,
                   QString("state %1, auto-grasp%2").arg(i).arg(stopAtContact ? " to first contact" : ""));
        contacts += fast.outcome == MotionOutcome::Contact;
      }
      // Coarse default steps (5°, 10 mm) to random targets: collisions inside a step, bisection.
      std::vector<double> target;
      for (const Dof& d : world.robots[0].dofs)
        target.push_back(std::uniform_real_distribution<double>(d.minValue, d.maxValue)(rng));
      DofMotionSettings s;
      WorldState fastState = states[i], plainState = states[i];
      const DofMotionResult fast = moveDofsToContacts(world, fastState, 0, target, s);
      s.screenPairs = false;
      const DofMotionResult plain = moveDofsToContacts(world, plainState, 0, target, s);
      verifySame(world, fast, fastState, plain, plainState, QString("state %1, DOF motion").arg(i));
      contacts += fast.outcome == MotionOutcome::Contact;
    }
    QVERIFY2(legal >= 6, "too few collision-free states to compare");
    QVERIFY2(contacts >= 6, "too few motions ended in contact to compare");
  }

  // The screen's answers along auto-grasp motions equal the plain queries at every state, and it skips
  // (the bound) and reuses (unchanged poses) pair queries.
  void screenAnswersEqualPlainQueries_data() { screenedMotionEqualsPlainMotion_data(); }
  void screenAnswersEqualPlainQueries() {
    QFETCH(QString, file);
    const World world = loadWorld(file.toStdString());
    const CollisionSettings cs;
    const auto pairs = activePairs(world, cs, robotBodies(world, 0));
    long checked = 0;
    PairScreen::Counts counts;
    for (const WorldState& start : sgtest::randomHandStates(world, 0, 0, 4, 3)) {
      // States along the closing motion: every twentieth step of GraspIt!'s auto-grasp, re-run from the start.
      PairScreen screen(world, pairs, cs);
      for (int steps = 0; steps <= 200; steps += 20) {
        WorldState state = start;
        AutoGraspSettings s;
        s.maxIterations = steps;
        autoGrasp(world, state, 0, s);
        std::vector<BodyPair> colliding;
        for (const BodyPair& p : pairs)
          if (pairCollides(world, state, p)) colliding.push_back(p);
        QCOMPARE(screen.anyCollides(state), !colliding.empty());
        QVERIFY(screen.colliding(state) == colliding);
        const auto plain = findContacts(world, state, pairs, cs);
        const auto fast = screen.contacts(state);
        QCOMPARE(fast.size(), plain.size());
        for (std::size_t i = 0; i < fast.size(); ++i) {
          QVERIFY(fast[i].side1.body == plain[i].side1.body && fast[i].side2.body == plain[i].side2.body);
          QVERIFY(samePoint(fast[i].side1.p_WC_mm, plain[i].side1.p_WC_mm));
          QVERIFY(samePoint(fast[i].side2.p_WC_mm, plain[i].side2.p_WC_mm));
        }
        ++checked;
      }
      counts.skipped += screen.counts().skipped;
      counts.reused += screen.counts().reused;
    }
    QVERIFY(checked > 0);
    QVERIFY2(counts.skipped > 0, "the screen never skipped a pair");
    QVERIFY2(counts.reused > 0, "the screen never reused an answer");
  }

  // A half-space has no bounding ball: the screen bounds a link's motion against it by the link's ball in the
  // floor's frame only. Along closing motions of random states with a floor through the object's centre, the
  // answers still equal the plain queries, and the floor pairs are skipped as well as tested.
  void screenWithAHalfSpaceFloor() {
    World world = loadWorld(SG_SOURCE_DIR "/worlds/default.xml");
    QTemporaryDir dir;
    const QString path = dir.filePath("floor.xml");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("<?xml version=\"1.0\"?>\n<root><primitive type=\"halfspace\"/></root>\n");
    f.close();
    world.obstacles.push_back(loadBody(path.toStdString(), BodyKind::Obstacle, world.materials));
    const Transform X_WG = world.state.X_WG.front();
    // The half-space z ≤ 0 of the floor's frame, its plane through the object's centre of mass, tilted a little.
    world.state.X_WO.push_back(Transform(X_WG.rotation() * Quat(Eigen::AngleAxisd(0.2, Vec3::UnitX())),
                                         X_WG * world.graspables.front().cog_mm));
    const CollisionSettings cs;
    BodyHandle floor;
    floor.kind = BodyHandle::Kind::Obstacle;
    floor.index = static_cast<int>(world.obstacles.size()) - 1;
    // The floor's pairs only, so the counts below are theirs.
    std::vector<BodyPair> pairs;
    for (const BodyPair& p : activePairs(world, cs, robotBodies(world, 0)))
      if (p.first == floor || p.second == floor) pairs.push_back(p);
    QVERIFY(pairs.size() >= 4);
    long floorContacts = 0, floorCollisions = 0;
    PairScreen::Counts counts;
    for (const WorldState& start : sgtest::randomHandStates(world, 0, 0, 6, 13)) {
      PairScreen screen(world, pairs, cs);
      for (int steps = 0; steps <= 200; steps += 10) {
        WorldState state = start;
        AutoGraspSettings s;
        s.maxIterations = steps;
        autoGrasp(world, state, 0, s);
        std::vector<BodyPair> colliding;
        for (const BodyPair& p : pairs)
          if (pairCollides(world, state, p)) colliding.push_back(p);
        QVERIFY(screen.colliding(state) == colliding);
        for (const BodyPair& p : colliding) floorCollisions += p.first == floor || p.second == floor;
        const auto plain = findContacts(world, state, pairs, cs);
        const auto fast = screen.contacts(state);
        QCOMPARE(fast.size(), plain.size());
        for (std::size_t i = 0; i < fast.size(); ++i) {
          QVERIFY(samePoint(fast[i].side1.p_WC_mm, plain[i].side1.p_WC_mm));
          QVERIFY(samePoint(fast[i].side2.p_WC_mm, plain[i].side2.p_WC_mm));
          floorContacts += fast[i].side1.body == floor || fast[i].side2.body == floor;
        }
      }
      counts.skipped += screen.counts().skipped;
      counts.tested += screen.counts().tested + screen.counts().measured;
    }
    QVERIFY2(floorCollisions + floorContacts > 0, "the floor never met the hand");
    QVERIFY(counts.skipped > 0 && counts.tested > 0);
  }
};

QTEST_GUILESS_MAIN(TestMotionScreen)
#include "tst_motion_screen.moc"
