// The ε measures from support functions wired into the registry (QUALITY.md "ε from support functions"):
// no hull built for ε, equal to Qhull's ε where the origin is inside, certified bounds reported, the exact
// cones never below the linearised ones, and every measure unchanged when a whole bundled world is moved by
// a random rigid motion (tangent frames from the object's frame, GraspIt!'s rule).
#include <QDir>
#include <QFileInfo>
#include <QtTest>

#include <cmath>
#include <random>

#include "../support/RandomGrasps.h"
#include "grasp/Analysis.h"
#include "grasp/SupportEpsilon.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

const std::vector<std::string> kEpsilonMeasures = {"epsilon-l1", "epsilon-linf", "epsilon-exact"};

QStringList worldFiles() {
  const QDir dir(sg::test::qInSourceTree("worlds"));
  QStringList out;
  for (const QString& f : dir.entryList({"*.xml"}, QDir::Files, QDir::Name)) out << dir.filePath(f);
  return out;
}

// The world after G (approach 30 mm, then auto-grasp) when it has a hand; as loaded otherwise.
World graspedWorld(const QString& path) {
  World w = loadWorld(path.toStdString());
  if (!w.robots.empty()) {
    AnalysisRequest g;
    g.motion.approach = true;
    g.motion.fingers = FingerMotion::Close;
    g.measures.clear();
    NullProgress progress;
    runAnalysis(w, g, progress);
  }
  return w;
}

AnalysisResult analyze(const World& w, const std::vector<std::string>& measures) {
  AnalysisRequest r;
  r.measures = measures;
  NullProgress progress;
  return analyzeGrasp(w, r, progress);
}

// Every body of the world (obstacles, graspables, robots with their links and mounted children) moved by X.
void moveWholeWorld(World& w, const Transform& X) {
  for (Transform& X_WO : w.state.X_WO) X_WO = X * X_WO;
  for (Transform& X_WG : w.state.X_WG) X_WG = X * X_WG;
  for (std::size_t r = 0; r < w.robots.size(); ++r)
    setRobotPose(w.robots[r], w.state.robots[r], X * w.state.robots[r].X_WP);
  updateConnections(w, w.state);
}

Transform randomRigidMotion(std::mt19937& rng) {
  std::normal_distribution<double> g;
  std::uniform_real_distribution<double> t(-800, 800);
  const Quat q = Quat(g(rng), g(rng), g(rng), g(rng)).normalized();
  return Transform(q, Vec3(t(rng), t(rng), t(rng)));
}

bool closeRelative(double a, double b, double rel) {
  return std::abs(a - b) <= rel * std::max({std::abs(a), std::abs(b), 1e-12});
}

}  // namespace

class TstSupportMeasures : public QObject {
  Q_OBJECT
 private slots:
  void epsilonMeasuresBuildNoHull();
  void bundledWorlds_data();
  void bundledWorlds();
  void exactConesNeverBelowLinearizedOnRandomGrasps();
  void exactConeBudgetReportsBoundsHonestly();
  void rigidMotionOfWholeWorld_data() { bundledWorlds_data(); }
  void rigidMotionOfWholeWorld();
  void tangentFramesComeFromTheObjectFrame();
};

