// The per-pair contact cache (contact/ContactCache.h, src/contact/README.md §Contact cache): a pair is reused
// exactly when neither of its bodies moved (a DOF moving some links, the palm moving every hand body, an
// obstacle moved), its geometry and the query settings are the same, a moved pair certified apart is skipped
// only while its bodies cannot have come within the threshold, and the result is always bit-identical to the
// uncached findContacts on the same world and state — raw points included — and, through analyzeGrasp, gives
// the same contacts and measures.
#include <QtTest>

#include <limits>
#include <random>

#include "../support/GraspedDefaultWorld.h"
#include "../support/JitteredGraspStates.h"
#include "../support/SameContacts.h"
#include "contact/ContactCache.h"
#include "grasp/Analysis.h"
#include "io/ModelIO.h"
#include "../support/TestPaths.h"

using namespace sg;

namespace {

bool samePoseBits(const Transform& a, const Transform& b) {
  return sgtest::sameBits(a.rotation().coeffs().data(), b.rotation().coeffs().data(), 4) &&
         sgtest::sameBits(a.translation().data(), b.translation().data(), 3);
}

// The cached call on `state`, checked against the uncached call (contacts and raw points bit for bit); returns
// which pairs were reused.
std::vector<bool> cachedMatchesUncached(const World& world, const WorldState& state, const CollisionSettings& settings,
                                        ContactCache& cache, bool withRaw) {
  const std::vector<BodyPair> pairs = activePairs(world, settings);
  std::vector<RawPairContacts> rawCold, rawCached;
  const std::vector<Contact> cold = findContacts(world, state, pairs, settings, withRaw ? &rawCold : nullptr);
  const std::vector<Contact> cached = findContacts(world, state, pairs, settings, cache, withRaw ? &rawCached : nullptr);
  const std::string why = sgtest::contactListDifference(cold, cached);
  if (!why.empty()) qFatal("cached contacts differ: %s", why.c_str());
  if (rawCold.size() != rawCached.size()) qFatal("%zu raw pairs instead of %zu", rawCached.size(), rawCold.size());
  for (std::size_t i = 0; i < rawCold.size(); ++i) {
    const RawPairContacts& x = rawCold[i];
    const RawPairContacts& y = rawCached[i];
    if (!(x.pair == y.pair) || x.threshold_mm != y.threshold_mm || x.points.size() != y.points.size())
      qFatal("raw pair %zu differs", i);
    for (std::size_t k = 0; k < x.points.size(); ++k)
      if (!sgtest::sameBits(x.points[k].p_WCa_mm.data(), y.points[k].p_WCa_mm.data(), 3) ||
          !sgtest::sameBits(x.points[k].nB_W.data(), y.points[k].nB_W.data(), 3) ||
          !sgtest::sameBits(&x.points[k].distance_mm, &y.points[k].distance_mm, 1))
        qFatal("raw point %zu of pair %zu differs", k, i);
  }
  const std::vector<bool>& reused = cache.reusedInLastCall();
  if (reused.size() != pairs.size()) qFatal("reuse flags for %zu of %zu pairs", reused.size(), pairs.size());
  return reused;
}

// Expected reuse: neither body's pose changed between the two states.
std::vector<bool> unmovedPairs(const World& world, const WorldState& before, const WorldState& after,
                               const CollisionSettings& settings) {
  std::vector<bool> out;
  for (const auto& [a, b] : activePairs(world, settings))
    out.push_back(samePoseBits(X_WB(before, a), X_WB(after, a)) && samePoseBits(X_WB(before, b), X_WB(after, b)));
  return out;
}

int countOf(const std::vector<bool>& v) { return static_cast<int>(std::count(v.begin(), v.end(), true)); }

// The contacts of one pair in a contact list.
int contactsOfPair(const std::vector<Contact>& contacts, const BodyPair& pair) {
  int n = 0;
  for (const Contact& c : contacts) n += (c.side1.body == pair.first && c.side2.body == pair.second) ? 1 : 0;
  return n;
}

// States around `world`'s own: the palm moved by up to `translation_mm` per axis and turned by up to
// `rotation_rad`, every DOF moved by up to `dof`, drawn with a fixed seed; whatever contacts they give.
std::vector<WorldState> wanderingStates(const World& world, int count, double translation_mm, double rotation_rad,
                                        double dof, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<WorldState> out;
  const RobotState& base = world.state.robots[0];
  for (int i = 0; i < count; ++i) {
    WorldState state = world.state;
    RobotState& rs = state.robots[0];
    const Vec3 axis = Vec3(u(rng), u(rng), u(rng)).normalized();
    rs.X_WP = base.X_WP * Transform::fromTranslation(translation_mm * Vec3(u(rng), u(rng), u(rng))) *
              Transform::fromAxisAngle(axis, rotation_rad * u(rng));
    std::vector<double> dofs = base.dofValues;
    for (double& v : dofs) v += dof * u(rng);
    setDofValues(world.robots[0], rs, dofs);
    updateConnections(world, state);
    out.push_back(std::move(state));
  }
  return out;
}

}  // namespace

