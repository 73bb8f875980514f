// The grasp force optimisation's arrows (render/HoldForceNodes.h): on the ParallelJaw holding its box against
// gravity along the pads, one arrow per contact that carries a force, along that force, its head's tip at the
// contact point and as long as the force times the scale (at least the minimum); none for a load the grasp cannot
// balance. Checked on the graph, without a GL context.
#include <QtTest>

#include <Inventor/nodes/SoCone.h>
#include <Inventor/nodes/SoSeparator.h>
#include <Inventor/nodes/SoTransform.h>
#include <Inventor/nodes/SoTranslation.h>

#include "../support/SceneSearch.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "render/HoldForceNodes.h"
#include "../support/TestPaths.h"

using namespace sg;
using sgtest::Held;
using sgtest::childOfType;
using sgtest::separatorsNamed;

namespace {

template <class T>
T* lastChildOfType(SoSeparator* sep) {
  for (int k = sep->getNumChildren() - 1; k >= 0; --k)
    if (sep->getChild(k)->isOfType(T::getClassTypeId())) return static_cast<T*>(sep->getChild(k));
  return nullptr;
}

struct DrawnArrow {
  Vec3 tail, direction;
  double length_mm = 0;
};

// "holdForce": a translation to the tail, then the arrow (rotation of +y onto the direction, shaft, head).
DrawnArrow drawnArrow(SoSeparator* holdForce) {
  DrawnArrow a;
  const SbVec3f t = childOfType<SoTranslation>(holdForce)->translation.getValue();
  a.tail = Vec3(t[0], t[1], t[2]);
  auto* arrow = childOfType<SoSeparator>(holdForce);
  SbVec3f d;
  childOfType<SoTransform>(arrow)->rotation.getValue().multVec(SbVec3f(0, 1, 0), d);
  a.direction = Vec3(d[0], d[1], d[2]);
  auto* head = lastChildOfType<SoSeparator>(arrow);
  a.length_mm = childOfType<SoTranslation>(head)->translation.getValue()[1] + childOfType<SoCone>(head)->height.getValue() / 2;
  return a;
}

struct JawHold {
  World world;
  AnalysisResult analysis;
  HoldResult hold;
};

// worlds/paralleljaw_box.xml after auto-grasp, `model` contacts, the box's weight along +y and −y of the box.
JawHold jawHold(const std::string& model) {
  JawHold j;
  j.world = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
  AnalysisRequest r;
  r.motion.fingers = FingerMotion::Close;
  r.contactModels = {model};
  r.measures.clear();
  NullProgress progress;
  j.analysis = runAnalysis(j.world, r, progress);
  j.hold = analyzeHold(j.world, j.world.state, j.analysis.evaluations.front(), j.world.graspables[0],
                       weightLoads(j.world.graspables[0], {"y+", "y-"}));
  return j;
}

}  // namespace

class TstRenderHoldForces : public QObject {
  Q_OBJECT
 private slots:
  void oneArrowPerForceEndingAtItsContact();
  void noArrowsForAnUnbalancedLoad();
};

void TstRenderHoldForces::oneArrowPerForceEndingAtItsContact() {
  const JawHold j = jawHold("point");
  for (const HoldDirection& d : j.hold.directions) {
    QVERIFY(d.held);
    for (double scale : {10.0, 40.0}) {
      HoldForceStyle style;
      style.arrow_mm_per_N = scale;
      int drawn = -1;
      Held root(makeHoldForcesNode(d, style, &drawn));
      const auto arrows = separatorsNamed(root.node, "holdForce");
      std::vector<const HoldContactForce*> carrying;
      for (const HoldContactForce& f : d.forces)
        if (f.force_W_N.norm() > 1e-12) carrying.push_back(&f);
      QVERIFY(carrying.size() >= 2);  // both pads
      QCOMPARE(arrows.size(), carrying.size());
      QCOMPARE(drawn, static_cast<int>(carrying.size()));
      for (std::size_t k = 0; k < arrows.size(); ++k) {
        const HoldContactForce& f = *carrying[k];
        const DrawnArrow a = drawnArrow(arrows[k]);
        const double expected_mm = std::max(style.minLength_mm, f.force_W_N.norm() * scale);
        QVERIFY2(std::abs(a.length_mm - expected_mm) < 1e-3, qPrintable(QString::number(a.length_mm)));
        QVERIFY((a.direction - f.force_W_N.normalized()).norm() < 1e-5);
        QVERIFY((a.tail + a.length_mm * a.direction - f.p_W_mm).norm() < 1e-3);
      }
    }
  }
  QCOMPARE(holdForceArrowLength_mm(0.0), 0.0);
  QCOMPARE(holdForceArrowLength_mm(0.01), HoldForceStyle{}.minLength_mm);
}

void TstRenderHoldForces::noArrowsForAnUnbalancedLoad() {
  const JawHold j = jawHold("frictionless");
  for (const HoldDirection& d : j.hold.directions) {
    QVERIFY(!d.balanced);
    int drawn = -1;
    Held root(makeHoldForcesNode(d, {}, &drawn));
    QVERIFY(separatorsNamed(root.node, "holdForce").empty());
    QCOMPARE(drawn, 0);
  }
}

QTEST_MAIN(TstRenderHoldForces)
#include "tst_render_hold_forces.moc"
