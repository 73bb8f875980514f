// The bundled world with compliant fingertips (worlds/hydro_fingertips.xml, models/robots/ThreeFingerHydro):
// the fingertips — and only they — carry the hydroelastic option with the modulus and resolution the body file
// sets, the rest of the hand is ThreeFinger's, and auto-grasp closes every fingertip on the mug.
#include <QtTest>

#include <set>

#include "contact/ContactDetection.h"
#include "contact/models/HydroelasticContactModel.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "grasp/AutoGrasp.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {
const std::string kWorld = sg::test::inSourceTree("worlds/hydro_fingertips.xml");
}  // namespace

class TestHydroWorld : public QObject {
  Q_OBJECT
 private slots:
  void fingertipsAreCompliant() {
    const World world = loadWorld(kWorld);
    QCOMPARE(world.robots.size(), std::size_t(1));
    const Robot& hand = world.robots[0];
    QCOMPARE(hand.chains.size(), std::size_t(3));
    int compliant = 0;
    for (const BodyRef& ref : hand.bodyRefs()) {
      const Body& b = hand.body(ref);
      const bool fingertip = ref.chain >= 0 && ref.link + 1 == static_cast<int>(hand.chains[ref.chain].links.size());
      QCOMPARE(b.isHydroelasticCompliant(), fingertip);
      if (!fingertip) continue;
      ++compliant;
      QVERIFY(b.hydroelastic->modulus_Pa.has_value());
      QCOMPARE(b.hydroelasticModulus_Pa(), 1e6);
      QCOMPARE(b.hydroelastic->resolutionHint_mm, 2.0);
      QCOMPARE(b.hydroelastic->margin_mm, 0.0);
      QCOMPARE(*b.youngs_Pa, 1.5e6);  // still soft for the soft-finger and Hertz models
      // An exact capsule spanning the link from its joint axis (x = -50) to the tip (x = 0).
      QVERIFY(b.primitive && std::holds_alternative<Capsule>(b.primitive->shape));
      QVERIFY(std::abs(b.mesh->bounds.min.x() + 50) < 1e-6 && std::abs(b.mesh->bounds.max.x()) < 1e-6);
    }
    QCOMPARE(compliant, 3);
    for (const Body& b : world.graspables) QVERIFY(!b.isHydroelasticCompliant());
    for (const Body& b : world.obstacles) QVERIFY(!b.isHydroelasticCompliant());
    // The rest of the hand is ThreeFinger's: same link geometry.
    const Robot three = loadRobot(sg::test::inSourceTree("models/robots/ThreeFinger/ThreeFinger.xml"), world.materials);
    QCOMPARE(hand.dofs.size(), three.dofs.size());
    QCOMPARE(hand.palm.triangleCount(), three.palm.triangleCount());
    QCOMPARE(hand.eigengrasps.grasps.size(), three.eigengrasps.grasps.size());
  }

  void autoGraspClosesEveryFingertipOnTheMug() {
    World world = loadWorld(kWorld);
    autoGrasp(world, 0);
    std::set<int> touching;  // chains whose fingertip touches the mug
    for (const Contact& c : findAllContacts(world)) {
      const ContactSide* robotSide = c.side1.body.kind == BodyHandle::Kind::Robot ? &c.side1 : &c.side2;
      const ContactSide* other = robotSide == &c.side1 ? &c.side2 : &c.side1;
      if (robotSide->body.kind != BodyHandle::Kind::Robot || other->body.kind != BodyHandle::Kind::Graspable) continue;
      const BodyRef& ref = robotSide->body.ref;
      if (ref.chain >= 0 && world.robots[0].body(ref).isHydroelasticCompliant()) touching.insert(ref.chain);
    }
    QCOMPARE(touching.size(), std::size_t(3));
  }

  // The feature one click away: after auto-grasp the hydroelastic model finds a pressure surface at every
  // fingertip, pressed to the nominal normal force, and the grasp's ε is computed under it.
  void hydroelasticModelOnTheBundledGrasp() {
    World world = loadWorld(kWorld);
    autoGrasp(world, 0);
    AnalysisRequest request;
    request.contactModels = {"hydroelastic"};
    request.measures = {"epsilon-l1", "epsilon-exact"};
    NullProgress progress;
    const AnalysisResult r = analyzeGrasp(world, request, progress);
    QVERIFY(r.primary());
    const auto* hydro = dynamic_cast<const HydroelasticModelResult*>(r.primary()->modelResult.get());
    QVERIFY(hydro);
    QCOMPARE(hydro->surfaceOfContact.size(), r.primary()->contacts.size());
    const double nominal_N = request.quality.soft.patch.normalForce_N;
    std::set<int> used;
    for (std::size_t i = 0; i < r.primary()->contacts.size(); ++i) {
      const int s = hydro->surfaceOfContact[i];
      QVERIFY2(s >= 0, r.primary()->contacts[i].note.c_str());
      used.insert(s);
      const ContactSurface& surface = hydro->surfaces[static_cast<std::size_t>(s)];
      QVERIFY(!surface.empty() && surface.area_mm2 > 0 && surface.peakPressure_Pa > 0);
      QVERIFY2(std::abs(surface.normalForce_N - nominal_N) <= 1e-2 * nominal_N,
               qPrintable(QString("surface force %1 N").arg(surface.normalForce_N)));
      const ModelContact& m = r.primary()->contacts[i];
      QCOMPARE(m.kind, ContactKind::SoftFinger);
      QVERIFY(m.torsion_mm > 0 && m.patchArea_mm2 > 0 && m.patchShape == "surface");
    }
    QCOMPARE(used.size(), std::size_t(3));  // one surface per fingertip
    const MeasureValue* eps = r.primary()->measure("epsilon-l1");
    QVERIFY(eps && std::isfinite(eps->value));
  }
};

QTEST_GUILESS_MAIN(TestHydroWorld)
#include "tst_hydro_world.moc"