void TstSupportMeasures::epsilonMeasuresBuildNoHull() {
  const World w = graspedWorld(sg::test::qInSourceTree("worlds/default.xml"));
  const AnalysisResult r = analyze(w, kEpsilonMeasures);
  const GraspEvaluation& e = *r.primary();
  QVERIFY(e.contacts.size() >= 3);
  QVERIFY(!e.l1Built && !e.lInfinityBuilt);  // ε alone: no Qhull hull, no Minkowski sum
  QVERIFY(e.forceClosure());
  for (const std::string& name : kEpsilonMeasures) {
    const MeasureValue* v = e.measure(name);
    QVERIFY2(v && v->ok && v->bounds, name.c_str());
    QVERIFY(v->bounds->lower <= v->value + 1e-15 && v->value <= v->bounds->upper + 1e-15);
    QVERIFY(v->bounds->iterations > 0);
    QVERIFY(std::abs(v->bounds->weakestDirection.norm() - 1) < 1e-9);
  }
  // L1 and L∞ converge to the default gap 1e-9.
  for (const char* name : {"epsilon-l1", "epsilon-linf"}) {
    const MeasureBounds& b = *e.measure(name)->bounds;
    QVERIFY(b.converged);
    QVERIFY(b.gap() <= 1e-9 * std::abs(b.upper) + 1e-12);
  }
  // L∞ ⊇ L1, so its ε is at least as large; default grasp: three soft contacts (9,261 Minkowski points).
  QVERIFY(e.measure("epsilon-linf")->value >= e.measure("epsilon-l1")->value - 1e-12);
  // The volume asks for the L1 hull only.
  AnalysisResult withVolume = analyze(w, {"epsilon-l1", "volume-l1"});
  QVERIFY(withVolume.primary()->l1Built && !withVolume.primary()->lInfinityBuilt);
}

void TstSupportMeasures::bundledWorlds_data() {
  QTest::addColumn<QString>("world");
  const QStringList worlds = worldFiles();
  QVERIFY(worlds.size() >= 5);
  for (const QString& f : worlds) QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
}

// On every bundled world after G: ε L1 equals Qhull's on the same wrenches (origin inside), ε L∞ equals Qhull's
// on the explicit Minkowski sum where that is built, and the exact cones' upper bound is ≥ ε L1.
void TstSupportMeasures::bundledWorlds() {
  QFETCH(QString, world);
  const World w = graspedWorld(world);
  for (const char* model : {"soft-finger", "point"}) {
    AnalysisRequest request;
    request.contactModels = {model};
    request.measures = kEpsilonMeasures;
    NullProgress progress;
    AnalysisResult r = analyzeGrasp(w, request, progress);
    if (r.evaluations.empty()) continue;
    GraspEvaluation& e = r.evaluations.front();
    const MeasureValue& l1 = *e.measure("epsilon-l1");
    const MeasureValue& linf = *e.measure("epsilon-linf");
    const MeasureValue& exact = *e.measure("epsilon-exact");
    QVERIFY(!e.l1Built && !e.lInfinityBuilt);

    ensureWrenchSpace(e, GwsType::L1);
    QCOMPARE(e.forceClosure(), e.l1Quality.forceClosure);
    if (e.l1Quality.forceClosure)
      QVERIFY2(std::abs(l1.value - e.l1Quality.epsilon) < 1e-9,
               qPrintable(QString("%1 vs %2").arg(l1.value, 0, 'g', 17).arg(e.l1Quality.epsilon, 0, 'g', 17)));
    else
      QVERIFY(l1.value <= 1e-9);
    ensureWrenchSpace(e, GwsType::LInfinity);
    if (!e.lInfinity.limitExceeded && e.lInfinityQuality.forceClosure)
      QVERIFY(std::abs(linf.value - e.lInfinityQuality.epsilon) < 1e-9);
    QVERIFY(linf.value >= l1.value - 1e-12);
    // W_lin ⊆ W_exact: the exact ε (≤ its upper bound) is never below the linearised one.
    QVERIFY2(exact.bounds->upper >= l1.value - 1e-12,
             qPrintable(QString("%1 < %2").arg(exact.bounds->upper).arg(l1.value)));
    if (exact.bounds->converged) QVERIFY(exact.value >= l1.value - 1e-9);
    // The exact cones converge to their default gap within the default budget wherever there are wrenches
    // (no breakdown on the crowded, coplanar support points of the soft contacts' ellipsoids).
    if (exact.bounds->status != std::string(toString(SupportEpsilonStatus::Empty)))
      QVERIFY2(exact.bounds->converged || exact.bounds->status == std::string(toString(SupportEpsilonStatus::Flat)),
               qPrintable(QString("%1: %2").arg(model).arg(QString::fromStdString(exact.message))));
  }
}

