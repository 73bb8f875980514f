// Description vs state (src/model/README.md): the engine reads poses only from the WorldState it is given,
// so two threads can move and evaluate different states of one const World at once — no World copy — and
// get exactly what a serial run gets.
#include <QtTest>

#include <thread>

#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

AnalysisRequest qualityRequest() {
  AnalysisRequest r;
  r.measures = {"epsilon-l1", "volume-l1"};
  return r;
}

HandMotionRequest approachAndGrasp() {
  HandMotionRequest m;
  m.approach = true;
  m.fingers = FingerMotion::Close;
  return m;
}

// Bit-for-bit equal: the same computation on the same inputs, whichever thread ran it.
void verifySameContacts(const std::vector<Contact>& a, const std::vector<Contact>& b) {
  QCOMPARE(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    QVERIFY(a[i].side1.body == b[i].side1.body && a[i].side2.body == b[i].side2.body);
    QVERIFY(a[i].side1.p_WC_mm == b[i].side1.p_WC_mm);
    QVERIFY(a[i].side2.p_WC_mm == b[i].side2.p_WC_mm);
    QVERIFY(a[i].side1.n_W == b[i].side1.n_W);
    QCOMPARE(a[i].separation_mm, b[i].separation_mm);
  }
}

void verifySameResult(const AnalysisResult& a, const AnalysisResult& b) {
  verifySameContacts(a.contacts, b.contacts);
  QCOMPARE(a.graspable, b.graspable);
  QCOMPARE(a.evaluations.size(), b.evaluations.size());
  for (std::size_t k = 0; k < a.evaluations.size(); ++k)
    for (const char* m : {"epsilon-l1", "volume-l1"}) {
      QVERIFY(a.evaluations[k].measure(m) && b.evaluations[k].measure(m));
      QCOMPARE(a.evaluations[k].measure(m)->value, b.evaluations[k].measure(m)->value);
    }
}

void verifySameRobotState(const RobotState& a, const RobotState& b) {
  QVERIFY(a.sameMotionState(b));
  QCOMPARE(a.X_WL.size(), b.X_WL.size());
  for (std::size_t c = 0; c < a.X_WL.size(); ++c)
    for (std::size_t l = 0; l < a.X_WL[c].size(); ++l) QVERIFY(a.X_WL[c][l].isApprox(b.X_WL[c][l], 0));
}

}  // namespace

class TestStateThreads : public QObject {
  Q_OBJECT

  World world_;
  WorldState open_, turned_;  // the hand as loaded, and turned 90° about the mug's (world z) axis

 private slots:
  void initTestCase() {
    world_ = loadWorld(std::string(sg::test::sourceDir()) + "/worlds/default.xml");
    QCOMPARE(world_.robots.size(), std::size_t(1));
    open_ = world_.state;
    turned_ = world_.state;
    setRobotPose(world_.robots[0], turned_.robots[0],
                 Transform::fromAxisAngle(Vec3::UnitZ(), kPi / 2) * turned_.robots[0].X_WP);
    QVERIFY(fits(world_, turned_));
  }

