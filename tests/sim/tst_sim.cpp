// Physics trials (src/sim/README.md): analytic friction thresholds on the ParallelJaw and a box, free fall, mirror
// symmetry, the model's mass properties and limits as MuJoCo compiled them, determinism and bad input.
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <Eigen/Eigenvalues>

#include "core/Error.h"
#include "core/Progress.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "sim/CollisionPrefilter.h"
#include "sim/ConvexPieces.h"
#include "sim/PairList.h"
#include "sim/PhysicsTrial.h"
#include "sim/SimModel.h"
#include "sim/SimUnits.h"
#include "sim/TrialJson.h"
#include "../support/ErrorOf.h"
#include "../support/ScopedCacheDir.h"
#include "../support/TestPaths.h"

using namespace sg;
using namespace sg::sim;

namespace {

constexpr double kG = 9.81;

void closeHand(World& w) {
  AnalysisRequest request;
  request.motion.fingers = FingerMotion::Close;
  request.contactModels.clear();
  request.measures.clear();
  NullProgress progress;
  runAnalysis(w, request, progress);
}

// The ParallelJaw closed on the 50 × 70 × 90 mm box (worlds/paralleljaw_box.xml) with DOF effort `effort_N`,
// friction μ between jaws and box, and the box's mass. The jaws' rubber pads are soft (1 MPa) so the contact has
// a Hertz patch and torsional friction.
World jawWorld(double effort_N, double mu, double mass_g, bool close = true) {
  World w = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
  Robot& jaw = w.robots[0];
  jaw.dofs[0].maxEffort = effort_N / kNewtonsPerEffortUnitPrismatic;
  for (Chain& c : jaw.chains)
    for (Link& l : c.links) l.body.youngs_Pa = 1e6;
  Body& box = w.graspables[0];
  box.mass_g = mass_g;
  const int a = *w.materials.indexOf(jaw.chains[0].links[0].body.material);
  const int b = *w.materials.indexOf(box.material);
  w.materials.setFriction(a, b, mu, mu);
  if (close) closeHand(w);
  return w;
}

TrialSettings shortSettings(const std::string& directions) {
  TrialSettings s;
  s.settle_s = 0.2;
  s.duration_s = 0.5;
  s.directions = parseDirections(directions);
  return s;
}

TrialResult trial(const World& w, const TrialSettings& s, int robot = 0) {
  NullProgress progress;
  return runTrial(w, w.state, {robot, 0, s}, progress);
}

// MjcfBuilder's body of chain c's joint j: "c2j1" (appended: gcc 12 warns falsely on "c" + std::to_string chains).
std::string jointBody(std::size_t c, std::size_t j) {
  std::string out = "c";
  out += std::to_string(c);
  out += 'j';
  out += std::to_string(j);
  return out;
}

using sg::test::errorOf;

// The first difference between two trials' recorded samples (bit for bit: the object's pose, the DOF values, per
// hand body the contact force, its point, normal force, slip and contact count), "" when there is none.
QString trajectoryDifference(const TrialResult& a, const TrialResult& b) {
  auto phase = [](const std::vector<TrialSample>& x, const std::vector<TrialSample>& y) -> QString {
    if (x.size() != y.size()) return QString("%1 samples against %2").arg(x.size()).arg(y.size());
    for (std::size_t k = 0; k < x.size(); ++k) {
      const TrialSample &p = x[k], &q = y[k];
      if (p.t_s != q.t_s || p.X_PO.translation() != q.X_PO.translation() ||
          p.X_PO.rotation().coeffs() != q.X_PO.rotation().coeffs() || p.dofValues != q.dofValues ||
          p.displacement_mm != q.displacement_mm || p.rotation_deg != q.rotation_deg || p.links.size() != q.links.size())
        return QString("sample %1: pose, DOFs or displacement").arg(k);
      for (std::size_t l = 0; l < p.links.size(); ++l) {
        const LinkContactSample &u = p.links[l], &v = q.links[l];
        if (u.force_W_N != v.force_W_N || u.p_W_mm != v.p_W_mm || u.normal_N != v.normal_N ||
            u.slip_mm_s != v.slip_mm_s || u.contacts != v.contacts)
          return QString("sample %1, body %2: contacts").arg(k).arg(l);
      }
    }
    return {};
  };
  if (const QString d = phase(a.settle, b.settle); !d.isEmpty()) return "settle: " + d;
  if (a.directions.size() != b.directions.size()) return "number of directions";
  for (std::size_t i = 0; i < a.directions.size(); ++i)
    if (const QString d = phase(a.directions[i].samples, b.directions[i].samples); !d.isEmpty())
      return QString::fromStdString(a.directions[i].direction.name()) + ": " + d;
  if (trialSummaryJson(a).dump() != trialSummaryJson(b).dump()) return "summary";
  return {};
}

// Steps the world's trial model with the pair list (PairList.h) and without it side by side: `steps` steps of
// settling, then as many pulled along the world's x by ten times the object's weight. Returns the first
// difference in the contacts (every field MuJoCo's collision fills in) or the state, "" when there is none;
// `contacts` counts the contacts seen, `stats` is the list's use. `slotCount` < 0 keeps the model's slots.
// `drive` (6 numbers: the object's velocity in the world, m/s, and its angular velocity, rad/s), when given, is
// the object's velocity set before every pulled step (it is driven through the hand).
QString lockstepDifference(const World& w, int steps, int slotCount, long& contacts, PairList::Stats& stats,
                           const mjtNum* drive = nullptr) {
  TrialSettings on, off;
  off.pairList = false;
  SimLayout listed = buildMjcf(w, w.state, 0, 0, on);
  if (slotCount >= 0) listed.pairSlots = slotCount;
  SimModel a(std::move(listed)), b(buildMjcf(w, w.state, 0, 0, off));
  const mjModel *ma = a.model(), *mb = b.model();
  mjData *da = a.data(), *db = b.data();
  contacts = 0;
  for (int k = 0; k < 2 * steps; ++k) {
    if (k == steps)
      for (SimModel* sim : {&a, &b}) sim->data()->xfrc_applied[6 * sim->objectBody()] = 10 * ma->body_mass[a.objectBody()] * kG;
    for (SimModel* sim : {&a, &b}) {
      const int dof = ma->jnt_dofadr[ma->body_jntadr[sim->objectBody()]];
      for (int i = 0; drive && k >= steps && i < 6; ++i) sim->data()->qvel[dof + i] = drive[i];
    }
    a.step();
    b.step();
    const QString at = QStringLiteral("step %1: ").arg(k);
    if (da->ncon != db->ncon) return at + QStringLiteral("%1 contacts against %2").arg(da->ncon).arg(db->ncon);
    for (int c = 0; c < da->ncon; ++c) {
      const mjContact &x = da->contact[c], &y = db->contact[c];
      const bool same = x.geom1 == y.geom1 && x.geom2 == y.geom2 && x.dim == y.dim && x.dist == y.dist &&
                        x.includemargin == y.includemargin && x.exclude == y.exclude &&
                        std::equal(x.pos, x.pos + 3, y.pos) && std::equal(x.frame, x.frame + 9, y.frame) &&
                        std::equal(x.friction, x.friction + 5, y.friction) &&
                        std::equal(x.solref, x.solref + mjNREF, y.solref) &&
                        std::equal(x.solimp, x.solimp + mjNIMP, y.solimp);
      if (!same)
        return at + QStringLiteral("contact %1 differs (geoms %2-%3 dim %4 against %5-%6 dim %7)")
                        .arg(c).arg(x.geom1).arg(x.geom2).arg(x.dim).arg(y.geom1).arg(y.geom2).arg(y.dim);
    }
    contacts += da->ncon;
    if (!std::equal(da->qpos, da->qpos + ma->nq, db->qpos) || !std::equal(da->qvel, da->qvel + ma->nv, db->qvel))
      return at + QStringLiteral("state differs");
  }
  Q_UNUSED(mb);
  stats = a.pairList().stats();
  return {};
}

}  // namespace

