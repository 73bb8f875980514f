// The pair screen of the DOF motion (src/contact/PairScreen.h, MOTION.md §DOF motion): on random planner states
// of every bundled world with a hand, auto-grasp, stop-at-first-contact auto-grasp and a coarse-step DOF motion
// to random targets give bit for bit the same result with the screen (the default) as with the plain pair tests;
// the screen's answers equal pairCollides / findContacts along whole closing motions, and it does skip pairs.
#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <random>

#include "../io/MeshTestFiles.h"
#include "../support/RandomHandStates.h"
#include "contact/ContactDetection.h"
#include "contact/PairScreen.h"
#include "grasp/AutoGrasp.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

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

// What one screen answered along a closing motion (checkScreenAlongClosing).
struct ScreenRun {
  PairScreen::Counts counts;
  std::vector<BodyPair> collisions;  // every colliding pair met, with repeats
  std::vector<Contact> contacts;     // every contact met
  long states = 0;
};

// One screen over `pairs`, asked at the states after 0, stride, 2·stride … 200 steps of GraspIt!'s auto-grasp
// from `start` (re-run from the start each time): its answers must equal pairCollides / findContacts at each.
void checkScreenAlongClosing(const World& world, const std::vector<BodyPair>& pairs, const CollisionSettings& cs,
                             const WorldState& start, int stride, ScreenRun& run) {
  PairScreen screen(world, pairs, cs);
  for (int steps = 0; steps <= 200; steps += stride) {
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
    run.collisions.insert(run.collisions.end(), colliding.begin(), colliding.end());
    run.contacts.insert(run.contacts.end(), fast.begin(), fast.end());
    ++run.states;
  }
  run.counts.skipped += screen.counts().skipped;
  run.counts.reused += screen.counts().reused;
  run.counts.measured += screen.counts().measured;
  run.counts.tested += screen.counts().tested;
}

std::vector<QString> handWorlds() {
  std::vector<QString> out;
  const QDir dir(sg::test::qInSourceTree("worlds"));
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
    // 16 random states, then (while fewer than 6 motions ended in contact: a parallel jaw closing from a random
    // pose mostly meets nothing) the world's own pose shifted by up to 1 mm, from which the hand closes on the object.
    auto states = sgtest::randomHandStates(world, 0, 0, 16, 11);
    std::mt19937 shiftRng(7);
    std::uniform_real_distribution<double> shift_mm(-1.0, 1.0);
    for (int k = 0; k < 16; ++k) {
      WorldState s = world.state;
      const Vec3 shift(shift_mm(shiftRng), shift_mm(shiftRng), shift_mm(shiftRng));
      s.robots[0].X_WP.setTranslation(s.robots[0].X_WP.translation() + shift);
      updateConnections(world, s);
      states.push_back(std::move(s));
    }
    std::mt19937 rng(5);
    int contacts = 0, legal = 0;
    for (std::size_t i = 0; i < states.size() && (i < 16 || contacts < 6 || legal < 6); ++i) {
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
    ScreenRun run;
    for (const WorldState& start : sgtest::randomHandStates(world, 0, 0, 4, 3)) {
      checkScreenAlongClosing(world, pairs, cs, start, 20, run);
      if (QTest::currentTestFailed()) return;
    }
    QVERIFY(run.states > 0);
    QVERIFY2(run.counts.skipped > 0, "the screen never skipped a pair");
    // A pair the bound does not settle is tested, and asked again at the same state (colliding, contacts)
    // reuses that answer; a world whose pairs the bound always settled has nothing to reuse.
    QVERIFY2(run.counts.tested == 0 || run.counts.reused > 0, "the screen never reused an answer");
  }

  // A half-space has no bounding ball: the screen bounds a link's motion against it by the link's ball in the
  // floor's frame only. Along closing motions of random states with a floor through the object's centre, the
  // answers still equal the plain queries, and the floor pairs are skipped as well as tested.
  void screenWithAHalfSpaceFloor() {
    World world = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    QTemporaryDir dir;
    const std::string path =
        testfiles::writeFile(dir, "floor.xml", "<?xml version=\"1.0\"?>\n<root><primitive type=\"halfspace\"/></root>\n");
    world.obstacles.push_back(loadBody(path, BodyKind::Obstacle, world.materials));
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
    ScreenRun run;
    for (const WorldState& start : sgtest::randomHandStates(world, 0, 0, 6, 13)) {
      checkScreenAlongClosing(world, pairs, cs, start, 10, run);
      if (QTest::currentTestFailed()) return;
    }
    // Every pair here involves the floor: it met the hand, and its pairs were skipped as well as tested.
    QVERIFY2(!run.collisions.empty() || !run.contacts.empty(), "the floor never met the hand");
    QVERIFY(run.counts.skipped > 0 && run.counts.tested + run.counts.measured > 0);
  }
};

QTEST_GUILESS_MAIN(TestMotionScreen)
#include "tst_motion_screen.moc"
