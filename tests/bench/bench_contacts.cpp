// bench_contacts: BVH build time and query times (collide, distance, contacts within the 0.2 mm threshold) of a
// three-finger hand against the mug and against the 82k-triangle bumpy mesh, at gaps 0.05 mm (within the
// threshold, reported first), 1 mm, 10 mm and −0.1 mm (penetrating). Each gap is N jittered hand poses (±2° about
// a random axis through the hand, ±3 mm across the approach, then slid to the gap), every call one sample, the
// states in turn: median and 90th percentile. Every row compares one query on the same input with a reference
// that answers it, and every answer is cross-checked; a mismatch fails the benchmark (exit status 3):
//  * collide and distance, per body pair and per hand: FCL (FclReference.h; the FCL build is printed on each line);
//  * contacts within the threshold (FCL has no such query): an exhaustive enumeration of the triangle pairs within
//    the threshold (ReferenceContacts.h), whose vertex–face and edge–edge points must equal SoftGrasp's raw points.
// Usage: bench_contacts [--quick] [--default-only] [--object mug|bumpy] [--gap MM] [--states N] [--wrong-reference]
//   --default-only: time only the default BVH (skip the AABB/leaf-size variants); --object: one object only;
//   --gap: one of the four gaps only; --states: jittered poses per gap (default 16, 6 with --quick);
//   --wrong-reference: halve the reference's threshold and shift FCL's distances (the cross-checks must fail).
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "geometry/Bvh.h"
#include "geometry/ContactAcceptance.h"
#include "geometry/Primitives.h"
#include "geometry/Proximity.h"
#include "geometry/ProximityContacts.h"
#include "BenchStats.h"
#include "BenchTiming.h"
#include "FclReference.h"
#include "ReferenceContacts.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"

using namespace sg;
namespace fs = std::filesystem;

#ifndef SG_HAVE_FCL
namespace sg::bench {
struct FclModel {};  // no FCL: the FCL arguments below stay empty
}  // namespace sg::bench
#endif