class TestSim : public QObject {
  Q_OBJECT

 private slots:
  // Gravity along the pads: the two pads' friction μ·N each, with the DOF's effort F shared by both jaws through
  // the coupling (README.md §Actuators: N = F/2 per pad), holds 2μ(F/2)·... — the form 2μF ≥ 2mg with
  // a factor 2 to spare, and 2μF ≤ mg/2 drops.
  void jawHoldsAboveThreshold() {
    const double F = 20, mu = 0.5;
    const double m_g = 2 * mu * F / (4 * kG) * 1000;  // 2μF = 4mg
    const World w = jawWorld(F, mu, m_g);
    const TrialResult r = trial(w, shortSettings("z-,y+"));
    QCOMPARE(r.directions.size(), std::size_t{2});
    for (const DirectionTrial& d : r.directions) {
      QVERIFY2(d.held, qPrintable(QString::fromStdString(d.direction.name()) + " moved " +
                                  QString::number(d.displacement_mm) + " mm, " + QString::number(d.rotation_deg) + " deg"));
      QVERIFY(d.displacement_mm < 2);
    }
    // Both pads press: the normal force per pad is F/2 (virtual work of one DOF driving both jaws).
    const TrialSample& last = r.directions[0].samples.back();
    double normal_N = 0;
    int touching = 0;
    for (const LinkContactSample& l : last.links) {
      normal_N += l.normal_N;
      touching += l.contacts > 0;
    }
    QCOMPARE(touching, 2);
    QVERIFY2(std::abs(normal_N - F) < 0.1 * F, qPrintable(QString::number(normal_N)));
    QCOMPARE(r.score(), 1.0);
    // Where each pad's force acts (p_W_mm): on opposite faces of the box, one of its extents (50, 70, 90 mm) apart,
    // each pad pushing towards the other.
    std::vector<const LinkContactSample*> pads;
    for (const LinkContactSample& l : last.links)
      if (l.contacts > 0) pads.push_back(&l);
    const Vec3 across = pads[1]->p_W_mm - pads[0]->p_W_mm;
    const double gap_mm = across.norm();
    QVERIFY2(std::min({std::abs(gap_mm - 50), std::abs(gap_mm - 70), std::abs(gap_mm - 90)}) < 2,
             qPrintable(QString::number(gap_mm)));
    QVERIFY(pads[0]->force_W_N.dot(across) > 0.9 * pads[0]->force_W_N.norm() * gap_mm);
    QVERIFY(pads[1]->force_W_N.dot(-across) > 0.9 * pads[1]->force_W_N.norm() * gap_mm);
  }