void TstSupportMeasures::exactConesNeverBelowLinearizedOnRandomGrasps() {
  std::mt19937 rng(20261123);
  SupportEpsilonSettings exactSettings;
  exactSettings.relativeGap = QualitySettings{}.exactConeRelativeGap;
  exactSettings.maxIterations = QualitySettings{}.exactConeMaxIterations;
  int forceClosure = 0, converged = 0, total = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const int contacts = 3 + trial % 6;
    const double torsion_mm = trial % 3 == 0 ? 2.0 + (trial % 5) : 0.0;  // a third soft contacts
    const int edges = 4 + 4 * (trial % 4);
    const double cap = trial % 7 == 0 ? 0.3 : -1;                        // some one-sided (outside)
    const sgtest::RandomGrasp g = sgtest::randomGrasp(rng, contacts, edges, cap, torsion_mm);
    const SupportEpsilon lin = l1EpsilonFromSupport(g.wrenches);
    const SupportEpsilon exact = exactConeEpsilon(g.cones, g.torqueScale_mm, GwsType::L1, exactSettings);
    QVERIFY(lin.status == SupportEpsilonStatus::Converged || lin.status == SupportEpsilonStatus::Flat);
    QVERIFY(exact.lowerBound <= exact.upperBound + 1e-15);
    QVERIFY2(exact.upperBound >= lin.epsilon - 1e-12,
             qPrintable(QString("trial %1: exact ≤ %2 < lin %3").arg(trial).arg(exact.upperBound).arg(lin.epsilon)));
    // Force closure of the inscribed set implies force closure of the exact one.
    if (lin.forceClosure) QVERIFY(exact.upperBound > 0);
    forceClosure += lin.forceClosure;
    converged += exact.status == SupportEpsilonStatus::Converged;
    ++total;
  }
  QVERIFY(forceClosure > total / 4);
  QVERIFY(converged > total / 2);
}

void TstSupportMeasures::exactConeBudgetReportsBoundsHonestly() {
  const World w = graspedWorld(sg::test::qInSourceTree("worlds/default.xml"));
  AnalysisRequest request;
  request.measures = {"epsilon-exact", "epsilon-l1"};
  request.quality.exactConeMaxIterations = 30;  // far too few for a smooth set
  request.quality.exactConeRelativeGap = 1e-12;
  NullProgress progress;
  const AnalysisResult r = analyzeGrasp(w, request, progress);
  const MeasureValue& v = *r.primary()->measure("epsilon-exact");
  QVERIFY(v.ok && v.bounds);
  QVERIFY(!v.bounds->converged);
  QCOMPARE(v.value, v.bounds->lower);  // the certified value, not the optimistic one
  QVERIFY(v.bounds->gap() > 0);
  QVERIFY(QString::fromStdString(v.message).contains("gap"));
  QVERIFY(v.bounds->upper >= r.primary()->measure("epsilon-l1")->value - 1e-12);
}

