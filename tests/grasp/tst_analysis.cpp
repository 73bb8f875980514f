#include <QtTest>

#include <cmath>

#include "../contact/SoftTestShapes.h"
#include "contact/models/SoftFingerContactModel.h"
#include "core/Error.h"
#include "geometry/Primitives.h"
#include "grasp/Analysis.h"
#include "grasp/HullMeasures.h"
#include "grasp/GraspMatrix.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sgtest;

namespace {

const std::vector<Vec3> kTetra = {Vec3(1, 1, 1), Vec3(1, -1, -1), Vec3(-1, 1, -1), Vec3(-1, -1, 1)};

// A rigid ball of radius R at the origin touched at the tetrahedron's directions by rigid fixtures.
World tetraWorld(double R) {
  World w;
  sgtest::addGraspable(w, makeBody("ball", BodyKind::Graspable, makeUvSphere(R, 60, 30), Transform::identity()));
  for (const Vec3& d : kTetra)
    sgtest::addObstacle(w, makeBody("tip", BodyKind::Obstacle, makeUvSphere(5, 20, 10),
                                   Transform::fromTranslation((R + 5) * d.normalized())));
  return w;
}

std::vector<Contact> tetraContacts(double R) {
  std::vector<Contact> cs;
  for (std::size_t i = 0; i < kTetra.size(); ++i) {
    const Vec3 u = kTetra[i].normalized();
    cs.push_back(makeContact(graspableHandle(0), R * u, -u, obstacleHandle(static_cast<int>(i)), R * u, 0.5));
  }
  return cs;
}

QualitySettings fixtureSettings(double rho_mm) {
  QualitySettings s;
  s.handContactsOnly = false;  // the fingertips are obstacles here
  s.torqueLength_mm = rho_mm;
  return s;
}

World defaultWorld() { return loadWorld(sg::test::inSourceTree("worlds/default.xml")); }

}  // namespace

class TstAnalysis : public QObject {
  Q_OBJECT
 private slots:
  void contactModelsAreRegistered();
  void measuresAreRegistered();
  void graspMatrixOfTetrahedralPointGrasp();
  void runAnalysisEvaluatesEveryRequestedModel();
  void analysisRejectsUnknownNames();
  void handMotionWithoutCollisionCheckingGoesToLimits();
  void graspScopeGivesTheSameGraspWithFewerContacts();
};

void TstAnalysis::contactModelsAreRegistered() {
  std::vector<std::string> names;
  for (const ContactModel* m : contactModels()) {
    names.push_back(m->name());
    QVERIFY(!m->label().empty() && !m->description().empty());
  }
  QCOMPARE(names, (std::vector<std::string>{"soft-finger", "hertz", "point", "frictionless", "hydroelastic", "patch", "penalty"}));
  QCOMPARE(defaultContactModel().name(), std::string("soft-finger"));
  QCOMPARE(findContactModel("auto")->name(), std::string("soft-finger"));  // the old enum's names
  QCOMPARE(findContactModel("point-with-friction")->name(), std::string("point"));
  QVERIFY(!findContactModel("nonsense"));
  QCOMPARE(contactModelNames(), std::string("soft-finger, hertz, point, frictionless, hydroelastic, patch, penalty"));
}