  void jawDropsBelowThreshold() {
    const double F = 20, mu = 0.5;
    const double m_g = 4 * mu * F / kG * 1000;  // 2μF = mg/2
    const World w = jawWorld(F, mu, m_g);
    const TrialResult r = trial(w, shortSettings("z-,y+"));
    for (const DirectionTrial& d : r.directions) {
      QVERIFY2(!d.held, qPrintable(QString::fromStdString(d.direction.name())));
      QVERIFY(d.displacement_mm >= 10);
      // Sliding under a net force of mg − μF ≥ 3/4·mg the box goes at least a quarter of free fall's distance.
      const double t = r.settings.duration_s;
      QVERIFY(d.finalDisplacement_mm > 0.25 * 0.5 * 0.75 * kG * t * t * 1000);
    }
    QCOMPARE(r.score(), 0.0);
  }

  // The hand 3 m to the side of the box: closing grasps nothing, every direction falls freely (½·g·t² after t,
  // less than 3 m).
  void freeFallFailsEveryDirection() {
    World w = jawWorld(20, 0.5, 180, /*close=*/false);
    Transform X_WP = w.state.robots[0].X_WP;
    X_WP.setTranslation(X_WP.translation() + Vec3(3000, 0, 0));
    setRobotPose(w.robots[0], w.state.robots[0], X_WP);
    TrialSettings s = shortSettings("all");
    const TrialResult r = trial(w, s);
    QCOMPARE(r.directions.size(), std::size_t{6});
    for (const DirectionTrial& d : r.directions) {
      QVERIFY(!d.held);
      const double expected_mm = 0.5 * kG * s.duration_s * s.duration_s * 1000;
      QVERIFY2(std::abs(d.finalDisplacement_mm - expected_mm) < 0.01 * expected_mm,
               qPrintable(QString::number(d.finalDisplacement_mm) + " vs " + QString::number(expected_mm)));
      QVERIFY(d.rotation_deg < 1e-6);
    }
    QCOMPARE(r.score(), 0.0);
    // Without a hand at all, the same.
    const TrialResult none = trial(w, shortSettings("x+"), -1);
    QVERIFY(!none.directions[0].held);
    QVERIFY(none.bodyLabels.empty());
  }

  // The jaw-and-box grasp is symmetric under y → −y: pulls along y+ and y− mirror each other.
  void symmetricGraspMirrors() {
    const double F = 20, mu = 0.5;
    const double m_g = 2 * mu * F / kG * 1000;  // 2μF = 2mg·... slides: weight twice the friction capacity
    const World w = jawWorld(F, mu, m_g);
    const TrialResult r = trial(w, shortSettings("y+,y-"));
    const auto& a = r.directions[0].samples;
    const auto& b = r.directions[1].samples;
    QCOMPARE(a.size(), b.size());
    QVERIFY(r.directions[0].finalDisplacement_mm > 1);  // it does move, so the comparison says something
    for (std::size_t i = 0; i < a.size(); ++i) {
      const Vec3 pa = a[i].X_PO.translation(), pb = b[i].X_PO.translation();
      const Vec3 p0 = a[0].X_PO.translation();
      // Mirror across the palm's y through the settled pose: y − y0 flips sign, x and z agree.
      QVERIFY2(std::abs((pa.y() - p0.y()) + (pb.y() - p0.y())) < 0.02 * std::max(1.0, std::abs(pa.y() - p0.y())),
               qPrintable(QString::number(pa.y() - p0.y()) + " vs " + QString::number(pb.y() - p0.y())));
      QVERIFY(std::abs(a[i].displacement_mm - b[i].displacement_mm) < 0.02 * std::max(1.0, a[i].displacement_mm));
    }
    QCOMPARE(r.directions[0].held, r.directions[1].held);
  }