namespace {

bool quick = false;
bool defaultOnly = false;
bool wrongReference = false;
std::size_t stateCount = 0;  // jittered poses per gap (0: the default)
double onlyGap = std::numeric_limits<double>::quiet_NaN();
bench::CrossCheck check;

// Time budget of one row: every state at least 3 times, then until ~0.3 s (0.05 s with --quick).
bench::Spread spread(std::size_t states, const std::function<void(std::size_t)>& query,
                     const std::function<void(std::size_t)>& prepare = {}) {
  return bench::spreadOverStates(states, query, quick ? 0.05 : 0.3, 3, 200, prepare);
}
using bench::secondsOf;

struct Part {
  std::string name;
  std::shared_ptr<const TriangleMesh> mesh;
  Transform pose;
};

// The hand's bodies, or a stand-in hand of boxes and spheres when the model files are missing.
std::vector<Part> loadHand(Robot& robotOut, bool& fromFile) {
  const std::string path = std::string(SG_SOURCE_DIR) + "/models/robots/ThreeFinger/ThreeFinger.xml";
  try {
    robotOut = loadRobot(path, MaterialTable{});
    fromFile = true;
  } catch (const std::exception& e) {
    std::printf("(ThreeFinger not loadable: %s; using a synthetic hand)\n", e.what());
    fromFile = false;
  }
  std::vector<Part> parts;
  if (fromFile) {
    // Pre-grasp: tripod spread, fingers half closed.
    RobotState state = defaultRobotState(robotOut);
    std::vector<double> v = state.dofValues;
    for (std::size_t k = 0; k < v.size(); ++k)
      v[k] = robotOut.dofs[k].minValue + (k == 0 ? 0.66 : 0.35) * (robotOut.dofs[k].maxValue - robotOut.dofs[k].minValue);
    setDofValues(robotOut, state, v);
    for (const auto& ref : robotOut.bodyRefs()) {
      const Body& b = robotOut.body(ref);
      if (b.mesh && !b.mesh->empty()) parts.push_back({b.name, b.mesh, X_WB(state, ref)});
    }
    return parts;
  }
  parts.push_back({"palm", std::make_shared<const TriangleMesh>(makeBox(Vec3(80, 80, 20))),
                   Transform::fromTranslation(Vec3(0, 0, -10))});
  for (int f = 0; f < 3; ++f) {
    const double a = 2 * kPi * f / 3;
    const Vec3 base(35 * std::cos(a), 35 * std::sin(a), 0);
    parts.push_back({"finger", std::make_shared<const TriangleMesh>(makeCylinder(8, 60, 48)),
                     Transform::fromTranslation(base + Vec3(0, 0, 30))});
    parts.push_back({"tip", std::make_shared<const TriangleMesh>(makeIcosphere(9, 3)),
                     Transform::fromTranslation(base + Vec3(0, 0, 65))});
  }
  return parts;
}

std::shared_ptr<const TriangleMesh> loadObject(const std::string& name, std::string& source) {
  std::vector<std::string> candidates;
  if (name == "mug") candidates = {std::string(SG_SOURCE_DIR) + "/models/objects/mug.xml"};
  else
    candidates = {std::string(SG_BINARY_DIR) + "/models/objects/bumpy.xml",
                  std::string(SG_SOURCE_DIR) + "/build/models/objects/bumpy.xml"};
  for (const auto& c : candidates) {
    if (!fs::exists(c)) continue;
    try {
      Body b = loadBody(c, BodyKind::Graspable, MaterialTable{});
      source = c;
      return b.mesh;
    } catch (const std::exception& e) {
      std::printf("(%s not loadable: %s)\n", c.c_str(), e.what());
    }
  }
  if (name == "mug") {
    source = "generated torus-and-cylinder stand-in";
    TriangleMesh m = makeCylinder(40, 100, 128);
    m.append(makeTorus(40, 6, 128, 32), Mat3::Identity(), Vec3(0, 0, 50));
    return std::make_shared<const TriangleMesh>(std::move(m));
  }
  source = "generated bumpy torus (makeTorus 256×128, bumps)";
  return std::make_shared<const TriangleMesh>(makeTorus(60, 25, 256, 128, 1.5, 24));
}

struct Scene {
  std::vector<Part> hand;
  std::vector<std::shared_ptr<const Bvh>> handBvh;
  std::shared_ptr<const Bvh> object;
  Transform objectPose;
  Transform handOffset;  // applied on top of each part's pose
};

double handDistance(const Scene& s) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < s.hand.size(); ++i) {
    const auto d = meshDistance(*s.handBvh[i], s.handOffset * s.hand[i].pose, *s.object, s.objectPose, best);
    if (d.found()) best = std::min(best, d.distance_mm);
  }
  return best;
}

// Slides the hand along `dir` until its distance to the object is `target_mm` (> 0), or penetrates by
// −target_mm past first contact (target < 0).
void placeAt(Scene& s, const Vec3& dir, double target_mm) {
  const double aim = target_mm > 0 ? target_mm : 0.001;
  for (int it = 0; it < 60; ++it) {
    const double d = handDistance(s);
    if (d == 0 || !std::isfinite(d)) {  // overshot into collision: back off
      s.handOffset = Transform::fromTranslation(-dir * 0.5) * s.handOffset;
      continue;
    }
    if (std::abs(d - aim) < 1e-4 * std::max(1.0, aim)) break;
    s.handOffset = Transform::fromTranslation(dir * (d - aim) * 0.9) * s.handOffset;
  }
  if (target_mm < 0) s.handOffset = Transform::fromTranslation(dir * (-target_mm + 0.001)) * s.handOffset;
}