class TestContactCache : public QObject {
  Q_OBJECT

  World world_ = sgtest::graspedDefaultWorld();

 private slots:
  void sameStateReusesEveryPair() {
    ContactCache cache;
    const CollisionSettings settings;
    QCOMPARE(countOf(cachedMatchesUncached(world_, world_.state, settings, cache, true)), 0);
    const std::vector<bool> second = cachedMatchesUncached(world_, world_.state, settings, cache, true);
    QVERIFY(!second.empty());
    QCOMPARE(countOf(second), static_cast<int>(second.size()));
  }

  void dofMovesOnlyItsLinksPairs() {
    ContactCache cache;
    const CollisionSettings settings;
    cachedMatchesUncached(world_, world_.state, settings, cache, true);
    WorldState moved = world_.state;
    std::vector<double> dofs = moved.robots[0].dofValues;
    dofs.back() -= 0.01;  // opens the last DOF's chain a little; the palm and the other chains stay
    setDofValues(world_.robots[0], moved.robots[0], dofs);
    updateConnections(world_, moved);
    const std::vector<bool> expected = unmovedPairs(world_, world_.state, moved, settings);
    QVERIFY(countOf(expected) > 0);
    QVERIFY(countOf(expected) < static_cast<int>(expected.size()));
    // Some reused pairs have a hand body (the palm, the unmoved chains): a DOF does not move the whole hand.
    bool handPairReused = false;
    const std::vector<BodyPair> pairs = activePairs(world_, settings);
    for (std::size_t i = 0; i < pairs.size(); ++i)
      handPairReused = handPairReused || (expected[i] && (pairs[i].first.kind == BodyHandle::Kind::Robot ||
                                                          pairs[i].second.kind == BodyHandle::Kind::Robot));
    QVERIFY(handPairReused);
    QCOMPARE(cachedMatchesUncached(world_, moved, settings, cache, true), expected);
  }