  // Mass, inertia and joint limits as MuJoCo compiled them, against the robot and object files.
  void massInertiaAndLimitsRoundTrip() {
    const World w = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    TrialSettings s;
    SimModel sim(buildMjcf(w, w.state, 0, 0, s));
    const mjModel* m = sim.model();
    const Robot& robot = w.robots[0];
    auto checkBody = [&](const Body& body, int id) {
      QVERIFY(std::abs(m->body_mass[id] - body.mass_g * 1e-3) <= 1e-12 * body.mass_g);
      Eigen::SelfAdjointEigenSolver<Mat3> eig(body.inertiaPerMass_mm2 * body.mass_g * 1e-9);
      Vec3 expected = eig.eigenvalues();
      Vec3 got(m->body_inertia[3 * id], m->body_inertia[3 * id + 1], m->body_inertia[3 * id + 2]);
      std::sort(expected.data(), expected.data() + 3);
      std::sort(got.data(), got.data() + 3);
      QVERIFY2((expected - got).norm() <= 1e-9 * expected.norm(),
               qPrintable(QString::number(expected.x()) + " " + QString::number(got.x())));
    };
    checkBody(w.graspables[0], sim.objectBody());
    checkBody(robot.palm, sim.palmBody());
    int links = 0;
    for (std::size_t c = 0; c < robot.chains.size(); ++c)
      for (std::size_t l = 0; l < robot.chains[c].links.size(); ++l) {
        const int lastJoint = robot.chains[c].links[l].lastJoint;
        checkBody(robot.chains[c].links[l].body,
                  sim.bodyId(jointBody(c, static_cast<std::size_t>(lastJoint))));
        ++links;
      }
    QCOMPARE(links, static_cast<int>(robot.linkCount()));
    int joints = 0;
    for (std::size_t c = 0; c < robot.chains.size(); ++c)
      for (std::size_t j = 0; j < robot.chains[c].joints.size(); ++j) {
        const Joint& jt = robot.chains[c].joints[j];
        const int id = sim.jointId(jointBody(c, j) + "_joint");
        QVERIFY(m->jnt_limited[id]);
        const double lo = std::min(jt.minValue, jt.maxValue) + jt.expr.offset;
        const double hi = std::max(jt.minValue, jt.maxValue) + jt.expr.offset;
        QVERIFY(std::abs(m->jnt_range[2 * id] - lo) < 1e-12);
        QVERIFY(std::abs(m->jnt_range[2 * id + 1] - hi) < 1e-12);
        ++joints;
      }
    // One actuator per DOF, the coupled joints tied by equality constraints: joints − DOFs of them.
    QCOMPARE(m->nu, static_cast<int>(robot.dofCount()));
    QCOMPARE(m->neq, joints - static_cast<int>(robot.dofCount()));
    QCOMPARE(m->opt.cone, int{mjCONE_ELLIPTIC});
    // The mug stood on its pieces; the palm and links at the state's pose: the object's pose in MuJoCo matches.
    const Transform X_WG = w.state.X_WG[0];
    const mjtNum* p = sim.data()->xpos + 3 * sim.objectBody();
    QVERIFY((Vec3(p[0], p[1], p[2]) * 1000 - X_WG.translation()).norm() < 1e-9);
  }

  // Prismatic units: the jaw's 0..50 mm travel is 0..0.05 m, its effort F N a force range of ±F.
  void jawUnitsRoundTrip() {
    const World w = jawWorld(20, 0.5, 180, false);
    SimModel sim(buildMjcf(w, w.state, 0, 0, TrialSettings{}));
    const mjModel* m = sim.model();
    const int left = sim.jointId("c0j0_joint");
    QCOMPARE(m->jnt_type[left], int{mjJNT_SLIDE});
    QVERIFY(std::abs(m->jnt_range[2 * left + 1] - 0.05) < 1e-15);
    QCOMPARE(m->actuator_forcerange[1], 20.0);
    QVERIFY(std::abs(m->body_mass[sim.objectBody()] - 0.18) < 1e-15);
  }

  void deterministic() {
    const World w = jawWorld(20, 0.5, 800);
    const TrialSettings s = shortSettings("x+,z-");
    const TrialResult a = trial(w, s), b = trial(w, s);
    QCOMPARE(a.directions.size(), b.directions.size());
    for (std::size_t i = 0; i < a.directions.size(); ++i) {
      const auto& sa = a.directions[i].samples;
      const auto& sb = b.directions[i].samples;
      QCOMPARE(sa.size(), sb.size());
      for (std::size_t k = 0; k < sa.size(); ++k) {
        QVERIFY(sa[k].X_PO.translation() == sb[k].X_PO.translation());
        QVERIFY(sa[k].X_PO.rotation().coeffs() == sb[k].X_PO.rotation().coeffs());
        for (std::size_t l = 0; l < sa[k].links.size(); ++l) QVERIFY(sa[k].links[l].force_W_N == sb[k].links[l].force_W_N);
      }
    }
    QCOMPARE(trialSummaryJson(a).dump(), trialSummaryJson(b).dump());
  }