void TstAnalysis::measuresAreRegistered() {
  QCOMPARE(qualityMeasureNames(), (std::vector<std::string>{"epsilon-l1", "volume-l1", "epsilon-linf", "volume-linf",
                                                            "epsilon-exact", "min-singular-value"}));
  // Only the L∞ hull (volume) is expensive; every ε comes from support functions.
  QVERIFY(findQualityMeasure("volume-linf")->expensive());
  QVERIFY(!findQualityMeasure("epsilon-linf")->expensive());
  QVERIFY(!findQualityMeasure("epsilon-l1")->expensive());
  QVERIFY(!findQualityMeasure("epsilon-exact")->expensive());
  // The volumes read a Qhull hull (the application builds it off the GUI thread); nothing else does.
  QVERIFY(wrenchSpaceHull(*findQualityMeasure("volume-l1")) == std::optional<GwsType>(GwsType::L1));
  QVERIFY(wrenchSpaceHull(*findQualityMeasure("volume-linf")) == std::optional<GwsType>(GwsType::LInfinity));
  for (const char* name : {"epsilon-l1", "epsilon-linf", "epsilon-exact", "min-singular-value"})
    QVERIFY2(!wrenchSpaceHull(*findQualityMeasure(name)), name);
  GraspEvaluation e = evaluateGrasp(tetraWorld(30), tetraContacts(30), 0, *findContactModel("point"), fixtureSettings(30));
  NullProgress progress;
  QVERIFY_THROWS_EXCEPTION(Error, computeMeasures(e, {"no-such-measure"}, progress));
  // Spaces are built only for the measures that need them.
  computeMeasures(e, {"min-singular-value"}, progress);
  QVERIFY(!e.l1Built && !e.lInfinityBuilt);
  // The ε measures build no hull at all.
  computeMeasures(e, {"epsilon-l1", "epsilon-linf", "epsilon-exact"}, progress);
  QVERIFY(!e.l1Built && !e.lInfinityBuilt);
  QVERIFY(e.l1Support && e.lInfinitySupport && e.exactSupport);
  QVERIFY(e.measure("epsilon-l1")->ok && e.forceClosure());
  QVERIFY(e.measure("epsilon-l1")->bounds && e.measure("epsilon-l1")->bounds->converged);
  // The volume builds the L1 hull, whose ε agrees with the support ε.
  computeMeasures(e, {"volume-l1"}, progress);
  QVERIFY(e.l1Built && !e.lInfinityBuilt);
  QVERIFY(std::abs(e.measure("epsilon-l1")->value - e.l1Quality.epsilon) < 1e-9);
  QVERIFY(e.l1Quality.forceClosure);
}

void TstAnalysis::graspMatrixOfTetrahedralPointGrasp() {
  // Point contacts at the tetrahedron's directions on a ball (ρ = R): each contact's columns [n; 0], [t; u×t]
  // give G·Gᵀ = diag(4·I, (4 − 4/3)·I), so σmin = √(8/3) whatever R.
  for (double R : {10.0, 30.0}) {
    const GraspEvaluation e = evaluateGrasp(tetraWorld(R), tetraContacts(R), 0, *findContactModel("point"), fixtureSettings(R));
    const MatX G = graspMatrix(e);
    QCOMPARE(G.cols(), Eigen::Index(12));
    QVERIFY(std::abs(minSingularValue(G) - std::sqrt(8.0 / 3.0)) < 1e-9);
  }
  // Frictionless normals through the centre produce no torque: rank 3, σmin 0.
  const GraspEvaluation f =
      evaluateGrasp(tetraWorld(30), tetraContacts(30), 0, *findContactModel("frictionless"), fixtureSettings(30));
  QCOMPARE(graspMatrix(f).cols(), Eigen::Index(4));
  QCOMPARE(minSingularValue(graspMatrix(f)), 0.0);
}

void TstAnalysis::runAnalysisEvaluatesEveryRequestedModel() {
  World world = defaultWorld();
  AnalysisRequest request;
  request.motion.approach = true;
  request.motion.fingers = FingerMotion::Close;
  request.contactModels = {"soft-finger", "hertz", "point"};
  NullProgress progress;
  const AnalysisResult r = runAnalysis(world, request, progress);
  QVERIFY(r.motion.approach.run && r.motion.fingers.run);
  QCOMPARE(r.graspable, 0);
  // Canonical order: every hand contact before any other.
  bool other = false;
  for (const Contact& c : r.contacts) {
    if (!isHandContact(c)) other = true;
    else QVERIFY(!other);
  }
  QCOMPARE(r.evaluations.size(), std::size_t(3));
  const GraspEvaluation& soft = *r.evaluation("soft-finger");
  const GraspEvaluation& hertz = *r.evaluation("hertz");
  const GraspEvaluation& point = *r.evaluation("point");
  QCOMPARE(r.primary(), &soft);
  QVERIFY(soft.contacts.size() >= 3);
  for (std::size_t i = 0; i < soft.contacts.size(); ++i) {
    QCOMPARE(soft.contacts[i].kind, ContactKind::SoftFinger);
    const SoftContactResult* s = softContactResult(soft.modelResult.get(), i);
    QVERIFY(s && !s->neighbourhoods.side1.vertexPoints_mm.empty());  // the points the fit used, kept
    QCOMPARE(s->patch.model, PatchModel::ElasticLayer);
  }
  for (std::size_t i = 0; i < hertz.contacts.size(); ++i)
    QCOMPARE(softContactResult(hertz.modelResult.get(), i)->patch.model, PatchModel::Hertz);
  for (const ContactEvaluation& c : point.contacts) QCOMPARE(c.kind, ContactKind::PointWithFriction);
  QVERIFY(!softContactResult(point.modelResult.get(), 0));
  // Every model got every measure; the soft finger's torsion makes its ε at least the point contacts'.
  for (const GraspEvaluation* e : {&soft, &hertz, &point})
    QCOMPARE(e->measures.size(), qualityMeasureNames().size());
  QVERIFY(soft.measure("epsilon-l1")->value >= point.measure("epsilon-l1")->value - 1e-12);
  QVERIFY(soft.l1Quality.forceClosure && soft.forceClosure());
}