// Moving every body of a bundled world (after G) by a random rigid motion changes no measure: contacts are
// found in relative poses, wrenches are formed in the object frame with tangents from the object frame.
void TstSupportMeasures::rigidMotionOfWholeWorld() {
  QFETCH(QString, world);
  const World grasped = graspedWorld(world);
  const std::vector<std::string> measures = {"epsilon-l1", "epsilon-linf", "epsilon-exact", "volume-l1",
                                             "volume-linf", "min-singular-value"};
  const AnalysisResult base = analyze(grasped, measures);
  std::mt19937 rng(static_cast<unsigned>(qHash(QFileInfo(world).fileName())));  // the same motions in every checkout
  int comparedContacts = 0;
  for (int k = 0; k < 4; ++k) {
    World moved = grasped;
    moveWholeWorld(moved, randomRigidMotion(rng));
    const AnalysisResult r = analyze(moved, measures);
    // Known defect: auto-grasp closes the jaws in 0.1 mm steps and stops them at d0 = 25.8 mm, where the pads
    // (51 − d0 = 25.2 mm from the middle) lie 0.2 mm from the box's faces (±25 mm): exactly the contact
    // threshold. The nine pad reports are at 0.2 − 1.1e-13 mm and pass detection's d < threshold by a few hundred
    // ulps; the moved world's coordinates (translations up to 800 mm, whose ulp is 1.1e-13) round by as much, so
    // some of them fall beyond the threshold (13 contacts become 12). Any strict threshold has this edge; making
    // detection invariant needs a scale-relative acceptance margin used alike by its culls, the pair screen and
    // the touching-point filter (src/geometry/README.md §Contact points).
    if (QFileInfo(world).fileName() == "paralleljaw_box.xml")
      QEXPECT_FAIL("paralleljaw_box.xml", "coplanar pad–face contacts change under a rigid motion", Abort);
    QCOMPARE(r.contacts.size(), base.contacts.size());
    QCOMPARE(r.graspable, base.graspable);
    if (!base.primary()) continue;
    const GraspEvaluation& a = *base.primary();
    const GraspEvaluation& b = *r.primary();
    QCOMPARE(b.contacts.size(), a.contacts.size());
    // The contacts' normals in the object frame are the same. (Positions too, except where two parallel faces
    // touch: their nearest points are not unique and detection may pick another point of the face, as on
    // the parallel jaw's box — ε there is 0 either way, two contacts being a flat set.)
    for (std::size_t i = 0; i < a.contacts.size(); ++i) {
      const Vec3 na = a.reference.objectPose.inverse().applyToVector(a.contacts[i].onObject().n_W);
      const Vec3 nb = b.reference.objectPose.inverse().applyToVector(b.contacts[i].onObject().n_W);
      QVERIFY((na - nb).norm() < 1e-9);
      QVERIFY(closeRelative(b.contacts[i].torsion_mm, a.contacts[i].torsion_mm, 1e-9));
    }
    // Every contact's wrenches (object frame) are the same: the frame rule itself (where the contact point
    // is the same; see above for parallel faces).
    for (std::size_t i = 0; i < a.contacts.size(); ++i) {
      const Vec3 pa = a.reference.objectPose.inverse() * a.contacts[i].onObject().p_WC_mm;
      const Vec3 pb = b.reference.objectPose.inverse() * b.contacts[i].onObject().p_WC_mm;
      // Where the point may differ (parallel faces), the force rows still must not: they hold the friction
      // edges, which the frame rule fixes in the object frame whatever the point.
      const bool samePoint = (pa - pb).norm() <= 1e-9 * std::max(1.0, pa.norm());
      ++comparedContacts;
      const auto& wa = a.contacts[i].wrenches;
      const auto& wb = b.contacts[i].wrenches;
      QCOMPARE(wb.size(), wa.size());
      for (std::size_t j = 0; j < wa.size(); ++j) {
        const double change = samePoint ? (wa[j] - wb[j]).norm() : (wa[j].head<3>() - wb[j].head<3>()).norm();
        QVERIFY2(change <= 1e-9 * std::max(1.0, wa[j].norm()),
                 qPrintable(QString("contact %1 wrench %2 moved by %3").arg(i).arg(j).arg(change)));
      }
    }
    for (const char* name : {"epsilon-l1", "epsilon-linf", "min-singular-value"}) {
      const double va = a.measure(name)->value, vb = b.measure(name)->value;
      QVERIFY2(closeRelative(va, vb, 1e-9),
               qPrintable(QString("%1, motion %2: %3 vs %4").arg(name).arg(k).arg(va, 0, 'g', 17).arg(vb, 0, 'g', 17)));
    }
    // Volumes to 1e-9 too, unless Qhull fell back to a joggled hull or merged facets on either side: QJ
    // perturbs its input randomly and grows the joggle on each retry, and a merged facet's vertices lie only
    // within the merge tolerance of its plane; on the five-finger grasp's near-degenerate set either moves
    // the volume by ~1e-3 relative for inputs equal to 1e-11 (the wrenches, ε and the contacts' torsion
    // above pin the frame rule to 1e-9). Flat sets have volume 0 up to round-off.
    auto approximate = [](const GraspWrenchSpace& x, const GraspWrenchSpace& y) {
      return x.hull.joggled || y.hull.joggled || x.hull.merged || y.hull.merged;
    };
    for (const auto& [name, joggled] : {std::pair{"volume-l1", approximate(a.l1, b.l1)},
                                        std::pair{"volume-linf", approximate(a.lInfinity, b.lInfinity)}}) {
      const double va = a.measure(name)->value, vb = b.measure(name)->value;
      QVERIFY2(std::abs(va - vb) <= (joggled ? 5e-3 : 1e-9) * std::max(std::abs(va), std::abs(vb)) + 1e-12,
               qPrintable(QString("%1, motion %2: %3 vs %4").arg(name).arg(k).arg(va, 0, 'g', 17).arg(vb, 0, 'g', 17)));
    }
    // The exact cones' ε is known to its gap: the two certified intervals overlap.
    const MeasureBounds& ea = *a.measure("epsilon-exact")->bounds;
    const MeasureBounds& eb = *b.measure("epsilon-exact")->bounds;
    const double slack = 1e-9 * std::max(std::abs(ea.upper), 1e-12);
    QVERIFY(ea.lower <= eb.upper + slack && eb.lower <= ea.upper + slack);
    // Both converged: the same ε to the gap. Round-off of some motions can stop the exact-cone solver short
    // ("no manifold horizon"); it then reports certified bounds, which the overlap above checks.
    if (ea.converged && eb.converged)
      QVERIFY(std::abs(a.measure("epsilon-exact")->value - b.measure("epsilon-exact")->value) <=
              std::max(ea.upper - ea.lower, eb.upper - eb.lower) + slack);
    else if (ea.converged != eb.converged)
      qInfo("motion %d: exact-cone ε converged on one side only: %s | %s", k, a.measure("epsilon-exact")->message.c_str(),
            b.measure("epsilon-exact")->message.c_str());
  }
  // Some contacts had their wrenches compared (a world without contacts skips all of the above).
  QVERIFY(comparedContacts > 0 || grasped.graspables.empty() || !base.primary() || base.primary()->contacts.empty());
}