  // runTrial on a model built beforehand (how bench_sim times the build and the simulation apart) is the
  // one-call runTrial bit for bit, on a fresh model and on the same model reset after a trial; a model built for
  // another request, or stepped since its reset, is refused.
  void trialOnBuiltModel() {
    World sphereWorld = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    closeHand(sphereWorld);
    const World jaw = jawWorld(20, 0.5, 800);
    const TrialSettings s = shortSettings("x+,z-");
    NullProgress progress;
    for (const World* w : {static_cast<const World*>(&sphereWorld), &jaw}) {
      const TrialResult whole = trial(*w, s);
      SimModel sim(buildMjcf(*w, w->state, 0, 0, s));
      const TrialResult fresh = runTrial(sim, *w, w->state, {0, 0, s}, progress);
      const QString name = QString::fromStdString(w->sourceFile);
      QVERIFY2(trajectoryDifference(whole, fresh).isEmpty(), qPrintable(name + ": " + trajectoryDifference(whole, fresh)));
      int contacts = 0;
      for (const TrialSample& k : fresh.settle)
        for (const LinkContactSample& l : k.links) contacts += l.contacts;
      QVERIFY(contacts > 0);  // the hand holds the object: the comparison covers contacts

      const QString stepped = errorOf([&] { runTrial(sim, *w, w->state, {0, 0, s}, progress); });
      QVERIFY2(stepped.contains("stepped"), qPrintable(stepped));
      sim.reset();
      const TrialResult again = runTrial(sim, *w, w->state, {0, 0, s}, progress);
      QVERIFY2(trajectoryDifference(whole, again).isEmpty(), qPrintable(name + ": " + trajectoryDifference(whole, again)));

      sim.reset();
      TrialSettings coarse = s;
      coarse.timestep_s = 2 * s.timestep_s;
      QVERIFY(errorOf([&] { runTrial(sim, *w, w->state, {0, 0, coarse}, progress); }).contains("other settings"));
      TrialSettings unlisted = s;
      unlisted.pairList = false;
      QVERIFY(errorOf([&] { runTrial(sim, *w, w->state, {0, 0, unlisted}, progress); }).contains("other settings"));
      QVERIFY(errorOf([&] { runTrial(sim, *w, w->state, {-1, 0, s}, progress); }).contains("built for robot 0"));
      TrialSettings nan = s;
      nan.duration_s = std::numeric_limits<double>::quiet_NaN();
      QVERIFY(errorOf([&] { runTrial(sim, *w, w->state, {0, 0, nan}, progress); }).contains("duration_s"));
    }
  }

  // MuJoCo's arena (src/sim/MjcfBuilder.h): a trial in the compact arena is the same bit for bit as in the full
  // one when it does not overflow (the mug's 43 pieces, the sphere, the jaw and box), and one that overflows (room
  // for a single contact) runs again in the full arena, with the full arena's result; a model built smaller that
  // overflows is refused by the runTrial that takes a model.
  void compactArenaChangesNothing() {
    World mug = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    closeHand(mug);
    World sphere = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    closeHand(sphere);
    const World jaw = jawWorld(20, 0.5, 800);
    const TrialSettings s = shortSettings("x+,z-");
    NullProgress progress;
    for (const World* w : {static_cast<const World*>(&mug), static_cast<const World*>(&sphere), &jaw}) {
      const QString name = QString::fromStdString(w->sourceFile);
      SimModel full(buildMjcf(*w, w->state, 0, 0, s, kFullContactCapacity));
      QCOMPARE(full.model()->nconmax, kFullContactCapacity);
      QCOMPARE(full.model()->njmax, 4 * kFullContactCapacity);
      const TrialResult inFull = runTrial(full, *w, w->state, {0, 0, s}, progress);
      QVERIFY(!full.arenaOverflowed());
      const TrialResult compact = runTrial(*w, w->state, {0, 0, s}, progress);
      QVERIFY2(!compact.fullArena, qPrintable(name));
      QVERIFY2(trajectoryDifference(inFull, compact).isEmpty(), qPrintable(name + ": " + trajectoryDifference(inFull, compact)));
    }
    SimModel full(buildMjcf(jaw, jaw.state, 0, 0, s, kFullContactCapacity));
    const TrialResult inFull = runTrial(full, jaw, jaw.state, {0, 0, s}, progress);
    const TrialResult retried = trialCompactFirst(jaw, jaw.state, {0, 0, s}, progress, 1);
    QVERIFY(retried.fullArena);
    QVERIFY2(trajectoryDifference(inFull, retried).isEmpty(), qPrintable(trajectoryDifference(inFull, retried)));
    SimModel tiny(buildMjcf(jaw, jaw.state, 0, 0, s, 1));
    QCOMPARE(tiny.model()->njmax, 4);
    const QString overflow = errorOf([&] { runTrial(tiny, jaw, jaw.state, {0, 0, s}, progress); });
    QVERIFY2(overflow.contains("out of room"), qPrintable(overflow));
    QVERIFY(errorOf([&] { buildMjcf(jaw, jaw.state, 0, 0, s, 0); }).contains("room for 0 contacts"));
  }