  void palmMovesEveryHandPair() {
    ContactCache cache;
    const CollisionSettings settings;
    cachedMatchesUncached(world_, world_.state, settings, cache, true);
    WorldState moved = world_.state;
    const Transform& X_WP = moved.robots[0].X_WP;
    setRobotPose(world_.robots[0], moved.robots[0],
                 Transform(X_WP.rotation(), X_WP.translation() + Vec3(0.05, 0, 0)));
    updateConnections(world_, moved);
    const std::vector<bool> reused = cachedMatchesUncached(world_, moved, settings, cache, true);
    const std::vector<BodyPair> pairs = activePairs(world_, settings);
    int kept = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const bool hand = pairs[i].first.kind == BodyHandle::Kind::Robot || pairs[i].second.kind == BodyHandle::Kind::Robot;
      QCOMPARE(static_cast<bool>(reused[i]), !hand);
      kept += hand ? 0 : 1;
    }
    QVERIFY(kept > 0);  // the mug on the table
  }

  void movedObstacleInvalidatesItsPairs() {
    ContactCache cache;
    const CollisionSettings settings;
    cachedMatchesUncached(world_, world_.state, settings, cache, false);
    QVERIFY(!world_.obstacles.empty());
    WorldState moved = world_.state;
    const BodyHandle table{BodyHandle::Kind::Obstacle, 0, {}};
    X_WB(moved, table) = Transform(X_WB(moved, table).rotation(), X_WB(moved, table).translation() + Vec3(0, 0, -1e-3));
    const std::vector<bool> expected = unmovedPairs(world_, world_.state, moved, settings);
    QVERIFY(countOf(expected) > 0 && countOf(expected) < static_cast<int>(expected.size()));
    QCOMPARE(cachedMatchesUncached(world_, moved, settings, cache, false), expected);
  }

  void changedSettingInvalidatesEveryPair() {
    ContactCache cache;
    CollisionSettings settings;
    cachedMatchesUncached(world_, world_.state, settings, cache, false);
    // Raw points asked for now: a query that did not keep them cannot give them.
    QCOMPARE(countOf(cachedMatchesUncached(world_, world_.state, settings, cache, true)), 0);
    settings.contacts.threshold_mm = 0.5;
    QCOMPARE(countOf(cachedMatchesUncached(world_, world_.state, settings, cache, true)), 0);
    settings.contacts.duplicateRadius_mm = 2.0;
    QCOMPARE(countOf(cachedMatchesUncached(world_, world_.state, settings, cache, true)), 0);
    const std::vector<bool> again = cachedMatchesUncached(world_, world_.state, settings, cache, true);
    QCOMPARE(countOf(again), static_cast<int>(again.size()));
  }

  void differentWorldOrGeometryIsQueried() {
    ContactCache cache;
    const CollisionSettings settings;
    cachedMatchesUncached(world_, world_.state, settings, cache, true);
    // The same world with the mug's mesh replaced by an equal copy (another object): its pairs are queried again.
    World copy = world_;
    copy.graspables[0].mesh = std::make_shared<TriangleMesh>(*world_.graspables[0].mesh);
    const std::vector<bool> reused = cachedMatchesUncached(copy, copy.state, settings, cache, true);
    const std::vector<BodyPair> pairs = activePairs(copy, settings);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const bool mug = pairs[i].first.kind == BodyHandle::Kind::Graspable || pairs[i].second.kind == BodyHandle::Kind::Graspable;
      QCOMPARE(static_cast<bool>(reused[i]), !mug);
    }
    // A scaled mug: other contacts, the cache gives the uncached ones (checked inside).
    auto scaled = std::make_shared<TriangleMesh>(*world_.graspables[0].mesh);
    for (auto& v : scaled->vertices) v *= 1.01;
    scaled->finalize();
    copy.graspables[0].mesh = scaled;
    cachedMatchesUncached(copy, copy.state, settings, cache, true);
    // Another bundled world (other bodies under the same handles) with the same cache.
    const World other = loadWorld(sg::test::inSourceTree("worlds/threefinger_sphere.xml"));
    cachedMatchesUncached(other, other.state, settings, cache, true);
    cachedMatchesUncached(world_, world_.state, settings, cache, true);
  }

  void analysisWithCacheGivesTheSameResults() {
    const std::vector<WorldState> states = sgtest::jitteredGraspStates(world_, 0, 6, 7);
    ContactCache cache;
    NullProgress progress;
    for (int round = 0; round < 2; ++round)
      for (const WorldState& s : states) {
        AnalysisRequest plain;
        plain.measures = {"epsilon-l1", "epsilon-linf"};
        AnalysisRequest cached = plain;
        cached.contactCache = &cache;
        const AnalysisResult a = analyzeGrasp(world_, s, plain, progress);
        const AnalysisResult b = analyzeGrasp(world_, s, cached, progress);
        QCOMPARE(QString::fromStdString(sgtest::contactListDifference(a.contacts, b.contacts)), QString());
        QVERIFY(a.primary() && b.primary());
        QCOMPARE(a.primary()->measures.size(), b.primary()->measures.size());
        for (std::size_t k = 0; k < a.primary()->measures.size(); ++k)
          QVERIFY(sgtest::sameBits(&a.primary()->measures[k].value, &b.primary()->measures[k].value, 1));
      }
    // The second round repeats the states in order: at least the mug–table pair was reused every time.
    QVERIFY(countOf(cache.reusedInLastCall()) > 0);
  }

  // Dragging the hand around its grasp on every bundled hand world: far pairs (links against the table, against
  // each other) are certified apart and skipped, and every state's contacts and raw points are the uncached
  // call's, small moves (the bound holds) and larger ones (it runs out, the pair is queried again) alike.
  void jitteredStatesSkipFarPairsExactly() {
    for (const char* name : {"worlds/default.xml", "worlds/threefinger_sphere.xml", "worlds/fivefinger_cylinder.xml",
                             "worlds/paralleljaw_box.xml", "worlds/hydro_fingertips.xml", "worlds/threefinger_urdf.xml"}) {
      const World world = sgtest::closedHandWorld(sg::test::inSourceTree(name), true);
      QVERIFY(!world.robots.empty());
      const CollisionSettings settings;
      for (const double scale : {1.0, 10.0}) {
        ContactCache cache;
        int apart = 0;
        for (const WorldState& s : wanderingStates(world, 12, 0.1 * scale, 0.002 * scale, 0.002 * scale, 39)) {
          cachedMatchesUncached(world, s, settings, cache, true);
          apart += countOf(cache.certifiedApartInLastCall());
        }
        if (apart == 0) qFatal("%s: no pair certified apart", name);
      }
    }
  }

  // Closing the default world's hand from open to its grasp: the fingertips are certified apart from the mug
  // while far, then come into contact, and the cache finds exactly the contacts a fresh query finds.
  void approachingPairsAreFoundExactly() {
    const CollisionSettings settings;
    const std::vector<BodyPair> pairs = activePairs(world_, settings);
    const std::vector<double> grasp = world_.state.robots[0].dofValues;
    std::vector<double> open = grasp;
    for (std::size_t k = 1; k < open.size(); ++k) open[k] = 0;  // DOF 0 is the spread, kept
    ContactCache cache;
    std::vector<bool> everApart(pairs.size(), false);
    const int steps = 40;
    std::vector<Contact> last;
    for (int k = 0; k <= steps; ++k) {
      WorldState s = world_.state;
      std::vector<double> dofs(grasp.size());
      const double t = static_cast<double>(k) / steps;
      for (std::size_t j = 0; j < dofs.size(); ++j) dofs[j] = (1 - t) * open[j] + t * grasp[j];
      setDofValues(world_.robots[0], s.robots[0], dofs);
      updateConnections(world_, s);
      cachedMatchesUncached(world_, s, settings, cache, true);
      const std::vector<bool>& apart = cache.certifiedApartInLastCall();
      for (std::size_t i = 0; i < pairs.size(); ++i) everApart[i] = everApart[i] || apart[i];
      if (k == steps) last = findContacts(world_, s, pairs, settings, cache);
    }
    int found = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (everApart[i] && contactsOfPair(last, pairs[i]) > 0) ++found;
    QVERIFY(found >= 3);  // the three fingertips on the mug
  }

  // What invalidates a certified bound: changed settings, another mesh, a jump into contact.
  void certifiedBoundsAreInvalidated() {
    const CollisionSettings settings;
    const std::vector<BodyPair> pairs = activePairs(world_, settings);
    const std::vector<WorldState> states = wanderingStates(world_, 3, 0.1, 0.002, 0.002, 5);
    ContactCache cache;
    for (const WorldState& s : states) cachedMatchesUncached(world_, s, settings, cache, false);
    QVERIFY(countOf(cache.certifiedApartInLastCall()) > 0);
    // A larger threshold: every pair is queried afresh (the palm and the proximal links, 2.9 mm apart, now have
    // contacts).
    CollisionSettings wide = settings;
    wide.contacts.threshold_mm = 3;
    cachedMatchesUncached(world_, states[0], wide, cache, false);
    QCOMPARE(countOf(cache.certifiedApartInLastCall()), 0);
    QVERIFY(findContacts(world_, states[0], pairs, wide).size() > findContacts(world_, states[0], pairs, settings).size());
    // Back to the threshold, then the mug replaced by an equal copy: none of its pairs is skipped.
    for (const WorldState& s : states) cachedMatchesUncached(world_, s, settings, cache, false);
    World copy = world_;
    copy.graspables[0].mesh = std::make_shared<TriangleMesh>(*world_.graspables[0].mesh);
    cachedMatchesUncached(copy, states[1], settings, cache, false);
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (pairs[i].first.kind == BodyHandle::Kind::Graspable || pairs[i].second.kind == BodyHandle::Kind::Graspable)
        QVERIFY(!cache.certifiedApartInLastCall()[i]);
    // The mug moved in one jump to 0.1 mm from the hand link farthest from it that was certified apart (along the
    // line of their closest points; robot links follow the hand's state): the pair is queried again and its
    // contact found.
    for (const WorldState& s : states) cachedMatchesUncached(world_, s, settings, cache, false);
    std::size_t chosen = pairs.size();
    double gap = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i)
      if (pairs[i].first.kind == BodyHandle::Kind::Graspable && pairs[i].second.kind == BodyHandle::Kind::Robot &&
          cache.certifiedApartInLastCall()[i]) {
        const double d = bodyDistance(world_, states.back(), pairs[i].first, pairs[i].second).distance_mm;
        if (d > gap) { gap = d; chosen = i; }
      }
    QVERIFY(chosen < pairs.size() && gap > 10);
    const MeshDistance d = bodyDistance(world_, states.back(), pairs[chosen].first, pairs[chosen].second);
    WorldState jumped = states.back();
    const Vec3 toward = (d.p_WCb_mm - d.p_WCa_mm).normalized();  // from the mug's closest point to the link's
    Transform& X_WM = X_WB(jumped, pairs[chosen].first);
    X_WM = Transform::fromTranslation((d.distance_mm - 0.1) * toward) * X_WM;
    cachedMatchesUncached(world_, jumped, settings, cache, false);
    QVERIFY(!cache.certifiedApartInLastCall()[chosen]);
    QVERIFY(contactsOfPair(findContacts(world_, jumped, pairs, settings), pairs[chosen]) > 0);
  }

  void movedFromCacheStillWorks() {
    ContactCache cache;
    const CollisionSettings settings;
    cachedMatchesUncached(world_, world_.state, settings, cache, false);
    ContactCache other = std::move(cache);
    QCOMPARE(countOf(cachedMatchesUncached(world_, world_.state, settings, other, false)),
             static_cast<int>(other.reusedInLastCall().size()));
    QCOMPARE(countOf(cachedMatchesUncached(world_, world_.state, settings, cache, false)), 0);  // NOLINT: reused after move on purpose
  }
};

QTEST_APPLESS_MAIN(TestContactCache)
#include "tst_contact_cache.moc"
