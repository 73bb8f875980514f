// bench_contacts: BVH build time and median query times (collide, distance, all contacts within the
// threshold) of a three-finger hand against the mug and against the 82k-triangle bumpy mesh, at gaps
// 10, 1, 0.05 and −0.1 mm; FCL (FclReference.h) answers the same queries on the same input in the same run,
// per pair and per hand (shared DistanceResult, broadphase manager), and each ratio is printed.
// Usage: bench_contacts [--quick] [--default-only] [--object mug|bumpy]
//   --default-only: time only the default BVH (skip the AABB/leaf-size variants); --object: one object only.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "geometry/Bvh.h"
#include "geometry/Primitives.h"
#include "geometry/Proximity.h"
#include "geometry/ProximityContacts.h"
#include "BenchTiming.h"
#include "FclReference.h"
#include "io/ModelIO.h"
#include "model/Kinematics.h"

using namespace sg;
namespace fs = std::filesystem;

namespace {

bool quick = false;
bool defaultOnly = false;

// Median seconds per call: at least 5 calls, then until ~0.3 s (0.05 s with --quick) or 500 calls.
double medianSeconds(const std::function<void()>& f) {
  return bench::medianSeconds(f, quick ? 0.05 : 0.3, 500);
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

// Medians of one query over the whole hand, in µs: `pairs` = every body against the object as its own
// fresh query (no early exit, no bound carried over); `hand` = the hand as one query (collide stops at
// the first colliding body, distance carries the best distance so far as a bound into the next body).
struct Timings {
  double collidePairs = 0, distancePairs = 0, contactsPairs = 0;
  double collideHand = 0, distanceHand = 0;
  double distance_mm = 0;
  bool colliding = false;
  std::size_t contacts = 0;
};

Timings timeOurs(const Scene& s, const std::vector<std::shared_ptr<const Bvh>>& hb, const Bvh& ob) {
  Timings t;
  const std::size_t n = s.hand.size();
  t.collidePairs = medianSeconds([&] {
    bool any = false;
    for (std::size_t i = 0; i < n; ++i) any |= meshesCollide(*hb[i], s.handOffset * s.hand[i].pose, ob, s.objectPose);
    t.colliding = any;
  });
  t.distancePairs = medianSeconds([&] {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i)
      best = std::min(best, meshDistance(*hb[i], s.handOffset * s.hand[i].pose, ob, s.objectPose).distance_mm);
    t.distance_mm = best;
  });
  t.contactsPairs = medianSeconds([&] {
    t.contacts = 0;
    for (std::size_t i = 0; i < n; ++i)
      t.contacts += meshContacts(*hb[i], s.handOffset * s.hand[i].pose, ob, s.objectPose).points.size();
  });
  t.collideHand = medianSeconds([&] {
    for (std::size_t i = 0; i < n; ++i)
      if (meshesCollide(*hb[i], s.handOffset * s.hand[i].pose, ob, s.objectPose)) break;
  });
  t.distanceHand = medianSeconds([&] {
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
      const auto d = meshDistance(*hb[i], s.handOffset * s.hand[i].pose, ob, s.objectPose, best);
      if (d.found()) best = std::min(best, d.distance_mm);
    }
  });
  return t;
}