  // The collision prefilter (src/sim/README.md §Collision prefilter) only skips pairs that cannot touch: with it
  // and without it the trial is the same bit for bit, on the jaw and box (box–box pairs) and on the ThreeFinger
  // closed on the sphere (its links' convex pieces, mesh–sphere pairs).
  void collisionPrefilterChangesNothing() {
    World sphereWorld = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    closeHand(sphereWorld);
    {
      TrialSettings on = shortSettings("x+,z-"), off = on;
      off.collisionPrefilter = false;
      const TrialResult a = trial(sphereWorld, on), b = trial(sphereWorld, off);
      QCOMPARE(a.directions.size(), b.directions.size());
      int contacts = 0;
      for (std::size_t i = 0; i < a.directions.size(); ++i) {
        const auto& sa = a.directions[i].samples;
        const auto& sb = b.directions[i].samples;
        QCOMPARE(sa.size(), sb.size());
        for (std::size_t k = 0; k < sa.size(); ++k) {
          QVERIFY(sa[k].X_PO.translation() == sb[k].X_PO.translation());
          QVERIFY(sa[k].X_PO.rotation().coeffs() == sb[k].X_PO.rotation().coeffs());
          for (std::size_t l = 0; l < sa[k].links.size(); ++l) {
            QVERIFY(sa[k].links[l].force_W_N == sb[k].links[l].force_W_N);
            QCOMPARE(sa[k].links[l].contacts, sb[k].links[l].contacts);
            contacts += sa[k].links[l].contacts;
          }
        }
      }
      QVERIFY(contacts > 0);  // the hand touches the object, so the comparison covers contacts
    }
    const World jaw = jawWorld(20, 0.5, 800);
    TrialSettings on = shortSettings("x+,z-"), off = on;
    off.collisionPrefilter = false;
    QCOMPARE(trialSummaryJson(trial(jaw, on)).dump(), trialSummaryJson(trial(jaw, off)).dump());
  }

  // The pair list (src/sim/README.md §Pair list) gives MuJoCo the same contacts in the same order as its own
  // broad phase and geom-pair loop, so the same trajectory bit for bit: stepped side by side on the ThreeFinger
  // closed on the mug (43 convex pieces, mesh pairs), on the sphere (primitive pairs) and on the jaw and box
  // (box–box pairs), settling and then pulled; and with one slot fewer than the most pairs a step listed, where
  // a step with more pairs to test runs MuJoCo's own loop.
  void pairListChangesNothing() {
    World mug = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    closeHand(mug);
    World sphere = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    closeHand(sphere);
    const World jaw = jawWorld(20, 0.5, 800);
    for (const World* w : {static_cast<const World*>(&mug), static_cast<const World*>(&sphere), &jaw}) {
      long contacts = 0;
      PairList::Stats stats;
      const QString diff = lockstepDifference(*w, 150, -1, contacts, stats);
      QVERIFY2(diff.isEmpty(), qPrintable(QString::fromStdString(w->sourceFile) + ": " + diff));
      QVERIFY(contacts > 0);             // the hand holds the object: the comparison covers contacts
      QCOMPARE(stats.listed, 301L);      // every step ran with the list (and the forward pass of the reset)
      QCOMPARE(stats.dynamic, 0L);
      QVERIFY(stats.largest > 0);
      QVERIFY(stats.kept > 0);           // a list served several steps
      if (w == &mug) QVERIFY(stats.listed > stats.kept + stats.scratch);  // and some were chosen from d's poses
    }
    long contacts = 0;
    PairList::Stats all, fewer;
    QVERIFY(lockstepDifference(mug, 150, -1, contacts, all).isEmpty());
    QVERIFY(all.largest > 1);
    const QString diff = lockstepDifference(mug, 150, all.largest - 1, contacts, fewer);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(fewer.dynamic > 0);          // the steps with the most pairs to test fell back to MuJoCo's loop
    QVERIFY(fewer.listed > 0);           // the others used the slots
    QCOMPARE(fewer.listed + fewer.dynamic, 301L);
  }

  // The pair list keeps a list while its bound of the bodies' motion stays within the slack and chooses anew
  // otherwise: the mug driven through the closed hand at 1.04 m/s and 29 rad/s (over 2 mm a step, more than the
  // slack, so every such step chooses its own list) steps as MuJoCo's own loop does, contact for contact.
  void pairListFastObject() {
    World mug = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    closeHand(mug);
    const mjtNum drive[6] = {0.6, -0.8, 0.3, 10, -25, 12};
    long contacts = 0;
    PairList::Stats stats;
    const QString diff = lockstepDifference(mug, 150, -1, contacts, stats, drive);
    QVERIFY2(diff.isEmpty(), qPrintable(diff));
    QVERIFY(contacts > 0);
    QCOMPARE(stats.dynamic, 0L);
    QVERIFY(stats.kept > 0);  // while settling
    const QString counts = QStringLiteral("listed %1, kept %2, from scratch kinematics %3")
                               .arg(stats.listed).arg(stats.kept).arg(stats.scratch);
    QVERIFY2(stats.scratch >= 150, qPrintable(counts));  // every driven step moved more than the slack
    QVERIFY2(stats.listed - stats.kept >= 150, qPrintable(counts));
  }