// `count` hand placements at one gap: the hand turned by up to 2° about a random axis through its centre and
// shifted up to 3 mm across the approach, then slid along the approach to the gap. Seeded: the same every run.
std::vector<Transform> jitteredOffsets(const Scene& base, const Vec3& approach, double gap_mm, std::size_t count) {
  std::mt19937 rng(static_cast<unsigned>(1000 * gap_mm + 7));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Vec3 centre = Vec3::Zero();
  for (const auto& p : base.hand) centre += p.pose.translation();
  centre /= static_cast<double>(base.hand.size());
  const Vec3 across1 = approach.unitOrthogonal(), across2 = approach.cross(across1);
  std::vector<Transform> offsets;
  for (std::size_t k = 0; k < count; ++k) {
    const Vec3 axis = Vec3(u(rng), u(rng), u(rng)).normalized();
    const double angle = (k == 0 ? 0.0 : u(rng)) * 2.0 * kPi / 180;  // state 0: the unjittered pose
    const Vec3 shift = k == 0 ? Vec3::Zero() : Vec3(3.0 * (u(rng) * across1 + u(rng) * across2));
    Scene s = base;
    s.handOffset = Transform::fromTranslation(centre + shift) * Transform(Quat(Eigen::AngleAxisd(angle, axis)), Vec3::Zero()) *
                   Transform::fromTranslation(-centre) * base.handOffset;
    placeAt(s, approach, gap_mm);
    offsets.push_back(s.handOffset);
  }
  return offsets;
}

// One hand body's pose in state k.
struct States {
  const std::vector<Part>& hand;
  std::vector<Transform> offsets;
  std::size_t size() const { return offsets.size(); }
  Transform X_WH(std::size_t k, std::size_t i) const { return offsets[k] * hand[i].pose; }
};

const ContactQueryOptions kRaw = [] {
  // The raw points only: what the reference enumerates (no duplicate removal radius, no compaction).
  ContactQueryOptions o;
  o.duplicateRadius_mm = 0;
  o.compact = false;
  o.keepRawPoints = true;
  return o;
}();

void printRow(const char* query, const bench::Spread& ours, const bench::Spread& ref, const char* reference) {
  std::printf("    %-26s %9.1f %9.1f   %9.1f %9.1f   %7.3g  %s\n", query, 1e6 * ours.median_s, 1e6 * ours.p90_s,
              1e6 * ref.median_s, 1e6 * ref.p90_s, ours.median_s / ref.median_s, reference);
}

// The answers of every state, cross-checked: contacts against the exhaustive reference, collide and distance
// against FCL. Prints the range of the answers.
void crossCheckContacts(const States& st, const std::vector<std::shared_ptr<const Bvh>>& hb, const Bvh& ob,
                        const TriangleMesh& objectMesh, const Transform& objectPose) {
  const bench::WorldTriangles objectW = bench::worldTriangles(objectMesh, objectPose);
  const double t = ContactQueryOptions{}.threshold_mm;
  std::size_t matched = 0, ties = 0, collidingStates = 0, compacted = 0;
  for (std::size_t k = 0; k < st.size(); ++k) {
    bool anyColliding = false;
    for (std::size_t i = 0; i < st.hand.size(); ++i) {
      const Transform X = st.X_WH(k, i);
      const MeshContacts ours = meshContacts(*hb[i], X, ob, objectPose, kRaw);
      // The same query: the threshold with the round-off margin meshContacts accepts (ContactAcceptance.h).
      const double accepted = acceptedContactThreshold_mm(t, contactScale_mm(*hb[i], X, ob, objectPose));
      const bench::ReferenceContactResult ref =
          bench::referenceContacts(*st.hand[i].mesh, X, objectW, wrongReference ? 0.5 * t : accepted);
      char what[160];
      std::snprintf(what, sizeof what, "state %zu body %s: contacts query colliding %d, reference %d", k,
                    st.hand[i].name.c_str(), ours.colliding, ref.colliding);
      check.expect(ours.colliding == ref.colliding, what);
      anyColliding |= ours.colliding;
      if (ours.colliding || ref.colliding) continue;
      const auto c = bench::compareContactSets(ours.rawPoints, ref.raw, accepted, 1e-9);
      std::snprintf(what, sizeof what, "state %zu body %s: %zu raw contact points, reference %zu, %zu differ", k,
                    st.hand[i].name.c_str(), ours.rawPoints.size(), ref.raw.size(), c.mismatched);
      check.expect(c.mismatched == 0, what);
      matched += c.matched;
      ties += c.ties;
      compacted += meshContacts(*hb[i], X, ob, objectPose).points.size();
    }
    collidingStates += anyColliding;
  }
  std::printf("  contacts within %.1f mm: colliding in %zu of %zu states; %zu raw points equal to the reference's"
              " (%zu rounding ties), %zu after duplicate removal and compaction\n",
              t, collidingStates, st.size(), matched, ties, compacted);
}

