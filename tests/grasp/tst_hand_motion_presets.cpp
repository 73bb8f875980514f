// The hand-motion preset table both front ends use (grasp/HandMotionPresets.h): what each preset moves, how the
// command-line switches map onto it (the same function behind `softgrasp --approach` and `softgrasp-cli
// --approach`), and the one default approach distance.
#include <QtTest>

#include <set>

#include "grasp/HandMotionPresets.h"

using namespace sg;

namespace {

bool same(const HandMotionRequest& a, const HandMotionRequest& b) {
  return a.approach == b.approach && a.approachDistance_mm == b.approachDistance_mm && a.fingers == b.fingers &&
         a.collisionChecking == b.collisionChecking;
}

}  // namespace

class TstHandMotionPresets : public QObject {
  Q_OBJECT
 private slots:
  void tableIsCompleteAndNamed() {
    const auto& table = handMotionPresets();
    QCOMPARE(table.size(), std::size_t(6));
    std::set<std::string> names;
    for (std::size_t i = 0; i < table.size(); ++i) {
      QCOMPARE(static_cast<std::size_t>(table[i].preset), i);  // the enum's order
      QVERIFY(names.insert(table[i].name).second);
      QVERIFY(same(presetMotion(table[i].preset), table[i].request));
      QVERIFY(table[i].request.collisionChecking);
    }
  }

  void whatEachPresetMoves() {
    QVERIFY(!presetMotion(HandMotionPreset::None).movesHand());
    const HandMotionRequest approach = presetMotion(HandMotionPreset::Approach);
    QVERIFY(approach.approach && approach.fingers == FingerMotion::Keep);
    const HandMotionRequest search = presetMotion(HandMotionPreset::ApproachToContact);
    QVERIFY(search.approach && search.fingers == FingerMotion::Keep);
    QCOMPARE(search.approachDistance_mm, kApproachToContact_mm);
    const HandMotionRequest grasp = presetMotion(HandMotionPreset::AutoGrasp);
    QVERIFY(!grasp.approach && grasp.fingers == FingerMotion::Close);
    const HandMotionRequest g = presetMotion(HandMotionPreset::ApproachAndGrasp);
    QVERIFY(g.approach && g.fingers == FingerMotion::Close);
    const HandMotionRequest open = presetMotion(HandMotionPreset::AutoOpen);
    QVERIFY(!open.approach && open.fingers == FingerMotion::Open);
  }

  void oneDefaultApproachDistance() {
    // Every approach that names no distance goes 30 mm (GraspIt!'s G key), as an unset request does; only
    // the menu's Approach to Contact searches farther.
    QCOMPARE(kApproachBeforeGrasp_mm, 30.0);
    QCOMPARE(HandMotionRequest{}.approachDistance_mm, kApproachBeforeGrasp_mm);
    QCOMPARE(presetMotion(HandMotionPreset::Approach).approachDistance_mm, kApproachBeforeGrasp_mm);
    QCOMPARE(presetMotion(HandMotionPreset::ApproachAndGrasp).approachDistance_mm, kApproachBeforeGrasp_mm);
    for (bool approach : {false, true})
      for (FingerMotion f : {FingerMotion::Keep, FingerMotion::Close, FingerMotion::Open})
        QCOMPARE(switchesMotion(approach, f).approachDistance_mm, kApproachBeforeGrasp_mm);
    QVERIFY(kApproachToContact_mm > kApproachBeforeGrasp_mm);
  }

  void switchesMapOntoPresets() {
    QVERIFY(same(switchesMotion(false, FingerMotion::Keep), presetMotion(HandMotionPreset::None)));
    QVERIFY(same(switchesMotion(true, FingerMotion::Keep), presetMotion(HandMotionPreset::Approach)));
    QVERIFY(same(switchesMotion(false, FingerMotion::Close), presetMotion(HandMotionPreset::AutoGrasp)));
    QVERIFY(same(switchesMotion(true, FingerMotion::Close), presetMotion(HandMotionPreset::ApproachAndGrasp)));
    QVERIFY(same(switchesMotion(false, FingerMotion::Open), presetMotion(HandMotionPreset::AutoOpen)));
    // Approach then open is no preset: the same distance, then auto-open.
    const HandMotionRequest approachOpen = switchesMotion(true, FingerMotion::Open);
    QVERIFY(approachOpen.approach && approachOpen.fingers == FingerMotion::Open);
  }
};

QTEST_APPLESS_MAIN(TstHandMotionPresets)
#include "tst_hand_motion_presets.moc"