  // PairList::motionBound holds every move: the ThreeFinger closed on the mug (hinges) and the ParallelJaw on the
  // box (slides), their grasped positions against copies with every joint turned or slid and the object moved and
  // turned (random, seeded), each placed by MuJoCo's kinematics; the largest move of a geom centre, prefilter box corner or body origin of the two bodies
  // that moved most is within the bound. The object moved without a turn: the bound is that distance.
  void pairListMotionBound() {
    World mug = loadWorld(sg::test::inSourceTree("worlds/default.xml"));
    closeHand(mug);
    const World jaw = jawWorld(20, 0.5, 800);
    for (const World* w : {static_cast<const World*>(&mug), &jaw}) {
      const SimModel sim(buildMjcf(*w, w->state, 0, 0, TrialSettings{}));
      const mjModel* m = sim.model();
      const PairList& list = sim.pairList();
      if (w == &jaw) QVERIFY(std::count(m->jnt_type, m->jnt_type + m->njnt, int{mjJNT_SLIDE}) > 0);
      const std::unique_ptr<mjData, void (*)(mjData*)> dataA(mj_makeData(m), mj_deleteData),
          dataB(mj_makeData(m), mj_deleteData);
      mjData* a = dataA.get();
      mjData* b = dataB.get();
      std::mt19937 rng(38);
      std::uniform_real_distribution<double> u(-1.0, 1.0);
      const int object = sim.objectBody(), freeAdr = m->jnt_qposadr[m->body_jntadr[object]];
      // Every point the bound covers, world frame: body origins, geom centres and the 8 corners of each geom's box.
      auto points = [m](const mjData* d, int body) {
        std::vector<Vec3> out{Vec3(d->xpos[3 * body], d->xpos[3 * body + 1], d->xpos[3 * body + 2])};
        for (int g = m->body_geomadr[body]; g < m->body_geomadr[body] + m->body_geomnum[body]; ++g) {
          const mjtNum* box = m->geom_user + kGeomBoxUserSize * g;
          for (int corner = 0; corner < 9; ++corner) {
            mjtNum local[3] = {0, 0, 0}, world[3];
            for (int k = 0; corner < 8 && k < 3; ++k)
              local[k] = box[k] + ((corner >> k) & 1 ? box[3 + k] : -box[3 + k]);
            mju_mulMatVec(world, d->geom_xmat + 9 * g, local, 3, 3);
            const mjtNum* centre = d->geom_xpos + 3 * g;
            out.emplace_back(world[0] + centre[0], world[1] + centre[1], world[2] + centre[2]);
          }
        }
        return out;
      };
      for (int trial = 0; trial < 40; ++trial) {
        std::copy_n(sim.data()->qpos, m->nq, a->qpos);
        std::copy_n(a->qpos, m->nq, b->qpos);
        const bool translateOnly = trial % 4 == 0;
        for (int j = 0; j < m->njnt && !translateOnly; ++j) {
          const int adr = m->jnt_qposadr[j];
          if (m->jnt_type[j] == mjJNT_HINGE) b->qpos[adr] += 0.2 * u(rng);
          if (m->jnt_type[j] == mjJNT_SLIDE) b->qpos[adr] += 0.004 * u(rng);
        }
        for (int k = 0; k < 3; ++k) b->qpos[freeAdr + k] += 0.01 * u(rng);
        if (!translateOnly) {
          const mjtNum axis[3] = {u(rng), u(rng), u(rng)};
          mjtNum turn[4], turned[4];
          mju_axisAngle2Quat(turn, axis, 0.5 * u(rng));
          mju_mulQuat(turned, turn, b->qpos + freeAdr + 3);
          std::copy_n(turned, 4, b->qpos + freeAdr + 3);
        }
        const std::vector<mjtNum> qa(a->qpos, a->qpos + m->nq), qb(b->qpos, b->qpos + m->nq);
        const mjtNum bound = list.motionBound(m, qa.data(), qb.data());
        mj_kinematics(m, a);
        mj_kinematics(m, b);
        std::vector<double> moved;
        for (int body = 1; body < m->nbody; ++body) {
          if (m->body_geomnum[body] == 0) continue;
          const std::vector<Vec3> pa = points(a, body), pb = points(b, body);
          double most = 0;
          for (std::size_t i = 0; i < pa.size(); ++i) most = std::max(most, (pb[i] - pa[i]).norm());
          moved.push_back(most);
        }
        std::sort(moved.rbegin(), moved.rend());
        QVERIFY(moved.size() >= 2);
        const QString where = QString::fromStdString(w->sourceFile) + QStringLiteral(", trial %1").arg(trial);
        QVERIFY2(moved[0] + moved[1] <= bound,
                 qPrintable(where + QStringLiteral(": moved %1 m, bound %2 m").arg(moved[0] + moved[1]).arg(bound)));
        if (translateOnly) {
          const Vec3 shift(qb[freeAdr] - qa[freeAdr], qb[freeAdr + 1] - qa[freeAdr + 1],
                           qb[freeAdr + 2] - qa[freeAdr + 2]);
          QVERIFY(std::abs(bound - shift.norm()) < 1e-10);
          QVERIFY(std::abs(moved[0] - shift.norm()) < 1e-12);
        }
      }
    }
  }