  // A state is plain data: evaluating one needs no World copy, and the world's own state is untouched.
  void stateIsSeparateFromTheWorld() {
    const World& world = world_;
    WorldState closed = open_;
    moveHand(world, closed, 0, approachAndGrasp());
    QVERIFY(!closed.robots[0].sameMotionState(world.state.robots[0]));
    QVERIFY(world.state.robots[0].sameMotionState(open_.robots[0]));  // the world's state did not move
    // Closed fingers, moved palm; the link poses follow from forward kinematics of the new values.
    for (std::size_t k = 1; k < 4; ++k) QVERIFY(closed.robots[0].dofValues[k] > open_.robots[0].dofValues[k] + 0.1);
    const auto X_WL = linkPoses(world.robots[0], closed.robots[0].X_WP, closed.robots[0].dofValues,
                                closed.robots[0].breakAway);
    for (std::size_t c = 0; c < X_WL.size(); ++c)
      for (std::size_t l = 0; l < X_WL[c].size(); ++l) QVERIFY(X_WL[c][l].isApprox(closed.robots[0].X_WL[c][l], 0));
    // The world's overloads evaluate world.state; evaluating the open state explicitly gives the same.
    NullProgress progress;
    verifySameResult(analyzeGrasp(world, qualityRequest(), progress),
                     analyzeGrasp(world, open_, qualityRequest(), progress));
    // A state that does not fit the world is refused.
    WorldState bad = open_;
    bad.robots.clear();
    QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world, bad, qualityRequest(), progress));
  }

  // Two threads each approach and grasp from their own start state and evaluate the grasp: the same hand
  // states, contacts and ε as the serial runs.
  void twoStatesConcurrentlyMatchSerial() {
    const World& world = world_;
    NullProgress progress;
    // Serial reference.
    WorldState serialA = open_, serialB = turned_;
    moveHand(world, serialA, 0, approachAndGrasp());
    moveHand(world, serialB, 0, approachAndGrasp());
    const AnalysisResult refA = analyzeGrasp(world, serialA, qualityRequest(), progress);
    const AnalysisResult refB = analyzeGrasp(world, serialB, qualityRequest(), progress);
    // The two grasps differ, and both hold the mug.
    QVERIFY(!refA.contacts.empty() && !refB.contacts.empty());
    QVERIFY(!serialA.robots[0].sameMotionState(serialB.robots[0]));
    QVERIFY(refA.evaluations.front().measure("epsilon-l1")->value !=
            refB.evaluations.front().measure("epsilon-l1")->value);

    qInfo("grasp A: %zu contacts, eps %g; grasp B: %zu contacts, eps %g", refA.contacts.size(),
          refA.evaluations.front().measure("epsilon-l1")->value, refB.contacts.size(),
          refB.evaluations.front().measure("epsilon-l1")->value);
    // Concurrent: each thread moves and evaluates its own state several times.
    constexpr int kRounds = 3;
    std::vector<WorldState> statesA(kRounds, open_), statesB(kRounds, turned_);
    std::vector<AnalysisResult> resultsA(kRounds), resultsB(kRounds);
    auto work = [&world](std::vector<WorldState>& states, std::vector<AnalysisResult>& results) {
      NullProgress p;
      for (std::size_t i = 0; i < states.size(); ++i) {
        moveHand(world, states[i], 0, approachAndGrasp());
        results[i] = analyzeGrasp(world, states[i], qualityRequest(), p);
      }
    };
    std::thread a(work, std::ref(statesA), std::ref(resultsA));
    std::thread b(work, std::ref(statesB), std::ref(resultsB));
    a.join();
    b.join();
    for (int i = 0; i < kRounds; ++i) {
      verifySameRobotState(statesA[i].robots[0], serialA.robots[0]);
      verifySameRobotState(statesB[i].robots[0], serialB.robots[0]);
      verifySameResult(resultsA[i], refA);
      verifySameResult(resultsB[i], refB);
    }
    QVERIFY(world.state.robots[0].sameMotionState(open_.robots[0]));
  }

  // Evaluating one grasped state and one open state at once (hand closed vs open), evaluation only.
  void openAndClosedEvaluatedConcurrently() {
    const World& world = world_;
    NullProgress progress;
    WorldState closed = open_;
    moveHand(world, closed, 0, approachAndGrasp());
    const AnalysisResult refClosed = analyzeGrasp(world, closed, qualityRequest(), progress);
    const AnalysisResult refOpen = analyzeGrasp(world, open_, qualityRequest(), progress);
    QVERIFY(refClosed.contacts.size() > refOpen.contacts.size());
    AnalysisResult gotClosed, gotOpen;
    std::thread a([&] {
      NullProgress p;
      gotClosed = analyzeGrasp(world, closed, qualityRequest(), p);
    });
    std::thread b([&] {
      NullProgress p;
      gotOpen = analyzeGrasp(world, open_, qualityRequest(), p);
    });
    a.join();
    b.join();
    verifySameResult(gotClosed, refClosed);
    verifySameResult(gotOpen, refOpen);
  }
};

QTEST_GUILESS_MAIN(TestStateThreads)
#include "tst_state_threads.moc"