// A contact's friction edges turn with the object, not with the world: the same object-frame contact seen
// in a world rotated about z gives the same object-frame wrenches.
void TstSupportMeasures::tangentFramesComeFromTheObjectFrame() {
  ContactSide side;
  side.p_WC_mm = Vec3(10, 20, -5);
  side.n_W = Vec3(0.3, -0.2, 0.9).normalized();
  WrenchReference ref;
  ref.objectPose = Transform(Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized())), Vec3(5, 6, 7));
  ref.torqueScale_mm = 40;
  const std::vector<Vec6> edges = pointContactEdges(8);
  const std::vector<Vec6> w0 = contactWrenches(side, 0.5, edges, ref);
  const Transform X(Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ())), Vec3(100, -50, 20));
  ContactSide movedSide = side;
  movedSide.p_WC_mm = X * side.p_WC_mm;
  movedSide.n_W = X.applyToVector(side.n_W);
  WrenchReference movedRef = ref;
  movedRef.objectPose = X * ref.objectPose;
  const std::vector<Vec6> w1 = contactWrenches(movedSide, 0.5, edges, movedRef);
  QCOMPARE(w1.size(), w0.size());
  for (std::size_t j = 0; j < w0.size(); ++j) QVERIFY((w1[j] - w0[j]).norm() < 1e-12);
  // GraspIt!'s rule: t_x = normalise(n_O × x̂_O) with n_O the normal in the object frame.
  const Transform frame = objectContactFrame(side, ref.objectPose);
  const Vec3 n_O = ref.objectPose.inverse().applyToVector(side.n_W);
  QVERIFY((frame.rotationMatrix().col(0) - n_O.cross(Vec3::UnitX()).normalized()).norm() < 1e-12);
  QVERIFY((frame.rotationMatrix().col(2) - n_O).norm() < 1e-12);
}

QTEST_MAIN(TstSupportMeasures)
#include "tst_support_measures.moc"