  // The boxes the prefilter tests, read back from the compiled model: the 50 × 70 × 90 mm box object's box is the
  // object itself; a mesh piece's box (the ThreeFinger's links) holds every vertex of the piece; without the
  // prefilter no box bounds anything.
  void collisionPrefilterBoxes() {
    const World jaw = jawWorld(20, 0.5, 180, false);
    const World hand = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    int boxes = 0, meshes = 0;
    for (const World* w : {&jaw, &hand})
      for (const bool enabled : {true, false}) {
        TrialSettings s;
        s.collisionPrefilter = enabled;
        SimModel sim(buildMjcf(*w, w->state, 0, 0, s));
        const mjModel* m = sim.model();
        QCOMPARE(m->nuser_geom, kGeomBoxUserSize);
        for (int g = 0; g < m->ngeom; ++g) {
          const mjtNum* box = m->geom_user + kGeomBoxUserSize * g;
          if (!enabled) {
            QVERIFY(std::min({box[3], box[4], box[5]}) >= 1e20);
            continue;
          }
          if (w == &jaw && m->geom_bodyid[g] == sim.objectBody()) {
            QCOMPARE(m->geom_type[g], int{mjGEOM_BOX});
            Vec3 half(box[3], box[4], box[5]);
            std::sort(half.data(), half.data() + 3);
            QVERIFY((half - Vec3(0.025, 0.035, 0.045)).norm() < 1e-12);
            QVERIFY(Vec3(box[0], box[1], box[2]).norm() < 1e-12);
            ++boxes;
          }
          if (m->geom_type[g] == mjGEOM_MESH) {
            const int mesh = m->geom_dataid[g];
            for (int i = 0; i < m->mesh_vertnum[mesh]; ++i)
              for (int k = 0; k < 3; ++k)
                QVERIFY(std::abs(m->mesh_vert[3 * (m->mesh_vertadr[mesh] + i) + k] - box[k]) <= box[3 + k] + 1e-12);
            ++meshes;
          }
        }
      }
    QCOMPARE(boxes, 1);
    QVERIFY(meshes > 0);
  }

  void badInput() {
    World noObject = loadWorld(sg::test::inSourceTree("worlds/paralleljaw_box.xml"));
    noObject.removeLastGraspable();
    QVERIFY(errorOf([&] { trial(noObject, shortSettings("x+")); }).contains("no graspable"));

    World noEffort = jawWorld(20, 0.5, 180, false);
    noEffort.robots[0].dofs[0].maxEffort = 0;
    const QString effort = errorOf([&] { trial(noEffort, shortSettings("x+")); });
    QVERIFY2(effort.contains("no effort"), qPrintable(effort));

    const World w = jawWorld(20, 0.5, 180, false);
    TrialSettings nan = shortSettings("x+");
    nan.duration_s = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(errorOf([&] { trial(w, nan); }).contains("duration_s"));
    TrialSettings nanStep = shortSettings("x+");
    nanStep.timestep_s = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(errorOf([&] { trial(w, nanStep); }).contains("timestep_s"));
    QVERIFY(errorOf([] { parseDirections("x+,w-"); }).contains("w-"));
    QVERIFY(errorOf([] { parseDirections("x+,x+"); }).contains("twice"));
    QCOMPARE(parseDirections("all").size(), std::size_t{6});
    QCOMPARE(parseDirections("z-,x+")[0].name(), std::string("z-"));
  }

  // The convex pieces of the bundled objects: one piece for a convex mesh, several for the mug, and the volume
  // the pieces add stays small (README.md §Geometry lists the figures).
  void convexPiecesOfBundledObjects() {
    const test::ScopedCacheDir hacd("");  // HACD itself, not a file of the run's cache (tests/CMakeLists.txt)
    const World w = loadWorld(sg::test::inSourceTree("worlds/objects_gallery.xml"));
    for (const Body& body : w.graspables) {
      if (!body.mesh || body.name == "torus") continue;  // the torus takes HACD seconds: bench_sim reports it
      const auto pieces = convexPieces(body.mesh);
      qInfo("%s: %zu pieces, volume error %.4f", body.name.c_str(), pieces->pieces.size(), pieces->volumeError());
      QVERIFY(!pieces->pieces.empty());
      QVERIFY(pieces->volumeError() > -0.05);
      if (body.name == "box") {
        QCOMPARE(pieces->pieces.size(), std::size_t{1});
        QVERIFY(std::abs(pieces->volumeError()) < 1e-6);
      }
      if (body.name == "mug") {
        QVERIFY(pieces->pieces.size() > 1);
        QVERIFY(pieces->volumeError() < 0.10);  // the hollow is not filled in
      }
      QCOMPARE(convexPieces(body.mesh).get(), pieces.get());  // cached
    }
  }
};

QTEST_APPLESS_MAIN(TestSim)
#include "tst_sim.moc"