void TstAnalysis::analysisRejectsUnknownNames() {
  const World world = defaultWorld();
  NullProgress progress;
  AnalysisRequest bad;
  bad.contactModels = {"rubber-band"};
  QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world, bad, progress));
  AnalysisRequest badMeasure;
  badMeasure.measures = {"happiness"};
  QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world, badMeasure, progress));
  AnalysisRequest badObject;
  badObject.graspable = 7;
  QVERIFY_THROWS_EXCEPTION(Error, analyzeGrasp(world, badObject, progress));
}

void TstAnalysis::handMotionWithoutCollisionCheckingGoesToLimits() {
  World world = defaultWorld();
  HandMotionRequest request;
  request.fingers = FingerMotion::Close;
  request.collisionChecking = false;
  const HandMotionReport report = moveHand(world, 0, request);
  QVERIFY(report.fingers.run && !report.fingers.collisionChecked);
  for (std::size_t k = 0; k < world.robots[0].dofs.size(); ++k) {
    const Dof& d = world.robots[0].dofs[k];
    const double value = world.state.robots[0].dofValues[k];
    if (d.defaultVelocity > 0) QCOMPARE(value, d.maxValue);
    else if (d.defaultVelocity < 0) QCOMPARE(value, d.minValue);
  }
  QVERIFY(report.summary().find("collision checking off") != std::string::npos);
  QVERIFY_THROWS_EXCEPTION(Error, moveHand(world, 5, request));
}

QTEST_MAIN(TstAnalysis)
#include "tst_analysis.moc"

// ContactScope::Grasp queries only graspable–hand pairs: the mug on the table loses its table contacts, the
// grasp (contacts, wrenches, every ε) is the same bit for bit, under the soft, point and patch models.
void TstAnalysis::graspScopeGivesTheSameGraspWithFewerContacts() {
  World world = defaultWorld();
  AnalysisRequest close;
  close.motion.fingers = FingerMotion::Close;
  close.measures = {};
  NullProgress progress;
  (void)runAnalysis(world, world.state, close, progress);  // the hand closed on the mug, in world.state
  AnalysisRequest request;
  request.contactModels = {"soft-finger", "point", "patch"};
  request.measures = {"epsilon-l1", "epsilon-linf", "epsilon-exact"};
  const AnalysisResult all = analyzeGrasp(world, request, progress);
  request.contactScope = ContactScope::Grasp;
  const AnalysisResult grasp = analyzeGrasp(world, request, progress);
  QCOMPARE(grasp.graspable, all.graspable);
  int handOnObject = 0;
  for (const Contact& c : all.contacts)
    handOnObject += isHandContact(c) && (c.side1.body == graspableHandle(0) || c.side2.body == graspableHandle(0));
  QVERIFY(handOnObject >= 3);
  QVERIFY(all.contacts.size() > grasp.contacts.size() + 10);  // the table–mug contacts
  QCOMPARE(static_cast<int>(grasp.contacts.size()), handOnObject);
  for (std::size_t i = 0; i < grasp.contacts.size(); ++i)
    QVERIFY(grasp.contacts[i].side1.p_WC_mm == all.contacts[i].side1.p_WC_mm);  // hand contacts come first
  QCOMPARE(grasp.evaluations.size(), all.evaluations.size());
  for (std::size_t k = 0; k < all.evaluations.size(); ++k) {
    const GraspEvaluation& a = all.evaluations[k];
    const GraspEvaluation& g = grasp.evaluations[k];
    QCOMPARE(g.contacts.size(), a.contacts.size());
    for (std::size_t i = 0; i < a.contacts.size(); ++i) {
      QCOMPARE(g.contacts[i].wrenches.size(), a.contacts[i].wrenches.size());
      for (std::size_t j = 0; j < a.contacts[i].wrenches.size(); ++j)
        QVERIFY(g.contacts[i].wrenches[j] == a.contacts[i].wrenches[j]);
    }
    for (const char* m : {"epsilon-l1", "epsilon-linf", "epsilon-exact"}) {
      QVERIFY2(a.measure(m) && a.measure(m)->ok, m);
      QCOMPARE(g.measure(m)->value, a.measure(m)->value);
    }
  }
}