void printRatio(const char* query, double ours_s, double fcl_s, const char* fclQuery) {
  std::printf("    %-34s %10.1f %10.1f   ratio %.3f  (FCL: %s)\n", query, 1e6 * ours_s, 1e6 * fcl_s, ours_s / fcl_s, fclQuery);
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
#ifdef SG_HAVE_FCL
  std::shared_ptr<bench::FclModel> fclObject;
  std::vector<std::shared_ptr<bench::FclModel>> fclHand;
  const double tFclObj = secondsOf([&] { fclObject = bench::fclModel(*mesh); });
  const double tFclHand = secondsOf([&] {
    for (const auto& p : hand) fclHand.push_back(bench::fclModel(*p.mesh));
  });
  std::printf("  %-11s %9.2f / %7.2f\n", "FCL OBBRSS", 1e3 * tFclObj, 1e3 * tFclHand);
#endif

  // Gaps between the hand and the object along the approach: far, near, within the contact threshold
  // (0.2 mm), penetrating.
  const std::vector<std::pair<const char*, double>> gaps = {
      {"10 mm", 10.0}, {"1 mm", 1.0}, {"0.05 mm", 0.05}, {"-0.1 mm (penetrating)", -0.1}};
  for (const auto& [label, gap] : gaps) {
    Scene scene{hand, handBvhs[kDefault], objectBvhs[kDefault], Transform::identity(), handBase};
    placeAt(scene, approach, gap);
    std::printf("\n-- gap %s\n", label);

    std::printf("  BVH variants, SoftGrasp only, µs (hand as one query):\n");
    std::printf("    %-11s %10s %10s %12s %9s\n", "", "collide", "distance", "contacts", "#contacts");
    Timings ours;
    for (std::size_t vi = 0; vi < variants.size(); ++vi) {
      if (defaultOnly && vi != kDefault) continue;
      const Timings t = timeOurs(scene, handBvhs[vi], *objectBvhs[vi]);
      std::printf("    %-11s %10.1f %10.1f %12.1f %9zu\n", variants[vi].name, 1e6 * t.collideHand,
                  1e6 * t.distanceHand, 1e6 * t.contactsPairs, t.contacts);
      if (vi == kDefault) ours = t;
    }
    std::printf("  SoftGrasp (default BVH) min distance %.6f mm, colliding %s, %zu contacts within 0.2 mm\n",
                ours.distance_mm, ours.colliding ? "yes" : "no", ours.contacts);
#ifdef SG_HAVE_FCL
    std::vector<Transform> X_WH;
    for (const auto& p : hand) X_WH.push_back(scene.handOffset * p.pose);
    bench::FclScene fcl(fclHand, X_WH, fclObject, scene.objectPose);
    bool fclColliding = false;
    double fclDistance = 0, fclShared = 0, fclBroad = 0;
    const std::size_t n = hand.size();
    const double fCollidePairs = medianSeconds([&] {
      bool any = false;
      for (std::size_t i = 0; i < n; ++i) any |= fcl.collidePair(i);
      fclColliding = any;
    });
    const double fDistancePairs = medianSeconds([&] {
      double best = std::numeric_limits<double>::infinity();
      for (std::size_t i = 0; i < n; ++i) best = std::min(best, fcl.distancePair(i));
      fclDistance = best;
    });
    const double fWithinPairs = medianSeconds([&] {
      for (std::size_t i = 0; i < n; ++i) (void)fcl.distanceWithinPair(i, ContactQueryOptions{}.threshold_mm);
    });
    const double fCollideHand = medianSeconds([&] {
      for (std::size_t i = 0; i < n; ++i)
        if (fcl.collidePair(i)) break;
    });
    const double fDistanceShared = medianSeconds([&] { fclShared = fcl.distanceSharedResult(); });
    const double fCollideBroad = medianSeconds([&] { (void)fcl.collideBroadphase(); });
    const double fDistanceBroad = medianSeconds([&] { fclBroad = fcl.distanceBroadphase(); });
    std::printf("  FCL min distance %.6f mm (shared result %.6f, broadphase %.6f), colliding %s\n", fclDistance,
                fclShared, fclBroad, fclColliding ? "yes" : "no");
    if (fclColliding != ours.colliding || std::abs(fclDistance - ours.distance_mm) > 1e-6)
      std::printf("  !! the answers differ: the comparison below is not of the same query\n");
    std::printf("  same query, same input, µs:               SoftGrasp        FCL\n");
    std::printf("   per pair (every body its own query):\n");
    printRatio("collide", ours.collidePairs, fCollidePairs, "collide, fresh result");
    printRatio("distance", ours.distancePairs, fDistancePairs, "distance, fresh result");
    printRatio("contacts within 0.2 mm", ours.contactsPairs, fWithinPairs,
               "no such query: distance seeded at 0.2 mm (one pair)");
    std::printf("   per hand (one query over the bodies):\n");
    printRatio("collide, first hit", ours.collideHand, fCollideHand, "collide, first hit");
    printRatio("collide, first hit", ours.collideHand, fCollideBroad, "broadphase manager");
    printRatio("distance, bound carried", ours.distanceHand, fDistanceShared, "one shared DistanceResult");
    printRatio("distance, bound carried", ours.distanceHand, fDistanceBroad, "broadphase manager");
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--default-only") == 0) defaultOnly = true;
    else if (std::strcmp(argv[i], "--object") == 0 && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: bench_contacts [--quick] [--default-only] [--object mug|bumpy]\n");
      return 2;
    }
  }
#ifndef SG_HAVE_FCL
  std::printf("(FCL not found at configure time: only SoftGrasp timings)\n");
#endif
  Robot robot;
  bool fromFile = false;
  const auto hand = loadHand(robot, fromFile);
  // The hand above the object, approach (palm +z) pointing down toward it.
  const Transform flip(Quat(Eigen::AngleAxisd(kPi, Vec3::UnitX())), Vec3(0, 0, 250));
  const Vec3 approach = flip.applyToVector(Vec3::UnitZ());
  std::vector<Part> placed = hand;
  for (auto& p : placed) p.pose = flip * p.pose;
  std::printf("all times are medians per query over every hand body against the object, in microseconds\n");
  if (only.empty() || only == "mug") runObject("mug", placed, Transform::identity(), approach);
  if (only.empty() || only == "bumpy") runObject("bumpy", placed, Transform::identity(), approach);
  return 0;
}