#ifdef SG_HAVE_FCL
void crossCheckFcl(const States& st, const std::vector<std::shared_ptr<const Bvh>>& hb, const Bvh& ob,
                   const Transform& objectPose, bench::FclScene& fcl) {
  const double shift = wrongReference ? 1e-3 : 0.0;
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (std::size_t k = 0; k < st.size(); ++k) {
    std::vector<Transform> X_WH;
    for (std::size_t i = 0; i < st.hand.size(); ++i) X_WH.push_back(st.X_WH(k, i));
    fcl.setHandPoses(X_WH);
    double best = std::numeric_limits<double>::infinity(), bestCarried = best;
    bool anyColliding = false;
    for (std::size_t i = 0; i < st.hand.size(); ++i) {
      const bool collides = meshesCollide(*hb[i], X_WH[i], ob, objectPose);
      char what[200];
      std::snprintf(what, sizeof what, "state %zu body %s: collide %d, FCL %d", k, st.hand[i].name.c_str(), collides,
                    fcl.collidePair(i));
      check.expect(collides == fcl.collidePair(i), what);
      anyColliding |= collides;
      const double d = meshDistance(*hb[i], X_WH[i], ob, objectPose).distance_mm;
      const auto carried = meshDistance(*hb[i], X_WH[i], ob, objectPose, bestCarried);
      if (carried.found()) bestCarried = std::min(bestCarried, carried.distance_mm);
      best = std::min(best, d);
      if (collides) continue;
      const double f = fcl.distancePair(i) + shift;
      std::snprintf(what, sizeof what, "state %zu body %s: distance %.12g mm, FCL %.12g mm", k,
                    st.hand[i].name.c_str(), d, f);
      check.expect(std::abs(d - f) <= 1e-7 * std::max(1.0, d), what);
    }
    char what[200];
    std::snprintf(what, sizeof what, "state %zu: hand distance with the bound carried %.12g, per pair %.12g", k,
                  bestCarried, best);
    check.expect(bestCarried == best, what);
    std::snprintf(what, sizeof what, "state %zu: hand colliding %d, FCL broadphase %d", k, anyColliding,
                  fcl.collideBroadphase());
    check.expect(anyColliding == fcl.collideBroadphase(), what);
    if (!anyColliding) {
      const double shared = fcl.distanceSharedResult() + shift, broad = fcl.distanceBroadphase() + shift;
      std::snprintf(what, sizeof what, "state %zu: hand distance %.12g, FCL shared result %.12g, broadphase %.12g", k,
                    best, shared, broad);
      check.expect(std::abs(best - shared) <= 1e-7 * std::max(1.0, best) &&
                       std::abs(best - broad) <= 1e-7 * std::max(1.0, best), what);
      lo = std::min(lo, best);
      hi = std::max(hi, best);
    }
  }
  if (lo <= hi) std::printf("  hand-object distance %.4f–%.4f mm over the non-colliding states (FCL agrees)\n", lo, hi);
}
#endif

void runGap(const std::vector<Part>& hand, const std::vector<std::shared_ptr<const Bvh>>& hb, const Bvh& ob,
            const TriangleMesh& objectMesh, const std::vector<Transform>& offsets, const std::string& label,
            [[maybe_unused]] const std::vector<std::shared_ptr<bench::FclModel>>& fclHand,
            [[maybe_unused]] const std::shared_ptr<bench::FclModel>& fclObject) {
  const Transform objectPose = Transform::identity();
  const States st{hand, offsets};
  const std::size_t n = hand.size(), N = st.size();
  std::printf("\n-- gap %s: %zu jittered hand poses; per call over the poses in turn: median and p90, µs\n",
              label.c_str(), N);
  crossCheckContacts(st, hb, ob, objectMesh, objectPose);

  std::printf("    %-26s %9s %9s   %9s %9s   %6s  %s\n", "query", "SoftGrasp", "p90", "reference", "p90", "ratio",
              "reference (same query, same poses)");
  const bench::WorldTriangles objectW = bench::worldTriangles(objectMesh, objectPose);
  const double t = ContactQueryOptions{}.threshold_mm;
  const auto oursRaw = spread(N, [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i) (void)meshContacts(*hb[i], st.X_WH(k, i), ob, objectPose, kRaw);
  });
  const auto reference = spread(N, [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i) {
      const Transform X = st.X_WH(k, i);
      (void)bench::referenceContacts(*hand[i].mesh, X, objectW,
                                     acceptedContactThreshold_mm(t, contactScale_mm(*hb[i], X, ob, objectPose)));
    }
  });
  printRow("contacts within 0.2 mm", oursRaw, reference, "exhaustive triangle-pair enumeration (not FCL: it has no such query)");
  const auto oursFull = spread(N, [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i) (void)meshContacts(*hb[i], st.X_WH(k, i), ob, objectPose);
  });
  std::printf("    %-26s %9.1f %9.1f   (SoftGrasp only: with duplicate removal and compaction, as the application)\n",
              "contacts, full pipeline", 1e6 * oursFull.median_s, 1e6 * oursFull.p90_s);
#ifdef SG_HAVE_FCL
  bench::FclScene fcl(fclHand, std::vector<Transform>(n), fclObject, objectPose);
  crossCheckFcl(st, hb, ob, objectPose, fcl);
  std::vector<Transform> X_WH(n);
  const auto moveFcl = [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i) X_WH[i] = st.X_WH(k, i);
    fcl.setHandPoses(X_WH);
  };
  char tag[128];
  std::snprintf(tag, sizeof tag, "[%s]", SG_FCL_BUILD_SHORT);
  auto row = [&](const char* query, const std::function<void(std::size_t)>& ours, const char* fclQuery,
                 const std::function<void(std::size_t)>& theirs) {
    const auto a = spread(N, ours);
    const auto b = spread(N, theirs, moveFcl);
    char ref[256];
    std::snprintf(ref, sizeof ref, "FCL %s %s", fclQuery, tag);
    printRow(query, a, b, ref);
  };
  std::printf("   per pair (every body its own query):\n");
  row("collide", [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i) (void)meshesCollide(*hb[i], st.X_WH(k, i), ob, objectPose);
  }, "collide, fresh result", [&](std::size_t) {
    for (std::size_t i = 0; i < n; ++i) (void)fcl.collidePair(i);
  });
  row("distance", [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i) (void)meshDistance(*hb[i], st.X_WH(k, i), ob, objectPose);
  }, "distance, fresh result", [&](std::size_t) {
    for (std::size_t i = 0; i < n; ++i) (void)fcl.distancePair(i);
  });
  std::printf("   per hand (one query over the bodies):\n");
  const auto collideHand = [&](std::size_t k) {
    for (std::size_t i = 0; i < n; ++i)
      if (meshesCollide(*hb[i], st.X_WH(k, i), ob, objectPose)) break;
  };
  const auto distanceHand = [&](std::size_t k) {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      const auto d = meshDistance(*hb[i], st.X_WH(k, i), ob, objectPose, best);
      if (d.found()) best = std::min(best, d.distance_mm);
    }
  };
  row("collide, first hit", collideHand, "collide, first hit", [&](std::size_t) {
    for (std::size_t i = 0; i < n; ++i)
      if (fcl.collidePair(i)) break;
  });
  row("collide, first hit", collideHand, "broadphase manager", [&](std::size_t) { (void)fcl.collideBroadphase(); });
  row("distance, bound carried", distanceHand, "one shared DistanceResult",
      [&](std::size_t) { (void)fcl.distanceSharedResult(); });
  row("distance, bound carried", distanceHand, "broadphase manager", [&](std::size_t) { (void)fcl.distanceBroadphase(); });
#endif
}

void runObject(const std::string& objectName, const std::vector<Part>& hand, const Transform& handBase, const Vec3& approach) {
  std::string source;
  const auto mesh = loadObject(objectName, source);
  std::printf("\n=== hand vs %s: %zu triangles (%s)\n", objectName.c_str(), mesh->triangleCount(), source.c_str());
  std::size_t handTris = 0;
  for (const auto& p : hand) handTris += p.mesh->triangleCount();
  std::printf("hand: %zu bodies, %zu triangles\n", hand.size(), handTris);

  struct Variant {
    const char* name;
    BvhOptions options;
  };
  const std::vector<Variant> variants = {{"AABB leaf1", {BoxFit::Aligned, 1}}, {"AABB leaf2", {BoxFit::Aligned, 2}},
                                         {"AABB leaf4", {BoxFit::Aligned, 4}}, {"OBB  leaf1", {BoxFit::Oriented, 1}},
                                         {"OBB  leaf2", {BoxFit::Oriented, 2}}};
  const std::size_t kDefault = 3;  // BvhOptions{} = OBB, one triangle per leaf
  std::printf("\nBVH build time (object / whole hand), ms:\n");
  std::vector<std::shared_ptr<const Bvh>> objectBvhs;
  std::vector<std::vector<std::shared_ptr<const Bvh>>> handBvhs;
  for (std::size_t vi = 0; vi < variants.size(); ++vi) {
    const Variant& v = variants[vi];
    std::shared_ptr<const Bvh> ob;
    std::vector<std::shared_ptr<const Bvh>> hb;
    if (defaultOnly && vi != kDefault) {
      objectBvhs.push_back(ob);
      handBvhs.push_back(hb);
      continue;
    }
    const double tObj = secondsOf([&] { ob = std::make_shared<const Bvh>(*mesh, v.options); });
    const double tHand = secondsOf([&] {
      for (const auto& p : hand) hb.push_back(std::make_shared<const Bvh>(*p.mesh, v.options));
    });
    std::printf("  %-11s %9.2f / %7.2f\n", v.name, 1e3 * tObj, 1e3 * tHand);
    objectBvhs.push_back(ob);
    handBvhs.push_back(hb);
  }
  std::shared_ptr<bench::FclModel> fclObject;
  std::vector<std::shared_ptr<bench::FclModel>> fclHand;
#ifdef SG_HAVE_FCL
  const double tFclObj = secondsOf([&] { fclObject = bench::fclModel(*mesh); });
  const double tFclHand = secondsOf([&] {
    for (const auto& p : hand) fclHand.push_back(bench::fclModel(*p.mesh));
  });
  std::printf("  %-11s %9.2f / %7.2f   [%s]\n", "FCL OBBRSS", 1e3 * tFclObj, 1e3 * tFclHand, SG_FCL_BUILD_SHORT);
#endif

  // Within the contact threshold first (the case the contacts query is for), then near, far and penetrating.
  const std::vector<std::pair<const char*, double>> gaps = {
      {"0.05 mm", 0.05}, {"1 mm", 1.0}, {"10 mm", 10.0}, {"-0.1 mm (penetrating)", -0.1}};
  const std::size_t N = stateCount > 0 ? stateCount : (quick ? 6 : 16);
  for (const auto& [label, gap] : gaps) {
    if (!std::isnan(onlyGap) && std::abs(onlyGap - gap) > 1e-9) continue;
    const Scene base{hand, handBvhs[kDefault], objectBvhs[kDefault], Transform::identity(), handBase};
    const std::vector<Transform> offsets = jitteredOffsets(base, approach, gap, N);
    if (!defaultOnly) {
      std::printf("\n-- gap %s, BVH variants, SoftGrasp only, median µs over the poses (hand as one query):\n", label);
      std::printf("    %-11s %10s %10s %12s\n", "", "collide", "distance", "contacts");
      const States st{hand, offsets};
      for (std::size_t vi = 0; vi < variants.size(); ++vi) {
        const auto& hb = handBvhs[vi];
        const Bvh& ob = *objectBvhs[vi];
        const auto c = spread(N, [&](std::size_t k) {
          for (std::size_t i = 0; i < hand.size(); ++i)
            if (meshesCollide(*hb[i], st.X_WH(k, i), ob, Transform::identity())) break;
        });
        const auto d = spread(N, [&](std::size_t k) {
          double best = std::numeric_limits<double>::infinity();
          for (std::size_t i = 0; i < hand.size(); ++i) {
            const auto r = meshDistance(*hb[i], st.X_WH(k, i), ob, Transform::identity(), best);
            if (r.found()) best = std::min(best, r.distance_mm);
          }
        });
        const auto m = spread(N, [&](std::size_t k) {
          for (std::size_t i = 0; i < hand.size(); ++i) (void)meshContacts(*hb[i], st.X_WH(k, i), ob, Transform::identity());
        });
        std::printf("    %-11s %10.1f %10.1f %12.1f\n", variants[vi].name, 1e6 * c.median_s, 1e6 * d.median_s,
                    1e6 * m.median_s);
      }
    }
    runGap(hand, handBvhs[kDefault], *objectBvhs[kDefault], *mesh, offsets, label, fclHand, fclObject);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--default-only") == 0) defaultOnly = true;
    else if (std::strcmp(argv[i], "--wrong-reference") == 0) wrongReference = true;
    else if (std::strcmp(argv[i], "--object") == 0 && i + 1 < argc) only = argv[++i];
    else if (std::strcmp(argv[i], "--gap") == 0 && i + 1 < argc) onlyGap = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--states") == 0 && i + 1 < argc) stateCount = static_cast<std::size_t>(std::max(1, std::atoi(argv[++i])));
    else {
      std::fprintf(stderr, "usage: bench_contacts [--quick] [--default-only] [--object mug|bumpy] [--gap MM] [--states N]"
                           " [--wrong-reference]\n");
      return 2;
    }
  }
#ifdef SG_HAVE_FCL
  std::printf("FCL reference: %s\n", SG_FCL_BUILD);
#else
  std::printf("(FCL not found at configure time: collide and distance are cross-checked against nothing)\n");
#endif
  if (wrongReference) std::printf("(--wrong-reference: the references are deliberately wrong; the cross-checks must fail)\n");
  Robot robot;
  bool fromFile = false;
  const auto hand = loadHand(robot, fromFile);
  // The hand above the object, approach (palm +z) pointing down toward it.
  const Transform flip(Quat(Eigen::AngleAxisd(kPi, Vec3::UnitX())), Vec3(0, 0, 250));
  const Vec3 approach = flip.applyToVector(Vec3::UnitZ());
  std::vector<Part> placed = hand;
  for (auto& p : placed) p.pose = flip * p.pose;
  std::printf("times per query over every hand body against the object, in microseconds\n");
  if (only.empty() || only == "mug") runObject("mug", placed, Transform::identity(), approach);
  if (only.empty() || only == "bumpy") runObject("bumpy", placed, Transform::identity(), approach);
  return check.finish();
}
